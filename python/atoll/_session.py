"""The execution model: the Python program is the driver (locale 0) of an Atoll job.

Embedded (default): the local backend starts lazily on first use, with ``ATOLL_LOCALES``
locales or those of ``init(locales=N)``. Under ``mpiexec`` (``ATOLL_BACKEND=mpi`` or a
launcher's environment) the job starts at import: rank 0 returns and runs the script, the
other ranks serve commands inside ``import atoll`` and exit when the driver ends.
"""

import atexit
import os

from . import _atoll

_LAUNCHER_VARS = ("PMI_RANK", "PMI_SIZE", "PMIX_RANK", "OMPI_COMM_WORLD_SIZE", "MPI_LOCALNRANKS")


def _mpi_requested():
    """Whether the environment asks for the MPI backend: ``ATOLL_BACKEND`` when set (empty
    counts as unset, as in the runtime's ``Config``), else a launcher's variables. The job must
    start at import under MPI, before any binding could ask the runtime's configuration
    without starting a job, so the runtime's rule is applied here to the same variables."""
    b = os.environ.get("ATOLL_BACKEND", "").strip().lower()
    if b:
        return b == "mpi"
    return any(k in os.environ for k in _LAUNCHER_VARS)


def init(locales=None, backend=None):
    """Start (or restart) the job: ``locales`` locales on the local backend, or the MPI
    backend (``backend='mpi'``, under mpiexec). Arrays of an earlier session become invalid."""
    if locales is not None and (not isinstance(locales, int) or isinstance(locales, bool)):
        raise TypeError(f"locales: expected an int, got {type(locales).__name__}")
    _atoll.init(locales, backend)


def shutdown():
    """End the job (Arkouda's ``shutdown``); a later operation starts a new one."""
    _atoll.shutdown()


def connect(*args, **kwargs):
    """Arkouda compatibility: there is no server to connect to; starts the job if needed."""
    _atoll.job_info()


def disconnect():
    """Arkouda compatibility: nothing to disconnect (the job ends with the program)."""


def num_locales():
    """The number of locales of the job (starts it if needed)."""
    return _atoll.job_info()[0]


def backend():
    """The backend's name: 'local' or 'mpi' (starts the job if needed)."""
    return _atoll.job_info()[1]


def _start_at_import():
    if _mpi_requested():
        # Ranks 1..N-1 serve inside this call and leave the process at the driver's end.
        _atoll.init(None, "mpi")


atexit.register(_atoll.shutdown)
