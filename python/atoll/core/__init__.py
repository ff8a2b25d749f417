"""Arkouda's ``arkouda.core``: the client functions, here about the in-process job."""

from . import client
from .client import get_config, get_array_ranks, get_max_array_rank

__all__ = ["client", "get_config", "get_array_ranks", "get_max_array_rank"]
