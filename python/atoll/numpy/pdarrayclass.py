"""The ``pdarray``: a 1-D distributed array, or a lazy elementwise expression over some.

Elementwise operators build a fused expression (checked at once for dtype errors) that runs
as one owner-computes loop when its value is needed: printing, indexing, a reduction,
``to_ndarray``, or an assignment (``a[:] = b + 3 * c`` writes in place, no temporary).
"""

import builtins
import weakref

import numpy as np

from .. import _atoll
from .dtypes import bool_, float64, int64, uint64, uint8, is_scalar, result
from .dtypes import dtype as _dt, is_bigint, is_str_dtype
from ..core import client
from .._session import num_locales

# Lazy arrays whose value is not computed yet. Before an array is written, the lazy arrays
# that read it are computed (`_before_write`), so each keeps the value its expression had on
# the line that built it, whatever is written later.
_pending = weakref.WeakValueDictionary()
_MAX_NODES = 24  # deeper trees are computed (loops such as x = x + 1)
# Eager evaluation (``ATOLL_EAGER=1`` or ``ak.set_eager(True)``): every elementwise result is
# computed on the line that makes it, as Arkouda does; for timings of single operations.
_EAGER = [_atoll.eager_by_default()]
PRINT_THRESHOLD = 100


def _before_write(arr, spare=None):
    """Computes every lazy array that reads the native array ``arr``, which is about to be
    written. ``spare`` is a lazy value that the caller assigns and then drops (its expression
    may read ``arr``: the native side evaluates it before writing)."""
    for p in list(_pending.values()):
        if p is not spare and p._expr is not None and p._expr.reads(arr):
            p._materialize()


