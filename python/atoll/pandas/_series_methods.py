"""Methods of ``Series`` that call modules above ``atoll.pandas.series`` (``DataFrame``): defined
here, where both are known, and set on the class by ``atoll._attach.attach``; the root
``atoll/__init__.py`` runs this module."""

import builtins

from .._attach import attach
from ..numpy.pdarraysetops import unique
from ._align import lookup
from ._concat import generic_concat
from .dataframe import DataFrame
from .index import Index, MultiIndex
from .series import Series


class _SeriesMethods:
    def to_dataframe(self, index_labels=None, value_label=None):
        """A DataFrame of the index level(s) and the values as columns."""

        cols = {}
        levels = self.index.levels if isinstance(self.index, MultiIndex) else [self.index.values]
        if index_labels is None:
            index_labels = [f"idx_{i}" for i in range(len(levels))]
        for n, lv in zip(index_labels, levels):
            cols[n] = lv
        cols[value_label if value_label is not None else (self.name or "val_0")] = self.values
        return DataFrame(cols)

    @staticmethod
    def concat(arrays, axis=0, index_labels=None, value_labels=None, ordered=False):
        """The Series of ``arrays`` one after the other (``axis=0``), or side by side as a
        DataFrame (``axis=1``): the index as column(s) ("idx" for one level, "idx_0", "idx_1",
        ... for a MultiIndex, or ``index_labels``), then one column per Series. Series whose
        indexes differ are aligned on the sorted union of their labels, a label a Series lacks
        giving 0 there, as Arkouda."""

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
            cols = {}
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
