"""repeat, tile, append, delete, hstack, vstack, squeeze, flip, broadcast_shapes/dims,
shares_memory, map, copy, sparse_sum_help and char.isnumeric, against NumPy (and Python)."""

import atoll as ak
import numpy as np
import pytest
from atoll.numpy import char, manipulation_functions, pdarraymanipulation, util
from hypothesis import given, strategies as st

ints = st.lists(st.integers(-(2**40), 2**40), max_size=30)
dtypes = st.sampled_from([np.int64, np.uint64, np.float64, np.bool_])


def _same(got, want):
    g = got.to_ndarray() if isinstance(got, ak.pdarray) else np.array(got.tolist())
    assert g.dtype == want.dtype or (want.dtype.kind == "U" and g.dtype.kind == "U"), (g.dtype, want.dtype)
    np.testing.assert_array_equal(g, want)


def _arr(values, dt):
    return np.array(values).astype(dt) if values else np.array([], dtype=dt)


def test_module_paths_are_arkoudas():
    assert manipulation_functions.repeat is ak.repeat and manipulation_functions.tile is ak.tile
    for name in ("append", "delete", "hstack", "vstack"):
        assert getattr(pdarraymanipulation, name) is getattr(ak, name)
    assert util.broadcast_shapes is ak.broadcast_shapes and util.broadcast_dims is ak.numpy.broadcast_dims
    assert char.isnumeric is ak.isnumeric and char.int_ is np.int_ and char.character is np.character


@given(ints, st.integers(0, 4), dtypes)
def test_repeat_scalar_count(values, r, dt):
    a = _arr(values, dt)
    _same(ak.repeat(ak.array(a), r), np.repeat(a, r))
    _same(ak.repeat(ak.array(a), r, axis=0), np.repeat(a, r, axis=0))


@given(st.lists(st.tuples(st.integers(-1000, 1000), st.integers(0, 4)), max_size=30))
def test_repeat_counts_per_element(pairs):
    a = np.array([p[0] for p in pairs], dtype=np.int64)
    r = np.array([p[1] for p in pairs], dtype=np.int64)
    _same(ak.repeat(ak.array(a), ak.array(r)), np.repeat(a, r))
    _same(ak.repeat(ak.array(a), r.tolist()), np.repeat(a, r.tolist()))


def test_repeat_scalars_strings_bigint_and_errors():
    _same(ak.repeat(3, 4), np.repeat(3, 4))
    _same(ak.repeat([1, 2], [2, 1]), np.repeat([1, 2], [2, 1]))
    s = ["a", "bb", ""]
    assert ak.repeat(ak.array(s), 2).tolist() == np.repeat(np.array(s), 2).tolist()
    big = [2**200 + i for i in range(3)]
    assert ak.repeat(ak.array(big), 2).tolist() == [v for v in big for _ in range(2)]
    with pytest.raises(ValueError):
        ak.repeat(ak.arange(3), -1)
    with pytest.raises(ValueError):
        ak.repeat(ak.arange(3), [1, 2])
    with pytest.raises(TypeError):
        ak.repeat(ak.arange(3), 1.5)
    with pytest.raises(np.exceptions.AxisError):
        ak.repeat(ak.arange(3), 2, axis=1)


@given(ints, st.integers(0, 4), dtypes)
def test_tile(values, r, dt):
    a = _arr(values, dt)
    _same(ak.tile(ak.array(a), r), np.tile(a, r))
    _same(ak.tile(ak.array(a), (r,)), np.tile(a, (r,)))


def test_tile_errors():
    _same(ak.tile(ak.arange(3), (2, 2)), np.tile(np.arange(3), (2, 2)))
    with pytest.raises(ValueError):
        ak.tile(ak.arange(3), -1)
    big = [2**100, 5]
    assert ak.tile(ak.array(big), 2).tolist() == big * 2


