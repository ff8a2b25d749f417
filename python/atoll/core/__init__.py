"""Arkouda's ``arkouda.core``: the client functions, here about the in-process job."""

# This package's modules sit in different layers of the package (``client`` at the bottom,
# ``infoclass`` above the arrays, ``registry`` above the frames), and this ``__init__`` runs
# whenever one of them is first imported: it imports none of them. ``atoll.core._namespace``
# fills the namespace; the root ``atoll/__init__.py`` runs it.
__all__ = [
    "client",
    "get_config",
    "get_array_ranks",
    "get_max_array_rank",
    "infoclass",
    "logger",
    "AllSymbols",
    "RegisteredSymbols",
    "information",
    "list_registry",
    "list_symbol_table",
    "pretty_print_information",
    "LogLevel",
    "disable_verbose",
    "enable_verbose",
    "write_log",
]