class pdarray:
    """A distributed 1-D array of int64, uint64, float64, bool or uint8 (Arkouda's pdarray)."""

    __slots__ = ("_arr", "_start", "_step", "_size", "_expr", "_nodes", "_dtype", "__weakref__")

    # NumPy defers to pdarrays: ``np.int64(2) - a`` and ``ndarray + a`` call our reflected
    # operators and give pdarrays (NumPy's ufuncs called on a pdarray directly raise TypeError).
    __array_priority__ = 1000
    __array_ufunc__ = None
    objType = "pdarray"
    BinOps = frozenset(
        ["+", "-", "*", "/", "//", "%", "<", ">", "<=", ">=", "!=", "==", "&", "|", "^", "<<", ">>", ">>>", "<<<", "**"]
    )
    OpEqOps = frozenset(["+=", "-=", "*=", "/=", "%=", "//=", "&=", "|=", "^=", "<<=", ">>=", "**="])

    def __init__(self, arr=None, start=0, step=1, size=None, expr=None, dtype=None, nodes=1):
        self._arr = arr
        self._start = start
        self._step = step
        self._size = arr.size if size is None else size
        self._expr = expr
        self._nodes = nodes
        self._dtype = np.dtype(dtype if dtype is not None else arr.dtype)
        if expr is not None:
            _pending[id(self)] = self

    @classmethod
    def _lazy(cls, ex, size, nodes):
        p = cls(None, 0, 1, size, ex, ex.dtype, nodes)
        if nodes > _MAX_NODES or _EAGER[0]:
            p._materialize()
        return p

    # ----- state -------------------------------------------------------------------------
    def _materialize(self):
        if self._expr is not None:
            self._arr = _atoll.evaluate(self._expr, self._size)
            self._start, self._step, self._expr, self._nodes = 0, 1, None, 1
            _pending.pop(id(self), None)
        return self

    def _ex(self):
        if self._expr is not None:
            return self._expr
        return _atoll.leaf(self._arr, self._start, self._step, self._size)

    def _whole(self):
        """The materialized array, as a whole native array (copied when a selection)."""
        self._materialize()
        if self._start == 0 and self._step == 1 and self._size == self._arr.size:
            return self._arr
        return _atoll.evaluate(self._ex(), self._size)

    # ----- attributes --------------------------------------------------------------------
    @property
    def dtype(self):
        return self._dtype

    @property
    def size(self):
        return self._size

    @property
    def ndim(self):
        return 1

    @property
    def shape(self):
        return (self._size,)

    @property
    def itemsize(self):
        return self._dtype.itemsize

    @property
    def nbytes(self):
        return self._size * self._dtype.itemsize

    def __len__(self):
        return self._size

    def astype(self, dtype):
        """A copy (lazy) converted to ``dtype`` (``str``: a Strings; see ``ak.cast``)."""

        if is_bigint(dtype) or (dtype is not bool and is_str_dtype(dtype)):
            from .numeric import cast

            return cast(self, dtype)
        d = _dt(dtype)
        return pdarray._lazy(_atoll.cast(self._ex(), d.name), self._size, self._nodes + 1)

    # ----- conversion --------------------------------------------------------------------
    def to_ndarray(self):
        """The values as a NumPy array (gathered to the driver with one copy)."""
        out = np.empty(self._size, dtype=self._dtype)
        if self._size:
            _atoll.to_buffer(self._ex(), self._size, out.view(np.uint8) if self._dtype == bool_ else out)
        return out

    def tolist(self):
        return self.to_ndarray().tolist()

    def __array__(self, dtype=None, copy=None):
        a = self.to_ndarray()
        return a if dtype is None else a.astype(dtype)

    def __iter__(self):
        return iter(self.to_ndarray())

    def _fmt(self):

        limit = getattr(client, "pdarrayIterThresh", PRINT_THRESHOLD)  # Arkouda's setting
        if self._size <= limit:
            a = self.to_ndarray()
            return np.array2string(a, separator=" ", threshold=limit + 1, max_line_width=10**9)
        head = self[:3].to_ndarray()
        tail = self[-3:].to_ndarray()
        both = np.concatenate([head, tail])
        s = np.array2string(both, separator=" ", max_line_width=10**9)[1:-1].split()
        return "[" + " ".join(s[:3]) + " ... " + " ".join(s[3:]) + "]"

    def __str__(self):
        return self._fmt()

    def __repr__(self):
        return f"array({self._fmt()})"

    def __bool__(self):
        if self._size != 1:
            raise ValueError(
                "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()"
            )
        return builtins.bool(self[0])

    # ----- elementwise -------------------------------------------------------------------
    def _binop(self, other, op, reverse=False):
        if isinstance(other, pdarray):
            if other._size != self._size:
                raise ValueError(f"other: size mismatch {self._size} {other._size}")
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
                from ._bigint import to_bigint

                return to_bigint(self)._arith(other, op, reverse)
        elif isinstance(other, (np.ndarray, list, tuple)):
            from .pdarraycreation import array

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
        return pdarray._lazy(_atoll.binary(op, x, y), self._size, self._nodes + on + 1)

    def _cast(self, d):
        ex = self._ex()
        return ex if self._dtype == d else _atoll.cast(ex, d.name)

    def __add__(self, o):
        return self._binop(o, "+")

    def __radd__(self, o):
        return self._binop(o, "+", True)

    def __sub__(self, o):
        return self._binop(o, "-")

    def __rsub__(self, o):
        return self._binop(o, "-", True)

    def __mul__(self, o):
        return self._binop(o, "*")

    def __rmul__(self, o):
        return self._binop(o, "*", True)

    def __truediv__(self, o):
        return self._binop(o, "/")

    def __rtruediv__(self, o):
        return self._binop(o, "/", True)

    def __floordiv__(self, o):
        return self._binop(o, "//")

    def __rfloordiv__(self, o):
        return self._binop(o, "//", True)

    def __mod__(self, o):
        return self._binop(o, "%")

    def __rmod__(self, o):
        return self._binop(o, "%", True)

    def __pow__(self, o):
        return self._binop(o, "**")

    def __rpow__(self, o):
        return self._binop(o, "**", True)

    def __lt__(self, o):
        return self._binop(o, "<")

    def __le__(self, o):
        return self._binop(o, "<=")

    def __gt__(self, o):
        return self._binop(o, ">")

    def __ge__(self, o):
        return self._binop(o, ">=")

    def __eq__(self, o):
        return self._binop(o, "==")

    def __ne__(self, o):
        return self._binop(o, "!=")

    def __and__(self, o):
        return self._binop(o, "&")

    def __rand__(self, o):
        return self._binop(o, "&", True)

    def __or__(self, o):
        return self._binop(o, "|")

    def __ror__(self, o):
        return self._binop(o, "|", True)

    def __xor__(self, o):
        return self._binop(o, "^")

    def __rxor__(self, o):
        return self._binop(o, "^", True)

    def __lshift__(self, o):
        return self._binop(o, "<<")

    def __rlshift__(self, o):
        return self._binop(o, "<<", True)

    def __rshift__(self, o):
        return self._binop(o, ">>")

    def __rrshift__(self, o):
        return self._binop(o, ">>", True)

    __hash__ = None

    def _unary(self, op):
        return pdarray._lazy(_atoll.unary(op, self._ex()), self._size, self._nodes + 1)

    def __neg__(self):
        return self._unary("neg")

    def __pos__(self):
        if self._dtype == bool_:
            raise TypeError("ufunc 'positive' did not contain a loop with signature matching types (bool)")
        return self

    def __abs__(self):
        return self._unary("abs")

    def __invert__(self):
        return self._unary("invert")

    def _inplace(self, o, op):
        r = self._binop(o, op)
        if r is NotImplemented:
            return r
        if not np.can_cast(r.dtype, self._dtype, casting="same_kind"):
            raise TypeError(
                f"Cannot cast ufunc {op!r} output from dtype('{r.dtype}') to dtype('{self._dtype}') with casting rule 'same_kind'"
            )
        self._assign(slice(None), r, spare=r)
        return self

    def __iadd__(self, o):
        return self._inplace(o, "+")

    def __isub__(self, o):
        return self._inplace(o, "-")

    def __imul__(self, o):
        return self._inplace(o, "*")

    def __itruediv__(self, o):
        return self._inplace(o, "/")

    def __ifloordiv__(self, o):
        return self._inplace(o, "//")

    def __imod__(self, o):
        return self._inplace(o, "%")

    def __ipow__(self, o):
        return self._inplace(o, "**")

    def __iand__(self, o):
        return self._inplace(o, "&")

    def __ior__(self, o):
        return self._inplace(o, "|")

    def __ixor__(self, o):
        return self._inplace(o, "^")

    def __ilshift__(self, o):
        return self._inplace(o, "<<")

    def __irshift__(self, o):
        return self._inplace(o, ">>")

    # ----- indexing ----------------------------------------------------------------------
    def _position(self, key):
        k = int(key)
        if k < 0:
            k += self._size
        if not 0 <= k < self._size:
            raise IndexError(f"index {int(key)} is out of bounds for axis 0 with size {self._size}")
        return self._start + k * self._step

    def _index_expr(self, idx):
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
            from .numeric import where  # numeric builds on pdarray: called, not imported, here

            i = where(i < 0, i + self._size, i)
        if self._start != 0 or self._step != 1:
            i = i * self._step + self._start
        return i

    def __getitem__(self, key):
        if isinstance(key, (builtins.int, np.integer)) and not isinstance(key, (builtins.bool, np.bool_)):
            self._materialize()
            return _np_scalar(_atoll.get(self._arr, self._position(key)), self._dtype)
        if isinstance(key, slice):
            self._materialize()
            s, e, st = _slice_indices(key, self._size)
            n = len(range(s, e, st))
            step = self._step * st if n > 1 else 1  # one element: any step (2**80 too) is 1
            return pdarray(self._arr, self._start + s * self._step if n else 0, step, n)
        if isinstance(key, pdarray):
            if key._dtype == bool_:
                if key._size != self._size:
                    raise IndexError(
                        f"boolean index did not match indexed array along axis 0; size of axis is {self._size} but size of corresponding boolean axis is {key._size}"
                    )
                return pdarray(_atoll.compress(self._ex(), key._ex(), self._size))
            self._materialize()
            i = self._index_expr(key)
            return pdarray(_atoll.gather(self._arr, i._ex(), i._size))
        if isinstance(key, (list, np.ndarray)) and not isinstance(key, str):
            from .pdarraycreation import array

            return self[array(key)] if len(key) else self[array(np.zeros(0, dtype=np.int64))]
        if isinstance(key, tuple) and len(key) == 1:
            return self[key[0]]
        raise IndexError(
            "only integers, slices (`:`), ellipsis (`...`), numpy.newaxis (`None`) and integer or boolean "
            f"arrays are valid indices (key: {type(key).__name__})"
        )

    def _values_for(self, value, n):
        """The expression of ``value`` (a scalar or a pdarray of ``n`` elements) in our dtype."""
        if isinstance(value, pdarray):
            if value._size != n:
                raise ValueError(
                    f"value: could not broadcast input array from shape ({value._size},) into shape ({n},)"
                )
            return value._cast(self._dtype)
        if is_scalar(value):
            return _atoll.scalar(_scalar_value(value, self._dtype), self._dtype.name)
        if isinstance(value, (list, tuple, np.ndarray)):
            from .pdarraycreation import array

            return self._values_for(array(value), n)
        raise TypeError(f"value: unsupported type {type(value).__name__}")

    def __setitem__(self, key, value):
        self._assign(key, value)

    def _assign(self, key, value, spare=None):
        """``self[key] = value``; ``spare``: a lazy value made for this assignment only."""
        self._materialize()
        if isinstance(value, (list, tuple, np.ndarray)):
            from .pdarraycreation import array

            value = array(value)
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
                from .pdarraycreation import arange

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
                    from .numeric import where

                    w = where(key, value, self)
                    self._assign(slice(None), w, spare=w)
                    return
                from .pdarraycreation import arange

                key = arange(self._size)[key]
            i = self._index_expr(key)
            self._values_for(value, key._size)
            _before_write(self._arr, spare)
            ex = self._values_for(value, key._size)
            if key._size:
                _atoll.scatter(self._arr, i._ex(), ex, key._size)
            return
        raise TypeError(f"key: unsupported index type {type(key).__name__}")

    # ----- methods (Arkouda's) -----------------------------------------------------------
    def sum(self, axis=None, keepdims=False):
        return sum(self, axis=axis, keepdims=keepdims)

    def prod(self, axis=None, keepdims=False):
        return prod(self, axis=axis, keepdims=keepdims)

    def min(self, axis=None, keepdims=False):
        return min(self, axis=axis, keepdims=keepdims)

    def max(self, axis=None, keepdims=False):
        return max(self, axis=axis, keepdims=keepdims)

    def argmin(self, axis=None, keepdims=False):
        return argmin(self, axis=axis, keepdims=keepdims)

    def argmax(self, axis=None, keepdims=False):
        return argmax(self, axis=axis, keepdims=keepdims)

    def mean(self, axis=None, keepdims=False):
        return mean(self, axis=axis, keepdims=keepdims)

    def var(self, ddof=0, axis=None, keepdims=False):
        return var(self, ddof, axis=axis, keepdims=keepdims)

    def std(self, ddof=0, axis=None, keepdims=False):
        return std(self, ddof, axis=axis, keepdims=keepdims)

    def any(self, axis=None, keepdims=False):
        return any(self, axis=axis, keepdims=keepdims)

    def all(self, axis=None, keepdims=False):
        return all(self, axis=axis, keepdims=keepdims)

    def is_sorted(self, axis=None):
        return is_sorted(self, axis)

    def cumsum(self):
        return cumsum(self)

    def cumprod(self):
        return cumprod(self)

    def argsort(self, algorithm=None, axis=0, ascending=True):
        from .sorting import argsort as _argsort

        _axis1(axis)
        return _argsort(self, algorithm=algorithm, ascending=ascending)

    def to_parquet(self, prefix_path, dataset="array", mode="truncate", compression=None):
        """Writes the array as ``dataset`` to one Parquet file per locale (``ak.to_parquet``)."""
        from ..io import to_parquet

        to_parquet({dataset: self}, prefix_path, mode=mode, compression=compression)

    # ----- more of Arkouda's methods -----------------------------------------------------
    @property
    def inferred_type(self):
        """pandas' name of the kind of values: 'integer', 'floating' or 'boolean'."""
        return {"i": "integer", "u": "integer", "f": "floating", "b": "boolean"}[self._dtype.kind]

    def copy(self):
        """A new array with the same values."""
        return pdarray(_atoll.evaluate(self._ex(), self._size))

    def take(self, indices, axis=None):
        """``self[indices]`` (NumPy's ``take``)."""
        from ..stats import take

        return take(self, indices, axis)

    def fill(self, value):
        """Sets every element to ``value`` (in place)."""
        self[:] = value

    def equals(self, other):
        """True when ``other`` is a pdarray of the same dtype, size and values."""
        if not isinstance(other, pdarray) or other._dtype != self._dtype or other._size != self._size:
            return False
        return self._size == 0 or builtins.bool(all(self == other))

    def is_locally_sorted(self):
        """True when each locale's part is sorted (the whole array being sorted implies it)."""
        return is_locally_sorted(self)

    def value_counts(self):
        from .pdarraysetops import value_counts

        return value_counts(self)

    def popcount(self):
        from .numeric import popcount

        return popcount(self)

    def parity(self):
        from .numeric import parity

        return parity(self)

    def clz(self):
        from .numeric import clz

        return clz(self)

    def ctz(self):
        from .numeric import ctz

        return ctz(self)

    def rotl(self, other):
        from .numeric import rotl

        return rotl(self, other)

    def rotr(self, other):
        from .numeric import rotr

        return rotr(self, other)

    def slice_bits(self, low, high):
        """Bits ``low..high`` (inclusive, from the least significant) of each element."""
        if not 0 <= low <= high:
            raise ValueError(f"low/high: need 0 <= low <= high, got {low}, {high}")
        width = high - low + 1
        x = self.astype(uint64) >> low
        return x if width >= 64 else x & ((1 << width) - 1)

    def flatten(self):
        return self

    def reshape(self, *shape):
        shape = shape[0] if len(shape) == 1 and isinstance(shape[0], tuple) else shape
        if tuple(shape) not in ((self._size,), (-1,)):
            raise ValueError(f"reshape: pdarrays are 1-D, cannot reshape {self._size} elements to {shape}")
        return self

    def sum_bits(self):
        return sum(self.popcount())

    def register(self, user_defined_name):
        """Arkouda's registry of named arrays has no counterpart in process: returns self."""
        return self


