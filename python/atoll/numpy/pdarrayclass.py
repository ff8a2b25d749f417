"""The ``pdarray``: a 1-D distributed array, or a lazy elementwise expression over some.

Elementwise operators build a fused expression (checked at once for dtype errors) that runs
as one owner-computes loop when its value is needed: printing, indexing, a reduction,
``to_ndarray``, or an assignment (``a[:] = b + 3 * c`` writes in place, no temporary).
"""

import builtins
import html as _html
import math
import os
import weakref
from typing import TYPE_CHECKING, Any

import numpy as np

from .. import _atoll
from .._optional import pa
from .._session import num_locales
from ..core import client
from ..pandas._registry import Registrable, RegistrationError as RegistrationError, symbol_name
from ..progress import tracked
from .dtypes import bool_, float64, int64, is_scalar, uint8, uint64

# Lazy arrays whose value is not computed yet. Before an array is written, the lazy arrays
# that read it are computed (`_before_write`), so each keeps the value its expression had on
# the line that built it, whatever is written later.
_pending = weakref.WeakValueDictionary()
_MAX_NODES = 24  # deeper trees are computed (loops such as x = x + 1)
# Eager evaluation (``ATOLL_EAGER=1`` or ``ak.set_eager(True)``): every elementwise result is
# computed on the line that makes it, as Arkouda does; for timings of single operations.
_EAGER = [_atoll.eager_by_default()]
PRINT_THRESHOLD = 100
# Jupyter's display (``_repr_html_``): every row up to HTML_ROWS, else the first and last
# HTML_ROWS // 2.
HTML_ROWS = 10
# NumPy's summary of a large array of rank 2 or more: this many items at each end of an axis.
EDGE_ITEMS = 3


def html_rows(n):
    """The positions ``_repr_html_`` shows of ``n`` rows: all of them, or the head and the tail
    (``(head, tail)`` position lists; ``tail`` empty when all are shown)."""
    if n <= HTML_ROWS:
        return list(range(n)), []
    k = HTML_ROWS // 2
    return list(range(k)), list(range(n - k, n))


def html_table(header, head, tail, caption):
    """An HTML table for Jupyter: the ``header`` cells, the rows ``head`` (lists of cells, the
    first one the row label), a row of "..." then the rows ``tail`` when there are some, and
    ``caption`` (shape, dtypes, memory) in a paragraph under it. Every cell is escaped."""
    e = _html.escape

    def row(cells):
        return "<tr><th>" + e(str(cells[0])) + "</th>" + "".join(f"<td>{e(str(c))}</td>" for c in cells[1:]) + "</tr>"

    out = ['<table border="1" class="dataframe">', "<thead><tr>"]
    out += [f"<th>{e(str(h))}</th>" for h in header]
    out.append("</tr></thead><tbody>")
    out += [row(r) for r in head]
    if tail:
        out.append(row(["..."] + ["..."] * (len(header) - 1)))
        out += [row(r) for r in tail]
    out.append("</tbody></table>")
    out.append(f"<p>{e(caption)}</p>")
    return "\n".join(out)


def byte_size(n):
    """``n`` bytes as Jupyter's captions write them: "123 B", "4.5 KB", "6.7 MB", "8.9 GB"."""
    for unit, scale in (("GB", 1024**3), ("MB", 1024**2), ("KB", 1024)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} B"


def _before_write(arr, spare=None):
    """Computes every lazy array that reads the native array ``arr``, which is about to be
    written. ``spare`` is a lazy value that the caller assigns and then drops (its expression
    may read ``arr``: the native side evaluates it before writing)."""
    for p in list(_pending.values()):
        if p is not spare and p._expr is not None and p._expr.reads(arr):
            p._materialize()


