"""Progress on stderr for the operations that can take seconds.

Reads and writes of files, joins, sorts, GroupBy aggregations, gathers to the driver.

Each tracked operation draws one line on stderr: a bar ``label [####------] 3/10 1.2s`` when it
has natural steps (files, datasets, columns), else a spinner ``label | 1.2s``; when it ends the
line closes with ``label: done in 2.3s`` (``failed after`` on an exception). Nothing is drawn:

- unless bars are on: by default when stderr is a terminal or the program runs in a Jupyter
  kernel (``ipykernel`` loaded), never in pipes, logs and captured test output;
  ``ATOLL_PROGRESS=1`` forces them on, ``ATOLL_PROGRESS=0`` off (``configure(enabled=...)``
  overrides both);
- for an operation on fewer than ``ATOLL_PROGRESS_MIN_ROWS`` rows (10**6) when its size is known
  up front;
- before the operation has run ``ATOLL_PROGRESS_DELAY`` seconds (1.0): a short operation, even
  a large one, stays quiet (as tqdm's ``delay``);
- on an MPI rank other than 0 (the launcher's rank variables);
- inside another tracked operation whose line is armed (one line at a time: ``merge`` shows
  ``merge``, not the sorts it runs).

``with Progress("read_hdf", total=len(names)) as bar: ... bar.step()`` tracks a block;
``@tracked("merge", rows=...)`` a function (``step()`` then advances the bar of the innermost
tracked call). The line is redrawn by a small thread (4 times a second) while the operation
runs, which the engine's calls allow by releasing the GIL.
"""

from __future__ import annotations

import functools
import math
import numbers
import os
import sys
import threading
import time
import warnings
from enum import Enum
from types import TracebackType
from typing import Any, Callable, Literal, TypeVar, cast

__all__ = ["Progress", "configure", "enabled", "min_rows", "delay", "step", "tracked", "size_of"]

DEFAULT_MIN_ROWS = 1_000_000
DEFAULT_DELAY = 1.0

# The rank variables of the MPI launchers (MPICH/Hydra, PMIx, Open MPI, MVAPICH).
_RANK_VARS = ("PMI_RANK", "PMIX_RANK", "OMPI_COMM_WORLD_RANK", "MV2_COMM_WORLD_RANK")
_ON = ("1", "true", "yes", "on")
_OFF = ("0", "false", "no", "off")
_SPIN = "|/-\\"
_WIDTH = 20  # the bar's characters
_REDRAW_S = 0.25


class _Unset(Enum):
    """The default of a ``configure`` argument not given (``None`` gives a setting back)."""

    UNSET = "unset"


_UNSET = _Unset.UNSET
_F = TypeVar("_F", bound=Callable[..., Any])
_N = TypeVar("_N", int, float)
# configure()'s settings; None: the environment's.
_settings: dict[str, Any] = {"enabled": None, "min_rows": None, "delay": None}
_warned: set[tuple[str, str]] = set()
_local = threading.local()
_write_lock = threading.Lock()


def _warn_once(var: str, value: str, why: str) -> None:
    if (var, value) not in _warned:
        _warned.add((var, value))
        warnings.warn(f"{var}={value!r}: {why}", RuntimeWarning, stacklevel=3)


def _launcher_rank() -> int:
    """The MPI rank of this process, from the launcher's variables (0 outside MPI)."""
    for k in _RANK_VARS:
        v = os.environ.get(k, "").strip()
        if v:
            try:
                return int(v)
            except ValueError:
                continue
    return 0


# The launcher sets the rank before the process starts: it is read once (``enabled`` runs at
# every tracked call).
_RANK = _launcher_rank()


