"""Floating-point error handling for pdarray arithmetic: ``seterr``, ``geterr``, ``errstate``,
``seterrcall`` and ``geterrcall``, with NumPy's names and modes and Arkouda's defaults.

Each category (``divide``, ``over``, ``under``, ``invalid``) has a mode:

- ``"ignore"``: nothing happens (the default for every category, as in Arkouda);
- ``"warn"``: a ``RuntimeWarning`` with NumPy's message ("divide by zero encountered in divide");
- ``"raise"``: a ``FloatingPointError`` with that message;
- ``"call"``: the function set by :func:`seterrcall` is called as ``func(kind, message)``
  (Arkouda's signature);
- ``"print"``: ``"kind: message"`` is written to standard output;
- ``"log"``: ``"kind: message"`` is logged at level ERROR on the ``atoll.err`` logger, or
  written to the object set by :func:`seterrcall` when it has a ``write`` method (NumPy's
  log objects).

Elementwise operators and functions on pdarrays report their errors through :func:`check`
after they compute: ``divide`` when a finite nonzero value is divided by zero (also integer
``//`` and ``%`` by zero, ``log(0)``, ``0.0 ** -1``), ``over`` when a finite input gives an
infinite result otherwise, ``invalid`` when a result is NaN where no input is (``0/0``,
``sqrt(-1)``, ``inf - inf``). The check runs only when the category's mode is not
``"ignore"``, so the default costs nothing. Underflow is not detected: its mode is kept, and
setting it warns that it has no effect.

>>> import atoll as ak
>>> ak.geterr()
{'divide': 'ignore', 'over': 'ignore', 'under': 'ignore', 'invalid': 'ignore'}
>>> with ak.errstate(divide="raise"):
...     try:
...         ak.array([1.0, 2.0]) / 0
...     except FloatingPointError as e:
...         print(e)
divide by zero encountered in divide
>>> seen = []
>>> with ak.errstate(invalid="call", call=lambda kind, msg: seen.append((kind, msg))):
...     _ = ak.sqrt(ak.array([-1.0, 4.0]))
>>> seen
[('invalid', 'invalid value encountered in sqrt')]
>>> ak.geterr()["invalid"]
'ignore'
"""

import contextlib
import logging
import math
import sys
import warnings

__all__ = ["geterr", "seterr", "geterrcall", "seterrcall", "errstate", "handle", "check"]

KINDS = ("divide", "over", "under", "invalid")
MODES = ("ignore", "warn", "raise", "call", "print", "log")
_DEFAULTS = {k: "ignore" for k in KINDS}

_state = dict(_DEFAULTS)
_errcall = [None]
# True when some category's mode is not "ignore": the one test that elementwise code pays.
_active = [False]
# Set while :func:`check` computes its masks, whose own operators must not be checked.
_checking = [False]

_logger = logging.getLogger("atoll.err")


def _set(modes):
    _state.update(modes)
    _active[0] = any(v != "ignore" for v in _state.values())


def geterr():
    """The current modes, a dict of ``divide``, ``over``, ``under`` and ``invalid``.

    >>> import atoll as ak
    >>> sorted(ak.geterr())
    ['divide', 'invalid', 'over', 'under']
    """
    return dict(_state)


def seterr(all=None, divide=None, over=None, under=None, invalid=None, **unknown):  # noqa: A002  (NumPy's name)
    """Sets the mode of each category given (``all`` sets the four, the others override it;
    ``None`` leaves a category as it is) and returns the previous modes, as ``numpy.seterr``.

    An unknown category or mode is a ``ValueError`` (Arkouda's error). Naming ``under`` with a
    new mode warns (``UserWarning``) that underflow is not detected.

    >>> import atoll as ak
    >>> old = ak.seterr(divide="warn")
    >>> old["divide"], ak.geterr()["divide"]
    ('ignore', 'warn')
    >>> _ = ak.seterr(**old)
    """
    for key in unknown:
        raise ValueError(f"Unknown error type: {key!r}")
    new = {}
    if all is not None:
        new = {k: all for k in KINDS}
    for key, val in (("divide", divide), ("over", over), ("under", under), ("invalid", invalid)):
        if val is not None:
            new[key] = val
    for key, val in new.items():
        if val not in MODES:
            raise ValueError(f"Invalid setting {val!r} for {key!r}: expected one of {', '.join(MODES)}")
    old = geterr()
    if under is not None and under != _state["under"]:
        warnings.warn(
            "under error type is not implemented yet and therefore will have no effect.", UserWarning, stacklevel=2
        )
    _set(new)
    return old


