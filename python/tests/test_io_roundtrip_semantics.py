"""Round trips through CSV, HDF5 and Parquet compared with pandas, pyarrow, h5py and Python
ints: rows of empty fields, every dtype (bigint included), overwriting a prefix written by
more locales, files written at another locale count, and the error classes of each format."""

import glob
import os
import subprocess
import sys

import atoll as ak
import numpy as np
import pytest
from atoll import io as akio
from hypothesis import HealthCheck, example, given, settings, strategies as st

pd = pytest.importorskip("pandas")
pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")
h5py = pytest.importorskip("h5py")

NL = ak.num_locales()
_FIXTURE_HC = settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
_TEXT = st.text(alphabet=st.sampled_from(list('ab ,"\n\ré€😀|*')), max_size=5)


def _files(prefix, ext=""):
    return sorted(glob.glob(f"{glob.escape(prefix)}_LOCALE[0-9][0-9][0-9][0-9]{ext}"))


def _pandas_csv(files, delim=",", dtype=str):
    """pandas' reading of Atoll's CSV files (the three lines of Arkouda's header skipped)."""
    nan = {"f": ["nan"]}  # NaN only in the float column: an empty string stays a string
    parts = [pd.read_csv(f, sep=delim, skiprows=3, dtype=dtype, keep_default_na=False, na_values=nan) for f in files]
    return pd.concat(parts, ignore_index=True)


# ----- CSV: rows of empty fields ------------------------------------------------------------
@_FIXTURE_HC
@given(values=st.lists(_TEXT, max_size=12), delim=st.sampled_from([",", "\t", "|*|"]))
@example(values=["", "", "x", ""], delim=",")
@example(values=["|*", ""], delim="|*|")  # a field's end and the delimiter would read as a delimiter
def test_csv_keeps_rows_whose_fields_are_all_empty(tmp_path, values, delim):
    prefix = str(tmp_path / "e")
    ak.to_csv({"s": ak.array(values, dtype=str)}, prefix, col_delim=delim, overwrite=True)
    assert ak.read_csv(prefix + "_LOCALE*", column_delim=delim)["s"].to_list() == values
    other = ["" if k % 2 else v for k, v in enumerate(values)]
    ak.to_csv(
        {"s": ak.array(values, dtype=str), "t": ak.array(other, dtype=str)}, prefix, col_delim=delim, overwrite=True
    )
    got = ak.read_csv(prefix + "_LOCALE*", column_delim=delim)
    assert got["s"].to_list() == values and got["t"].to_list() == other
    if len(delim) == 1:
        want = _pandas_csv(_files(prefix), delim)
        assert want["s"].tolist() == values and want["t"].tolist() == other


def test_csv_reads_a_blank_line_of_a_one_column_file_as_an_empty_string(tmp_path):
    """Arkouda's writer leaves an empty string as a blank line."""
    p = tmp_path / "blank.csv"
    p.write_text("**HEADER**\nstr\n*/HEADER/*\ns\na\n\nb\n\n", encoding="utf-8")
    assert ak.read_csv(str(p))["s"].to_list() == ["a", "", "b", ""]
    # Without the header (a plain CSV file) blank lines are skipped, as pandas skips them.
    q = tmp_path / "plain.csv"
    q.write_text("s\na\n\nb\n", encoding="utf-8")
    want = pd.read_csv(q, dtype=str)["s"].tolist()
    assert ak.read_csv(str(q))["s"].to_list() == want


# ----- CSV: overwriting a prefix written by more locales --------------------------------------
def _stale_write(prefix, n_files, rows_each):
    for k in range(n_files):
        with open(f"{prefix}_LOCALE{k:04d}.csv", "w", encoding="utf-8") as fh:
            fh.write("**HEADER**\nint64\n*/HEADER/*\nx\n" + "".join(f"{-k}\n" for _ in range(rows_each)))


