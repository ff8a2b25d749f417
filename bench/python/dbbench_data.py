"""Tables of the db-benchmark (duckdblabs/db-benchmark, formerly h2oai's), written as Parquet.

    python bench/python/dbbench_data.py --n 1e7 --out DIR [--na 0] [--sorted] [--k 100]
        [--seed 108] [--only groupby|join]

The data specification is the benchmark's (its R generators `_data/groupby-datagen.R` and
`_data/join-datagen.R`); the code below is ours, vectorized with NumPy and pyarrow, seeded, and
written in chunks so that 10^8 rows fit in memory.

G1 (the groupby table, N rows, K groups):
    id1, id2   one of K labels "id001".."idK" (dictionary columns: the benchmark's factors)
    id3        one of N/K labels "id0000000001".. (dictionary column)
    id4, id5   int in 1..K
    id6        int in 1..N/K
    v1         int in 1..5
    v2         int in 1..15
    v3         float in [0, 100), rounded to 6 decimals
  With NA percentage p > 0: p% of each id column's distinct values become null in every row
  that holds them, and p% of the rows of each of v1..v3 are null. `--sorted` sorts the rows
  by id1..id6 (nulls first).

J1 (the join tables): keys of three sizes, n1 = N/10^6, n2 = N/10^3, n3 = N. For each size n
a random permutation of 1..1.1n is split into 0.9n keys common to both sides, 0.1n keys of
the left side only and 0.1n of the right side only. Every key of a side appears at least once
in its column, the rest of the rows draw from the side's keys with replacement.
    x       (N rows)   id1, id2, id3 (left keys of sizes n1, n2, n3), id4..id6 = "id" + id1..id3, v1
    small   (n1 rows)  id1, id4, v2
    medium  (n2 rows)  id1, id2, id4, id5, v2
    big     (n3 rows)  id1, id2, id3, id4, id5, id6, v2
  v1, v2 are floats in [0, 100) rounded to 6 decimals. NA percentage applies to x only (as the
  benchmark's generator): p% of each key column's distinct values and p% of v1's rows.

File names follow the benchmark's: G1_1e7_1e2_0_0.parquet, J1_1e7_NA_0_0.parquet (x),
J1_1e7_1e1_0_0.parquet (small), J1_1e7_1e4_0_0 (medium), J1_1e7_1e7_0_0 (big).
"""

from __future__ import annotations

import argparse
import os
import sys
import time

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

CHUNK = 10_000_000


def sci(x: int) -> str:
    """1e7 for 10000000, 5e6 for 5000000, as the benchmark names its files."""
    x = int(x)
    if x < 10:
        return f"{x}e0"
    s = str(x)
    rest = s[1:]
    if rest.strip("0") == "":
        return f"{s[0]}e{len(rest)}"
    return s


def g1_name(n: int, k: int, na: int, sort: bool) -> str:
    return f"G1_{sci(n)}_{sci(k)}_{na}_{int(sort)}"


