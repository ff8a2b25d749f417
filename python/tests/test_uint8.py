"""uint8 arrays (one byte per element) against NumPy 2: creation, conversions to and from every
dtype (out-of-range values wrap, as ``astype``), arithmetic that wraps modulo 256, promotion
with the other dtypes and with Python scalars (NEP 50: a Python int stays weak, one out of
range raises OverflowError), reductions and scans, indexing and assignment, sorting, set
operations, GroupBy, and files."""

import atoll as ak
import numpy as np
import pytest
from conftest import assert_same

N = 1000
_rng = np.random.default_rng(8)
X = _rng.integers(0, 256, N, dtype=np.uint8)
Y = _rng.integers(0, 256, N, dtype=np.uint8)
Y[::17] = 0  # divisions by zero
SHIFT = (_rng.integers(0, 12, N)).astype(np.uint8)  # shifts past the width too
COND = _rng.random(N) < 0.5
I64 = _rng.integers(-(2**40), 2**40, N)
U64 = _rng.integers(0, 2**63, N, dtype=np.uint64) * np.uint64(2)
F64 = _rng.normal(0, 300, N)


def u8(x=X):
    return ak.array(x)


# ----- creation ---------------------------------------------------------------------------


def test_creation_from_numpy_and_lists():
    a = u8()
    assert a.dtype == np.uint8 and a.dtype.name == "uint8" and a.dtype == ak.uint8
    assert a.itemsize == 1 and a.nbytes == N
    assert_same(a, X)
    assert_same(ak.array([0, 1, 255], dtype=ak.uint8), np.array([0, 1, 255], dtype=np.uint8))
    assert_same(ak.array([0, 1, 255], dtype="uint8"), np.array([0, 1, 255], dtype=np.uint8))
    assert_same(ak.array(X.astype(np.int64), dtype=ak.uint8), X)
    # Wider unsigned NumPy arrays stay uint64, as before.
    assert ak.array(np.arange(3, dtype=np.uint16)).dtype == np.uint64
    with pytest.raises(OverflowError):
        ak.array([256], dtype=ak.uint8)
    with pytest.raises(OverflowError):
        ak.array([-1], dtype=ak.uint8)


def test_zeros_ones_full_arange():
    assert_same(ak.zeros(7, dtype=ak.uint8), np.zeros(7, dtype=np.uint8))
    assert_same(ak.ones(7, dtype=ak.uint8), np.ones(7, dtype=np.uint8))
    assert_same(ak.full(7, 200, dtype=ak.uint8), np.full(7, 200, dtype=np.uint8))
    assert_same(ak.full(7, np.uint8(9)), np.full(7, np.uint8(9)))  # the scalar's dtype
    assert_same(ak.zeros_like(u8()), np.zeros_like(X))
    assert_same(ak.arange(256, dtype=ak.uint8), np.arange(256, dtype=np.uint8))
    assert_same(ak.arange(10, 250, 7, dtype=ak.uint8), np.arange(10, 250, 7, dtype=np.uint8))
    assert_same(ak.arange(0, 0, dtype=ak.uint8), np.arange(0, 0, dtype=np.uint8))
    with pytest.raises(OverflowError):
        ak.full(3, 256, dtype=ak.uint8)
    with pytest.raises(OverflowError):
        ak.full(3, -1, dtype=ak.uint8)


def test_randint():
    r = ak.randint(0, 256, 5000, dtype=ak.uint8, seed=3)
    assert r.dtype == np.uint8
    v = r.to_ndarray()
    assert v.min() >= 0 and v.max() <= 255 and len(np.unique(v)) > 200
    assert_same(ak.randint(0, 256, 5000, dtype=ak.uint8, seed=3), v)  # reproducible
    r = ak.randint(10, 20, 100, dtype=ak.uint8, seed=4).to_ndarray()
    assert r.min() >= 10 and r.max() < 20
    with pytest.raises(ValueError):
        ak.randint(0, 257, 10, dtype=ak.uint8)
    with pytest.raises(ValueError):
        ak.randint(-1, 10, 10, dtype=ak.uint8)


# ----- conversions ------------------------------------------------------------------------


@pytest.mark.parametrize("to", [np.int64, np.uint64, np.float64, np.bool_, np.uint8])
def test_astype_from_uint8(to):
    assert_same(u8().astype(to), X.astype(to))
    assert_same(ak.cast(u8(), to), X.astype(to))


@pytest.mark.parametrize(
    "src",
    [
        np.array([0, 1, 255, 256, 300, -1, -256, -300, 2**40 + 7, -(2**62)], dtype=np.int64),
        np.array([0, 255, 256, 2**64 - 1, 2**63 + 3], dtype=np.uint64),
        np.array([0.0, 1.5, 254.9, 255.0, 255.5, -1.0, -2.7, 256.0, 300.0, 1000.25, -1000.75]),
        np.array([True, False, True]),
    ],
)
def test_astype_to_uint8_wraps(src):
    with np.errstate(all="ignore"):
        want = src.astype(np.uint8)
    assert_same(ak.array(src).astype(ak.uint8), want)
    assert_same(ak.cast(ak.array(src), ak.uint8), want)


