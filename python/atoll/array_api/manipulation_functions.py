"""The manipulation functions of the Array API namespace, on Atoll's N-d pdarray functions.

``reshape``, ``transpose``, ``concatenate``, ``broadcast_to``, ``flip``, ``roll``, ...: axes out
of range raise NumPy's ``AxisError`` (an ``IndexError`` and a ``ValueError``).
"""

from __future__ import annotations

from collections.abc import Sequence

from atoll.numpy import manipulation_functions as manip, numeric, util
from atoll.numpy._nd import normalize_axes, normalize_axis
from atoll.numpy.pdarraymanipulation import concatenate

from .array_object import Array, _unwrap, _wrap

__all__ = [
    "broadcast_arrays",
    "broadcast_to",
    "concat",
    "expand_dims",
    "flip",
    "moveaxis",
    "permute_dims",
    "repeat",
    "reshape",
    "roll",
    "squeeze",
    "stack",
    "tile",
    "unstack",
]


def broadcast_arrays(*arrays: Array) -> list[Array]:
    """The Arrays broadcast to their common shape.

    Parameters
    ----------
    *arrays : Array
        The Arrays.

    Returns
    -------
    list of Array
        Each broadcast.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> a, b = xp.broadcast_arrays(xp.asarray([[1], [2]]), xp.asarray([3, 4, 5]))
    >>> a.shape, b.tolist()
    ((2, 3), [[3, 4, 5], [3, 4, 5]])
    """
    return [_wrap(a) for a in util.broadcast_arrays(*(_unwrap(a) for a in arrays))]


def broadcast_to(x: Array, /, shape: Sequence[int]) -> Array:
    """``x`` broadcast to ``shape``.

    Parameters
    ----------
    x : Array
        The Array.
    shape : sequence of int
        The target shape.

    Returns
    -------
    Array
        The broadcast Array.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.broadcast_to(xp.asarray([1, 2]), (2, 2)).tolist()
    [[1, 2], [1, 2]]
    """
    return _wrap(util.broadcast_to(_unwrap(x), tuple(shape)))


def concat(arrays: Sequence[Array], /, *, axis: int | None = 0) -> Array:
    """The Arrays joined along ``axis``.

    Parameters
    ----------
    arrays : sequence of Array
        The Arrays (of one shape but along ``axis``).
    axis : int or None, default 0
        The axis to join along (None: flattened first).

    Returns
    -------
    Array
        The joined Array.

    Raises
    ------
    ValueError
        If ``arrays`` is empty (with an axis).

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.concat([xp.asarray([[1, 2]]), xp.asarray([[3, 4]])], axis=1).tolist()
    [[1, 2, 3, 4]]
    """
    vals = [_unwrap(a) for a in arrays]
    if axis is None:
        return _wrap(concatenate([v.reshape((v.size,)) for v in vals]))
    if not vals:
        raise ValueError("need at least one array to concatenate")
    axis = normalize_axis(axis, vals[0].ndim)
    if vals[0].ndim == 1:
        return _wrap(concatenate(vals))
    return _wrap(concatenate(vals, axis=axis))


def expand_dims(x: Array, /, *, axis: int = 0) -> Array:
    """``x`` with a new axis of length 1 at ``axis`` (counted in the result's axes).

    Parameters
    ----------
    x : Array
        The Array.
    axis : int, default 0
        The position of the new axis.

    Returns
    -------
    Array
        The Array with one more axis.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.expand_dims(xp.asarray([1, 2]), axis=1).shape
    (2, 1)
    """
    a = _unwrap(x)
    axis = normalize_axis(axis, a.ndim + 1)
    shape = list(a.shape)
    shape.insert(axis, 1)
    return _wrap(a.reshape(tuple(shape)))


