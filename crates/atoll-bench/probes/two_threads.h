// What the two-thread probes share (jacobi.c, folding.c): `probe.h`, and a
// sense-reversing spinning barrier for exactly two threads. Include after defining _GNU_SOURCE.
#include <stdatomic.h>
#include "probe.h"

static atomic_int cnt, sense;

// `ls` is the calling thread's own sense, flipped at every barrier.
static void barrier(int *ls) {
    *ls = !*ls;
    if (atomic_fetch_add(&cnt, 1) == 1) {
        atomic_store(&cnt, 0);
        atomic_store(&sense, *ls);
    } else {
        while (atomic_load(&sense) != *ls) __builtin_ia32_pause();
    }
}
