# ruff: noqa: F401, F403  (a namespace of re-exported names)
"""The names of ``atoll.core`` (Arkouda's ``arkouda.core``), set on the package by the root.

The root ``atoll/__init__.py`` runs this module: the package's ``__init__`` imports none of its
modules (they sit in different layers of the package).
"""

from .. import core as _package
from . import client, infoclass, logger
from .client import get_array_ranks, get_config, get_max_array_rank
from .infoclass import (
    AllSymbols,
    RegisteredSymbols,
    information,
    list_registry,
    list_symbol_table,
    pretty_print_information,
)
from .logger import LogLevel, disable_verbose, enable_verbose, write_log

vars(_package).update((k, v) for k, v in list(globals().items()) if not k.startswith("_"))
