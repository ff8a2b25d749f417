// jacobi1D over 2 pinned threads, polybench's size (n = 10^4, 100 steps), one
// spinning barrier per step, against the sequential loop:
//   BlockCyclic(4), direct:      each thread computes its blocks in place, reading the
//                                neighbour's block edges where they live (no copies);
//   BlockCyclic(4), copied rows: what Atoll's zippered loop does for `A[i-1]`, `A[i+1]`
//                                (follow_shift.rs): per step two rows, the own storage copied
//                                shifted by one, then the halo (one element per block) written
//                                at stride 4 from the neighbour, then the loop;
//   Cyclic, direct:              each thread computes the elements it owns (element i on thread
//                                i % 2 at index i / 2), reading both neighbours where they
//                                live: every neighbour is the other thread's, so each step
//                                reads the other's whole half (no copies); checked against the
//                                sequential loop;
//   lines only:                  the communication alone: each step reads one
//                                element of every cache line the other thread wrote and writes
//                                its own half, no arithmetic;
//   arithmetic only:             BlockCyclic(4) direct with the edges from the own storage (no
//                                line crosses between the cores; wrong values, the same work).
// Compile without -march=native: the same instruction set as the Rust build.
//
//   gcc -O3 -pthread crates/atoll-bench/probes/jacobi.c -o /tmp/jacobi && /tmp/jacobi
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
// 0: BlockCyclic(4) direct; 1: BlockCyclic(4) copied rows; 2: Cyclic direct.
static int variant;
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
            if (variant == 3) {
                // The communication alone: each step reads one element of every cache line the
                // other thread wrote in the step before (the lines a BlockCyclic(4) or Cyclic
                // step must bring over), and writes its own half; no arithmetic.
                double a0 = 0, a1 = 0, a2 = 0, a3 = 0;
                for (int k = 0; k < H; k += 32) {
                    a0 += oth[k];
                    a1 += oth[k + 8];
                    a2 += oth[k + 16];
                    a3 += oth[k + 24];
                }
                memcpy(out, own, H * 8);
                out[0] += (a0 + a1 + a2 + a3) * 1e-300;
            } else if (variant == 4) {
                // The arithmetic alone: BlockCyclic(4) direct with the neighbours' edges taken
                // from the thread's own storage (no line crosses between the cores; wrong values,
                // the same work).
                for (int m = 0; m < H / 4; m++) {
                    double *o = own + 4 * m;
                    double left = m > 0 ? own[4 * m - 1] : 0, right = own[4 * m + 4];
                    out[4 * m] = 0.33333 * (left + o[0] + o[1]);
                    out[4 * m + 1] = 0.33333 * (o[0] + o[1] + o[2]);
                    out[4 * m + 2] = 0.33333 * (o[1] + o[2] + o[3]);
                    out[4 * m + 3] = 0.33333 * (o[2] + o[3] + right);
                }
            } else if (variant == 2) {
                // Thread 0 owns i = 2k (neighbours 2k - 1, 2k + 1: thread 1's k - 1, k); thread
                // 1 owns i = 2k + 1 (neighbours 2k, 2k + 2: thread 0's k, k + 1). i = 0 and
                // i = N - 1 stay.
                if (me == 0) {
                    out[0] = own[0];
                    for (int k = 1; k < H; k++) out[k] = 0.33333 * (oth[k - 1] + own[k] + oth[k]);
                } else {
                    for (int k = 0; k < H - 1; k++) out[k] = 0.33333 * (oth[k] + own[k] + oth[k + 1]);
                    out[H - 1] = own[H - 1];
                }
            } else if (variant == 0) {
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
    printf("sequential                         %7.1f us\n", best * 1e6);
    static const char *names[5] = {"BlockCyclic(4), direct", "BlockCyclic(4), copied rows", "Cyclic, direct", "lines only (no arithmetic)", "arithmetic only (no lines)"};
    for (variant = 0; variant < 5; variant++) {
        // Cyclic starts from the sequential loop's start and, after the same 50 x 100 steps,
        // must end with its values (`sa`); BlockCyclic starts from arbitrary values (unchecked).
        for (int l = 0; l < 2; l++)
            for (int k = 0; k < H + 8; k++) A[l][k] = B[l][k] = k;
        if (variant == 2)
            for (int i = 0; i < N; i++) A[i % 2][i / 2] = B[i % 2][i / 2] = (i + 2.0) / N;
        best2 = 1e9;
        pthread_t th[2];
        for (long i = 0; i < 2; i++) pthread_create(&th[i], 0, run, (void *)i);
        for (int i = 0; i < 2; i++) pthread_join(th[i], 0);
        const char *verdict = "";
        if (variant == 2) {
            int ok = 1;
            for (int i = 0; i < N; i++) ok &= A[i % 2][i / 2] == sa[i];
            verdict = ok ? "ok" : "WRONG";
        }
        printf("2 threads, %-24s%7.1f us  speedup vs sequential %.2f  %s\n", names[variant], best2 * 1e6, best / best2, verdict);
    }
    return 0;
}
