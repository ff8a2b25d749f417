// hitting_consumer: a C++ process that computes random-walk hitting times in place over a graph
// an Atoll program placed in shared arrays (approach 2 of the Chapel-Grafiki talk: Chapel builds the edge list
// in mmap'ed memory, Grafiki runs hitting times on it as a separate process).
//
// Inputs (every name is a shared array in --dir, opened through include/atoll.h, nothing copied):
//   PREFIX-rows, PREFIX-cols  int64, entry k is the edge rows[k] -> cols[k]
//   PREFIX-vals               float64, its weight (>= 0); the three have the same length and blocks
//                             (atoll_graph::SharedEdges, ak.graph.share_edges)
//   TARGETS                   int64 vertex ids, the target set (non-empty)
//   OUT                       float64 of length n (the number of vertices): the result
// Hitting times, the definition of atoll_graph::hitting_times: h(v) = 0 on targets,
// h(v) = 1 + sum_u P(v, u) h(u) elsewhere with P = D^-1 A (self loops ignored, D the weighted
// degrees without them), +inf where no target is reachable (no target in v's connected
// component). On the reachable non-targets N this is (D - A)_NN h_N = d_N, solved by conjugate
// gradients preconditioned by the degrees (--method cg, the default: needs a symmetric A) or
// the Jacobi fixed point (--method jacobi), until ||d_N - (D - A)_NN h_N||_2 <= tol * ||d_N||_2 or --max-iters.
// Every product reads the edge list directly from the shared blocks.
//
// Command line:
//   hitting_consumer --dir DIR --edges PREFIX --targets TARGETS --out OUT
//                    [--method cg|jacobi] [--tol T (1e-10)] [--max-iters K (10000)]
//                    [--timeout-ms T (30000)]
// Protocol: wait for signal 0 of OUT ("go": the producer has written the edges and targets),
// check the contents, solve, write h into OUT's blocks, bump OUT's generation counter, post
// signal 1 of OUT ("done"). On stdout one JSON line: n, nnz, iters, converged, residual,
// seconds_per_iter (solver iterations only), setup_seconds.
// Exit status: 0 done; 2 bad arguments or arrays (missing, truncated or foreign files, wrong
// dtype or layout, ids out of range, negative weights: then no "done" is posted); 3 a wait
// timed out (the producer is gone).

#include "atoll.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <numeric>
#include <string>
#include <vector>