_CMP = ("<", "<=", ">", ">=", "==", "!=")
_FLIP = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


def _cmp_out_of_range(a, v, op, reverse):
    """NumPy 2 compares by value: a Python int outside an integer array's range gives a
    constant answer (``uint64_array == -1`` is all False). None when ``v`` is in range."""
    if a._dtype == int64:
        lo, hi = -(1 << 63), (1 << 63) - 1
    elif a._dtype == uint64:
        lo, hi = 0, (1 << 64) - 1
    elif a._dtype == uint8:
        lo, hi = 0, 255
    else:
        return None
    if lo <= v <= hi:
        return None
    if reverse:
        op = _FLIP[op]
    below = v < lo  # every element is greater than v
    val = {"==": False, "!=": True, "<": not below, "<=": not below, ">": below, ">=": below}[op]
    from .pdarraycreation import full

    return full(a._size, val, bool_)


def _cmp_mixed_sign(a, b, op, reverse):
    """``a op b`` for an int64 and a uint64 array, by value (not through float64)."""
    left, right = (b, a) if reverse else (a, b)
    if left._dtype == uint64:  # as "int64 op uint64"
        left, right, op = right, left, _FLIP[op]
    neg = left < 0
    lu = left.astype(uint64)
    if op == "==":
        return ~neg & (lu == right)
    if op == "!=":
        return neg | (lu != right)
    if op == "<":
        return neg | (lu < right)
    if op == "<=":
        return neg | (lu <= right)
    if op == ">":
        return ~neg & (lu > right)
    return ~neg & (lu >= right)


