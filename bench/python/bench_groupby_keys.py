"""GroupBy on categorical and multi-column keys: the db-benchmark's groupby shapes (G1: id1-id3
categorical strings with K / K / N/K levels, id4-id6 ints in 1..K, 1..K, 1..N/K; v1, v2 ints,
v3 float) through Atoll's DataFrame GroupBy, with the combined-key paths on and off in the same
run, and polars on the same data. Each answer is checked equal to polars' (keys sorted as
Atoll gives them).

    ATOLL_LOCALES=2 python bench/python/bench_groupby_keys.py [--n 1e7] [--k 100] [--repeat 2]
"""

import argparse
import time

import atoll as ak
import numpy as np
import polars as pl
from atoll import _keys

QUESTIONS = {
    "q1": (["id1"], {"v1": "sum"}),
    "q2": (["id1", "id2"], {"v1": "sum"}),
    "q3": (["id3"], {"v1": "sum", "v3": "mean"}),
    "q4": (["id4"], {"v1": "mean", "v2": "mean", "v3": "mean"}),
    "q5": (["id6"], {"v1": "sum", "v2": "sum", "v3": "sum"}),
    "q7": (["id3"], {"v1": "max", "v2": "min"}),
    "q10": (["id1", "id2", "id3", "id4", "id5", "id6"], {"v3": "sum", "v1": "size"}),
}


def make_data(n, k, seed=0):
    rng = np.random.default_rng(seed)
    nk = max(n // k, 1)
    d = {}
    for name, levels in (("id1", k), ("id2", k), ("id3", nk)):
        labels = np.array([f"id{i:03d}" if levels == k else f"id{i:010d}" for i in range(1, levels + 1)])
        d[name] = labels[rng.integers(0, levels, n)]
    d["id4"] = rng.integers(1, k + 1, n)
    d["id5"] = rng.integers(1, k + 1, n)
    d["id6"] = rng.integers(1, nk + 1, n)
    d["v1"] = rng.integers(1, 6, n)
    d["v2"] = rng.integers(1, 16, n)
    d["v3"] = np.round(rng.uniform(0, 100, n), 6)
    return d


def atoll_frame(d):
    cols = {}
    for c, v in d.items():
        cols[c] = ak.Categorical(ak.array(v)) if v.dtype.kind == "U" else ak.array(v)
    return ak.DataFrame(cols)


def atoll_answer(df, keys, aggs):
    """The Arkouda calls: one GroupBy, one aggregation per column on it."""
    g = df.groupby(keys if len(keys) > 1 else keys[0], as_index=False)
    out = {}
    for col, op in aggs.items():
        if op == "size":
            out[col] = g.size()["size"]
        else:
            out[col] = getattr(g, op)(col)[col]
    uk = g.unique_keys
    uk = list(uk) if len(keys) > 1 else [uk]
    res = {k: u for k, u in zip(keys, uk)}
    res.update(out)
    return res


def polars_answer(t, keys, aggs):
    c = pl.col
    exprs = [
        c(col).count().alias(col) if op == "size" else getattr(c(col), op)().alias(col) for col, op in aggs.items()
    ]
    return t.group_by(keys).agg(exprs).sort(keys)


def to_numpy(a):
    if isinstance(a, ak.Categorical):
        return np.asarray(a.to_ndarray()).astype(str)
    if isinstance(a, ak.Strings):
        return np.asarray(a.to_ndarray()).astype(str)
    return a.to_ndarray()


def check(res, ref, keys, aggs):
    for k in keys:
        a, b = to_numpy(res[k]), ref[k].to_numpy()
        if not np.array_equal(a.astype(b.dtype) if b.dtype.kind != "O" else a, b.astype(a.dtype)):
            return False
    for col in aggs:
        a, b = to_numpy(res[col]), ref[col].to_numpy()
        if not np.allclose(a.astype(np.float64), b.astype(np.float64), rtol=1e-9, atol=1e-6):
            return False
    return True


def best(f, repeat):
    ts, r = [], None
    for _ in range(repeat):
        t0 = time.perf_counter()
        r = f()
        ts.append(time.perf_counter() - t0)
    return min(ts), r


def main():
    p = argparse.ArgumentParser()
    p.add_argument("--n", type=float, default=1e7)
    p.add_argument("--k", type=int, default=100)
    p.add_argument("--repeat", type=int, default=2)
    p.add_argument("--questions", default=",".join(QUESTIONS))
    a = p.parse_args()
    n = int(a.n)
    d = make_data(n, a.k)
    df = atoll_frame(d)
    t = pl.DataFrame(d)
    print(f"n={n} locales={ak.num_locales()}")
    print(f"{'q':4} {'before_s':>9} {'after_s':>9} {'polars_s':>9}  ok")
    for q in a.questions.split(","):
        keys, aggs = QUESTIONS[q]
        ref = best(lambda: polars_answer(t, keys, aggs), a.repeat)
        times, ok = [], True
        for combine in (False, True):
            _keys.COMBINE = combine
            s, res = best(lambda: atoll_answer(df, keys, aggs), a.repeat)
            times.append(s)
            ok = ok and check(res, ref[1], keys, aggs)
        _keys.COMBINE = True
        print(f"{q:4} {times[0]:9.3f} {times[1]:9.3f} {ref[0]:9.3f}  {ok}", flush=True)


if __name__ == "__main__":
    main()