class pdarray(Registrable):
    """A distributed array of int64, uint64, float64, bool or uint8 (Arkouda's pdarray), of any
    rank from 0 to 8: its values in C order as a 1-D Block-distributed array, and a shape
    (``_shape``: None for rank 1; see ``atoll.numpy._nd``)."""

    __slots__ = (
        "_arr",
        "_start",
        "_step",
        "_size",
        "_expr",
        "_nodes",
        "_dtype",
        "_shape",
        "_registered",
        "__weakref__",
    )

    # NumPy defers to pdarrays: ``np.int64(2) - a`` and ``ndarray + a`` call our reflected
    # operators and give pdarrays (NumPy's ufuncs called on a pdarray directly raise TypeError).
    __array_priority__ = 1000
    __array_ufunc__ = None
    objType = "pdarray"
    BinOps = frozenset(
        ["+", "-", "*", "/", "//", "%", "<", ">", "<=", ">=", "!=", "==", "&", "|", "^", "<<", ">>", ">>>", "<<<", "**"]
    )
    OpEqOps = frozenset(["+=", "-=", "*=", "/=", "%=", "//=", "&=", "|=", "^=", "<<=", ">>=", "**="])

    if TYPE_CHECKING:
        # Methods set on the class by ``atoll.numpy._pdarrayclass_methods`` (mypy sees no attach).
        def astype(self, dtype: Any) -> "pdarray": ...  # noqa: ANN401 (any dtype-like)
        def __getitem__(self, key: Any) -> Any: ...  # noqa: ANN401 (a scalar or a pdarray)
        def reshape(self, *shape: Any, order: str = "C") -> "pdarray": ...  # noqa: ANN401 (ints or a tuple)
        def flatten(self) -> "pdarray": ...
        def ravel(self) -> "pdarray": ...
        def transpose(self, *axes: Any) -> "pdarray": ...  # noqa: ANN401 (ints or a tuple)
        def argsort(self, algorithm: object = None, axis: int = -1, ascending: bool = True) -> "pdarray": ...
        def take(self, indices: object, axis: int | None = None) -> "pdarray": ...
        @property
        def T(self) -> "pdarray": ...
        def __matmul__(self, other: object) -> Any: ...  # noqa: ANN401 (a pdarray or NotImplemented)
        def __rmatmul__(self, other: object) -> Any: ...  # noqa: ANN401 (a pdarray or NotImplemented)
        def _binop(self, other: Any, op: str, reverse: bool = False) -> Any: ...  # noqa: ANN401 (an operand; its result)
        def _assign(self, key: Any, value: Any, spare: object = None) -> None: ...  # noqa: ANN401 (any index and value)
        def to_parquet(
            self, prefix_path: str, dataset: str = "array", mode: str = "truncate", compression: str | None = None
        ) -> None: ...
        def value_counts(self) -> tuple["pdarray", "pdarray"]: ...
        def popcount(self) -> "pdarray": ...
        def parity(self) -> "pdarray": ...
        def clz(self) -> "pdarray": ...
        def ctz(self) -> "pdarray": ...
        def rotl(self, other: object) -> "pdarray": ...
        def rotr(self, other: object) -> "pdarray": ...
        def isna(self) -> "pdarray": ...
        def isnull(self) -> "pdarray": ...
        def notna(self) -> "pdarray": ...
        def notnull(self) -> "pdarray": ...
        def fillna(self, value: object) -> "pdarray": ...
        def dropna(self) -> "pdarray": ...
        def corr(self, y: "pdarray") -> float: ...

    def __init__(self, arr=None, start=0, step=1, size=None, expr=None, dtype=None, nodes=1, shape=None):
        self._arr = arr
        self._start = start
        self._step = step
        self._size = arr.size if size is None else size
        self._expr = expr
        self._nodes = nodes
        self._dtype = np.dtype(dtype if dtype is not None else arr.dtype)
        self._shape = None if shape is None or len(shape) == 1 else tuple(shape)
        if expr is not None:
            _pending[id(self)] = self

    @classmethod
    def _lazy(cls, ex, size, nodes, shape=None):
        p = cls(None, 0, 1, size, ex, ex.dtype, nodes, shape)
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
    def name(self):
        """The array's name in the symbol table (Arkouda's server-side name; see
        ``ak.list_symbol_table``), not the name it is registered under."""
        return symbol_name(self)

    # ----- registration -------------------------------------------------------------------
    # ``Registrable`` gives register/unregister/is_registered; the name lives in a slot.
    @property
    def registered_name(self):
        """The name the array is registered under (None when not registered)."""
        return getattr(self, "_registered", None)

    @registered_name.setter
    def registered_name(self, value):
        self._registered = value

    @property
    def size(self):
        return self._size

    @property
    def ndim(self):
        return 1 if self._shape is None else len(self._shape)

    @property
    def shape(self):
        return (self._size,) if self._shape is None else self._shape

    @property
    def itemsize(self):
        return self._dtype.itemsize

    @property
    def nbytes(self):
        return self._size * self._dtype.itemsize

    def __len__(self):
        # Arkouda's len() of a pdarray of any rank is its number of elements (NumPy's is the
        # length of the first axis); iterating a multi-dimensional pdarray still yields rows.
        if self._shape == ():
            raise TypeError("len() of unsized object")
        return self._size

    # ----- conversion --------------------------------------------------------------------
    @tracked("to_ndarray", rows=0)
    def to_ndarray(self):
        """The values as a NumPy array (gathered to the driver with one copy)."""
        out = np.empty(self._size, dtype=self._dtype)
        if self._size:
            _atoll.to_buffer(self._ex(), self._size, out.view(np.uint8) if self._dtype == bool_ else out)
        return out if self._shape is None else out.reshape(self._shape)

    def tolist(self):
        return self.to_ndarray().tolist()

    def __array__(self, dtype=None, copy=None):
        a = self.to_ndarray()
        return a if dtype is None else a.astype(dtype)

    def __iter__(self):
        if self._shape is not None and len(self._shape) > 1:
            return (self[k] for k in range(self._shape[0]))
        if self._shape == ():
            raise TypeError("iteration over a 0-d array")
        return iter(self.to_ndarray())

    def _fmt(self, prefix=""):
        limit = getattr(client, "pdarrayIterThresh", PRINT_THRESHOLD)  # Arkouda's setting
        if self._shape is not None:
            return self._fmt_nd(limit, prefix)
        if self._size <= limit:
            a = self.to_ndarray()
            return np.array2string(a, separator=" ", threshold=limit + 1, max_line_width=10**9)
        head = self[:3].to_ndarray()
        tail = self[-3:].to_ndarray()
        both = np.concatenate([head, tail])
        s = np.array2string(both, separator=" ", max_line_width=10**9)[1:-1].split()
        return "[" + " ".join(s[:3]) + " ... " + " ".join(s[3:]) + "]"

    def _fmt_nd(self, limit, prefix):
        """NumPy's layout of an array of rank other than 1 (continuation lines indented by the
        length of ``prefix``). Above ``limit`` elements, as NumPy summarises: the first and last
        ``EDGE_ITEMS`` along each longer axis with "..." between; only those are gathered (with
        one element of the middle, which NumPy's summary drops)."""
        opts = {"separator": " ", "max_line_width": 10**9, "prefix": prefix}
        if self._size <= limit:
            return np.array2string(self.to_ndarray(), threshold=limit + 1, **opts)
        e = EDGE_ITEMS
        picks = [np.arange(n) if n <= 2 * e else np.r_[0:e, e, n - e : n] for n in self._shape]
        part = self[np.ix_(*picks)].to_ndarray()
        return np.array2string(part, threshold=0, edgeitems=e, **opts)

    def __str__(self):
        return self._fmt()

    def __repr__(self):
        return f"array({self._fmt('array(')})"

    def to_arrow(self):
        """The ``pyarrow.Array`` of the values: it wraps the NumPy array ``to_ndarray`` gathers
        (no second copy; a bool array is bit-packed, a copy)."""
        return pa.array(self.to_ndarray())

    def _repr_html_(self):
        """Jupyter's display: the head and tail values by position, the size, dtype and bytes
        (of rank 2 or more: the head and tail rows along axis 0, each as NumPy prints it)."""
        if self._shape is not None:
            rows = self._shape[0] if self._shape else 1
            head, tail = html_rows(rows)

            def cells(ks):
                return [[k, self[k]._fmt() if self._shape else self._fmt()] for k in ks]

            caption = (
                f"pdarray: shape {self._shape}, {self._size} values, dtype {self._dtype.name}, {byte_size(self.nbytes)}"
            )
            return html_table(["", "value"], cells(head), cells(tail), caption)
        head, tail = html_rows(self._size)
        h = self[: len(head)].to_ndarray().tolist()
        t = self[self._size - len(tail) :].to_ndarray().tolist() if tail else []
        caption = f"pdarray: {self._size} values, dtype {self._dtype.name}, {byte_size(self.nbytes)}"
        return html_table(["", "value"], list(map(list, zip(head, h))), list(map(list, zip(tail, t))), caption)

    def __bool__(self):
        if self._size != 1:
            raise ValueError(
                "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()"
            )
        return builtins.bool(self[0])

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
        return pdarray._lazy(_atoll.unary(op, self._ex()), self._size, self._nodes + 1, self._shape)

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

    def __setitem__(self, key, value):
        self._assign(key, value)

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

    def cumsum(self, axis=None):
        return cumsum(self, axis)

    def cumprod(self, axis=None):
        return cumprod(self, axis)

    # ----- more of Arkouda's methods -----------------------------------------------------
    @property
    def inferred_type(self):
        """pandas' name of the kind of values: 'integer', 'floating' or 'boolean'."""
        return {"i": "integer", "u": "integer", "f": "floating", "b": "boolean"}[self._dtype.kind]

    def copy(self):
        """A new array with the same values."""
        return pdarray(_atoll.evaluate(self._ex(), self._size), shape=self._shape)

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

    def slice_bits(self, low, high):
        """Bits ``low..high`` (inclusive, from the least significant) of each element."""
        if not 0 <= low <= high:
            raise ValueError(f"low/high: need 0 <= low <= high, got {low}, {high}")
        width = high - low + 1
        x = self.astype(uint64) >> low
        return x if width >= 64 else x & ((1 << width) - 1)

    def sum_bits(self):
        return sum(self.popcount())