def flip(x: Array, /, *, axis: int | tuple[int, ...] | None = None) -> Array:
    """``x`` with the order of the elements reversed along ``axis``.

    Parameters
    ----------
    x : Array
        The Array.
    axis : int, tuple of int or None, default None
        The axes to reverse (None: every axis).

    Returns
    -------
    Array
        The reversed Array.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.flip(xp.asarray([[1, 2], [3, 4]]), axis=1).tolist()
    [[2, 1], [4, 3]]
    """
    a = _unwrap(x)
    axes = normalize_axes(axis, a.ndim)
    if a.ndim == 1:
        return _wrap(manip.flip(a))
    return _wrap(manip.flip(a, axis=axes))


def moveaxis(x: Array, source: int | Sequence[int], destination: int | Sequence[int], /) -> Array:
    """``x`` with the axes ``source`` moved to the positions ``destination``; the others keep their order.

    Parameters
    ----------
    x : Array
        The Array.
    source : int or sequence of int
        The axes to move.
    destination : int or sequence of int
        Their new positions.

    Returns
    -------
    Array
        The Array with its axes moved.

    Raises
    ------
    ValueError
        If ``source`` and ``destination`` differ in length or repeat an axis.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.moveaxis(xp.zeros((2, 3, 4)), 0, -1).shape
    (3, 4, 2)
    """
    a = _unwrap(x)
    src0 = (source,) if isinstance(source, int) else tuple(source)
    dst0 = (destination,) if isinstance(destination, int) else tuple(destination)
    if len(src0) != len(dst0):
        raise ValueError("source and destination must have the same number of elements")
    src = [normalize_axis(s, a.ndim) for s in src0]
    dst = [normalize_axis(d, a.ndim) for d in dst0]
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise ValueError("repeated axis in source or destination")
    order = [k for k in range(a.ndim) if k not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return _wrap(numeric.transpose(a, tuple(order)))


def permute_dims(x: Array, /, axes: Sequence[int]) -> Array:
    """``x`` with its axes in the order ``axes``.

    Parameters
    ----------
    x : Array
        The Array.
    axes : sequence of int
        A permutation of ``range(x.ndim)``.

    Returns
    -------
    Array
        The permuted Array.

    Raises
    ------
    ValueError
        If ``axes`` is not a permutation of the axes.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.permute_dims(xp.zeros((2, 3, 4)), (2, 0, 1)).shape
    (4, 2, 3)
    """
    a = _unwrap(x)
    order = tuple(normalize_axis(k, a.ndim) for k in axes)
    if sorted(order) != list(range(a.ndim)):
        raise ValueError("axes don't match array")
    return _wrap(numeric.transpose(a, order))


def repeat(x: Array, repeats: int | Array, /, *, axis: int | None = None) -> Array:
    """Each element of ``x`` repeated ``repeats`` times along ``axis``.

    Parameters
    ----------
    x : Array
        The Array.
    repeats : int or Array
        The count, or one count per element.
    axis : int, optional
        The axis to repeat along (None: of the flattened ``x``).

    Returns
    -------
    Array
        The repeated elements.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.repeat(xp.asarray([1, 2]), xp.asarray([2, 1])).tolist()
    [1, 1, 2]
    """
    return _wrap(manip.repeat(_unwrap(x), _unwrap(repeats), axis=axis))


def reshape(x: Array, /, shape: Sequence[int], *, copy: bool | None = None) -> Array:
    """``x``'s elements in C order, in the shape ``shape``.

    Parameters
    ----------
    x : Array
        The Array.
    shape : sequence of int
        The new shape (one length may be -1).
    copy : bool, optional
        The standard's argument (the result never shares ``x``'s values' updates).

    Returns
    -------
    Array
        The reshaped Array.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.reshape(xp.arange(6), (2, -1)).tolist()
    [[0, 1, 2], [3, 4, 5]]
    """
    a = _unwrap(x)
    out = a.reshape(tuple(shape))
    return _wrap(out)


def roll(x: Array, /, shift: int | tuple[int, ...], *, axis: int | tuple[int, ...] | None = None) -> Array:
    """``x`` with its elements shifted by ``shift`` along ``axis``, those shifted out coming back at the other end.

    Parameters
    ----------
    x : Array
        The Array.
    shift : int or tuple of int
        The shift (one per axis of ``axis``).
    axis : int, tuple of int or None, default None
        The axes (None: the flattened elements).

    Returns
    -------
    Array
        The rolled Array.

    Raises
    ------
    IndexError
        If more axes are given than ``x`` has.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.roll(xp.asarray([1, 2, 3, 4]), 1).tolist()
    [4, 1, 2, 3]
    """
    a = _unwrap(x)
    if axis is not None:
        ax = (axis,) if isinstance(axis, int) else tuple(axis)
        if len(ax) > a.ndim:
            raise IndexError(f"roll: {len(ax)} axes given for an array of dimension {a.ndim}")
        for k in ax:
            normalize_axis(k, a.ndim)
    return _wrap(manip.roll(a, shift, axis=axis))


def squeeze(x: Array, /, axis: int | tuple[int, ...]) -> Array:
    """``x`` without the axes ``axis``.

    Parameters
    ----------
    x : Array
        The Array.
    axis : int or tuple of int
        The axes to remove (each of length 1).

    Returns
    -------
    Array
        The Array with fewer axes.

    Raises
    ------
    ValueError
        If an axis has a length other than 1.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.squeeze(xp.zeros((1, 3, 1)), axis=(0, 2)).shape
    (3,)
    """
    a = _unwrap(x)
    axes = normalize_axes(axis, a.ndim)
    if any(a.shape[k] != 1 for k in axes):
        raise ValueError("cannot select an axis to squeeze out which has size not equal to one")
    return _wrap(a.reshape(tuple(n for k, n in enumerate(a.shape) if k not in axes)))


def stack(arrays: Sequence[Array], /, *, axis: int = 0) -> Array:
    """The Arrays (all of one shape) joined along a new axis ``axis``.

    Parameters
    ----------
    arrays : sequence of Array
        The Arrays.
    axis : int, default 0
        The position of the new axis.

    Returns
    -------
    Array
        The stacked Array.

    Raises
    ------
    ValueError
        If ``arrays`` is empty or the shapes differ.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.stack([xp.asarray([1, 2]), xp.asarray([3, 4])], axis=1).tolist()
    [[1, 3], [2, 4]]
    """
    vals = [_unwrap(a) for a in arrays]
    if not vals:
        raise ValueError("need at least one array to stack")
    if any(v.shape != vals[0].shape for v in vals):
        raise ValueError("all input arrays must have the same shape")
    axis = normalize_axis(axis, vals[0].ndim + 1)
    return concat([expand_dims(_wrap(v), axis=axis) for v in vals], axis=axis)


def tile(x: Array, repetitions: Sequence[int], /) -> Array:
    """``x`` repeated ``repetitions[k]`` times along each axis ``k``.

    Parameters
    ----------
    x : Array
        The Array.
    repetitions : sequence of int
        The count of each axis.

    Returns
    -------
    Array
        The tiled Array.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> xp.tile(xp.asarray([1, 2]), (2,)).tolist()
    [1, 2, 1, 2]
    """
    return _wrap(manip.tile(_unwrap(x), tuple(repetitions)))


def unstack(x: Array, /, *, axis: int = 0) -> tuple[Array, ...]:
    """The Arrays of ``x`` along ``axis``: ``x[..., i, ...]`` for each ``i``.

    Parameters
    ----------
    x : Array
        The Array.
    axis : int, default 0
        The axis to split along.

    Returns
    -------
    tuple of Array
        One Array per position along the axis.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> [a.tolist() for a in xp.unstack(xp.asarray([[1, 2], [3, 4]]), axis=1)]
    [[1, 3], [2, 4]]
    """
    a = _unwrap(x)
    axis = normalize_axis(axis, a.ndim)
    lead = (slice(None),) * axis
    return tuple(_wrap(a[lead + (i,)]) for i in range(a.shape[axis]))