@given(ints, ints, dtypes, dtypes)
def test_append_and_hstack(x, y, dx, dy):
    a, b = _arr(x, dx), _arr(y, dy)
    _same(ak.append(ak.array(a), ak.array(b)), np.append(a, b))
    for axis in (0, -1):
        _same(ak.append(ak.array(a), ak.array(b), axis=axis), np.append(a, b, axis=axis))
    _same(ak.hstack([ak.array(a), ak.array(b), ak.array(a)]), np.hstack([a, b, a]))


def test_hstack_dtype_and_casting():
    a, b = np.array([1, 2]), np.array([3.5])
    _same(ak.hstack([ak.array(a), ak.array(b)], dtype=np.float64), np.hstack([a, b], dtype=np.float64))
    _same(
        ak.hstack([ak.array(a), ak.array(b)], dtype=np.int64, casting="unsafe"),
        np.hstack([a, b], dtype=np.int64, casting="unsafe"),
    )
    with pytest.raises(TypeError):
        np.hstack([a, b], dtype=np.int64)
    with pytest.raises(TypeError):
        ak.hstack([ak.array(a), ak.array(b)], dtype=np.int64)
    strs = [ak.array(["a", "b"]), ak.array(["c"])]
    assert ak.hstack(strs).tolist() == ["a", "b", "c"]
    big = [ak.array([2**70]), ak.array([1])]
    assert ak.hstack(big).tolist() == [2**70, 1]


def test_vstack_of_1d_arrays_is_2d():
    got = ak.vstack([ak.arange(3), ak.arange(3) * 2])
    assert got.shape == (2, 3)
    assert np.array_equal(got.to_ndarray(), np.vstack([np.arange(3), np.arange(3) * 2]))


def test_append_axis_errors_like_numpy():
    with pytest.raises(np.exceptions.AxisError):
        np.append(np.arange(3), np.arange(2), axis=1)
    with pytest.raises(np.exceptions.AxisError):
        ak.append(ak.arange(3), ak.arange(2), axis=1)


index_lists = st.lists(st.integers(-12, 11), max_size=8)


@given(st.lists(st.integers(-100, 100), min_size=0, max_size=12), index_lists, st.integers(-12, 11))
def test_delete_like_numpy(values, idx, one):
    a = np.array(values, dtype=np.int64)
    n = a.size
    A = ak.array(a)
    inside = [i for i in idx if -n <= i < n]
    _same(ak.delete(A, inside), np.delete(a, np.array(inside, dtype=np.int64)))
    _same(ak.delete(A, ak.array(np.array(inside, dtype=np.int64))), np.delete(a, np.array(inside, dtype=np.int64)))
    if -n <= one < n:
        _same(ak.delete(A, one), np.delete(a, one))
    else:
        with pytest.raises(IndexError):
            np.delete(a, one)
        with pytest.raises(IndexError):
            ak.delete(A, one)
    for sl in (slice(1, None, 2), slice(None, None, -3), slice(2, 5)):
        _same(ak.delete(A, sl), np.delete(a, sl))
    mask = (a % 3) == 0
    _same(ak.delete(A, ak.array(mask)), np.delete(a, mask))


def test_delete_errors_strings_bigint():
    a = ak.arange(5)
    with pytest.raises(IndexError):
        ak.delete(a, [0, 7])
    with pytest.raises(IndexError):
        ak.delete(a, [1.0])
    with pytest.raises(ValueError):
        ak.delete(a, ak.array([True, False]))
    with pytest.raises(np.exceptions.AxisError):
        ak.delete(a, 0, axis=1)
    s = np.array(["x", "yy", "z", ""])
    assert ak.delete(ak.array(s), [0, 2]).tolist() == np.delete(s, [0, 2]).tolist()
    big = [2**90 + i for i in range(4)]
    assert ak.delete(ak.array(big), -1).tolist() == big[:-1]