def _scalar_value(x, d):
    """``x`` converted to a Python value of dtype ``d`` (NumPy's rules for the cast; a Python
    int out of the dtype's range raises OverflowError, as NumPy 2)."""
    if d == bool_:
        return builtins.bool(x)
    if d == float64:
        return builtins.float(x)
    if d == uint64:
        v = builtins.int(x)
        if isinstance(x, builtins.int) and not isinstance(x, builtins.bool) and not 0 <= v < (1 << 64):
            raise OverflowError(f"Python integer {v} out of bounds for uint64")
        return v % (1 << 64)
    if d == uint8:
        if isinstance(x, (builtins.int, builtins.float)) and not isinstance(x, builtins.bool):
            v = builtins.int(x)  # NumPy 2: a Python float is truncated, then checked as an int
            if not 0 <= v < 256:
                raise OverflowError(f"Python integer {v} out of bounds for uint8")
            return v
        with np.errstate(all="ignore"):  # NumPy's scalars are cast as ``astype`` casts: they wrap
            return builtins.int(np.array(x).astype(uint8))
    v = builtins.int(x)
    if not -(1 << 63) <= v < (1 << 63):
        if isinstance(x, np.integer):
            return v - (1 << 64) if v >= (1 << 63) else v  # a NumPy uint64 cast: wraps, as NumPy
        raise OverflowError(f"Python integer {v} out of bounds for int64")
    return v