def geterrcall():
    """The function (or log object) used by the ``"call"`` (``"log"``) mode, or None."""
    return _errcall[0]


def seterrcall(func):
    """Sets the function called as ``func(kind, message)`` in ``"call"`` mode (or an object with
    a ``write`` method, written to in ``"log"`` mode) and returns the previous one; ``None``
    clears it. Anything else is a ``TypeError``."""
    if func is not None and not callable(func) and not callable(getattr(func, "write", None)):
        raise TypeError("seterrcall expects a callable, an object with a write method, or None")
    old = _errcall[0]
    _errcall[0] = func
    return old


class errstate(contextlib.ContextDecorator):
    """Sets modes (and the ``call`` function) for the duration of a ``with`` block or of a
    decorated function, then restores the previous ones, as ``numpy.errstate``.

    >>> import atoll as ak
    >>> with ak.errstate(all="raise", under="ignore"):
    ...     ak.geterr()
    {'divide': 'raise', 'over': 'raise', 'under': 'ignore', 'invalid': 'raise'}
    >>> ak.geterr()["divide"]
    'ignore'
    """

    _UNSET = object()

    def __init__(self, *, call=_UNSET, all=None, divide=None, over=None, under=None, invalid=None):  # noqa: A002
        self._modes = dict(all=all, divide=divide, over=over, under=under, invalid=invalid)
        self._call = call
        self._saved = []

    def __enter__(self):
        saved = (geterr(), geterrcall())
        seterr(**self._modes)
        if self._call is not errstate._UNSET:
            try:
                seterrcall(self._call)
            except TypeError:
                _set(saved[0])
                raise
        self._saved.append(saved)
        return None

    def __exit__(self, *exc):
        modes, call = self._saved.pop()
        _set(modes)
        _errcall[0] = call
        return False


@contextlib.contextmanager
def quiet():
    """Within the block, elementwise operations report no floating-point errors: for library
    code whose intermediate infinities and NaNs are not the caller's errors (``isclose``
    subtracts infinities, as NumPy's does without a warning)."""
    before = _checking[0]
    _checking[0] = True
    try:
        yield
    finally:
        _checking[0] = before


def handle(kind, message):
    """Routes an error of category ``kind`` with ``message`` through the current mode (a
    ``ValueError`` for an unknown category)."""
    if kind not in _state:
        raise ValueError(f"Unknown error type: {kind!r}")
    mode = _state[kind]
    if mode == "ignore":
        return
    if mode == "warn":
        warnings.warn(message, RuntimeWarning, stacklevel=3)
    elif mode == "raise":
        raise FloatingPointError(message)
    elif mode == "call":
        func = _errcall[0]
        if func is not None:
            func(kind, message)
    elif mode == "print":
        sys.stdout.write(f"{kind}: {message}")
    elif mode == "log":
        obj = _errcall[0]
        if obj is not None and callable(getattr(obj, "write", None)):
            obj.write(f"{kind}: {message}\n")
        else:
            _logger.error("%s: %s", kind, message)


# ----- the check after an elementwise operation --------------------------------------------

_MESSAGES = {
    "divide": "divide by zero encountered in {}",
    "over": "overflow encountered in {}",
    "invalid": "invalid value encountered in {}",
}
# Operations whose overflow is an invalid operation too in NumPy.
_OVER_IS_INVALID = frozenset(["floor_divide", "divmod"])
# Integer operations whose zero divisor is a divide error (NumPy's result there is 0).
_INT_DIVIDING = frozenset(["floor_divide", "remainder", "fmod", "divmod"])


def _is_array(x):
    return hasattr(x, "_ex") and hasattr(x, "dtype")


