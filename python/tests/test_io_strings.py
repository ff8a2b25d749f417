"""Parquet string columns: files written by pandas, pyarrow (plain and
dictionary pages, nulls) and polars read back as ``ak.Strings`` equal to what those libraries
read; strings written by Atoll (one file per locale) read back equal in pandas, pyarrow,
polars and Atoll; empty strings, non-ASCII UTF-8, many row groups, mixed with numeric
columns; errors typed with nothing lost."""

import glob
import os

import atoll as ak
import numpy as np
import pytest

pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")

_ALPHABET = ["a", "b", "Z", " ", "é", "日本", "🙂", ",", "ß", "\t"]


def _words(n, seed=0, distinct=None):
    """``n`` random strings of 0-9 pieces (empty strings included, 1-4 byte UTF-8);
    ``distinct`` limits them to that many different values (dictionary pages pay then)."""
    rng = np.random.default_rng(seed)
    pool_n = n if distinct is None else distinct
    lens = rng.integers(0, 10, pool_n)
    picks = rng.integers(0, len(_ALPHABET), lens.sum())
    pool, at = [], 0
    for L in lens:
        pool.append("".join(_ALPHABET[i] for i in picks[at : at + L]))
        at += L
    if distinct is None:
        return pool
    return [pool[i] for i in rng.integers(0, distinct, n)]


def _nulls(words, every):
    return [None if k % every == 0 else w for k, w in enumerate(words)]


def _plain(vals):
    """Atoll's reading of a column with nulls: a null is the empty string (as in Arkouda)."""
    return ["" if v is None else v for v in vals]


@pytest.mark.parametrize("n", [0, 1, 3, 5000])
def test_a_pandas_file_with_strings_and_numbers_reads_back_as_strings_and_pdarrays(tmp_path, n):
    words = _words(n, seed=n)
    # (an empty object column would be written with Arrow's null type: name the type then)
    df = pd.DataFrame(
        {"s": pd.Series(words, dtype=object if n else "string[pyarrow]"), "i": np.arange(n, dtype=np.int64) * 3}
    )
    p = tmp_path / "pandas.parquet"
    df.to_parquet(p, row_group_size=700)  # several row groups straddling the locales' parts
    assert ak.get_datasets(str(p)) == ["s", "i"]
    assert [(name, dt) for name, dt, _ in ak.io.ls(str(p))] == [("s", "str"), ("i", "int64")]
    got = ak.read_parquet(str(p))
    assert list(got) == ["s", "i"]
    assert isinstance(got["s"], ak.Strings) and isinstance(got["i"], ak.pdarray)
    assert got["s"].size == n
    assert got["s"].to_list() == words
    np.testing.assert_array_equal(got["i"].to_ndarray(), df["i"].to_numpy())
    one = ak.read_parquet(p, datasets="s")["s"]  # a dict, as Arkouda's
    assert isinstance(one, ak.Strings)
    assert one.to_list() == words
    # The strings work as strings.
    assert (one == "").to_ndarray().tolist() == [w == "" for w in words]


def test_pyarrow_dictionary_and_plain_pages_with_nulls_and_codecs(tmp_path):
    n = 6000
    few = _nulls(_words(n, seed=1, distinct=37), 11)  # dictionary-encoded
    many = _nulls(_words(n, seed=2), 13)
    t = pa.table(
        {
            "few": pa.array(few, type=pa.string()),
            "many": pa.array(many, type=pa.large_string()),
            "k": pa.array(np.arange(n, dtype=np.int64)),
        }
    )
    for codec, dictionary in [("snappy", True), ("zstd", False), ("none", ["few"])]:
        p = tmp_path / f"t-{codec}.parquet"
        pq.write_table(t, p, compression=codec, use_dictionary=dictionary, row_group_size=1001, data_page_size=2048)
        enc = pq.ParquetFile(p).metadata.row_group(0).column(0).encodings
        assert ("RLE_DICTIONARY" in enc or "PLAIN_DICTIONARY" in enc) == (dictionary is not False), enc
        got = ak.read_parquet(p, datasets=["many", "k", "few"])
        assert got["few"].to_list() == _plain(few)
        assert got["many"].to_list() == _plain(many)
        np.testing.assert_array_equal(got["k"].to_ndarray(), np.arange(n))


