"""Parquet list columns as ``ak.SegArray``: files written by pyarrow and pandas (nulls, empty
lists, several row groups and files, every codec) read equal to what pyarrow reads;
SegArrays written by Atoll (one file per locale) read back equal in pyarrow, pandas and
Atoll. Also decimals (read as float64), Parquet's own errors, ``IPv4`` and
``Strings.regex_split``, checked against Python's ``ipaddress`` and ``re``."""

import glob
import ipaddress
import re

import atoll as ak
import numpy as np
import pytest

pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def _lists(n, seed, make):
    """``n`` lists of 0-6 values (a third empty), each value ``make(rng)``."""
    rng = np.random.default_rng(seed)
    out = []
    for _ in range(n):
        k = 0 if rng.random() < 0.33 else int(rng.integers(1, 7))
        out.append([make(rng) for _ in range(k)])
    return out


_MAKERS = {
    "i": (lambda r: int(r.integers(-(2**63), 2**63 - 1)), pa.int64()),
    "u": (lambda r: int(r.integers(0, 2**64 - 1, dtype=np.uint64)), pa.uint64()),
    "f": (lambda r: float(r.normal()) if r.random() > 0.2 else float("nan"), pa.float64()),
    "b": (lambda r: bool(r.random() < 0.5), pa.bool_()),
    "s": (lambda r: "".join(r.choice(list("ab é'\"日"), int(r.integers(0, 5)))), pa.string()),
}


def _same_lists(got, want):
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert len(g) == len(w), (g, w)
        for x, y in zip(g, w):
            if isinstance(y, float) and np.isnan(y):
                assert np.isnan(x)
            else:
                assert x == y, (g, w)


@pytest.mark.parametrize("comp", [None, "snappy", "zstd", "gzip"])
def test_pyarrow_list_columns_read_as_segarrays(tmp_path, comp):
    n = 300
    data = {k: _lists(n, i, m) for i, (k, (m, _)) in enumerate(_MAKERS.items())}
    table = pa.table({k: pa.array(v, type=pa.list_(_MAKERS[k][1])) for k, v in data.items()})
    p = tmp_path / "l.parquet"
    pq.write_table(table, p, compression=comp or "none", row_group_size=37)
    got = ak.read_parquet(str(p))
    assert list(got) == list(data)
    for k, v in got.items():
        assert isinstance(v, ak.SegArray), k
        assert v.size == n
        _same_lists(v.tolist(), pq.read_table(p)[k].to_pylist())
    one = ak.read_parquet(str(p), datasets="s")["s"]
    _same_lists(one.tolist(), data["s"])


def test_nulls_in_lists_and_null_lists_and_several_files(tmp_path):
    a = pa.array([[1, None, 3], None, [], [7]], type=pa.list_(pa.int64()))
    f = pa.array([[1.5, None], None, [], [2.5]], type=pa.list_(pa.float64()))
    s = pa.array([["x", None], [], None, ["yz"]], type=pa.list_(pa.string()))
    t = pa.table({"a": a, "f": f, "s": s, "x": pa.array([0, 1, 2, 3])})
    files = []
    for k in range(3):
        files.append(str(tmp_path / f"p_{k}.parquet"))
        pq.write_table(t, files[-1])
    got = ak.read_parquet(files)
    assert got["a"].tolist() == [[1, 0, 3], [], [], [7]] * 3
    _same_lists(got["f"].tolist(), [[1.5, float("nan")], [], [], [2.5]] * 3)
    assert got["s"].tolist() == [["x", ""], [], [], ["yz"]] * 3
    assert got["x"].tolist() == [0, 1, 2, 3] * 3
    # read_nested=False leaves the lists out of a read of every dataset.
    assert list(ak.read_parquet(files, read_nested=False)) == ["x"]
    assert list(ak.read_parquet(files, datasets=["x", "a"], read_nested=False)) == ["x", "a"]


@pytest.mark.parametrize("kind", list(_MAKERS))
@pytest.mark.parametrize("n", [0, 1, 5, 2000])
def test_segarrays_written_by_atoll_read_equal_in_pyarrow_pandas_and_atoll(tmp_path, kind, n):
    lists = _lists(n, 7, _MAKERS[kind][0])
    lens = np.array([len(x) for x in lists], dtype=np.int64)
    flat = [v for x in lists for v in x]
    segs = ak.array(np.concatenate([[0], np.cumsum(lens)[:-1]]).astype(np.int64) if n else np.zeros(0, np.int64))
    if kind == "s":
        vals = ak.array(flat) if flat else ak.array(np.array([], dtype=str))
    else:
        dt = {"i": np.int64, "u": np.uint64, "f": np.float64, "b": np.bool_}[kind]
        vals = ak.array(np.array(flat, dtype=dt))
    sa = ak.SegArray(segs, vals)
    prefix = str(tmp_path / "sa")
    ak.to_parquet({"l": sa, "n": ak.arange(n)}, prefix)
    files = sorted(glob.glob(prefix + "_LOCALE*"))
    assert len(files) == ak.num_locales()
    table = pa.concat_tables([pq.read_table(f) for f in files])
    assert pa.types.is_list(table.schema.field("l").type)
    _same_lists(table["l"].to_pylist(), lists)
    pdf = pd.concat([pd.read_parquet(f) for f in files], ignore_index=True)
    _same_lists([list(x) for x in pdf["l"]], lists)
    back = ak.read_parquet(prefix + "_LOCALE*")
    assert isinstance(back["l"], ak.SegArray)
    _same_lists(back["l"].tolist(), lists)
    assert back["n"].tolist() == list(range(n))