def test_csv_overwrite_removes_the_files_of_a_writer_with_more_locales(tmp_path):
    prefix = str(tmp_path / "w")
    _stale_write(prefix, 8, 3)
    with pytest.raises(ValueError, match="exists already"):
        ak.to_csv({"x": ak.arange(5)}, prefix + ".csv")  # without overwrite: refused, nothing written
    assert len(_files(prefix, ".csv")) == 8
    ak.to_csv({"x": ak.arange(5)}, prefix + ".csv", overwrite=True)
    files = _files(prefix, ".csv")
    assert files == [f"{prefix}_LOCALE{k:04d}.csv" for k in range(NL)]
    got = ak.read_csv(prefix + "_LOCALE*.csv")["x"]
    want = _pandas_csv(files, dtype={"x": np.int64})["x"].to_numpy()
    np.testing.assert_array_equal(want, np.arange(5))
    assert got.to_ndarray().dtype == want.dtype and got.tolist() == want.tolist()
    # The stale files that sit above the ones being written also stop a write without overwrite.
    _stale_write(prefix, 8, 1)
    for k in range(NL):
        os.remove(f"{prefix}_LOCALE{k:04d}.csv")
    with pytest.raises(ValueError, match="exists already"):
        ak.to_csv({"x": ak.arange(5)}, prefix + ".csv")


# ----- CSV: every dtype ---------------------------------------------------------------------
_STRS = ["", "plain", "a,b", 'say "hi"', "two\nlines", "cr\r\nlf", "é€😀", " pad ", '"', ","]
_BIG = [0, 1, -1, 2**64, 2**64 - 1, -(2**64), 3**90, -(7**70), 2**63, -(2**63) - 1]


def _every_dtype(n, seed=0):
    """A pandas frame of every dtype Atoll's files hold (bigint as Python ints)."""
    rng = np.random.default_rng(seed)
    f = rng.normal(size=n) * 10.0 ** rng.integers(-300, 300, n)
    specials = [np.nan, np.inf, -np.inf, -0.0, 5e-324, 0.1]
    f[: min(n, len(specials))] = specials[: min(n, len(specials))]
    i = rng.integers(-(2**63), 2**63 - 1, n, dtype=np.int64, endpoint=True)
    i[: min(n, 2)] = [-(2**63), 2**63 - 1][: min(n, 2)]
    return pd.DataFrame(
        {
            "i": i,
            "u": rng.integers(0, 2**64 - 1, n, dtype=np.uint64, endpoint=True),
            "u8": rng.integers(0, 255, n, dtype=np.uint8, endpoint=True),
            "f": f,
            "b": rng.random(n) < 0.5,
            "s": pd.Series([_STRS[k % len(_STRS)] for k in range(n)], dtype=object),
            "big": pd.Series([_BIG[k % len(_BIG)] * (k + 1) for k in range(n)], dtype=object),
        }
    )


def _to_ak(pdf, bigint=True):
    out = {}
    for c in pdf.columns:
        if c == "big":
            if bigint:
                out[c] = ak.array(list(pdf[c]), dtype=ak.bigint)
        elif c == "s":
            out[c] = ak.array(list(pdf[c]), dtype=str)
        else:
            out[c] = ak.array(pdf[c].to_numpy())
    return out


def _check(got, pdf, widen_u8=False):
    """The columns read (a dict) equal the pandas frame, dtype included."""
    for c in pdf.columns:
        if c not in got:
            continue
        g = got[c]
        if c == "s":
            assert g.to_list() == list(pdf[c]), c
        elif c == "big":
            assert g.dtype == ak.bigint and g.tolist() == [int(x) for x in pdf[c]], c
        else:
            want = pdf[c].to_numpy()
            if widen_u8 and want.dtype == np.uint8:
                want = want.astype(np.uint64)  # Parquet reads 8-bit integers widened (as Arkouda)
            a = g.to_ndarray()
            assert a.dtype == want.dtype, (c, a.dtype, want.dtype)
            np.testing.assert_array_equal(a, want)
            if want.dtype.kind == "f":
                np.testing.assert_array_equal(np.signbit(a), np.signbit(want))


