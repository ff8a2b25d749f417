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

import builtins
import math

import numpy as np

from .. import _atoll
from .pdarrayclass import pdarray

MAX_RANK = 8


def prod(shape):
    """The number of elements of ``shape``."""
    return math.prod(shape)


def c_strides(shape):
    """The C-order strides (in elements) of ``shape``."""
    out = [1] * len(shape)
    for k in range(len(shape) - 2, -1, -1):
        out[k] = out[k + 1] * shape[k + 1]
    return out


def check_shape(shape, name="shape"):
    """``shape`` (an int or a sequence of ints) as a tuple of nonnegative ints, NumPy's
    errors for the rest."""
    if isinstance(shape, (builtins.int, np.integer)) and not isinstance(shape, (builtins.bool, np.bool_)):
        shape = (shape,)
    try:
        dims = tuple(shape)
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


def reshape_shape(size, shape):
    """The shape ``shape`` (with at most one -1) that ``size`` elements take, as NumPy's
    ``reshape`` checks it."""
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


def normalize_axis(axis, ndim):
    """``axis`` in ``range(ndim)`` (negatives counted from the end); NumPy's AxisError else."""
    if isinstance(axis, (builtins.bool, np.bool_)) or not isinstance(axis, (builtins.int, np.integer)):
        raise TypeError(f"axis: expected an int, got {type(axis).__name__}")
    a = builtins.int(axis)
    if not -ndim <= a < max(ndim, 1) or (ndim == 0):
        raise np.exceptions.AxisError(f"axis {a} is out of bounds for array of dimension {ndim}")
    return a % ndim


def normalize_axes(axis, ndim):
    """``axis`` (None, an int or a tuple of ints) as a sorted tuple of distinct axes (None: all)."""
    if axis is None:
        return tuple(range(ndim))
    if isinstance(axis, (tuple, list)):
        out = tuple(normalize_axis(a, ndim) for a in axis)
        if len(set(out)) != len(out):
            raise ValueError("duplicate value in 'axis'")
        return tuple(sorted(out))
    return (normalize_axis(axis, ndim),)


def broadcast_shapes(*shapes):
    """NumPy's broadcast of ``shapes`` (ValueError naming them when they do not broadcast)."""
    try:
        return tuple(np.broadcast_shapes(*shapes))
    except ValueError:
        raise ValueError(
            "operands could not be broadcast together with shapes " + " ".join(str(tuple(s)) for s in shapes)
        ) from None


def _merge(shape, strides):
    """``shape``/``strides`` with axes of length 1 dropped and adjacent axes that step as one
    merged (the same positions, fewer axes)."""
    dims = [(n, s) for n, s in zip(shape, strides) if n != 1]
    out = []
    for n, s in dims:
        if out and out[-1][1] == s * n:
            m, _ = out[-1]
            out[-1] = (m * n, s)
        else:
            out.append((n, s))
    return out


def positions(offset, shape, strides):
    """The lazy int64 pdarray of the flat positions ``offset + sum(idx_k * strides_k)`` of a
    strided view, in the C order of ``shape``."""
    n = prod(shape)
    i = pdarray(_atoll.arange(n, 0, 1))
    dims = _merge(shape, strides)
    out = None
    below = n
    for m, s in dims:
        below //= m
        term = i // below if below > 1 else i
        if below * m != n:
            term = term % m
        if s != 1:
            term = term * s
        out = term if out is None else out + term
    if out is None:
        return pdarray(_atoll.full(n, "int64", builtins.int(offset)))
    return out + builtins.int(offset) if offset else out


def view(a, offset, shape, strides):
    """The strided view of ``a``'s flat values (``offset``, per-axis ``strides`` in elements,
    ``shape``) as a pdarray of ``shape``: a slice of the same storage when it is one
    arithmetic progression, else a gathered copy."""
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
    idx = positions(base_off, shape, base_strides)
    return pdarray(_atoll.gather(a._arr, idx._ex(), n), shape=shape)


def strides_of(a):
    """The C-order strides of ``a``'s shape (its flat values are in C order)."""
    return c_strides(a.shape)


def broadcast_to(a, shape):
    """``a`` broadcast to ``shape`` (NumPy's rules; the same pdarray when the shapes are equal)."""
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


def transpose(a, axes=None):
    """``a`` with its axes permuted (reversed when ``axes`` is None): a gathered copy unless
    the order of the flat values does not change."""
    nd = a.ndim
    if axes is None:
        axes = tuple(range(nd))[::-1]
    else:
        axes = tuple(normalize_axis(x, nd) for x in axes)
        if sorted(axes) != list(range(nd)):
            raise ValueError("axes don't match array")
    shape = tuple(a.shape[k] for k in axes)
    st = c_strides(a.shape)
    return view(a, 0, shape, [st[k] for k in axes])


def with_shape(a, shape):
    """The pdarray ``a``'s flat values given the shape ``shape`` (same size; no copy)."""
    a._materialize()
    return pdarray(a._arr, a._start, a._step, a._size, shape=shape)
