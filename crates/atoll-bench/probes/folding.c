// polybench's folding over 2 pinned threads, polybench's size (n = 50400, 10
// repetitions of five folds), one spinning barrier per fold, on Cyclic and on BlockCyclic(4)
// storage, against the sequential loop of the benchmark's reference (the first fold into a
// second array, the next ones in place):
//   direct: each thread computes the outputs it owns (Cyclic: b[i], i = me mod 2, stored at
//           i / 2; BlockCyclic(4): (i / 4) % 2 == me, stored at (i / 8) * 4 + i % 4, block by
//           block), loading both inputs a[2i] and a[2i + 1] where they live: no copies. On
//           Cyclic half of every input line is the other's; on BlockCyclic(4) every output
//           block reads one input block of each thread.
//   BlockCyclic(4) as Atoll's zippered loop reads it: residue passes (one pass
//           per offset in the block, stride 4 written, stride 8 read), residue strips (the
//           same interleaved in strips of 64 blocks), and blocks through a table (block by
//           block, the offsets inner, each offset's source from a table: what a generic
//           engine could run for any block size).
// Compile without -march=native: the same instruction set as the Rust build.
//
//   gcc -O3 -pthread crates/atoll-bench/probes/folding.c -o /tmp/folding && /tmp/folding
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
static double IN[2][H], A[2][H], B[2][H];
static double best2 = 1e9;
// 0: Cyclic (element i on thread i % 2 at index i / 2); 1: BlockCyclic(4) (element i on
// thread (i / 4) % 2 at index (i / 8) * 4 + i % 4).
static int layout;
static volatile int block_size = 4;

static double *at(double (*x)[H], int i) {
    return layout != 0 ? &x[(i >> 2) & 1][((i >> 3) << 2) | (i & 3)] : &x[i & 1][i >> 1];
}

// out[i] = in[2i] + in[2i + 1] for the i < h that thread `me` owns.
static void fold(double (*in)[H], double (*out)[H], int h, int me) {
    double *w = out[me];
    if (layout == 0) {
        const double *e = in[0], *o = in[1];
        for (int i = me; i < h; i += 2) w[i / 2] = e[i] + o[i];
        return;
    }
    // Output block q (outputs 4q..4q+3, thread q % 2, at (q / 2) * 4) reads input blocks 2q
    // and 2q + 1: thread 0's and thread 1's, both at index 4q.
    const double *e = in[0], *o = in[1];
    if (layout >= 2) {
        // Offset r of this thread's output blocks m (q = 2m + me) reads thread r / 2's input
        // at 8m + 4me + 2(r % 2) and the next element: Atoll's residue tiles, one progression
        // per offset (stride 4 written, stride 8 read). Layout 2 runs each over all blocks;
        // layout 3 interleaves the four in strips of 64 blocks.
        // Whole output blocks first (q = 2m + me with 4q + 4 <= h), then a partial one.
        int full = h / 4 - me > 0 ? (h / 4 - me - 1) / 2 + 1 : 0, strip = layout == 2 ? full : 64;
        for (int q = 2 * full + me; 4 * q < h; q += 2)
            for (int i = 4 * q; i < h && i < 4 * q + 4; i++) w[(q >> 1) * 4 + i - 4 * q] = *at(in, 2 * i) + *at(in, 2 * i + 1);
        int blocks = full;
        if (layout == 4) {
            // Block by block, the offsets inner, through a table of the four sources (what a
            // generic engine could run for any block size `bs`, here read from a volatile).
            const double *src[4];
            int bs = block_size;
            for (int r = 0; r < 4; r++) src[r] = in[r >> 1] + 4 * me + 2 * (r & 1);
            for (int m = 0; m < blocks; m++)
                for (int r = 0; r < bs; r++) w[bs * m + r] = src[r][8 * m] + src[r][8 * m + 1];
            return;
        }
        for (int m0 = 0; m0 < blocks; m0 += strip) {
            int m1 = m0 + strip < blocks ? m0 + strip : blocks;
            for (int r = 0; r < 4; r++) {
                const double *src = in[r >> 1] + 4 * me + 2 * (r & 1);
                for (int m = m0; m < m1; m++) w[4 * m + r] = src[8 * m] + src[8 * m + 1];
            }
        }
        return;
    }
    for (int q = me; 4 * q < h; q += 2) {
        double *wb = w + (q >> 1) * 4;
        const double *x = e + 4 * q, *y = o + 4 * q;
        if (4 * q + 4 <= h) {
            wb[0] = x[0] + x[1];
            wb[1] = x[2] + x[3];
            wb[2] = y[0] + y[1];
            wb[3] = y[2] + y[3];
        } else {
            for (int i = 4 * q; i < h; i++) wb[i - 4 * q] = *at(in, 2 * i) + *at(in, 2 * i + 1);
        }
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
    for (int i = 0; i < N; i++) in[i] = i % 97;
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
    printf("sequential                          %7.1f us\n", best * 1e6);
    static const char *names[5] = {"Cyclic", "BlockCyclic(4)", "BC(4) residue passes", "BC(4) residue strips", "BC(4) blocks, table"};
    for (layout = 0; layout < 5; layout++) {
        for (int i = 0; i < N; i++) *at(IN, i) = in[i];
        best2 = 1e9;
        pthread_t th[2];
        for (long i = 0; i < 2; i++) pthread_create(&th[i], 0, run, (void *)i);
        for (int i = 0; i < 2; i++) pthread_join(th[i], 0);
        // The last fold (the fourth in place: 25200 -> 12600 -> 6300 -> 3150 -> 1575) wrote A:
        // its `len` values must equal the sequential ones.
        int ok = len == 1575;
        for (int i = 0; i < len; i++) ok &= *at(A, i) == v[i];
        printf("2 threads, direct, %-20s %7.1f us  speedup vs sequential %.2f  %s\n", names[layout], best2 * 1e6,
               best / best2, ok ? "ok" : "WRONG");
    }
    return 0;
}
