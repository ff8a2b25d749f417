// spmv_consumer: a C++ process that computes y = A x in place over Atoll shared arrays.
//
// A is an edge list (row, col, val): three shared arrays of equal length and equal block
// layout (int64 rows and cols, float64 vals). x and y are float64 shared arrays of length n.
// Nothing is copied: the consumer reads the blocks through the mappings of include/atoll.h
// and writes y's blocks in place.
//
// Command line (every name is a shared array in --dir):
//   spmv_consumer --dir DIR --rows R --cols C --vals V --x X --y Y
//                 [--iters K (1)] [--timeout-ms T (30000)]
// Protocol, K times: wait for signal 0 of Y ("go"), compute y = A x (y zeroed first, edges
// in order), bump Y's generation counter, post signal 1 of Y ("done"). The producer may
// change x (and the edges) between iterations, e.g. for an iterative method.
// Exit status: 0 done; 2 bad arguments or arrays; 3 a wait timed out (producer gone).
// Messages go to stderr; on success one line "spmv_consumer: K iterations" goes to stdout.

#include "atoll.h"

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

namespace {

[[noreturn]] void die(int code, const std::string &what) {
    std::fprintf(stderr, "spmv_consumer: %s: %s\n", what.c_str(), atoll_last_error());
    std::exit(code);
}

void check(int rc, const std::string &what) {
    if (rc != ATOLL_OK) die(rc == ATOLL_E_TIMEOUT ? 3 : 2, what);
}

struct Block {
    uint64_t lo, hi;
    void *data;
};

// A 1-D shared array of the expected type, with its blocks.
struct Array {
    atoll_array *h = nullptr;
    std::vector<Block> blocks;
    uint64_t n = 0;

    Array(const std::string &dir, const std::string &name, uint32_t dtype, bool writable) {
        check(atoll_open(name.c_str(), dir.c_str(), writable ? 1 : 0, &h), "open " + name);
        uint32_t t = 0, rank = 0;
        check(atoll_dtype(h, &t), "dtype " + name);
        check(atoll_rank(h, &rank), "rank " + name);
        if (t != dtype || rank != 1) {
            std::fprintf(stderr, "spmv_consumer: %s has dtype %u rank %u, expected dtype %u rank 1\n", name.c_str(), t, rank, dtype);
            std::exit(2);
        }
        check(atoll_shape(h, &n), "shape " + name);
        uint64_t nb = 0;
        check(atoll_nblocks(h, &nb), "nblocks " + name);
        for (uint64_t b = 0; b < nb; ++b) {
            Block k{};
            uint64_t len = 0;
            check(atoll_block(h, b, &k.lo, &k.hi, &k.data, &len), "block " + name);
            blocks.push_back(k);
        }
    }
    ~Array() { atoll_close(h); }
    Array(const Array &) = delete;
    Array &operator=(const Array &) = delete;

    // The element at global index i (blocks are contiguous ranges in increasing order).
    template <class T> T &at(uint64_t i) const {
        auto it = std::upper_bound(blocks.begin(), blocks.end(), i, [](uint64_t v, const Block &b) { return v < b.lo; });
        const Block &b = *(it - 1);
        return static_cast<T *>(b.data)[i - b.lo];
    }
};

}  // namespace

int main(int argc, char **argv) {
    std::string dir = "/dev/shm", rows, cols, vals, xs, ys;
    long iters = 1;
    uint64_t timeout_ms = 30000;
    for (int i = 1; i + 1 < argc; i += 2) {
        std::string k = argv[i], v = argv[i + 1];
        if (k == "--dir") dir = v;
        else if (k == "--rows") rows = v;
        else if (k == "--cols") cols = v;
        else if (k == "--vals") vals = v;
        else if (k == "--x") xs = v;
        else if (k == "--y") ys = v;
        else if (k == "--iters") iters = std::atol(v.c_str());
        else if (k == "--timeout-ms") timeout_ms = std::strtoull(v.c_str(), nullptr, 10);
        else { std::fprintf(stderr, "spmv_consumer: unknown option %s\n", k.c_str()); return 2; }
    }
    if (argc % 2 == 0 || rows.empty() || cols.empty() || vals.empty() || xs.empty() || ys.empty() || iters < 1) {
        std::fprintf(stderr, "usage: spmv_consumer --dir DIR --rows R --cols C --vals V --x X --y Y [--iters K] [--timeout-ms T]\n");
        return 2;
    }
    Array r(dir, rows, ATOLL_I64, false), c(dir, cols, ATOLL_I64, false), v(dir, vals, ATOLL_F64, false);
    Array x(dir, xs, ATOLL_F64, false), y(dir, ys, ATOLL_F64, true);
    if (r.n != c.n || r.n != v.n || r.blocks.size() != c.blocks.size() || r.blocks.size() != v.blocks.size()) {
        std::fprintf(stderr, "spmv_consumer: rows, cols and vals must have the same length and blocks\n");
        return 2;
    }
    for (size_t b = 0; b < r.blocks.size(); ++b)
        if (r.blocks[b].lo != c.blocks[b].lo || r.blocks[b].lo != v.blocks[b].lo || r.blocks[b].hi != v.blocks[b].hi) {
            std::fprintf(stderr, "spmv_consumer: rows, cols and vals have different block layouts\n");
            return 2;
        }
    for (long it = 0; it < iters; ++it) {
        check(atoll_signal_wait(y.h, 0, timeout_ms), "waiting for go");
        for (const Block &b : y.blocks) std::fill_n(static_cast<double *>(b.data), b.hi - b.lo, 0.0);
        for (size_t b = 0; b < r.blocks.size(); ++b) {
            const int64_t *ri = static_cast<const int64_t *>(r.blocks[b].data);
            const int64_t *ci = static_cast<const int64_t *>(c.blocks[b].data);
            const double *vi = static_cast<const double *>(v.blocks[b].data);
            for (uint64_t e = 0; e < r.blocks[b].hi - r.blocks[b].lo; ++e) {
                if (ri[e] < 0 || uint64_t(ri[e]) >= y.n || ci[e] < 0 || uint64_t(ci[e]) >= x.n) {
                    std::fprintf(stderr, "spmv_consumer: edge %llu (%lld, %lld) out of range\n",
                                 (unsigned long long)(r.blocks[b].lo + e), (long long)ri[e], (long long)ci[e]);
                    return 2;
                }
                y.at<double>(ri[e]) += vi[e] * x.at<double>(ci[e]);
            }
        }
        check(atoll_bump_generation(y.h, nullptr), "generation");
        check(atoll_signal_post(y.h, 1, 1), "posting done");
    }
    std::printf("spmv_consumer: %ld iterations\n", iters);
    return 0;
}
