"""The ``pdarray``: a 1-D distributed array, or a lazy elementwise expression over some.

Elementwise operators build a fused expression (checked at once for dtype errors) that runs
as one owner-computes loop when its value is needed: printing, indexing, a reduction,
``to_ndarray``, or an assignment (``a[:] = b + 3 * c`` writes in place, no temporary).
"""

from __future__ import annotations

import builtins
import html as _html
import math
import os
import weakref
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, ClassVar

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
_pending: weakref.WeakValueDictionary[int, pdarray] = weakref.WeakValueDictionary()
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


def html_rows(n: int) -> tuple[list[int], list[int]]:
    """The positions ``_repr_html_`` shows of ``n`` rows: all of them, or the head and the tail.

    Parameters
    ----------
    n : int
        The number of rows.

    Returns
    -------
    tuple of list of int
        ``(head, tail)`` position lists; ``tail`` empty when all are shown.

    Examples
    --------
    >>> from atoll.numpy.pdarrayclass import html_rows
    >>> html_rows(3), html_rows(12)
    (([0, 1, 2], []), ([0, 1, 2, 3, 4], [7, 8, 9, 10, 11]))
    """
    if n <= HTML_ROWS:
        return list(range(n)), []
    k = HTML_ROWS // 2
    return list(range(k)), list(range(n - k, n))


def html_table(
    header: Sequence[object], head: Sequence[Sequence[object]], tail: Sequence[Sequence[object]], caption: str
) -> str:
    """An HTML table for Jupyter; every cell is escaped.

    Parameters
    ----------
    header : list
        The header cells.
    head : list of list
        The first rows (lists of cells, the first one the row label).
    tail : list of list
        The last rows, after a row of "..." when there are some.
    caption : str
        Shape, dtypes, memory: a paragraph under the table.

    Returns
    -------
    str
        The HTML.

    Examples
    --------
    >>> from atoll.numpy.pdarrayclass import html_table
    >>> print(html_table(["", "value"], [[0, "<a>"]], [], "1 value"))
    <table border="1" class="dataframe">
    <thead><tr>
    <th></th>
    <th>value</th>
    </tr></thead><tbody>
    <tr><th>0</th><td>&lt;a&gt;</td></tr>
    </tbody></table>
    <p>1 value</p>
    """
    e = _html.escape

    def row(cells: Sequence[object]) -> str:
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


def byte_size(n: int) -> str:
    """``n`` bytes as Jupyter's captions write them.

    Parameters
    ----------
    n : int
        A number of bytes.

    Returns
    -------
    str
        "123 B", "4.5 KB", "6.7 MB" or "8.9 GB".

    Examples
    --------
    >>> from atoll.numpy.pdarrayclass import byte_size
    >>> byte_size(123), byte_size(4608)
    ('123 B', '4.5 KB')
    """
    for unit, scale in (("GB", 1024**3), ("MB", 1024**2), ("KB", 1024)):
        if n >= scale:
            return f"{n / scale:.1f} {unit}"
    return f"{n} B"


def _before_write(arr: object, spare: object = None) -> None:
    """Computes every lazy array that reads the native array ``arr``, which is about to be written.

    ``spare`` is a lazy value that the caller assigns and then drops (its expression may read
    ``arr``: the native side evaluates it before writing).
    """
    for p in list(_pending.values()):
        if p is not spare and p._expr is not None and p._expr.reads(arr):
            p._materialize()


