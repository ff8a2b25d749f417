"""Strings (and Categoricals) as keys of ``ak.GroupBy`` and ``ak.coargsort``.

- ``GroupBy(strings)``: one distributed sample sort of the strings gives the permutation, the
  segments, the unique keys (``Strings``) and the counts (``atoll-strings``' GroupBy).
- ``GroupBy([strings, pdarray, ...])`` and ``coargsort``: each Strings key is replaced by its
  **ranks** (each string's position among the distinct strings, sorted by code point: one
  sample sort), which sort and compare exactly as the strings do, and the rows are grouped by
  the numeric multi-key sort; the unique keys are read back from the original keys at the
  groups' first rows. A ``Categorical`` gives its codes as ranks (no sort when its categories
  are sorted, as ``Categorical(strings)`` makes them).

Ranks compare only within one array: they are never mixed across two arrays.

``radix_key`` combines keys of small ranges (Categoricals, Strings, int64 / uint8 / bool
pdarrays) into one int64 key, a mixed-radix number whose first key is the most significant
digit: it orders as the rows of the keys order lexicographically, so one dense pass (or one
single-key sort) groups the rows as the multi-key sort does, with the same groups in the
same order.
"""

from __future__ import annotations

import builtins
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Union

from . import _atoll
from ._keys import COMBINE_MAX_PRODUCT
from .categorical import Categorical
from .numpy.dtypes import bool_, int64, uint8
from .numpy.pdarrayclass import max as _max, min as _min, pdarray
from .numpy.pdarraycreation import zeros
from .numpy.strings import Strings, _groupby

if TYPE_CHECKING:
    from .pandas.groupbyclass import GroupBy

# A key of GroupBy or coargsort, as the functions below take it.
_Key = Union[pdarray, Strings, Categorical]

# One key's digit (an int64 pdarray), its range, and the map from digits back to keys.
_Digit = tuple[Any, int, Callable[[Any], Any]]


def is_str_key(k: object) -> bool:
    """Whether ``k`` is a Strings or a Categorical.

    Parameters
    ----------
    k : object
        A key.

    Returns
    -------
    bool
        Whether its ranks stand for it in sorts.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.str_groupby import is_str_key
    >>> is_str_key(ak.array(["a", "b"])), is_str_key(ak.array([1, 2]))
    (True, False)
    """
    return isinstance(k, (Strings, Categorical))


def string_ranks(s: Strings) -> pdarray:
    """The rank of each string of ``s`` among its distinct strings (int64 pdarray).

    Parameters
    ----------
    s : Strings
        The strings.

    Returns
    -------
    pdarray
        Each string's position among the distinct strings, sorted by code point.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.str_groupby import string_ranks
    >>> string_ranks(ak.array(["b", "a", "b"]))
    array([1 0 1])
    """
    return pdarray(_atoll.str_categorical_py(s._s)[0])


def rank_keys(keys: _Key | list[_Key] | tuple[_Key, ...]) -> Any:  # noqa: ANN401 (a key or a list of keys)
    """``keys`` with every Strings / Categorical replaced by its ranks (same list shape).

    Parameters
    ----------
    keys : pdarray, Strings, Categorical, or list or tuple of them
        The keys.

    Returns
    -------
    pdarray or list
        The keys, ranks in place of the Strings and Categoricals (a list for a sequence).

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.str_groupby import rank_keys
    >>> rank_keys([ak.array(["b", "a", "b"]), ak.array([1, 2, 3])])
    [array([1 0 1]), array([1 2 3])]
    """

    def one(k: _Key) -> Any:  # noqa: ANN401 (a pdarray, or the key itself)
        # Any: Strings' ``_ranks`` is set by atoll.numpy._strings_methods, out of mypy's sight.
        s: Any = k
        return s._ranks() if isinstance(k, (Strings, Categorical)) else k

    if isinstance(keys, (list, tuple)):
        return [one(k) for k in keys]
    return one(keys)


def init_strings(g: GroupBy, s: Strings, dropna: bool) -> None:
    """Fill the GroupBy ``g`` for the single Strings key ``s`` (one sample sort).

    Parameters
    ----------
    g : GroupBy
        A GroupBy whose ``__init__`` has not run.
    s : Strings
        The key.
    dropna : bool
        The GroupBy's ``dropna``.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.str_groupby import init_strings
    >>> g = ak.GroupBy.__new__(ak.GroupBy)
    >>> init_strings(g, ak.array(["b", "a", "b"]), True)
    >>> g.size()
    (Strings(['a', 'b']), array([1 2]))
    """
    perm, segs, uk, counts = _groupby(s)
    flags = zeros(s.size, bool_)
    if segs.size:
        flags[segs] = True
    g.keys, g.nkeys, g.dropna = s, 1, dropna
    g._nrows = g.length = s.size
    # GroupBy types _dense and _ks for keys of numbers; a Strings key has neither.
    g._seq, g._dense, g._ks, g._kept = False, None, None, None  # type: ignore[assignment]
    g._perm, g._segs, g._flags_, g._uk, g._counts = perm, segs, flags, uk, counts


