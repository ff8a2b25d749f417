// jacobi1D on Cyclic over 2 pinned threads (issue 13), polybench's size (n = 10^4, 100 steps),
// one spinning barrier per step, against the sequential loop:
//   direct: each thread computes the elements it owns in place (element i on thread i % 2 at
//           index i / 2), reading both neighbours where they live: every neighbour is the
//           other thread's, so each step reads the other's whole half (no copies).
// Compile without -march=native: the same instruction set as the Rust build.
//
//   gcc -O3 -pthread crates/atoll-bench/probes/jacobi_cyclic.c -o /tmp/jacobi_cyclic && /tmp/jacobi_cyclic
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "two_threads.h"
#define N 10000
#define T 100
#define H (N / 2)
static double A[2][H], B[2][H];
static double best2 = 1e9;

static void *run(void *p) {
    int me = (int)(long)p, ls = 0;
    pin_to(me);
    for (int rep = 0; rep < 50; rep++) {
        barrier(&ls);
        double t0 = now();
        double(*a)[H] = A, (*b)[H] = B;
        for (int t = 0; t < T; t++) {
            const double *own = a[me], *oth = a[1 - me];
            double *out = b[me];
            // Thread 0 owns i = 2k (neighbours 2k - 1, 2k + 1: thread 1's k - 1, k); thread 1
            // owns i = 2k + 1 (neighbours 2k, 2k + 2: thread 0's k, k + 1). i = 0 and
            // i = N - 1 stay.
            if (me == 0) {
                out[0] = own[0];
                for (int k = 1; k < H; k++) out[k] = 0.33333 * (oth[k - 1] + own[k] + oth[k]);
            } else {
                for (int k = 0; k < H - 1; k++) out[k] = 0.33333 * (oth[k] + own[k] + oth[k + 1]);
                out[H - 1] = own[H - 1];
            }
            barrier(&ls);
            double(*x)[H] = a;
            a = b;
            b = x;
        }
        double dt = now() - t0;
        if (me == 0 && dt < best2) best2 = dt;
    }
    return 0;
}

int main(void) {
    double *sa = malloc(N * 8), *sb = malloc(N * 8);
    for (int i = 0; i < N; i++) sa[i] = sb[i] = (i + 2.0) / N;
    for (int i = 0; i < N; i++) A[i % 2][i / 2] = B[i % 2][i / 2] = sa[i];
    double best = 1e9;
    for (int rep = 0; rep < 50; rep++) {
        double t0 = now();
        for (int t = 0; t < T; t++) {
            for (int i = 1; i < N - 1; i++) sb[i] = 0.33333 * (sa[i - 1] + sa[i] + sa[i + 1]);
            double *x = sa;
            sa = sb;
            sb = x;
        }
        double dt = now() - t0;
        if (dt < best) best = dt;
    }
    pthread_t th[2];
    for (long i = 0; i < 2; i++) pthread_create(&th[i], 0, run, (void *)i);
    for (int i = 0; i < 2; i++) pthread_join(th[i], 0);
    // 50 x 100 steps (an even count) on both sides, from the same start: A must equal sa.
    int ok = 1;
    for (int i = 0; i < N; i++) ok &= A[i % 2][i / 2] == sa[i];
    printf("sequential           %7.1f us\n", best * 1e6);
    printf("2 threads, direct    %7.1f us  speedup vs sequential %.2f  %s\n", best2 * 1e6, best / best2, ok ? "ok" : "WRONG");
    return 0;
}
