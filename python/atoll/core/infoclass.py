"""Arkouda's ``arkouda.core.infoclass``: the "symbol table" of a job without a server is the
set of its live arrays, the pdarrays and Strings that Python objects still hold."""

import gc


def list_symbol_table():
    """The names of the live arrays (pdarrays and Strings, those inside Categoricals,
    SegArrays and DataFrames included), one per array object: ``id_`` and its identity in
    hexadecimal. An array that nothing references any more is gone from the list once
    Python has freed it (at once without cycles, after ``gc.collect()`` otherwise)."""
    from ..numpy.pdarrayclass import pdarray
    from ..numpy.strings import Strings

    return [f"id_{id(o):x}" for o in gc.get_objects() if isinstance(o, (pdarray, Strings))]


__all__ = ["list_symbol_table"]