_CMP = ("<", "<=", ">", ">=", "==", "!=")
# NumPy's ufunc names of the arithmetic operators, which floating-point error messages name.
_UFUNC_NAMES = {
    "+": "add",
    "-": "subtract",
    "*": "multiply",
    "/": "divide",
    "//": "floor_divide",
    "%": "remainder",
    "**": "power",
}
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
    return _full(a._size, val, bool_)


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


def _size(size, name="size", text=False):
    """A size argument checked and made an int (a 1-tuple of one is a size too)."""
    if isinstance(size, tuple):
        if len(size) != 1:
            raise ValueError(f"{name}: arrays of rank {len(size)} are not supported (pdarrays are 1-D)")
        size = size[0]
    if text and isinstance(size, str) and size.strip().isdigit():
        size = builtins.int(size)  # Arkouda's zeros/ones/full take sizes as text too
    if isinstance(size, (builtins.bool, np.bool_)) or not isinstance(size, (builtins.int, np.integer)):
        raise TypeError(f"{name}: expected an int, got {type(size).__name__}")
    if size < 0:
        raise ValueError(f"{name}: negative dimensions are not allowed, got {size}")
    return builtins.int(size)


def _seed(seed):
    """A seed argument checked and reduced to 64 bits (None: a fresh random one)."""
    if seed is None:
        return builtins.int.from_bytes(os.urandom(8), "little")
    if isinstance(seed, (builtins.bool, np.bool_)) or not isinstance(seed, (builtins.int, np.integer)):
        raise TypeError(f"seed: expected an int, got {type(seed).__name__}")
    return builtins.int(seed) % (1 << 64)