def j1_names(n: int, na: int, sort: bool) -> dict[str, str]:
    base = f"J1_{sci(n)}_{{}}_{na}_{int(sort)}"
    return {
        "x": base.format("NA"),
        "small": base.format(sci(max(n // 10**6, 1))),
        "medium": base.format(sci(max(n // 10**3, 1))),
        "big": base.format(sci(n)),
    }


def _labels(count: int, width: int) -> pa.Array:
    """The labels id<i> for i in 1..count, i zero-padded to `width` digits (none when 0)."""
    s = pc.cast(pa.array(np.arange(1, count + 1, dtype=np.int64)), pa.string())
    if width:
        s = pc.utf8_lpad(s, width=width, padding="0")
    return pc.binary_join_element_wise("id", s, "")


def _id_strings(v: np.ndarray, valid: np.ndarray | None) -> pa.Array:
    """The strings id<v> of the ints v; null where `valid` is False."""
    a = pa.array(v, mask=None if valid is None else ~valid)
    return pc.binary_join_element_wise("id", pc.cast(a, pa.string()), "")


def _round6(u: np.ndarray) -> np.ndarray:
    return np.round(u * 100.0, 6)


def _na_values(rng: np.random.Generator, levels: int, na: int) -> np.ndarray:
    """A lookup table over 0..levels: True for the values (1-based) that become null."""
    table = np.zeros(levels + 1, dtype=bool)
    nna = int(levels * na / 100)
    if nna:
        table[rng.choice(np.arange(1, levels + 1), size=nna, replace=False)] = True
    return table


def _row_nulls(rng: np.random.Generator, rows: int, na: int) -> np.ndarray | None:
    """A validity mask with na% of `rows` False (None when na is 0)."""
    nna = int(rows * na / 100)
    if not nna:
        return None
    valid = np.ones(rows, dtype=bool)
    valid[rng.choice(rows, size=nna, replace=False)] = False
    return valid


# ---------------------------------------------------------------------------------------------
# G1


def _g1_codes(rng, rows, k, nk):
    """The id and value columns of `rows` rows, ids 1-based ints."""
    return {
        "id1": rng.integers(1, k + 1, rows, dtype=np.int32),
        "id2": rng.integers(1, k + 1, rows, dtype=np.int32),
        "id3": rng.integers(1, nk + 1, rows, dtype=np.int32),
        "id4": rng.integers(1, k + 1, rows, dtype=np.int32),
        "id5": rng.integers(1, k + 1, rows, dtype=np.int32),
        "id6": rng.integers(1, nk + 1, rows, dtype=np.int32),
        "v1": rng.integers(1, 6, rows, dtype=np.int32),
        "v2": rng.integers(1, 16, rows, dtype=np.int32),
        "v3": _round6(rng.random(rows)),
    }


def _g1_table(cols, dicts, na_tables, rng, na):
    """A pyarrow table of G1 columns from their codes (0 is null after NA marking)."""
    arrays, names = [], []
    for c in ("id1", "id2", "id3"):
        v = cols[c]
        if na:
            v = np.where(na_tables[c][v], 0, v)
        idx = pa.array(v - 1, mask=(v == 0) if na else None, type=pa.int32())
        arrays.append(pa.DictionaryArray.from_arrays(idx, dicts[c]))
        names.append(c)
    for c in ("id4", "id5", "id6"):
        v = cols[c]
        mask = ((v == 0) | na_tables[c][v]) if na else None
        arrays.append(pa.array(v, mask=mask, type=pa.int32()))
        names.append(c)
    rows = len(cols["v1"])
    for c, t in (("v1", pa.int32()), ("v2", pa.int32()), ("v3", pa.float64())):
        valid = _row_nulls(rng, rows, na)
        arrays.append(pa.array(cols[c], mask=None if valid is None else ~valid, type=t))
        names.append(c)
    return pa.Table.from_arrays(arrays, names=names)


def make_g1(n: int, out: str, k: int = 100, na: int = 0, sort: bool = False, seed: int = 108) -> str:
    """Writes G1 of `n` rows to OUT/<name>.parquet and returns the path."""
    nk = max(n // k, 1)
    rng = np.random.default_rng(seed)
    dicts = {"id1": _labels(k, 3), "id2": _labels(k, 3), "id3": _labels(nk, 10)}
    levels = {"id1": k, "id2": k, "id3": nk, "id4": k, "id5": k, "id6": nk}
    na_tables = {c: _na_values(rng, lv, na) for c, lv in levels.items()} if na else {}
    path = os.path.join(out, g1_name(n, k, na, sort) + ".parquet")
    writer = None
    try:
        if sort:
            # Sorting needs every row: the codes (int32) of all of them, then write in chunks.
            cols = _g1_codes(rng, n, k, nk)
            if na:
                for c in levels:
                    cols[c] = np.where(na_tables[c][cols[c]], 0, cols[c])
            order = np.lexsort([cols[c] for c in ("id6", "id5", "id4", "id3", "id2", "id1")])
            cols = {c: v[order] for c, v in cols.items()}
            del order
            chunks = ((s, {c: v[s : s + CHUNK] for c, v in cols.items()}) for s in range(0, n, CHUNK))
        else:
            chunks = ((s, _g1_codes(rng, min(CHUNK, n - s), k, nk)) for s in range(0, n, CHUNK))
        for _, part in chunks:
            # Null codes are 0 after sorting's NA marking; the tables map 0 to False.
            t = _g1_table(part, dicts, na_tables, rng, na)
            if writer is None:
                writer = pq.ParquetWriter(path, t.schema)
            writer.write_table(t, row_group_size=1 << 20)
    finally:
        if writer is not None:
            writer.close()
    return path


# ---------------------------------------------------------------------------------------------
# J1


def _split_keys(rng, n):
    """A permutation of 1..(n + n/9-ish) split into (common, left only, right only)."""
    n_common = max(1, int(round(n * 0.9))) if n else 0
    n_side = n - n_common
    keys = rng.permutation(n + n_side).astype(np.int32) + 1
    return keys[:n_common], keys[n_common:n], keys[n : n + n_side]


def _sample_all(rng, keys, size):
    """`size` draws holding every key at least once, shuffled."""
    assert len(keys) <= size
    extra = rng.choice(keys, size=size - len(keys), replace=True) if size > len(keys) else keys[:0]
    y = np.concatenate([keys, extra.astype(np.int32)])
    rng.shuffle(y)
    return y


def _write_j1(path, ids, values, vname, rng, na, na_ids=None):
    """Writes the key columns `ids` (name -> int32 array; id4.. derived as strings) and the
    value column to `path`, in chunks."""
    names = list(ids)
    rows = len(values)
    writer = None
    try:
        for s in range(0, rows, CHUNK):
            e = min(s + CHUNK, rows)
            arrays, cols = [], []
            valid = {}
            for c in names:
                v = ids[c][s:e]
                valid[c] = ~na_ids[c][v] if na_ids else None
                arrays.append(pa.array(v, mask=None if valid[c] is None else ~valid[c], type=pa.int32()))
                cols.append(c)
            for c in names:
                sc = "id" + str(int(c[2:]) + 3)
                arrays.append(_id_strings(ids[c][s:e], valid[c]))
                cols.append(sc)
            vv = _row_nulls(rng, e - s, na) if na_ids else None
            arrays.append(pa.array(values[s:e], mask=None if vv is None else ~vv, type=pa.float64()))
            cols.append(vname)
            t = pa.Table.from_arrays(arrays, names=cols)
            if writer is None:
                writer = pq.ParquetWriter(path, t.schema)
            writer.write_table(t, row_group_size=1 << 20)
    finally:
        if writer is not None:
            writer.close()


def make_j1(n: int, out: str, na: int = 0, sort: bool = False, seed: int = 108) -> dict[str, str]:
    """Writes the four J1 tables for `n` rows; returns role -> path."""
    rng = np.random.default_rng(seed)
    names = j1_names(n, na, sort)
    paths = {r: os.path.join(out, nm + ".parquet") for r, nm in names.items()}
    sizes = (max(n // 10**6, 1), max(n // 10**3, 1), n)
    keys = [_split_keys(rng, m) for m in sizes]

    def lhs(i):
        return np.concatenate([keys[i][0], keys[i][1]])

    def rhs(i):
        return np.concatenate([keys[i][0], keys[i][2]])

    # x
    ids = {f"id{i + 1}": _sample_all(rng, lhs(i), n) for i in range(3)}
    if sort:
        order = np.lexsort([ids["id3"], ids["id2"], ids["id1"]])
        ids = {c: v[order] for c, v in ids.items()}
        del order
    v1 = _round6(rng.random(n))
    na_ids = None
    if na:
        top = [int(max(np.max(lhs(i)), np.max(rhs(i)))) for i in range(3)]
        na_ids = {f"id{i + 1}": _na_values_from(rng, lhs(i), top[i], na) for i in range(3)}
    _write_j1(paths["x"], ids, v1, "v1", rng, na, na_ids)
    del ids, v1
    # small, medium, big
    for role, m, cols, skey in (
        ("small", sizes[0], 1, "id1"),
        ("medium", sizes[1], 2, "id2"),
        ("big", sizes[2], 3, "id3"),
    ):
        ids = {f"id{i + 1}": _sample_all(rng, rhs(i), m) for i in range(cols)}
        if sort:
            order = np.argsort(ids[skey], kind="stable")
            ids = {c: v[order] for c, v in ids.items()}
        _write_j1(paths[role], ids, _round6(rng.random(m)), "v2", rng, 0)
        del ids
    return paths


def _na_values_from(rng, values, top, na):
    """A lookup table over 0..top, True for na% of the distinct `values`."""
    table = np.zeros(top + 1, dtype=bool)
    nna = int(len(values) * na / 100)
    if nna:
        table[rng.choice(values, size=nna, replace=False)] = True
    return table


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=float, required=True, help="rows, e.g. 1e7")
    ap.add_argument("--out", required=True)
    ap.add_argument("--k", type=float, default=100)
    ap.add_argument("--na", type=int, default=0, choices=(0, 5))
    ap.add_argument("--sorted", action="store_true")
    ap.add_argument("--seed", type=int, default=108)
    ap.add_argument("--only", choices=("groupby", "join"))
    a = ap.parse_args(argv)
    n, k = int(a.n), int(a.k)
    os.makedirs(a.out, exist_ok=True)
    if a.only != "join":
        t = time.perf_counter()
        p = make_g1(n, a.out, k, a.na, a.sorted, a.seed)
        print(f"{p}: {time.perf_counter() - t:.1f} s", file=sys.stderr)
    if a.only != "groupby":
        t = time.perf_counter()
        ps = make_j1(n, a.out, a.na, a.sorted, a.seed)
        print(f"{', '.join(ps.values())}: {time.perf_counter() - t:.1f} s", file=sys.stderr)


if __name__ == "__main__":
    main()