def enabled() -> bool:
    """Whether progress lines are drawn in this process.

    ``configure(enabled=...)``, else ``ATOLL_PROGRESS`` (``1``/``0``), else whether stderr is a
    terminal or a Jupyter kernel runs the program. Always False on an MPI rank other than 0.

    Returns
    -------
    bool
        Whether they are.

    Examples
    --------
    >>> from atoll import progress
    >>> before = progress.configure(enabled=False)
    >>> progress.enabled()
    False
    >>> _ = progress.configure(**before)
    """
    if _RANK != 0:
        return False
    if _settings["enabled"] is not None:
        return bool(_settings["enabled"])
    v = os.environ.get("ATOLL_PROGRESS", "").strip().lower()
    if v in _ON:
        return True
    if v in _OFF:
        return False
    if v not in ("", "auto"):
        _warn_once("ATOLL_PROGRESS", v, "expected 0, 1 or auto; bars follow the terminal")
    if "ipykernel" in sys.modules:
        return True
    try:
        return bool(sys.stderr.isatty())
    except (AttributeError, ValueError, OSError):
        return False


def _env_number(var: str, default: _N, kind: Callable[[str], _N]) -> _N:
    raw = os.environ.get(var, "").strip()
    if not raw:
        return default
    try:
        v = kind(raw)
    except ValueError:
        v = None
    if v is None or v < 0 or (isinstance(v, float) and not math.isfinite(v)):
        _warn_once(var, raw, f"expected a number >= 0; {default} is used")
        return default
    return v


def min_rows() -> int:
    """The fewest rows of an operation of known size that may draw a line.

    ``configure(min_rows=...)``, else ``ATOLL_PROGRESS_MIN_ROWS``, else 10**6.

    Returns
    -------
    int
        The rows.

    Examples
    --------
    >>> from atoll import progress
    >>> before = progress.configure(min_rows=500)
    >>> progress.min_rows()
    500
    >>> _ = progress.configure(**before)
    """
    if _settings["min_rows"] is not None:
        return int(_settings["min_rows"])
    return _env_number("ATOLL_PROGRESS_MIN_ROWS", DEFAULT_MIN_ROWS, int)


def delay() -> float:
    """The seconds an operation runs before its line appears.

    ``configure(delay=...)``, else ``ATOLL_PROGRESS_DELAY``, else 1.0.

    Returns
    -------
    float
        The seconds.

    Examples
    --------
    >>> from atoll import progress
    >>> before = progress.configure(delay=2)
    >>> progress.delay()
    2.0
    >>> _ = progress.configure(**before)
    """
    if _settings["delay"] is not None:
        return float(_settings["delay"])
    return _env_number("ATOLL_PROGRESS_DELAY", DEFAULT_DELAY, float)


def configure(
    enabled: bool | None | _Unset = _UNSET,
    min_rows: int | None | _Unset = _UNSET,
    delay: float | None | _Unset = _UNSET,
) -> dict[str, Any]:
    """Set the progress settings of this process, over the environment's.

    A setting not given stays; ``None`` gives a setting back to its variable.

    Parameters
    ----------
    enabled : bool or None, optional
        Draw lines (over ``ATOLL_PROGRESS``).
    min_rows : int or None, optional
        The fewest rows of an operation that may draw a line, >= 0 (over
        ``ATOLL_PROGRESS_MIN_ROWS``).
    delay : float or None, optional
        The seconds before a line appears, >= 0 (over ``ATOLL_PROGRESS_DELAY``).

    Returns
    -------
    dict
        The settings before the call, which ``configure(**previous)`` restores.

    Raises
    ------
    TypeError
        A setting of another type.
    ValueError
        A negative or infinite number.

    Examples
    --------
    >>> from atoll import progress
    >>> before = progress.configure(enabled=True, delay=0.5)
    >>> progress.enabled(), progress.delay()
    (True, 0.5)
    >>> progress.configure(delay=-1)
    Traceback (most recent call last):
    ...
    ValueError: delay: expected a finite number of seconds >= 0, got -1
    >>> _ = progress.configure(**before)
    """
    before = dict(_settings)
    new: dict[str, Any] = {}
    if enabled is not _UNSET:
        if enabled is not None and not isinstance(enabled, bool):
            raise TypeError(f"enabled: expected a bool or None, got {type(enabled).__name__}")
        new["enabled"] = enabled
    if min_rows is not _UNSET:
        if min_rows is not None:
            if isinstance(min_rows, bool) or not isinstance(min_rows, numbers.Integral):
                raise TypeError(f"min_rows: expected an int or None, got {type(min_rows).__name__}")
            if min_rows < 0:
                raise ValueError(f"min_rows: expected an int >= 0, got {min_rows}")
            min_rows = int(min_rows)
        new["min_rows"] = min_rows
    if delay is not _UNSET:
        if delay is not None:
            if isinstance(delay, bool) or not isinstance(delay, numbers.Real):
                raise TypeError(f"delay: expected a number of seconds or None, got {type(delay).__name__}")
            if not (delay >= 0 and math.isfinite(delay)):
                raise ValueError(f"delay: expected a finite number of seconds >= 0, got {delay}")
            delay = float(delay)
        new["delay"] = delay
    _settings.update(new)
    return before