def test_squeeze_and_flip():
    _same(ak.squeeze(ak.array([1, 2, 3])), np.squeeze(np.array([1, 2, 3])))
    assert ak.squeeze(5).tolist() == [5]
    _same(ak.squeeze(ak.array([7]), axis=0), np.array([7]))
    with pytest.raises(ValueError):
        np.squeeze(np.arange(3), axis=0)
    with pytest.raises(ValueError):
        ak.squeeze(ak.arange(3), axis=0)
    with pytest.raises(np.exceptions.AxisError):
        ak.squeeze(ak.arange(1), axis=1)
    c = ak.Categorical(ak.array(["b", "a", "c", "a"]))
    assert ak.flip(c).to_list() == ["a", "c", "a", "b"]
    with pytest.raises(np.exceptions.AxisError):
        ak.flip(ak.arange(3), axis=2)


shapes = st.lists(st.integers(1, 4), min_size=0, max_size=4).map(tuple)


@given(shapes, shapes)
def test_broadcast_shapes_and_dims(sa, sb):
    # Stretch some lengths to 1 so that both outcomes (broadcast or not) come up.
    try:
        want = np.broadcast_shapes(sa, sb)
    except ValueError:
        with pytest.raises(ValueError):
            ak.broadcast_shapes(sa, sb)
        with pytest.raises(ValueError):
            util.broadcast_dims(sa, sb)
        return
    assert ak.broadcast_shapes(sa, sb) == want
    assert util.broadcast_dims(sa, sb) == want
    assert ak.broadcast_shapes(sa, sb, (1,) * len(sa)) == np.broadcast_shapes(sa, sb, (1,) * len(sa))


def test_shares_memory_like_numpy():
    n = 20
    A, N = ak.arange(n), np.arange(n)
    slices = [slice(None), slice(None, None, 2), slice(1, None, 2), slice(3, 17, 3), slice(None, None, -1), slice(4, 4)]
    slices += [slice(10, 2, -4), slice(2, 19, 5), slice(0, 1)]
    for s1 in slices:
        for s2 in slices:
            assert ak.shares_memory(A[s1], A[s2]) == np.shares_memory(N[s1], N[s2]), (s1, s2)
            assert ak.may_share_memory(A[s1], A[s2]) == np.may_share_memory(N[s1], N[s2]), (s1, s2)
    assert not ak.shares_memory(A, A + 0)
    assert not ak.shares_memory(A, ak.arange(n))
    b = A
    assert ak.shares_memory(A, b) and ak.shares_memory((A, {"k": 1}), {"x": b})
    s = ak.array(["a", "bb"])
    assert ak.shares_memory(s, s) and not ak.shares_memory(s, ak.array(["a", "bb"]))
    assert not ak.shares_memory(A, 3) and not ak.shares_memory(None, None)


def test_copy_shares_nothing():
    for a in (ak.arange(5), ak.array([True, False]), ak.array([1.5, 2.5]), ak.array(["p", "q"]), ak.array([2**80])):
        c = ak.copy(a)
        assert c is not a and c.tolist() == a.tolist() and c.dtype == a.dtype
        assert not ak.shares_memory(a, c)
    with pytest.raises(TypeError):
        ak.copy([1, 2])


@given(st.lists(st.integers(0, 6), max_size=25), st.dictionaries(st.integers(0, 8), st.floats(-5, 5), max_size=6))
def test_map_against_python(values, mapping):
    got = util.map(ak.array(np.array(values, dtype=np.int64)), mapping) if values else None
    if got is None:
        return
    want = [mapping.get(v, np.nan) for v in values]
    if mapping:
        np.testing.assert_array_equal(got.to_ndarray(), np.array(want, dtype=np.float64))


def test_map_strings_categorical_series():
    a = ak.array(["1", "1", "4", "4", "4"])
    assert util.map(a, {"4": 25, "5": 30, "1": 7}).tolist() == [7, 7, 25, 25, 25]
    assert util.map(ak.Categorical(a), {"1": "x", "4": "y"}).tolist() == ["x", "x", "y", "y", "y"]
    c = ak.array([1.0, 1.0, 2.2, 4.4])
    assert util.map(c, {1.0: "a"}).tolist() == ["a", "a", "null", "null"]
    s = ak.Series(ak.array(["a", "b", "c", "d"]), index=ak.array([4, 2, 1, 3]))
    assert util.map(ak.array([2, 3, 2, 3, 4]), s).tolist() == ["b", "d", "b", "d", "a"]
    with pytest.raises(TypeError):
        util.map(a, [1, 2])