def _slice_indices(key, n):
    """``key.indices(n)`` with NumPy's messages: a step of 0 is a ValueError, a non-integer
    bound a TypeError naming it."""
    for name in ("start", "stop", "step"):
        v = getattr(key, name)
        if v is not None and (isinstance(v, builtins.float) or not hasattr(v, "__index__")):
            raise TypeError(
                f"slice {name}: slice indices must be integers or None or have an __index__ method, got {v!r}"
            )
    if key.step is not None and key.step.__index__() == 0:
        raise ValueError("slice step cannot be zero")
    return key.indices(n)


def set_eager(on=True):
    """Evaluate every elementwise expression at once (``True``, Arkouda's behaviour) or
    lazily, fused with the expressions that use it (``False``, the default unless
    ``ATOLL_EAGER=1``). Returns the previous setting."""
    old = _EAGER[0]
    _EAGER[0] = builtins.bool(on)
    return old


def is_eager():
    """True when elementwise expressions are evaluated at once (see ``set_eager``)."""
    return _EAGER[0]


def _check_exponent(e):
    """NumPy refuses negative integer exponents; so do we, on the line that asks."""
    neg = (e < 0) if is_scalar(e) else (e._dtype == int64 and e._size and min(e) < 0)
    if neg:
        raise ValueError("Integers to negative integer powers are not allowed.")


