"""Arkouda's ``arkouda.numpy.util`` helpers that scripts and tests use."""

from __future__ import annotations

import builtins
import math
from collections.abc import Callable
from typing import Any

import numpy as np

from ..pandas._concat import generic_concat
from ..pandas.groupbyclass import GroupBy
from . import _nd
from .numeric import cast as _cast, where as _where
from .pdarrayclass import pdarray
from .pdarraycreation import arange as _arange, array as _array, full as _full
from .strings import Strings

concatenate = generic_concat


def _infer_shape_from_size(size: Any) -> tuple[Any, int, int]:  # noqa: ANN401 (an int or a tuple)
    """``(shape, ndim, full_size)`` of an int or a tuple ``size``."""
    if isinstance(size, (builtins.int,)) or hasattr(size, "__index__"):
        return builtins.int(size), 1, builtins.int(size)
    shape = tuple(builtins.int(s) for s in size)
    return shape, len(shape), math.prod(shape)


def _generate_test_shape(rank: int, size: int) -> tuple[tuple[int, ...], int]:
    """A shape of ``rank`` dimensions whose product is close to ``size``, and that product.

    The first ``rank - 1`` lengths are 2.
    """
    if rank == 1:
        return (size,), size
    last = builtins.max(2, size // 2 ** (rank - 1))
    shape = (2,) * (rank - 1) + (last,)
    return shape, math.prod(shape)


def _values_dtype(arry: object) -> np.dtype[Any] | None:
    """The dtype of a pdarray, or of the values of a Series or an Index.

    None for Strings, Categoricals and anything else.
    """
    if type(arry).__name__ in ("Series", "Index"):
        arry = getattr(arry, "values", None)
    if isinstance(arry, pdarray) and not hasattr(arry, "_limbs"):
        d: np.dtype[Any] = arry.dtype
        return d
    return None


def is_numeric(arry: object) -> bool:
    """Whether ``arry`` is a pdarray (or a Series or Index of one) of integers or floats.

    Parameters
    ----------
    arry : object
        A pdarray, Series, Index or anything else.

    Returns
    -------
    bool
        True for integer or float values.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy.util import is_numeric
    >>> is_numeric(ak.arange(3)), is_numeric(ak.array([True])), is_numeric(ak.array(["a"]))
    (True, False, False)
    """
    d = _values_dtype(arry)
    return d is not None and d.kind in "iuf"


def is_float(arry: object) -> bool:
    """Whether ``arry`` is a pdarray (or a Series or Index of one) of floats.

    Parameters
    ----------
    arry : object
        A pdarray, Series, Index or anything else.

    Returns
    -------
    bool
        True for float values.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy.util import is_float
    >>> is_float(ak.array([1.5])), is_float(ak.arange(2))
    (True, False)
    """
    d = _values_dtype(arry)
    return d is not None and d.kind == "f"


def is_int(arry: object) -> bool:
    """Whether ``arry`` is a pdarray (or a Series or Index of one) of integers.

    Parameters
    ----------
    arry : object
        A pdarray, Series, Index or anything else.

    Returns
    -------
    bool
        True for signed or unsigned integer values.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy.util import is_int
    >>> is_int(ak.arange(2)), is_int(ak.array([1.5]))
    (True, False)
    """
    d = _values_dtype(arry)
    return d is not None and d.kind in "iu"


# ----- broadcasting of shapes, map, copy, memory sharing -------------------------------------


def shape(a: object) -> tuple[int, ...]:
    """The shape of ``a``, as ``numpy.shape``.

    Parameters
    ----------
    a : object
        A pdarray, a Strings, or any other array or nested sequence, read as NumPy reads it.

    Returns
    -------
    tuple of int
        The shape (``()`` for a scalar).

    Examples
    --------
    >>> import atoll as ak
    >>> ak.shape(ak.arange(6).reshape(2, 3))
    (2, 3)
    >>> ak.shape([[1, 2, 3]])
    (1, 3)
    >>> ak.shape(0)
    ()
    """
    if isinstance(a, (pdarray, Strings)):
        return tuple(a.shape)
    sh = getattr(a, "shape", None)
    if isinstance(sh, tuple):
        return sh
    return tuple(np.shape(a))  # type: ignore[call-overload]  # NumPy reads any object


def broadcast_shapes(*shapes: tuple[int, ...] | int) -> tuple[int, ...]:
    """The shape that arrays of ``shapes`` broadcast to, as ``numpy.broadcast_shapes``.

    Parameters
    ----------
    *shapes : tuple of int or int
        The shapes.

    Returns
    -------
    tuple of int
        The common shape.

    Raises
    ------
    ValueError
        The shapes have no common shape (the message names them).

    Examples
    --------
    >>> import atoll as ak
    >>> ak.broadcast_shapes((1, 2, 3), (4, 1, 3), (4, 2, 1))
    (4, 2, 3)
    """
    try:
        return np.broadcast_shapes(*shapes)
    except ValueError:
        raise ValueError(f"Found no common broadcast shape for: {shapes}") from None


def broadcast_dims(sa: tuple[int, ...], sb: tuple[int, ...]) -> tuple[int, ...]:
    """The shape that arrays of shapes ``sa`` and ``sb`` broadcast to, by the Array API's rule.

    Aligned from the last axis, a length of one stretches.

    Parameters
    ----------
    sa, sb : tuple of int
        The two shapes.

    Returns
    -------
    tuple of int
        The common shape.

    Raises
    ------
    ValueError
        Two lengths differ and neither is one.

    Examples
    --------
    >>> from atoll.numpy.util import broadcast_dims
    >>> broadcast_dims((5, 1), (1, 3))
    (5, 3)
    >>> broadcast_dims((4,), (3, 1))
    (3, 4)
    """
    a, b = tuple(builtins.int(x) for x in sa), tuple(builtins.int(x) for x in sb)
    n = builtins.max(len(a), len(b))
    a = (1,) * (n - len(a)) + a
    b = (1,) * (n - len(b)) + b
    out: list[int] = []
    for x, y in zip(a, b):
        if x != y and x != 1 and y != 1:
            raise ValueError("Incompatible dimensions for broadcasting")
        out.append(y if x == 1 else x)
    return tuple(out)


def _is_categorical(x: object) -> bool:
    return type(x).__name__ == "Categorical" and hasattr(x, "codes") and hasattr(x, "categories")


def map(values: Any, mapping: Any) -> Any:  # noqa: A001, ANN401  (Arkouda's name; arrays of several kinds)
    """``values`` mapped through ``mapping``, as Arkouda's ``util.map``.

    Parameters
    ----------
    values : pdarray, Strings or Categorical
        The values.
    mapping : dict or Series
        From keys to values.

    Returns
    -------
    pdarray or Strings
        Each value's mapped value; where a value has no key, NaN (cast to the mapped dtype when
        it is an integer dtype, as Arkouda does) or ``"null"`` for string values.

    Raises
    ------
    TypeError
        ``values`` or ``mapping`` is of another type.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy.util import map
    >>> map(ak.array([2, 3, 2, 4]), {4: 25.0, 2: 30.0, 3: 5.0}).tolist()
    [30.0, 5.0, 30.0, 25.0]
    >>> map(ak.array(["a", "b"]), {"a": "x"}).tolist()
    ['x', 'null']
    """
    if not isinstance(values, (pdarray, Strings)) and not _is_categorical(values):
        raise TypeError(f"values: expected a pdarray, Strings or Categorical, got {type(values).__name__}")
    args = values.to_strings() if _is_categorical(values) else values
    if isinstance(mapping, dict):
        if not mapping:
            if isinstance(args, Strings):
                return _full(args.size, "null")
            return _full(args.size, _nan_as(args.dtype), args.dtype)
        keys = _array(list(mapping.keys()))
        vals = _array(list(mapping.values()))
    elif hasattr(mapping, "index") and hasattr(mapping, "values") and type(mapping).__name__ == "Series":
        keys = mapping.index.values
        vals = mapping.values
        if _is_categorical(vals):
            vals = vals.to_strings()
    else:
        raise TypeError("Map must be dict or arkouda.Series.")
    if _is_categorical(keys):
        keys = keys.to_strings()
    # Each argument's key position: the first position of its group among keys + arguments
    # (the keys come first, and are unique).
    nk = keys.size
    combined = generic_concat([keys, args])
    g = GroupBy(combined, dropna=False)
    _, first = g.min(_arange(combined.size))
    idx = g.broadcast(first)[nk:]
    found = idx < nk
    got = vals[_where(found, idx, 0)]
    if isinstance(vals, Strings):
        return _where(found, got, "null")
    return _where(found, got, _nan_as(vals.dtype))


def _nan_as(dt: np.dtype[Any]) -> Any:  # noqa: ANN401 (a scalar of dtype dt)
    """NaN in dtype ``dt``: NaN for floats, else NaN cast to ``dt`` (what Arkouda fills)."""
    return np.nan if dt.kind == "f" else _cast(_array([np.nan]), dt)[0]


def copy(a: Any) -> Any:  # noqa: ANN401 (a pdarray or Strings, and its copy)
    """A copy of ``a`` that shares no memory with it.

    Parameters
    ----------
    a : pdarray or Strings
        The array.

    Returns
    -------
    pdarray or Strings
        The copy.

    Raises
    ------
    TypeError
        ``a`` is neither a pdarray nor a Strings.

    Examples
    --------
    >>> import atoll as ak
    >>> a = ak.arange(3)
    >>> b = ak.copy(a)
    >>> b.tolist(), ak.shares_memory(a, b)
    ([0, 1, 2], False)
    """
    if isinstance(a, pdarray):
        return a + 0 if a.dtype != bool else a | False
    if isinstance(a, Strings):
        s: Any = a  # Strings' indexing is attached (atoll.numpy._strings_methods)
        return s[:]
    raise TypeError(f"Unsupported type for copy: {type(a)}")


def _parts(x: object) -> list[tuple[tuple[str, int], range | None]]:
    """The memory behind ``x``, as ``(token, positions)`` pairs.

    A materialized pdarray's native array and the ``range`` of its positions there (a slice is
    a view: a window of its base), a Strings' native handle (``None``: all of it), the
    components of a Categorical or SegArray, and recursively the items of lists, tuples, sets
    and dicts. A pdarray whose value is not computed yet holds no memory of its own: its token
    is the object itself.
    """
    out: list[tuple[tuple[str, int], range | None]] = []
    if isinstance(x, pdarray):
        limbs = getattr(x, "_limbs", None)
        if limbs is not None:
            for limb in limbs:
                out += _parts(limb)
        elif x._arr is not None and x._expr is None:
            window = range(x._start, x._start + x._step * x._size, x._step)
            out.append((("buffer", id(x._arr)), window))
        else:
            out.append((("object", id(x)), None))
    elif isinstance(x, Strings):
        out.append((("strings", id(x._s)), None))
    elif _is_categorical(x) or type(x).__name__ == "SegArray":
        for name in ("codes", "categories", "permutation", "segments", "values"):
            part = getattr(x, name, None)
            if isinstance(part, (pdarray, Strings)):
                out += _parts(part)
    elif isinstance(x, (list, tuple, set, frozenset)):
        for item in x:
            out += _parts(item)
    elif isinstance(x, dict):
        for item in x.values():
            out += _parts(item)
    return out


def _ascending(r: range) -> range:
    return r if r.step > 0 else r[::-1]


def _ranges_meet(r1: range, r2: range) -> bool:
    """True when the ranges ``r1`` and ``r2`` share a position.

    Solved exactly, by the Chinese remainder theorem on their starts and steps.
    """
    if not r1 or not r2:
        return False
    a, b = _ascending(r1), _ascending(r2)
    lo, hi = builtins.max(a[0], b[0]), builtins.min(a[-1], b[-1])
    if lo > hi:
        return False
    g = math.gcd(a.step, b.step)
    if (b[0] - a[0]) % g:
        return False
    # x = a[0] + a.step * k with a.step * k = b[0] - a[0] (mod b.step)
    m = b.step // g
    k = ((b[0] - a[0]) // g * pow(a.step // g, -1, m)) % m if m > 1 else 0
    first = a[0] + a.step * k
    period = a.step * m
    if first < lo:
        first += -(-(lo - first) // period) * period
    return first <= hi


def _bounds_meet(r1: range, r2: range) -> bool:
    if not r1 or not r2:
        return False
    a, b = _ascending(r1), _ascending(r2)
    return builtins.max(a[0], b[0]) <= builtins.min(a[-1], b[-1])


def _share(a: object, b: object, meet: Callable[[range, range], bool]) -> bool:
    pa, pb = _parts(a), _parts(b)
    for ta, ra in pa:
        for tb, rb in pb:
            if ta == tb and (ra is None or rb is None or (ra == rb and len(ra) > 0) or meet(ra, rb)):
                return True
    return False


def shares_memory(a: object, b: object) -> bool:
    """Whether ``a`` and ``b`` hold one same element of a native array (``numpy.shares_memory``).

    A slice is a view of its base, so ``shares_memory(a, a[::2])`` is True and
    ``shares_memory(a[::2], a[1::2])`` False; an array that is its own alias shares with
    itself, even when empty.

    Parameters
    ----------
    a, b : pdarray, Strings, Categorical, SegArray, or a container of them
        The two.

    Returns
    -------
    bool
        True when they share an element.

    Examples
    --------
    >>> import atoll as ak
    >>> a = ak.arange(10)
    >>> ak.shares_memory(a, a[::2]), ak.shares_memory(a[::2], a[1::2]), ak.shares_memory(a, a + 0)
    (True, False, False)
    """
    if a is b and _parts(a):
        return True
    return _share(a, b, _ranges_meet)


def may_share_memory(a: object, b: object) -> bool:
    """Whether ``a`` and ``b`` use overlapping bounds of a native array (``numpy.may_share_memory``).

    Parameters
    ----------
    a, b : pdarray, Strings, Categorical, SegArray, or a container of them
        The two.

    Returns
    -------
    bool
        True when their bounds overlap.

    Examples
    --------
    >>> import atoll as ak
    >>> a = ak.arange(10)
    >>> ak.may_share_memory(a[::2], a[1::2]), ak.may_share_memory(a, a + 0)
    (True, False)
    """
    if a is b and _parts(a):
        return True
    return _share(a, b, _bounds_meet)


def sparse_sum_help(
    idx1: pdarray,
    idx2: pdarray,
    val1: pdarray,
    val2: pdarray,
    merge: bool = True,
    percent_transfer_limit: int = 100,
) -> tuple[pdarray, pdarray]:
    """The sum of two sparse vectors given as (indices, values) pairs.

    As ``GroupBy(concatenate([idx1, idx2])).sum(concatenate([val1, val2]))``.

    Parameters
    ----------
    idx1, idx2 : pdarray
        The indices of each vector.
    val1, val2 : pdarray
        The values of each vector, as many as its indices.
    merge : bool, default True
        Arkouda's choice of algorithm; changes nothing here.
    percent_transfer_limit : int, default 100
        Arkouda's choice of algorithm; changes nothing here.

    Returns
    -------
    tuple of pdarray
        The distinct indices in increasing order and the sum of the values at each.

    Raises
    ------
    TypeError
        An argument is not a pdarray.
    ValueError
        A vector has more or fewer values than indices.

    Examples
    --------
    >>> import atoll as ak
    >>> i, v = ak.util.sparse_sum_help(ak.array([0, 2]), ak.array([2, 5]), ak.array([1, 2]), ak.array([10, 20]))
    >>> i.tolist(), v.tolist()
    ([0, 2, 5], [1, 12, 20])
    """
    for name, x in (("idx1", idx1), ("idx2", idx2), ("val1", val1), ("val2", val2)):
        if not isinstance(x, pdarray):
            raise TypeError(f"{name}: expected a pdarray, got {type(x).__name__}")
    if idx1.size != val1.size or idx2.size != val2.size:
        raise ValueError("each index array must have its value array's size")
    out: tuple[pdarray, pdarray] = GroupBy(generic_concat([idx1, idx2])).sum(generic_concat([val1, val2]))
    return out


def invert_permutation(perm: pdarray) -> pdarray:
    """The inverse of the permutation ``perm`` of ``0..n-1``: ``inv[perm[i]] == i``.

    Parameters
    ----------
    perm : pdarray
        An integer permutation.

    Returns
    -------
    pdarray
        The inverse, of ``perm``'s dtype.

    Raises
    ------
    TypeError
        ``perm`` is not an integer pdarray.
    ValueError
        ``perm`` is not a permutation (a value repeated or out of range).

    Examples
    --------
    >>> import atoll as ak
    >>> ak.invert_permutation(ak.array([2, 0, 3, 1])).tolist()
    [1, 3, 0, 2]
    """
    if not isinstance(perm, pdarray) or perm.dtype.kind not in "iu" or hasattr(perm, "_limbs"):
        raise TypeError(f"perm: expected an integer pdarray, got {getattr(perm, 'dtype', type(perm).__name__)}")
    n = perm.size
    if n == 0:
        empty: pdarray = _array(np.array([], dtype=perm.dtype))
        return empty
    if builtins.int(perm.min()) < 0 or builtins.int(perm.max()) >= n:
        raise ValueError("The array is not a permutation.")
    positions = _arange(n).astype(perm.dtype)
    inv: pdarray = _full(n, 0, perm.dtype)
    inv[perm] = positions
    # With a value repeated, one of its positions is overwritten: inv[perm] misses it.
    if not builtins.bool((inv[perm] == positions).all()):
        raise ValueError("The array is not a permutation.")
    return inv


def broadcast_to(x: object, shape: int | tuple[int, ...]) -> pdarray:
    """``x`` broadcast to ``shape``, as ``numpy.broadcast_to``.

    ``x`` itself when the shapes are equal, else its values read through strides of 0 on the
    stretched axes (one gather).

    Parameters
    ----------
    x : scalar or pdarray
        The values.
    shape : int or tuple of int
        The shape.

    Returns
    -------
    pdarray
        ``x`` of shape ``shape``.

    Raises
    ------
    TypeError
        ``x`` is neither a scalar nor a pdarray.
    ValueError
        ``x``'s shape does not broadcast to ``shape``, or a length is negative.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.broadcast_to(7, 3).tolist()
    [7, 7, 7]
    >>> ak.broadcast_to(ak.array([1, 2]), (2, 2)).tolist()
    [[1, 2], [1, 2]]
    """
    if isinstance(shape, (builtins.int, np.integer)) and shape < 0:
        raise ValueError("all elements of broadcast shape must be non-negative")
    sh = _nd.check_shape(shape)
    out: pdarray
    if isinstance(x, pdarray):
        if x.ndim == 1 and len(sh) == 1:  # bigint and time arrays keep their class
            if sh == (x.size,):
                return x
            if x.size == 1:
                out = x[_full(sh[0], 0, np.int64)]
                return out
            raise ValueError(f"Operands could not be broadcast together: {x.shape} and {sh}")
        if hasattr(x, "_limbs"):
            raise ValueError(f"broadcast_to: bigint arrays are 1-D, got shape {sh}")
        out = _nd.broadcast_to(x, sh)
        return out
    if isinstance(x, (builtins.bool, builtins.int, builtins.float, np.generic)):
        out = _full(sh, x)
        return out
    raise TypeError(f"x: expected a scalar or a pdarray, got {type(x).__name__}")


def broadcast_arrays(*arrays: pdarray) -> list[pdarray]:
    """The pdarrays ``arrays`` broadcast to their common shape, as ``numpy.broadcast_arrays``.

    Parameters
    ----------
    *arrays : pdarray
        The arrays.

    Returns
    -------
    list of pdarray
        Each of shape the common shape.

    Raises
    ------
    ValueError
        They have no common shape.

    Examples
    --------
    >>> import atoll as ak
    >>> a, b = ak.broadcast_arrays(ak.array([[1], [2]]), ak.array([3, 4]))
    >>> a.tolist(), b.tolist()
    ([[1, 1], [2, 2]], [[3, 4], [3, 4]])
    """
    shape = broadcast_shapes(*[a.shape for a in arrays])
    return [broadcast_to(a, shape) for a in arrays]
