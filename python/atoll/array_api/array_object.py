"""The ``Array`` of the Array API namespace.

A thin wrapper of one pdarray (``._array``) of any rank, whose operators and methods are the
pdarray's, with the standard's names and rules.

An operation that gives a scalar (an element, a reduction over all axes) gives a 0-d ``Array``,
as the standard asks; ``bool()``, ``int()``, ``float()`` and ``==`` read it as a Python scalar.
"""

from __future__ import annotations

import operator
import sys
from collections.abc import Callable, Iterator
from types import ModuleType
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import numpy.typing as npt

from atoll._session import num_locales
from atoll.numpy import numeric, pdarrayclass
from atoll.numpy.pdarrayclass import pdarray
from atoll.numpy.pdarraycreation import array, full
from atoll.stats import matmul

__all__ = ["Array"]

_all = pdarrayclass.all
_any = pdarrayclass.any


def _unwrap(x: object) -> Any:  # noqa: ANN401 (a pdarray, whose set methods mypy cannot see, or a scalar)
    """``x`` as a pdarray operand: an Array's pdarray, a NumPy array uploaded, a scalar as it is.

    The result is typed ``Any``: the pdarray methods set from atoll.numpy._pdarrayclass_methods
    (``reshape``, ``astype``, ...) are not visible to mypy.
    """
    if isinstance(x, Array):
        return x._array
    if isinstance(x, np.ndarray):
        return array(x) if x.ndim else x[()]
    return x


def _operands(*xs: object) -> list[Any]:
    """The operands, unwrapped (the pdarray operations broadcast them)."""
    return [_unwrap(x) for x in xs]


def _scalar_array(value: object) -> pdarray:
    """A 0-d pdarray holding ``value`` (its NumPy dtype)."""
    v = np.asarray(value)
    return cast(pdarray, full((), v[()], dtype=v.dtype))


def _wrap(x: object) -> Array:
    """An operation's result in the namespace's terms: a pdarray as an Array, a scalar as a 0-d Array."""
    if isinstance(x, Array):
        return x
    if isinstance(x, pdarray):
        return Array._new(x)
    return Array._new(_scalar_array(x))


def _key(k: object) -> Any:  # noqa: ANN401 (an index as pdarray indexing takes it)
    """An index (or one part of a tuple index) as pdarray indexing takes it.

    A one-element Array as its scalar, other Arrays as their pdarrays, NumPy arrays uploaded.
    """
    if isinstance(k, tuple):
        return tuple(_key(v) for v in k)
    if isinstance(k, Array):
        return k._single_elem() if k.ndim == 0 else k._array
    if isinstance(k, np.ndarray):
        return array(k) if k.ndim else k[()]
    return k


