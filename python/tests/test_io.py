"""Parquet IO: files written by pandas/pyarrow read back equal (widened dtypes, NaN for
nulls, many row groups, globs of many files); files written by Atoll (one per locale) read
back equal in pandas, polars and Atoll; every error a typed exception with nothing lost."""

import glob
import os

import atoll as ak
import numpy as np
import pytest

pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def _frame(n, seed=0):
    rng = np.random.default_rng(seed)
    f = rng.normal(size=n)
    f[rng.random(n) < 0.1] = np.nan
    return pd.DataFrame(
        {
            "i": rng.integers(-(2**62), 2**62, n, dtype=np.int64),
            "u": rng.integers(0, 2**64 - 1, n, dtype=np.uint64, endpoint=True),
            "f": f,
            "b": rng.random(n) < 0.3,
            "i32": rng.integers(-(2**31), 2**31 - 1, n, dtype=np.int32),
            "f32": rng.normal(size=n).astype(np.float32),
        }
    )


def _want(df, name):
    """NumPy's value of a column as Atoll reads it (int32 and float32 widened)."""
    v = df[name].to_numpy()
    if v.dtype == np.int32:
        return v.astype(np.int64)
    if v.dtype == np.float32:
        return v.astype(np.float64)
    return v


def _same(got, want):
    g = got.to_ndarray()
    assert g.dtype == want.dtype, (g.dtype, want.dtype)
    np.testing.assert_array_equal(g, want)


@pytest.mark.parametrize("n", [0, 1, 3, 1000, 25_000])
def test_a_file_written_by_pandas_reads_back_equal(tmp_path, n):
    df = _frame(n, seed=n)
    p = tmp_path / "pandas.parquet"
    df.to_parquet(p, row_group_size=4096)  # several row groups, straddling the locales' parts
    got = ak.read_parquet(str(p))
    assert list(got) == list(df.columns)
    for c in df.columns:
        _same(got[c], _want(df, c))
    one = ak.read_parquet(p, datasets="u")["u"]  # a dict, as Arkouda's
    assert isinstance(one, ak.pdarray)
    _same(one, df["u"].to_numpy())
    two = ak.read_parquet(p, datasets=["f32", "i"])
    assert list(two) == ["f32", "i"]
    _same(two["f32"], _want(df, "f32"))


def test_nulls_read_as_nan_in_float_columns_and_pyarrow_codecs(tmp_path):
    n = 5000
    vals = [None if k % 7 == 0 else k * 0.5 for k in range(n)]
    t = pa.table({"x": pa.array(vals, type=pa.float64()), "k": pa.array(np.arange(n, dtype=np.int64))})
    for codec in ["snappy", "zstd", "none"]:
        p = tmp_path / f"nulls-{codec}.parquet"
        pq.write_table(t, p, compression=codec, row_group_size=999)
        got = ak.read_parquet(p)
        want = np.array([np.nan if v is None else v for v in vals])
        _same(got["x"], want)
        _same(got["k"], np.arange(n, dtype=np.int64))


@pytest.mark.parametrize("n", [0, 2, 5, 30_001])
def test_files_written_by_atoll_read_back_equal_in_pandas_polars_and_atoll(tmp_path, n):
    a = ak.randint(-(10**12), 10**12, n, seed=5)
    u = ak.randint(0, 2**40, n, seed=6, dtype=ak.uint64) if n else ak.zeros(0, ak.uint64)
    f = ak.uniform(n, seed=7)
    b = a > 0
    prefix = str(tmp_path / "atoll")
    ak.to_parquet({"a": a, "u": u, "f": f, "b": b}, prefix)
    files = sorted(glob.glob(prefix + "_LOCALE*"))
    assert files == [f"{prefix}_LOCALE{k:04d}.parquet" for k in range(ak.num_locales())]
    want = {"a": a.to_ndarray(), "u": u.to_ndarray(), "f": f.to_ndarray(), "b": b.to_ndarray()}
    df = pd.concat([pd.read_parquet(x) for x in files], ignore_index=True)
    assert list(df.columns) == ["a", "u", "f", "b"]
    for c in want:
        assert df[c].to_numpy().dtype == want[c].dtype, c
        np.testing.assert_array_equal(df[c].to_numpy(), want[c])
    pl = pytest.importorskip("polars")
    pf = pl.concat([pl.read_parquet(x) for x in files])
    for c in want:
        np.testing.assert_array_equal(pf[c].to_numpy(), want[c])
    back = ak.read_parquet(prefix + "_LOCALE*")
    for c in want:
        _same(back[c], want[c])


