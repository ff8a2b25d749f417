"""N-dimensional pdarrays: shapes, strides and strided gathers.

A pdarray of rank ``k`` is its C-order flattening (a 1-D Block-distributed array, the storage
of every pdarray) with a shape: the rank is metadata, so any rank runs without a rebuild.
Rows of the leading axes are contiguous within a locale's part, as with Heat's split axis 0:
element-wise work on arrays of one shape is the 1-D fused loop (aligned, no communication).
A layout change (transpose, broadcast, a strided selection) is a *strided view*: an
``offset`` and per-axis ``strides`` (in elements) into the flat data. A view that flattens to
one arithmetic progression is a 1-D slice of the same storage (no copy); any other is made
by one distributed gather whose positions are computed in the fused loop from the output's
flat index (``offset + sum((i // c_k) % n_k * s_k)``, with ``c_k`` the C-order strides of the
output shape).
"""

from __future__ import annotations

import builtins
import math
from collections.abc import Iterable, Sequence
from typing import Any

import numpy as np

from .. import _atoll
from .pdarrayclass import _np_scalar, _slice_indices, max as _max, min as _min, pdarray

MAX_RANK = 8


def prod(shape: Iterable[int]) -> int:
    """The number of elements of ``shape``.

    Parameters
    ----------
    shape : iterable of int
        The lengths of the axes.

    Returns
    -------
    int
        Their product (1 for no axis).

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy._nd import prod
    >>> prod((2, 3)), prod(())
    (6, 1)
    """
    return math.prod(shape)


def c_strides(shape: Sequence[int]) -> list[int]:
    """The C-order strides (in elements) of ``shape``.

    Parameters
    ----------
    shape : sequence of int
        The lengths of the axes.

    Returns
    -------
    list of int
        The stride of each axis.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy._nd import c_strides
    >>> c_strides((2, 3, 4))
    [12, 4, 1]
    """
    out = [1] * len(shape)
    for k in range(len(shape) - 2, -1, -1):
        out[k] = out[k + 1] * shape[k + 1]
    return out


def check_shape(shape: object, name: str = "shape") -> tuple[int, ...]:
    """``shape`` (an int or a sequence of ints) as a tuple of nonnegative ints.

    Parameters
    ----------
    shape : int or sequence of int
        The shape.
    name : str, default "shape"
        The argument's name, for messages.

    Returns
    -------
    tuple of int
        The shape.

    Raises
    ------
    TypeError
        If ``shape`` is not an int or a sequence of ints.
    ValueError
        If a length is negative or the rank is above ``MAX_RANK``.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy._nd import check_shape
    >>> check_shape(3), check_shape([2, 3])
    ((3,), (2, 3))
    """
    if isinstance(shape, (builtins.int, np.integer)) and not isinstance(shape, (builtins.bool, np.bool_)):
        shape = (shape,)
    try:
        dims: tuple[Any, ...] = tuple(shape)  # type: ignore[arg-type]  # an iterable; TypeError otherwise
    except TypeError:
        raise TypeError(f"{name}: expected an int or a tuple of ints, got {type(shape).__name__}") from None
    out = []
    for d in dims:
        if isinstance(d, (builtins.bool, np.bool_)) or not isinstance(d, (builtins.int, np.integer)):
            raise TypeError(f"{name}: expected an int or a tuple of ints, got {type(d).__name__} in it")
        if d < 0:
            raise ValueError(f"negative dimensions are not allowed (shape {dims})")
        out.append(builtins.int(d))
    if len(out) > MAX_RANK:
        raise ValueError(f"{name}: rank {len(out)} is above the maximum rank {MAX_RANK}")
    return tuple(out)


