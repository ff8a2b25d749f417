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
from .pdarrayclass import _np_scalar, _slice_indices, max as _max, min as _min, pdarray

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
    return out + builtins.int(offset) if offset else out


def view(a, offset, shape, strides):
    """The strided view of ``a``'s flat values (``offset``, per-axis ``strides`` in elements,
    ``shape``) as a pdarray of ``shape``: a slice of the same storage when it is one
    arithmetic progression, else a copy made by ``_atoll.strided`` (each locale walks its
    output part and fetches the source interval it needs in bulk, or gathers when sparse)."""
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


def axis_slice(a, axis, start, stop, step=1):
    """``a[..., start:stop:step, ...]`` along ``axis`` (a normalized axis; ``start``/``stop``
    in range, as ``slice.indices`` gives them): a strided view."""
    shape = list(a.shape)
    n = len(range(start, stop, step))
    st = c_strides(a.shape)
    offset = start * st[axis] if n else 0
    shape[axis] = n
    strides = list(st)
    strides[axis] = st[axis] * step
    return view(a, offset, tuple(shape), strides)


def moveaxis(a, source, destination):
    """``a`` with axis ``source`` moved to ``destination`` (both normalized), the other axes
    in order."""
    order = [k for k in range(a.ndim) if k != source]
    order.insert(destination, source)
    return transpose(a, order)


# ----- indexing: NumPy's basic and advanced rules -------------------------------------------

INDEX_TYPES = "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean arrays are valid indices"


def _is_int(k):
    return isinstance(k, (builtins.int, np.integer)) and not isinstance(k, (builtins.bool, np.bool_))


class Selection:
    """What an index selects of an array's flat values (C order), and the shape it has.

    ``scalar``: one element (an int on every axis), at ``offset``. Basic indexing (``pos`` and
    ``mask`` None): the strided view ``offset``/``strides``. A boolean array of the array's
    whole shape: ``mask`` (select in C order; ``shape`` is not computed). Advanced indexing: ``pos``, the lazy int64 flat
    positions of the selection in the C order of ``shape``."""

    __slots__ = ("shape", "scalar", "offset", "strides", "pos", "mask")

    def __init__(self, shape, scalar=False, offset=0, strides=(), pos=None, mask=None):
        self.shape = tuple(shape)
        self.scalar = scalar
        self.offset = offset
        self.strides = tuple(strides)
        self.pos = pos
        self.mask = mask


def flat(a):
    """``a``'s flat values as a 1-D pdarray (no copy; a lazy ``a`` stays lazy)."""
    if a._shape is None:
        return a
    if a._expr is not None:
        return pdarray._lazy(a._expr, a._size, a._nodes)
    return pdarray(a._arr, a._start, a._step, a._size)


def _wrapped(k, n, axis):
    """The int64 flat pdarray of the integer index array ``k`` for an axis of ``n`` elements:
    checked against the bounds (NumPy's IndexError) and negatives counted from the end."""
    f = flat(k)
    lo = 0
    if f._size:
        lo, hi = builtins.int(_min(f)), builtins.int(_max(f))
        if lo < -n or hi >= n:
            raise IndexError(f"index {lo if lo < -n else hi} is out of bounds for axis {axis} with size {n}")
    if f._dtype != np.int64:
        f = pdarray._lazy(_atoll.cast(f._ex(), "int64"), f._size, f._nodes + 1)
    return f % n if lo < 0 else f


def _broadcast_flat(f, src, shape):
    """The flat values ``f`` (of shape ``src``) broadcast to ``shape``, as a 1-D pdarray."""
    if tuple(src) == tuple(shape):
        return f
    st = c_strides(src)
    lead = len(shape) - len(src)
    strides = [0] * lead + [0 if src[k] == 1 else st[k] for k in range(len(src))]
    return flat(view(f, 0, shape, strides))


def select(a, key):
    """The ``Selection`` of ``a[key]`` (``key`` a tuple of ints, slices, ``Ellipsis``, ``None``
    and pdarrays), with NumPy's rules and errors. Integer arrays (and ints, when there is an
    array) broadcast together; their axes take the place of the first of them when they are
    adjacent in the key, else they come first. A boolean array indexes as its nonzero
    positions over the axes it spans."""
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
    out = []  # the basic output axes: (length, stride)
    adv = []  # the advanced indices: (offsets: an int, a flat int64 pdarray, or an integer array to check; shape)
    adv_keys = []  # their places in the key
    adv_out = None  # where their axes go among the basic output axes when adjacent
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
        for q, (f, s) in enumerate(adv):
            if isinstance(f, tuple):
                k, n, axis, stride = f
                w = _wrapped(k, n, axis)
                adv[q] = (w * stride if stride != 1 else w, s)
    if total == 0:
        return Selection(oshape, pos=pdarray(_atoll.full(0, "int64", 0)))
    i = pdarray(_atoll.arange(total, 0, 1))
    below = total
    pos = None

    def add(term):
        nonlocal pos
        pos = term if pos is None else pos + term

    def axis_term(m, s):
        nonlocal below
        below //= m
        if m == 1:
            return None
        t = i // below if below > 1 else i
        return t % m if below * m != total else t

    for m, s in before:
        t = axis_term(m, s)
        if t is not None and s:
            add(t * s if s != 1 else t)
    jb = axis_term(nb, None) if nb != 1 else None
    below_after = below
    for f, s in adv:
        if isinstance(f, builtins.int):
            offset += f
            continue
        f = _broadcast_flat(f, s, bshape)
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


def coords(shape):
    """The lazy flat index ``i`` of an array of ``shape`` (C order) and its per-axis
    coordinates (``(i // c_k) % n_k``, the operations that cannot change it left out)."""
    n = prod(shape)
    i = pdarray(_atoll.arange(n, 0, 1))
    out = []
    for c, m in zip(c_strides(shape), shape):
        t = i // c if c > 1 else i
        out.append(t % m if c * m != n else t)
    return i, out


def gather_flat(a, pos, shape):
    """The elements of ``a``'s flat values at the int64 pdarray ``pos`` (positions in range,
    one per element of ``shape``, in C order), as a pdarray of ``shape``: one gather."""
    a._materialize()
    n = prod(shape)
    if n == 0:
        return view(a, 0, shape, [0] * len(shape))
    if a._start or a._step != 1:
        pos = pos * a._step + a._start
    return pdarray(_atoll.gather(a._arr, pos._ex(), n), shape=tuple(shape))


def take_selection(a, sel):
    """``a[key]`` for the ``Selection`` ``sel`` of ``key``: a NumPy scalar, a strided view (no
    copy when it is one arithmetic progression), the masked values, or one gather."""
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


def take_axis(a, idx, axis):
    """``a`` with the int64 pdarray ``idx`` (1-D, values in ``range(a.shape[axis])``) selecting
    along ``axis``: one gather, ``idx`` read at each output element's coordinate on the axis."""
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
