"""``read_parquet``'s nulls: float nulls read as NaN, string nulls as "", and integer or
boolean columns with nulls are named in the error, or with ``null_handling='all'`` read as
pandas reads them (float64 with NaN). Checked against pandas' and pyarrow's readers."""

import warnings

import atoll as ak
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, strategies as st

pa = pytest.importorskip("pyarrow")
pq = pytest.importorskip("pyarrow.parquet")


def _write(path, n, mask, seed):
    rng = np.random.default_rng(seed)
    t = pa.table(
        {
            "i": pa.array(rng.integers(-(2**40), 2**40, n), pa.int64(), mask=mask),
            "u": pa.array(rng.integers(0, 2**31, n).astype(np.uint32), pa.uint32(), mask=mask),
            "i8": pa.array(rng.integers(-100, 100, n).astype(np.int8), pa.int8()),
            "f": pa.array(rng.random(n), pa.float64(), mask=mask),
            "s": pa.array([f"v{k}é" for k in range(n)], pa.string(), mask=mask),
            "b": pa.array(rng.random(n) < 0.5, pa.bool_(), mask=mask),
        }
    )
    pq.write_table(t, path, row_group_size=7)


@given(
    sizes=st.lists(st.integers(0, 25), min_size=1, max_size=3),
    seed=st.integers(0, 1000),
    density=st.sampled_from([0.0, 0.3, 1.0]),
)
def test_null_handling_all_reads_as_pandas(tmp_path_factory, sizes, seed, density):
    d = tmp_path_factory.mktemp("nulls")
    rng = np.random.default_rng(seed)
    paths = []
    for k, n in enumerate(sizes):
        p = str(d / f"part{k}.parquet")
        _write(p, n, rng.random(n) < density, seed + k)
        paths.append(p)
    want = pd.concat([pd.read_parquet(p) for p in paths], ignore_index=True)
    has_nulls = bool(want["i"].isna().any())
    got = ak.read_parquet(paths, ["i", "u", "i8", "f", "s"], null_handling="all")
    for c in ["i", "u", "i8", "f"]:
        w = want[c].to_numpy()
        # Atoll's dtypes: pandas' (float64 with NaN where there are nulls), widened.
        w = w.astype({"i": np.int64, "u": np.uint64, "f": np.float64}[w.dtype.kind])
        g = got[c].to_ndarray()
        assert g.dtype == w.dtype, (c, g.dtype, w.dtype)
        np.testing.assert_array_equal(g, w)
    assert got["s"].to_list() == ["" if v is None or v != v else v for v in want["s"].tolist()]
    if has_nulls:
        with pytest.raises(ak.ParquetTypeError, match=r"'i' \(int64\).*null_handling='all'") as e:
            ak.read_parquet(paths, ["f", "i", "u"])
        assert "'u'" in str(e.value) and "'f'" not in str(e.value)
        with pytest.raises(ak.ParquetTypeError, match="column 'b' is boolean"):
            ak.read_parquet(paths, ["b"], null_handling="all")
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", DeprecationWarning)
            old = ak.read_parquet(paths, ["i"], has_non_float_nulls=True)["i"]
        np.testing.assert_array_equal(old.to_ndarray(), got["i"].to_ndarray())
    else:
        # Without nulls the integer columns stay integers whatever null_handling says.
        plain = ak.read_parquet(paths, ["i", "b"])
        assert plain["i"].dtype == np.int64
        np.testing.assert_array_equal(plain["b"].to_ndarray(), want["b"].to_numpy(dtype=bool))


def test_null_string_is_the_empty_string_everywhere(tmp_path):
    values = ["x", None, "日本", None, ""]
    p = str(tmp_path / "s.parquet")
    pq.write_table(pa.table({"s": pa.array(values)}), p)
    want = ["" if v is None else v for v in pq.read_table(p).column("s").to_pylist()]
    assert ak.read_parquet(p, "s")["s"].to_list() == want
    assert ak.DataFrame(pd.read_parquet(p))["s"].to_list() == want
    assert ak.DataFrame(pq.read_table(p))["s"].to_list() == want


def test_tagged_reads_name_and_read_the_null_columns(tmp_path):
    paths = []
    for k, vals in enumerate([[1, None], [None, 4, 5]]):
        p = str(tmp_path / f"t{k}.parquet")
        pq.write_table(pa.table({"i": pa.array(vals, pa.int64())}), p)
        paths.append(p)
    with pytest.raises(ak.ParquetTypeError, match=r"'i' \(int64\)"):
        ak.read_parquet(paths, "i", tag_data=True)
    got = ak.read_parquet(paths, "i", tag_data=True, null_handling="all")
    want = pd.concat([pd.read_parquet(p)["i"] for p in paths], ignore_index=True).to_numpy()
    np.testing.assert_array_equal(got["i"].to_ndarray(), want)
    assert got["Filename_Codes"].tolist() == [0, 0, 1, 1, 1]