@given(
    st.lists(st.integers(0, 30), unique=True, max_size=15),
    st.lists(st.integers(0, 30), unique=True, max_size=15),
)
def test_sparse_sum_help_against_python(i1, i2):
    v1 = [3 * i + 1 for i in i1]
    v2 = [5 * i - 2 for i in i2]
    want = {}
    for i, v in list(zip(i1, v1)) + list(zip(i2, v2)):
        want[i] = want.get(i, 0) + v
    if not want:
        return
    idx, vals = util.sparse_sum_help(
        ak.array(np.array(i1, dtype=np.int64)),
        ak.array(np.array(i2, dtype=np.int64)),
        ak.array(np.array(v1, dtype=np.int64)),
        ak.array(np.array(v2, dtype=np.int64)),
    )
    assert idx.tolist() == sorted(want) and vals.tolist() == [want[k] for k in sorted(want)]


def test_isnumeric_like_numpy():
    s = np.array(["123", "1.5", "\u00b2", "2\u00b3\u2087", "x1", "", "\u2155", " 1", "\u0660\u0661"])
    np.testing.assert_array_equal(char.isnumeric(ak.array(s)).to_ndarray(), np.char.isnumeric(s))
    np.testing.assert_array_equal(ak.isnumeric(ak.array(s)).to_ndarray(), np.char.isnumeric(s))
    with pytest.raises(TypeError):
        char.isnumeric(ak.arange(3))


@given(st.integers(0, 12).flatmap(lambda n: st.permutations(list(range(n)))))
def test_invert_permutation_like_numpy(perm):
    p = np.array(perm, dtype=np.int64)
    inv = np.empty_like(p)
    inv[p] = np.arange(p.size)
    _same(ak.invert_permutation(ak.array(p)), inv)
    if p.size:
        _same(ak.invert_permutation(ak.array(p.astype(np.uint64))), inv.astype(np.uint64))


@pytest.mark.parametrize("bad", [[0, 0], [1, 2], [-1, 0], [0, 2, 2]])
def test_invert_permutation_rejects(bad):
    with pytest.raises(ValueError):
        ak.invert_permutation(ak.array(bad))


@pytest.mark.parametrize("x,shape", [(7, 3), (2.5, (4,)), (np.array([4]), 3), (np.arange(3), (3,)), (True, 0)])
def test_broadcast_to_like_numpy(x, shape):
    got = ak.broadcast_to(ak.array(x) if isinstance(x, np.ndarray) else x, shape)
    np.testing.assert_array_equal(got.to_ndarray(), np.broadcast_to(x, shape))
    a, b = ak.broadcast_arrays(ak.array([1]), ak.arange(3))
    assert a.tolist() == [1, 1, 1] and b.tolist() == [0, 1, 2]


def test_broadcast_to_errors():
    with pytest.raises(ValueError):
        np.broadcast_to(np.arange(3), 4)
    with pytest.raises(ValueError):
        ak.broadcast_to(ak.arange(3), 4)
    got = ak.broadcast_to(ak.arange(3), (2, 3))
    assert np.array_equal(got.to_ndarray(), np.broadcast_to(np.arange(3), (2, 3)))


def test_operators_broadcast_a_length_one_array_as_numpy():
    a, b = np.array([5]), np.arange(4)
    assert np.array_equal((ak.array(a) + ak.array(b)).to_ndarray(), a + b)
    assert np.array_equal((ak.array(b) * ak.array(a)).to_ndarray(), b * a)
    with pytest.raises(ValueError, match="broadcast"):
        ak.arange(3) + ak.arange(4)