@pytest.mark.parametrize("n", [0, 1, 13])
def test_csv_round_trips_every_dtype(tmp_path, n):
    pdf = _every_dtype(n)
    prefix = str(tmp_path / "all")
    ak.to_csv(_to_ak(pdf), prefix)
    got = ak.read_csv(prefix + "_LOCALE*")
    assert list(got) == list(pdf.columns)
    _check(got, pdf)
    # pandas reads the same text to the same values.
    types = {"i": np.int64, "u": np.uint64, "u8": np.uint8, "f": np.float64, "b": bool, "s": str, "big": str}
    theirs = _pandas_csv(_files(prefix), dtype=types)
    for c in ["i", "u", "u8", "f", "b"]:
        np.testing.assert_array_equal(theirs[c].to_numpy(), pdf[c].to_numpy())
    assert theirs["s"].tolist() == list(pdf["s"]) and [int(x) for x in theirs["big"]] == list(pdf["big"])
    # DataFrame's writer gives the same files' contents.
    ak.DataFrame(_to_ak(pdf)).to_csv(str(tmp_path / "df"))
    _check(ak.read_csv(str(tmp_path / "df_LOCALE*")), pdf)


def test_csv_errors_are_csv_classes(tmp_path):
    p = tmp_path / "bad.csv"
    p.write_text("**HEADER**\nint64\n*/HEADER/*\nx\n1\nnope\n", encoding="utf-8")
    with pytest.raises(akio.FileFormatError, match="not int64") as e:
        ak.read_csv(str(p))
    assert isinstance(e.value, ValueError) and not type(e.value).__name__.startswith("HDF5")
    p.write_text("**HEADER**\nuint8\n*/HEADER/*\nx\n256\n", encoding="utf-8")
    with pytest.raises(ValueError, match="not uint8"):
        ak.read_csv(str(p))
    p.write_text("**HEADER**\ncomplex128\n*/HEADER/*\nx\n1\n", encoding="utf-8")
    with pytest.raises(akio.DatasetTypeError, match="complex128") as e:
        ak.read_csv(str(p))
    assert isinstance(e.value, TypeError) and not type(e.value).__name__.startswith("HDF5")
    for call in (lambda: ak.read_csv(str(tmp_path / "nope.csv")), lambda: ak.read_csv(str(tmp_path / "no*.csv"))):
        with pytest.raises(FileNotFoundError) as e:
            call()
        assert isinstance(e.value, RuntimeError) and not type(e.value).__name__.startswith("HDF5")


# ----- bigint in HDF5 -----------------------------------------------------------------------
_INTS = st.integers(min_value=-(2**200), max_value=2**200)


def _h5_bigint(files, path):
    """The Python ints of a bigint group, from h5py: limbs least significant first, read as an
    unsigned integer, or as two's complement where the group says ``TwosComplement``."""
    out = []
    for f in files:
        with h5py.File(f, "r") as h:
            g = h[path]
            assert int(g.attrs["isBigInt"]) == 1
            k = int(g.attrs["NumLimbs"])
            limbs = [g[f"Limb_{i}"][()] for i in range(k)]
            assert all(x.dtype == np.uint64 for x in limbs)
            for r in range(len(limbs[0])):
                v = sum(int(limbs[i][r]) << (64 * i) for i in range(k))
                if int(g.attrs.get("TwosComplement", 0)) and v >> (64 * k - 1):
                    v -= 1 << (64 * k)
                out.append(v)
            max_bits = int(g.attrs["MaxBits"])
    return out, max_bits


@_FIXTURE_HC
@given(values=st.lists(_INTS, max_size=12), max_bits=st.sampled_from([-1, 0, 1, 64, 65, 130]))
def test_bigint_round_trips_through_hdf5(tmp_path, values, max_bits):
    a = ak.array(values, dtype=ak.bigint)
    if max_bits >= 0:
        a.max_bits = max_bits
    want = [v % (1 << max_bits) for v in values] if max_bits >= 0 else values
    prefix = str(tmp_path / "big")
    ak.to_hdf({"b": a, "i": ak.arange(len(values))}, prefix)
    got = ak.read_hdf(prefix + "_LOCALE*")
    assert got["b"].dtype == ak.bigint and got["b"].tolist() == want
    assert got["b"].max_bits == max_bits and got["i"].tolist() == list(range(len(values)))
    theirs, mb = _h5_bigint(_files(prefix), "b")
    assert theirs == want and mb == max_bits


