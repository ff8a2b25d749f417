"""Arkouda's ``arkouda.core.client`` without a server.

The Python program is the driver of an Atoll job, so "connecting" starts the job and the
"server's" configuration is the job's.
"""

from __future__ import annotations

import os
import platform
import socket
from typing import Any

from .. import _atoll
from .._session import connect, disconnect, shutdown
from .._version import __version__
from ..memory import get_mem_avail, get_mem_status, get_mem_used

__all__ = [
    "connect",
    "disconnect",
    "shutdown",
    "get_config",
    "get_array_ranks",
    "get_max_array_rank",
    "get_mem_avail",
    "get_mem_status",
    "get_mem_used",
    "get_server_commands",
    "print_server_commands",
    "note_for_server_log",
    "ruok",
    "generate_history",
    "wait_for_async_activity",
    "get_registration_config",
]

# Arkouda's client limit on a transfer to the driver (bytes); Atoll has none, this value is
# reported for scripts that size their work by it.
maxTransferBytes = 2**30
serverConfig: dict[str, Any] | None = None
registrationConfig: dict[str, Any] | None = None
verbose = False
pdarrayIterThresh = 100


def get_array_ranks() -> list[int]:
    """The array ranks supported, all of them without a rebuild.

    A pdarray's rank is metadata over its C-order values (``atoll.numpy._nd``).

    Returns
    -------
    list of int
        The ranks, ascending.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.get_array_ranks()
    [1, 2, 3, 4, 5, 6, 7, 8]
    """
    return list(range(1, 9))


def get_max_array_rank() -> int:
    """The largest array rank supported.

    Returns
    -------
    int
        8.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.get_max_array_rank()
    8
    >>> ak.zeros((2,) * ak.get_max_array_rank()).ndim
    8
    """
    return max(get_array_ranks())


def get_config() -> dict[str, Any]:
    """The job's configuration under Arkouda's keys (starts the job if needed).

    Returns
    -------
    dict
        ``numLocales`` and ``numNodes`` (the locales; each locale is a group of threads or an
        MPI rank), ``numPUs`` and ``maxTaskPar`` (cores of this host), ``physicalMemory``
        (bytes per locale within its budget), ``arkoudaVersion``, ``serverHostname`` and
        ``serverPort`` (this host; no port), ``maxArrayRank``, ``arrayRanks``, ``backend``
        (``'local'`` or ``'mpi'``), and Arkouda's other keys.

    Examples
    --------
    >>> import atoll as ak
    >>> cfg = ak.get_config()
    >>> cfg["numLocales"] == ak.num_locales()
    True
    >>> cfg["maxArrayRank"], cfg["distributionType"]
    (8, 'Block')
    """
    global serverConfig
    nl, backend = _atoll.job_info()
    cores = os.cpu_count() or 1
    mem = _atoll.mem_status()
    serverConfig = {
        "arkoudaVersion": __version__,
        "serverHostname": socket.gethostname(),
        "ServerPort": 0,
        "serverPort": 0,
        "numLocales": nl,
        "numNodes": nl,
        "numPUs": cores,
        "maxTaskPar": cores,
        "physicalMemory": int(mem[0][2]) if mem else 0,
        "distributionType": "Block",
        "LocaleConfigs": [{"id": i, "name": platform.node(), "numPUs": cores} for i in range(nl)],
        "authenticate": False,
        "logLevel": "INFO",
        "maxArrayRank": get_max_array_rank(),
        "arrayRanks": get_array_ranks(),
        "backend": backend,
        "byteorder": "little",
    }
    return serverConfig


def get_registration_config() -> dict[str, Any]:
    """The configuration Arkouda's server was built with: here the supported ranks and dtypes.

    Returns
    -------
    dict
        ``{"parameter_classes": {"array": {"nd": ranks, "dtype": dtype names}}}``.

    Examples
    --------
    >>> from atoll.core.client import get_registration_config
    >>> get_registration_config()["parameter_classes"]["array"]["dtype"]
    ['int64', 'uint64', 'float64', 'bool']
    """
    global registrationConfig
    registrationConfig = {
        "parameter_classes": {"array": {"nd": get_array_ranks(), "dtype": ["int64", "uint64", "float64", "bool"]}}
    }
    return registrationConfig


def get_server_commands() -> dict[str, str]:
    """Arkouda's command table, which has no counterpart: every operation is a native call.

    Returns
    -------
    dict
        Empty.

    Examples
    --------
    >>> from atoll.core.client import get_server_commands
    >>> get_server_commands()
    {}
    """
    return {}


def print_server_commands() -> None:
    """Print that there is no command table (Arkouda prints its server's commands).

    Examples
    --------
    >>> from atoll.core.client import print_server_commands
    >>> print_server_commands()
    Atoll has no server: every operation is a call into the native extension.
    """
    print("Atoll has no server: every operation is a call into the native extension.")


def note_for_server_log(message: str) -> None:
    """Nothing: Arkouda writes a note into its server's log, and Atoll has no server log.

    Parameters
    ----------
    message : str
        The note; not used.

    Examples
    --------
    >>> from atoll.core.client import note_for_server_log
    >>> note_for_server_log("start of phase 2")
    """


def _no_op() -> str:
    """A round trip that does nothing (Arkouda's ``noop`` command): 'noop'."""
    _atoll.job_info()
    return "noop"


def ruok() -> str:
    """``'imok'`` while the job runs (starts it if needed).

    Returns
    -------
    str
        ``'imok'``.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.ruok()
    'imok'
    """
    _atoll.job_info()
    return "imok"


def wait_for_async_activity() -> None:
    """Nothing: every Atoll call returns when its work is done, so there is nothing to wait for.

    Examples
    --------
    >>> from atoll.core.client import wait_for_async_activity
    >>> wait_for_async_activity()
    """


def generate_history(num_commands: int | None = None, command_filter: str | None = None) -> list[str]:
    """The interpreter's history (readline's), as Arkouda's.

    Parameters
    ----------
    num_commands : int, optional
        The number of latest commands to give; all by default.
    command_filter : str, optional
        Give only the commands that contain this text.

    Returns
    -------
    list of str
        The commands, oldest first; empty where the interpreter keeps no history.

    Examples
    --------
    >>> import atoll as ak
    >>> h = ak.generate_history(num_commands=5, command_filter="ak.")
    >>> len(h) <= 5 and all("ak." in c for c in h)
    True
    """
    try:
        import readline

        n = readline.get_current_history_length()
        h = [readline.get_history_item(i + 1) for i in range(n)]
    except (ImportError, AttributeError):
        h = []
    if command_filter:
        h = [c for c in h if c and command_filter in c]
    return h[-num_commands:] if num_commands else h
