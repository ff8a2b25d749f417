"""HDF5 (Arkouda's layout) checked with h5py both ways, Parquet (new codecs, SegArray-free
frames, append, tag_data) with pyarrow, CSV with Python's csv module; errors that name the
file; nothing left behind by a failed write."""

import csv
import glob
import os

import atoll as ak
import h5py
import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

NL = ak.num_locales()


def L(x):
    return x.to_list() if isinstance(x, ak.Strings) else x.tolist()


def data(n=101):
    rng = np.random.default_rng(7)
    return {
        "i": rng.integers(-(2**40), 2**40, n),
        "u": rng.integers(0, 2**63, n, dtype=np.uint64) + np.uint64(2**62),
        "f": rng.normal(size=n),
        "b": rng.integers(0, 2, n).astype(bool),
        "s": np.array(["", "a", "é日", "xyz"] * (n // 4) + ["tail"] * (n % 4)),
    }


def test_hdf5_layout_read_by_h5py(tmp_path):
    d = data()
    cols = {k: ak.array(v) for k, v in d.items()}
    prefix = str(tmp_path / "frame")
    ak.to_hdf(cols, prefix)
    files = sorted(glob.glob(prefix + "_LOCALE*"))
    assert len(files) == NL
    got = {k: [] for k in d}
    for f in files:
        with h5py.File(f, "r") as h:
            assert h.attrs["File_Format"] == 1
            for k in ("i", "u", "f", "b"):
                ds = h[k]
                assert ds.attrs["ObjType"] == 1
                got[k].append(ds[...])
            assert h["b"].attrs["isBool"] == 1 and h["b"].dtype == np.uint8
            g = h["s"]
            assert g.attrs["ObjType"] == 2 and g["values"].dtype == np.uint8
            vals, segs = g["values"][...], g["segments"][...]
            ends = np.append(segs[1:], len(vals))
            got["s"].append(np.array([bytes(vals[a : b - 1]).decode() for a, b in zip(segs, ends)], dtype=str))
    for k, v in d.items():
        np.testing.assert_array_equal(np.concatenate(got[k]).astype(v.dtype), v)
    back = ak.read_hdf(prefix + "_LOCALE*")
    for k, v in d.items():
        np.testing.assert_array_equal(back[k].to_ndarray(), v)


def test_hdf5_written_by_h5py_read_by_atoll(tmp_path):
    rng = np.random.default_rng(3)
    parts = []
    for k, t in enumerate([np.int16, np.int64, np.uint8]):
        a = rng.integers(0, 100, 10 + k).astype(t)
        parts.append(a)
        with h5py.File(tmp_path / f"p{k}.h5", "w") as h:
            h.create_dataset("x", data=a)
            s = h.create_group("words")
            words = [f"w{j}" for j in range(3 + k)]
            b = b"".join(w.encode() + b"\0" for w in words)
            s.create_dataset("values", data=np.frombuffer(b, dtype=np.uint8))
            s.create_dataset("segments", data=np.cumsum([0] + [len(w) + 1 for w in words[:-1]]).astype(np.int64))
            s.attrs["ObjType"] = 2
    with pytest.raises(RuntimeError):
        ak.read_hdf(str(tmp_path / "p*.h5"), datasets="x")  # widths differ: strict
    got = ak.read_hdf(str(tmp_path / "p*.h5"), datasets=["x", "words"], strict_types=False)
    np.testing.assert_array_equal(got["x"].to_ndarray(), np.concatenate(parts).astype(np.int64))
    assert got["words"].to_list() == [f"w{j}" for k in range(3) for j in range(3 + k)]


@pytest.mark.parametrize("file_type", ["distribute", "single"])
def test_hdf5_every_object_kind_round_trip(tmp_path, file_type):
    sa = ak.SegArray(ak.array([0, 0, 3, 5, 5, 9]), ak.arange(12) * 3)
    ss = ak.SegArray(ak.array([0, 2, 2]), ak.array(["a", "bb", "", "cc", "d"]))
    cat = ak.Categorical(ak.array(["x", "y", "x", "z", "y"]))
    g = ak.GroupBy([ak.array([3, 1, 3, 2, 1]), ak.array(["a", "b", "a", "c", "b"])])
    idx = ak.Index(ak.array([5.0, 4.0, 3.0]), name="i")
    mi = ak.MultiIndex([ak.array([1, 2]), ak.array(["p", "q"])])
    objs = {"sa": sa, "ss": ss, "cat": cat, "g": g, "idx": idx, "mi": mi}
    prefix = str(tmp_path / "objs")
    ak.to_hdf(objs, prefix, file_type=file_type)
    pattern = prefix + ("_LOCALE*" if file_type == "distribute" else "")
    back = ak.read_hdf(pattern)
    assert back["sa"].tolist() == sa.tolist() and back["ss"].tolist() == ss.tolist()
    assert back["cat"].tolist() == cat.tolist() and back["cat"].categories.to_list() == cat.categories.to_list()
    assert back["g"].permutation.tolist() == g.permutation.tolist()
    assert back["g"].segments.tolist() == g.segments.tolist()
    assert [L(k) for k in back["g"].unique_keys] == [L(k) for k in g.unique_keys]
    assert isinstance(back["idx"], ak.Index) and back["idx"].tolist() == idx.tolist()
    assert isinstance(back["mi"], ak.MultiIndex) and back["mi"].tolist() == mi.tolist()


def test_hdf5_dataframe_append_update_repack(tmp_path):
    d = data(60)
    df = ak.DataFrame({k: ak.array(v) for k, v in d.items()})
    prefix = str(tmp_path / "df")
    df.to_hdf(prefix)
    loaded = ak.DataFrame.load(prefix)
    pd.testing.assert_frame_equal(loaded.to_pandas()[df.columns.values], df.to_pandas())
    ak.to_hdf({"extra": ak.arange(60)}, prefix, mode="append")
    assert sorted(ak.get_datasets(prefix + "_LOCALE0000")) == sorted(list(d) + ["extra"])
    with pytest.raises(ValueError):
        ak.to_hdf({"extra": ak.arange(60)}, prefix, mode="append")
    files = sorted(glob.glob(prefix + "_LOCALE*"))
    before = sum(os.path.getsize(f) for f in files)
    ak.update_hdf({"s": ak.arange(3)}, prefix, repack=True)
    after = sum(os.path.getsize(f) for f in files)
    assert after < before
    assert ak.read_hdf(prefix + "_LOCALE*")["s"].tolist() == [0, 1, 2]
    assert ak.load(prefix, dataset="extra")["extra"].tolist() == list(range(60))
    assert set(ak.load_all(prefix)) == set(d) | {"extra"}


def test_hdf5_errors_name_the_file(tmp_path):
    missing = str(tmp_path / "nope_LOCALE0000")
    with pytest.raises(FileNotFoundError, match="nope"):
        ak.read_hdf(missing)
    bad = tmp_path / "bad_LOCALE0000"
    bad.write_bytes(b"\x89HDF\r\n\x1a\n" + b"\0" * 40)  # the signature, then nothing
    with pytest.raises(RuntimeError, match="bad_LOCALE0000"):
        ak.read_hdf(str(bad))
    ak.to_hdf({"a": ak.arange(10)}, str(tmp_path / "ok"))
    with pytest.raises(ValueError, match="zz"):
        ak.read_hdf(str(tmp_path / "ok_LOCALE*"), datasets="zz")
    # A failed write leaves no file behind.
    with pytest.raises(TypeError):
        ak.to_hdf({"a": ak.arange(3), "b": object()}, str(tmp_path / "fail"))
    assert glob.glob(str(tmp_path / "fail*")) == []


@pytest.mark.parametrize("comp", [None, "snappy", "gzip", "brotli", "zstd", "lz4"])
def test_parquet_codecs_read_by_pyarrow(tmp_path, comp):
    d = {k: v for k, v in data(70).items()}
    prefix = str(tmp_path / "pq")
    ak.to_parquet({k: ak.array(v) for k, v in d.items()}, prefix, compression=comp)
    files = sorted(glob.glob(prefix + "_LOCALE*"))
    t = pd.concat([pq.read_table(f).to_pandas() for f in files], ignore_index=True)
    for k, v in d.items():
        np.testing.assert_array_equal(t[k].to_numpy().astype(v.dtype), v)
    back = ak.read_parquet(prefix + "_LOCALE*")
    assert set(back) == set(d)
    np.testing.assert_array_equal(back["f"].to_ndarray(), d["f"])


def test_parquet_append_tag_and_dispatch(tmp_path):
    prefix = str(tmp_path / "pa")
    ak.arange(10).to_parquet(prefix, "a")
    ak.array(np.arange(10.0)).to_parquet(prefix, "b", mode="append")
    got = ak.read(prefix + "_LOCALE*")
    assert got["a"].tolist() == list(range(10)) and got["b"].tolist() == [float(x) for x in range(10)]
    assert ak.get_filetype(prefix + "_LOCALE*") == "Parquet"
    pd.DataFrame({"v": [1, 2]}).to_parquet(tmp_path / "t0.parquet")
    pd.DataFrame({"v": [3]}).to_parquet(tmp_path / "t1.parquet")
    tagged = ak.read_parquet(str(tmp_path / "t*.parquet"), tag_data=True)
    assert tagged["Filename_Codes"].tolist() == [0, 0, 1] and tagged["v"].tolist() == [1, 2, 3]


def test_csv_round_trip_and_plain_files(tmp_path):
    d = {"s": ak.array(["a,b", 'say "hi"', "plain"]), "i": ak.array([1, -2, 3]), "f": ak.array([0.5, 1.25, -3.0])}
    prefix = str(tmp_path / "c.csv")
    ak.to_csv(d, prefix)
    files = sorted(glob.glob(str(tmp_path / "c_LOCALE*.csv")))
    assert len(files) == NL
    back = ak.read_csv(str(tmp_path / "c_LOCALE*.csv"))
    assert (
        back["s"].to_list() == d["s"].to_list()
        and back["i"].tolist() == [1, -2, 3]
        and back["f"].tolist() == [0.5, 1.25, -3.0]
    )
    rows = []
    for f in files:
        with open(f, newline="") as fh:
            r = list(csv.reader(fh))
            assert r[0] == ["**HEADER**"] and r[2] == ["*/HEADER/*"] and r[3] == ["s", "i", "f"]
            rows += r[4:]
    assert [x[0] for x in rows] == d["s"].to_list()
    plain = tmp_path / "plain.csv"
    plain.write_text('A|*|B\n"x|*|y"|*|1\nz|*|2\n')
    got = ak.read_csv(str(plain), column_delim="|*|")
    assert got["A"].to_list() == ["x|*|y", "z"] and got["B"].to_list() == ["1", "2"]


def test_zarr_is_refused_with_the_formats_that_are_read():
    for call in (lambda: ak.read_zarr("store"), lambda: ak.to_zarr("store", ak.arange(3), (3,))):
        with pytest.raises(NotImplementedError, match="Parquet, HDF5 and CSV"):
            call()
