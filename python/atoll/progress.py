"""Progress on stderr for the operations that can take seconds: reads and writes of files,
joins, sorts, GroupBy aggregations, gathers to the driver.

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

import functools
import math
import numbers
import os
import sys
import threading
import time
import warnings

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

_UNSET = object()
_settings = {"enabled": None, "min_rows": None, "delay": None}  # configure()'s; None: the environment's
_warned = set()
_local = threading.local()
_write_lock = threading.Lock()


def _warn_once(var, value, why):
    if (var, value) not in _warned:
        _warned.add((var, value))
        warnings.warn(f"{var}={value!r}: {why}", RuntimeWarning, stacklevel=3)


def _launcher_rank():
    """This process's MPI rank from the launcher's variables (0 outside MPI)."""
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


def enabled():
    """Whether progress lines are drawn in this process: ``configure(enabled=...)``, else
    ``ATOLL_PROGRESS`` (``1``/``0``), else whether stderr is a terminal or a Jupyter kernel
    runs the program. Always False on an MPI rank other than 0."""
    if _RANK != 0:
        return False
    if _settings["enabled"] is not None:
        return _settings["enabled"]
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


def _env_number(var, default, kind):
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


def min_rows():
    """The fewest rows of an operation of known size that may draw a line."""
    if _settings["min_rows"] is not None:
        return _settings["min_rows"]
    return _env_number("ATOLL_PROGRESS_MIN_ROWS", DEFAULT_MIN_ROWS, int)


def delay():
    """The seconds an operation runs before its line appears."""
    if _settings["delay"] is not None:
        return _settings["delay"]
    return _env_number("ATOLL_PROGRESS_DELAY", DEFAULT_DELAY, float)


def configure(enabled=_UNSET, min_rows=_UNSET, delay=_UNSET):
    """Sets the progress settings of this process, over the environment's: ``enabled`` (a
    bool), ``min_rows`` (an int >= 0), ``delay`` (seconds >= 0); ``None`` gives a setting back
    to its variable. Returns the settings before the call, as a dict that
    ``configure(**previous)`` restores."""
    before = dict(_settings)
    new = {}
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


def _stack():
    s = getattr(_local, "stack", None)
    if s is None:
        s = _local.stack = []
    return s


def size_of(x):
    """The rows of ``x``: an int itself, an array's ``size``, a list's first element's, else
    ``len(x)``; None when it has none."""
    if isinstance(x, numbers.Integral) and not isinstance(x, bool):
        return int(x)
    if isinstance(x, (list, tuple)):
        return size_of(x[0]) if x else 0
    n = getattr(x, "size", None)
    if isinstance(n, numbers.Integral) and not isinstance(x, type):
        return int(n)
    try:
        return len(x)
    except TypeError:
        return None


class Progress:
    """``with Progress(label, total=None, rows=None) as bar: ... bar.step()``: the line of an
    operation of ``total`` steps (a spinner when None or 1) on ``rows`` rows (no size limit
    when None)."""

    def __init__(self, label, total=None, rows=None):
        self.label = str(label)
        self.total = max(0, int(total)) if total is not None else 0
        self.rows = rows
        self.done = 0
        self.on = False
        self._drawn = False
        self._width = 0
        self._frame = 0
        self._thread = None
        self._stop = None
        self.t0 = time.monotonic()

    def __enter__(self):
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

    def step(self, k=1):
        """Advances the bar by ``k`` steps (it is redrawn by the line's thread)."""
        self.done += k

    def _run(self):
        if self._stop.wait(self.delay if self.delay > 0 else _REDRAW_S):
            return
        while True:
            self._draw()
            if self._stop.wait(_REDRAW_S):
                return

    def _text(self, end=None):
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

    def _draw(self, end=None):
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

    def __exit__(self, exc_type, exc, tb):
        stack = _stack()
        if stack and stack[-1] is self:
            stack.pop()
        elif self in stack:
            stack.remove(self)
        if self.on:
            self._stop.set()
            self._thread.join()
            if self._drawn or time.monotonic() - self.t0 >= self.delay:
                if exc_type is None:
                    self.done = max(self.done, self.total)
                    self._draw("done in")
                else:
                    self._draw("interrupted after" if issubclass(exc_type, KeyboardInterrupt) else "failed after")
        return False


def step(k=1):
    """Advances the bar of the innermost tracked operation of this thread by ``k`` steps."""
    stack = _stack()
    if stack:
        stack[-1].step(k)


def tracked(label, rows=None, total=None):
    """Decorator: each call of the function runs inside ``Progress``. ``label``: a str, or a
    function of the call's arguments giving it; ``rows``: the index of the argument whose size
    (``size_of``) is the operation's, or a function of the call's arguments giving the rows;
    ``total``: a function of the call's arguments giving the number of steps (the function
    calls ``step()``). A ``rows`` or ``total`` that fails on the arguments counts as unknown
    (the function then raises its own error)."""

    def _of(f, args, kwargs):
        try:
            if isinstance(f, int):
                return size_of(args[f])
            return f(*args, **kwargs)
        except Exception:
            return None

    def deco(fn):
        @functools.wraps(fn)
        def wrapper(*args, **kwargs):
            if not _stack() and not enabled():
                return fn(*args, **kwargs)
            name = label if isinstance(label, str) else (_of(label, args, kwargs) or fn.__name__)
            n = None if rows is None else _of(rows, args, kwargs)
            steps = None if total is None else _of(total, args, kwargs)
            with Progress(name, total=steps, rows=n):
                return fn(*args, **kwargs)

        return wrapper

    return deco
