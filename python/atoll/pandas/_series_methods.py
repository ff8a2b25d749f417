"""Methods of ``Series`` that call modules above ``atoll.pandas.series`` (``DataFrame``): defined
here, where both are known, and set on the class by ``atoll._attach.attach``; the root
``atoll/__init__.py`` runs this module."""

from .._attach import attach
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
        DataFrame of aligned Series (``axis=1``)."""

        arrays = list(arrays)
        if not arrays:
            raise ValueError("concat: no Series given")
        if axis == 1:
            idx = arrays[0].index
            for a in arrays[1:]:
                if not idx.equals(a.index):
                    raise ValueError("Series.concat(axis=1): every Series must have the same index")
            cols = {}
            levels = idx.levels if isinstance(idx, MultiIndex) else [idx.values]
            labels = index_labels or [f"idx_{i}" for i in range(len(levels))]
            for n, lv in zip(labels, levels):
                cols[n] = lv
            vlabels = value_labels or [a.name if a.name is not None else f"val_{i}" for i, a in enumerate(arrays)]
            for n, a in zip(vlabels, arrays):
                cols[n] = a.values
            return DataFrame(cols)
        if isinstance(arrays[0].index, MultiIndex):
            idx = arrays[0].index
            for a in arrays[1:]:
                idx = idx.concat(a.index)
        else:
            idx = Index(generic_concat([a.index.values for a in arrays]))
        return Series(generic_concat([a.values for a in arrays]), index=idx)


attach(Series, _SeriesMethods)
