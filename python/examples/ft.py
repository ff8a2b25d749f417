"""NPB FT (class S or W) in Python with Arkouda's API on Atoll, verified by NPB's checksums.

Arkouda's arrays are one-dimensional, so the 3-D complex field is two float64 pdarrays (real and
imaginary parts) in NPB's order (x fastest). Each 1-D FFT along an axis is the radix-2 Stockham
algorithm NPB uses, one step per stage over the whole field: two gathers (`a[idx]`, Arkouda's
way of moving data between locales; along y and z they cross locales, which is where a slab
code's transpose would be) and element-wise arithmetic. The index arrays of every stage are
made once. This is the global-view version a data scientist would write; the Rust benchmark
(`atoll-bench ft`) has the slab version with its transposes and NPB's MPI code beside it.

    ATOLL_LOCALES=2 .venv/bin/python python/examples/ft.py --class S
    ATOLL_BACKEND=mpi .venv/bin/mpiexec -n 2 .venv/bin/python python/examples/ft.py --class S
"""

from __future__ import annotations

import argparse
import math
import time

import atoll as ak
import numpy as np

# (nx, ny, nz, niter, NPB's checksums)
CLASSES = {
    "S": (
        64,
        64,
        64,
        6,
        [
            (5.546087004964e2, 4.845363331978e2),
            (5.546385409189e2, 4.865304269511e2),
            (5.546148406171e2, 4.883910722336e2),
            (5.545423607415e2, 4.901273169046e2),
            (5.544255039624e2, 4.917475857993e2),
            (5.542683411902e2, 4.932597244941e2),
        ],
    ),
    "W": (
        128,
        128,
        32,
        6,
        [
            (5.673612178944e2, 5.293246849175e2),
            (5.631436885271e2, 5.282149986629e2),
            (5.594024089970e2, 5.270996558037e2),
            (5.560698047020e2, 5.260027904925e2),
            (5.530898991250e2, 5.249400845633e2),
            (5.504159734538e2, 5.239212247086e2),
        ],
    ),
}

A = 1220703125  # 5^13
SEED = 314159265
M46 = (1 << 46) - 1
LO23 = (1 << 23) - 1


def mulmod46(a: np.ndarray, x: np.ndarray) -> np.ndarray:
    """a * x mod 2^46 for 46-bit operands, in 64-bit integers (23-bit halves, as NPB)."""
    a_lo, a_hi = a & LO23, a >> np.uint64(23)
    x_lo, x_hi = x & LO23, x >> np.uint64(23)
    mid = (a_hi * x_lo + a_lo * x_hi) & LO23
    return (a_lo * x_lo + (mid << np.uint64(23))) & M46


def npb_field(n: int) -> tuple[np.ndarray, np.ndarray]:
    """NPB's initial field: element L is (r_{2L+1}, r_{2L+2}), r_k = seed a^k mod 2^46 / 2^46."""
    block = 4096
    steps = np.empty(block, dtype=np.uint64)  # a^1 .. a^block
    p = 1
    for i in range(block):
        p = p * A & M46
        steps[i] = p
    starts = np.empty((2 * n) // block, dtype=np.uint64)  # seed a^(block j)
    x, jump = SEED, pow(A, block, 1 << 46)
    for j in range(len(starts)):
        starts[j] = x
        x = x * jump & M46
    seq = mulmod46(starts[:, None], steps[None, :]).reshape(-1).astype(np.float64) / float(1 << 46)
    return seq[0::2].copy(), seq[1::2].copy()


def stages(n: int, stride: int, total: int, sign: float):
    """The Stockham stages of length-n FFTs along the axis of `stride`: per stage, the two source
    positions, the sign of the second operand and the twiddle of every output position."""
    lin = np.arange(total, dtype=np.int64)
    q = (lin // stride) % n  # position along the axis
    base = lin - q * stride
    out = []
    m = int(math.log2(n))
    for level in range(1, m + 1):
        lk, li = 2 ** (level - 1), 2 ** (m - level)
        lj = 2 * lk
        i, r = q // lj, q % lj
        second = r >= lk
        src1 = i * lk + np.where(second, r - lk, r)
        w = np.where(second, np.exp(sign * 1j * math.pi * i / li), 1.0)
        out.append(
            (
                ak.array(base + src1 * stride),
                ak.array(base + (src1 + n // 2) * stride),
                ak.array(np.where(second, -1.0, 1.0)),
                ak.array(w.real.copy()),
                ak.array(w.imag.copy()),
            )
        )
    return out


def transform(re, im, plan):
    for idx1, idx2, sgn, wr, wi in plan:
        ar, ai = re[idx1], im[idx1]
        br, bi = re[idx2], im[idx2]
        tr, ti = ar + sgn * br, ai + sgn * bi
        re, im = wr * tr - wi * ti, wr * ti + wi * tr
    return re, im


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--class", dest="cls", default="S", choices=sorted(CLASSES))
    args = ap.parse_args()
    nx, ny, nz, niter, ref = CLASSES[args.cls]
    total = nx * ny * nz
    t0 = time.perf_counter()
    axes = [(nx, 1), (ny, nx), (nz, nx * ny)]
    fwd = [p for n, s in axes for p in stages(n, s, total, +1.0)]  # NPB's forward: exp(+i)
    inv = [p for n, s in reversed(axes) for p in stages(n, s, total, -1.0)]
    lin = np.arange(total)
    kk = [((lin // s) % n + n // 2) % n - n // 2 for n, s in axes]
    k2 = ak.array((kk[0] ** 2 + kk[1] ** 2 + kk[2] ** 2).astype(np.float64))
    j = np.arange(1, 1025)
    chk = ak.array(j % nx + nx * ((3 * j) % ny + ny * ((5 * j) % nz)))
    t_setup = time.perf_counter() - t0

    t0 = time.perf_counter()
    re0, im0 = npb_field(total)
    u0r, u0i = transform(ak.array(re0), ak.array(im0), fwd)
    ap_ = -4.0 * 1e-6 * math.pi**2
    sums = []
    for t in range(1, niter + 1):
        f = ak.exp(k2 * (ap_ * t))
        r, i = transform(u0r * f, u0i * f, inv)
        sums.append(complex(ak.sum(r[chk]), ak.sum(i[chk])) / total)
    seconds = time.perf_counter() - t0
    ok = all(abs((s - complex(*c)) / complex(*c)) <= 1e-12 for s, c in zip(sums, ref))
    for t, s in enumerate(sums, 1):
        print(f"T = {t}  checksum = {s.real:.12e} {s.imag:.12e}")
    print(
        f"ft class {args.cls}: {'verified' if ok else 'NOT verified'} in {seconds:.2f} s "
        f"(index arrays {t_setup:.2f} s, untimed)"
    )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
