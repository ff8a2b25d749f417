// What the two-thread probes share (jacobi_bc4.c, folding_cyclic.c): pinning, a
// sense-reversing spinning barrier for exactly two threads, and a monotonic clock in seconds.
// Include after defining _GNU_SOURCE.
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <time.h>

// Pins the calling thread to CPU `cpu`.
static void pin_to(int cpu) {
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(cpu, &s);
    pthread_setaffinity_np(pthread_self(), sizeof s, &s);
}

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

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}