def test_strings():
    s = ak.cast(u8(), ak.str_)
    assert s.to_list() == [str(v) for v in X.tolist()]
    back = ak.cast(s, ak.uint8)
    assert_same(back, X)
    assert_same(ak.array(["7", "255", "0"], dtype=ak.uint8), np.array([7, 255, 0], dtype=np.uint8))
    assert u8().astype(str).to_list() == [str(v) for v in X.tolist()]


def test_bigint():
    b = ak.cast(u8(), ak.bigint)
    assert b.dtype == ak.bigint and b.tolist() == X.tolist()
    big = ak.array([2**70 + 300, 5, 2**64 - 1], dtype=ak.bigint)
    assert_same(big.astype(ak.uint8), np.array([(2**70 + 300) % 256, 5, 255], dtype=np.uint8))


def test_to_ndarray_and_repr():
    a = ak.array(np.array([1, 2, 250], dtype=np.uint8))
    nd = a.to_ndarray()
    assert nd.dtype == np.uint8
    np.testing.assert_array_equal(nd, [1, 2, 250])
    # NumPy's formatting of the values, as for the other integer dtypes.
    assert repr(a) == "array([  1   2 250])" == repr(ak.array([1, 2, 250]))
    assert str(a) == "[  1   2 250]"
    assert a.tolist() == [1, 2, 250]
    assert type(a[0]) is np.uint8 and a[2] == 250
    assert np.asarray(a).dtype == np.uint8


# ----- arithmetic -------------------------------------------------------------------------

OPS = ["+", "-", "*", "//", "%", "**", "&", "|", "^", "<<", ">>", "/", "<", "<=", ">", ">=", "==", "!="]


def _np_op(a, b, op):
    with np.errstate(all="ignore"):
        return eval(f"a {op} b")  # noqa: S307 (a fixed list of operators)


@pytest.mark.parametrize("op", OPS)
def test_uint8_with_uint8_wraps(op):
    b = SHIFT if op in ("<<", ">>") else Y
    want = _np_op(X, b, op)
    got = _np_op(u8(), ak.array(b), op)
    assert_same(got, want, exact=op != "/")


@pytest.mark.parametrize("op", OPS)
@pytest.mark.parametrize("s", [0, 1, 3, 7, 200, 255])
def test_uint8_with_python_int_stays_uint8(op, s):
    if op in ("<<", ">>") and s > 9:
        s = 9
    for left in (True, False):
        want = _np_op(X, s, op) if left else _np_op(s, X, op)
        got = _np_op(u8(), s, op) if left else _np_op(s, u8(), op)
        assert_same(got, want, exact=op != "/")


@pytest.mark.parametrize("s", [256, 300, -1, 2**70])
def test_out_of_range_python_int_raises(s):
    for op in ("+", "-", "*", "//", "&"):
        with pytest.raises(OverflowError):
            _np_op(X, s, op)  # NumPy 2's rule, which we follow
        with pytest.raises(OverflowError):
            _np_op(u8(), s, op)


@pytest.mark.parametrize("s", [256, 1000, -1, -(2**70)])
def test_out_of_range_comparisons_by_value(s):
    for op in ("<", "<=", ">", ">=", "==", "!="):
        assert_same(_np_op(u8(), s, op), _np_op(X, s, op))
        assert_same(_np_op(s, u8(), op), _np_op(s, X, op))


@pytest.mark.parametrize(
    "other", [I64, U64, F64, COND, np.int64(5), np.uint64(7), np.float64(2.5), 2.5, True, np.uint8(3)]
)
@pytest.mark.parametrize("op", ["+", "-", "*", "//", "%", "/", "<", "==", "&", "|"])
def test_promotion(other, op):
    is_float = np.result_type(X, other).kind == "f"
    if op in ("&", "|") and is_float:
        return
    if op == "-" and other is True:
        return
    want = _np_op(X, other, op)
    o = ak.array(other) if isinstance(other, np.ndarray) else other
    got = _np_op(u8(), o, op)
    assert_same(got, want, exact=not is_float and op != "/")
    want = _np_op(other, X, op)
    got = _np_op(o, u8(), op)
    assert_same(got, want, exact=not is_float and op != "/")


