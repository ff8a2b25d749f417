// The memory floor of `groupby_sum` on the host it runs on: n = 2^26 int64 keys in
// 0..2^16 and float64 values (1 GiB), on huge pages, split between 2 pinned threads.
//   read-only:   both arrays read once (independent XORs, bandwidth-bound), nothing else;
//   scatter-add: one private 2^16-slot table per thread, `t[k] += v` (the tables' combine and
//                the key order are left out: a lower bound for any one-pass GroupBy sum);
//   1 thread:    the same scatter-add on one thread.
// The target (3x NumPy's `bincount(weights=)`, timed by `python bench/python/bench.py
// groupby_sum`) asks the whole Python GroupBy for this time divided by 3.
//
//   gcc -O3 -pthread crates/atoll-bench/probes/groupby_floor.c -o /tmp/groupby_floor && /tmp/groupby_floor
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include "probe.h"
#define N (1L << 26)
#define K (1 << 16)
static int64_t *keys;
static double *vals;
static double tab[2][K];
static double sink[2];
static int mode;
static pthread_barrier_t bar;

static void *run(void *p) {
    int me = (int)(long)p;
    pin_to(me);
    long lo = me * (N / 2), hi = lo + N / 2;
    pthread_barrier_wait(&bar);
    if (mode == 0) {
        const uint64_t *v = (const uint64_t *)vals, *k = (const uint64_t *)keys;
        uint64_t a0 = 0, a1 = 0, a2 = 0, a3 = 0;
        for (long i = lo; i < hi; i += 2) {
            a0 ^= v[i];
            a1 ^= k[i];
            a2 ^= v[i + 1];
            a3 ^= k[i + 1];
        }
        sink[me] = (double)(a0 ^ a1 ^ a2 ^ a3);
    } else {
        double *t = tab[me];
        memset(t, 0, sizeof tab[0]);
        for (long i = lo; i < hi; i++) t[keys[i]] += vals[i];
        sink[me] = t[5];
    }
    pthread_barrier_wait(&bar);
    return 0;
}

int main(void) {
    keys = mmap(0, N * 8, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    vals = mmap(0, N * 8, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (keys == MAP_FAILED || vals == MAP_FAILED) return 1;
    madvise(keys, N * 8, MADV_HUGEPAGE);
    madvise(vals, N * 8, MADV_HUGEPAGE);
    uint64_t x = 88172645463325252ULL;
    for (long i = 0; i < N; i++) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        keys[i] = (int64_t)(x % K);
        vals[i] = (double)(x >> 20) * 1e-9;
    }
    pthread_barrier_init(&bar, 0, 3);
    for (mode = 0; mode < 2; mode++) {
        double best = 1e9;
        for (int r = 0; r < 5; r++) {
            pthread_t th[2];
            for (long i = 0; i < 2; i++) pthread_create(&th[i], 0, run, (void *)i);
            pthread_barrier_wait(&bar);
            double t0 = now();
            pthread_barrier_wait(&bar);
            double dt = now() - t0;
            for (int i = 0; i < 2; i++) pthread_join(th[i], 0);
            if (dt < best) best = dt;
        }
        printf("%-22s %.4f s (%g)\n", mode ? "scatter-add 2 threads" : "read-only 2 threads", best, sink[0]);
    }
    double best = 1e9;
    for (int r = 0; r < 3; r++) {
        double t0 = now();
        double *t = tab[0];
        memset(t, 0, sizeof tab[0]);
        for (long i = 0; i < N; i++) t[keys[i]] += vals[i];
        double dt = now() - t0;
        if (dt < best) best = dt;
    }
    printf("%-22s %.4f s (%g)\n", "scatter-add 1 thread", best, tab[0][5]);
    return 0;
}
