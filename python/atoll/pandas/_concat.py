"""One concatenation for every array kind (Arkouda's ``generic_concat``, and
``ak.concatenate`` of Strings, Categoricals and SegArrays)."""

from ..numpy.pdarrayclass import pdarray
from ..numpy.strings import Strings
from ..numpy.strings import concatenate as sconcat
from .categorical import Categorical


def generic_concat(items, ordered=True):
    """The arrays of ``items`` (all of one kind: pdarrays, Strings, Categoricals or
    SegArrays) one after the other. TypeError for mixed kinds."""
    from ..numpy.segarray import SegArray

    items = list(items)
    if not items:
        raise ValueError("concatenate: need at least one array")
    kinds = {_kind(x) for x in items}
    if len(kinds) != 1:
        raise TypeError(f"concatenate: arrays of different kinds: {sorted(kinds)}")
    kind = kinds.pop()
    if kind == "pdarray":
        from ..numpy.pdarraymanipulation import concatenate

        return concatenate(items)
    if kind == "Strings":
        return sconcat(items)
    if kind == "Categorical":
        return items[0].concatenate(items[1:], ordered=ordered)
    if kind == "SegArray":
        return SegArray.concat(items, ordered=True)
    if kind == "bigint":
        return items[0].__class__.concatenate(items)  # part 1's bigint arrays
    raise TypeError(f"concatenate: unsupported type {kind}")


def _kind(x):
    from ..numpy.segarray import SegArray

    if isinstance(x, pdarray):
        return "pdarray"
    if isinstance(x, Strings):
        return "Strings"
    if isinstance(x, Categorical):
        return "Categorical"
    if isinstance(x, SegArray):
        return "SegArray"
    if hasattr(x, "_is_bigint"):
        return "bigint"
    return type(x).__name__