def reshape_shape(size: int, shape: Any) -> tuple[int, ...]:  # noqa: ANN401 (an int or a sequence of ints)
    """The shape ``shape`` (with at most one -1) that ``size`` elements take.

    As NumPy's ``reshape`` checks it.

    Parameters
    ----------
    size : int
        The number of elements.
    shape : int or sequence of int
        The shape, with at most one -1 (the length that fits).

    Returns
    -------
    tuple of int
        The shape.

    Raises
    ------
    ValueError
        If the shape does not hold ``size`` elements.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy._nd import reshape_shape
    >>> reshape_shape(6, (-1, 2))
    (3, 2)
    """
    if isinstance(shape, (builtins.int, np.integer)):
        shape = (shape,)
    shape = tuple(builtins.int(d) for d in shape)
    unknown = [k for k, d in enumerate(shape) if d == -1]
    if len(unknown) > 1:
        raise ValueError("can only specify one unknown dimension")
    if builtins.any(d < -1 for d in shape):
        raise ValueError(f"negative dimensions not allowed (shape {shape})")
    if unknown:
        rest = prod(d for d in shape if d != -1)
        if rest == 0 or size % rest:
            raise ValueError(f"cannot reshape array of size {size} into shape {shape}")
        shape = shape[: unknown[0]] + (size // rest,) + shape[unknown[0] + 1 :]
    if prod(shape) != size:
        raise ValueError(f"cannot reshape array of size {size} into shape {shape}")
    return check_shape(shape)


def normalize_axis(axis: object, ndim: int) -> int:
    """``axis`` in ``range(ndim)`` (negatives counted from the end).

    Parameters
    ----------
    axis : int
        The axis.
    ndim : int
        The rank.

    Returns
    -------
    int
        The axis, in ``range(ndim)``.

    Raises
    ------
    TypeError
        If ``axis`` is not an int.
    numpy.exceptions.AxisError
        If ``axis`` is out of bounds.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy._nd import normalize_axis
    >>> normalize_axis(-1, 3)
    2
    """
    if isinstance(axis, (builtins.bool, np.bool_)) or not isinstance(axis, (builtins.int, np.integer)):
        raise TypeError(f"axis: expected an int, got {type(axis).__name__}")
    a = builtins.int(axis)
    if not -ndim <= a < max(ndim, 1) or (ndim == 0):
        raise np.exceptions.AxisError(f"axis {a} is out of bounds for array of dimension {ndim}")
    return a % ndim


def normalize_axes(axis: object, ndim: int) -> tuple[int, ...]:
    """``axis`` (None, an int or a tuple of ints) as a sorted tuple of distinct axes (None: all).

    Parameters
    ----------
    axis : None, int or tuple of int
        The axes.
    ndim : int
        The rank.

    Returns
    -------
    tuple of int
        The axes, sorted.

    Raises
    ------
    ValueError
        If an axis repeats.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy._nd import normalize_axes
    >>> normalize_axes((-1, 0), 3), normalize_axes(None, 2)
    ((0, 2), (0, 1))
    """
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (tuple, list)):
        out = tuple(normalize_axis(a, ndim) for a in axis)
        if len(set(out)) != len(out):
            raise ValueError("duplicate value in 'axis'")
        return tuple(sorted(out))
    return (normalize_axis(axis, ndim),)


def broadcast_shapes(*shapes: Sequence[int]) -> tuple[int, ...]:
    """NumPy's broadcast of ``shapes``.

    Parameters
    ----------
    *shapes : sequence of int
        The shapes.

    Returns
    -------
    tuple of int
        The broadcast shape.

    Raises
    ------
    ValueError
        If the shapes do not broadcast (naming them).

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy._nd import broadcast_shapes
    >>> broadcast_shapes((2, 1), (3,))
    (2, 3)
    """
    try:
        return tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        raise ValueError(
            "operands could not be broadcast together with shapes " + " ".join(str(tuple(s)) for s in shapes)
        ) from None


