"""Arkouda's ``Categorical`` (``arkouda.pandas.categorical``): strings as codes into categories.

The strings are stored as int64 ``codes`` into distinct ``categories``, with Arkouda's
missing-value category.

``Categorical(strings)`` makes the categories the distinct strings sorted by code point (one
distributed sample sort), then appends the missing-value label ``na_value`` (``"N/A"`` by
default) unless a string equals it, as Arkouda does; ``isna()`` marks the values whose code is
that category's. Codes of present values order as the strings do, so sorting and grouping by
a Categorical are numeric sorts of its codes. ``permutation`` and ``segments`` (the grouping of
the values by category) are computed on first use for a Categorical made from strings, and
are None for one made with ``from_codes`` (unless given).

Difference from Arkouda: Arkouda orders the categories of ``Categorical(strings)`` by a hash
of the strings; Atoll sorts them (the order pandas uses), so ``unique()`` and ``categories``
come in code-point order.

>>> import atoll as ak
>>> c = ak.Categorical(ak.array(["b", "a", "b", "c"]))
>>> c.categories.to_list()
['a', 'b', 'c', 'N/A']
>>> c.codes.tolist()
[1, 0, 1, 2]
>>> (c == "b").tolist()
[True, False, True, False]
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, cast

import numpy as np
import numpy.typing as npt

from .. import _atoll
from .._optional import loaded, pd
from ..numpy.dtypes import int64
from ..numpy.numeric import register_categorical, where as _where
from ..numpy.pdarrayclass import _check, all as _all, any as _any, argmax, pdarray
from ..numpy.pdarraycreation import arange, array, full, zeros
from ..numpy.strings import Strings, concatenate, from_list, unique
from ._registry import Registrable

__all__ = ["Categorical"]


def _strings(values: Iterable[object]) -> Strings:
    out: Strings = from_list([builtins.str(v) for v in values])
    return out


def _at(s: Strings, key: object) -> Any:  # noqa: ANN401 (a str or Strings)
    # Strings' ``__getitem__`` is set by ``atoll.numpy._strings_methods``, which mypy does not see.
    return cast(Any, s)[key]


def _find(categories: Strings, value: object) -> int | None:
    """The index of ``value`` among ``categories``, or None."""
    hit = categories == value
    if categories.size and builtins.bool(_any(hit)):
        return builtins.int(argmax(hit.astype(int64)))
    return None


class Categorical(Registrable):
    """Strings as codes into distinct categories (Arkouda's ``ak.Categorical``).

    Parameters
    ----------
    values : Strings, Categorical, pandas.Categorical or empty sequence
        The values (None with ``codes`` and ``categories`` given).
    **kwargs
        ``codes`` and ``categories`` (an int64 pdarray into distinct Strings), with
        ``permutation`` and ``segments`` optionally; ``na_value`` (default ``"N/A"``), the
        missing-value label; ``_akNAcode``, the missing-value code as a one-element pdarray.

    Raises
    ------
    TypeError
        ``codes`` is not an int64 pdarray or ``categories`` not Strings.
    ValueError
        A code is out of bounds, or ``values`` is of another kind.

    Examples
    --------
    >>> import atoll as ak
    >>> c = ak.Categorical(ak.array(["y", "x", "y"]))
    >>> c.tolist(), c.categories.tolist()
    (['y', 'x', 'y'], ['x', 'y', 'N/A'])
    """

    objType = "Categorical"
    BinOps = frozenset(["==", "!="])
    RegisterablePieces = frozenset(["categories", "codes", "permutation", "segments", "_akNAcode"])

    codes: pdarray
    categories: Strings
    na_value: str
    size: int
    nlevels: int
    ndim: int
    shape: tuple[int, ...]
    dtype: np.dtype[Any]
    _NAcode: int
    _akNAcode: pdarray
    _perm: pdarray | None
    _segs: pdarray | None
    _groups_known: bool
    _sorted: bool | None

    if TYPE_CHECKING:
        # Set on the class by ``atoll.pandas._categorical_methods`` (mypy sees no attach).
        def _compute_groups(self) -> None: ...
        def argsort(self, algorithm: object = None, ascending: bool = True) -> pdarray: ...  # noqa: D102
        def set_categories(self, new_categories: Strings, na_value: str | None = None) -> Categorical: ...  # noqa: D102

    def __init__(self, values: Any, **kwargs: Any) -> None:  # noqa: ANN401 (array-likes of several kinds)
        self.registered_name = None
        self._perm = self._segs = None
        self._groups_known = False
        pd_missing = False
        if "codes" in kwargs and "categories" in kwargs:
            codes, cats = kwargs["codes"], kwargs["categories"]
            _check(codes, "codes")
            if codes.dtype != int64:
                raise TypeError("Codes must be pdarray of int64")
            if not isinstance(cats, Strings):
                raise TypeError(f"categories: expected Strings, got {type(cats).__name__}")
            if codes.size:
                lo, hi = builtins.int(codes.min()), builtins.int(codes.max())
                if lo < 0 or hi >= cats.size:
                    raise ValueError(
                        f"Codes out of bounds for categories: min = {lo}, max = {hi}, categories = {cats.size}"
                    )
            self.codes, self.categories = codes, cats
            perm, segs = kwargs.get("permutation"), kwargs.get("segments")
            if perm is not None and segs is not None:
                self._perm, self._segs = perm, segs
            self._groups_known = True
            self._sorted = None
        elif isinstance(values, Categorical):
            self.codes, self.categories = values.codes, values.categories
            self._perm, self._segs, self._groups_known = values._perm, values._segs, values._groups_known
            self._sorted = values._sorted
            self.na_value, self._NAcode, self._akNAcode = values.na_value, values._NAcode, values._akNAcode
            self._finish()
            return
        elif _is_pandas_categorical(values):
            self.categories = _strings(list(values.categories))
            pd_codes = np.asarray(values.codes, dtype=np.int64)
            pd_missing = builtins.bool((pd_codes < 0).any())  # pandas' code of a missing value: -1
            self.codes = array(pd_codes)
            self._groups_known = True
            self._sorted = None
        elif isinstance(values, Strings):
            codes_raw, cats_raw = _atoll.str_categorical_py(values._s)
            self.codes, self.categories = pdarray(codes_raw), Strings(cats_raw)
            self._sorted = True  # codes of the strings order as the strings
        elif hasattr(values, "__len__") and len(values) == 0:
            self.codes, self.categories = zeros(0, int64), _strings([])
            self._groups_known, self._sorted = True, True
        else:
            raise ValueError("Categorical: inputs other than Strings or pd.Categorical not yet supported")
        ak_na = kwargs.get("_akNAcode")
        if ak_na is not None:
            self._akNAcode = ak_na
            self._NAcode = builtins.int(ak_na[0])
            self.na_value = _at(self.categories, self._NAcode)
        else:
            self.na_value = kwargs.get("na_value", "N/A")
            k = _find(self.categories, self.na_value)
            if k is None:
                self.categories = concatenate([self.categories, _strings([self.na_value])])
                k = self.categories.size - 1
                # The appended label is used by no value: present codes still order as strings.
            self._NAcode = k
            self._akNAcode = array(np.array([k], dtype=np.int64))
        if pd_missing:
            self.codes = _where(self.codes < 0, self._NAcode, self.codes)._materialize()
        self._finish()

    def _finish(self) -> None:
        self.size = self.codes.size
        self.nlevels = self.categories.size
        self.ndim = 1
        self.shape = (self.size,)
        self.dtype = np.dtype(str)

    @classmethod
    def from_codes(
        cls,
        codes: pdarray,
        categories: Strings,
        permutation: pdarray | None = None,
        segments: pdarray | None = None,
        **kwargs: Any,  # noqa: ANN401 (na_value, _akNAcode)
    ) -> Categorical:
        """The Categorical of the given codes into the given categories.

        Parameters
        ----------
        codes : pdarray
            int64, each in ``0..len(categories) - 1``.
        categories : Strings
            Distinct strings (the missing-value label is appended if absent).
        permutation : pdarray, optional
            The grouping of the values by category, with ``segments``.
        segments : pdarray, optional
            The start of each category's group in ``permutation``.
        **kwargs
            ``na_value``, the missing-value label (default ``"N/A"``).

        Returns
        -------
        Categorical
            The values ``categories[codes]``.

        Raises
        ------
        TypeError
            ``codes`` is not an int64 pdarray or ``categories`` not Strings.
        ValueError
            ``categories`` has duplicates, or a code is out of bounds.

        Examples
        --------
        >>> import atoll as ak
        >>> c = ak.Categorical.from_codes(ak.array([1, 0, 1]), ak.array(["a", "b"]))
        >>> c.tolist(), c.categories.tolist()
        (['b', 'a', 'b'], ['a', 'b', 'N/A'])
        """
        _check(codes, "codes")
        if codes.dtype != int64:
            raise TypeError("Codes must be pdarray of int64")
        if not isinstance(categories, Strings):
            raise TypeError(f"categories: expected Strings, got {type(categories).__name__}")
        if categories.size and categories.unique().size != categories.size:
            raise ValueError("categories: must be distinct")
        return cls(None, codes=codes, categories=categories, permutation=permutation, segments=segments, **kwargs)

    @classmethod
    def _make(cls, codes: pdarray, categories: Strings, like: Categorical) -> Categorical:
        """A Categorical sharing ``like``'s categories and missing-value code."""
        c = cls.__new__(cls)
        c.registered_name = None
        c.codes, c.categories = codes, categories
        c._perm = c._segs = None
        c._groups_known = True
        c._sorted = like._sorted
        c.na_value, c._NAcode, c._akNAcode = like.na_value, like._NAcode, like._akNAcode
        c._finish()
        return c

    @property
    def permutation(self) -> pdarray | None:
        """The permutation that groups the values by category (None when not known)."""
        self._compute_groups()
        return self._perm

    @property
    def segments(self) -> pdarray | None:
        """The start of each category's group of values (None when not known)."""
        self._compute_groups()
        return self._segs

    # ----- basics ------------------------------------------------------------------------
    @property
    def nbytes(self) -> int:
        """The bytes of the codes and the categories."""
        n: int = self.codes.nbytes + self.categories.nbytes if hasattr(self.categories, "nbytes") else self.codes.nbytes
        return n

    @property
    def inferred_type(self) -> str:
        """``"categorical"``, as pandas' ``inferred_type``."""
        return "categorical"

    def __len__(self) -> int:
        n: int = self.codes.size
        return n

    def isna(self) -> pdarray:
        """Where the value is the missing-value label.

        Returns
        -------
        pdarray
            bool, one per value.

        Examples
        --------
        >>> import atoll as ak
        >>> c = ak.Categorical.from_codes(ak.array([0, 1]), ak.array(["a", "N/A"]))
        >>> c.isna().tolist()
        [False, True]
        """
        out: pdarray = (self.codes == self._NAcode)._materialize()
        return out

    def to_strings(self) -> Strings:
        """The values as Strings (``categories[codes]``).

        Returns
        -------
        Strings
            One string per value.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Categorical(ak.array(["q", "p"])).to_strings().tolist()
        ['q', 'p']
        """
        out: Strings = _at(self.categories, self.codes)
        return out

    def to_ndarray(self) -> npt.NDArray[np.str_]:
        """The values, as a NumPy array of ``str``.

        Returns
        -------
        numpy.ndarray
            Of a ``<U`` dtype.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Categorical(ak.array(["q", "p"])).to_ndarray()
        array(['q', 'p'], dtype='<U1')
        """
        return np.array(self.to_strings().to_list(), dtype=str)

    def tolist(self) -> list[str]:
        """The values, as a list of ``str``.

        Returns
        -------
        list of str
            One per value.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Categorical(ak.array(["q", "p"])).tolist()
        ['q', 'p']
        """
        out: list[str] = self.to_strings().to_list()
        return out

    to_list = tolist

    def to_pandas(self) -> Any:  # noqa: ANN401 (a pandas.Categorical)
        """The equivalent ``pandas.Categorical`` (same codes and categories).

        Returns
        -------
        pandas.Categorical
            With the missing-value label as a category.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Categorical(ak.array(["q", "p"])).to_pandas().tolist()
        ['q', 'p']
        """
        return pd.Categorical.from_codes(
            codes=self.codes.to_ndarray(), categories=pd.Index(self.categories.to_ndarray())
        )

    def __iter__(self) -> Iterator[str]:
        return iter(self.tolist())

    def __str__(self) -> str:
        if self.size <= 100:
            vals = [f"'{v}'" for v in self.tolist()]
        else:
            vals = [f"'{v}'" for v in self[:3].tolist()] + ["... "] + [f"'{v}'" for v in self[self.size - 3 :].tolist()]
        return "[{}]".format(", ".join(vals))

    def __repr__(self) -> str:
        return f"array({self})"

    def __getitem__(self, key: Any) -> Any:  # noqa: ANN401 (a position, slice or mask; a str or a Categorical)
        if isinstance(key, (builtins.int, np.integer)) and not isinstance(key, (builtins.bool, np.bool_)):
            return _at(self.categories, builtins.int(self.codes[key]))
        return Categorical._make(self.codes[key], self.categories, self)

    def copy(self) -> Categorical:
        """A deep copy (codes, categories, and the grouping when known).

        Returns
        -------
        Categorical
            Of the same values, sharing no arrays.

        Examples
        --------
        >>> import atoll as ak
        >>> c = ak.Categorical(ak.array(["a", "b"]))
        >>> d = c.copy()
        >>> d.tolist(), d.codes is c.codes
        (['a', 'b'], False)
        """
        c = Categorical._make(_copy(self.codes), _at(self.categories, arange(self.categories.size)), self)
        c._groups_known = self._groups_known
        if self._perm is not None:
            c._perm, c._segs = _copy(self._perm), _copy(cast(pdarray, self._segs))
        return c

    # ----- comparisons -------------------------------------------------------------------
    def _same_categories(self, other: Categorical) -> bool:
        if self.categories is other.categories:
            return True
        if self.categories.size != other.categories.size:
            return False

        return self.categories.size == 0 or builtins.bool(_all(self.categories == other.categories))

    def _binop(self, other: object, op: str) -> Any:  # noqa: ANN401 (a pdarray)
        if op not in self.BinOps:
            raise NotImplementedError(f"Categorical: unsupported operator: {op}")
        if isinstance(other, (str, np.str_)):
            hit = self.categories == builtins.str(other)
            r = hit[self.codes]
            return r._materialize() if op == "==" else (~r)._materialize()
        if isinstance(other, Categorical):
            if other.size != self.size:
                raise ValueError(f"Categorical {op}: size mismatch {self.size} {other.size}")
            if self._same_categories(other):
                return self.codes == other.codes if op == "==" else self.codes != other.codes
            a, b = Categorical.standardize_categories([self, other])
            return a.codes == b.codes if op == "==" else a.codes != b.codes
        if isinstance(other, Strings):
            r = self.to_strings() == other
            return r if op == "==" else (~r)._materialize()
        raise TypeError(f"Categorical {op}: unsupported operand type {type(other).__name__}")

    def _r_binop(self, other: object, op: str) -> Any:  # noqa: ANN401 (a pdarray)
        return self._binop(other, op)

    def __eq__(self, other: object) -> Any:  # noqa: ANN401 (elementwise: a bool pdarray)
        if not isinstance(other, (str, np.str_, Categorical, Strings)):
            return NotImplemented
        return self._binop(other, "==")

    def __ne__(self, other: object) -> Any:  # noqa: ANN401 (elementwise: a bool pdarray)
        if not isinstance(other, (str, np.str_, Categorical, Strings)):
            return NotImplemented
        return self._binop(other, "!=")

    __hash__ = None  # type: ignore[assignment]  # mutable and compared elementwise, as NumPy's arrays

    def equals(self, other: object) -> bool:
        """Whether ``other`` is a Categorical of the same values.

        Parameters
        ----------
        other : object
            Anything.

        Returns
        -------
        bool
            True for a Categorical of the same values (whatever its categories).

        Examples
        --------
        >>> import atoll as ak
        >>> a = ak.Categorical(ak.array(["a", "b"]))
        >>> a.equals(ak.Categorical(ak.array(["a", "b"]))), a.equals(ak.array(["a", "b"]))
        (True, False)
        """
        if isinstance(other, Categorical) and other.size == self.size:
            return builtins.bool(_all(self == other)) if self.size else True
        return False

    # ----- categories --------------------------------------------------------------------
    @classmethod
    def standardize_categories(cls, arrays: Sequence[Categorical], na_value: str = "N/A") -> list[Categorical]:
        """The Categoricals of ``arrays`` remapped to one set of categories.

        The categories are the union of theirs, sorted, with ``na_value``.

        Parameters
        ----------
        arrays : sequence of Categorical
            The Categoricals.
        na_value : str, default "N/A"
            The missing-value label.

        Returns
        -------
        list of Categorical
            The same values, all over the same categories.

        Raises
        ------
        TypeError
            An element of ``arrays`` is not a Categorical.

        Examples
        --------
        >>> import atoll as ak
        >>> a, b = ak.Categorical(ak.array(["x"])), ak.Categorical(ak.array(["w"]))
        >>> [c.categories.tolist() for c in ak.Categorical.standardize_categories([a, b])]
        [['N/A', 'w', 'x'], ['N/A', 'w', 'x']]
        """
        for a in arrays:
            if not isinstance(a, cls):
                raise TypeError(f"All arguments must be {cls.__name__}")
        cats = unique(concatenate([a.categories for a in arrays]))
        if _find(cats, na_value) is None:
            cats = concatenate([cats, _strings([na_value])])
        return [a.set_categories(cats, na_value=na_value) for a in arrays]

    # ----- string predicates, on the categories ------------------------------------------
    def contains(self, substr: str, regex: bool = False) -> pdarray:
        """Whether each value contains ``substr``.

        Parameters
        ----------
        substr : str
            The substring (a regular expression with ``regex``).
        regex : bool, default False
            Read ``substr`` as a regular expression.

        Returns
        -------
        pdarray
            bool, one per value.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Categorical(ak.array(["abc", "xyz"])).contains("b").tolist()
        [True, False]
        """
        out: pdarray = self.categories.contains(substr, regex=regex)[self.codes]
        return out

    def startswith(self, substr: str, regex: bool = False) -> pdarray:
        """Whether each value starts with ``substr``.

        Parameters
        ----------
        substr : str
            The prefix (a regular expression with ``regex``).
        regex : bool, default False
            Read ``substr`` as a regular expression.

        Returns
        -------
        pdarray
            bool, one per value.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Categorical(ak.array(["abc", "xyz"])).startswith("x").tolist()
        [False, True]
        """
        out: pdarray = self.categories.startswith(substr, regex=regex)[self.codes]
        return out

    def endswith(self, substr: str, regex: bool = False) -> pdarray:
        """Whether each value ends with ``substr``.

        Parameters
        ----------
        substr : str
            The suffix (a regular expression with ``regex``).
        regex : bool, default False
            Read ``substr`` as a regular expression.

        Returns
        -------
        pdarray
            bool, one per value.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Categorical(ak.array(["abc", "xyz"])).endswith("c").tolist()
        [True, False]
        """
        if substr == "" and not regex:  # every value ends with "" (Strings refuses it: Arkouda)
            return cast(pdarray, full(self.size, True, bool))
        out: pdarray = self.categories.endswith(substr, regex=regex)[self.codes]
        return out

    # ----- as keys -----------------------------------------------------------------------
    def _is_sorted(self) -> bool:
        if self._sorted is None:
            k = self.categories.size
            self._sorted = k == 0 or builtins.bool(_all(self.categories.argsort() == arange(k)))
        return self._sorted

    def _ranks(self) -> pdarray:
        """The rank of each value's category in code-point order.

        The codes themselves when they already order as the strings.
        """
        if self._is_sorted():
            return self.codes

        k = self.categories.size
        rank = zeros(k, int64)
        rank[self.categories.argsort()] = arange(k)
        out: pdarray = rank[self.codes]
        return out

    def _get_grouping_keys(self) -> list[pdarray]:
        return [self._ranks()]

    def sort_values(self) -> Categorical:
        """The values sorted, as a Categorical with the same categories.

        Returns
        -------
        Categorical
            The values in code-point order.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Categorical(ak.array(["b", "c", "a"])).sort_values().tolist()
        ['a', 'b', 'c']
        """
        out: Categorical = self[self.argsort()]
        return out

    sort = sort_values

    def group(self) -> pdarray:
        """The permutation that groups equal values (sorted).

        Returns
        -------
        pdarray
            int64 indices.

        Examples
        --------
        >>> import atoll as ak
        >>> ak.Categorical(ak.array(["b", "a", "b"])).group().tolist()
        [1, 0, 2]
        """
        return self.argsort()

    def hash(self) -> tuple[pdarray, pdarray]:
        """A 128-bit hash of each value (of its string), as two uint64 pdarrays.

        Returns
        -------
        tuple of pdarray
            Two uint64 arrays: equal values have equal pairs.

        Examples
        --------
        >>> import atoll as ak
        >>> h1, h2 = ak.Categorical(ak.array(["a", "b", "a"])).hash()
        >>> bool(h1[0] == h1[2]) and bool(h2[0] == h2[2]), bool(h1[0] == h1[1])
        (True, False)
        """
        h1, h2 = self.categories.hash()
        return h1[self.codes], h2[self.codes]


def _copy(v: pdarray) -> pdarray:
    out: pdarray = v.astype(v.dtype)._materialize()
    return out


def _is_pandas_categorical(v: object) -> bool:
    return loaded("pandas") and isinstance(v, pd.Categorical)


def where(condition: pdarray, A: object, B: object) -> Categorical:  # noqa: N803 (Arkouda's names)
    """``ak.where`` with a Categorical (or a string) on either side.

    Parameters
    ----------
    condition : pdarray
        bool, one per value: take ``A`` where True, else ``B``.
    A : Categorical, Strings or str
        The values where ``condition`` is True.
    B : Categorical, Strings or str
        The values where it is False.

    Returns
    -------
    Categorical
        Over the union of the categories (a string that is no category becomes one).

    Raises
    ------
    TypeError
        ``A`` or ``B`` is of another kind.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.pandas.categorical import where
    >>> c = ak.Categorical(ak.array(["a", "b"]))
    >>> where(ak.array([True, False]), c, "z").tolist()
    ['a', 'z']
    """

    def as_cat(x: object) -> Categorical:
        if isinstance(x, Categorical):
            return x
        if isinstance(x, Strings):
            return Categorical(x)
        if isinstance(x, (str, np.str_)):
            return Categorical.from_codes(_zeros_codes(condition.size), _strings([builtins.str(x)]))
        raise TypeError(f"where: expected a Categorical, Strings or str, got {type(x).__name__}")

    a, b = as_cat(A), as_cat(B)
    if not a._same_categories(b):
        a, b = Categorical.standardize_categories([a, b], na_value=a.na_value)
    codes = _where(condition, a.codes, b.codes)._materialize()
    return Categorical.from_codes(codes, a.categories, na_value=a.na_value)


def _zeros_codes(n: int) -> pdarray:
    return zeros(n, int64)


register_categorical(Categorical, where)
