"""The ``Array`` of the Array API namespace: a thin wrapper of one pdarray (``._array``) of any
rank, whose operators and methods are the pdarray's, with the standard's names and rules.

An operation that gives a scalar (an element, a reduction over all axes) gives a 0-d ``Array``,
as the standard asks; ``bool()``, ``int()``, ``float()`` and ``==`` read it as a Python scalar.
"""

import operator
import sys

import numpy as np

import atoll as ak
from atoll._session import num_locales

__all__ = ["Array"]


def _unwrap(x):
    """``x`` as a pdarray operand: an Array's pdarray, a NumPy array uploaded, a scalar as it is."""
    if isinstance(x, Array):
        return x._array
    if isinstance(x, np.ndarray):
        return ak.array(x) if x.ndim else x[()]
    return x


def _operands(*xs):
    """The operands, unwrapped (the pdarray operations broadcast them)."""
    return [_unwrap(x) for x in xs]


def _scalar_array(value):
    """A 0-d pdarray holding ``value`` (its NumPy dtype)."""
    value = np.asarray(value)
    return ak.full((), value[()], dtype=value.dtype)


def _wrap(x):
    """An operation's result in the namespace's terms: pdarrays as Arrays (also inside tuples
    and lists), scalars as 0-d Arrays."""
    if isinstance(x, Array):
        return x
    if isinstance(x, ak.pdarray):
        return Array._new(x)
    if isinstance(x, tuple):
        return tuple(_wrap(v) for v in x)
    if isinstance(x, list):
        return [_wrap(v) for v in x]
    return Array._new(_scalar_array(x))


def _key(k):
    """An index (or one part of a tuple index) as pdarray indexing takes it: a one-element
    Array as its scalar, other Arrays as their pdarrays, NumPy arrays uploaded."""
    if isinstance(k, tuple):
        return tuple(_key(v) for v in k)
    if isinstance(k, Array):
        return k._single_elem() if k.ndim == 0 else k._array
    if isinstance(k, np.ndarray):
        return ak.array(k) if k.ndim else k[()]
    return k


