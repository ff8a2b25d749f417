"""HDF5 datasets of pdarrays of any rank: what Atoll writes, h5py reads as NumPy's array of that
shape (a single file), or as the rows of axis 0 that each per-locale file holds; what h5py
writes (one file, or pieces along axis 0), Atoll reads as an array of that shape."""

import glob

import atoll as ak
import numpy as np
import pytest
from atoll._io_errors import HDF5FormatError
from hypothesis import HealthCheck, given, settings, strategies as st

h5py = pytest.importorskip("h5py")

_FIXTURE_HC = settings(suppress_health_check=[HealthCheck.function_scoped_fixture])

SHAPES = [(2, 3), (5, 2, 2), (1, 7), (7, 1), (0, 3), (3, 0), (2, 1, 3, 2), (4, 2, 3, 1, 2)]
DTYPES = [np.int64, np.uint64, np.float64, np.bool_]


def _files(prefix):
    return sorted(glob.glob(f"{glob.escape(prefix)}_LOCALE[0-9][0-9][0-9][0-9]"))


def _values(shape, dtype, seed=0):
    rng = np.random.default_rng(seed)
    if dtype == np.bool_:
        return rng.integers(0, 2, size=shape).astype(bool)
    if dtype == np.float64:
        return rng.normal(size=shape) * 1e6
    if dtype == np.uint64:
        return rng.integers(0, 2**63, size=shape, dtype=np.uint64) * np.uint64(2) + np.uint64(1)
    return rng.integers(-(2**62), 2**62, size=shape, dtype=np.int64)


def _h5(path, name):
    with h5py.File(path, "r") as h:
        ds = h[name]
        return ds[()], dict(ds.attrs)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_single_file_is_a_dataset_of_the_shape(tmp_path, shape, dtype):
    want = _values(shape, dtype)
    p = str(tmp_path / "one.h5")
    ak.array(want).to_hdf(p, dataset="x", file_type="single")
    got, attrs = _h5(p, "x")
    want_stored = want.astype(np.uint8) if dtype == np.bool_ else want
    assert got.shape == want.shape and got.dtype == want_stored.dtype
    np.testing.assert_array_equal(got, want_stored)
    assert attrs["ObjType"] == 1 and (attrs.get("isBool") == 1) == (dtype == np.bool_)
    back = ak.read_hdf(p, datasets="x")["x"]
    assert back.shape == want.shape and back.dtype == want.dtype
    np.testing.assert_array_equal(back.to_ndarray(), want)


@pytest.mark.parametrize("dtype", DTYPES)
@pytest.mark.parametrize("shape", SHAPES)
def test_per_locale_files_hold_rows_of_axis_0(tmp_path, shape, dtype):
    want = _values(shape, dtype, seed=1)
    prefix = str(tmp_path / "d")
    ak.array(want).to_hdf(prefix, dataset="x")
    files = _files(prefix)
    assert len(files) == ak.num_locales()
    parts = [_h5(f, "x")[0] for f in files]
    assert all(p.shape[1:] == want.shape[1:] for p in parts)
    want_stored = want.astype(np.uint8) if dtype == np.bool_ else want
    np.testing.assert_array_equal(np.concatenate(parts, axis=0), want_stored)
    # The rows are split as evenly as the Block distribution splits elements.
    rows = [p.shape[0] for p in parts]
    assert max(rows) - min(rows) <= 1
    back = ak.read_hdf(prefix + "_LOCALE*", datasets="x")["x"]
    assert back.shape == want.shape and back.dtype == want.dtype
    np.testing.assert_array_equal(back.to_ndarray(), want)


@_FIXTURE_HC
@given(shape=st.lists(st.integers(0, 5), min_size=2, max_size=4).map(tuple), single=st.booleans())
def test_round_trips_of_random_shapes(tmp_path, shape, single):
    want = np.arange(int(np.prod(shape)), dtype=np.float64).reshape(shape) * 0.5 - 3
    prefix = str(tmp_path / ("s.h5" if single else "r"))
    a = ak.array(want)
    ak.to_hdf({"a": a, "flat": ak.arange(5)}, prefix, file_type="single" if single else "distribute")
    files = [prefix] if single else _files(prefix)
    got = ak.read_hdf(files)
    assert got["a"].shape == want.shape
    np.testing.assert_array_equal(got["a"].to_ndarray(), want)
    assert got["flat"].shape == (5,)
    np.testing.assert_array_equal(np.concatenate([_h5(f, "a")[0] for f in files], axis=0), want)


def test_rank_0_round_trips(tmp_path):
    a = ak.array(np.array(2.5))
    assert a.shape == ()
    p = str(tmp_path / "z.h5")
    a.to_hdf(p, dataset="z", file_type="single")
    got, _ = _h5(p, "z")
    assert got.shape == () and got == np.float64(2.5)
    back = ak.read_hdf(p, datasets="z")["z"]
    assert back.shape == () and back.to_ndarray() == np.float64(2.5)
    prefix = str(tmp_path / "zd")
    a.to_hdf(prefix, dataset="z")
    back = ak.read_hdf(prefix + "_LOCALE*", datasets="z")["z"]
    assert back.shape == () and back.to_ndarray() == np.float64(2.5)


@pytest.mark.parametrize("shape", [(3, 4), (2, 3, 5), (6, 1, 1, 2), (0, 2)])
@pytest.mark.parametrize("np_dtype", [np.int32, np.int64, np.uint16, np.float32, np.float64])
def test_a_dataset_written_by_h5py_reads_with_its_shape(tmp_path, shape, np_dtype):
    want = (np.arange(int(np.prod(shape))) % 50).astype(np_dtype).reshape(shape)
    p = tmp_path / "theirs.h5"
    with h5py.File(p, "w") as h:
        h.create_dataset("m", data=want)
    got = ak.read_hdf(str(p), datasets="m")["m"]
    assert got.shape == want.shape
    # Atoll reads integers widened to 64 bits and floats as float64, as NumPy's astype does.
    np.testing.assert_array_equal(got.to_ndarray(), want.astype(got.to_ndarray().dtype))


def test_pieces_written_by_h5py_join_along_axis_0(tmp_path):
    full = np.arange(7 * 3 * 2, dtype=np.int64).reshape(7, 3, 2)
    pieces = [full[:3], full[3:3], full[3:]]
    paths = []
    for i, piece in enumerate(pieces):
        p = str(tmp_path / f"piece{i}.h5")
        with h5py.File(p, "w") as h:
            h.create_dataset("m", data=piece)
        paths.append(p)
    got = ak.read_hdf(paths, datasets="m")["m"]
    assert got.shape == full.shape
    np.testing.assert_array_equal(got.to_ndarray(), np.concatenate(pieces, axis=0))


def test_pieces_that_do_not_join_are_a_format_error(tmp_path):
    pieces = [np.zeros((2, 3)), np.zeros((2, 4))]
    with pytest.raises(ValueError):
        np.concatenate(pieces, axis=0)
    paths = []
    for i, piece in enumerate(pieces):
        p = str(tmp_path / f"bad{i}.h5")
        with h5py.File(p, "w") as h:
            h.create_dataset("m", data=piece)
        paths.append(p)
    with pytest.raises(HDF5FormatError, match="axis 0"):
        ak.read_hdf(paths, datasets="m")["m"]