def _merge(shape: Sequence[int], strides: Sequence[int]) -> list[tuple[int, int]]:
    """``shape``/``strides`` with axes of length 1 dropped and adjacent axes that step as one merged.

    The same positions, fewer axes.
    """
    dims = [(n, s) for n, s in zip(shape, strides) if n != 1]
    out: list[tuple[int, int]] = []
    for n, s in dims:
        if out and out[-1][1] == s * n:
            m, _ = out[-1]
            out[-1] = (m * n, s)
        else:
            out.append((n, s))
    return out


def positions(offset: int, shape: Sequence[int], strides: Sequence[int]) -> pdarray:
    """The lazy int64 pdarray of the flat positions ``offset + sum(idx_k * strides_k)`` of a strided view.

    In the C order of ``shape``.

    Parameters
    ----------
    offset : int
        The position of the first element.
    shape : sequence of int
        The view's shape.
    strides : sequence of int
        The view's strides, in elements.

    Returns
    -------
    pdarray
        The int64 positions.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy._nd import positions
    >>> positions(1, (2, 2), (3, 1)).tolist()
    [1, 2, 4, 5]
    """
    n = prod(shape)
    i = pdarray(_atoll.arange(n, 0, 1))
    dims = _merge(shape, strides)
    out: Any = None
    below = n
    for m, s in dims:
        below //= m
        if s == 0:
            continue  # a broadcast axis moves no position
        term = i // below if below > 1 else i
        if below * m != n:
            term = term % m
        if s != 1:
            term = term * s
        out = term if out is None else out + term
    if out is None:
        return pdarray(_atoll.full(n, "int64", builtins.int(offset)))
    result: pdarray = out + builtins.int(offset) if offset else out
    return result


def view(a: pdarray, offset: int, shape: Sequence[int], strides: Sequence[int]) -> pdarray:
    """The strided view of ``a``'s flat values as a pdarray of ``shape``.

    ``offset`` and per-axis ``strides`` (in elements) into the flat values: a slice of the same
    storage when it is one arithmetic progression, else a copy made by ``_atoll.strided``
    (each locale walks its output part and fetches the source interval it needs in bulk, or
    gathers when sparse).

    Parameters
    ----------
    a : pdarray
        The array.
    offset : int
        The flat position of the first element.
    shape : sequence of int
        The view's shape.
    strides : sequence of int
        The view's strides, in elements.

    Returns
    -------
    pdarray
        The view.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy._nd import view
    >>> view(ak.arange(6), 1, (2,), (3,)).tolist()
    [1, 4]
    """
    a._materialize()
    shape = tuple(shape)
    n = prod(shape)
    base_off = a._start + a._step * offset
    base_strides = [a._step * s for s in strides]
    dims = _merge(shape, base_strides)
    if n == 0:
        return pdarray(_atoll.full(0, a._dtype.name, False if a._dtype.kind == "b" else 0), shape=shape)
    if len(dims) == 0:
        return pdarray(a._arr, base_off, 1, 1, shape=shape)
    if len(dims) == 1 and dims[0][1] > 0:
        return pdarray(a._arr, base_off, dims[0][1], n, shape=shape)
    return pdarray(_atoll.strided(a._arr, base_off, [m for m, _ in dims], [st for _, st in dims]), shape=shape)


def broadcast_to(a: pdarray, shape: object) -> pdarray:
    """``a`` broadcast to ``shape`` (NumPy's rules; the same pdarray when the shapes are equal).

    Parameters
    ----------
    a : pdarray
        The array.
    shape : int or sequence of int
        The shape.

    Returns
    -------
    pdarray
        The broadcast array.

    Raises
    ------
    ValueError
        If ``a`` does not broadcast to ``shape``.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy._nd import broadcast_to
    >>> broadcast_to(ak.array([1, 2]), (2, 2)).tolist()
    [[1, 2], [1, 2]]
    """
    shape = check_shape(shape)
    if tuple(a.shape) == shape:
        return a
    src = tuple(a.shape)
    if len(src) > len(shape) or tuple(np.broadcast_shapes(src, shape)) != shape:
        raise ValueError(
            f"operands could not be broadcast together with remapped shapes [original->remapped]: "
            f"{src} and requested shape {shape}"
        )
    st = c_strides(src)
    lead = len(shape) - len(src)
    strides = [0] * lead + [0 if src[k] == 1 and shape[lead + k] != 1 else st[k] for k in range(len(src))]
    return view(a, 0, shape, strides)


