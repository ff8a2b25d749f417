"""Methods of ``pdarray`` that call modules above ``atoll.numpy.pdarrayclass``.

Numeric functions, creation, sorting, set operations, ``stats`` and IO: defined here, where
both are known, and set on the class by ``atoll._attach.attach``; the root
``atoll/__init__.py`` runs this module.
"""

from __future__ import annotations

import builtins
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _atoll
from .._attach import attach
from ..io import to_parquet
from ..stats import corr as _corr, matmul as _matmul, take
from . import _nd, err as _fp_err
from ._bigint import BigIntArray, to_bigint
from .dtypes import (
    _stored_dtype as _dt,
    bool_,
    float64,
    int64,
    is_bigint,
    is_scalar,
    is_str_dtype,
    result,
    uint8,
    uint64,
)
from .numeric import cast, clz, ctz, isnan, parity, popcount, rotl, rotr, where
from .pdarrayclass import (
    _CMP,
    _UFUNC_NAMES,
    _before_write,
    _check_exponent,
    _cmp_mixed_sign,
    _cmp_out_of_range,
    _np_scalar,
    _scalar_value,
    _slice_indices,
    max,
    min,
    pdarray,
)
from .pdarraycreation import arange, array, zeros
from .pdarraysetops import value_counts
from .sorting import argsort as _argsort

if TYPE_CHECKING:
    _Base = pdarray  # the methods see the class they are set on
else:
    _Base = object


def _index_array(k: object) -> Any:  # noqa: ANN401 (an index item)
    """A list or NumPy array in an index as a pdarray (empty: int64, as NumPy takes it).

    Anything else as it is.
    """
    if isinstance(k, (list, np.ndarray)):
        v = np.asarray(k)
        if v.ndim == 0:
            return v[()]
        if v.size == 0 and v.dtype.kind != "b":
            v = v.astype(np.int64)
        return array(v)
    if isinstance(k, pdarray) and k._shape == () and k._dtype.kind in "iu":
        return k[()]  # a 0-d integer array indexes as its value, as in NumPy
    return k


def _index_key(key: object) -> tuple[Any, ...]:
    """``key`` as a tuple of ints, slices, ``Ellipsis``, ``None`` and pdarrays."""
    if not isinstance(key, tuple):
        key = (key,)
    return tuple(_index_array(list(k) if isinstance(k, tuple) else k) for k in key)


def _fits(vshape: tuple[int, ...], shape: tuple[int, ...]) -> tuple[int, ...] | None:
    """``vshape`` without the leading length-1 axes it has beyond ``shape``'s rank.

    None when it does not broadcast to ``shape`` (NumPy's rule for an assigned value).
    """
    vshape = tuple(vshape)
    while len(vshape) > len(shape) and vshape[0] == 1:
        vshape = vshape[1:]
    if len(vshape) > len(shape):
        return None
    try:
        return vshape if tuple(np.broadcast_shapes(vshape, shape)) == tuple(shape) else None
    except ValueError:
        return None


def _bigint_1d(a: Any, shape: tuple[int, ...] | None, name: str) -> BigIntArray:  # noqa: ANN401 (a bigint array)
    """The bigint array ``a`` given ``shape``: a new 1-D bigint array of the same values.

    And ``max_bits``: bigint arrays are 1-D; a shape of another rank is a ValueError.
    """
    if shape is not None and len(shape) != 1:
        raise ValueError(f"{name}: bigint arrays are 1-D, got shape {shape}")
    return BigIntArray(a._limbs, a.max_bits)