def _stack() -> list[Progress]:
    s = getattr(_local, "stack", None)
    if s is None:
        s = _local.stack = []
    return s


def size_of(x: object) -> int | None:
    """The rows of ``x``.

    Parameters
    ----------
    x : object
        An int, an array, a list or tuple of arrays, or a sized object.

    Returns
    -------
    int or None
        An int itself, an array's ``size``, a list's first element's, else ``len(x)``; None
        when it has none.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll import progress
    >>> progress.size_of(7), progress.size_of(ak.arange(5)), progress.size_of([ak.arange(3), ak.arange(9)])
    (7, 5, 3)
    >>> progress.size_of(object()) is None
    True
    """
    if isinstance(x, numbers.Integral) and not isinstance(x, bool):
        return int(x)
    if isinstance(x, (list, tuple)):
        return size_of(x[0]) if x else 0
    n = getattr(x, "size", None)
    if isinstance(n, numbers.Integral) and not isinstance(x, type):
        return int(n)
    try:
        return len(x)  # type: ignore[arg-type]  # any object: those without a length say so
    except TypeError:
        return None


class Progress:
    """The progress line of an operation, as a context manager.

    ``with Progress(label, total=None, rows=None) as bar: ... bar.step()``.

    Parameters
    ----------
    label : str
        The operation's name, at the start of the line.
    total : int, optional
        Its steps: a bar; a spinner when None or 1.
    rows : int, optional
        Its rows: no line under ``min_rows()``; no size limit when None.

    Examples
    --------
    >>> from atoll import progress
    >>> before = progress.configure(enabled=False)
    >>> with progress.Progress("read", total=3) as bar:
    ...     for _ in range(3):
    ...         bar.step()
    >>> bar.done, bar.on
    (3, False)
    >>> _ = progress.configure(**before)
    """

    def __init__(self, label: str, total: int | None = None, rows: int | None = None) -> None:
        self.label = str(label)
        self.total = max(0, int(total)) if total is not None else 0
        self.rows = rows
        self.done = 0
        self.on = False
        self.delay = 0.0
        self._drawn = False
        self._width = 0
        self._frame = 0
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self.t0 = time.monotonic()

    def __enter__(self) -> Progress:
        stack = _stack()
        self.on = not any(p.on for p in stack) and enabled() and (self.rows is None or self.rows >= min_rows())
        stack.append(self)
        self.t0 = time.monotonic()
        if self.on:
            self.delay = delay()
            if self.delay <= 0:
                self._draw()
            self._stop = threading.Event()
            self._thread = threading.Thread(target=self._run, name="atoll-progress", daemon=True)
            self._thread.start()
        return self

    def step(self, k: int = 1) -> None:
        """Advance the bar by ``k`` steps (the line's thread redraws it).

        Parameters
        ----------
        k : int, default 1
            The steps done.

        Examples
        --------
        >>> from atoll import progress
        >>> bar = progress.Progress("write", total=10)
        >>> bar.step(4)
        >>> bar.done
        4
        """
        self.done += k

    def _run(self) -> None:
        if self._stop.wait(self.delay if self.delay > 0 else _REDRAW_S):
            return
        while True:
            self._draw()
            if self._stop.wait(_REDRAW_S):
                return

    def _text(self, end: str | None = None) -> str:
        t = time.monotonic() - self.t0
        if self.total > 1:
            done = min(self.done, self.total)
            n = (done * _WIDTH) // self.total
            bar = f"{self.label} [{'#' * n}{'-' * (_WIDTH - n)}] {done}/{self.total}"
            return f"{bar} {end} {t:.1f}s" if end else f"{bar} {t:.1f}s"
        if end:
            return f"{self.label}: {end} {t:.1f}s"
        self._frame += 1
        return f"{self.label} {_SPIN[self._frame % len(_SPIN)]} {t:.1f}s"

    def _draw(self, end: str | None = None) -> None:
        text = self._text(end)
        with _write_lock:
            pad = " " * max(0, self._width - len(text))
            self._width = len(text)
            try:
                sys.stderr.write("\r" + text + pad + ("\n" if end else ""))
                sys.stderr.flush()
            except (AttributeError, ValueError, OSError):
                return
            self._drawn = True

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> Literal[False]:
        stack = _stack()
        if stack and stack[-1] is self:
            stack.pop()
        elif self in stack:
            stack.remove(self)
        if self.on:
            self._stop.set()
            if self._thread is not None:
                self._thread.join()
            if self._drawn or time.monotonic() - self.t0 >= self.delay:
                if exc_type is None:
                    self.done = max(self.done, self.total)
                    self._draw("done in")
                else:
                    self._draw("interrupted after" if issubclass(exc_type, KeyboardInterrupt) else "failed after")
        return False


