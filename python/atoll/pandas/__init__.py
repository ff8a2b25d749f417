"""Arkouda's pandas-like layer (``arkouda.pandas``).

``DataFrame``, ``Series``, ``Index``, ``MultiIndex``, ``Categorical``, ``GroupBy``, joins
(``merge``, ``join_on_eq_with_dt``) and the IO helpers of ``io_util``. Every name is also at
the top level (``ak.DataFrame``).
"""

# The modules of this package sit in different layers of ``atoll`` (tools/py_import_cycles.py),
# and a package's ``__init__`` runs whenever one of its modules is first imported: this one
# imports none of them. ``atoll.pandas._namespace`` sets the names on the package; the root
# ``atoll/__init__.py`` runs it.

__all__ = [
    "GroupBy",
    "GroupByReductionType",
    "GROUPBY_REDUCTION_TYPES",
    "broadcast",
    "Categorical",
    "Index",
    "MultiIndex",
    "Series",
    "DataFrame",
    "DataFrameGroupBy",
    "intx",
    "intersect",
    "invert_permutation",
    "MergeError",
    "merge",
    "join_on_eq_with_dt",
    "inner_join",
    "compute_join_size",
    "Row",
    "attach",
    "list_registry",
    "io_util",
]
