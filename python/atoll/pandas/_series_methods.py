"""Methods of ``Series`` that call modules above ``atoll.pandas.series`` (``DataFrame``).

They are defined here, where both are known, and set on the class by ``atoll._attach.attach``;
the root ``atoll/__init__.py`` runs this module.
"""

from __future__ import annotations

import builtins
from collections.abc import Hashable, Iterable, Sequence
from typing import TYPE_CHECKING, Any

from .._attach import attach
from ..numpy.pdarraysetops import unique
from ._align import lookup
from ._concat import generic_concat
from .dataframe import DataFrame
from .index import Index, MultiIndex
from .series import Series

if TYPE_CHECKING:
    # mypy reads the methods as Series' own; at run time the class body is a plain one.
    _Base = Series
else:
    _Base = object


class _SeriesMethods(_Base):
    def to_dataframe(
        self, index_labels: Sequence[Hashable] | None = None, value_label: Hashable | None = None
    ) -> DataFrame:
        """A DataFrame of the index level(s) and the values as columns.

        Parameters
        ----------
        index_labels : sequence of hashable, optional
            The names of the index columns, one per level (default ``idx_0``, ``idx_1``, ...).
        value_label : hashable, optional
            The name of the values' column (default the Series' name, or ``val_0``).

        Returns
        -------
        DataFrame
            The index level(s), then the values.

        Examples
        --------
        >>> import atoll as ak
        >>> s = ak.Series(ak.array([10, 20]), index=ak.array([1, 2]))
        >>> s.to_dataframe(value_label="v").to_pandas()
           idx_0   v
        0      1  10
        1      2  20
        """
        cols: dict[Hashable, Any] = {}
        levels = self.index.levels if isinstance(self.index, MultiIndex) else [self.index.values]
        if index_labels is None:
            index_labels = [f"idx_{i}" for i in range(len(levels))]
        for n, lv in zip(index_labels, levels):
            cols[n] = lv
        cols[value_label if value_label is not None else (self.name or "val_0")] = self.values
        return DataFrame(cols)

    @staticmethod
    def concat(
        arrays: Iterable[Series],
        axis: int = 0,
        index_labels: Sequence[Hashable] | None = None,
        value_labels: Sequence[Hashable] | None = None,
        ordered: bool = False,
    ) -> Series | DataFrame:
        """The Series of ``arrays`` one after the other, or side by side as a DataFrame.

        With ``axis=1`` the DataFrame has the index as column(s) ("idx" for one level, "idx_0",
        "idx_1", ... for a MultiIndex, or ``index_labels``), then one column per Series. Series
        whose indexes differ are aligned on the sorted union of their labels, a label a Series
        lacks giving 0 there, as Arkouda.

        Parameters
        ----------
        arrays : iterable of Series
            The Series.
        axis : int, default 0
            0: one Series of every value; 1: a DataFrame with a column per Series.
        index_labels : sequence of hashable, optional
            The names of the index columns (``axis=1``).
        value_labels : sequence of hashable, optional
            The names of the value columns (``axis=1``; default each Series' name, or
            ``val_0``, ``val_1``, ...).
        ordered : bool, default False
            Accepted for Arkouda's signature; the result is always in order.

        Returns
        -------
        Series or DataFrame
            A Series for ``axis=0``, a DataFrame for ``axis=1``.

        Raises
        ------
        ValueError
            No Series are given, or Series with a MultiIndex have different indexes (``axis=1``).

        Examples
        --------
        >>> import atoll as ak
        >>> a = ak.Series(ak.array([1, 2]), index=ak.array([0, 1]))
        >>> b = ak.Series(ak.array([3]), index=ak.array([1]))
        >>> ak.Series.concat([a, b]).to_pandas().tolist()
        [1, 2, 3]
        >>> ak.Series.concat([a, b], axis=1).to_pandas()
           idx  val_0  val_1
        0    0      1      0
        1    1      2      3
        """
        arrays = list(arrays)
        if not arrays:
            raise ValueError("concat: no Series given")
        if axis == 1:
            idx = arrays[0].index
            aligned = builtins.all(idx.equals(a.index) for a in arrays[1:])
            if not aligned:
                if builtins.any(isinstance(a.index, MultiIndex) for a in arrays):
                    raise ValueError("Series.concat(axis=1): Series with a MultiIndex must have the same index")
                idx = Index(unique(generic_concat([a.index.values for a in arrays])))
            cols: dict[Hashable, Any] = {}
            levels = idx.levels if isinstance(idx, MultiIndex) else [idx.values]
            default = [f"idx_{i}" for i in range(len(levels))] if isinstance(idx, MultiIndex) else ["idx"]
            labels = index_labels or default
            for n, lv in zip(labels, levels):
                cols[n] = lv
            vlabels = value_labels or [a.name if a.name is not None else f"val_{i}" for i, a in enumerate(arrays)]
            for n, a in zip(vlabels, arrays):
                cols[n] = a.values if aligned else lookup(a.index.values, a.values, idx.values, fillvalue=0)
            return DataFrame(cols)
        if isinstance(arrays[0].index, MultiIndex):
            idx = arrays[0].index
            for a in arrays[1:]:
                idx = idx.concat(a.index)
        else:
            idx = Index(generic_concat([a.index.values for a in arrays]))
        return Series(generic_concat([a.values for a in arrays]), index=idx)


attach(Series, _SeriesMethods)
