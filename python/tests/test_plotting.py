"""``ak.plot_dist`` and ``ak.hist_all`` (Arkouda's ``arkouda.plotting``): the data the figures'
artists hold, checked against ``numpy.histogram`` and SciPy's skewness. matplotlib's Agg
backend; skipped where matplotlib is not installed."""

import math

import atoll as ak
import numpy as np
import pytest
from scipy import stats

matplotlib = pytest.importorskip("matplotlib")
matplotlib.use("Agg")
plt = pytest.importorskip("matplotlib.pyplot")

from atoll.plotting import doane_bins, hist_all, plot_dist  # noqa: E402


@pytest.fixture(autouse=True)
def _close():
    yield
    plt.close("all")


def test_plot_dist_from_numpy_edges():
    data = np.random.default_rng(0).normal(size=1000)
    counts, edges = np.histogram(data, bins=20)
    fig, axes = plot_dist(edges, counts, xlabel="Value")
    assert np.asarray(axes).shape == (2,)
    x, y = axes[0].lines[0].get_data()
    np.testing.assert_allclose(x, (edges[:-1] + edges[1:]) / 2)
    np.testing.assert_array_equal(y, counts)
    _, cdf = axes[1].lines[0].get_data()
    np.testing.assert_allclose(cdf, np.cumsum(counts) / counts.sum())
    assert [a.get_title() for a in axes] == ["distribution", "cumulative distribution"]
    assert [a.get_xlabel() for a in axes] == ["Value", "Value"]
    assert axes[0].get_yscale() == "log"


def test_plot_dist_from_atoll_histogram():
    v = np.random.default_rng(1).integers(0, 50, 300)
    counts, edges = ak.histogram(ak.array(v), 7)
    want_counts, want_edges = np.histogram(v, bins=7)
    fig, axes = plot_dist(edges, counts, log=False)
    x, y = axes[0].lines[0].get_data()
    np.testing.assert_allclose(x, (want_edges[:-1] + want_edges[1:]) / 2)
    np.testing.assert_array_equal(y, want_counts)
    assert axes[0].get_yscale() == "linear"
    assert math.isclose(axes[1].lines[0].get_ydata()[-1], 1.0)


def test_plot_dist_centres_and_extra_count():
    centres = np.linspace(-1, 1, 11)
    counts = np.arange(12, dtype=float)
    _, axes = plot_dist(centres, counts)
    x, y = axes[0].lines[0].get_data()
    np.testing.assert_array_equal(x, centres)
    np.testing.assert_array_equal(y, counts[:-1])
    _, axes = plot_dist(centres, counts[:-1])
    np.testing.assert_array_equal(axes[0].lines[0].get_ydata(), counts[:-1])


def test_plot_dist_current_figure_and_errors(monkeypatch):
    fig0 = plt.figure()
    fig, axes = plot_dist(np.array([0.0, 1, 2, 3]), np.array([1.0, 2, 3]), newfig=False)
    assert fig is fig0 and np.asarray(axes).shape == (2,)
    with pytest.raises(ValueError):
        plot_dist(np.array([0.0, 1, 2]), np.array([5.0, 1, 2, 3, 4]))
    with pytest.raises(ValueError):
        plot_dist(np.zeros((2, 2)), np.zeros(2))
    edges = ak.linspace(0, 1, 4)
    monkeypatch.setattr(ak.core.client, "maxTransferBytes", 1)
    with pytest.raises(ValueError):
        plot_dist(edges, ak.ones(3))


def _doane(x):
    n = x.size
    g1 = stats.skew(x)
    sigma = math.sqrt(6 * (n - 2) / ((n + 1) * (n + 3)))
    return int(1 + math.log2(n) + math.log2(1 + abs(g1) / sigma))


def test_hist_all_bars_are_numpy_histograms():
    rng = np.random.default_rng(2)
    cols = {
        "normal": rng.normal(size=300),
        "skewed": rng.exponential(size=300),
        "ints": rng.integers(-5, 40, 300),
    }
    with_nan = rng.normal(size=300)
    with_nan[::7] = np.nan
    cols["nan"] = with_nan
    df = ak.DataFrame({k: ak.array(v) for k, v in cols.items()})
    fig, axes = hist_all(df)
    assert len(axes) == 4
    for ax, (name, v) in zip(axes, cols.items()):
        v = v[~np.isnan(v)] if v.dtype.kind == "f" else v
        k = _doane(v.astype(float))
        assert doane_bins(ak.array(v)) == k
        want, edges = np.histogram(v, bins=k)
        assert ax.get_title() == name
        np.testing.assert_array_equal([p.get_height() for p in ax.patches], want)
        np.testing.assert_allclose([p.get_x() for p in ax.patches], edges[:-1])
        np.testing.assert_allclose([p.get_width() for p in ax.patches], np.diff(edges))


def test_hist_all_strings_and_subset():
    words = np.array(["b", "a", "c", "a", "a", "b"] * 10)
    df = ak.DataFrame({"w": ak.array(words), "x": ak.arange(60), "y": ak.arange(60)})
    fig, axes = hist_all(df, cols=["w", "x", "y"])
    assert len(axes) == 4 and not axes[3].get_visible()
    codes = np.searchsorted(np.unique(words), words)
    want, _ = np.histogram(codes, bins=_doane(codes.astype(float)))
    np.testing.assert_array_equal([p.get_height() for p in axes[0].patches], want)
    with pytest.raises(KeyError):
        hist_all(df, cols=["nothing"])
