"""Memory figures of the locales (Arkouda's get_mem_used / get_mem_avail / get_mem_status)."""

from __future__ import annotations

from . import _atoll

__all__ = ["get_mem_avail", "get_mem_status", "get_mem_used"]


def get_mem_used(unit: str = "b", as_percent: bool = False) -> int:
    """Bytes held by the job's arrays on all locales together.

    Parameters
    ----------
    unit : {'b', 'kb', 'mb', 'gb', 'tb'}, default 'b'
        The unit of the result (powers of 1024), any case.
    as_percent : bool, default False
        Give the percentage of the locales' budgets in use instead (``unit`` then unused).

    Returns
    -------
    int
        The amount, rounded down.

    Raises
    ------
    ValueError
        ``unit`` is not one of the units.

    Examples
    --------
    >>> import atoll as ak
    >>> before = ak.get_mem_used()
    >>> a = ak.zeros(10**6)
    >>> ak.get_mem_used() - before >= 8 * 10**6
    True
    >>> 0 <= ak.get_mem_used(as_percent=True) <= 100
    True
    """
    st = _atoll.mem_status()
    used = sum(u for u, _, _ in st)
    if as_percent:
        return int(100 * used / max(1, sum(l for _, _, l in st)))
    return used // _unit(unit)


def get_mem_avail(unit: str = "b", as_percent: bool = False) -> int:
    """Bytes still available within the locales' budgets, all locales together.

    Parameters
    ----------
    unit : {'b', 'kb', 'mb', 'gb', 'tb'}, default 'b'
        The unit of the result (powers of 1024), any case.
    as_percent : bool, default False
        Give the percentage of the locales' budgets still available instead.

    Returns
    -------
    int
        The amount, rounded down.

    Raises
    ------
    ValueError
        ``unit`` is not one of the units.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.get_mem_avail("kb") == ak.get_mem_avail() // 1024
    True
    >>> ak.get_mem_avail(unit="parsecs")
    Traceback (most recent call last):
    ...
    ValueError: unit: expected one of ['b', 'gb', 'kb', 'mb', 'tb'], got 'parsecs'
    """
    st = _atoll.mem_status()
    avail = sum(a for _, a, _ in st)
    if as_percent:
        return int(100 * avail / max(1, sum(l for _, _, l in st)))
    return avail // _unit(unit)


def get_mem_status() -> list[dict[str, int]]:
    """The memory figures of each locale, in bytes.

    Returns
    -------
    list of dict
        One dict per locale, in locale order: ``locale_id``, ``mem_used`` (held by arrays),
        ``mem_avail`` (left within the budget) and ``total_mem`` (the budget).

    Examples
    --------
    >>> import atoll as ak
    >>> st = ak.get_mem_status()
    >>> len(st) == ak.num_locales()
    True
    >>> sorted(st[0])
    ['locale_id', 'mem_avail', 'mem_used', 'total_mem']
    """
    return [
        {"locale_id": i, "mem_used": u, "mem_avail": a, "total_mem": l}
        for i, (u, a, l) in enumerate(_atoll.mem_status())
    ]


def _unit(u: str) -> int:
    units = {"b": 1, "kb": 1 << 10, "mb": 1 << 20, "gb": 1 << 30, "tb": 1 << 40}
    try:
        return units[u.lower()]
    except (KeyError, AttributeError):
        raise ValueError(f"unit: expected one of {sorted(units)}, got {u!r}") from None