def step(k: int = 1) -> None:
    """Advance the bar of the innermost tracked operation of this thread by ``k`` steps.

    Parameters
    ----------
    k : int, default 1
        The steps done.

    Examples
    --------
    >>> from atoll import progress
    >>> with progress.Progress("join", total=2) as bar:
    ...     progress.step(2)
    >>> bar.done
    2
    """
    stack = _stack()
    if stack:
        stack[-1].step(k)


def tracked(
    label: str | Callable[..., str],
    rows: int | Callable[..., int | None] | None = None,
    total: Callable[..., int | None] | None = None,
) -> Callable[[_F], _F]:
    """Make each call of the decorated function run inside ``Progress``.

    A ``rows`` or ``total`` that fails on the arguments counts as unknown (the function then
    raises its own error).

    Parameters
    ----------
    label : str or callable
        The operation's name, or a function of the call's arguments giving it.
    rows : int or callable, optional
        The index of the argument whose size (``size_of``) is the operation's, or a function
        of the call's arguments giving the rows.
    total : callable, optional
        A function of the call's arguments giving the number of steps (the function calls
        ``step()``).

    Returns
    -------
    callable
        The decorator.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll import progress
    >>> @progress.tracked("double", rows=0)
    ... def double(a):
    ...     return a * 2
    >>> double(ak.arange(3))
    array([0 2 4])
    """

    def _of(f: int | Callable[..., Any], args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:  # noqa: ANN401
        try:
            if isinstance(f, int):
                return size_of(args[f])
            return f(*args, **kwargs)
        except Exception:
            return None

    def deco(fn: _F) -> _F:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:  # noqa: ANN401 (the function's own)
            if not _stack() and not enabled():
                return fn(*args, **kwargs)
            name = label if isinstance(label, str) else (_of(label, args, kwargs) or fn.__name__)
            n = None if rows is None else _of(rows, args, kwargs)
            steps = None if total is None else _of(total, args, kwargs)
            with Progress(name, total=steps, rows=n):
                return fn(*args, **kwargs)

        return cast(_F, wrapper)

    return deco