namespace {

[[noreturn]] void die(int code, const std::string &what) {
    std::fprintf(stderr, "hitting_consumer: %s: %s\n", what.c_str(), atoll_last_error());
    std::exit(code);
}

[[noreturn]] void bad(const std::string &what) {
    std::fprintf(stderr, "hitting_consumer: %s\n", what.c_str());
    std::exit(2);
}

void check(int rc, const std::string &what) {
    if (rc != ATOLL_OK) die(rc == ATOLL_E_TIMEOUT ? 3 : 2, what);
}

std::string type_name(uint32_t t) {
    static const char *names[] = {"?", "int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "float32", "float64"};
    return t <= ATOLL_F64 ? names[t] : "dtype " + std::to_string(t);
}

struct Block {
    uint64_t lo, hi;
    void *data;
};

// A 1-D shared array of the expected type, with its non-empty blocks (contiguous, in order,
// covering 0..n).
struct Array {
    atoll_array *h = nullptr;
    std::string name;
    std::vector<Block> blocks;
    uint64_t n = 0;

    Array(const std::string &dir, const std::string &nm, uint32_t dtype, bool writable) : name(nm) {
        check(atoll_open(name.c_str(), dir.c_str(), writable ? 1 : 0, &h), "open " + name);
        uint32_t t = 0, rank = 0;
        check(atoll_dtype(h, &t), "dtype " + name);
        check(atoll_rank(h, &rank), "rank " + name);
        if (t != dtype || rank != 1)
            bad(name + " holds " + type_name(t) + " of rank " + std::to_string(rank) + ", expected " + type_name(dtype) +
                " of rank 1");
        check(atoll_shape(h, &n), "shape " + name);
        uint64_t nb = 0;
        check(atoll_nblocks(h, &nb), "nblocks " + name);
        uint64_t next = 0;
        for (uint64_t b = 0; b < nb; ++b) {
            Block k{};
            uint64_t len = 0;
            check(atoll_block(h, b, &k.lo, &k.hi, &k.data, &len), "block " + name);
            if (len == 0) continue;  // an empty block (a locale without elements): its box may be anywhere
            if (k.lo != next || k.hi < k.lo || len != k.hi - k.lo) bad(name + ": blocks are not contiguous ranges in order");
            next = k.hi;
            blocks.push_back(k);
        }
        if (next != n) bad(name + ": blocks do not cover the array");
    }
    ~Array() { atoll_close(h); }
    Array(const Array &) = delete;
    Array &operator=(const Array &) = delete;

    template <class T> const T *block(size_t b) const { return static_cast<const T *>(blocks[b].data); }
    uint64_t len(size_t b) const { return blocks[b].hi - blocks[b].lo; }
};

// The edge list: three arrays of one layout.
struct Edges {
    const Array &r, &c, &v;

    // f(row, col, weight) for every entry, in order, straight from the shared blocks.
    template <class F> void each(F f) const {
        for (size_t b = 0; b < r.blocks.size(); ++b) {
            const int64_t *ri = r.block<int64_t>(b);
            const int64_t *ci = c.block<int64_t>(b);
            const double *vi = v.block<double>(b);
            const uint64_t m = r.len(b);
            for (uint64_t e = 0; e < m; ++e) f(ri[e], ci[e], vi[e]);
        }
    }
};

// Union-find with path halving.
uint64_t find(std::vector<uint64_t> &p, uint64_t x) {
    while (p[x] != x) {
        p[x] = p[p[x]];
        x = p[x];
    }
    return x;
}

double dot(const std::vector<double> &a, const std::vector<double> &b) {
    double s = 0.0;
    for (size_t i = 0; i < a.size(); ++i) s += a[i] * b[i];
    return s;
}

}  // namespace

int main(int argc, char **argv) {
    std::string dir = "/dev/shm", prefix, targets_name, out_name, method = "cg";
    double tol = 1e-10;
    long max_iters = 10000;
    uint64_t timeout_ms = 30000;
    for (int i = 1; i + 1 < argc; i += 2) {
        std::string k = argv[i], v = argv[i + 1];
        if (k == "--dir") dir = v;
        else if (k == "--edges") prefix = v;
        else if (k == "--targets") targets_name = v;
        else if (k == "--out") out_name = v;
        else if (k == "--method") method = v;
        else if (k == "--tol") tol = std::strtod(v.c_str(), nullptr);
        else if (k == "--max-iters") max_iters = std::atol(v.c_str());
        else if (k == "--timeout-ms") timeout_ms = std::strtoull(v.c_str(), nullptr, 10);
        else bad("unknown option " + k);
    }
    if (argc % 2 == 0 || prefix.empty() || targets_name.empty() || out_name.empty() || max_iters < 0 ||
        !(tol >= 0.0) || (method != "cg" && method != "jacobi")) {
        std::fprintf(stderr,
                     "usage: hitting_consumer --dir DIR --edges PREFIX --targets TARGETS --out OUT [--method cg|jacobi] "
                     "[--tol T] [--max-iters K] [--timeout-ms T]\n");
        return 2;
    }
    Array r(dir, prefix + "-rows", ATOLL_I64, false), c(dir, prefix + "-cols", ATOLL_I64, false);
    Array v(dir, prefix + "-vals", ATOLL_F64, false), tg(dir, targets_name, ATOLL_I64, false);
    Array out(dir, out_name, ATOLL_F64, true);
    if (r.n != c.n || r.n != v.n || r.blocks.size() != c.blocks.size() || r.blocks.size() != v.blocks.size())
        bad("the rows, cols and vals of " + prefix + " must have the same length and number of blocks");
    for (size_t b = 0; b < r.blocks.size(); ++b)
        if (r.blocks[b].hi != c.blocks[b].hi || r.blocks[b].hi != v.blocks[b].hi)
            bad("the rows, cols and vals of " + prefix + " have different block layouts");
    const uint64_t n = out.n;
    const Edges edges{r, c, v};

    check(atoll_signal_wait(out.h, 0, timeout_ms), "waiting for go");
    auto t0 = std::chrono::steady_clock::now();

    // Contents: ids in range, weights >= 0; degrees without self loops; components.
    std::vector<double> deg(n, 0.0);
    std::vector<uint64_t> parent(n);
    std::iota(parent.begin(), parent.end(), uint64_t{0});
    uint64_t k = 0;
    edges.each([&](int64_t ri, int64_t ci, double w) {
        if (ri < 0 || uint64_t(ri) >= n || ci < 0 || uint64_t(ci) >= n)
            bad("edge " + std::to_string(k) + " (" + std::to_string(ri) + ", " + std::to_string(ci) + ") is outside a graph of " +
                std::to_string(n) + " vertices");
        if (!(w >= 0.0) || std::isinf(w))
            bad("edge " + std::to_string(k) + " has weight " + std::to_string(w) + " (a random walk needs finite weights >= 0)");
        if (ri != ci) {
            deg[ri] += w;
            uint64_t a = find(parent, uint64_t(ri)), b = find(parent, uint64_t(ci));
            if (a != b) parent[std::max(a, b)] = std::min(a, b);
        }
        ++k;
    });
    if (tg.n == 0) bad(targets_name + ": the target set is empty");
    std::vector<char> is_target(n, 0), comp_has_target(n, 0);
    for (size_t b = 0; b < tg.blocks.size(); ++b)
        for (uint64_t e = 0; e < tg.len(b); ++e) {
            int64_t t = tg.block<int64_t>(b)[e];
            if (t < 0 || uint64_t(t) >= n)
                bad(targets_name + ": target " + std::to_string(t) + " is outside a graph of " + std::to_string(n) + " vertices");
            is_target[t] = 1;
            comp_has_target[find(parent, uint64_t(t))] = 1;
        }
    // Unknowns: non-targets that reach a target.
    std::vector<char> active(n, 0);
    for (uint64_t i = 0; i < n; ++i) active[i] = !is_target[i] && comp_has_target[find(parent, i)] && deg[i] > 0.0;

    // y = A_offdiag x over the shared edge list.
    std::vector<double> y(n);
    auto spmv = [&](const std::vector<double> &x) {
        std::fill(y.begin(), y.end(), 0.0);
        edges.each([&](int64_t ri, int64_t ci, double w) {
            if (ri != ci) y[ri] += w * x[ci];
        });
    };
    std::vector<double> b(n, 0.0), h(n, 0.0);
    for (uint64_t i = 0; i < n; ++i)
        if (active[i]) b[i] = deg[i];
    const double bnorm = std::sqrt(dot(b, b));
    bool converged = bnorm == 0.0;
    long iters = 0;
    double residual = 0.0;
    auto t1 = std::chrono::steady_clock::now();
    if (method == "cg") {
        // Conjugate gradients preconditioned by the system's diagonal (the degrees), as
        // atoll_graph::hitting_times: z = D^-1 r on N.
        std::vector<double> res = b, z(n, 0.0);
        for (uint64_t i = 0; i < n; ++i)
            if (active[i]) z[i] = res[i] / deg[i];
        std::vector<double> p = z;
        double rz = dot(res, z);
        residual = bnorm;
        while (!converged && iters < max_iters) {
            spmv(p);  // y = (D - A)_NN p, zero off N
            for (uint64_t i = 0; i < n; ++i) y[i] = active[i] ? deg[i] * p[i] - y[i] : 0.0;
            const double py = dot(p, y);
            if (!(py > 0.0)) break;  // only when r (hence p) is exactly zero
            const double alpha = rz / py;
            double rr = 0.0, rz_new = 0.0;
            for (uint64_t i = 0; i < n; ++i) {
                h[i] += alpha * p[i];
                res[i] -= alpha * y[i];
                z[i] = active[i] ? res[i] / deg[i] : 0.0;
                rr += res[i] * res[i];
                rz_new += res[i] * z[i];
            }
            ++iters;
            residual = std::sqrt(rr);
            converged = residual <= tol * bnorm;
            const double beta = rz_new / rz;
            rz = rz_new;
            for (uint64_t i = 0; i < n; ++i) p[i] = z[i] + beta * p[i];
        }
    } else {
        while (!converged && iters < max_iters) {
            spmv(h);  // y = A_offdiag h; then h <- 1 + D^-1 A h on N
            double s = 0.0;
            for (uint64_t i = 0; i < n; ++i)
                if (active[i]) {
                    const double ri = deg[i] - (deg[i] * h[i] - y[i]);
                    s += ri * ri;
                    h[i] = 1.0 + y[i] / deg[i];
                }
            ++iters;
            residual = std::sqrt(s);
            converged = residual <= tol * bnorm;
        }
    }
    auto t2 = std::chrono::steady_clock::now();

    // The result, in place in OUT's blocks.
    const double inf = std::numeric_limits<double>::infinity();
    for (const Block &bl : out.blocks) {
        double *o = static_cast<double *>(bl.data);
        for (uint64_t i = bl.lo; i < bl.hi; ++i) o[i - bl.lo] = is_target[i] ? 0.0 : active[i] ? h[i] : inf;
    }
    check(atoll_bump_generation(out.h, nullptr), "generation");
    check(atoll_signal_post(out.h, 1, 1), "posting done");
    const double solve = std::chrono::duration<double>(t2 - t1).count();
    const double setup = std::chrono::duration<double>(t1 - t0).count();
    std::printf("{\"consumer\": \"hitting_consumer\", \"method\": \"%s\", \"n\": %llu, \"nnz\": %llu, \"iters\": %ld, "
                "\"converged\": %s, \"residual\": %.6e, \"seconds_per_iter\": %.6e, \"setup_seconds\": %.6e}\n",
                method.c_str(), (unsigned long long)n, (unsigned long long)r.n, iters, converged ? "true" : "false", residual,
                iters > 0 ? solve / double(iters) : 0.0, setup);
    return 0;
}