def test_pdarray_to_parquet_of_a_selection_and_an_expression(tmp_path):
    a = ak.arange(1000)
    a[::3].to_parquet(str(tmp_path / "sel"), dataset="s")
    _same(ak.read_parquet(str(tmp_path / "sel_LOCALE*"), datasets="s")["s"], np.arange(1000)[::3])
    (a * 2.5).to_parquet(str(tmp_path / "ex.parquet"), compression="snappy")
    files = sorted(glob.glob(str(tmp_path / "ex_LOCALE*.parquet")))
    assert len(files) == ak.num_locales()
    got = pd.concat([pd.read_parquet(x) for x in files])["array"].to_numpy()
    np.testing.assert_array_equal(got, np.arange(1000) * 2.5)


def test_a_glob_of_many_files_reads_in_sorted_order(tmp_path):
    sizes = [5, 0, 1, 2000, 37, 3, 900]
    parts = []
    for k, m in enumerate(sizes):
        df = _frame(m, seed=100 + k)[["i", "f", "b"]]
        df.to_parquet(tmp_path / f"part-{k:02d}.parquet", row_group_size=256)
        parts.append(df)
    whole = pd.concat(parts, ignore_index=True)
    got = ak.read_parquet(str(tmp_path / "part-*.parquet"), datasets=["b", "i", "f"])
    for c in ["b", "i", "f"]:
        _same(got[c], whole[c].to_numpy())
    # A list of names and patterns, in the order given.
    got = ak.read_parquet([str(tmp_path / "part-06.parquet"), str(tmp_path / "part-0[0-1].parquet")], datasets="i")["i"]
    _same(got, pd.concat([parts[6], parts[0], parts[1]])["i"].to_numpy())


def test_errors_are_typed_and_lose_nothing(tmp_path):
    keep = ak.arange(100) * 3
    p = tmp_path / "ok.parquet"
    pd.DataFrame(
        {
            "x": np.arange(50, dtype=np.int64),
            "s": [str(k).encode() for k in range(50)],
            "n": pd.array([None if k % 5 == 0 else k for k in range(50)], dtype="Int64"),
        }
    ).to_parquet(p)
    with pytest.raises(FileNotFoundError, match="nope.parquet"):
        ak.read_parquet([str(p), str(tmp_path / "nope.parquet")], datasets="x")
    with pytest.raises(FileNotFoundError, match="no file matches"):
        ak.read_parquet(str(tmp_path / "none-*.parquet"))
    with pytest.raises(ValueError, match="dataset not found"):
        ak.read_parquet(p, datasets=["x", "zz"])
    with pytest.raises(TypeError, match="unsupported type"):
        ak.read_parquet(p, datasets="s")  # binary (strings are tested in test_io_strings.py)
    with pytest.raises(TypeError, match="null"):
        ak.read_parquet(p, datasets="n")
    with pytest.raises(TypeError):
        ak.read_parquet(p)  # every dataset, a string among them
    data = p.read_bytes()
    bad = tmp_path / "truncated.parquet"
    bad.write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match="corrupt"):
        ak.read_parquet([str(p), str(bad)], datasets="x")
    junk = tmp_path / "junk.parquet"
    junk.write_bytes(b"a,b\n1,2\n" * 20)
    with pytest.raises(ValueError, match="corrupt"):
        ak.read_parquet(junk, datasets="x")
    with pytest.raises(OSError):
        keep.to_parquet(str(tmp_path / "no-such-dir" / "t"))
    with pytest.raises(ValueError):
        keep.to_parquet(str(tmp_path / "t"), mode="overwrite")
    with pytest.raises(ValueError):
        keep.to_parquet(str(tmp_path / "t"), compression="lzo")
    with pytest.raises(ValueError):
        ak.to_parquet({"a": keep, "b": ak.arange(7)}, str(tmp_path / "t"))
    # Nothing lost; the session goes on.
    np.testing.assert_array_equal(keep.to_ndarray(), np.arange(100) * 3)
    _same(ak.read_parquet(p, datasets="x")["x"], np.arange(50, dtype=np.int64))
    assert not [f for f in os.listdir(tmp_path) if "tmp" in f]