def _full(size, value, dtype):
    """An array of ``size`` elements equal to ``value``, of the NumPy dtype ``dtype``: what this
    module's functions need of ``pdarraycreation.full``, which sits above the type."""
    d = np.dtype(dtype)
    return pdarray(_atoll.full(size, d.name, _scalar_value(value, d)))


def _from_numpy(x):
    """A pdarray with a copy of the 1-D NumPy array ``x`` of a supported dtype: what this
    layer's functions need of ``pdarraycreation.array``, which sits above the type."""
    x = np.ascontiguousarray(x)
    return pdarray(_atoll.from_buffer(x.view(np.uint8) if x.dtype == bool_ else x, x.dtype.name))


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
    """True when the elements are in nondecreasing order. Of an N-d pdarray with ``axis`` (an
    int or a tuple of ints, not all of the axes): a bool pdarray of the other axes' shape, True
    where the lane along ``axis`` (its values in the C order of those axes) is nondecreasing."""
    if hasattr(pda, "_limbs"):  # bigint
        _axis1(axis)
        return pda.is_sorted()
    if isinstance(pda, pdarray):
        axes = _norm_axes(axis, pda.ndim)
        if len(axes) < pda.ndim:
            return _sorted_lanes(pda, axes)
    else:
        _axis1(axis)
    v = _reduce(pda, "is_sorted")
    return np.bool_(True if v is None else v)


