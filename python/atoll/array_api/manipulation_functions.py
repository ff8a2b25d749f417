"""The manipulation functions of the Array API namespace, on Atoll's N-d pdarray functions
(``reshape``, ``transpose``, ``concatenate``, ``broadcast_to``, ``flip``, ``roll``, ...).

Axes out of range raise NumPy's ``AxisError`` (an ``IndexError`` and a ``ValueError``)."""

import atoll as ak
from atoll.numpy._nd import normalize_axes, normalize_axis

from .array_object import _unwrap, _wrap

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


def broadcast_arrays(*arrays):
    """The Arrays broadcast to their common shape."""
    return [_wrap(a) for a in ak.broadcast_arrays(*(_unwrap(a) for a in arrays))]


def broadcast_to(x, /, shape):
    """``x`` broadcast to ``shape``."""
    return _wrap(ak.broadcast_to(_unwrap(x), tuple(shape)))


def concat(arrays, /, *, axis=0):
    """The Arrays joined along ``axis`` (``None``: flattened first)."""
    vals = [_unwrap(a) for a in arrays]
    if axis is None:
        return _wrap(ak.concatenate([v.reshape((v.size,)) for v in vals]))
    if not vals:
        raise ValueError("need at least one array to concatenate")
    axis = normalize_axis(axis, vals[0].ndim)
    if vals[0].ndim == 1:
        return _wrap(ak.concatenate(vals))
    return _wrap(ak.concatenate(vals, axis=axis))


def expand_dims(x, /, *, axis=0):
    """``x`` with a new axis of length 1 at ``axis`` (counted in the result's axes)."""
    a = _unwrap(x)
    axis = normalize_axis(axis, a.ndim + 1)
    shape = list(a.shape)
    shape.insert(axis, 1)
    return _wrap(a.reshape(tuple(shape)))


def flip(x, /, *, axis=None):
    """``x`` with the order of the elements reversed along ``axis`` (an int, a tuple, or
    ``None`` for every axis)."""
    a = _unwrap(x)
    axes = normalize_axes(axis, a.ndim)
    if a.ndim == 1:
        return _wrap(ak.flip(a))
    return _wrap(ak.flip(a, axis=axes))


def moveaxis(x, source, destination, /):
    """``x`` with the axes ``source`` moved to the positions ``destination``; the others keep
    their order."""
    a = _unwrap(x)
    src = (source,) if isinstance(source, int) else tuple(source)
    dst = (destination,) if isinstance(destination, int) else tuple(destination)
    if len(src) != len(dst):
        raise ValueError("source and destination must have the same number of elements")
    src = [normalize_axis(s, a.ndim) for s in src]
    dst = [normalize_axis(d, a.ndim) for d in dst]
    if len(set(src)) != len(src) or len(set(dst)) != len(dst):
        raise ValueError("repeated axis in source or destination")
    order = [k for k in range(a.ndim) if k not in src]
    for d, s in sorted(zip(dst, src)):
        order.insert(d, s)
    return _wrap(ak.transpose(a, tuple(order)))


def permute_dims(x, /, axes):
    """``x`` with its axes in the order ``axes`` (a permutation of ``range(x.ndim)``)."""
    a = _unwrap(x)
    axes = tuple(normalize_axis(k, a.ndim) for k in axes)
    if sorted(axes) != list(range(a.ndim)):
        raise ValueError("axes don't match array")
    return _wrap(ak.transpose(a, axes))


def repeat(x, repeats, /, *, axis=None):
    """Each element of ``x`` repeated ``repeats`` times (an int, or one count per element)
    along ``axis`` (``None``: of the flattened ``x``)."""
    return _wrap(ak.repeat(_unwrap(x), _unwrap(repeats), axis=axis))


def reshape(x, /, shape, *, copy=None):
    """``x``'s elements in C order, in the shape ``shape`` (one length may be -1)."""
    a = _unwrap(x)
    out = a.reshape(tuple(shape))
    return _wrap(out)


def roll(x, /, shift, *, axis=None):
    """``x`` with its elements shifted by ``shift`` along ``axis`` (those shifted out coming
    back at the other end); ``axis=None`` rolls the flattened elements."""
    a = _unwrap(x)
    if axis is not None:
        ax = (axis,) if isinstance(axis, int) else tuple(axis)
        if len(ax) > a.ndim:
            raise IndexError(f"roll: {len(ax)} axes given for an array of dimension {a.ndim}")
        for k in ax:
            normalize_axis(k, a.ndim)
    return _wrap(ak.roll(a, shift, axis=axis))


def squeeze(x, /, axis):
    """``x`` without the axes ``axis`` (each must have length 1; ValueError else)."""
    a = _unwrap(x)
    axes = normalize_axes(axis, a.ndim)
    if any(a.shape[k] != 1 for k in axes):
        raise ValueError("cannot select an axis to squeeze out which has size not equal to one")
    return _wrap(a.reshape(tuple(n for k, n in enumerate(a.shape) if k not in axes)))


def stack(arrays, /, *, axis=0):
    """The Arrays (all of one shape) joined along a new axis ``axis``."""
    vals = [_unwrap(a) for a in arrays]
    if not vals:
        raise ValueError("need at least one array to stack")
    if any(v.shape != vals[0].shape for v in vals):
        raise ValueError("all input arrays must have the same shape")
    axis = normalize_axis(axis, vals[0].ndim + 1)
    return concat([expand_dims(_wrap(v), axis=axis) for v in vals], axis=axis)


def tile(x, repetitions, /):
    """``x`` repeated ``repetitions[k]`` times along each axis ``k``."""
    return _wrap(ak.tile(_unwrap(x), tuple(repetitions)))


def unstack(x, /, *, axis=0):
    """The Arrays of ``x`` along ``axis``: ``x[..., i, ...]`` for each ``i``."""
    a = _unwrap(x)
    axis = normalize_axis(axis, a.ndim)
    lead = (slice(None),) * axis
    return tuple(_wrap(a[lead + (i,)]) for i in range(a.shape[axis]))
