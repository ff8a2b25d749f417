"""Arkouda's ``arkouda.core.client`` without a server: the Python program is the driver of
an Atoll job, so "connecting" starts the job and the "server's" configuration is the job's."""

import os
import platform
import socket

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
serverConfig = None
registrationConfig = None
verbose = False
pdarrayIterThresh = 100


def get_array_ranks():
    """The array ranks supported, all of them without a rebuild (a pdarray's rank is metadata
    over its C-order values; ``atoll.numpy._nd``)."""
    return list(range(1, 9))


def get_max_array_rank():
    """The largest array rank supported (8)."""
    return max(get_array_ranks())


def get_config():
    """The job's configuration under Arkouda's keys: ``numLocales`` and ``numNodes`` (the
    locales; each locale is a group of threads or an MPI rank), ``numPUs`` and
    ``maxTaskPar`` (cores of this host), ``physicalMemory`` (bytes per locale within its
    budget), ``arkoudaVersion``, ``serverHostname``/``serverPort`` (this host; no port),
    ``maxArrayRank``, ``backend`` (``local`` or ``mpi``). Starts the job if needed."""
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


def get_registration_config():
    """The configuration Arkouda's server was built with: here the supported ranks and dtypes."""
    global registrationConfig
    registrationConfig = {
        "parameter_classes": {"array": {"nd": get_array_ranks(), "dtype": ["int64", "uint64", "float64", "bool"]}}
    }
    return registrationConfig


def get_server_commands():
    """Arkouda's command table has no counterpart: every operation is a native call."""
    return {}


def print_server_commands():
    print("Atoll has no server: every operation is a call into the native extension.")


def note_for_server_log(message):
    """Arkouda writes a note into the server's log; Atoll has no server log: nothing to do."""


def _no_op():
    """A round trip that does nothing (Arkouda's ``noop`` command): 'noop'."""
    _atoll.job_info()
    return "noop"


def ruok():
    """'imok' while the job runs (starts it if needed)."""
    _atoll.job_info()
    return "imok"


def wait_for_async_activity():
    """Every Atoll call returns when its work is done: nothing to wait for."""


def generate_history(num_commands=None, command_filter=None):
    """The interpreter's history (IPython's or readline's), as Arkouda's."""
    try:
        import readline

        n = readline.get_current_history_length()
        h = [readline.get_history_item(i + 1) for i in range(n)]
    except (ImportError, AttributeError):
        h = []
    if command_filter:
        h = [c for c in h if c and command_filter in c]
    return h[-num_commands:] if num_commands else h