def transpose(a: pdarray, axes: Iterable[object] | None = None) -> pdarray:
    """``a`` with its axes permuted (reversed when ``axes`` is None).

    A gathered copy unless the order of the flat values does not change.

    Parameters
    ----------
    a : pdarray
        The array.
    axes : sequence of int or None
        The new order of the axes; None: reversed.

    Returns
    -------
    pdarray
        The transposed array.

    Raises
    ------
    ValueError
        If ``axes`` is not a permutation of the axes.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy._nd import transpose
    >>> transpose(ak.arange(6).reshape(2, 3)).tolist()
    [[0, 3], [1, 4], [2, 5]]
    """
    nd = a.ndim
    if axes is None:
        order = tuple(range(nd))[::-1]
    else:
        order = tuple(normalize_axis(x, nd) for x in axes)
        if sorted(order) != list(range(nd)):
            raise ValueError("axes don't match array")
    shape = tuple(a.shape[k] for k in order)
    st = c_strides(a.shape)
    return view(a, 0, shape, [st[k] for k in order])


def with_shape(a: pdarray, shape: tuple[int, ...] | None) -> pdarray:
    """The pdarray ``a``'s flat values given the shape ``shape`` (same size; no copy).

    Parameters
    ----------
    a : pdarray
        The array.
    shape : tuple of int or None
        The shape, of ``a``'s size; None: 1-D.

    Returns
    -------
    pdarray
        The reshaped array.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy._nd import with_shape
    >>> with_shape(ak.arange(4), (2, 2)).tolist()
    [[0, 1], [2, 3]]
    """
    a._materialize()
    return pdarray(a._arr, a._start, a._step, a._size, shape=shape)


def axis_slice(a: pdarray, axis: int, start: int, stop: int, step: int = 1) -> pdarray:
    """``a[..., start:stop:step, ...]`` along ``axis``: a strided view.

    Parameters
    ----------
    a : pdarray
        The array.
    axis : int
        The axis, normalized.
    start : int
        The first index, in range (as ``slice.indices`` gives it).
    stop : int
        The end, in range.
    step : int, default 1
        The step.

    Returns
    -------
    pdarray
        The slice.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy._nd import axis_slice
    >>> axis_slice(ak.arange(6).reshape(2, 3), 1, 0, 3, 2).tolist()
    [[0, 2], [3, 5]]
    """
    shape = list(a.shape)
    n = len(range(start, stop, step))
    st = c_strides(a.shape)
    offset = start * st[axis] if n else 0
    shape[axis] = n
    strides = list(st)
    strides[axis] = st[axis] * step
    return view(a, offset, tuple(shape), strides)


def moveaxis(a: pdarray, source: int, destination: int) -> pdarray:
    """``a`` with axis ``source`` moved to ``destination``, the other axes in order.

    Parameters
    ----------
    a : pdarray
        The array.
    source : int
        The axis moved, normalized.
    destination : int
        Its new place, normalized.

    Returns
    -------
    pdarray
        The array with the axes reordered.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy._nd import moveaxis
    >>> moveaxis(ak.arange(6).reshape(1, 2, 3), 0, 2).shape
    (2, 3, 1)
    """
    order = [k for k in range(a.ndim) if k != source]
    order.insert(destination, source)
    return transpose(a, order)


# ----- indexing: NumPy's basic and advanced rules -------------------------------------------

INDEX_TYPES = "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays are valid indices"


def _is_int(k: object) -> builtins.bool:
    return isinstance(k, (builtins.int, np.integer)) and not isinstance(k, (builtins.bool, np.bool_))