def _np_scalar(v, d):
    return d.type(v)


def _check(pda, name="pda"):
    if not isinstance(pda, pdarray):
        raise TypeError(f"{name}: expected a pdarray, got {type(pda).__name__}")


def _reduce(pda, op, d=None):
    _check(pda)
    ex = pda._ex() if d is None or pda._dtype == d else _atoll.cast(pda._ex(), d.name)
    return _atoll.reduce(ex, pda._size, op)


def _sum_dtype(pda):
    """NumPy's dtype of a sum, product or scan: int64 for bool, uint64 for uint8."""
    return int64 if pda._dtype == bool_ else uint64 if pda._dtype == uint8 else pda._dtype


def sum(pda):
    """The sum of the elements (int64 for bool). float64 sums are pairwise, as NumPy's: blocks
    of at most 128 elements summed with 8 interleaved accumulators, halves added recursively,
    and the partial sums of chunks, tasks and locales combined as a balanced tree; the error
    grows with log(n), and the result is the same on every call for a given locale count (it
    may differ from NumPy's in the last bits: the split points differ)."""
    d = _sum_dtype(pda) if isinstance(pda, pdarray) else None
    v = _reduce(pda, "sum", d)
    return _np_scalar(0 if v is None else v, d)


def prod(pda):
    """The product of the elements (int64 for bool)."""
    d = _sum_dtype(pda) if isinstance(pda, pdarray) else None
    v = _reduce(pda, "prod", d)
    return _np_scalar(1 if v is None else v, d)


def _nonempty(pda, what):
    v = _reduce(pda, what)
    if v is None:
        raise ValueError(f"pda: zero-size array to reduction operation {what} which has no identity")
    return v


def min(pda):
    """The smallest element (NaN if any)."""
    return _np_scalar(_nonempty(pda, "min"), pda._dtype)


def max(pda):
    """The largest element (NaN if any)."""
    return _np_scalar(_nonempty(pda, "max"), pda._dtype)


def argmin(pda):
    """The index of the first smallest element."""
    return np.int64(_nonempty(pda, "argmin"))


def argmax(pda):
    """The index of the first largest element."""
    return np.int64(_nonempty(pda, "argmax"))


def _truth(pda):
    _check(pda)
    if pda._dtype == bool_:
        return pda
    return pda != 0


def any(pda):
    """True when some element is nonzero."""
    v = _reduce(_truth(pda), "any")
    return np.bool_(False if v is None else v)


def all(pda):
    """True when every element is nonzero."""
    v = _reduce(_truth(pda), "all")
    return np.bool_(True if v is None else v)


def count_nonzero(pda):
    """The number of nonzero elements (of Strings: of nonempty strings)."""
    if hasattr(pda, "_s"):  # Strings
        return np.int64(_reduce(pda.get_lengths() != 0, "count_nonzero") or 0)
    v = _reduce(_truth(pda), "count_nonzero")
    return np.int64(0 if v is None else v)


