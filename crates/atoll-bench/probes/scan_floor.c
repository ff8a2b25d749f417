// The memory floor of `scan` (the target: `cumsum` >= 1.5x one core on 2 locales) on the
// host it runs on: an inclusive prefix sum of n = 2^26 uint64 (512 MiB in, 512 MiB out), both arrays
// on huge pages and already faulted (the "into a preallocated output" rule), best of 7 runs.
//   1 thread, plain stores:  the loop of `atoll-bench arkouda`'s one-core reference;
//   1 thread, streaming:     the same with non-temporal stores (no read for ownership);
//   2 threads, two-pass:     the parts' bases first (each thread folds half of the first
//                            half), then each thread scans its half with streaming stores
//                            (what Atoll's `scan_one_pass.rs` does on 2 locales: 1.5 reads);
//   2 threads, one pass:     128 KiB chunks dealt alternately, each folded (from memory),
//                            its prefix taken from its predecessor (a chained look-back over
//                            both threads), then re-read from cache and written streaming:
//                            one read and one write of everything, the least any scan moves.
//   2 threads, read only:    both halves folded, nothing written (the read bandwidth alone).
// The gate asks 2 threads for 1/1.5 of the one-core time.
//
//   gcc -O3 -pthread crates/atoll-bench/probes/scan_floor.c -o /tmp/scan_floor && /tmp/scan_floor
// (the same instruction set as the Rust build, SSE2; add -mavx2 for 32-byte loads and stores)
#define _GNU_SOURCE
#include <immintrin.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <time.h>
#include "probe.h"
#define N (1L << 26)
#define CHUNK (16384L) /* 128 KiB of input */
#define NCHUNK (N / CHUNK)
static uint64_t *in, *out;
static uint64_t sums[2], sink[2];
static _Atomic uint64_t prefix[NCHUNK];
static _Atomic int ready[NCHUNK];
static int mode;
static pthread_barrier_t bar;

static uint64_t *huge(size_t bytes) {
    void *p = aligned_alloc(2 << 20, bytes);
    madvise(p, bytes, MADV_HUGEPAGE);
    return p;
}

static uint64_t fold(const uint64_t *a, long n) {
    uint64_t s = 0;
    for (long i = 0; i < n; i++) s += a[i];
    return s;
}

// Scans a[0..n) into o with base `acc`, streaming stores (32 bytes with AVX2, else 16).
static uint64_t scan_stream(const uint64_t *a, uint64_t *o, long n, uint64_t acc) {
    for (long i = 0; i < n; i += 4) {
        uint64_t v0 = acc + a[i], v1 = v0 + a[i + 1], v2 = v1 + a[i + 2], v3 = v2 + a[i + 3];
        acc = v3;
#ifdef __AVX2__
        _mm256_stream_si256((__m256i *)(o + i), _mm256_set_epi64x(v3, v2, v1, v0));
#else
        _mm_stream_si128((__m128i *)(o + i), _mm_set_epi64x(v1, v0));
        _mm_stream_si128((__m128i *)(o + i + 2), _mm_set_epi64x(v3, v2));
#endif
    }
    return acc;
}

static void *worker(void *arg) {
    long t = (long)arg;
    pin_to((int)t);
    for (;;) {
        pthread_barrier_wait(&bar);
        if (mode < 0) return 0;
        long h = N / 2;
        if (mode == 0) { // two-pass, balanced bases
            sums[t] = fold(in + t * (h / 2), h / 2);
            pthread_barrier_wait(&bar);
            uint64_t base = t == 0 ? 0 : sums[0] + sums[1];
            scan_stream(in + t * h, out + t * h, h, base);
        } else if (mode == 1) { // one pass, chained look-back over alternating chunks
            for (long c = t; c < NCHUNK; c += 2) {
                uint64_t mine = fold(in + c * CHUNK, CHUNK);
                uint64_t base = 0;
                if (c > 0) {
                    while (!atomic_load_explicit(&ready[c - 1], memory_order_acquire)) _mm_pause();
                    base = atomic_load_explicit(&prefix[c - 1], memory_order_relaxed);
                }
                atomic_store_explicit(&prefix[c], base + mine, memory_order_relaxed);
                atomic_store_explicit(&ready[c], 1, memory_order_release);
                scan_stream(in + c * CHUNK, out + c * CHUNK, CHUNK, base);
            }
        } else if (mode == 2) { // read only
            sink[t] = fold(in + t * h, h);
        }
        _mm_sfence();
        pthread_barrier_wait(&bar);
    }
}

static int check(void) {
    uint64_t acc = 0;
    for (long i = 0; i < N; i++) {
        acc += in[i];
        if (out[i] != acc) return 0;
    }
    return 1;
}

int main(void) {
    in = huge(N * 8);
    out = huge(N * 8);
    for (long i = 0; i < N; i++) in[i] = i % 1024, out[i] = 0;
    double best[6] = {1e9, 1e9, 1e9, 1e9, 1e9, 1e9};
    pthread_t th[2];
    pthread_barrier_init(&bar, 0, 3);
    for (long t = 0; t < 2; t++) pthread_create(&th[t], 0, worker, (void *)t);
    int ok = 1;
    for (int r = 0; r < 7; r++) {
        double t0 = now();
        uint64_t acc = 0;
        for (long i = 0; i < N; i++) acc += in[i], out[i] = acc;
        double t1 = now();
        if (t1 - t0 < best[0]) best[0] = t1 - t0;
        ok &= r > 0 || check();
        t0 = now();
        scan_stream(in, out, N, 0);
        _mm_sfence();
        t1 = now();
        if (t1 - t0 < best[1]) best[1] = t1 - t0;
        ok &= r > 0 || check();
        for (mode = 0; mode < 3; mode++) {
            for (long c = 0; c < NCHUNK; c++) atomic_store(&ready[c], 0);
            t0 = now();
            pthread_barrier_wait(&bar);
            if (mode == 0) pthread_barrier_wait(&bar);
            pthread_barrier_wait(&bar);
            t1 = now();
            if (t1 - t0 < best[2 + mode]) best[2 + mode] = t1 - t0;
            if (mode < 2) ok &= r > 0 || check();
        }
    }
    mode = -1;
    pthread_barrier_wait(&bar);
    const char *names[5] = {"1 thread, plain stores", "1 thread, streaming", "2 threads, two-pass", "2 threads, one pass", "2 threads, read only"};
    for (int i = 0; i < 5; i++)
        printf("%-24s %.4f s  %5.1f GiB/s of its traffic  speedup vs 1 thread plain %.2f\n", names[i], best[i],
               (i == 4 ? 8.0 : i == 2 ? 20.0 : 16.0) * N / best[i] / (1 << 30), best[0] / best[i]);
    printf("(sink %lu)\n", (unsigned long)(sink[0] + sink[1]));
    printf("results %s (every variant checked on its first run)\n", ok ? "ok" : "WRONG");
    return !ok;
}