class _pdarrayMethods(_Base):
    def astype(self, dtype: Any) -> pdarray:  # noqa: ANN401 (any dtype-like)
        """A copy (lazy) converted to ``dtype`` (``str``: a Strings; see ``ak.cast``)."""
        if is_bigint(dtype) or (dtype is not bool and is_str_dtype(dtype)):
            out: pdarray = cast(self, dtype)
            return out
        d = _dt(dtype)
        lazy: pdarray = pdarray._lazy(_atoll.cast(self._ex(), d.name), self._size, self._nodes + 1, self._shape)
        return lazy

    # ----- elementwise -------------------------------------------------------------------
    def _binop(self, other: Any, op: str, reverse: bool = False) -> Any:  # noqa: ANN401 (an operand; a pdarray or NotImplemented)
        shape = self._shape
        if isinstance(other, pdarray) and (
            self._shape is not None
            or other._shape is not None
            or (self._size != other._size and 1 in (self._size, other._size))
        ):
            if self.shape != other.shape:
                # NumPy's broadcasting: each side made the common shape (a strided gather).
                left, right = (other, self) if reverse else (self, other)
                common_shape = _nd.broadcast_shapes(left.shape, right.shape)
                return _nd.broadcast_to(self, common_shape)._binop(_nd.broadcast_to(other, common_shape), op, reverse)
        if isinstance(other, pdarray):
            if other._size != self._size:
                left, right = (other, self) if reverse else (self, other)
                raise ValueError(
                    f"operands could not be broadcast together: pdarray {op} pdarray of sizes {left._size} and "
                    f"{right._size} (dtypes {left._dtype.name} and {right._dtype.name})"
                )
            od, on = other._dtype, other._nodes
        elif is_scalar(other):
            od, on = None, 1
            if op in _CMP and isinstance(other, np.integer) and self._dtype.kind in "iu":
                # NumPy compares integers by value whatever their signedness (int64 against a
                # uint64 scalar is not a float64 comparison): as a Python int, by value.
                other = builtins.int(other)
            if op in _CMP and isinstance(other, builtins.int) and not isinstance(other, builtins.bool):
                r = _cmp_out_of_range(self, other, op, reverse)
                if r is not None:
                    return r
            if (
                type(other) is builtins.int
                and not -(1 << 63) <= other < (1 << 64)
                and self._dtype not in (float64, uint8)
                and op in ("+", "-", "*", "//", "%", "**", "&", "|", "^")
            ):
                # Arkouda's rule: a Python int beyond 64 bits makes the result a bigint array.
                return to_bigint(self)._arith(other, op, reverse)
        elif isinstance(other, (np.ndarray, list, tuple)):
            return self._binop(array(other), op, reverse)
        else:
            return NotImplemented
        a_dt = self._dtype
        if op in _CMP and od is not None and {a_dt, od} == {int64, uint64}:
            return _cmp_mixed_sign(self, other, op, reverse)
        if od is None:
            try:
                common = result(a_dt, other)
            except (OverflowError, TypeError) as e:
                raise TypeError(f"other: {e}") from None
        else:
            common = result(a_dt, od)
        if op == "/":
            common = float64
        elif op in ("//", "%", "**", "-") and common == bool_:
            if op == "-":
                raise TypeError(
                    "numpy boolean subtract, the `-` operator, is not supported, use the bitwise_xor, the `^` operator, or the logical_xor function instead."
                )
            common = int64
        elif op in ("&", "|", "^", "<<", ">>") and common == float64:
            raise TypeError(f"other: unsupported operand dtype {common.name} for {op}")
        elif op in ("<<", ">>") and common == bool_:
            common = int64
        if op == "**" and common in (int64, uint64):
            _check_exponent(self if reverse else other)
        x = self._cast(common)
        if od is None:
            y = _atoll.scalar(_scalar_value(other, common), common.name)
        else:
            y = other._cast(common)
        if reverse:
            x, y = y, x
        out = pdarray._lazy(_atoll.binary(op, x, y), self._size, self._nodes + on + 1, shape)
        if _fp_err._active[0] and op in _UFUNC_NAMES:
            # Floating-point errors (ak.seterr / ak.errstate), checked only when a mode asks.
            _fp_err.check(_UFUNC_NAMES[op], out, *((other, self) if reverse else (self, other)))
        return out

    def _index_expr(self, idx: pdarray) -> pdarray:
        """Int64 positions in the base array of the pdarray ``idx`` (checked, negatives wrapped)."""
        if idx._dtype not in (int64, uint64, uint8):
            raise TypeError(f"key: unsupported pdarray index dtype {idx._dtype.name}")
        lo = 0
        if idx._size:
            lo, hi = builtins.int(min(idx)), builtins.int(max(idx))
            if lo < -self._size or hi >= self._size:
                bad = lo if lo < -self._size else hi
                raise IndexError(f"index {bad} is out of bounds for axis 0 with size {self._size}")
        i = idx.astype(int64) if idx._dtype != int64 else idx
        if lo < 0:
            i = where(i < 0, i + self._size, i)
        if self._start != 0 or self._step != 1:
            i = i * self._step + self._start
        return i

    def __getitem__(self, key: Any) -> Any:  # noqa: ANN401 (any index; a scalar or a pdarray)
        if self._shape is None:
            # 1-D: the direct paths (one element, a slice of the same storage, a gather).
            if isinstance(key, (builtins.int, np.integer)) and not isinstance(key, (builtins.bool, np.bool_)):
                self._materialize()
                return _np_scalar(_atoll.get(self._arr, self._position(key)), self._dtype)
            if isinstance(key, slice):
                self._materialize()
                s, e, st = _slice_indices(key, self._size)
                n = len(range(s, e, st))
                step = self._step * st if n > 1 else 1  # one element: any step (2**80 too) is 1
                return pdarray(self._arr, self._start + s * self._step if n else 0, step, n)
            if isinstance(key, pdarray) and key._shape is None:
                if key._dtype == bool_:
                    if key._size != self._size:
                        raise IndexError(
                            f"boolean index did not match indexed array along axis 0; size of axis is {self._size} but size of corresponding boolean axis is {key._size}"
                        )
                    return pdarray(_atoll.compress(self._ex(), key._ex(), self._size))
                self._materialize()
                i = self._index_expr(key)
                return pdarray(_atoll.gather(self._arr, i._ex(), i._size))
            if isinstance(key, (list, np.ndarray)) and np.ndim(key) == 1:
                return self[_index_array(key)]
            if isinstance(key, tuple) and len(key) == 1 and not isinstance(key[0], tuple):
                return self[key[0]]
        # Any rank: NumPy's basic indexing is a strided view, advanced indexing one gather.
        return _nd.take_selection(self, _nd.select(self, _index_key(key)))

    def _values_for(self, value: object, n: int, shape: tuple[int, ...] | None = None, check: bool = False) -> Any:  # noqa: ANN401 (a native expression)
        """The expression of ``value`` (a scalar or a pdarray of ``n`` elements) in our dtype.

        With ``shape``, a pdarray broadcast to ``shape`` (NumPy's rule; ``check``: the check
        alone).
        """
        if isinstance(value, pdarray) and shape is None and value._size != n:
            shape = (n,)  # a value of one element broadcasts, as in NumPy
        if isinstance(value, pdarray) and shape is not None:
            vshape = _fits(value.shape, shape)
            if vshape is None:
                raise ValueError(f"could not broadcast input array from shape {value.shape} into shape {shape}")
            if check:
                return None
            v = value if vshape == tuple(shape) else _nd.broadcast_to(_nd.with_shape(value, vshape), shape)
            return v._cast(self._dtype)
        if isinstance(value, pdarray):
            return value._cast(self._dtype)
        if is_scalar(value):
            return _atoll.scalar(_scalar_value(value, self._dtype), self._dtype.name)
        if isinstance(value, (list, tuple, np.ndarray)):
            return self._values_for(array(value), n, shape, check)
        raise TypeError(f"value: unsupported type {type(value).__name__}")

    def _assign(self, key: Any, value: Any, spare: object = None) -> None:  # noqa: ANN401 (any index and value)
        """``self[key] = value``; ``spare``: a lazy value made for this assignment only."""
        self._materialize()
        if isinstance(value, (list, tuple, np.ndarray)):
            value = array(value)
        if isinstance(value, pdarray) and value._shape == ():
            value = value[()]  # a 0-d array assigns as its value
        if self._shape is not None or not (
            isinstance(key, (builtins.int, np.integer, slice)) or (isinstance(key, pdarray) and key._shape is None)
        ):
            self._assign_nd(key, value, spare)
            return
        if isinstance(key, (builtins.int, np.integer)) and not isinstance(key, (builtins.bool, np.bool_)):
            pos = self._position(key)
            if not is_scalar(value):
                raise TypeError(f"value: expected a scalar, got {type(value).__name__}")
            v = _scalar_value(value, self._dtype)
            _before_write(self._arr)
            _atoll.set(self._arr, pos, v)
            return
        if isinstance(key, slice):
            s, e, st = key.indices(self._size)
            n = len(range(s, e, st))
            start, step = self._start + s * self._step, self._step * st
            self._values_for(value, n)  # checks the value before anything is computed
            _before_write(self._arr, spare)
            ex = self._values_for(value, n)
            if n == 0:
                return
            if step > 0:
                _atoll.assign(self._arr, start, step, n, ex)
            else:
                idx = arange(start, start + n * step, step)
                _atoll.scatter(self._arr, idx._ex(), ex, n)
            return
        if isinstance(key, pdarray):
            if key._dtype == bool_:
                if key._size != self._size:
                    raise IndexError(
                        f"boolean index did not match indexed array along axis 0; size of axis is {self._size} but size of corresponding boolean axis is {key._size}"
                    )
                if is_scalar(value):
                    w = where(key, value, self)
                    self._assign(slice(None), w, spare=w)
                    return
                key = arange(self._size)[key]
            i = self._index_expr(key)
            self._values_for(value, key._size)
            _before_write(self._arr, spare)
            ex = self._values_for(value, key._size)
            if key._size:
                _atoll.scatter(self._arr, i._ex(), ex, key._size)
            return
        raise TypeError(f"key: unsupported index type {type(key).__name__}")

    def _assign_nd(self, key: Any, value: Any, spare: object = None) -> None:  # noqa: ANN401 (any index and value)
        """``self[key] = value`` with NumPy's indexing rules for any rank.

        ``self`` is materialized, ``value`` a scalar or a pdarray: the value broadcast to the
        selection's shape, written in place (a strided assignment when the selection is one
        progression, else a scatter).
        """
        sel = _nd.select(self, _index_key(key))
        if sel.scalar:
            if not is_scalar(value):
                raise TypeError(f"value: expected a scalar, got {type(value).__name__}")
            v = _scalar_value(value, self._dtype)
            _before_write(self._arr)
            _atoll.set(self._arr, self._start + self._step * sel.offset, v)
            return
        pos, shape, strides = sel.pos, sel.shape, None
        if sel.mask is not None:
            whole, m = _nd.flat(self), _nd.flat(sel.mask)
            if is_scalar(value):
                w = where(m, value, whole)
                whole._assign(slice(None), w, spare=w)
                return
            pos = arange(self._size)[m]
            shape = (pos._size,)
        elif pos is None:
            strides = [self._step * st for st in sel.strides]
        n = _nd.prod(shape)
        self._values_for(value, n, shape, check=True)  # checks the value before anything is computed
        _before_write(self._arr, spare)
        ex = self._values_for(value, n, shape)
        if n == 0:
            return
        if strides is not None:
            base = self._start + self._step * sel.offset
            dims = _nd._merge(shape, strides)
            if not dims:
                _atoll.assign(self._arr, base, 1, 1, ex)
            elif len(dims) == 1 and dims[0][1] > 0:
                _atoll.assign(self._arr, base, dims[0][1], n, ex)
            else:
                _atoll.scatter(self._arr, _nd.positions(base, shape, strides)._ex(), ex, n)
            return
        if self._start != 0 or self._step != 1:
            pos = pos * self._step + self._start
        _atoll.scatter(self._arr, pos._ex(), ex, n)

    # ----- shape ------------------------------------------------------------------------
    def reshape(self, *shape: Any, order: str = "C") -> pdarray:  # noqa: ANN401 (ints or a tuple)
        """The values in C order given ``shape`` (one axis may be -1); no copy."""
        if order not in ("C", "c"):
            raise NotImplementedError(f"reshape: order {order!r}; only C order is supported")
        if len(shape) == 1 and not isinstance(shape[0], (builtins.int, np.integer)):
            shape = tuple(shape[0])
        new = _nd.reshape_shape(self._size, shape)
        if isinstance(self, BigIntArray):
            return _bigint_1d(self, new, "reshape")
        out: pdarray = _nd.with_shape(self, new)
        return out

    def flatten(self) -> pdarray:
        """A 1-D copy of the values in C order."""
        if isinstance(self, BigIntArray):
            return _bigint_1d(self, None, "flatten")
        return pdarray(_atoll.evaluate(self._ex(), self._size))

    def ravel(self) -> pdarray:
        """The values in C order as a 1-D array (no copy)."""
        if isinstance(self, BigIntArray):
            return _bigint_1d(self, None, "ravel")
        out: pdarray = _nd.with_shape(self, None)
        return out

    def transpose(self, *axes: Any) -> pdarray:  # noqa: ANN401 (ints, a tuple or None)
        """The array with its axes reversed, or permuted as ``axes`` says."""
        perm: Any = axes
        if len(axes) == 1 and (axes[0] is None or isinstance(axes[0], (tuple, list))):
            perm = axes[0]
        out: pdarray = _nd.transpose(self, perm if perm else None)
        return out

    @property
    def T(self) -> pdarray:
        """The transpose (axes reversed)."""
        out: pdarray = _nd.transpose(self)
        return out

    def __matmul__(self, other: object) -> Any:  # noqa: ANN401 (a pdarray or NotImplemented)
        """``self @ other`` (``ak.matmul``)."""
        return _matmul(self, other) if isinstance(other, pdarray) else NotImplemented

    def __rmatmul__(self, other: object) -> Any:  # noqa: ANN401 (a pdarray or NotImplemented)
        """``other @ self`` (``ak.matmul``)."""
        return _matmul(other, self) if isinstance(other, pdarray) else NotImplemented

    def argsort(self, algorithm: object = None, axis: int | None = -1, ascending: bool = True) -> pdarray:
        """The permutation that sorts the values (``ak.argsort``)."""
        return _argsort(self, algorithm=algorithm, axis=axis, ascending=ascending)  # type: ignore[arg-type]  # Arkouda's names pass through

    def to_parquet(
        self, prefix_path: str, dataset: str = "array", mode: str = "truncate", compression: str | None = None
    ) -> None:
        """Writes the array as ``dataset`` to one Parquet file per locale (``ak.to_parquet``)."""
        to_parquet({dataset: self}, prefix_path, mode=mode, compression=compression)

    def take(self, indices: object, axis: int | None = None) -> pdarray:
        """``self[indices]`` (NumPy's ``take``)."""
        out: pdarray = take(self, indices, axis)
        return out

    def value_counts(self) -> tuple[pdarray, pdarray]:
        """The distinct values and their counts (``ak.value_counts``)."""
        out: tuple[pdarray, pdarray] = value_counts(self)
        return out

    def popcount(self) -> pdarray:
        """The number of set bits of each value (``ak.popcount``)."""
        out: pdarray = popcount(self)
        return out

    def parity(self) -> pdarray:
        """The parity of the set bits of each value (``ak.parity``)."""
        out: pdarray = parity(self)
        return out

    def clz(self) -> pdarray:
        """The number of leading zero bits of each value (``ak.clz``)."""
        out: pdarray = clz(self)
        return out

    def ctz(self) -> pdarray:
        """The number of trailing zero bits of each value (``ak.ctz``)."""
        out: pdarray = ctz(self)
        return out

    def rotl(self, other: object) -> pdarray:
        """The values rotated left by ``other`` bits (``ak.rotl``)."""
        out: pdarray = rotl(self, other)
        return out

    def rotr(self, other: object) -> pdarray:
        """The values rotated right by ``other`` bits (``ak.rotr``)."""
        out: pdarray = rotr(self, other)
        return out

    # ----- missing values (pandas' words for a column) -------------------------------------
    def isna(self) -> pdarray:
        """Where the values are missing (bool), as pandas' ``Series.isna``.

        NaN for float64; integers, uint64, bools and bigints hold no missing value (all False).
        """
        out: pdarray
        if self._dtype == float64:
            out = isnan(self)
            return out
        out = zeros(self._size, bool_)
        return out

    isnull = isna

    def notna(self) -> pdarray:
        """Where the values are present (bool): ``~isna()``."""
        out: pdarray = ~self.isna()
        return out

    notnull = notna

    def fillna(self, value: object) -> pdarray:
        """A copy with the missing values (NaN) replaced by ``value``, as pandas' ``Series.fillna``.

        ``value`` is a scalar, or a pdarray of one value a row; arrays that hold no missing
        value, and ``value=None`` (a missing value again), give a copy.
        """
        if not (value is None or is_scalar(value) or isinstance(value, pdarray)):
            raise TypeError(
                f'"value" parameter must be a scalar or a pdarray, but you passed a "{type(value).__name__}"'
            )
        if isinstance(value, pdarray) and value.size != self._size:
            raise ValueError(f"fillna: {value.size} values to fill {self._size} rows")
        out: pdarray
        if self._dtype != float64 or value is None:
            out = self.copy()
            return out
        out = where(isnan(self), value, self)
        return out

    def dropna(self) -> pdarray:
        """The values that are not missing (NaN), in order, as pandas' ``Series.dropna``."""
        out: pdarray
        if self._dtype != float64:
            out = self.copy()
            return out
        out = self[~isnan(self)]
        return out

    def corr(self, y: pdarray) -> float:
        """Pearson's correlation coefficient of the array and ``y`` (``ak.corr``).

        The sample covariance over the product of the sample standard deviations; NaN when a
        value is NaN or a side is constant.
        """
        out: float = _corr(self, y)
        return out


attach(pdarray, _pdarrayMethods)