def _axis1(axis):
    if axis in (None, 0, -1) or (isinstance(axis, tuple) and len(axis) == 1 and axis[0] in (0, -1)):
        return
    # NumPy's AxisError is both a ValueError and an IndexError.
    raise np.exceptions.AxisError(f"axis {axis} is out of bounds for array of dimension 1")


def is_sorted(pda, axis=None):
    """True when the elements are in nondecreasing order (``axis``: None, 0 or -1)."""
    _axis1(axis)
    if hasattr(pda, "_limbs"):  # bigint
        return pda.is_sorted()
    v = _reduce(pda, "is_sorted")
    return np.bool_(True if v is None else v)


def is_locally_sorted(pda, axis=None):
    """True when the part of each locale is sorted: the Block parts ``ceil(k * n / L)`` to
    ``ceil((k + 1) * n / L)`` of the ``L`` locales (each checked in place)."""

    _axis1(axis)
    _check(pda)
    n, nl = pda._size, num_locales()
    bounds = [-(-k * n // nl) for k in range(nl + 1)]
    return np.bool_(builtins.all(builtins.bool(is_sorted(pda[lo:hi])) for lo, hi in zip(bounds, bounds[1:]) if hi > lo))


def mean(pda):
    """The arithmetic mean (float64)."""
    _check(pda)
    if pda._size == 0:
        return np.float64(np.nan)
    return np.float64(_reduce(pda, "sum", float64) / pda._size)


def var(pda, ddof=0):
    """The variance, ``sum((x - mean)**2) / (size - ddof)``."""
    _check(pda)
    if not isinstance(ddof, (builtins.int, np.integer)) or ddof < 0:
        raise ValueError(f"ddof: expected a nonnegative integer, got {ddof!r}")
    if pda._size - ddof <= 0:
        return np.float64(np.nan)
    m = mean(pda)
    d = pda.astype(float64) - builtins.float(m)
    return np.float64(_reduce(d * d, "sum") / (pda._size - ddof))


def std(pda, ddof=0):
    """The standard deviation, ``sqrt(var(pda, ddof))``."""
    return np.float64(np.sqrt(var(pda, ddof)))


def _scan(pda, op):
    _check(pda)
    d = _sum_dtype(pda)
    ex = pda._cast(d)
    if pda._size == 0:
        from .pdarraycreation import zeros

        return zeros(0, d)
    return pdarray(_atoll.scan(ex, pda._size, op))


def cumsum(pda):
    """The inclusive prefix sums (int64 for bool)."""
    return _scan(pda, "sum")


def cumprod(pda):
    """The inclusive prefix products (int64 for bool)."""
    return _scan(pda, "prod")


# Arkouda's names of the reductions (``ak.numpy.pdarrayclass.SUPPORTED_REDUCTION_OPS``).
SUPPORTED_REDUCTION_OPS = ["any", "all", "isSorted", "isSortedLocally", "max", "min", "sum", "prod", "mean"]
SUPPORTED_INDEX_REDUCTION_OPS = ["argmin", "argmax"]
SUPPORTED_STATS_REDUCTION_OPS = ["var", "std"]


def _with_axis(f):
    """NumPy's ``axis``/``keepdims`` for a 1-D reduction: axis None, 0, -1 or (0,) reduce the
    one axis; ``keepdims`` gives a 1-element pdarray."""

    def g(pda, *args, axis=None, keepdims=False, **kw):
        if axis not in (None, 0, -1) and not (isinstance(axis, tuple) and builtins.all(a in (0, -1) for a in axis)):
            raise ValueError(f"axis {axis} is out of bounds for array of dimension 1")
        r = f(pda, *args, **kw)
        if keepdims:
            from .pdarraycreation import array

            return array(np.array([r]))
        return r

    g.__name__ = f.__name__
    g.__qualname__ = f.__qualname__
    g.__doc__ = f.__doc__
    return g


sum = _with_axis(sum)
prod = _with_axis(prod)
min = _with_axis(min)
max = _with_axis(max)
argmin = _with_axis(argmin)
argmax = _with_axis(argmax)
mean = _with_axis(mean)
var = _with_axis(var)
std = _with_axis(std)
any = _with_axis(any)
all = _with_axis(all)
count_nonzero = _with_axis(count_nonzero)