def test_bigint_columns_of_a_dataframe_through_hdf5(tmp_path):
    vals = [2**64, -(2**70) + 3, 0, 5, -1, 2**130 + 7, 9]
    df = ak.DataFrame({"b": ak.array(vals, dtype=ak.bigint), "x": ak.arange(len(vals))})
    df.to_hdf(str(tmp_path / "df"))
    got = ak.read_hdf(str(tmp_path / "df_LOCALE*"))
    assert got["b"].tolist() == vals and got["x"].tolist() == list(range(len(vals)))
    assert _h5_bigint(_files(str(tmp_path / "df")), "b")[0] == vals


def test_a_segarray_of_bigint_values_through_hdf5(tmp_path):
    rows = [[2**70, -5], [], [3, 7, 2**65], [-(2**129)], [], [1, 2, 3, 4]]
    flat = [v for r in rows for v in r]
    segs = np.cumsum([0] + [len(r) for r in rows[:-1]])
    sa = ak.SegArray(ak.array(segs), ak.array(flat, dtype=ak.bigint))
    ak.to_hdf({"sa": sa}, str(tmp_path / "sa"))
    got = ak.read_hdf(str(tmp_path / "sa_LOCALE*"))["sa"]
    assert got.to_list() == rows


def test_a_bigint_file_in_arkoudas_layout_written_by_h5py_reads(tmp_path):
    vals = [0, 2**64 + 5, 2**127 + 2**64 - 1, 12]
    p = tmp_path / "ark.h5"
    with h5py.File(p, "w") as h:
        g = h.create_group("b")
        for k, v in {"ObjType": 1, "isBigInt": 1, "MaxBits": -1, "NumLimbs": 2}.items():
            g.attrs.create(k, v, dtype=np.int64)
        for i in range(2):
            g.create_dataset(f"Limb_{i}", data=np.array([(v >> (64 * i)) & (2**64 - 1) for v in vals], dtype=np.uint64))
    got = ak.read_hdf(str(p))["b"]
    assert got.dtype == ak.bigint and got.tolist() == vals


# ----- bigint in Parquet: refused, naming the column ----------------------------------------
def test_bigint_to_parquet_is_refused_naming_the_column(tmp_path):
    b = ak.array([2**70, -3], dtype=ak.bigint)
    calls = [
        lambda p: ak.to_parquet({"ok": ak.arange(2), "wide": b}, p),
        lambda p: ak.DataFrame({"ok": ak.arange(2), "wide": b}).to_parquet(p),
        lambda p: ak.to_parquet([ak.arange(2), b], p, names=["ok", "wide"]),
    ]
    for k, call in enumerate(calls):
        prefix = str(tmp_path / f"p{k}")
        with pytest.raises(ak.ParquetTypeError, match="'wide'") as e:
            call(prefix)
        assert isinstance(e.value, TypeError)
        assert not glob.glob(prefix + "*")
    # pyarrow cannot hold these values in an integer column either.
    with pytest.raises((pa.ArrowInvalid, OverflowError)):
        pa.array([2**70, -3], type=pa.int64())


# ----- Parquet and neutral error classes ----------------------------------------------------
def test_parquet_and_format_neutral_errors_are_not_hdf5_classes(tmp_path):
    bin_file = tmp_path / "bin.parquet"
    pq.write_table(pa.table({"x": pa.array([b"a", b"b"])}), bin_file)
    with pytest.raises(ak.ParquetTypeError) as e:
        ak.read_parquet(str(bin_file))
    assert isinstance(e.value, akio.DatasetTypeError) and not type(e.value).__name__.startswith("HDF5")
    calls = [
        lambda: ak.read_parquet(str(tmp_path / "nope.parquet")),
        lambda: ak.read_parquet(str(tmp_path / "none-*.parquet")),
        lambda: ak.read(str(tmp_path / "nope.parquet")),
        lambda: ak.get_filetype(str(tmp_path / "nope.parquet")),
        lambda: ak.load(str(tmp_path / "nope.parquet")),
    ]
    for call in calls:
        with pytest.raises(akio.AtollFileNotFoundError) as e:
            call()
        assert isinstance(e.value, (FileNotFoundError, RuntimeError))
        assert not type(e.value).__name__.startswith("HDF5"), type(e.value)
    # HDF5 keeps its classes, now under the neutral bases.
    with pytest.raises(akio.AtollFileNotFoundError) as e:
        ak.read_hdf(str(tmp_path / "nope.h5"))
    assert type(e.value).__name__ == "HDF5FileNotFoundError"