def test_dataframe_with_segarray_columns_round_trips(tmp_path):
    df = ak.DataFrame(
        {
            "idx": ak.arange(5),
            "seg": ak.SegArray(ak.array([0, 2, 2, 5, 9]), ak.arange(10)),
            "ss": ak.SegArray(ak.array([0, 0, 1, 3, 3]), ak.array(["a", "", "bc", "d"])),
        }
    )
    df.to_parquet(str(tmp_path / "df"))
    back = ak.DataFrame(ak.read_parquet(str(tmp_path / "df*")))
    pd.testing.assert_frame_equal(df.to_pandas(), back.to_pandas())
    assert back["seg"].tolist() == [[0, 1], [], [2, 3, 4], [5, 6, 7, 8], [9]]


def test_segments_that_do_not_ascend_are_a_value_error(tmp_path):
    # Below the SegArray class (which checks its segments): the engine checks them too.
    pair = (ak.array([0, 5, 1])._whole(), ak.arange(4)._whole())
    with pytest.raises(ValueError, match="ascend"):
        ak._atoll.write_parquet([pair], ["x"], str(tmp_path / "bad"), None)
    assert not glob.glob(str(tmp_path / "bad*"))


def test_decimals_read_as_float64_and_unreadable_types_are_parquet_errors(tmp_path):
    cols = [pa.array([i, -i], type=pa.decimal128(i, 0)) for i in range(1, 39)]
    cols.append(pa.array([1234567, -5], type=pa.decimal128(12, 3)))
    names = [f"d{i}" for i in range(1, 39)] + ["scaled"]
    p = str(tmp_path / "dec.parquet")
    pq.write_table(pa.table(cols, names=names), p)
    got = ak.read(p)
    want = pq.read_table(p).to_pandas()
    for k in names:
        np.testing.assert_allclose(got[k].to_ndarray(), want[k].astype(float).to_numpy(), rtol=1e-15)
    b = str(tmp_path / "bin.parquet")
    pq.write_table(pa.table({"b": pa.array([b"\x00\xff"], type=pa.binary())}), b)
    with pytest.raises(ak.ParquetTypeError, match="binary") as e:
        ak.read_parquet(b, datasets="b")
    assert isinstance(e.value, TypeError) and isinstance(e.value, RuntimeError)
    assert "HDF5" not in type(e.value).__name__
    m = str(tmp_path / "map.parquet")
    pq.write_table(pa.table({"m": pa.array([[("a", 1)], []], type=pa.map_(pa.string(), pa.int64()))}), m)
    with pytest.raises(ak.ParquetTypeError, match="map"):
        ak.read_parquet(m, datasets="m")
    nested = str(tmp_path / "nested.parquet")
    pq.write_table(pa.table({"n": pa.array([[[1], []], []], type=pa.list_(pa.list_(pa.int64())))}), nested)
    with pytest.raises(ak.ParquetTypeError, match="list of lists"):
        ak.read_parquet(nested, datasets="n")


def test_ipv4_shows_addresses_and_computes_on_integers(tmp_path):
    ints = np.array([0, 1, 3232235777, 2**32 - 1, 16909060], dtype=np.uint64)
    ip = ak.IPv4(ak.array(ints.astype(np.int64)))
    want = [str(ipaddress.ip_address(int(x))) for x in ints]
    assert ip.tolist() == want
    assert ip[2] == "192.168.1.1"
    assert ip[1:3].tolist() == want[1:3]
    assert ip.export_uint().tolist() == ints.tolist()
    assert (ip == "1.2.3.4").tolist() == [x == 16909060 for x in ints]
    assert ak.ip_address(want).export_uint().tolist() == ints.tolist()
    assert ak.is_ipv4(ak.array(np.array([1, 2**32, 5], dtype=np.uint64))).tolist() == [True, False, True]
    with pytest.raises(TypeError):
        ak.IPv4(ak.array([1.5]))
    df = ak.DataFrame({"a": ak.arange(5), "b": ip})
    df.to_parquet(str(tmp_path / "ip"))
    data = ak.read_parquet(str(tmp_path / "ip*"))
    back = ak.DataFrame({"a": data["a"], "b": ak.IPv4(data["b"])})
    pd.testing.assert_frame_equal(df.to_pandas(), back.to_pandas())
    assert df.to_pandas()["b"].tolist() == want


@pytest.mark.parametrize("pattern,maxsplit", [(",", 0), ("[,;]+", 0), ("o", 1), (",", 1)])
def test_regex_split_matches_re_split(pattern, maxsplit):
    words = ["one,two;;three", "", "uno,dos", "foo", ",,"]
    got, segs = ak.array(words).regex_split(pattern, maxsplit=maxsplit, return_segments=True)
    want = [re.split(pattern, w, maxsplit=maxsplit) for w in words]
    assert got.tolist() == [p for w in want for p in w]
    assert segs.tolist() == list(np.concatenate([[0], np.cumsum([len(w) for w in want])[:-1]]))
    assert ak.array(words).regex_split(pattern, maxsplit=maxsplit).tolist() == got.tolist()
