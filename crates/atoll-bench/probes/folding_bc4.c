// polybench's folding on BlockCyclic(4) over 2 pinned threads (issue 13), polybench's size
// (n = 50400, 10 repetitions of five folds), one spinning barrier per fold, against the
// sequential loop of the benchmark's reference (the first fold into a second array, the next
// ones in place):
//   direct: each thread computes the outputs it owns (b[i] with (i / 4) % 2 == me, stored at
//           (i / 8) * 4 + i % 4), block by block in its storage order, loading both inputs
//           a[2i] and a[2i + 1] where they live: no copies; half of every fold's inputs are
//           the other thread's.
// Compile without -march=native: the same instruction set as the Rust build.
//
//   gcc -O3 -pthread crates/atoll-bench/probes/folding_bc4.c -o /tmp/folding_bc4 && /tmp/folding_bc4
#define _GNU_SOURCE
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include "two_threads.h"
#define N 50400
#define REPS 10
#define H (N / 2)
// BlockCyclic(4) storage: element i of an array lives on thread (i / 4) % 2 at index
// (i / 8) * 4 + i % 4.
static double IN[2][H], A[2][H], B[2][H];
static double best2 = 1e9;
#define AT(x, i) (x)[((i) >> 2) & 1][(((i) >> 3) << 2) | ((i) & 3)]

// out[i] = in[2i] + in[2i + 1] for the i < h that thread `me` owns, block by block.
static void fold(double (*in)[H], double (*out)[H], int h, int me) {
    double *w = out[me];
    for (int blk = me * 4; blk < h; blk += 8) {
        int end = blk + 4 < h ? blk + 4 : h;
        double *wb = w + (blk >> 3) * 4;
        for (int i = blk; i < end; i++) wb[i - blk] = AT(in, 2 * i) + AT(in, 2 * i + 1);
    }
}

static void *run(void *p) {
    int me = (int)(long)p, ls = 0;
    pin_to(me);
    for (int rep = 0; rep < 50; rep++) {
        barrier(&ls);
        double t0 = now();
        for (int r = 0; r < REPS; r++) {
            double(*a)[H] = A, (*b)[H] = B;
            int len = N / 2;
            fold(IN, a, len, me);
            barrier(&ls);
            while (len % 2 == 0) {
                fold(a, b, len / 2, me);
                barrier(&ls);
                double(*x)[H] = a;
                a = b;
                b = x;
                len /= 2;
            }
        }
        double dt = now() - t0;
        if (me == 0 && dt < best2) best2 = dt;
    }
    return 0;
}

int main(void) {
    double *in = malloc(N * 8), *v = calloc(H, 8);
    for (int i = 0; i < N; i++) in[i] = AT(IN, i) = i % 97;
    double best = 1e9;
    int len = 0;
    for (int rep = 0; rep < 50; rep++) {
        double t0 = now();
        for (int r = 0; r < REPS; r++) {
            len = N / 2;
            for (int i = 0; i < len; i++) v[i] = in[2 * i] + in[2 * i + 1];
            while (len % 2 == 0) {
                len /= 2;
                for (int i = 0; i < len; i++) v[i] = v[2 * i] + v[2 * i + 1];
            }
        }
        double dt = now() - t0;
        if (dt < best) best = dt;
    }
    pthread_t th[2];
    for (long i = 0; i < 2; i++) pthread_create(&th[i], 0, run, (void *)i);
    for (int i = 0; i < 2; i++) pthread_join(th[i], 0);
    // The last fold (the fourth in place: 25200 -> 12600 -> 6300 -> 3150 -> 1575) wrote A:
    // its `len` values must equal the sequential ones.
    int ok = len == 1575;
    for (int i = 0; i < len; i++) ok &= AT(A, i) == v[i];
    printf("sequential           %7.1f us\n", best * 1e6);
    printf("2 threads, direct    %7.1f us  speedup vs sequential %.2f  %s\n", best2 * 1e6, best / best2, ok ? "ok" : "WRONG");
    return 0;
}