# ----- files written at another locale count ------------------------------------------------
_WRITER = r"""
import sys
import pandas as pd
import atoll as ak

d = sys.argv[1]
for name in ("full", "two", "empty"):
    pdf = pd.read_pickle(f"{d}/{name}.pkl")
    cols = {}
    for c in pdf.columns:
        if c == "big":
            cols[c] = ak.array(list(pdf[c]), dtype=ak.bigint)
        elif c == "s":
            cols[c] = ak.array(list(pdf[c]), dtype=str)
        else:
            cols[c] = ak.array(pdf[c].to_numpy())
    ak.to_hdf(cols, f"{d}/{name}_h")
    ak.DataFrame(cols).to_hdf(f"{d}/{name}_dh")
    ak.to_csv(cols, f"{d}/{name}_c.csv")
    flat = {k: v for k, v in cols.items() if k != "big"}
    ak.to_parquet(flat, f"{d}/{name}_p.parquet")
    ak.DataFrame(flat).to_parquet(f"{d}/{name}_dp.parquet")
print(ak.num_locales())
"""

_FRAMES = {"full": _every_dtype(11, seed=3), "two": _every_dtype(2, seed=4), "empty": _every_dtype(0)}


def _clean_env(locales):
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("PMI", "PMIX", "OMPI_", "HYDRA", "MPIR_", "MPI_LOCAL", "ATOLL_BACKEND"))
    }
    env["ATOLL_LOCALES"] = str(locales)
    env["ATOLL_BACKEND"] = "local"
    return env


@pytest.fixture(scope="module")
def other_count_files(tmp_path_factory):
    d = tmp_path_factory.mktemp("other_count")
    for name, pdf in _FRAMES.items():
        pdf.to_pickle(d / f"{name}.pkl")
    writer = 3 if NL != 3 else 2
    r = subprocess.run(
        [sys.executable, "-c", _WRITER, str(d)], env=_clean_env(writer), capture_output=True, text=True, timeout=300
    )
    assert r.returncode == 0, r.stderr[-3000:]
    assert int(r.stdout.split()[-1]) == writer
    return str(d), writer


@pytest.mark.parametrize("name", list(_FRAMES))
def test_files_written_at_another_locale_count_read_back_equal(other_count_files, name):
    d, writer = other_count_files
    pdf = _FRAMES[name]
    for kind in ("h", "dh"):
        prefix = f"{d}/{name}_{kind}"
        assert len(_files(prefix)) == writer
        got = ak.read_hdf(prefix + "_LOCALE*")
        assert set(got) == set(pdf.columns)
        _check(got, pdf)
        # h5py's reading of the same files agrees.
        files = _files(prefix)
        with_h5 = []
        for f in files:
            with h5py.File(f, "r") as h:
                with_h5.append(h["i"][()])
        np.testing.assert_array_equal(np.concatenate(with_h5), pdf["i"].to_numpy())
        assert _h5_bigint(files, "big")[0] == list(pdf["big"])
    for kind in ("p", "dp"):
        files = _files(f"{d}/{name}_{kind}", ".parquet")
        assert len(files) == writer
        got = ak.read_parquet(f"{d}/{name}_{kind}_LOCALE*.parquet")
        flat = pdf.drop(columns=["big"])
        _check(got, flat, widen_u8=True)
        theirs = pd.read_parquet(files)
        for c in ["i", "u", "u8", "f", "b"]:
            np.testing.assert_array_equal(theirs[c].to_numpy(), flat[c].to_numpy())
        assert list(theirs["s"]) == list(flat["s"])
    files = _files(f"{d}/{name}_c", ".csv")
    assert len(files) == writer
    got = ak.read_csv(f"{d}/{name}_c_LOCALE*.csv")
    _check(got, pdf)
    theirs = _pandas_csv(files, dtype={"i": np.int64, "u": np.uint64, "f": np.float64, "s": str})
    for c in ["i", "u", "f"]:
        np.testing.assert_array_equal(theirs[c].to_numpy(), pdf[c].to_numpy())
    assert list(theirs["s"]) == list(pdf["s"])