class Selection:
    """What an index selects of an array's flat values (C order), and the shape it has.

    ``scalar``: one element (an int on every axis), at ``offset``. Basic indexing (``pos`` and
    ``mask`` None): the strided view ``offset``/``strides``. A boolean array of the array's
    whole shape: ``mask`` (select in C order; ``shape`` is not computed). Advanced indexing:
    ``pos``, the lazy int64 flat positions of the selection in the C order of ``shape``.

    Parameters
    ----------
    shape : sequence of int
        The shape of the selection.
    scalar : bool, default False
        One element.
    offset : int, default 0
        The flat position of the first element.
    strides : sequence of int
        The strides of a basic selection.
    pos : pdarray or None
        The flat positions of an advanced selection.
    mask : pdarray or None
        The boolean array of the array's whole shape.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy._nd import select
    >>> select(ak.arange(6).reshape(2, 3), (1, slice(None))).strides
    (1,)
    """

    __slots__ = ("shape", "scalar", "offset", "strides", "pos", "mask")

    def __init__(
        self,
        shape: Sequence[int],
        scalar: builtins.bool = False,
        offset: int = 0,
        strides: Sequence[int] = (),
        pos: pdarray | None = None,
        mask: pdarray | None = None,
    ) -> None:
        self.shape = tuple(shape)
        self.scalar = scalar
        self.offset = offset
        self.strides = tuple(strides)
        # Any: the readers know from the other fields whether there are positions.
        self.pos: Any = pos
        self.mask = mask


def flat(a: pdarray) -> pdarray:
    """``a``'s flat values as a 1-D pdarray (no copy; a lazy ``a`` stays lazy).

    Parameters
    ----------
    a : pdarray
        The array.

    Returns
    -------
    pdarray
        Its values, 1-D.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy._nd import flat
    >>> flat(ak.arange(4).reshape(2, 2)).tolist()
    [0, 1, 2, 3]
    """
    if a._shape is None:
        return a
    if a._expr is not None:
        return pdarray._lazy(a._expr, a._size, a._nodes)
    return pdarray(a._arr, a._start, a._step, a._size)


def _wrapped(k: pdarray, n: int, axis: int) -> pdarray:
    """The int64 flat pdarray of the integer index array ``k`` for an axis of ``n`` elements.

    Checked against the bounds (NumPy's IndexError) and negatives counted from the end.
    """
    f = flat(k)
    lo = 0
    if f._size:
        lo, hi = builtins.int(_min(f)), builtins.int(_max(f))
        if lo < -n or hi >= n:
            raise IndexError(f"index {lo if lo < -n else hi} is out of bounds for axis {axis} with size {n}")
    if f._dtype != np.int64:
        f = pdarray._lazy(_atoll.cast(f._ex(), "int64"), f._size, f._nodes + 1)
    out: pdarray = f % n if lo < 0 else f
    return out


def _broadcast_flat(f: pdarray, src: Sequence[int], shape: Sequence[int]) -> pdarray:
    """The flat values ``f`` (of shape ``src``) broadcast to ``shape``, as a 1-D pdarray."""
    if tuple(src) == tuple(shape):
        return f
    st = c_strides(src)
    lead = len(shape) - len(src)
    strides = [0] * lead + [0 if src[k] == 1 else st[k] for k in range(len(src))]
    return flat(view(f, 0, shape, strides))