def _sorted_lanes(pda, axes):
    """Whether each lane of ``pda`` along ``axes`` is nondecreasing (see ``is_sorted``)."""
    shape = pda.shape
    kept = tuple(shape[k] for k in range(len(shape)) if k not in axes)
    groups, lane = math.prod(kept), math.prod(shape[k] for k in axes)
    if groups == 0 or lane <= 1:
        return _shaped(_full(groups, True, bool_), kept)
    v = _flat(_lanes(pda, axes))
    n = v._size
    starts = pdarray(_lane_starts(n, lane))
    # Position p holds whether it does not step down from p - 1 (True at each lane's start).
    ok = _full(n, True, bool_)
    ok[1:] = (v[1:] >= v[: n - 1]) | starts[1:]
    return _shaped(_segmented(ok, "all", lane, groups), kept)


def is_locally_sorted(pda, axis=None):
    """True when the part of each locale is sorted: the Block parts ``ceil(k * n / L)`` to
    ``ceil((k + 1) * n / L)`` of the ``L`` locales (each checked in place)."""

    _check(pda)
    axes = _norm_axes(axis, pda.ndim)
    if len(axes) < pda.ndim:
        # A sorted lane is sorted in each locale's part of it: the lanes' order is the test.
        return _sorted_lanes(pda, axes)
    flat = _flat(pda)
    n, nl = flat._size, num_locales()
    bounds = [-(-k * n // nl) for k in range(nl + 1)]
    return np.bool_(
        builtins.all(builtins.bool(is_sorted(flat[lo:hi])) for lo, hi in zip(bounds, bounds[1:]) if hi > lo)
    )


def mean(pda):
    """The arithmetic mean (float64)."""
    _check(pda)
    if pda._size == 0:
        return np.float64(np.nan)
    return np.float64(_reduce(pda, "sum", float64) / pda._size)


def var(pda, ddof=0):
    """The variance, ``sum((x - mean)**2) / (size - ddof)``."""
    _check(pda)
    _check_ddof(ddof)
    if pda._size - ddof <= 0:
        # NumPy divides the squared deviations by 0.
        return np.float64(np.inf if pda._size and var(pda) > 0 else np.nan)
    m = mean(pda)
    d = pda.astype(float64) - builtins.float(m)
    return np.float64(_reduce(d * d, "sum") / (pda._size - ddof))


def std(pda, ddof=0):
    """The standard deviation, ``sqrt(var(pda, ddof))``."""
    return np.float64(np.sqrt(var(pda, ddof)))


def _check_ddof(ddof):
    if not isinstance(ddof, (builtins.int, np.integer)) or ddof < 0:
        raise ValueError(f"ddof: expected a nonnegative integer, got {ddof!r}")


def _scan(pda, op, axis=None):
    _check(pda)
    d = _sum_dtype(pda)
    if axis is not None and (
        isinstance(axis, (builtins.bool, np.bool_)) or not isinstance(axis, (builtins.int, np.integer))
    ):
        raise TypeError(f"'{type(axis).__name__}' object cannot be interpreted as an integer")
    if axis is not None and pda.ndim > 1:
        (k,) = _norm_axes(axis, pda.ndim)
        return _scan_axis(pda, op, k, d)
    if axis is not None:
        _axis1(axis)
    ex = pda._cast(d)
    if pda._size == 0:
        return _full(0, 0, d)
    return pdarray(_atoll.scan(ex, pda._size, op))


# A scan along the first axis runs row by row (one fused loop per row) when the rows are at
# least this long; shorter rows take the log-step scan.
_SCAN_ROW_MIN = 2048


def _scan_axis(pda, op, k, d):
    """The inclusive scan of ``pda`` along axis ``k``, in the C-order flat values (no
    transpose). Along the first axis with long rows: row ``j`` combined with the finished row
    ``j - 1``, one fused loop per row, NumPy's order of operations. Otherwise in
    ``ceil(log2(len))`` steps (``len`` the axis' length), step ``j`` combining each element with
    the one ``2**j`` places before it along the axis (``2**j * stride`` flat positions before)
    when there is one: Hillis and Steele's prefix sums, between two buffers."""
    shape = pda.shape
    n, length = pda._size, shape[k]
    stride = math.prod(shape[k + 1 :])
    cur = _atoll.evaluate(pda._cast(d), n)
    if n == 0 or length <= 1:
        return pdarray(cur, shape=shape)
    sym = "+" if op == "sum" else "*"
    lead = k == 0 or math.prod(shape[:k]) == 1
    if lead and stride >= _SCAN_ROW_MIN:
        for j in range(1, length):
            prev, row = _atoll.leaf(cur, (j - 1) * stride, 1, stride), _atoll.leaf(cur, j * stride, 1, stride)
            _atoll.assign(cur, j * stride, 1, stride, _atoll.binary(sym, prev, row))
        return pdarray(cur, shape=shape)
    along = None
    if not lead:
        i = pdarray(_atoll.arange(n, 0, 1))
        along = (i // stride % length if stride > 1 else i % length)._whole()
    other = _atoll.full(n, d.name, 0)
    step = 1
    while step < length:
        sh = step * stride
        m = n - sh
        tail, head = _atoll.leaf(cur, sh, 1, m), _atoll.leaf(cur, 0, 1, m)
        val = _atoll.binary(sym, tail, head)
        if along is not None:
            # Only elements at least ``step`` places into their lane have one ``step`` before.
            cond = _atoll.binary(">=", _atoll.leaf(along, sh, 1, m), _atoll.scalar(step, "int64"))
            val = _atoll.where_(cond, val, tail)
        _atoll.assign(other, 0, 1, sh, _atoll.leaf(cur, 0, 1, sh))
        _atoll.assign(other, sh, 1, m, val)
        cur, other = other, cur
        step *= 2
    return pdarray(cur, shape=shape)


def cumsum(pda, axis=None):
    """The inclusive prefix sums (int64 for bool): of the flat values (C order) when ``axis`` is
    None, else along the axis ``axis`` (NumPy's ``cumsum``)."""
    return _scan(pda, "sum", axis)


def cumprod(pda, axis=None):
    """The inclusive prefix products (int64 for bool): of the flat values (C order) when
    ``axis`` is None, else along the axis ``axis`` (NumPy's ``cumprod``)."""
    return _scan(pda, "prod", axis)


# Arkouda's names of the reductions (``ak.numpy.pdarrayclass.SUPPORTED_REDUCTION_OPS``).
SUPPORTED_REDUCTION_OPS = ["any", "all", "isSorted", "isSortedLocally", "max", "min", "sum", "prod", "mean"]
SUPPORTED_INDEX_REDUCTION_OPS = ["argmin", "argmax"]
SUPPORTED_STATS_REDUCTION_OPS = ["var", "std"]


# ----- reductions along axes -------------------------------------------------------------
# A pdarray of any rank stores its values in C order, Block-distributed over the flat index.
# A reduction over some axes moves them last (``transpose``: one gather; none when they are
# last already), so that each lane to reduce is a run of equal length of consecutive flat
# values, and reduces the runs with the segmented fold of GroupBy (``_atoll.aggregate``).
# Reductions over every axis are the 1-D reduction of the flat values.

# NumPy's values of reductions over an empty lane.
_IDENTITY = {"sum": 0, "prod": 1, "any": False, "all": True, "count_nonzero": 0}
_NAN_OPS = ("sum", "prod", "min", "max", "mean", "var", "std")


def _norm_axes(axis, nd):
    """``axis`` (None, an int or a tuple of ints) as a sorted tuple of distinct axes of an array of
    rank ``nd`` (None: all of them), with NumPy's errors."""
    if axis is None:
        return tuple(range(nd))
    items = axis if isinstance(axis, (tuple, list)) else (axis,)
    out = []
    for a in items:
        if isinstance(a, (builtins.bool, np.bool_)) or not isinstance(a, (builtins.int, np.integer)):
            raise TypeError(f"'{type(a).__name__}' object cannot be interpreted as an integer")
        if not -nd <= a < nd:
            # NumPy's AxisError is both a ValueError and an IndexError.
            raise np.exceptions.AxisError(f"axis {a} is out of bounds for array of dimension {nd}")
        out.append(builtins.int(a) % nd)
    if len(set(out)) != len(out):
        raise ValueError("duplicate value in 'axis'")
    return tuple(sorted(out))


def _flat(x):
    """``x``'s flat values as a 1-D pdarray (no copy of a materialized array)."""
    x._materialize()
    return pdarray(x._arr, x._start, x._step, x._size)


def _shaped(r, shape):
    """The pdarray ``r``'s values with the shape ``shape`` (no copy)."""
    r._materialize()
    return pdarray(r._arr, r._start, r._step, r._size, shape=shape)


def _lanes(pda, axes):
    """``pda`` with the axes ``axes`` moved last, so that each run of consecutive flat values as
    long as those axes' product is one lane (the lanes in the C order of the other axes)."""
    kept = [k for k in range(pda.ndim) if k not in axes]
    order = kept + list(axes)
    return pda if order == sorted(order) else pda.transpose(*order)


def _lane_starts(n, lane):
    """The native bool array that is True at the first flat position of each lane (one
    strided write of the ``n // lane`` starts)."""
    flags = _atoll.full(n, "bool", False)
    _atoll.assign(flags, 0, lane, n // lane, _atoll.scalar(True, "bool"))
    return flags


def _segmented(x, op, lane, groups, ddof=0):
    """``op`` (an aggregation of ``_atoll.aggregate``) of each run of ``lane`` values of ``x``
    (``groups`` runs; bool values as int64, uint8 as uint64). NaN is skipped (GroupBy's rule);
    ``_reduce_lanes`` restores NumPy's."""
    d = x._dtype
    vd = int64 if d == bool_ else uint64 if d == uint8 else d
    ex = x._ex() if vd == d else _atoll.cast(x._ex(), vd.name)
    return pdarray(_atoll.aggregate(ex, _lane_starts(x._size, lane), x._size, groups, op, ddof))


def _out_dtype(pda, op):
    if op in ("sum", "prod"):
        return _sum_dtype(pda)
    if op in ("argmin", "argmax", "count_nonzero"):
        return int64
    if op in ("mean", "var", "std"):
        return float64
    if op in ("any", "all"):
        return bool_
    return pda._dtype


def _reduce_lanes(pda, op, axes, keepdims, ddof=0):
    """``op`` of ``pda`` along ``axes`` (not all of them) as a pdarray of the other axes' shape
    (length-1 axes in place of ``axes`` with ``keepdims``)."""
    shape = pda.shape
    kept = tuple(shape[k] for k in range(len(shape)) if k not in axes)
    groups, lane = math.prod(kept), math.prod(shape[k] for k in axes)
    out_shape = tuple(1 if k in axes else shape[k] for k in range(len(shape))) if keepdims else kept
    d = _out_dtype(pda, op)
    if lane == 0 and op in ("min", "max", "argmin", "argmax"):
        raise ValueError(f"zero-size array to reduction operation {op} which has no identity")
    if groups == 0:
        return _shaped(_full(0, 0, d), out_shape)
    if lane == 0:
        return _shaped(_full(groups, _IDENTITY.get(op, np.nan), d), out_shape)
    if op in _MIDDLE and (not axes or axes == tuple(range(axes[0], axes[-1] + 1))):
        # Contiguous axes: the native reduction of the middle axis of (outer, lane, inner), one
        # pass over each locale's own part and one exchange of partial results.
        return _shaped(_reduce_middle(pda, op, axes, d), out_shape)
    x = _lanes(pda, axes)
    if op in ("any", "all"):
        r = _segmented(_truth(x), op, lane, groups)
    elif op == "count_nonzero":
        r = _segmented(_truth(x), "sum", lane, groups)
    else:
        # With no more values than ddof NumPy divides the squared deviations by 0.
        dd = 0 if op in ("var", "std") and lane <= ddof else ddof
        r = _segmented(x.astype(d) if op in ("sum", "prod") and x._dtype != d else x, op, lane, groups, dd)
    if op in ("min", "max") and d != r._dtype:
        r = r.astype(d)
    if x._dtype == float64 and op in _NAN_OPS + ("argmin", "argmax"):
        r = _nan_lanes(x, r, op, lane, groups)
    if op in ("var", "std") and lane <= ddof:
        inf, nan = _atoll.scalar(np.inf, "float64"), _atoll.scalar(np.nan, "float64")
        r = pdarray(_atoll.evaluate(_atoll.where_((r > 0)._ex(), inf, nan), groups))
    if op in ("argmin", "argmax"):
        # The aggregation gives flat positions; NumPy gives positions within the lane.
        r = r - pdarray(_atoll.arange(groups, 0, lane))
    return _shaped(r, out_shape)


# The native element operation of each reduction that ``_reduce_middle`` does, and the dtype
# its values are folded in (None: the result's dtype).
_MIDDLE = {
    "sum": ("sum", None),
    "prod": ("prod", None),
    "mean": ("sum", float64),
    "count_nonzero": ("sum", int64),
    "min": ("min", None),
    "max": ("max", None),
    "any": ("max", int64),
    "all": ("min", int64),
}


def _reduce_middle(pda, op, axes, d):
    """``op`` of ``pda`` over the contiguous axes ``axes`` (``_atoll.reduce_axis``: its values
    seen as (outer, lane, inner), reduced over the middle), as a flat pdarray of dtype ``d``.
    A float sum adds each locale's rows in order and then the locales' partial sums: it may
    differ from NumPy's pairwise sum in the last bits."""
    shape = pda.shape
    lo, hi = (axes[0], axes[-1] + 1) if axes else (len(shape), len(shape))  # no axis: lanes of 1
    outer = math.prod(shape[:lo])
    lane = math.prod(shape[lo:hi])
    inner = math.prod(shape[hi:])
    native, fold = _MIDDLE[op]
    v = _truth(pda) if op in ("any", "all", "count_nonzero") else pda
    fd = fold or d
    if fd in (bool_, uint8):
        fd = int64 if fd == bool_ else uint64  # folded in a 64-bit dtype, cast back below
    src = v._whole() if v._dtype == fd else _atoll.evaluate(_atoll.cast(v._ex(), fd.name), pda._size)
    r = pdarray(_atoll.reduce_axis(src, outer, lane, inner, native))
    if op == "mean":
        r = r / lane
    return r if r._dtype == d else r.astype(d)._materialize()


def _nan_lanes(x, r, op, lane, groups):
    """``r`` with NumPy's value for the lanes of ``x`` that hold a NaN: NaN, or for argmin and
    argmax the flat position of the lane's first NaN."""
    nan = x != x
    if not _atoll.reduce(nan._ex(), x._size, "any"):
        return r
    has = _segmented(nan, "any", lane, groups)
    first = _segmented(nan, "argmax", lane, groups)
    fill = first._ex() if op in ("argmin", "argmax") else _atoll.scalar(np.nan, "float64")
    return pdarray(_atoll.evaluate(_atoll.where_(has._ex(), fill, r._ex()), groups))


def _with_axis(f, op):
    """``f`` (a reduction of all the values) with NumPy's ``axis`` (None, an int or a tuple of
    ints; an int or None for argmin/argmax) and ``keepdims``: over every axis the NumPy scalar of
    ``f`` (an array of length-1 axes with ``keepdims``), else a pdarray along the axes."""

    def g(pda, *args, axis=None, keepdims=False, **kw):
        if not isinstance(pda, pdarray):  # Strings (count_nonzero), bigint
            _axis1(axis)
            r = f(pda, *args, **kw)
            return _full(1, r, np.asarray(r).dtype) if keepdims else r
        nd = pda.ndim
        if op in ("argmin", "argmax") and axis is not None and not isinstance(axis, (builtins.int, np.integer)):
            raise TypeError(f"'{type(axis).__name__}' object cannot be interpreted as an integer")
        if nd == 0 and op not in ("mean", "var", "std") and isinstance(axis, (builtins.int, np.integer)):
            # NumPy's reductions by a ufunc take axis 0 (or -1) of a 0-d array as its one value.
            axis = None if axis in (0, -1) else axis
        axes = _norm_axes(axis, nd)
        if len(axes) == nd:
            r = f(pda, *args, **kw)
            return _shaped(_full(1, r, np.asarray(r).dtype), (1,) * nd) if keepdims and nd else r
        ddof = args[0] if args else kw.get("ddof", 0)
        if op in ("var", "std"):
            _check_ddof(ddof)
        return _reduce_lanes(pda, op, axes, keepdims, ddof)

    g.__name__ = f.__name__
    g.__qualname__ = f.__qualname__
    g.__doc__ = f.__doc__
    return g


sum = _with_axis(sum, "sum")
prod = _with_axis(prod, "prod")
min = _with_axis(min, "min")
max = _with_axis(max, "max")
argmin = _with_axis(argmin, "argmin")
argmax = _with_axis(argmax, "argmax")
mean = _with_axis(mean, "mean")
var = _with_axis(var, "var")
std = _with_axis(std, "std")
any = _with_axis(any, "any")
all = _with_axis(all, "all")
count_nonzero = _with_axis(count_nonzero, "count_nonzero")
