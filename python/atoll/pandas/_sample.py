"""Random samples per group (``GroupBy.sample``, ``DataFrameGroupBy.sample``), on the
distributed sorts and gathers: without replacement, each row draws a random key (an
exponential race ``-log(u) / weight`` when weighted: Efraimidis-Spirakis) and each group
keeps its smallest keys; with replacement, each draw picks a row of its group uniformly, or by
inverse transform over the group's normalized cumulative weights (one ``searchsorted``)."""

import builtins

import numpy as np

from ..numpy.dtypes import float64, int64
from ..numpy.numeric import floor, log, round as _round, where
from ..numpy.pdarrayclass import any as _any, cumsum, pdarray, sum as _sum
from ..numpy.pdarraycreation import array, full, uniform, zeros
from ..numpy.segarray import gen_ranges, segment_ids
from ..numpy.sorting import coargsort, searchsorted, sort


def uniform_draws(random_state, size):
    """``size`` draws of U(0, 1) from ``random_state``: None (fresh entropy), an int seed, or
    a generator with NumPy's ``uniform(low, high, size)`` that returns a pdarray."""

    if random_state is None:
        return uniform(size)
    if isinstance(random_state, (builtins.int, np.integer)) and not isinstance(random_state, builtins.bool):
        return uniform(size, seed=builtins.int(random_state))
    if hasattr(random_state, "uniform"):
        u = random_state.uniform(0.0, 1.0, size=size)
        if not isinstance(u, pdarray):
            u = array(np.asarray(u, dtype=np.float64))
        return u
    raise TypeError(f"random_state: expected None, an int or a generator, got {type(random_state).__name__}")


def group_sample(g, n, frac, replace, weights, random_state, permute_samples):
    """The row indices of a sample of each group of the GroupBy ``g``."""

    keys, cnt = g.size()
    ng = g.ngroups
    if n is not None:
        if not isinstance(n, (builtins.int, np.integer)) or isinstance(n, builtins.bool):
            raise TypeError("n must be an int scalar.")
        num = full(ng, builtins.int(n), int64)
    else:
        if not isinstance(frac, (builtins.float, np.floating, builtins.int, np.integer)):
            raise TypeError("frac must be a float scalar.")

        num = _round(cnt.astype(float64) * builtins.float(frac)).astype(int64)._materialize()
    if ng and not replace and builtins.bool(_any(num > cnt)):
        raise ValueError("Cannot take a larger sample than population when replace is False")
    if ng and builtins.bool(_any(num <= 0)):
        raise ValueError("Cannot take a negative number of samples")
    w = None
    if weights is not None:
        if not isinstance(weights, pdarray):
            raise TypeError("weights must be a pdarray")
        if weights.size != g._nrows:
            raise ValueError("Weights and values to be sampled must be of same length")
        if weights.size and builtins.bool(_any(weights < 0)):
            raise ValueError("Weights may not include negative values")
        w = g._sorted(weights.astype(float64))._materialize()
        _, wsum = g.sum(weights.astype(float64))
        if ng and builtins.bool(_any(wsum == 0)):
            raise ValueError("All segments must have at least one value of non-zero weight")
    perm, segs = g.permutation, g.segments
    if ng == 0:
        return zeros(0, int64)
    if not replace:
        u = uniform_draws(random_state, g.length)
        gid = segment_ids(segs, cnt, g.length)
        if w is None:
            key = u
        else:
            key = where(w > 0, -log(u) / where(w > 0, w, 1.0), np.inf)._materialize()
        order = coargsort([gid, key])
        _, pos = gen_ranges(segs, num)
        idx = perm[order[pos]]
    else:
        total = builtins.int(_sum(num))
        oseg = (cumsum(num) - num)._materialize()
        ogid = segment_ids(oseg, num, total)
        u = uniform_draws(random_state, total)
        c = cnt[ogid]
        start = segs[ogid]
        if w is None:
            r = floor(u * c.astype(float64)).astype(int64)
            r = where(r >= c, c - 1, r)
            idx = perm[start + r]
        else:
            gid = segment_ids(segs, cnt, g.length)
            csum = cumsum(w)._materialize()
            base = (csum[segs] - w[segs])._materialize()
            _, tot = g.sum(weights.astype(float64))
            cw = (csum - base[gid]) / tot[gid] + gid.astype(float64)
            t = u + ogid.astype(float64)
            pos = searchsorted(cw._materialize(), t._materialize(), side="right")
            last = start + c - 1
            pos = where(pos > last, last, where(pos < start, start, pos))
            idx = perm[pos]
    idx = idx._materialize()
    return idx if permute_samples else sort(idx)