def _scalar_test(f, x):
    try:
        return bool(f(x))
    except (TypeError, OverflowError):
        return False


# Masks below are bool pdarrays or Python bools (a scalar operand's, or "none" as False).


def _and(a, b):
    if a is False or b is False:
        return False
    if a is True:
        return b
    if b is True:
        return a
    return a & b


def _or(*ms):
    out = False
    for m in ms:
        if m is True:
            return True
        if m is not False:
            out = m if out is False else (out | m)
    return out


def _not(a):
    return (not a) if isinstance(a, bool) else ~a


def _nan(x):
    """The NaN mask of an operand (False for an array without floats)."""
    if _is_array(x):
        return (x != x) if x.dtype.kind == "f" else False
    return _scalar_test(math.isnan, x)


def _inf(x):
    """The infinity mask of an operand (False for an array without floats)."""
    if _is_array(x):
        return ((x == math.inf) | (x == -math.inf)) if x.dtype.kind == "f" else False
    return _scalar_test(math.isinf, x)


def _eq(x, v):
    """``x == v``: a mask of a pdarray, a bool of a scalar."""
    return (x == v) if _is_array(x) else _scalar_test(lambda y: y == v, x)


def _zero_divisor_cases(name, args):
    """The mask of inputs whose infinite result is a division by zero (False: none are)."""
    if name in ("divide", "floor_divide", "divmod") and len(args) == 2:
        return _eq(args[1], 0)
    if name == "power" and len(args) == 2:
        return _eq(args[0], 0)
    if name in ("log", "log2", "log10") and args:
        return _eq(args[0], 0)
    if name == "log1p" and args:
        return _eq(args[0], -1)
    if name == "arctanh" and args:
        return _or(_eq(args[0], 1), _eq(args[0], -1))
    return False


def _count(mask):
    if isinstance(mask, bool):
        return mask
    return bool(mask.any())


def _float_errors(name, result, args, want):
    """The categories (in NumPy's order) that a float ``result`` of ``name`` shows."""
    found = []
    nan_in = _or(*[_nan(a) for a in args])
    inf_in = _or(*[_inf(a) for a in args])
    is_inf = (result == math.inf) | (result == -math.inf)
    new_inf = _and(is_inf, _not(_or(inf_in, nan_in)))
    zero_div = _zero_divisor_cases(name, args)
    if "divide" in want:
        # 0 ** negative is a division by zero even for an infinite exponent.
        div = _and(_and(is_inf, zero_div), _not(nan_in)) if name == "power" else _and(new_inf, zero_div)
        if _count(div):
            found.append("divide")
    if "over" in want or (name in _OVER_IS_INVALID and "invalid" in want):
        if _count(_and(new_inf, _not(zero_div))):
            if "over" in want:
                found.append("over")
            if name in _OVER_IS_INVALID and "invalid" in want:
                # NumPy's floor division takes the floor of an infinite quotient
                # (inf - floor(inf)), which raises its invalid flag too.
                found.append("invalid")
    if "invalid" in want and "invalid" not in found and _count(_and(result != result, _not(nan_in))):
        found.append("invalid")
    return found


def check(name, result, *args):
    """Reports the floating-point errors of the elementwise operation ``name`` (NumPy's ufunc
    name) that gave the pdarray ``result`` from ``args`` (pdarrays or scalars), through the
    current modes. Free unless some mode is not ``"ignore"``; returns ``result``."""
    if not _active[0] or _checking[0] or not _is_array(result):
        return result
    want = {k for k in ("divide", "over", "invalid") if _state[k] != "ignore"}
    if not want:
        return result
    _checking[0] = True
    try:
        result._materialize()
        found = []
        kind = result.dtype.kind
        if kind in "iu" and name in _INT_DIVIDING and len(args) == 2:
            if "divide" in want and _count(_eq(args[1], 0)):
                found.append("divide")
        elif kind == "f":
            found = _float_errors(name, result, args, want)
    finally:
        _checking[0] = False
    for k in found:
        handle(k, _MESSAGES[k].format(name))
    return result