def test_unary_and_functions():
    a = u8()
    assert_same(-a, -X)
    assert_same(abs(a), abs(X))
    assert_same(~a, ~X)
    assert_same(ak.abs(a), np.abs(X))
    assert_same(ak.sign(a), np.sign(X))
    assert_same(ak.square(a), np.square(X))
    assert_same(ak.isnan(a), np.isnan(X))
    # NumPy's float functions give float16 for uint8; here, as in Arkouda, float64.
    assert_same(ak.sqrt(a), np.sqrt(X.astype(np.float64)), exact=False)
    assert_same(ak.log1p(a), np.log1p(X.astype(np.float64)), exact=False)
    assert_same(ak.exp(a.astype(ak.float64) / 100), np.exp(X / 100), exact=False)


def test_inplace_stays_uint8():
    a = u8()
    a += 200
    want = X + np.uint8(200)
    assert_same(a, want)
    a *= ak.array(Y)
    want = want * Y
    assert_same(a, want)
    a <<= 1
    assert_same(a, want << 1)


# ----- reductions and scans ---------------------------------------------------------------


def test_reductions():
    a = u8()
    for name in ("sum", "prod", "min", "max", "argmin", "argmax", "any", "all"):
        got, want = getattr(ak, name)(a), getattr(np, name)(X)
        assert got == want and type(got) is type(want), (name, got, want, type(got), type(want))
    assert ak.sum(a).dtype == np.uint64
    assert ak.min(a).dtype == np.uint8
    assert a.sum() == X.sum()
    np.testing.assert_allclose(ak.mean(a), np.mean(X), rtol=1e-12)
    np.testing.assert_allclose(ak.var(a), np.var(X), rtol=1e-12)
    np.testing.assert_allclose(ak.std(a, ddof=1), np.std(X, ddof=1), rtol=1e-12)
    assert ak.count_nonzero(ak.array(Y)) == np.count_nonzero(Y)
    assert ak.is_sorted(ak.sort(a)) and not ak.is_sorted(a)
    small = np.array([1, 2, 3, 4, 5], dtype=np.uint8)
    assert ak.prod(ak.array(small)) == np.prod(small) == 120


def test_scans():
    assert_same(ak.cumsum(u8()), np.cumsum(X))
    assert_same(ak.cumprod(ak.array(Y[:20] % 3 + 1)), np.cumprod(Y[:20] % 3 + 1))


def test_where():
    c = ak.array(COND)
    assert_same(ak.where(c, u8(), ak.array(Y)), np.where(COND, X, Y))
    assert_same(ak.where(c, u8(), 5), np.where(COND, X, np.uint8(5)))
    assert_same(ak.where(c, u8(), ak.array(I64)), np.where(COND, X, I64))
    assert_same(ak.where(c, 1.5, u8()), np.where(COND, 1.5, X))


# ----- indexing ---------------------------------------------------------------------------


def test_indexing_and_assignment():
    a, x = u8(), X.copy()
    assert a[5] == x[5] and a[-1] == x[-1]
    assert_same(a[10:500:3], x[10:500:3])
    assert_same(a[::-7], x[::-7])
    assert_same(a[ak.array(COND)], x[COND])
    idx = _rng.integers(0, N, 300)
    assert_same(a[ak.array(idx)], x[idx])
    assert_same(a[ak.array(Y)], x[Y])  # uint8 indices
    a[5] = 200
    x[5] = 200
    a[ak.array(idx)] = 7
    x[idx] = 7
    a[100:200] = ak.array(Y[:100])
    x[100:200] = Y[:100]
    a[ak.array(COND)] = 3
    x[COND] = 3
    a[300:320] = np.uint64(258)  # a NumPy scalar: cast as NumPy casts, wrapping
    x[300:320] = np.uint64(258).astype(np.uint8)
    assert_same(a, x)
    with pytest.raises(OverflowError):
        a[0] = 256
    with pytest.raises(OverflowError):
        a[1:3] = -1


def test_concatenate():
    a, b = u8(), ak.array(Y)
    assert_same(ak.concatenate([a, b]), np.concatenate([X, Y]))
    assert_same(ak.concatenate([a, ak.array(I64)]), np.concatenate([X, I64]))
    assert_same(ak.concatenate([a, ak.array(COND)]), np.concatenate([X, COND]))


# ----- sorting, set operations, GroupBy ---------------------------------------------------


def test_sort_argsort_coargsort():
    a = u8()
    assert_same(ak.sort(a), np.sort(X))
    assert_same(ak.argsort(a), np.argsort(X, kind="stable"))
    assert_same(a.argsort(ascending=False), np.argsort(255 - X, kind="stable"))
    want = np.lexsort([X, Y])
    assert_same(ak.coargsort([ak.array(Y), a]), want)
    assert_same(ak.coargsort([ak.array(Y), ak.array(I64)]), np.lexsort([I64, Y]))


@pytest.fixture(params=[True, False], ids=["dense", "sort"])
def dense(request, monkeypatch):
    """Both paths of unique and GroupBy: the one-pass dense path (byte keys always take it) and
    the sort."""
    from atoll import _keys

    monkeypatch.setattr(_keys, "DENSE", request.param)
    return request.param


