"""Random samples per group (``GroupBy.sample``, ``DataFrameGroupBy.sample``).

They run on the distributed sorts and gathers: without replacement, each row draws a random
key (an exponential race ``-log(u) / weight`` when weighted: Efraimidis-Spirakis) and each
group keeps its smallest keys; with replacement, each draw picks a row of its group
uniformly, or by inverse transform over the group's normalized cumulative weights (one
``searchsorted``).
"""

from __future__ import annotations

import builtins
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from ..numpy.dtypes import float64, int64
from ..numpy.numeric import floor, log, round as _round, where
from ..numpy.pdarrayclass import any as _any, cumsum, pdarray, sum as _sum
from ..numpy.pdarraycreation import array, full, uniform, zeros
from ..numpy.segarray import gen_ranges, segment_ids
from ..numpy.sorting import coargsort, searchsorted, sort

if TYPE_CHECKING:
    from .groupbyclass import GroupBy


def uniform_draws(random_state: Any, size: int) -> pdarray:  # noqa: ANN401 (None, a seed or a generator)
    """``size`` draws of U(0, 1) from ``random_state``.

    Parameters
    ----------
    random_state : None, int or generator
        None (fresh entropy), an int seed, or a generator with NumPy's
        ``uniform(low, high, size)`` (giving a pdarray or an array-like).
    size : int
        The number of draws.

    Returns
    -------
    pdarray
        float64 draws in [0, 1).

    Raises
    ------
    TypeError
        ``random_state`` is of another kind.

    Examples
    --------
    >>> from atoll.pandas._sample import uniform_draws
    >>> u = uniform_draws(7, 4)
    >>> u.tolist() == uniform_draws(7, 4).tolist(), bool(((u >= 0) & (u < 1)).all())
    (True, True)
    """
    if random_state is None:
        return uniform(size)
    if isinstance(random_state, (builtins.int, np.integer)) and not isinstance(random_state, builtins.bool):
        return uniform(size, seed=builtins.int(random_state))
    if hasattr(random_state, "uniform"):
        drawn = random_state.uniform(0.0, 1.0, size=size)
        u: pdarray = drawn if isinstance(drawn, pdarray) else array(np.asarray(drawn, dtype=np.float64))
        return u
    raise TypeError(f"random_state: expected None, an int or a generator, got {type(random_state).__name__}")


def group_sample(
    g: GroupBy,
    n: int | None,
    frac: float | None,
    replace: bool,
    weights: pdarray | None,
    random_state: Any,  # noqa: ANN401 (None, a seed or a generator)
    permute_samples: bool,
) -> pdarray:
    """The row indices of a sample of each group of the GroupBy ``g``.

    Parameters
    ----------
    g : GroupBy
        The groups.
    n : int, optional
        The rows to draw from each group (else ``frac`` of each group's size, rounded).
    frac : float, optional
        The fraction of each group to draw when ``n`` is None.
    replace : bool
        Draw with replacement.
    weights : pdarray, optional
        Non-negative weights of the rows (in the GroupBy's row order), each group with a
        non-zero one.
    random_state : None, int or generator
        As ``uniform_draws`` takes it.
    permute_samples : bool
        Give the indices in the order drawn (grouped), else sorted.

    Returns
    -------
    pdarray
        int64 row indices.

    Raises
    ------
    TypeError
        ``n`` is not an int, ``frac`` not a number, or ``weights`` not a pdarray.
    ValueError
        A sample larger than its group without replacement, a sample of no rows, or bad
        weights (wrong length, negative, or all zero in a group).

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.pandas._sample import group_sample
    >>> g = ak.GroupBy(ak.array([0, 0, 1, 1, 1]))
    >>> idx = group_sample(g, 2, None, False, None, 1, False)
    >>> ak.array([0, 0, 1, 1, 1])[idx].tolist()
    [0, 0, 1, 1]
    """
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
            _, tot = g.sum(cast(pdarray, weights).astype(float64))
            cw = (csum - base[gid]) / tot[gid] + gid.astype(float64)
            t = u + ogid.astype(float64)
            pos = searchsorted(cw._materialize(), t._materialize(), side="right")
            last = start + c - 1
            pos = where(pos > last, last, where(pos < start, start, pos))
            idx = perm[pos]
    out: pdarray = idx._materialize()
    return out if permute_samples else sort(out)