def select(a: pdarray, key: Any) -> Selection:  # noqa: ANN401 (any index)
    """The ``Selection`` of ``a[key]``, with NumPy's rules and errors.

    ``key`` is a tuple of ints, slices, ``Ellipsis``, ``None`` and pdarrays. Integer arrays
    (and ints, when there is an array) broadcast together; their axes take the place of the
    first of them when they are adjacent in the key, else they come first. A boolean array
    indexes as its nonzero positions over the axes it spans.

    Parameters
    ----------
    a : pdarray
        The array indexed.
    key : object
        The index.

    Returns
    -------
    Selection
        What the index selects.

    Raises
    ------
    IndexError
        If the index is of another kind, out of bounds, or does not fit the array.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy._nd import select
    >>> s = select(ak.arange(6).reshape(2, 3), (1, 2))
    >>> s.scalar, s.offset
    (True, 5)
    """
    if not isinstance(key, tuple):
        key = (key,)
    shape = a.shape
    nd = len(shape)
    ells = [j for j, k in enumerate(key) if k is Ellipsis]
    if len(ells) > 1:
        raise IndexError("an index can only have a single ellipsis ('...')")
    used = 0
    has_array = False
    for k in key:
        if k is None or k is Ellipsis:
            continue
        if _is_int(k) or isinstance(k, slice):
            used += 1
        elif isinstance(k, pdarray) and k._dtype == np.bool_:
            if k.ndim == 0:
                raise IndexError("key: 0-dimensional boolean index arrays are not supported")
            used += k.ndim
            has_array = True
        elif isinstance(k, pdarray) and k._dtype.kind in "iu":
            used += 1
            has_array = True
        elif isinstance(k, pdarray):
            raise IndexError("arrays used as indices must be of integer (or boolean) type")
        else:
            raise IndexError(f"{INDEX_TYPES} (key: {type(k).__name__})")
    if used > nd:
        raise IndexError(f"too many indices for array: array is {nd}-dimensional, but {used} were indexed")
    if not has_array and not ells and len(key) == nd and builtins.all(_is_int(k) for k in key):
        st = c_strides(shape)
        off = 0
        for ax, k in enumerate(key):
            i, n = builtins.int(k), shape[ax]
            if not -n <= i < n:
                raise IndexError(f"index {i} is out of bounds for axis {ax} with size {n}")
            off += (i % n) * st[ax]
        return Selection((), scalar=True, offset=off)
    if (
        len(key) == 1
        and isinstance(key[0], pdarray)
        and key[0]._dtype == np.bool_
        and tuple(key[0].shape) == tuple(shape)
    ):
        return Selection((), mask=key[0])
    fill = (slice(None),) * (nd - used)
    key = key[: ells[0]] + fill + key[ells[0] + 1 :] if ells else key + fill
    st = c_strides(shape)
    offset = 0
    out: list[tuple[int, int]] = []  # the basic output axes: (length, stride)
    # The advanced indices: (offsets: an int, a flat int64 pdarray, or an integer array to check; shape).
    adv: list[tuple[Any, tuple[int, ...]]] = []
    adv_keys: list[int] = []  # their places in the key
    adv_out: Any = None  # where their axes go among the basic output axes when adjacent
    ax = 0
    for j, k in enumerate(key):
        if k is None:
            out.append((1, 0))
        elif isinstance(k, slice):
            s, e, step = _slice_indices(k, shape[ax])
            n = len(range(s, e, step))
            out.append((n, step * st[ax]))
            offset += s * st[ax] if n else 0
            ax += 1
        elif _is_int(k):
            i, n = builtins.int(k), shape[ax]
            if not -n <= i < n:
                raise IndexError(f"index {i} is out of bounds for axis {ax} with size {n}")
            if has_array:
                adv.append(((i % n) * st[ax], ()))
                adv_keys.append(j)
                adv_out = len(out) if adv_out is None else adv_out
            else:
                offset += (i % n) * st[ax]
            ax += 1
        elif k._dtype == np.bool_:
            kd = k.ndim
            for d in range(kd):
                if k.shape[d] != shape[ax + d]:
                    raise IndexError(
                        f"boolean index did not match indexed array along axis {ax + d}; size of axis is "
                        f"{shape[ax + d]} but size of corresponding boolean axis is {k.shape[d]}"
                    )
            fk = flat(k)
            nz = pdarray(_atoll.compress(pdarray(_atoll.arange(k._size, 0, 1))._ex(), fk._ex(), k._size))
            # The axes a boolean array spans are consecutive in C order: position p in its
            # flat values is p times the stride of its last axis.
            adv.append((nz * st[ax + kd - 1] if st[ax + kd - 1] != 1 else nz, (nz._size,)))
            adv_keys.append(j)
            adv_out = len(out) if adv_out is None else adv_out
            ax += kd
        else:
            adv.append(((k, shape[ax], ax, st[ax]), tuple(k.shape)))
            adv_keys.append(j)
            adv_out = len(out) if adv_out is None else adv_out
            ax += 1
    if not adv:
        return Selection(tuple(n for n, _ in out), offset=offset, strides=[s for _, s in out])
    shapes = [s for _, s in adv]
    try:
        bshape = tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        raise IndexError(
            "shape mismatch: indexing arrays could not be broadcast together with shapes "
            + " ".join(str(tuple(s)) for s in shapes)
        ) from None
    if adv_keys != list(range(adv_keys[0], adv_keys[0] + len(adv_keys))):
        adv_out = 0
    before, after = out[:adv_out], out[adv_out:]
    oshape = tuple(n for n, _ in before) + bshape + tuple(n for n, _ in after)
    total = prod(oshape)
    nb = prod(bshape)
    if nb:
        # The integer arrays' offsets, checked against the bounds (as in NumPy, not when they
        # broadcast to no element).
        for q, (fa, sa) in enumerate(adv):
            if isinstance(fa, tuple):
                k, n, axis, stride = fa
                w = _wrapped(k, n, axis)
                adv[q] = (w * stride if stride != 1 else w, sa)
    if total == 0:
        return Selection(oshape, pos=pdarray(_atoll.full(0, "int64", 0)))
    flat_i = pdarray(_atoll.arange(total, 0, 1))
    below = total
    pos: Any = None

    def add(term: Any) -> None:  # noqa: ANN401 (a pdarray)
        nonlocal pos
        pos = term if pos is None else pos + term

    def axis_term(m: int, s: object) -> Any:  # noqa: ANN401 (a pdarray or None)
        nonlocal below
        below //= m
        if m == 1:
            return None
        t = flat_i // below if below > 1 else flat_i
        return t % m if below * m != total else t

    for m, s in before:
        t = axis_term(m, s)
        if t is not None and s:
            add(t * s if s != 1 else t)
    jb: Any = axis_term(nb, None) if nb != 1 else None
    below_after = below
    for fa, sa in adv:
        if isinstance(fa, builtins.int):
            offset += fa
            continue
        f = _broadcast_flat(fa, sa, bshape)
        if nb == 1:
            # One selected element per basic position: the same offset for all.
            add(pdarray(_atoll.full(total, "int64", builtins.int(f[0]))))
        elif nb == total:
            add(f)
        else:
            f._materialize()
            add(pdarray(_atoll.gather(f._arr, (jb * f._step + f._start)._ex(), total)))
    below = below_after
    for m, s in after:
        t = axis_term(m, s)
        if t is not None and s:
            add(t * s if s != 1 else t)
    if pos is None:
        pos = pdarray(_atoll.full(total, "int64", builtins.int(offset)))
    elif offset:
        pos = pos + builtins.int(offset)
    return Selection(oshape, pos=pos)


