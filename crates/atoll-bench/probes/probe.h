// What every probe here shares: pinning the calling thread and a monotonic clock in seconds.
// Include after defining _GNU_SOURCE.
#include <pthread.h>
#include <sched.h>
#include <time.h>

// Pins the calling thread to CPU `cpu`.
static void pin_to(int cpu) {
    cpu_set_t s;
    CPU_ZERO(&s);
    CPU_SET(cpu, &s);
    pthread_setaffinity_np(pthread_self(), sizeof s, &s);
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}