def _digit(k: object) -> _Digit | None:
    """``(digit, range, decode)`` of one key, None when ``k`` is of another type.

    ``digit`` is an int64 pdarray of values in ``0..range``, and ``decode`` the map from such
    digits back to keys of ``k``'s type (the values a gather of ``k`` at rows with those digits
    gives).
    """
    if isinstance(k, Categorical):
        ranks = k._ranks()
        order = None if k._is_sorted() else k.categories.argsort()

        def decode_cat(d: Any) -> Categorical:  # noqa: ANN401 (an int64 pdarray)
            return Categorical._make(d if order is None else order[d], k.categories, k)

        return ranks, k.categories.size, decode_cat
    if isinstance(k, Strings):
        codes, uniq_arr = _atoll.str_categorical_py(k._s)
        # Any: Strings' ``__getitem__`` is set by atoll.numpy._strings_methods, out of mypy's sight.
        uniq: Any = Strings(uniq_arr)
        return pdarray(codes), uniq.size, lambda d: uniq[d]
    if not isinstance(k, pdarray):
        return None
    # Any: ``astype`` and the operators are set on pdarray out of mypy's sight.
    p: Any = k
    if p.dtype == bool_:
        return p.astype(int64), 2, lambda d: (d != 0)._materialize()
    if p.dtype not in (int64, uint8):
        return None
    lo, hi = builtins.int(_min(p)), builtins.int(_max(p))
    dt = p.dtype
    digit = p - lo if dt == int64 else p.astype(int64) - lo

    def decode_int(d: Any) -> pdarray:  # noqa: ANN401 (an int64 pdarray)
        v = d + lo
        out: pdarray = v._materialize() if dt == int64 else v.astype(uint8)._materialize()
        return out

    return digit, hi - lo + 1, decode_int


def radix_key(keys: object) -> tuple[pdarray, int, Callable[[Any], Any]] | None:
    """The keys ``keys`` combined into one int64 pdarray: ``(key, product of the ranges, decode)``.

    Parameters
    ----------
    keys : Categorical, or list or tuple
        A Categorical, or a list/tuple of Categoricals, Strings and int64 / uint8 / bool
        pdarrays.

    Returns
    -------
    tuple or None
        The combined key, the product of the ranges, and ``decode``, which maps distinct
        combined keys (an int64 pdarray) to the distinct keys: one array, or a tuple of them
        for a list of keys. None when a key is of another type, the sizes differ, there are no
        rows, or the product of the ranges passes ``COMBINE_MAX_PRODUCT``.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.str_groupby import radix_key
    >>> key, product, decode = radix_key([ak.array([1, 2, 1]), ak.array([True, False, True])])
    >>> key, product
    (array([1 2 1]), 4)
    >>> decode(key)
    (array([1 2 1]), array([ True False  True]))
    """
    seq = isinstance(keys, (list, tuple))
    ks: list[Any] = list(keys) if isinstance(keys, (list, tuple)) else [keys]
    if not ks or not (seq or isinstance(keys, Categorical)):
        return None
    n = ks[0].size if hasattr(ks[0], "size") else None
    if not n or builtins.any(not hasattr(k, "size") or k.size != n for k in ks):
        return None
    if not builtins.all(isinstance(k, (Categorical, Strings, pdarray)) for k in ks):
        return None
    digits: list[_Digit] = []
    product = 1
    for k in ks:
        d = _digit(k)
        if d is None:
            return None
        digits.append(d)
        product *= builtins.max(d[1], 1)
        if product > COMBINE_MAX_PRODUCT:
            return None
    strides = []
    s = 1
    for _, r, _ in reversed(digits):
        strides.append(s)
        s *= builtins.max(r, 1)
    strides.reverse()
    key: Any = None
    for (d, _, _), st in zip(digits, strides):
        term = d * st if st != 1 else d
        key = term if key is None else key + term
    key = key._materialize()

    def decode(u: Any) -> Any:  # noqa: ANN401 (an int64 pdarray to one key array or a tuple of them)
        out = []
        for i, ((_, r, dec), st) in enumerate(zip(digits, strides)):
            q = u // st if st != 1 else u
            if i:
                q = q % r  # the most significant digit needs no reduction
            out.append(dec(q._materialize()))
        return tuple(out) if seq else out[0]

    return key, product, decode