def test_unique_in1d_setops(dense):
    a, b = u8(), ak.array(Y[:100])
    assert_same(ak.unique(a), np.unique(X))
    u, c = ak.unique(a, return_counts=True)
    wu, wc = np.unique(X, return_counts=True)
    assert_same(u, wu)
    assert_same(c, wc)
    assert_same(ak.in1d(a, b), np.isin(X, Y[:100]))
    assert_same(ak.in1d(a, ak.array(I64 % 300)), np.isin(X, I64 % 300))
    assert_same(ak.intersect1d(a, b), np.intersect1d(X, Y[:100]))
    assert_same(ak.union1d(a, b), np.union1d(X, Y[:100]))
    assert_same(ak.setdiff1d(a, b), np.setdiff1d(X, Y[:100]))


def test_groupby_uint8_keys_and_values(dense):
    keys = X % 16
    g = ak.GroupBy(ak.array(keys))
    uk, counts = g.size()
    wu, wc = np.unique(keys, return_counts=True)
    assert_same(uk, wu)
    assert_same(counts, wc)
    _, s = g.sum(ak.array(Y))
    assert_same(s, np.array([Y[keys == k].sum() for k in wu], dtype=np.uint64))
    _, m = g.max(ak.array(Y))
    assert_same(m, np.array([Y[keys == k].max() for k in wu], dtype=np.uint8))
    _, m = g.min(ak.array(Y))
    assert_same(m, np.array([Y[keys == k].min() for k in wu], dtype=np.uint8))
    # Two keys of different dtypes.
    g2 = ak.GroupBy([ak.array(keys), ak.array(I64 % 3)])
    (k1, k2), c2 = g2.size()
    pairs = sorted(set(zip(keys.tolist(), (I64 % 3).tolist())))
    assert list(zip(k1.tolist(), k2.tolist())) == pairs
    assert k1.dtype == np.uint8
    assert c2.to_ndarray().sum() == N
    # int64 keys, uint8 values (the dense path).
    g3 = ak.GroupBy(ak.array(I64 % 5))
    _, s3 = g3.sum(ak.array(Y))
    assert_same(s3, np.array([Y[I64 % 5 == k].sum() for k in range(5)], dtype=np.uint64))
    _, m3 = g3.max(ak.array(Y))
    assert_same(m3, np.array([Y[I64 % 5 == k].max() for k in range(5)], dtype=np.uint8))


# ----- files ------------------------------------------------------------------------------


@pytest.mark.parametrize("file_type", ["distribute", "single"])
def test_hdf5_round_trip(tmp_path, file_type):
    h5py = pytest.importorskip("h5py")
    import glob

    prefix = str(tmp_path / "u8")
    ak.to_hdf({"a": u8(), "i": ak.array(I64)}, prefix, file_type=file_type)
    files = sorted(glob.glob(prefix + "*"))
    with h5py.File(files[0], "r") as f:
        assert f["a"].dtype == np.uint8  # one byte per element in the file too
    back = ak.read_hdf(prefix + "*")
    assert_same(back["a"], X)
    assert_same(back["i"], I64)


def test_parquet_write_uint8_reads_widened(tmp_path):
    """Parquet files keep the 8-bit type (pyarrow reads uint8); Atoll's reader widens 8, 16
    and 32-bit integers to 64 bits (Arkouda's reader has no 8-bit integers at all)."""
    pq = pytest.importorskip("pyarrow.parquet")
    import glob

    prefix = str(tmp_path / "u8")
    ak.to_parquet({"a": u8(), "b": ak.array(Y)}, prefix)
    files = sorted(glob.glob(prefix + "_LOCALE*"))
    t = pq.read_table(files[0])
    assert str(t.schema.field("a").type) == "uint8"
    got = np.concatenate([pq.read_table(f).column("a").to_numpy() for f in files])
    assert got.dtype == np.uint8
    np.testing.assert_array_equal(got, X)
    back = ak.read_parquet(prefix + "_LOCALE*")
    assert_same(back["a"], X.astype(np.uint64))
    assert_same(back["b"], Y.astype(np.uint64))


def test_shared_uint8_array_is_attached_zero_copy():
    import gc
    import os

    from atoll import share

    name = f"pyt-u8-{os.getpid()}"
    p = share.make(name, N, ak.uint8)
    assert p.dtype == np.uint8
    p[:] = u8()
    a = share.attach(name)
    assert a.dtype == np.uint8 and a.nblocks == ak.num_locales()
    np.testing.assert_array_equal(a.to_numpy(), X)
    w = share.attach(name, writable=True)
    w.blocks[-1][2][-1] = 77  # another process's write is seen in place
    assert p[N - 1] == 77
    del a, w, p
    gc.collect()