def coords(shape: Sequence[int]) -> tuple[pdarray, list[pdarray]]:
    """The lazy flat index ``i`` of an array of ``shape`` (C order) and its per-axis coordinates.

    ``(i // c_k) % n_k``, the operations that cannot change it left out.

    Parameters
    ----------
    shape : sequence of int
        The shape.

    Returns
    -------
    (pdarray, list of pdarray)
        The flat index and the coordinate on each axis.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy._nd import coords
    >>> i, (r, c) = coords((2, 2))
    >>> r.tolist(), c.tolist()
    ([0, 0, 1, 1], [0, 1, 0, 1])
    """
    n = prod(shape)
    i = pdarray(_atoll.arange(n, 0, 1))
    out: list[pdarray] = []
    for c, m in zip(c_strides(shape), shape):
        t = i // c if c > 1 else i
        out.append(t % m if c * m != n else t)
    return i, out


def gather_flat(a: pdarray, pos: pdarray, shape: Sequence[int]) -> pdarray:
    """The elements of ``a``'s flat values at the int64 pdarray ``pos``, as a pdarray of ``shape``.

    ``pos`` holds positions in range, one per element of ``shape``, in C order: one gather.

    Parameters
    ----------
    a : pdarray
        The array.
    pos : pdarray
        The int64 flat positions.
    shape : sequence of int
        The result's shape.

    Returns
    -------
    pdarray
        The gathered values.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy._nd import gather_flat
    >>> gather_flat(ak.arange(10, 14), ak.array([3, 0]), (2,)).tolist()
    [13, 10]
    """
    a._materialize()
    n = prod(shape)
    if n == 0:
        return view(a, 0, shape, [0] * len(shape))
    if a._start or a._step != 1:
        pos = pos * a._step + a._start
    return pdarray(_atoll.gather(a._arr, pos._ex(), n), shape=tuple(shape))