class Array:
    """An n-dimensional array of the Array API namespace: one pdarray (``._array``), its values
    in C order, Block-distributed over the locales.

    Make one with a creation function (``asarray``, ``zeros``, ...), never with ``Array()``.
    """

    __hash__ = None
    __array_ufunc__ = None

    @classmethod
    def _new(cls, x, /, empty=False):
        """An Array around the pdarray ``x`` (no copy)."""
        obj = object.__new__(cls)
        obj._array = x
        obj._empty = empty
        return obj

    def __new__(cls, *args, **kwargs):
        raise TypeError("Array cannot be made directly; use a creation function such as asarray()")

    # --- conversions -----------------------------------------------------------------------
    def tolist(self):
        """The values as nested Python lists (a Python scalar for a 0-d Array)."""
        return self.to_ndarray().tolist()

    def to_ndarray(self):
        """The values as a NumPy array of the same shape and dtype (gathered to this process)."""
        return self._array.to_ndarray()

    def __array__(self, dtype=None, copy=None):
        return np.asarray(self.to_ndarray(), dtype=dtype)

    def item(self):
        """The one element of a one-element Array as a Python scalar; ValueError else."""
        s = self._single_elem()
        if s is None:
            raise ValueError("can only convert an array of size 1 to a Python scalar")
        return s.item()

    def _single_elem(self):
        """The element of a one-element Array as a NumPy scalar (None for other sizes)."""
        if self.size != 1:
            return None
        return self._array.to_ndarray().reshape(-1)[0]

    def __bool__(self):
        s = self._single_elem()
        if s is None:
            raise ValueError("The truth value of an array with more than one element is ambiguous. Use any() or all()")
        return bool(s)

    def __int__(self):
        s = self._single_elem()
        if s is None:
            raise TypeError("only arrays of size 1 can be converted to Python scalars")
        return int(s)

    def __float__(self):
        s = self._single_elem()
        if s is None:
            raise TypeError("only arrays of size 1 can be converted to Python scalars")
        return float(s)

    def __complex__(self):
        s = self._single_elem()
        if s is None:
            raise TypeError("only arrays of size 1 can be converted to Python scalars")
        return complex(s)

    def __index__(self):
        if self.ndim != 0 or not np.issubdtype(self.dtype, np.integer):
            raise TypeError("only 0-d integer arrays can be converted to an index")
        return int(self._single_elem())

    def to_device(self, device, /, stream=None):
        """This Array (the only device is ``"cpu"``)."""
        if device != "cpu":
            raise ValueError(f"Unsupported device {device!r}")
        return self

    def __array_namespace__(self, /, *, api_version=None):
        if api_version is not None and api_version not in ("2022.12", "2023.12"):
            raise ValueError(f"Unrecognized array API version: {api_version!r}")
        return sys.modules[__package__]

    def __dlpack__(self, /, *, stream=None, **kwargs):
        return self.to_ndarray().__dlpack__(stream=stream)

    def __dlpack_device__(self):
        return self.to_ndarray().__dlpack_device__()

    # --- description -----------------------------------------------------------------------
    @property
    def dtype(self):
        """The data type of the elements (a NumPy dtype)."""
        return self._array.dtype

    @property
    def device(self):
        """``"cpu"``: the values live in the locales' memory."""
        return "cpu"

    @property
    def shape(self):
        """The length of each axis (a tuple; ``()`` for 0-d)."""
        return tuple(self._array.shape)

    @property
    def ndim(self):
        """The number of axes."""
        return len(self.shape)

    @property
    def size(self):
        """The number of elements."""
        return int(self._array.size)

    @property
    def T(self):
        """The transpose of a 2-D Array (ValueError for other ranks, as the standard asks)."""
        if self.ndim != 2:
            raise ValueError("x.T requires x to have 2 dimensions; use x.mT or permute_dims()")
        return Array._new(ak.transpose(self._array))

    @property
    def mT(self):
        """The transpose of the last two axes (a stack of matrices)."""
        if self.ndim < 2:
            raise ValueError("x.mT requires x to have at least 2 dimensions")
        axes = list(range(self.ndim))
        axes[-2], axes[-1] = axes[-1], axes[-2]
        return Array._new(ak.transpose(self._array, tuple(axes)))

    def transpose(self, axes=None):
        """The Array with its axes permuted (reversed when ``axes`` is None)."""
        return Array._new(ak.transpose(self._array, axes))

    def all(self, axis=None, keepdims=False):
        """Whether every element is true (nonzero): Arkouda's method, as ``all(x)``."""
        return _wrap(ak.all(self._array, axis=axis, keepdims=keepdims))

    def any(self, axis=None, keepdims=False):
        """Whether some element is true (nonzero): Arkouda's method, as ``any(x)``."""
        return _wrap(ak.any(self._array, axis=axis, keepdims=keepdims))

    def chunk_info(self):
        """Where each locale's part of the Array begins, per axis: ``[d][l]`` is the index along
        axis ``d`` at which locale ``l``'s part begins. The values are Block-distributed in
        C order, so the parts split the first axis (the others start at 0 on every locale);
        a 0-d Array has no axes (``[]``)."""
        if self.ndim == 0:
            return []
        nl = num_locales()
        n = self.size
        row = int(np.prod(self.shape[1:], dtype=np.int64)) if self.ndim > 1 else 1
        starts = [-(-k * n // nl) for k in range(nl)]
        first = sorted({min(s // row, self.shape[0]) if row else 0 for s in starts})
        return [first] + [[0] for _ in self.shape[1:]]

    def __len__(self):
        if self.ndim == 0:
            raise TypeError("len() of a 0-d array")
        return self.shape[0]

    def __iter__(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(self.shape[0]))

    def __str__(self):
        return str(self._array)

    def __repr__(self):
        return f"Atoll Array ({self.shape}, {self.dtype})" + str(self._array)

    def _repr_inline_(self, width):
        return f"Atoll Array ({self.shape}, {self.dtype})"

    # --- indexing --------------------------------------------------------------------------
    def __getitem__(self, key, /):
        return _wrap(self._array[_key(key)])

    def __setitem__(self, key, value, /):
        if isinstance(value, Array):
            value = value._single_elem() if value.size == 1 else value._array
        elif isinstance(value, np.ndarray):
            value = ak.array(value) if value.ndim else value[()]
        self._array[_key(key)] = value

    # --- operators -------------------------------------------------------------------------
    def _op(self, other, op):
        if not isinstance(other, (Array, ak.pdarray, np.ndarray, bool, int, float, complex, np.generic)):
            return NotImplemented
        return _wrap(op(*_operands(self, other)))

    def _rop(self, other, op):
        if not isinstance(other, (Array, ak.pdarray, np.ndarray, bool, int, float, complex, np.generic)):
            return NotImplemented
        return _wrap(op(*_operands(other, self)))

    def _iop(self, other, op):
        r = op(*_operands(self, other))
        if not isinstance(r, ak.pdarray) or r.shape != self.shape:
            shape = getattr(r, "shape", ())
            raise ValueError(f"non-broadcastable output operand with shape {self.shape} doesn't match {shape}")
        self._array = r
        return self

    def __eq__(self, other, /):
        if not isinstance(other, (Array, ak.pdarray, np.ndarray, bool, int, float, np.generic)):
            return False
        return self._op(other, operator.eq)

    def __ne__(self, other, /):
        if not isinstance(other, (Array, ak.pdarray, np.ndarray, bool, int, float, np.generic)):
            return True
        return self._op(other, operator.ne)

    def __abs__(self):
        return _wrap(ak.abs(self._array))

    def __neg__(self):
        return _wrap(-self._array)

    def __pos__(self):
        return _wrap(+self._array)

    def __invert__(self):
        return _wrap(~self._array)

    def __lt__(self, other, /):
        return self._op(other, operator.lt)

    def __le__(self, other, /):
        return self._op(other, operator.le)

    def __gt__(self, other, /):
        return self._op(other, operator.gt)

    def __ge__(self, other, /):
        return self._op(other, operator.ge)

    def __matmul__(self, other, /):
        if not isinstance(other, (Array, ak.pdarray, np.ndarray)):
            return NotImplemented
        return _wrap(ak.matmul(self._array, _unwrap(other)))

    def __rmatmul__(self, other, /):
        if not isinstance(other, (Array, ak.pdarray, np.ndarray)):
            return NotImplemented
        return _wrap(ak.matmul(_unwrap(other), self._array))

    def __imatmul__(self, other, /):
        r = ak.matmul(self._array, _unwrap(other))
        if r.shape != self.shape:
            raise ValueError(f"matmul: the product's shape {r.shape} is not the array's {self.shape}")
        self._array = r
        return self


def _binary_operators():
    """Sets ``__op__``, ``__rop__`` and ``__iop__`` of Array for each arithmetic and bitwise
    operator: the pdarray's operator on the unwrapped operands."""
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

        def fwd(self, other, /, op=op):
            return self._op(other, op)

        def rev(self, other, /, op=op):
            return self._rop(other, op)

        def inp(self, other, /, op=op):
            return self._iop(other, op)

        for prefix, f in (("", fwd), ("r", rev), ("i", inp)):
            f.__name__ = f"__{prefix}{name}__"
            f.__qualname__ = f"Array.{f.__name__}"
            setattr(Array, f.__name__, f)


_binary_operators()
