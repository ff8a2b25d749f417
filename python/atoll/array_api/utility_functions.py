"""The utility functions of the Array API namespace, and Arkouda's additions to it (``clip``,
``diff``, ``pad``, ``trapz``/``trapezoid``)."""

import numpy as np

import atoll as ak
from atoll.numpy._nd import normalize_axis

from .array_object import _unwrap, _wrap

__all__ = ["all", "any", "clip", "diff", "pad", "trapezoid", "trapz"]


def _refuse(name, a, *dtypes):
    """RuntimeError (Arkouda's) when ``a`` has one of the dtype names ``dtypes``."""
    if isinstance(a, ak.pdarray) and str(a.dtype) in dtypes:
        raise RuntimeError(f"Error executing command: {name} does not support dtype {a.dtype}")


def _truth(fn, x, axis, keepdims):
    a = _unwrap(x)
    r = fn(a, axis=axis, keepdims=keepdims)
    if axis is None and keepdims and not isinstance(r, ak.pdarray):
        return _wrap(ak.full((1,) * a.ndim, bool(r), dtype=np.bool_))
    return _wrap(r)


def all(x, /, *, axis=None, keepdims=False):
    """Whether every element is true (nonzero), over all axes or along ``axis``."""
    return _truth(ak.all, x, axis, keepdims)


def any(x, /, *, axis=None, keepdims=False):
    """Whether some element is true (nonzero), over all axes or along ``axis``."""
    return _truth(ak.any, x, axis, keepdims)


def clip(a, a_min, a_max, /):
    """Each element of ``a`` limited to ``[a_min, a_max]`` (numeric dtypes only)."""
    x = _unwrap(a)
    _refuse("clip", x, "bool", "bigint")
    return _wrap(ak.clip(x, _unwrap(a_min), _unwrap(a_max)))


def diff(a, /, n=1, axis=-1, prepend=None, append=None):
    """The ``n``-th differences along ``axis`` (``prepend``/``append`` joined first)."""
    x = _unwrap(a)
    _refuse("diff", x, "bigint")
    return _wrap(ak.diff(x, n=n, axis=axis, prepend=_unwrap(prepend), append=_unwrap(append)))


def trapz(y, x=None, dx=1.0, axis=-1):
    """The integral of ``y`` along ``axis`` by the trapezoidal rule, over the sample points
    ``x`` (1-D of ``y``'s length along the axis, or ``y``'s shape) or a spacing ``dx``:
    ``sum(d * (y[1:] + y[:-1]) / 2)`` as NumPy's ``trapezoid`` computes it."""
    yv = _unwrap(y)
    _refuse("trapz", yv, "bigint")
    xv = _unwrap(x)
    _refuse("trapz", xv, "bigint")
    axis = normalize_axis(axis, yv.ndim)
    lead = (slice(None),) * axis
    up, down = lead + (slice(1, None),), lead + (slice(None, -1),)
    if xv is None:
        d = dx
    elif xv.ndim == 1:
        d = ak.diff(xv)
        if yv.ndim > 1:
            shape = [1] * yv.ndim
            shape[axis] = d.size
            d = d.reshape(tuple(shape))
    else:
        d = ak.diff(xv, axis=axis)
    return _wrap(ak.sum(d * (yv[up] + yv[down]) / 2.0, axis=axis))


trapezoid = trapz


def _pairs(value, ndim, name):
    """``value`` (a scalar, a pair, or one pair per axis) as one ``(before, after)`` per axis."""
    v = np.asarray(value, dtype=object)
    if v.ndim == 0:
        return [(v.item(), v.item())] * ndim
    if v.shape == (1,):
        return [(v[0], v[0])] * ndim
    if v.shape == (2,):
        return [(v[0], v[1])] * ndim
    if v.shape == (1, 2):
        return [(v[0, 0], v[0, 1])] * ndim
    if v.shape == (ndim, 2):
        return [(v[k, 0], v[k, 1]) for k in range(ndim)]
    raise ValueError(f"{name}: expected a scalar, a pair or {ndim} pairs, got shape {v.shape}")


def pad(array, pad_width, mode="constant", constant_values=0):
    """``array`` with ``pad_width`` constant elements before and after each axis (NumPy's
    ``pad`` with ``mode="constant"``): axis by axis, blocks of the constants joined on."""
    a = _unwrap(array)
    _refuse("pad", a, "bigint")
    if mode != "constant":
        raise NotImplementedError(f"pad: mode {mode!r} (only 'constant')")
    widths = _pairs(pad_width, a.ndim, "pad_width")
    values = _pairs(constant_values, a.ndim, "constant_values")
    for k, ((before, after), (cb, ca)) in enumerate(zip(widths, values)):
        if int(before) < 0 or int(after) < 0:
            raise ValueError("pad: widths must be non-negative")
        parts = []
        for width, value in ((int(before), cb), (None, None), (int(after), ca)):
            if width is None:
                parts.append(a)
            elif width:
                shape = list(a.shape)
                shape[k] = width
                parts.append(ak.full(tuple(shape), value, dtype=a.dtype))
        if len(parts) > 1:
            a = ak.concatenate(parts) if a.ndim == 1 else ak.concatenate(parts, axis=k)
    return _wrap(a)
