"""Arkouda's ``arkouda.plotting``: histograms of Atoll data drawn with matplotlib.

``plot_dist(b, h)`` draws a histogram's distribution and its cumulative distribution side
by side; ``hist_all(df)`` a grid of histograms, one per column of a DataFrame. The counts
are computed on the locales (``ak.histogram``); only the bins and counts come to the driver.
matplotlib is imported on first use (``pip install matplotlib``); neither function shows
the figure unless asked (``show=True``, or ``plt.show()``).

>>> import atoll as ak
>>> import matplotlib
>>> matplotlib.use("Agg")
>>> from atoll.plotting import plot_dist
>>> counts, edges = ak.histogram(ak.arange(10), 3)
>>> fig, axes = plot_dist(edges, counts)
>>> [a.get_title() for a in axes]
['distribution', 'cumulative distribution']
>>> float(axes[1].lines[0].get_ydata()[-1])
1.0
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np
import numpy.typing as npt

from ._optional import LazyModule
from .core import client
from .numpy.numeric import isnan
from .numpy.pdarrayclass import pdarray
from .numpy.pdarraycreation import arange
from .numpy.pdarraymanipulation import histogram
from .numpy.strings import Strings
from .pandas.categorical import Categorical
from .pandas.groupbyclass import GroupBy
from .stats import skew

if TYPE_CHECKING:
    from matplotlib.figure import Figure

    from .pandas.dataframe import DataFrame

__all__ = ["plot_dist", "hist_all"]

plt = LazyModule("matplotlib.pyplot")


def _host(x: pdarray | npt.ArrayLike, what: str) -> npt.NDArray[np.float64]:
    """``x`` (a pdarray or array-like) as a 1-D float64 NumPy array on the driver.

    A pdarray larger than ``ak.core.client.maxTransferBytes`` is refused (``ValueError``).
    """
    if isinstance(x, pdarray):
        if x.nbytes > client.maxTransferBytes:
            raise ValueError(f"{what}: array too large to transfer: {x.nbytes} bytes (max {client.maxTransferBytes})")
        x = x.to_ndarray()
    out = np.asarray(x, dtype=np.float64)
    if out.ndim != 1:
        raise ValueError(f"{what}: expected a 1-D array, got {out.ndim} dimensions")
    return out


def plot_dist(
    b: pdarray | npt.ArrayLike,
    h: pdarray | npt.ArrayLike,
    *,
    log: bool = True,
    xlabel: str | None = None,
    newfig: bool = True,
    show: bool = False,
) -> tuple[Figure, npt.NDArray[np.object_]]:
    """Draw the distribution of a histogram (left) and its cumulative distribution (right).

    The cumulative distribution is normed to end at 1.

    Parameters
    ----------
    b : pdarray or array_like
        The bin edges (N + 1) or centres (N).
    h : pdarray or array_like
        The counts: N, or N + 1 (the last one, as some histograms give, is dropped).
    log : bool, default True
        Draw the distribution's y axis logarithmic (where a count is positive).
    xlabel : str, optional
        The label of both x axes.
    newfig : bool, default True
        Draw in a new figure, else in the current one.
    show : bool, default False
        Show the figure (``plt.show()``).

    Returns
    -------
    tuple
        ``(figure, axes)``, ``axes`` a NumPy array of the two Axes.

    Raises
    ------
    ValueError
        The lengths do not fit, an array is not 1-D, or a pdarray is larger than
        ``ak.core.client.maxTransferBytes``.

    Examples
    --------
    >>> import atoll as ak
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from atoll.plotting import plot_dist
    >>> counts, edges = ak.histogram(ak.array([1, 2, 2, 3, 3, 3]), 3)
    >>> fig, axes = plot_dist(edges, counts, log=False)
    >>> axes[1].lines[0].get_ydata().tolist()
    [0.16666666666666666, 0.5, 1.0]
    """
    b = _host(b, "b")
    h = _host(h, "h")
    if b.size == h.size + 1:
        x = 0.5 * (b[:-1] + b[1:])
    elif b.size == h.size - 1:
        h = h[:-1]
        x = b
    elif b.size == h.size:
        x = b
    else:
        raise ValueError(
            f"Length mismatch: len(b)={b.size} vs len(h)={h.size}: expected edges (N+1) with counts N "
            "or N+1, or centres N with counts N or N+1"
        )
    if newfig:
        fig, axes = plt.subplots(1, 2, figsize=(12, 5))
    else:
        fig = plt.gcf()
        axes = np.array([plt.subplot(1, 2, 1), plt.subplot(1, 2, 2)], dtype=object)
    ax = axes[0]
    ax.plot(x, h, marker=".", linestyle="solid")
    if log and np.any(h > 0):
        ax.set_yscale("log")
    ax.set_title("distribution")
    total = float(h.sum())
    cdf = np.cumsum(h) / total if total > 0 else np.zeros_like(h)
    ax = axes[1]
    ax.plot(x, cdf, linestyle="solid")
    ax.set_ylim((0, 1))
    ax.set_title("cumulative distribution")
    if xlabel is not None:
        for ax in axes:
            ax.set_xlabel(xlabel, fontsize=12)
    if show:
        plt.show()
    return fig, axes


def _numeric(col: object) -> pdarray:
    """The values of a column as a numeric pdarray.

    Numbers as they are (bool as 0/1, NaN dropped), strings and categories as the index of
    their value among the sorted distinct values.
    """
    if isinstance(col, (Strings, Categorical)):
        g = GroupBy(col)
        out: pdarray = g.broadcast(arange(g.unique_keys.size))
        return out
    if not isinstance(col, pdarray):
        raise TypeError(f"hist_all: cannot draw a column of type {type(col).__name__}")
    # pdarray's indexing and astype are set on the class by numpy._pdarrayclass_methods,
    # which mypy does not see.
    values: Any = col
    if col.dtype == np.dtype(bool):
        as_int: pdarray = values.astype(np.int64)
        return as_int
    if col.dtype.kind == "f":
        kept: pdarray = values[~isnan(col)]
        return kept
    return col


def doane_bins(x: pdarray) -> int:
    """Doane's number of bins for the values ``x``.

    ``1 + log2(n) + log2(1 + |g1| / s)``, ``g1`` the sample skewness and
    ``s = sqrt(6 (n - 2) / ((n + 1) (n + 3)))``.

    Parameters
    ----------
    x : pdarray
        Numeric values.

    Returns
    -------
    int
        The bins, at least 1: one for fewer than three values; skewness 0 for constant values.

    Examples
    --------
    >>> import atoll as ak
    >>> import math, scipy.stats
    >>> from atoll.plotting import doane_bins
    >>> v = [1.0, 1.0, 50.0, 2.0, 3.0, 1.0, 1.0, 1.0]
    >>> s = math.sqrt(6 * 6 / (9 * 11))
    >>> doane_bins(ak.array(v)) == int(1 + math.log2(8) + math.log2(1 + abs(scipy.stats.skew(v)) / s))
    True
    >>> doane_bins(ak.array([5.0, 6.0]))
    1
    """
    n = int(x.size)
    if n < 3:
        return 1
    g1 = float(skew(x))
    if not math.isfinite(g1):
        g1 = 0.0
    sigma = math.sqrt(6 * (n - 2) / ((n + 1) * (n + 3)))
    return max(1, int(1 + math.log2(n) + math.log2(1 + abs(g1) / sigma)))


def hist_all(ak_df: DataFrame, cols: list[Any] | None = None) -> tuple[Figure, npt.NDArray[np.object_]]:
    """A grid of histograms, one per column of a DataFrame.

    Each has Doane's number of bins (``doane_bins``) over the column's range and is titled
    with the column's name. Strings and Categorical columns are drawn as the index of each
    value among the sorted distinct values; NaN is left out.

    Parameters
    ----------
    ak_df : DataFrame
        The data.
    cols : list, optional
        The columns to draw; all when None or empty.

    Returns
    -------
    tuple
        ``(figure, axes)``, ``axes`` a flat NumPy array of Axes (those past the last column
        hidden).

    Raises
    ------
    KeyError
        A column of ``cols`` is not in ``ak_df``.
    TypeError
        A column of a type that cannot be drawn.

    Examples
    --------
    >>> import atoll as ak
    >>> import matplotlib
    >>> matplotlib.use("Agg")
    >>> from atoll.plotting import hist_all
    >>> df = ak.DataFrame({"x": ak.arange(100), "name": ak.array(["a", "b"] * 50)})
    >>> fig, axes = hist_all(df)
    >>> [a.get_title() for a in axes]
    ['x', 'name']
    """
    if not cols:
        cols = list(ak_df.columns)
    missing = [c for c in cols if c not in ak_df.columns]
    if missing:
        raise KeyError(f"hist_all: no column {missing[0]!r}")
    nrows = int(math.ceil(len(cols) ** 0.5))
    ncols = (len(cols) + nrows - 1) // nrows
    fig, axes = plt.subplots(nrows, ncols, figsize=(10, 10), squeeze=False)
    axes = np.asarray(axes, dtype=object).ravel()
    for ax, col in zip(axes, cols):
        x = _numeric(ak_df[col])
        ax.set_title(str(col), size=8)
        if x.size == 0:
            continue
        hist, bin_edges = histogram(x, doane_bins(x))
        counts, edges = hist.to_ndarray(), bin_edges.to_ndarray()
        ax.bar(edges[:-1], counts, width=np.diff(edges), align="edge")
        lo, hi = float(x.min()), float(x.max())
        if lo > 0 and hi > 100 * lo:
            ax.set_yscale("log")
    for ax in axes[len(cols) :]:
        ax.set_visible(False)
    fig.tight_layout(pad=2.0)
    return fig, axes
