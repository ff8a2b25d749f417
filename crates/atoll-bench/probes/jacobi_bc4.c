// jacobi1D on BlockCyclic(4) over 2 pinned threads (issue 13), polybench's size (n = 10^4,
// 100 steps), one spinning barrier per step, against the sequential loop:
//   direct:       each thread computes its blocks in place, reading the neighbour's block
//                 edges where they live (no copies);
//   copied rows:  what Atoll's zippered loop does for `A[i-1]`, `A[i+1]` (follow_shift.rs):
//                 per step two rows, the own storage copied shifted by one, then the halo (one
//                 element per block) written at stride 4 from the neighbour, then the loop.
// Compile without -march=native: the same instruction set as the Rust build.
//
//   gcc -O3 -pthread crates/atoll-bench/probes/jacobi_bc4.c -o /tmp/jacobi_bc4 && /tmp/jacobi_bc4
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
static double A[2][H + 8], B[2][H + 8];
static int copied;
static double best2 = 1e9;

// Thread `me` owns global blocks q = 2m + me (m = 0..H/4), stored one after the other.
static void *run(void *p) {
    int me = (int)(long)p, ls = 0;
    pin_to(me);
    double *L = calloc(H + 8, 8), *R = calloc(H + 8, 8);
    for (int rep = 0; rep < 50; rep++) {
        barrier(&ls);
        double t0 = now();
        double(*a)[H + 8] = A, (*b)[H + 8] = B;
        for (int t = 0; t < T; t++) {
            double *own = a[me], *oth = a[1 - me], *out = b[me];
            if (!copied) {
                for (int m = 0; m < H / 4; m++) {
                    int q = 2 * m + me;
                    double *o = own + 4 * m;
                    double left = me ? oth[4 * m + 3] : (m > 0 ? oth[4 * (m - 1) + 3] : 0);
                    double right = me ? oth[4 * (m + 1)] : oth[4 * m];
                    double r0 = 0.33333 * (left + o[0] + o[1]), r3 = 0.33333 * (o[2] + o[3] + right);
                    out[4 * m] = q == 0 ? o[0] : r0;
                    out[4 * m + 1] = 0.33333 * (o[0] + o[1] + o[2]);
                    out[4 * m + 2] = 0.33333 * (o[1] + o[2] + o[3]);
                    out[4 * m + 3] = q == N / 4 - 1 ? o[3] : r3;
                }
            } else {
                memcpy(L + 1, own, (H - 1) * 8);
                memcpy(R, own + 1, (H - 1) * 8);
                for (int m = 0; m < H / 4; m++) L[4 * m] = me ? oth[4 * m + 3] : (m > 0 ? oth[4 * (m - 1) + 3] : 0);
                for (int m = 0; m < H / 4; m++) R[4 * m + 3] = me ? oth[4 * (m + 1)] : oth[4 * m];
                for (int j = 0; j < H; j++) out[j] = 0.33333 * (L[j] + own[j] + R[j]);
                if (me == 0) out[0] = own[0];
                if (me == 1) out[H - 1] = own[H - 1];
            }
            barrier(&ls);
            double(*x)[H + 8] = a;
            a = b;
            b = x;
        }
        double dt = now() - t0;
        if (me == 0 && dt < best2) best2 = dt;
    }
    free(L);
    free(R);
    return 0;
}

int main(void) {
    double *sa = malloc(N * 8), *sb = malloc(N * 8);
    for (int i = 0; i < N; i++) sa[i] = sb[i] = (i + 2.0) / N;
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
    printf("sequential           %7.1f us\n", best * 1e6);
    for (copied = 0; copied < 2; copied++) {
        for (int l = 0; l < 2; l++)
            for (int k = 0; k < H + 8; k++) A[l][k] = B[l][k] = k;
        best2 = 1e9;
        pthread_t th[2];
        for (long i = 0; i < 2; i++) pthread_create(&th[i], 0, run, (void *)i);
        for (int i = 0; i < 2; i++) pthread_join(th[i], 0);
        printf("2 threads, %-11s%7.1f us  speedup vs sequential %.2f\n", copied ? "copied rows" : "direct", best2 * 1e6, best / best2);
    }
    return 0;
}