def take_selection(a: pdarray, sel: Selection) -> Any:  # noqa: ANN401 (a NumPy scalar or a pdarray)
    """``a[key]`` for the ``Selection`` ``sel`` of ``key``.

    A NumPy scalar, a strided view (no copy when it is one arithmetic progression), the masked
    values, or one gather.

    Parameters
    ----------
    a : pdarray
        The array.
    sel : Selection
        The selection (``select(a, key)``).

    Returns
    -------
    numpy scalar or pdarray
        The selected values.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy._nd import select, take_selection
    >>> a = ak.arange(6).reshape(2, 3)
    >>> take_selection(a, select(a, (slice(None), 1))).tolist()
    [1, 4]
    """
    if sel.mask is not None:
        return pdarray(_atoll.compress(a._ex(), flat(sel.mask)._ex(), a._size))
    a._materialize()
    if sel.scalar:
        return _np_scalar(_atoll.get(a._arr, a._start + a._step * sel.offset), a._dtype)
    if sel.pos is None:
        return view(a, sel.offset, sel.shape, sel.strides)
    n = prod(sel.shape)
    if n == 0:
        return view(a, 0, sel.shape, [0] * len(sel.shape))
    p = sel.pos if a._start == 0 and a._step == 1 else sel.pos * a._step + a._start
    return pdarray(_atoll.gather(a._arr, p._ex(), n), shape=sel.shape)


def take_axis(a: pdarray, idx: pdarray, axis: int) -> pdarray:
    """``a`` with the int64 pdarray ``idx`` selecting along ``axis``.

    ``idx`` is 1-D, with values in ``range(a.shape[axis])``: one gather, ``idx`` read at each
    output element's coordinate on the axis.

    Parameters
    ----------
    a : pdarray
        The array.
    idx : pdarray
        The int64 indices along the axis.
    axis : int
        The axis, normalized.

    Returns
    -------
    pdarray
        The selected values.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.numpy._nd import take_axis
    >>> take_axis(ak.arange(6).reshape(2, 3), ak.array([2, 0]), 1).tolist()
    [[2, 0], [5, 3]]
    """
    n = a.shape[axis]
    m = idx.size
    shape = a.shape[:axis] + (m,) + a.shape[axis + 1 :]
    if prod(shape) == 0:
        return view(a, 0, shape, [0] * len(shape))
    inner = prod(a.shape[axis + 1 :])
    i, co = coords(shape)
    # The output's flat index less its axis term, less the outer index times the change in
    # the axis' length: the source's flat index less its axis term.
    pos = i - co[axis] * inner
    if prod(a.shape[:axis]) > 1 and m != n:
        pos = pos - (i // (m * inner)) * ((m - n) * inner)
    j = with_shape(view(idx, 0, shape, [0] * axis + [1] + [0] * (len(shape) - axis - 1)), None)
    return gather_flat(a, pos + j * inner, shape)