class Array:
    """An n-dimensional array of the Array API namespace.

    One pdarray (``._array``), its values in C order, Block-distributed over the locales.

    Make one with a creation function (``asarray``, ``zeros``, ...), never with ``Array()``.

    Examples
    --------
    >>> import atoll.array_api as xp
    >>> x = xp.asarray([[1, 2], [3, 4]])
    >>> x.shape, x.dtype, x.T.tolist()
    ((2, 2), dtype('int64'), [[1, 3], [2, 4]])
    """

    __hash__ = None  # type: ignore[assignment]  # mutable: unhashable, as NumPy's arrays
    __array_ufunc__ = None

    # The pdarray (``Any``: mypy cannot see the pdarray methods set by the _methods modules).
    _array: Any
    _empty: bool

    @classmethod
    def _new(cls, x: pdarray, /, empty: bool = False) -> Array:
        """An Array around the pdarray ``x`` (no copy)."""
        obj = object.__new__(cls)
        obj._array = x
        obj._empty = empty
        return obj

    def __new__(cls, *args: object, **kwargs: object) -> Array:
        """Refuse: an Array is made by a creation function."""
        raise TypeError("Array cannot be made directly; use a creation function such as asarray()")

    # --- conversions -----------------------------------------------------------------------
    def tolist(self) -> list[Any] | bool | int | float | complex:
        """The values as nested Python lists (a Python scalar for a 0-d Array).

        Returns
        -------
        list or scalar
            The values, nested one list per axis.

        Examples
        --------
        >>> import atoll.array_api as xp
        >>> xp.asarray([[1, 2], [3, 4]]).tolist()
        [[1, 2], [3, 4]]
        """
        out: list[Any] | bool | int | float | complex = self.to_ndarray().tolist()
        return out

    def to_ndarray(self) -> np.ndarray[Any, Any]:
        """The values as a NumPy array of the same shape and dtype (gathered to this process).

        Returns
        -------
        numpy.ndarray
            A copy of the values.

        Examples
        --------
        >>> import atoll.array_api as xp
        >>> xp.asarray([1.5, 2.5]).to_ndarray()
        array([1.5, 2.5])
        """
        return cast("np.ndarray[Any, Any]", self._array.to_ndarray())

    def __array__(self, dtype: npt.DTypeLike | None = None, copy: bool | None = None) -> np.ndarray[Any, Any]:
        return np.asarray(self.to_ndarray(), dtype=dtype)

    def item(self) -> bool | int | float | complex:
        """The one element of a one-element Array as a Python scalar.

        Returns
        -------
        bool, int, float or complex
            The element.

        Raises
        ------
        ValueError
            If the Array has more or fewer than one element.

        Examples
        --------
        >>> import atoll.array_api as xp
        >>> xp.asarray([[7]]).item()
        7
        """
        s = self._single_elem()
        if s is None:
            raise ValueError("can only convert an array of size 1 to a Python scalar")
        out: bool | int | float | complex = s.item()
        return out

    def _single_elem(self) -> Any:  # noqa: ANN401 (a NumPy scalar of the dtype, or None)
        """The element of a one-element Array as a NumPy scalar (None for other sizes)."""
        if self.size != 1:
            return None
        return self._array.to_ndarray().reshape(-1)[0]

    def __bool__(self) -> bool:
        s = self._single_elem()
        if s is None:
            raise ValueError("The truth value of an array with more than one element is ambiguous. Use any() or all()")
        return bool(s)

    def __int__(self) -> int:
        s = self._single_elem()
        if s is None:
            raise TypeError("only arrays of size 1 can be converted to Python scalars")
        return int(s)

    def __float__(self) -> float:
        s = self._single_elem()
        if s is None:
            raise TypeError("only arrays of size 1 can be converted to Python scalars")
        return float(s)

    def __complex__(self) -> complex:
        s = self._single_elem()
        if s is None:
            raise TypeError("only arrays of size 1 can be converted to Python scalars")
        return complex(s)

    def __index__(self) -> int:
        if self.ndim != 0 or not np.issubdtype(self.dtype, np.integer):
            raise TypeError("only 0-d integer arrays can be converted to an index")
        return int(self._single_elem())

    def to_device(self, device: str, /, stream: object = None) -> Array:
        """The Array on the device ``device`` (the only device is ``"cpu"``).

        Parameters
        ----------
        device : str
            ``"cpu"``.
        stream : object, optional
            Ignored (the standard's argument).

        Returns
        -------
        Array
            This Array itself.

        Raises
        ------
        ValueError
            If ``device`` is not ``"cpu"``.

        Examples
        --------
        >>> import atoll.array_api as xp
        >>> x = xp.asarray([1, 2])
        >>> x.to_device("cpu") is x
        True
        """
        if device != "cpu":
            raise ValueError(f"Unsupported device {device!r}")
        return self

    def __array_namespace__(self, /, *, api_version: str | None = None) -> ModuleType:
        if api_version is not None and api_version not in ("2022.12", "2023.12"):
            raise ValueError(f"Unrecognized array API version: {api_version!r}")
        return sys.modules[__package__]

    def __dlpack__(self, /, *, stream: None = None, **kwargs: object) -> object:
        return self.to_ndarray().__dlpack__(stream=stream)

    def __dlpack_device__(self) -> tuple[int, int]:
        return self.to_ndarray().__dlpack_device__()

    # --- description -----------------------------------------------------------------------
    @property
    def dtype(self) -> np.dtype[Any]:
        """The data type of the elements (a NumPy dtype)."""
        return cast("np.dtype[Any]", self._array.dtype)

    @property
    def device(self) -> str:
        """``"cpu"``: the values live in the locales' memory."""
        return "cpu"

    @property
    def shape(self) -> tuple[int, ...]:
        """The length of each axis (a tuple; ``()`` for 0-d)."""
        return tuple(self._array.shape)

    @property
    def ndim(self) -> int:
        """The number of axes."""
        return len(self.shape)

    @property
    def size(self) -> int:
        """The number of elements."""
        return int(self._array.size)

    @property
    def T(self) -> Array:
        """The transpose of a 2-D Array (ValueError for other ranks, as the standard asks)."""
        if self.ndim != 2:
            raise ValueError("x.T requires x to have 2 dimensions; use x.mT or permute_dims()")
        return Array._new(numeric.transpose(self._array))

    @property
    def mT(self) -> Array:
        """The transpose of the last two axes (a stack of matrices)."""
        if self.ndim < 2:
            raise ValueError("x.mT requires x to have at least 2 dimensions")
        axes = list(range(self.ndim))
        axes[-2], axes[-1] = axes[-1], axes[-2]
        return Array._new(numeric.transpose(self._array, tuple(axes)))

    def transpose(self, axes: tuple[int, ...] | None = None) -> Array:
        """The Array with its axes permuted.

        Parameters
        ----------
        axes : tuple of int, optional
            The new order of the axes (None: reversed).

        Returns
        -------
        Array
            The permuted Array.

        Examples
        --------
        >>> import atoll.array_api as xp
        >>> xp.asarray([[1, 2, 3]]).transpose().shape
        (3, 1)
        """
        return Array._new(numeric.transpose(self._array, axes))

    def all(self, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Array:
        """Whether every element is true (nonzero): Arkouda's method, as ``all(x)``.

        Parameters
        ----------
        axis : int or tuple of int, optional
            The axes to reduce (None: all).
        keepdims : bool, default False
            Whether to keep the reduced axes with length 1.

        Returns
        -------
        Array
            A bool Array (0-d over all axes).

        Examples
        --------
        >>> import atoll.array_api as xp
        >>> xp.asarray([[1, 0], [2, 3]]).all(axis=1).tolist()
        [False, True]
        """
        return _wrap(_all(self._array, axis=axis, keepdims=keepdims))

    def any(self, axis: int | tuple[int, ...] | None = None, keepdims: bool = False) -> Array:
        """Whether some element is true (nonzero): Arkouda's method, as ``any(x)``.

        Parameters
        ----------
        axis : int or tuple of int, optional
            The axes to reduce (None: all).
        keepdims : bool, default False
            Whether to keep the reduced axes with length 1.

        Returns
        -------
        Array
            A bool Array (0-d over all axes).

        Examples
        --------
        >>> import atoll.array_api as xp
        >>> bool(xp.asarray([0, 0, 5]).any())
        True
        """
        return _wrap(_any(self._array, axis=axis, keepdims=keepdims))

    def chunk_info(self) -> list[list[int]]:
        """Where each locale's part of the Array begins, per axis.

        ``[d][l]`` is the index along axis ``d`` at which locale ``l``'s part begins. The values
        are Block-distributed in C order, so the parts split the first axis (the others start at
        0 on every locale); a 0-d Array has no axes (``[]``).

        Returns
        -------
        list of list of int
            One list of starts per axis.

        Examples
        --------
        >>> import atoll.array_api as xp
        >>> info = xp.asarray([[1, 2], [3, 4]]).chunk_info()
        >>> len(info), info[0][0], info[1]
        (2, 0, [0])
        """
        if self.ndim == 0:
            return []
        nl = num_locales()
        n = self.size
        row = int(np.prod(self.shape[1:], dtype=np.int64)) if self.ndim > 1 else 1
        starts = [-(-k * n // nl) for k in range(nl)]
        first = sorted({min(s // row, self.shape[0]) if row else 0 for s in starts})
        return [first] + [[0] for _ in self.shape[1:]]

    def __len__(self) -> int:
        if self.ndim == 0:
            raise TypeError("len() of a 0-d array")
        return self.shape[0]

    def __iter__(self) -> Iterator[Array]:
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self.shape[0]))

    def __str__(self) -> str:
        return str(self._array)

    def __repr__(self) -> str:
        return f"Atoll Array ({self.shape}, {self.dtype})" + str(self._array)

    def _repr_inline_(self, width: int) -> str:
        return f"Atoll Array ({self.shape}, {self.dtype})"

    # --- indexing --------------------------------------------------------------------------
    def __getitem__(self, key: object, /) -> Array:
        return _wrap(self._array[_key(key)])

    def __setitem__(self, key: object, value: object, /) -> None:
        if isinstance(value, Array):
            value = value._single_elem() if value.size == 1 else value._array
        elif isinstance(value, np.ndarray):
            value = array(value) if value.ndim else value[()]
        self._array[_key(key)] = value

    # --- operators -------------------------------------------------------------------------
    if TYPE_CHECKING:
        # Set on the class by _binary_operators below; declared here for mypy.
        def __add__(self, other: object, /) -> Array: ...
        def __radd__(self, other: object, /) -> Array: ...
        def __iadd__(self, other: object, /) -> Array: ...
        def __sub__(self, other: object, /) -> Array: ...
        def __rsub__(self, other: object, /) -> Array: ...
        def __isub__(self, other: object, /) -> Array: ...
        def __mul__(self, other: object, /) -> Array: ...
        def __rmul__(self, other: object, /) -> Array: ...
        def __imul__(self, other: object, /) -> Array: ...
        def __truediv__(self, other: object, /) -> Array: ...
        def __rtruediv__(self, other: object, /) -> Array: ...
        def __itruediv__(self, other: object, /) -> Array: ...
        def __floordiv__(self, other: object, /) -> Array: ...
        def __rfloordiv__(self, other: object, /) -> Array: ...
        def __ifloordiv__(self, other: object, /) -> Array: ...
        def __mod__(self, other: object, /) -> Array: ...
        def __rmod__(self, other: object, /) -> Array: ...
        def __imod__(self, other: object, /) -> Array: ...
        def __pow__(self, other: object, /) -> Array: ...
        def __rpow__(self, other: object, /) -> Array: ...
        def __ipow__(self, other: object, /) -> Array: ...
        def __and__(self, other: object, /) -> Array: ...
        def __rand__(self, other: object, /) -> Array: ...
        def __iand__(self, other: object, /) -> Array: ...
        def __or__(self, other: object, /) -> Array: ...
        def __ror__(self, other: object, /) -> Array: ...
        def __ior__(self, other: object, /) -> Array: ...
        def __xor__(self, other: object, /) -> Array: ...
        def __rxor__(self, other: object, /) -> Array: ...
        def __ixor__(self, other: object, /) -> Array: ...
        def __lshift__(self, other: object, /) -> Array: ...
        def __rlshift__(self, other: object, /) -> Array: ...
        def __ilshift__(self, other: object, /) -> Array: ...
        def __rshift__(self, other: object, /) -> Array: ...
        def __rrshift__(self, other: object, /) -> Array: ...
        def __irshift__(self, other: object, /) -> Array: ...

    def _op(self, other: object, op: Callable[[Any, Any], Any]) -> Array:
        if not isinstance(other, (Array, pdarray, np.ndarray, bool, int, float, complex, np.generic)):
            return NotImplemented  # type: ignore[no-any-return]  # the operators' protocol sentinel
        return _wrap(op(*_operands(self, other)))

    def _rop(self, other: object, op: Callable[[Any, Any], Any]) -> Array:
        if not isinstance(other, (Array, pdarray, np.ndarray, bool, int, float, complex, np.generic)):
            return NotImplemented  # type: ignore[no-any-return]  # the operators' protocol sentinel
        return _wrap(op(*_operands(other, self)))

    def _iop(self, other: object, op: Callable[[Any, Any], Any]) -> Array:
        r = op(*_operands(self, other))
        if not isinstance(r, pdarray) or r.shape != self.shape:
            shape = getattr(r, "shape", ())
            raise ValueError(f"non-broadcastable output operand with shape {self.shape} doesn't match {shape}")
        self._array = r
        return self

    def __eq__(self, other: object, /) -> Array | bool:  # type: ignore[override]  # element-wise: an Array
        if not isinstance(other, (Array, pdarray, np.ndarray, bool, int, float, np.generic)):
            return False
        return self._op(other, operator.eq)

    def __ne__(self, other: object, /) -> Array | bool:  # type: ignore[override]  # element-wise: an Array
        if not isinstance(other, (Array, pdarray, np.ndarray, bool, int, float, np.generic)):
            return True
        return self._op(other, operator.ne)

    def __abs__(self) -> Array:
        return _wrap(numeric.abs(self._array))

    def __neg__(self) -> Array:
        return _wrap(-self._array)

    def __pos__(self) -> Array:
        return _wrap(+self._array)

    def __invert__(self) -> Array:
        return _wrap(~self._array)

    def __lt__(self, other: object, /) -> Array:
        return self._op(other, operator.lt)

    def __le__(self, other: object, /) -> Array:
        return self._op(other, operator.le)

    def __gt__(self, other: object, /) -> Array:
        return self._op(other, operator.gt)

    def __ge__(self, other: object, /) -> Array:
        return self._op(other, operator.ge)

    def __matmul__(self, other: object, /) -> Array:
        if not isinstance(other, (Array, pdarray, np.ndarray)):
            return NotImplemented
        return _wrap(matmul(self._array, _unwrap(other)))

    def __rmatmul__(self, other: object, /) -> Array:
        if not isinstance(other, (Array, pdarray, np.ndarray)):
            return NotImplemented
        return _wrap(matmul(_unwrap(other), self._array))

    def __imatmul__(self, other: object, /) -> Array:
        r = matmul(self._array, _unwrap(other))
        if r.shape != self.shape:
            raise ValueError(f"matmul: the product's shape {r.shape} is not the array's {self.shape}")
        self._array = r
        return self


def _binary_operators() -> None:
    """Set ``__op__``, ``__rop__`` and ``__iop__`` of Array for each arithmetic and bitwise operator.

    Each is the pdarray's operator on the unwrapped operands.
    """
    ops = {
        "add": operator.add,
        "sub": operator.sub,
        "mul": operator.mul,
        "truediv": operator.truediv,
        "floordiv": operator.floordiv,
        "mod": operator.mod,
        "pow": operator.pow,
        "and": operator.and_,
        "or": operator.or_,
        "xor": operator.xor,
        "lshift": operator.lshift,
        "rshift": operator.rshift,
    }
    for name, op in ops.items():

        def fwd(self: Array, other: object, /, op: Callable[[Any, Any], Any] = op) -> Array:
            return self._op(other, op)

        def rev(self: Array, other: object, /, op: Callable[[Any, Any], Any] = op) -> Array:
            return self._rop(other, op)

        def inp(self: Array, other: object, /, op: Callable[[Any, Any], Any] = op) -> Array:
            return self._iop(other, op)

        for prefix, f in (("", fwd), ("r", rev), ("i", inp)):
            f.__name__ = f"__{prefix}{name}__"
            f.__qualname__ = f"Array.{f.__name__}"
            setattr(Array, f.__name__, f)


_binary_operators()
