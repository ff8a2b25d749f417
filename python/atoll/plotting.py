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

import math

import numpy as np

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

__all__ = ["plot_dist", "hist_all"]

plt = LazyModule("matplotlib.pyplot")


def _host(x, what):
    """``x`` (a pdarray or array-like) as a 1-D float64 NumPy array on the driver; a pdarray
    larger than ``ak.core.client.maxTransferBytes`` is refused (``ValueError``)."""
    if isinstance(x, pdarray):
        if x.nbytes > client.maxTransferBytes:
            raise ValueError(f"{what}: array too large to transfer: {x.nbytes} bytes (max {client.maxTransferBytes})")
        x = x.to_ndarray()
    out = np.asarray(x, dtype=np.float64)
    if out.ndim != 1:
        raise ValueError(f"{what}: expected a 1-D array, got {out.ndim} dimensions")
    return out


def plot_dist(b, h, *, log=True, xlabel=None, newfig=True, show=False):
    """Draws the distribution of a histogram (left) and its cumulative distribution, normed
    to end at 1 (right). ``b``: the bin edges (N + 1) or centres (N); ``h``: the counts, N,
    or N + 1 (the last one, as some histograms give, is dropped). Each may be a pdarray or
    an array-like. The distribution's y axis is logarithmic when ``log`` and a count is
    positive; ``xlabel`` labels both x axes. ``newfig``: a new figure, else the current one.
    Returns ``(figure, axes)``, ``axes`` a NumPy array of the two Axes. ``ValueError`` when
    the lengths do not fit."""
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


def _numeric(col):
    """The values of a column as a numeric pdarray: numbers as they are (bool as 0/1, NaN
    dropped), strings and categories as the index of their value among the sorted distinct
    values."""
    if isinstance(col, (Strings, Categorical)):
        g = GroupBy(col)
        return g.broadcast(arange(g.unique_keys.size))
    if not isinstance(col, pdarray):
        raise TypeError(f"hist_all: cannot draw a column of type {type(col).__name__}")
    if col.dtype == np.dtype(bool):
        return col.astype(np.int64)
    if col.dtype.kind == "f":
        return col[~isnan(col)]
    return col


def doane_bins(x):
    """Doane's number of bins for the numeric pdarray ``x``: ``1 + log2(n) + log2(1 + |g1| /
    s)``, ``g1`` the sample skewness and ``s = sqrt(6 (n - 2) / ((n + 1) (n + 3)))`` (one bin
    for fewer than three values, skewness 0 for constant values)."""
    n = int(x.size)
    if n < 3:
        return 1
    g1 = float(skew(x))
    if not math.isfinite(g1):
        g1 = 0.0
    sigma = math.sqrt(6 * (n - 2) / ((n + 1) * (n + 3)))
    return max(1, int(1 + math.log2(n) + math.log2(1 + abs(g1) / sigma)))


def hist_all(ak_df, cols=None):
    """A grid of histograms, one per column of the DataFrame ``ak_df`` (those named in
    ``cols``, all when None or empty), each with Doane's number of bins (``doane_bins``)
    over the column's range, titled with the column's name. Strings and Categorical columns
    are drawn as the index of each value among the sorted distinct values; NaN is left
    out. Returns ``(figure, axes)``, ``axes`` a flat NumPy array of Axes (those past the
    last column hidden)."""
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
        counts, edges = histogram(x, doane_bins(x))
        counts, edges = counts.to_ndarray(), edges.to_ndarray()
        ax.bar(edges[:-1], counts, width=np.diff(edges), align="edge")
        lo, hi = float(x.min()), float(x.max())
        if lo > 0 and hi > 100 * lo:
            ax.set_yscale("log")
    for ax in axes[len(cols) :]:
        ax.set_visible(False)
    fig.tight_layout(pad=2.0)
    return fig, axes
