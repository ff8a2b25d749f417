"""Arkouda's ``arkouda.core``: the client functions, here about the in-process job."""

from . import client, infoclass
from .client import get_config, get_array_ranks, get_max_array_rank
from .infoclass import list_symbol_table

__all__ = ["client", "get_config", "get_array_ranks", "get_max_array_rank", "infoclass", "list_symbol_table"]
