"""The creation functions of the Array API namespace, on Atoll's pdarray creation functions."""

import numpy as np

import atoll as ak

from .array_object import Array, _scalar_array, _unwrap, _wrap

__all__ = [
    "arange",
    "asarray",
    "empty",
    "empty_like",
    "eye",
    "from_dlpack",
    "full",
    "full_like",
    "linspace",
    "meshgrid",
    "ones",
    "ones_like",
    "tril",
    "triu",
    "zeros",
    "zeros_like",
]


def _check_device(device):
    if device not in ("cpu", None):
        raise ValueError(f"Unsupported device {device!r}")


def asarray(obj, /, *, dtype=None, device=None, copy=None):
    """An Array of ``obj``: an Array, a pdarray, a NumPy array, a Python or NumPy scalar, or
    nested sequences of scalars. ``dtype`` converts (None: the input's, or NumPy's inference);
    ``copy=True`` always copies, ``copy=False`` raises ValueError when a copy is needed."""
    _check_device(device)
    if isinstance(obj, Array):
        obj = obj._array
    if isinstance(obj, ak.pdarray):
        if dtype is not None and np.dtype(dtype) != obj.dtype:
            if copy is False:
                raise ValueError("asarray: copy=False, but a conversion of dtype needs a copy")
            return Array._new(obj.astype(dtype))
        return Array._new(obj.copy() if copy else obj)
    if copy is False:
        raise ValueError("asarray: copy=False, but an upload to the locales needs a copy")
    if isinstance(obj, complex) and dtype is None:
        raise TypeError("complex values are not supported in Atoll Arrays")
    a = np.asarray(obj, dtype=dtype)
    if a.ndim == 0:
        return Array._new(_scalar_array(a))
    return Array._new(ak.array(a))


def arange(start, /, stop=None, step=1, *, dtype=None, device=None):
    """The values ``start, start + step, ...`` below ``stop`` (``arange(n)``: ``0 .. n-1``)."""
    _check_device(device)
    if stop is None:
        start, stop = 0, start
    return _wrap(ak.arange(start, stop, step, dtype=dtype))


def _shape(shape):
    return (shape,) if isinstance(shape, (int, np.integer)) else tuple(shape)


def empty(shape, *, dtype=None, device=None):
    """An Array of the shape (values unspecified: zeros here); dtype float64 by default."""
    return zeros(shape, dtype=dtype, device=device)


def empty_like(x, /, *, dtype=None, device=None):
    """An Array of ``x``'s shape and dtype (or ``dtype``), values unspecified (zeros here)."""
    return zeros_like(x, dtype=dtype, device=device)


def zeros(shape, *, dtype=None, device=None):
    """An Array of zeros of the shape; dtype float64 by default."""
    _check_device(device)
    return _wrap(ak.zeros(_shape(shape), dtype=np.float64 if dtype is None else dtype))


def ones(shape, *, dtype=None, device=None):
    """An Array of ones of the shape; dtype float64 by default."""
    _check_device(device)
    return _wrap(ak.ones(_shape(shape), dtype=np.float64 if dtype is None else dtype))


def full(shape, fill_value, *, dtype=None, device=None):
    """An Array of the shape filled with ``fill_value`` (its dtype when ``dtype`` is None)."""
    _check_device(device)
    if dtype is None:
        dtype = np.asarray(fill_value).dtype
    return _wrap(ak.full(_shape(shape), fill_value, dtype=dtype))


def zeros_like(x, /, *, dtype=None, device=None):
    """Zeros of ``x``'s shape and dtype (or ``dtype``)."""
    return zeros(x.shape, dtype=x.dtype if dtype is None else dtype, device=device)


def ones_like(x, /, *, dtype=None, device=None):
    """Ones of ``x``'s shape and dtype (or ``dtype``)."""
    return ones(x.shape, dtype=x.dtype if dtype is None else dtype, device=device)


def full_like(x, /, fill_value, *, dtype=None, device=None):
    """``fill_value`` in ``x``'s shape and dtype (or ``dtype``)."""
    return full(x.shape, fill_value, dtype=x.dtype if dtype is None else dtype, device=device)


def linspace(start, stop, /, num, *, dtype=None, device=None, endpoint=True):
    """``num`` evenly spaced values from ``start`` to ``stop`` (``stop`` excluded when
    ``endpoint`` is False)."""
    _check_device(device)
    return _wrap(ak.linspace(start, stop, num, endpoint=endpoint, dtype=np.float64 if dtype is None else dtype))


def _offsets(n_rows, n_cols):
    """The (n_rows, n_cols) Array of ``column - row``: the diagonal each element lies on."""
    rows = ak.arange(n_rows).reshape((n_rows, 1))
    cols = ak.arange(n_cols).reshape((1, n_cols))
    return cols - rows


def eye(n_rows, n_cols=None, /, *, k=0, dtype=None, device=None):
    """The (n_rows, n_cols) Array with ones on the ``k``-th diagonal and zeros elsewhere."""
    _check_device(device)
    n_cols = n_rows if n_cols is None else n_cols
    return _wrap((_offsets(n_rows, n_cols) == k).astype(np.float64 if dtype is None else dtype))


def _triangle(x, keep):
    a = _unwrap(x)
    if a.ndim < 2:
        raise ValueError("the array must have at least 2 dimensions")
    mask = keep(_offsets(a.shape[-2], a.shape[-1]))
    return _wrap(ak.where(mask, a, ak.zeros((), dtype=a.dtype)))


def tril(x, /, *, k=0):
    """``x`` with the elements above the ``k``-th diagonal zeroed (over the last two axes)."""
    return _triangle(x, lambda d: d <= k)


def triu(x, /, *, k=0):
    """``x`` with the elements below the ``k``-th diagonal zeroed (over the last two axes)."""
    return _triangle(x, lambda d: d >= k)


def meshgrid(*arrays, indexing="xy"):
    """Coordinate Arrays from 1-D Arrays: each broadcast to the grid's shape (``"xy"``: the
    first two axes swapped, ``"ij"``: in order)."""
    if indexing not in ("xy", "ij"):
        raise ValueError("indexing must be 'xy' or 'ij'")
    vals = [_unwrap(a) for a in arrays]
    if any(v.ndim != 1 for v in vals):
        raise ValueError("meshgrid takes 1-D arrays")
    n = len(vals)
    shape = [v.size for v in vals]
    if indexing == "xy" and n >= 2:
        shape[0], shape[1] = shape[1], shape[0]
    out = []
    for i, v in enumerate(vals):
        axis = i
        if indexing == "xy" and n >= 2 and i < 2:
            axis = 1 - i
        s = [1] * n
        s[axis] = v.size
        out.append(_wrap(ak.broadcast_to(v.reshape(tuple(s)), tuple(shape))))
    return out


def from_dlpack(x, /):
    """An Array of the values of a DLPack producer (copied to the locales)."""
    return asarray(np.from_dlpack(x))