class pdarray(Registrable):
    """A distributed array of int64, uint64, float64, bool or uint8 (Arkouda's pdarray).

    Of any rank from 0 to 8: its values in C order as a 1-D Block-distributed array, and a
    shape (``_shape``: None for rank 1; see ``atoll.numpy._nd``).
    """

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
        def astype(self, dtype: Any) -> "pdarray": ...  # noqa: ANN401, D102 (any dtype-like)
        def __getitem__(self, key: Any) -> Any: ...  # noqa: ANN401 (a scalar or a pdarray)
        def reshape(self, *shape: Any, order: str = "C") -> "pdarray": ...  # noqa: ANN401, D102 (ints or a tuple)
        def flatten(self) -> "pdarray": ...  # noqa: D102 (set by attach)
        def ravel(self) -> "pdarray": ...  # noqa: D102 (set by attach)
        def transpose(self, *axes: Any) -> "pdarray": ...  # noqa: ANN401, D102 (ints or a tuple)
        def argsort(self, algorithm: object = None, axis: int = -1, ascending: bool = True) -> "pdarray": ...  # noqa: D102 (set by attach)
        def take(self, indices: object, axis: int | None = None) -> "pdarray": ...  # noqa: D102 (set by attach)
        @property
        def T(self) -> "pdarray": ...  # noqa: D102 (set by attach)
        def __matmul__(self, other: object) -> Any: ...  # noqa: ANN401 (a pdarray or NotImplemented)
        def __rmatmul__(self, other: object) -> Any: ...  # noqa: ANN401 (a pdarray or NotImplemented)
        def _binop(self, other: Any, op: str, reverse: bool = False) -> Any: ...  # noqa: ANN401 (an operand; its result)
        def _assign(self, key: Any, value: Any, spare: object = None) -> None: ...  # noqa: ANN401 (any index and value)
        def to_parquet(  # noqa: D102 (set by attach)
            self, prefix_path: str, dataset: str = "array", mode: str = "truncate", compression: str | None = None
        ) -> None: ...
        def value_counts(self) -> tuple["pdarray", "pdarray"]: ...  # noqa: D102 (set by attach)
        def popcount(self) -> "pdarray": ...  # noqa: D102 (set by attach)
        def parity(self) -> "pdarray": ...  # noqa: D102 (set by attach)
        def clz(self) -> "pdarray": ...  # noqa: D102 (set by attach)
        def ctz(self) -> "pdarray": ...  # noqa: D102 (set by attach)
        def rotl(self, other: object) -> "pdarray": ...  # noqa: D102 (set by attach)
        def rotr(self, other: object) -> "pdarray": ...  # noqa: D102 (set by attach)
        def isna(self) -> "pdarray": ...  # noqa: D102 (set by attach)
        def isnull(self) -> "pdarray": ...  # noqa: D102 (set by attach)
        def notna(self) -> "pdarray": ...  # noqa: D102 (set by attach)
        def notnull(self) -> "pdarray": ...  # noqa: D102 (set by attach)
        def fillna(self, value: object) -> "pdarray": ...  # noqa: D102 (set by attach)
        def dropna(self) -> "pdarray": ...  # noqa: D102 (set by attach)
        def corr(self, y: "pdarray") -> float: ...  # noqa: D102 (set by attach)

    def __init__(
        self,
        arr: Any = None,  # noqa: ANN401 (a native array)
        start: int = 0,
        step: int = 1,
        size: int | None = None,
        expr: Any = None,  # noqa: ANN401 (a native expression)
        dtype: Any = None,  # noqa: ANN401 (a dtype-like)
        nodes: int = 1,
        shape: tuple[int, ...] | None = None,
    ) -> None:
        self._arr = arr
        self._start = start
        self._step = step
        self._size = arr.size if size is None else size
        self._expr = expr
        self._nodes = nodes
        self._dtype: np.dtype[Any] = np.dtype(dtype if dtype is not None else arr.dtype)
        self._shape = None if shape is None or len(shape) == 1 else tuple(shape)
        if expr is not None:
            _pending[id(self)] = self

    @classmethod
    def _lazy(cls, ex: Any, size: int, nodes: int, shape: tuple[int, ...] | None = None) -> pdarray:  # noqa: ANN401 (a native expression)
        p = cls(None, 0, 1, size, ex, ex.dtype, nodes, shape)
        if nodes > _MAX_NODES or _EAGER[0]:
            p._materialize()
        return p

    # ----- state -------------------------------------------------------------------------
    def _materialize(self) -> pdarray:
        if self._expr is not None:
            self._arr = _atoll.evaluate(self._expr, self._size)
            self._start, self._step, self._expr, self._nodes = 0, 1, None, 1
            _pending.pop(id(self), None)
        return self

    def _ex(self) -> Any:  # noqa: ANN401 (a native expression)
        if self._expr is not None:
            return self._expr
        return _atoll.leaf(self._arr, self._start, self._step, self._size)

    def _whole(self) -> Any:  # noqa: ANN401 (a native array)
        """The materialized array, as a whole native array (copied when a selection)."""
        self._materialize()
        if self._start == 0 and self._step == 1 and self._size == self._arr.size:
            return self._arr
        return _atoll.evaluate(self._ex(), self._size)

    # ----- attributes --------------------------------------------------------------------
    @property
    def dtype(self) -> np.dtype[Any]:
        """The NumPy dtype of the values."""
        return self._dtype

    @property
    def name(self) -> str:
        """The array's name in the symbol table (Arkouda's server-side name).

        See ``ak.list_symbol_table``; not the name it is registered under.
        """
        return symbol_name(self)

    # ----- registration -------------------------------------------------------------------
    # ``Registrable`` gives register/unregister/is_registered; the name lives in a slot.
    @property
    def registered_name(self) -> str | None:
        """The name the array is registered under (None when not registered)."""
        return getattr(self, "_registered", None)

    @registered_name.setter
    def registered_name(self, value: str | None) -> None:
        self._registered = value

    @property
    def size(self) -> int:
        """The number of elements."""
        n: int = self._size
        return n

    @property
    def ndim(self) -> int:
        """The rank."""
        return 1 if self._shape is None else len(self._shape)

    @property
    def shape(self) -> tuple[int, ...]:
        """The length of each axis."""
        return (self._size,) if self._shape is None else self._shape

    @property
    def itemsize(self) -> int:
        """The bytes of one element."""
        return self._dtype.itemsize

    @property
    def nbytes(self) -> int:
        """The bytes of all the elements."""
        n: int = self._size * self._dtype.itemsize
        return n

    def __len__(self) -> int:
        # Arkouda's len() of a pdarray of any rank is its number of elements (NumPy's is the
        # length of the first axis); iterating a multi-dimensional pdarray still yields rows.
        if self._shape == ():
            raise TypeError("len() of unsized object")
        return self._size

    # ----- conversion --------------------------------------------------------------------
    @tracked("to_ndarray", rows=0)
    def to_ndarray(self) -> np.ndarray[Any, Any]:
        """The values as a NumPy array (gathered to the driver with one copy).

        Returns
        -------
        numpy.ndarray
            The values, of the array's shape and dtype.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.arange(3).to_ndarray()
        array([0, 1, 2])
        """
        out = np.empty(self._size, dtype=self._dtype)
        if self._size:
            _atoll.to_buffer(self._ex(), self._size, out.view(np.uint8) if self._dtype == bool_ else out)
        return out if self._shape is None else out.reshape(self._shape)

    def tolist(self) -> Any:  # noqa: ANN401 (a list, nested by rank, or a scalar)
        """The values as (nested) Python lists of Python scalars.

        Returns
        -------
        list
            The values (a scalar for rank 0).

        Examples
        --------
        >>> import atoll as ak
        >>> ak.arange(4).reshape(2, 2).tolist()
        [[0, 1], [2, 3]]
        """
        return self.to_ndarray().tolist()

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray[Any, Any]:  # noqa: ANN401 (a dtype-like)
        a = self.to_ndarray()
        return a if dtype is None else a.astype(dtype)

    def __iter__(self) -> Iterator[Any]:
        if self._shape is not None and len(self._shape) > 1:
            return (self[k] for k in range(self._shape[0]))
        if self._shape == ():
            raise TypeError("iteration over a 0-d array")
        return iter(self.to_ndarray())

    def _fmt(self, prefix: str = "") -> str:
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

    def _fmt_nd(self, limit: int, prefix: str) -> str:
        """NumPy's layout of an array of rank other than 1.

        Continuation lines are indented by the length of ``prefix``. Above ``limit`` elements,
        as NumPy summarises: the first and last ``EDGE_ITEMS`` along each longer axis with "..."
        between; only those are gathered (with one element of the middle, which NumPy's summary
        drops).
        """
        opts: dict[str, Any] = {"separator": " ", "max_line_width": 10**9, "prefix": prefix}
        if self._size <= limit:
            return np.array2string(self.to_ndarray(), threshold=limit + 1, **opts)
        e = EDGE_ITEMS
        picks = [np.arange(n) if n <= 2 * e else np.r_[0:e, e, n - e : n] for n in self.shape]
        part = self[np.ix_(*picks)].to_ndarray()
        return np.array2string(part, threshold=0, edgeitems=e, **opts)

    def __str__(self) -> str:
        return self._fmt()

    def __repr__(self) -> str:
        return f"array({self._fmt('array(')})"

    def to_arrow(self) -> Any:  # noqa: ANN401 (a pyarrow.Array)
        """The ``pyarrow.Array`` of the values.

        Returns
        -------
        pyarrow.Array
            It wraps the NumPy array ``to_ndarray`` gathers (no second copy; a bool array is bit-packed, a copy).

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array([1, 2]).to_arrow().to_pylist()
        [1, 2]
        """
        return pa.array(self.to_ndarray())

    def _repr_html_(self) -> str:
        """Jupyter's display: the head and tail values by position, the size, dtype and bytes.

        Of rank 2 or more: the head and tail rows along axis 0, each as NumPy prints it.
        """
        if self._shape is not None:
            rows = self._shape[0] if self._shape else 1
            head, tail = html_rows(rows)

            def cells(ks: list[int]) -> list[list[Any]]:
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

    def __bool__(self) -> bool:
        if self._size != 1:
            raise ValueError(
                "The truth value of an array with more than one element is ambiguous. Use a.any() or a.all()"
            )
        return builtins.bool(self[0])

    def _cast(self, d: Any) -> Any:  # noqa: ANN401 (a dtype; a native expression)
        ex = self._ex()
        return ex if self._dtype == d else _atoll.cast(ex, d.name)

    def __add__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._binop(o, "+")

    def __radd__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._binop(o, "+", True)

    def __sub__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._binop(o, "-")

    def __rsub__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._binop(o, "-", True)

    def __mul__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._binop(o, "*")

    def __rmul__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._binop(o, "*", True)

    def __truediv__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._binop(o, "/")

    def __rtruediv__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._binop(o, "/", True)

    def __floordiv__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._binop(o, "//")

    def __rfloordiv__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._binop(o, "//", True)

    def __mod__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._binop(o, "%")

    def __rmod__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._binop(o, "%", True)

    def __pow__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._binop(o, "**")

    def __rpow__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._binop(o, "**", True)

    def __lt__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._binop(o, "<")

    def __le__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._binop(o, "<=")

    def __gt__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._binop(o, ">")

    def __ge__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._binop(o, ">=")

    def __eq__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._binop(o, "==")

    def __ne__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._binop(o, "!=")

    def __and__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._binop(o, "&")

    def __rand__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._binop(o, "&", True)

    def __or__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._binop(o, "|")

    def __ror__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._binop(o, "|", True)

    def __xor__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._binop(o, "^")

    def __rxor__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._binop(o, "^", True)

    def __lshift__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._binop(o, "<<")

    def __rlshift__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._binop(o, "<<", True)

    def __rshift__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._binop(o, ">>")

    def __rrshift__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._binop(o, ">>", True)

    __hash__: ClassVar[None]  # type: ignore[assignment]  # unhashable, as NumPy's arrays
    __hash__ = None

    def _unary(self, op: str) -> pdarray:
        return pdarray._lazy(_atoll.unary(op, self._ex()), self._size, self._nodes + 1, self._shape)

    def __neg__(self) -> pdarray:
        return self._unary("neg")

    def __pos__(self) -> pdarray:
        if self._dtype == bool_:
            raise TypeError("ufunc 'positive' did not contain a loop with signature matching types (bool)")
        return self

    def __abs__(self) -> pdarray:
        return self._unary("abs")

    def __invert__(self) -> pdarray:
        return self._unary("invert")

    def _inplace(self, o: object, op: str) -> Any:  # noqa: ANN401 (self, or NotImplemented)
        r = self._binop(o, op)
        if r is NotImplemented:
            return r
        if not np.can_cast(r.dtype, self._dtype, casting="same_kind"):
            raise TypeError(
                f"Cannot cast ufunc {op!r} output from dtype('{r.dtype}') to dtype('{self._dtype}') with casting rule 'same_kind'"
            )
        self._assign(slice(None), r, spare=r)
        return self

    def __iadd__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._inplace(o, "+")

    def __isub__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._inplace(o, "-")

    def __imul__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._inplace(o, "*")

    def __itruediv__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._inplace(o, "/")

    def __ifloordiv__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._inplace(o, "//")

    def __imod__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._inplace(o, "%")

    def __ipow__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._inplace(o, "**")

    def __iand__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._inplace(o, "&")

    def __ior__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._inplace(o, "|")

    def __ixor__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._inplace(o, "^")

    def __ilshift__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._inplace(o, "<<")

    def __irshift__(self, o: object) -> Any:  # noqa: ANN401 (a pdarray, or NotImplemented)
        return self._inplace(o, ">>")

    # ----- indexing ----------------------------------------------------------------------
    def _position(self, key: Any) -> int:  # noqa: ANN401 (an integer)
        k = int(key)
        if k < 0:
            k += self._size
        if not 0 <= k < self._size:
            raise IndexError(f"index {int(key)} is out of bounds for axis 0 with size {self._size}")
        pos: int = self._start + k * self._step
        return pos

    def __setitem__(self, key: Any, value: Any) -> None:  # noqa: ANN401 (any index and value)
        self._assign(key, value)

    # ----- methods (Arkouda's) -----------------------------------------------------------
    def sum(self, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Any:  # noqa: ANN401 (a NumPy scalar or a pdarray)
        """The sum of the elements (int64 for bool) (``ak.sum``).

        Parameters
        ----------
        axis : int, tuple of int or None
            The axes reduced; None: all of them.
        keepdims : bool, default False
            Keep the reduced axes as axes of length one.

        Returns
        -------
        numpy scalar or pdarray
            A NumPy scalar over every axis, else a pdarray of the other axes.

        Examples
        --------
        >>> import atoll as ak
        >>> import numpy as np
        >>> ak.array([1, 2, 3]).sum()
        np.int64(6)
        """
        return sum(self, axis=axis, keepdims=keepdims)

    def prod(self, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Any:  # noqa: ANN401 (a NumPy scalar or a pdarray)
        """The product of the elements (int64 for bool) (``ak.prod``).

        Parameters
        ----------
        axis : int, tuple of int or None
            The axes reduced; None: all of them.
        keepdims : bool, default False
            Keep the reduced axes as axes of length one.

        Returns
        -------
        numpy scalar or pdarray
            A NumPy scalar over every axis, else a pdarray of the other axes.

        Examples
        --------
        >>> import atoll as ak
        >>> import numpy as np
        >>> ak.array([2, 3]).prod()
        np.int64(6)
        """
        return prod(self, axis=axis, keepdims=keepdims)

    def min(self, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Any:  # noqa: ANN401 (a NumPy scalar or a pdarray)
        """The smallest element (NaN if any) (``ak.min``).

        Parameters
        ----------
        axis : int, tuple of int or None
            The axes reduced; None: all of them.
        keepdims : bool, default False
            Keep the reduced axes as axes of length one.

        Returns
        -------
        numpy scalar or pdarray
            A NumPy scalar over every axis, else a pdarray of the other axes.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array([[3, 1], [2, 5]]).min(axis=0).tolist()
        [2, 1]
        """
        return min(self, axis=axis, keepdims=keepdims)

    def max(self, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Any:  # noqa: ANN401 (a NumPy scalar or a pdarray)
        """The largest element (NaN if any) (``ak.max``).

        Parameters
        ----------
        axis : int, tuple of int or None
            The axes reduced; None: all of them.
        keepdims : bool, default False
            Keep the reduced axes as axes of length one.

        Returns
        -------
        numpy scalar or pdarray
            A NumPy scalar over every axis, else a pdarray of the other axes.

        Examples
        --------
        >>> import atoll as ak
        >>> import numpy as np
        >>> ak.array([3.0, 7.5]).max()
        np.float64(7.5)
        """
        return max(self, axis=axis, keepdims=keepdims)

    def argmin(self, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Any:  # noqa: ANN401 (a NumPy scalar or a pdarray)
        """The index of the first smallest element (``ak.argmin``).

        Parameters
        ----------
        axis : int, tuple of int or None
            The axes reduced; None: all of them.
        keepdims : bool, default False
            Keep the reduced axes as axes of length one.

        Returns
        -------
        numpy scalar or pdarray
            A NumPy scalar over every axis, else a pdarray of the other axes.

        Examples
        --------
        >>> import atoll as ak
        >>> import numpy as np
        >>> ak.array([3, 1, 1]).argmin()
        np.int64(1)
        """
        return argmin(self, axis=axis, keepdims=keepdims)

    def argmax(self, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Any:  # noqa: ANN401 (a NumPy scalar or a pdarray)
        """The index of the first largest element (``ak.argmax``).

        Parameters
        ----------
        axis : int, tuple of int or None
            The axes reduced; None: all of them.
        keepdims : bool, default False
            Keep the reduced axes as axes of length one.

        Returns
        -------
        numpy scalar or pdarray
            A NumPy scalar over every axis, else a pdarray of the other axes.

        Examples
        --------
        >>> import atoll as ak
        >>> import numpy as np
        >>> ak.array([3, 9, 9]).argmax()
        np.int64(1)
        """
        return argmax(self, axis=axis, keepdims=keepdims)

    def mean(self, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Any:  # noqa: ANN401 (a NumPy scalar or a pdarray)
        """The arithmetic mean (float64) (``ak.mean``).

        Parameters
        ----------
        axis : int, tuple of int or None
            The axes reduced; None: all of them.
        keepdims : bool, default False
            Keep the reduced axes as axes of length one.

        Returns
        -------
        numpy scalar or pdarray
            A NumPy scalar over every axis, else a pdarray of the other axes.

        Examples
        --------
        >>> import atoll as ak
        >>> import numpy as np
        >>> ak.array([1, 2, 6]).mean()
        np.float64(3.0)
        """
        return mean(self, axis=axis, keepdims=keepdims)

    def var(self, ddof: float = 0, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Any:  # noqa: ANN401 (a NumPy scalar or a pdarray)
        """The variance, ``sum((x - mean)**2) / (size - ddof)`` (``ak.var``).

        Parameters
        ----------
        ddof : int, default 0
            Delta degrees of freedom.
        axis : int, tuple of int or None
            The axes reduced; None: all of them.
        keepdims : bool, default False
            Keep the reduced axes as axes of length one.

        Returns
        -------
        numpy scalar or pdarray
            A NumPy scalar over every axis, else a pdarray of the other axes.

        Examples
        --------
        >>> import atoll as ak
        >>> import numpy as np
        >>> ak.array([1.0, 3.0]).var()
        np.float64(1.0)
        """
        return var(self, ddof, axis=axis, keepdims=keepdims)

    def std(self, ddof: float = 0, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Any:  # noqa: ANN401 (a NumPy scalar or a pdarray)
        """The standard deviation, ``sqrt(var(ddof))`` (``ak.std``).

        Parameters
        ----------
        ddof : int, default 0
            Delta degrees of freedom.
        axis : int, tuple of int or None
            The axes reduced; None: all of them.
        keepdims : bool, default False
            Keep the reduced axes as axes of length one.

        Returns
        -------
        numpy scalar or pdarray
            A NumPy scalar over every axis, else a pdarray of the other axes.

        Examples
        --------
        >>> import atoll as ak
        >>> import numpy as np
        >>> ak.array([1.0, 3.0]).std(ddof=1)
        np.float64(1.4142135623730951)
        """
        return std(self, ddof, axis=axis, keepdims=keepdims)

    def any(self, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Any:  # noqa: ANN401 (a NumPy scalar or a pdarray)
        """Whether some element is nonzero (``ak.any``).

        Parameters
        ----------
        axis : int, tuple of int or None
            The axes reduced; None: all of them.
        keepdims : bool, default False
            Keep the reduced axes as axes of length one.

        Returns
        -------
        numpy scalar or pdarray
            A NumPy scalar over every axis, else a pdarray of the other axes.

        Examples
        --------
        >>> import atoll as ak
        >>> import numpy as np
        >>> ak.array([0, 0, 2]).any()
        np.True_
        """
        return any(self, axis=axis, keepdims=keepdims)

    def all(self, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Any:  # noqa: ANN401 (a NumPy scalar or a pdarray)
        """Whether every element is nonzero (``ak.all``).

        Parameters
        ----------
        axis : int, tuple of int or None
            The axes reduced; None: all of them.
        keepdims : bool, default False
            Keep the reduced axes as axes of length one.

        Returns
        -------
        numpy scalar or pdarray
            A NumPy scalar over every axis, else a pdarray of the other axes.

        Examples
        --------
        >>> import atoll as ak
        >>> import numpy as np
        >>> ak.array([1, 0]).all()
        np.False_
        """
        return all(self, axis=axis, keepdims=keepdims)

    def is_sorted(self, axis: int | tuple[int, ...] | None = None) -> Any:  # noqa: ANN401 (a NumPy bool or a pdarray)
        """Whether the elements are in nondecreasing order (``ak.is_sorted``).

        Parameters
        ----------
        axis : int, tuple of int or None
            Of an N-d pdarray: the lanes tested.

        Returns
        -------
        numpy.bool or pdarray
            True when sorted; a bool pdarray of the other axes with ``axis``.

        Examples
        --------
        >>> import atoll as ak
        >>> import numpy as np
        >>> ak.array([1, 2, 2]).is_sorted()
        np.True_
        """
        return is_sorted(self, axis)

    def cumsum(self, axis: int | None = None) -> pdarray:
        """The inclusive prefix sums (``ak.cumsum``).

        Parameters
        ----------
        axis : int, optional
            The axis scanned; None: the flat values.

        Returns
        -------
        pdarray
            The prefix sums (int64 for bool).

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array([1, 2, 3]).cumsum().tolist()
        [1, 3, 6]
        """
        return cumsum(self, axis)

    def cumprod(self, axis: int | None = None) -> pdarray:
        """The inclusive prefix products (``ak.cumprod``).

        Parameters
        ----------
        axis : int, optional
            The axis scanned; None: the flat values.

        Returns
        -------
        pdarray
            The prefix products (int64 for bool).

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array([1, 2, 3]).cumprod().tolist()
        [1, 2, 6]
        """
        return cumprod(self, axis)

    # ----- more of Arkouda's methods -----------------------------------------------------
    @property
    def inferred_type(self) -> str:
        """The pandas name of the kind of values: 'integer', 'floating' or 'boolean'."""
        return {"i": "integer", "u": "integer", "f": "floating", "b": "boolean"}[self._dtype.kind]

    def copy(self) -> pdarray:
        """A new array with the same values.

        Returns
        -------
        pdarray
            The copy.

        Examples
        --------
        >>> import atoll as ak
        >>> a = ak.arange(3)
        >>> b = a.copy()
        >>> b[0] = 9
        >>> a.tolist(), b.tolist()
        ([0, 1, 2], [9, 1, 2])
        """
        return pdarray(_atoll.evaluate(self._ex(), self._size), shape=self._shape)

    def fill(self, value: object) -> None:
        """Sets every element to ``value`` (in place).

        Parameters
        ----------
        value : scalar
            The value.

        Examples
        --------
        >>> import atoll as ak
        >>> a = ak.zeros(2)
        >>> a.fill(4)
        >>> a.tolist()
        [4.0, 4.0]
        """
        self[:] = value

    def equals(self, other: object) -> bool:
        """Whether ``other`` is a pdarray of the same dtype, size and values.

        Parameters
        ----------
        other : object
            Anything.

        Returns
        -------
        bool
            True when equal.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.arange(3).equals(ak.array([0, 1, 2])), ak.arange(3).equals(ak.zeros(3))
        (True, False)
        """
        if not isinstance(other, pdarray) or other._dtype != self._dtype or other._size != self._size:
            return False
        return self._size == 0 or builtins.bool(all(self == other))

    def is_locally_sorted(self) -> Any:  # noqa: ANN401 (a NumPy bool)
        """Whether each locale's part is sorted (the whole array being sorted implies it).

        Returns
        -------
        numpy.bool
            True when every part is sorted.

        Examples
        --------
        >>> import atoll as ak
        >>> import numpy as np
        >>> ak.array([1, 2, 3]).is_locally_sorted()
        np.True_
        """
        return is_locally_sorted(self)

    def slice_bits(self, low: int, high: int) -> pdarray:
        """Bits ``low..high`` (inclusive, from the least significant) of each element.

        Parameters
        ----------
        low, high : int
            The bit positions, ``0 <= low <= high``.

        Returns
        -------
        pdarray
            uint64 values.

        Raises
        ------
        ValueError
            ``low`` or ``high`` out of order.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.array([0b1101]).slice_bits(1, 2).tolist()
        [2]
        """
        if not 0 <= low <= high:
            raise ValueError(f"low/high: need 0 <= low <= high, got {low}, {high}")
        width = high - low + 1
        x = self.astype(uint64) >> low
        out: pdarray = x if width >= 64 else x & ((1 << width) - 1)
        return out

    def sum_bits(self) -> Any:  # noqa: ANN401 (a NumPy integer)
        """The number of set bits of all the elements together.

        Returns
        -------
        numpy.int64 or numpy.uint64
            The count.

        Examples
        --------
        >>> import atoll as ak
        >>> import numpy as np
        >>> ak.array([3, 4]).sum_bits()
        np.int64(3)
        """
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


def _cmp_out_of_range(a: pdarray, v: int, op: str, reverse: bool) -> pdarray | None:
    """NumPy 2 compares by value: a Python int outside an integer array's range gives a constant answer.

    ``uint64_array == -1`` is all False. None when ``v`` is in range.
    """
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


def _cmp_mixed_sign(a: pdarray, b: pdarray, op: str, reverse: bool) -> pdarray:
    """``a op b`` for an int64 and a uint64 array, by value (not through float64)."""
    left, right = (b, a) if reverse else (a, b)
    if left._dtype == uint64:  # as "int64 op uint64"
        left, right, op = right, left, _FLIP[op]
    neg: pdarray = left < 0
    lu: pdarray = left.astype(uint64)
    out: pdarray
    if op == "==":
        out = ~neg & (lu == right)
    elif op == "!=":
        out = neg | (lu != right)
    elif op == "<":
        out = neg | (lu < right)
    elif op == "<=":
        out = neg | (lu <= right)
    elif op == ">":
        out = ~neg & (lu > right)
    else:
        out = ~neg & (lu >= right)
    return out


def _size(size: object, name: str = "size", text: bool = False) -> int:
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


def _seed(seed: object) -> int:
    """A seed argument checked and reduced to 64 bits (None: a fresh random one)."""
    if seed is None:
        return builtins.int.from_bytes(os.urandom(8), "little")
    if isinstance(seed, (builtins.bool, np.bool_)) or not isinstance(seed, (builtins.int, np.integer)):
        raise TypeError(f"seed: expected an int, got {type(seed).__name__}")
    return builtins.int(seed) % (1 << 64)


def _full(size: int, value: object, dtype: Any) -> pdarray:  # noqa: ANN401 (a dtype-like)
    """An array of ``size`` elements equal to ``value``, of the NumPy dtype ``dtype``.

    What this module's functions need of ``pdarraycreation.full``, which sits above the type.
    """
    d: np.dtype[Any] = np.dtype(dtype)
    return pdarray(_atoll.full(size, d.name, _scalar_value(value, d)))


def _from_numpy(x: np.ndarray[Any, Any]) -> pdarray:
    """A pdarray with a copy of the 1-D NumPy array ``x`` of a supported dtype.

    What this layer's functions need of ``pdarraycreation.array``, which sits above the type.
    """
    x = np.ascontiguousarray(x)
    return pdarray(_atoll.from_buffer(x.view(np.uint8) if x.dtype == bool_ else x, x.dtype.name))


def _scalar_value(x: Any, d: np.dtype[Any]) -> bool | int | float:  # noqa: ANN401 (a scalar)
    """``x`` converted to a Python value of dtype ``d``.

    NumPy's rules for the cast; a Python int out of the dtype's range raises OverflowError, as
    NumPy 2.
    """
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


def _slice_indices(key: slice, n: int) -> tuple[int, int, int]:
    """``key.indices(n)`` with NumPy's messages.

    A step of 0 is a ValueError, a non-integer bound a TypeError naming it.
    """
    for name in ("start", "stop", "step"):
        v = getattr(key, name)
        if v is not None and (isinstance(v, builtins.float) or not hasattr(v, "__index__")):
            raise TypeError(
                f"slice {name}: slice indices must be integers or None or have an __index__ method, got {v!r}"
            )
    if key.step is not None and key.step.__index__() == 0:
        raise ValueError("slice step cannot be zero")
    return key.indices(n)


def set_eager(on: bool = True) -> bool:
    """Evaluate every elementwise expression at once, or lazily.

    Parameters
    ----------
    on : bool, default True
        At once (Arkouda's behaviour), or lazily, fused with the expressions that use it (False, the default unless ``ATOLL_EAGER=1``).

    Returns
    -------
    bool
        The previous setting.

    Examples
    --------
    >>> import atoll as ak
    >>> old = ak.set_eager(True)
    >>> ak.is_eager()
    True
    >>> _ = ak.set_eager(old)
    """
    old: bool = _EAGER[0]
    _EAGER[0] = builtins.bool(on)
    return old


def is_eager() -> bool:
    """Whether elementwise expressions are evaluated at once (see ``set_eager``).

    Returns
    -------
    bool
        True when eager.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.is_eager() in (True, False)
    True
    """
    eager: bool = _EAGER[0]
    return eager


def _check_exponent(e: Any) -> None:  # noqa: ANN401 (a pdarray or a scalar)
    """NumPy refuses negative integer exponents; so do we, on the line that asks."""
    neg = (e < 0) if is_scalar(e) else (e._dtype == int64 and e._size and min(e) < 0)
    if neg:
        raise ValueError("Integers to negative integer powers are not allowed.")


def _np_scalar(v: object, d: np.dtype[Any]) -> Any:  # noqa: ANN401 (a NumPy scalar)
    return d.type(v)


def _check(pda: object, name: str = "pda") -> None:
    if not isinstance(pda, pdarray):
        raise TypeError(f"{name}: expected a pdarray, got {type(pda).__name__}")


def _reduce(pda: Any, op: str, d: np.dtype[Any] | None = None) -> Any:  # noqa: ANN401 (an array; a Python scalar or None)
    _check(pda)
    ex = pda._ex() if d is None or pda._dtype == d else _atoll.cast(pda._ex(), d.name)
    return _atoll.reduce(ex, pda._size, op)


def _sum_dtype(pda: pdarray) -> np.dtype[Any]:
    """NumPy's dtype of a sum, product or scan: int64 for bool, uint64 for uint8."""
    return int64 if pda._dtype == bool_ else uint64 if pda._dtype == uint8 else pda._dtype


def _sum_all(pda: pdarray) -> Any:  # noqa: ANN401 (a NumPy scalar)
    """The sum of the elements (int64 for bool).

    float64 sums are pairwise, as NumPy's: blocks of at most 128 elements summed with 8
    interleaved accumulators, halves added recursively, and the partial sums of chunks, tasks
    and locales combined as a balanced tree; the error grows with log(n), and the result is the
    same on every call for a given locale count (it may differ from NumPy's in the last bits:
    the split points differ).

    Parameters
    ----------
    pda : pdarray
        The values.
    axis : int, tuple of int or None
        The axes summed; None: all of them.
    keepdims : bool, default False
        Keep the summed axes as axes of length one.

    Returns
    -------
    numpy scalar or pdarray
        A NumPy scalar over every axis, else a pdarray of the other axes.

    Examples
    --------
    >>> import atoll as ak
    >>> import numpy as np
    >>> ak.sum(ak.array([1, 2, 3])), ak.sum(ak.array([[1, 2], [3, 4]]), axis=0).tolist()
    (np.int64(6), [4, 6])
    """
    d = _sum_dtype(pda) if isinstance(pda, pdarray) else None
    v = _reduce(pda, "sum", d)
    return _np_scalar(0 if v is None else v, d)


def _prod_all(pda: pdarray) -> Any:  # noqa: ANN401 (a NumPy scalar)
    """The product of the elements (int64 for bool); ``axis`` and ``keepdims`` as :func:`sum`'s.

    Examples
    --------
    >>> import atoll as ak
    >>> import numpy as np
    >>> ak.prod(ak.array([2, 3, 4]))
    np.int64(24)
    """
    d = _sum_dtype(pda) if isinstance(pda, pdarray) else None
    v = _reduce(pda, "prod", d)
    return _np_scalar(1 if v is None else v, d)


def _nonempty(pda: pdarray, what: str) -> Any:  # noqa: ANN401 (a Python scalar)
    v = _reduce(pda, what)
    if v is None:
        raise ValueError(f"pda: zero-size array to reduction operation {what} which has no identity")
    return v


def _min_all(pda: pdarray) -> Any:  # noqa: ANN401 (a NumPy scalar)
    """The smallest element (NaN if any); ``axis`` and ``keepdims`` as :func:`sum`'s.

    Examples
    --------
    >>> import atoll as ak
    >>> import numpy as np
    >>> ak.min(ak.array([3, 1, 2]))
    np.int64(1)
    """
    return _np_scalar(_nonempty(pda, "min"), pda._dtype)


def _max_all(pda: pdarray) -> Any:  # noqa: ANN401 (a NumPy scalar)
    """The largest element (NaN if any); ``axis`` and ``keepdims`` as :func:`sum`'s.

    Examples
    --------
    >>> import atoll as ak
    >>> import numpy as np
    >>> ak.max(ak.array([3.0, np.nan]))
    np.float64(nan)
    """
    return _np_scalar(_nonempty(pda, "max"), pda._dtype)


def _argmin_all(pda: pdarray) -> np.int64:
    """The index of the first smallest element; ``axis`` (an int) and ``keepdims`` as :func:`sum`'s.

    Examples
    --------
    >>> import atoll as ak
    >>> import numpy as np
    >>> ak.argmin(ak.array([3, 1, 1]))
    np.int64(1)
    """
    return np.int64(_nonempty(pda, "argmin"))


def _argmax_all(pda: pdarray) -> np.int64:
    """The index of the first largest element; ``axis`` (an int) and ``keepdims`` as :func:`sum`'s.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.argmax(ak.array([[1, 9], [9, 0]]), axis=1).tolist()
    [1, 0]
    """
    return np.int64(_nonempty(pda, "argmax"))


def _truth(pda: Any) -> pdarray:  # noqa: ANN401 (a pdarray)
    _check(pda)
    if pda._dtype == bool_:
        same: pdarray = pda
        return same
    nonzero: pdarray = pda != 0
    return nonzero


def _any_all(pda: pdarray) -> np.bool_:
    """Whether some element is nonzero; ``axis`` and ``keepdims`` as :func:`sum`'s.

    Examples
    --------
    >>> import atoll as ak
    >>> import numpy as np
    >>> ak.any(ak.array([0, 0, 3]))
    np.True_
    """
    v = _reduce(_truth(pda), "any")
    return np.bool_(False if v is None else v)


def _all_all(pda: pdarray) -> np.bool_:
    """Whether every element is nonzero; ``axis`` and ``keepdims`` as :func:`sum`'s.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.all(ak.array([[1, 0], [1, 1]]), axis=0).tolist()
    [True, False]
    """
    v = _reduce(_truth(pda), "all")
    return np.bool_(True if v is None else v)


def _count_nonzero_all(pda: Any) -> np.int64:  # noqa: ANN401 (a pdarray or Strings)
    """The number of nonzero elements (of Strings: of nonempty strings).

    ``axis`` and ``keepdims`` as :func:`sum`'s.

    Examples
    --------
    >>> import atoll as ak
    >>> import numpy as np
    >>> ak.count_nonzero(ak.array([0, 5, 7])), ak.count_nonzero(ak.array(["", "a"]))
    (np.int64(2), np.int64(1))
    """
    if hasattr(pda, "_s"):  # Strings
        return np.int64(_reduce(pda.get_lengths() != 0, "count_nonzero") or 0)
    v = _reduce(_truth(pda), "count_nonzero")
    return np.int64(0 if v is None else v)


def _axis1(axis: object) -> None:
    if axis in (None, 0, -1) or (isinstance(axis, tuple) and len(axis) == 1 and axis[0] in (0, -1)):
        return
    # NumPy's AxisError is both a ValueError and an IndexError.
    raise np.exceptions.AxisError(f"axis {axis} is out of bounds for array of dimension 1")


def is_sorted(pda: Any, axis: int | tuple[int, ...] | None = None) -> Any:  # noqa: ANN401 (an array; a NumPy bool or a pdarray)
    """Whether the elements are in nondecreasing order.

    Parameters
    ----------
    pda : pdarray or bigint pdarray
        The values.
    axis : int, tuple of int or None
        Of an N-d pdarray (not all of its axes): the lanes tested.

    Returns
    -------
    numpy.bool or pdarray
        True when sorted; with ``axis``, a bool pdarray of the other axes' shape, True where the lane along ``axis`` is nondecreasing.

    Examples
    --------
    >>> import atoll as ak
    >>> import numpy as np
    >>> ak.is_sorted(ak.array([1, 2, 2])), ak.is_sorted(ak.array([[1, 0], [2, 3]]), axis=1).tolist()
    (np.True_, [False, True])
    """
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


def _sorted_lanes(pda: pdarray, axes: tuple[int, ...]) -> pdarray:
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


def is_locally_sorted(pda: pdarray, axis: int | tuple[int, ...] | None = None) -> Any:  # noqa: ANN401 (a NumPy bool or a pdarray)
    """Whether the part of each locale is sorted.

    Parameters
    ----------
    pda : pdarray
        The values.
    axis : int, tuple of int or None
        As :func:`is_sorted`'s.

    Returns
    -------
    numpy.bool or pdarray
        True when the Block parts ``ceil(k * n / L)`` to ``ceil((k + 1) * n / L)`` of the ``L`` locales are each sorted.

    Raises
    ------
    TypeError
        ``pda`` is not a pdarray.

    Examples
    --------
    >>> import atoll as ak
    >>> import numpy as np
    >>> ak.is_locally_sorted(ak.arange(10))
    np.True_
    """
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


def _mean_all(pda: pdarray) -> np.float64:
    """The arithmetic mean (float64); ``axis`` and ``keepdims`` as :func:`sum`'s.

    Examples
    --------
    >>> import atoll as ak
    >>> import numpy as np
    >>> ak.mean(ak.array([1, 2, 6]))
    np.float64(3.0)
    """
    _check(pda)
    if pda._size == 0:
        return np.float64(np.nan)
    return np.float64(_reduce(pda, "sum", float64) / pda._size)


def _var_all(pda: pdarray, ddof: float = 0) -> np.float64:
    """The variance, ``sum((x - mean)**2) / (size - ddof)``; ``axis`` and ``keepdims`` as :func:`sum`'s.

    Examples
    --------
    >>> import atoll as ak
    >>> import numpy as np
    >>> ak.var(ak.array([1.0, 3.0])), ak.var(ak.array([1.0, 3.0]), ddof=1)
    (np.float64(1.0), np.float64(2.0))
    """
    _check(pda)
    _check_ddof(ddof)
    if pda._size - ddof <= 0:
        # NumPy divides the squared deviations by 0.
        return np.float64(np.inf if pda._size and _var_all(pda) > 0 else np.nan)
    m = _mean_all(pda)
    d = pda.astype(float64) - builtins.float(m)
    return np.float64(_reduce(d * d, "sum") / (pda._size - ddof))


def _std_all(pda: pdarray, ddof: float = 0) -> np.float64:
    """The standard deviation, ``sqrt(var(pda, ddof))``; ``axis`` and ``keepdims`` as :func:`sum`'s.

    Examples
    --------
    >>> import atoll as ak
    >>> import numpy as np
    >>> ak.std(ak.array([1.0, 3.0]))
    np.float64(1.0)
    """
    return np.float64(np.sqrt(_var_all(pda, ddof)))


def _check_ddof(ddof: object) -> None:
    if not isinstance(ddof, (builtins.int, np.integer)) or ddof < 0:
        raise ValueError(f"ddof: expected a nonnegative integer, got {ddof!r}")


def _scan(pda: pdarray, op: str, axis: object = None) -> pdarray:
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


def _scan_axis(pda: pdarray, op: str, k: int, d: np.dtype[Any]) -> pdarray:
    """The inclusive scan of ``pda`` along axis ``k``, in the C-order flat values (no transpose).

    Along the first axis with long rows: row ``j`` combined with the finished row ``j - 1``,
    one fused loop per row, NumPy's order of operations. Otherwise in ``ceil(log2(len))`` steps
    (``len`` the axis' length), step ``j`` combining each element with the one ``2**j`` places
    before it along the axis (``2**j * stride`` flat positions before) when there is one:
    Hillis and Steele's prefix sums, between two buffers.
    """
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


def cumsum(pda: pdarray, axis: int | None = None) -> pdarray:
    """The inclusive prefix sums (int64 for bool), as NumPy's ``cumsum``.

    Parameters
    ----------
    pda : pdarray
        The values.
    axis : int, optional
        The axis scanned; None: the flat values (C order).

    Returns
    -------
    pdarray
        The prefix sums.

    Raises
    ------
    TypeError
        ``pda`` is not a pdarray, or ``axis`` not an int.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.cumsum(ak.array([[1, 2], [3, 4]]), axis=0).tolist()
    [[1, 2], [4, 6]]
    """
    return _scan(pda, "sum", axis)


def cumprod(pda: pdarray, axis: int | None = None) -> pdarray:
    """The inclusive prefix products (int64 for bool), as NumPy's ``cumprod``.

    Parameters
    ----------
    pda : pdarray
        The values.
    axis : int, optional
        The axis scanned; None: the flat values (C order).

    Returns
    -------
    pdarray
        The prefix products.

    Raises
    ------
    TypeError
        ``pda`` is not a pdarray, or ``axis`` not an int.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.cumprod(ak.array([1, 2, 3, 4])).tolist()
    [1, 2, 6, 24]
    """
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


def _norm_axes(axis: object, nd: int) -> tuple[int, ...]:
    """``axis`` (None, an int or a tuple of ints) as a sorted tuple of distinct axes.

    Of an array of rank ``nd`` (None: all of them), with NumPy's errors.
    """
    if axis is None:
        return tuple(range(nd))
    items: Sequence[object] = axis if isinstance(axis, (tuple, list)) else (axis,)
    out: list[int] = []
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


def _flat(x: pdarray) -> pdarray:
    """``x``'s flat values as a 1-D pdarray (no copy of a materialized array)."""
    x._materialize()
    return pdarray(x._arr, x._start, x._step, x._size)


def _shaped(r: pdarray, shape: tuple[int, ...]) -> pdarray:
    """The pdarray ``r``'s values with the shape ``shape`` (no copy)."""
    r._materialize()
    return pdarray(r._arr, r._start, r._step, r._size, shape=shape)


def _lanes(pda: pdarray, axes: tuple[int, ...]) -> pdarray:
    """``pda`` with the axes ``axes`` moved last.

    Each run of consecutive flat values as long as those axes' product is then one lane (the
    lanes in the C order of the other axes).
    """
    kept = [k for k in range(pda.ndim) if k not in axes]
    order = kept + list(axes)
    return pda if order == sorted(order) else pda.transpose(*order)


def _lane_starts(n: int, lane: int) -> Any:  # noqa: ANN401 (a native array)
    """The native bool array that is True at the first flat position of each lane.

    One strided write of the ``n // lane`` starts.
    """
    flags = _atoll.full(n, "bool", False)
    _atoll.assign(flags, 0, lane, n // lane, _atoll.scalar(True, "bool"))
    return flags


def _segmented(x: pdarray, op: str, lane: int, groups: int, ddof: int = 0) -> pdarray:
    """``op`` (an aggregation of ``_atoll.aggregate``) of each run of ``lane`` values of ``x``.

    ``groups`` runs; bool values as int64, uint8 as uint64. NaN is skipped (GroupBy's rule);
    ``_reduce_lanes`` restores NumPy's.
    """
    d = x._dtype
    vd = int64 if d == bool_ else uint64 if d == uint8 else d
    ex = x._ex() if vd == d else _atoll.cast(x._ex(), vd.name)
    return pdarray(_atoll.aggregate(ex, _lane_starts(x._size, lane), x._size, groups, op, ddof))


def _out_dtype(pda: pdarray, op: str) -> np.dtype[Any]:
    if op in ("sum", "prod"):
        return _sum_dtype(pda)
    if op in ("argmin", "argmax", "count_nonzero"):
        return int64
    if op in ("mean", "var", "std"):
        return float64
    if op in ("any", "all"):
        return bool_
    return pda._dtype


def _reduce_lanes(pda: pdarray, op: str, axes: tuple[int, ...], keepdims: bool, ddof: int = 0) -> pdarray:
    """``op`` of ``pda`` along ``axes`` (not all of them) as a pdarray of the other axes' shape.

    Length-1 axes in place of ``axes`` with ``keepdims``.
    """
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


def _reduce_middle(pda: pdarray, op: str, axes: tuple[int, ...], d: np.dtype[Any]) -> pdarray:
    """``op`` of ``pda`` over the contiguous axes ``axes``, as a flat pdarray of dtype ``d``.

    ``_atoll.reduce_axis``: its values seen as (outer, lane, inner), reduced over the middle.
    A float sum adds each locale's rows in order and then the locales' partial sums: it may
    differ from NumPy's pairwise sum in the last bits.
    """
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
    out: pdarray = r if r._dtype == d else r.astype(d)._materialize()
    return out


def _nan_lanes(x: pdarray, r: pdarray, op: str, lane: int, groups: int) -> pdarray:
    """``r`` with NumPy's value for the lanes of ``x`` that hold a NaN.

    NaN, or for argmin and argmax the flat position of the lane's first NaN.
    """
    nan = x != x
    if not _atoll.reduce(nan._ex(), x._size, "any"):
        return r
    has = _segmented(nan, "any", lane, groups)
    first = _segmented(nan, "argmax", lane, groups)
    fill = first._ex() if op in ("argmin", "argmax") else _atoll.scalar(np.nan, "float64")
    return pdarray(_atoll.evaluate(_atoll.where_(has._ex(), fill, r._ex()), groups))


def _with_axis(f: Callable[..., Any], op: str) -> Callable[..., Any]:
    """``f`` (a reduction of all the values) with NumPy's ``axis`` and ``keepdims``.

    ``axis`` is None, an int or a tuple of ints (an int or None for argmin/argmax): over every
    axis the NumPy scalar of ``f`` (an array of length-1 axes with ``keepdims``), else a pdarray
    along the axes. The function takes the reduction's name ``op``.
    """

    def g(pda: Any, *args: Any, axis: Any = None, keepdims: bool = False, **kw: Any) -> Any:  # noqa: ANN401 (the reduction's)
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

    g.__name__ = g.__qualname__ = op
    g.__doc__ = f.__doc__
    return g


sum = _with_axis(_sum_all, "sum")
prod = _with_axis(_prod_all, "prod")
min = _with_axis(_min_all, "min")
max = _with_axis(_max_all, "max")
argmin = _with_axis(_argmin_all, "argmin")
argmax = _with_axis(_argmax_all, "argmax")
mean = _with_axis(_mean_all, "mean")
var = _with_axis(_var_all, "var")
std = _with_axis(_std_all, "std")
any = _with_axis(_any_all, "any")
all = _with_axis(_all_all, "all")
count_nonzero = _with_axis(_count_nonzero_all, "count_nonzero")