def test_a_polars_file_and_a_glob_of_files_from_several_writers(tmp_path):
    pl = pytest.importorskip("polars")
    parts = [_words(m, seed=10 + m) for m in [900, 0, 1, 2500]]
    pl.DataFrame({"s": parts[0], "v": np.arange(900, dtype=np.float64)}).write_parquet(
        tmp_path / "p0.parquet", row_group_size=128
    )
    pd.DataFrame({"s": pd.Series(parts[1], dtype="string[pyarrow]"), "v": np.zeros(0)}).to_parquet(
        tmp_path / "p1.parquet"
    )
    pq.write_table(pa.table({"s": parts[2], "v": [1.5]}), tmp_path / "p2.parquet")
    pd.DataFrame({"s": parts[3], "v": np.arange(2500) * 0.5}).to_parquet(tmp_path / "p3.parquet", row_group_size=333)
    got = ak.read_parquet(str(tmp_path / "p*.parquet"))
    assert got["s"].to_list() == sum(parts, [])
    want_v = np.concatenate([np.arange(900.0), np.zeros(0), [1.5], np.arange(2500) * 0.5])
    np.testing.assert_array_equal(got["v"].to_ndarray(), want_v)


@pytest.mark.parametrize("n", [0, 2, 7, 20_001])
def test_strings_written_by_atoll_read_back_equal_in_pandas_pyarrow_polars_and_atoll(tmp_path, n):
    words = _words(n, seed=100 + n)
    s = ak.array(words) if n else ak.random_strings_uniform(1, 5, 0, seed=1)
    assert s.size == n
    i = ak.arange(n) * 2
    prefix = str(tmp_path / "atoll")
    ak.to_parquet({"s": s, "i": i}, prefix, compression="snappy" if n % 2 else None)
    files = sorted(glob.glob(prefix + "_LOCALE*"))
    assert files == [f"{prefix}_LOCALE{k:04d}.parquet" for k in range(ak.num_locales())]
    df = pd.concat([pd.read_parquet(x) for x in files], ignore_index=True)
    assert list(df.columns) == ["s", "i"]
    assert df["s"].tolist() == words
    np.testing.assert_array_equal(df["i"].to_numpy(), np.arange(n) * 2)
    assert pq.ParquetFile(files[0]).schema_arrow.field("s").type in (pa.string(), pa.large_string())
    pl = pytest.importorskip("polars")
    pf = pl.concat([pl.read_parquet(x) for x in files])
    assert pf["s"].to_list() == words
    back = ak.read_parquet(prefix + "_LOCALE*")
    assert back["s"].to_list() == words
    np.testing.assert_array_equal(back["i"].to_ndarray(), np.arange(n) * 2)


def test_strings_to_parquet_and_a_list_of_columns(tmp_path):
    words = _words(3000, seed=7)
    s = ak.array(words)
    s.to_parquet(str(tmp_path / "one.parquet"))
    files = sorted(glob.glob(str(tmp_path / "one_LOCALE*.parquet")))
    assert len(files) == ak.num_locales()
    assert ak.get_datasets(files[0]) == ["strings_array"]
    assert ak.read_parquet(files)["strings_array"].to_list() == words
    # Derived strings (an operation's result) and a list of columns with names.
    up = s.upper()
    ak.to_parquet([up, s.get_lengths()], str(tmp_path / "two"), names=["u", "n"])
    got = ak.read_parquet(str(tmp_path / "two_LOCALE*"))
    assert got["u"].to_list() == [w.upper() for w in words]
    np.testing.assert_array_equal(got["n"].to_ndarray(), [len(w) for w in words])


def test_string_errors_are_typed_and_lose_nothing(tmp_path):
    keep = ak.array(["keep", "", "é"])
    p = tmp_path / "bin.parquet"
    pq.write_table(pa.table({"b": pa.array([b"\x00\xff", b"x"], type=pa.binary()), "s": ["a", "b"]}), p)
    with pytest.raises(TypeError, match="binary"):
        ak.read_parquet(p, datasets="b")
    with pytest.raises(TypeError):
        ak.read_parquet(p)  # every dataset, the binary one among them
    assert ak.read_parquet(p, datasets="s")["s"].to_list() == ["a", "b"]
    # A string dataset in one file, a number in the other.
    q = tmp_path / "num.parquet"
    pq.write_table(pa.table({"s": [1, 2]}), q)
    with pytest.raises(TypeError):
        ak.read_parquet([str(p), str(q)], datasets="s")
    with pytest.raises(FileNotFoundError):
        ak.read_parquet([str(p), str(tmp_path / "nope.parquet")], datasets="s")
    data = p.read_bytes()
    bad = tmp_path / "cut.parquet"
    bad.write_bytes(data[: len(data) // 2])
    with pytest.raises(ValueError, match="corrupt"):
        ak.read_parquet([str(p), str(bad)], datasets="s")
    with pytest.raises(OSError):
        keep.to_parquet(str(tmp_path / "no-such-dir" / "t"))
    with pytest.raises(ValueError):
        ak.to_parquet({"s": keep, "n": ak.arange(7)}, str(tmp_path / "t"))
    with pytest.raises(TypeError):
        ak.to_parquet({"s": ["not", "atoll"]}, str(tmp_path / "t"))
    assert keep.to_list() == ["keep", "", "é"]
    assert not [f for f in os.listdir(tmp_path) if "tmp" in f or f.startswith("t_")]
