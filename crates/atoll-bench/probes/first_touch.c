// First writes to fresh memory (docs/BENCHMARKS.md, "Noise on a 2-vCPU guest"): a 512 MiB
// anonymous mapping (advised for huge pages, as Atoll's large buffers are) written with memset twice,
// four times in one process, unmapping between rounds; then, after a pause, once more. On a
// 2-vCPU KVM guest the first round of a process (pages the guest had given back to the
// hypervisor) ran at 0.4-0.8 GB/s, later rounds (pages the guest still held, unmapped a moment
// before) at 7-8 GB/s, and the second write of a round at ~25 GB/s. Freed memory goes back to
// the hypervisor within about a second (free page reporting): the round after the pause is
// slow again. Why `atoll_runtime::page_pool` keeps large freed buffers.
//
//   gcc -O2 crates/atoll-bench/probes/first_touch.c -o /tmp/first_touch && /tmp/first_touch
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec * 1e-9;
}

static void round_of(size_t n, const char *what) {
    char *p = mmap(0, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED) {
        perror("mmap");
        exit(1);
    }
    madvise(p, n, MADV_HUGEPAGE);
    double t0 = now();
    memset(p, 1, n);
    double t1 = now();
    memset(p, 2, n);
    double t2 = now();
    // Read one byte per page back, so the writes cannot be elided.
    long sum = 0;
    for (size_t i = 0; i < n; i += 4096) sum += p[i];
    printf("%-22s first write %.3f s (%5.1f GB/s), second %.3f s (%5.1f GB/s)  %s\n", what, t1 - t0, n / (t1 - t0) / 1e9, t2 - t1,
           n / (t2 - t1) / 1e9, sum == 2 * (long)(n / 4096) ? "ok" : "WRONG");
    munmap(p, n);
}

int main(void) {
    size_t n = 512ul << 20;
    for (int r = 0; r < 4; r++) round_of(n, r == 0 ? "round 1 (fresh)" : "round 2-4 (just freed)");
    sleep(3);
    round_of(n, "after a 3 s pause");
    return 0;
}
