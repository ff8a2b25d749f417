"""The execution model: the Python program is the driver (locale 0) of an Atoll job.

Embedded (default): the local backend starts lazily on first use, with ``ATOLL_LOCALES``
locales or those of ``init(locales=N)``. Under ``mpiexec`` (``ATOLL_BACKEND=mpi`` or a
launcher's environment) the job starts at import: rank 0 returns and runs the script, the
other ranks serve commands inside ``import atoll`` and exit when the driver ends.
"""

from __future__ import annotations

import atexit
import os

from . import _atoll

_LAUNCHER_VARS = ("PMI_RANK", "PMI_SIZE", "PMIX_RANK", "OMPI_COMM_WORLD_SIZE", "MPI_LOCALNRANKS")


def _mpi_requested() -> bool:
    """Whether the environment asks for the MPI backend.

    ``ATOLL_BACKEND`` when set (empty counts as unset, as in the runtime's ``Config``), else a
    launcher's variables. The job must start at import under MPI, before any binding could ask
    the runtime's configuration without starting a job, so the runtime's rule is applied here
    to the same variables.
    """
    b = os.environ.get("ATOLL_BACKEND", "").strip().lower()
    if b:
        return b == "mpi"
    return any(k in os.environ for k in _LAUNCHER_VARS)


def init(locales: int | None = None, backend: str | None = None) -> None:
    """Start (or restart) the job.

    Arrays of an earlier session become invalid.

    Parameters
    ----------
    locales : int, optional
        The number of locales of the local backend; by default ``ATOLL_LOCALES``, else the
        runtime's default.
    backend : {'local', 'mpi'}, optional
        The backend; ``'mpi'`` under mpiexec. By default the environment's
        (``ATOLL_BACKEND``, or a launcher's variables).

    Raises
    ------
    TypeError
        ``locales`` is not an int.

    Examples
    --------
    >>> import atoll as ak
    >>> n = ak.num_locales()
    >>> ak.init(locales=n)
    >>> ak.num_locales() == n
    True
    >>> ak.init(locales="two")
    Traceback (most recent call last):
    ...
    TypeError: locales: expected an int, got str
    """
    if locales is not None and (not isinstance(locales, int) or isinstance(locales, bool)):
        raise TypeError(f"locales: expected an int, got {type(locales).__name__}")
    _atoll.init(locales, backend)


def shutdown() -> None:
    """End the job (Arkouda's ``shutdown``); a later operation starts a new one.

    Examples
    --------
    >>> import atoll as ak
    >>> import numpy as np
    >>> ak.shutdown()
    >>> ak.arange(3).sum()
    np.int64(3)
    """
    _atoll.shutdown()


def connect(*args: object, **kwargs: object) -> None:
    """Start the job if needed (Arkouda's ``connect``: there is no server to connect to).

    Parameters
    ----------
    *args, **kwargs : object
        Arkouda's server, port and connection options; not used.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.connect("localhost", 5555)
    >>> ak.ruok()
    'imok'
    """
    _atoll.job_info()


def disconnect() -> None:
    """Nothing (Arkouda's ``disconnect``): the job ends with the program or ``shutdown``.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.disconnect()
    """


def num_locales() -> int:
    """The number of locales of the job (starts it if needed).

    Returns
    -------
    int
        The locales: groups of threads of this process, or MPI ranks.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.num_locales() == ak.get_config()["numLocales"]
    True
    """
    return _atoll.job_info()[0]


def backend() -> str:
    """The backend's name (starts the job if needed).

    Returns
    -------
    str
        ``'local'`` (locales in this process) or ``'mpi'`` (under mpiexec).

    Examples
    --------
    >>> import atoll as ak
    >>> ak.backend() in ("local", "mpi")
    True
    """
    return _atoll.job_info()[1]


def _start_at_import() -> None:
    if _mpi_requested():
        # Ranks 1..N-1 serve inside this call and leave the process at the driver's end.
        _atoll.init(None, "mpi")


atexit.register(_atoll.shutdown)
