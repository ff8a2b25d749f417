"""A progress bar on stderr for long IO, drawn only when stderr is a terminal (quiet in
scripts, logs and tests). ``ATOLL_PROGRESS=0`` turns it off, ``=1`` forces it on."""

import os
import sys
import time


def _enabled():
    v = os.environ.get("ATOLL_PROGRESS", "").strip()
    if v in ("0", "false", "no"):
        return False
    if v in ("1", "true", "yes"):
        return True
    try:
        return sys.stderr.isatty()
    except (AttributeError, ValueError):
        return False


class Progress:
    """``with Progress("to_hdf", n) as bar: ... bar.step()``: one line on stderr, redrawn at
    each step (at most 10 times a second), erased at the end."""

    def __init__(self, label, total):
        self.label, self.total, self.done = label, max(0, int(total)), 0
        self.on = _enabled() and self.total > 1
        self.t0 = self.last = time.monotonic()

    def __enter__(self):
        self._draw()
        return self

    def step(self, k=1):
        self.done += k
        now = time.monotonic()
        if now - self.last >= 0.1 or self.done >= self.total:
            self.last = now
            self._draw()

    def _draw(self):
        if not self.on:
            return
        width = 30
        frac = self.done / self.total if self.total else 1.0
        bar = "#" * int(frac * width) + "-" * (width - int(frac * width))
        sys.stderr.write(f"\r{self.label} [{bar}] {self.done}/{self.total} {time.monotonic() - self.t0:.1f}s")
        sys.stderr.flush()

    def __exit__(self, *exc):
        if self.on:
            sys.stderr.write("\r" + " " * 79 + "\r")
            sys.stderr.flush()
        return False
