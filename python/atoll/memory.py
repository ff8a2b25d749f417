"""Memory figures of the locales (Arkouda's get_mem_used / get_mem_avail / get_mem_status)."""

from . import _atoll


def get_mem_used(unit="b", as_percent=False):
    """Bytes held by the job's arrays on all locales together."""
    st = _atoll.mem_status()
    used = sum(u for u, _, _ in st)
    if as_percent:
        return int(100 * used / max(1, sum(l for _, _, l in st)))
    return used // _unit(unit)


def get_mem_avail(unit="b", as_percent=False):
    """Bytes still available within the locales' budgets, all locales together."""
    st = _atoll.mem_status()
    avail = sum(a for _, a, _ in st)
    if as_percent:
        return int(100 * avail / max(1, sum(l for _, _, l in st)))
    return avail // _unit(unit)


def get_mem_status():
    """One dict per locale: ``locale_id``, ``mem_used``, ``mem_avail``, ``total_mem``."""
    return [
        {"locale_id": i, "mem_used": u, "mem_avail": a, "total_mem": l}
        for i, (u, a, l) in enumerate(_atoll.mem_status())
    ]


def _unit(u):
    units = {"b": 1, "kb": 1 << 10, "mb": 1 << 20, "gb": 1 << 30, "tb": 1 << 40}
    try:
        return units[u.lower()]
    except (KeyError, AttributeError):
        raise ValueError(f"unit: expected one of {sorted(units)}, got {u!r}") from None
