"""Floating-point error handling for pdarray arithmetic.

``seterr``, ``geterr``, ``errstate``, ``seterrcall`` and ``geterrcall``, with NumPy's names and
modes and Arkouda's defaults. Each category (``divide``, ``over``, ``under``, ``invalid``) has a mode:

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

from __future__ import annotations

import contextlib
import logging
import math
import sys
import warnings
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any, Literal, TypeVar, Union

if TYPE_CHECKING:
    from .pdarrayclass import pdarray

__all__ = ["geterr", "seterr", "geterrcall", "seterrcall", "errstate", "handle", "check"]

KINDS = ("divide", "over", "under", "invalid")
MODES = ("ignore", "warn", "raise", "call", "print", "log")
_DEFAULTS = {k: "ignore" for k in KINDS}

_state = dict(_DEFAULTS)
# The "call" function or "log" object (any object: NumPy's modes call or write to it).
_errcall: list[Any] = [None]
# True when some category's mode is not "ignore": the one test that elementwise code pays.
_active = [False]
# Set while :func:`check` computes its masks, whose own operators must not be checked.
_checking = [False]

_logger = logging.getLogger("atoll.err")


def _set(modes: dict[str, str]) -> None:
    _state.update(modes)
    _active[0] = any(v != "ignore" for v in _state.values())


def geterr() -> dict[str, str]:
    """The current modes of the four categories.

    Returns
    -------
    dict of str to str
        The mode of ``divide``, ``over``, ``under`` and ``invalid``.

    Examples
    --------
    >>> import atoll as ak
    >>> sorted(ak.geterr())
    ['divide', 'invalid', 'over', 'under']
    """
    return dict(_state)


def seterr(
    all: str | None = None,  # noqa: A002  (NumPy's name)
    divide: str | None = None,
    over: str | None = None,
    under: str | None = None,
    invalid: str | None = None,
    **unknown: str | None,
) -> dict[str, str]:
    """Sets the mode of each category given, as ``numpy.seterr``.

    Naming ``under`` with a new mode warns (``UserWarning``) that underflow is not detected.

    Parameters
    ----------
    all : str, optional
        The mode of the four categories; the others override it.
    divide, over, under, invalid : str, optional
        The mode of one category (``None`` leaves it as it is): ``"ignore"``, ``"warn"``,
        ``"raise"``, ``"call"``, ``"print"`` or ``"log"``.
    **unknown : str
        Any other name is an error.

    Returns
    -------
    dict of str to str
        The previous modes.

    Raises
    ------
    ValueError
        An unknown category or mode (Arkouda's error).

    Examples
    --------
    >>> import atoll as ak
    >>> old = ak.seterr(divide="warn")
    >>> old["divide"], ak.geterr()["divide"]
    ('ignore', 'warn')
    >>> _ = ak.seterr(**old)
    """
    for key in unknown:
        raise ValueError(f"Unknown error type: {key!r}")
    new: dict[str, str] = {}
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


def geterrcall() -> object:
    """The function (or log object) used by the ``"call"`` (``"log"``) mode.

    Returns
    -------
    callable, object with a ``write`` method, or None
        What :func:`seterrcall` set last.

    Examples
    --------
    >>> import atoll as ak
    >>> ak.geterrcall() is None
    True
    """
    return _errcall[0]


def seterrcall(func: object) -> object:
    """Sets the function of the ``"call"`` mode (or the object of the ``"log"`` mode).

    Parameters
    ----------
    func : callable, object with a ``write`` method, or None
        Called as ``func(kind, message)`` in ``"call"`` mode, or written to in ``"log"`` mode;
        ``None`` clears it.

    Returns
    -------
    callable, object or None
        The previous one.

    Raises
    ------
    TypeError
        ``func`` is neither callable, nor has a ``write`` method, nor is None.

    Examples
    --------
    >>> import atoll as ak
    >>> seen = []
    >>> old = ak.seterrcall(lambda kind, msg: seen.append(kind))
    >>> with ak.errstate(divide="call"):
    ...     _ = ak.array([1.0]) / 0
    >>> seen
    ['divide']
    >>> _ = ak.seterrcall(old)
    """
    if func is not None and not callable(func) and not callable(getattr(func, "write", None)):
        raise TypeError("seterrcall expects a callable, an object with a write method, or None")
    old = _errcall[0]
    _errcall[0] = func
    return old


class errstate(contextlib.ContextDecorator):
    """Sets modes (and the ``call`` function) for a ``with`` block or a decorated function.

    The previous ones are restored after, as ``numpy.errstate`` does.

    Parameters
    ----------
    call : callable, object with a ``write`` method, or None, optional
        The function of the ``"call"`` mode (or object of the ``"log"`` mode) within.
    all, divide, over, under, invalid : str, optional
        The modes within, as :func:`seterr` reads them.

    Examples
    --------
    >>> import atoll as ak
    >>> with ak.errstate(all="raise", under="ignore"):
    ...     ak.geterr()
    {'divide': 'raise', 'over': 'raise', 'under': 'ignore', 'invalid': 'raise'}
    >>> ak.geterr()["divide"]
    'ignore'
    """

    _UNSET = object()

    def __init__(
        self,
        *,
        call: object = _UNSET,
        all: str | None = None,  # noqa: A002
        divide: str | None = None,
        over: str | None = None,
        under: str | None = None,
        invalid: str | None = None,
    ) -> None:
        self._modes = dict(all=all, divide=divide, over=over, under=under, invalid=invalid)
        self._call = call
        self._saved: list[tuple[dict[str, str], object]] = []

    def __enter__(self) -> None:
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

    def __exit__(self, *exc: object) -> Literal[False]:
        modes, call = self._saved.pop()
        _set(modes)
        _errcall[0] = call
        return False


@contextlib.contextmanager
def quiet() -> Iterator[None]:
    """A block within which elementwise operations report no floating-point errors.

    For library code whose intermediate infinities and NaNs are not the caller's errors
    (``isclose`` subtracts infinities, as NumPy's does without a warning).

    Yields
    ------
    None
        Once, for the block.

    Examples
    --------
    >>> import atoll as ak
    >>> with ak.errstate(divide="raise"), ak.numpy.err.quiet():
    ...     (ak.array([1.0]) / 0).tolist()
    [inf]
    """
    before = _checking[0]
    _checking[0] = True
    try:
        yield
    finally:
        _checking[0] = before


def handle(kind: str, message: str) -> None:
    """Routes an error of category ``kind`` with ``message`` through the current mode.

    Parameters
    ----------
    kind : {'divide', 'over', 'under', 'invalid'}
        The category.
    message : str
        NumPy's message of the error.

    Raises
    ------
    ValueError
        ``kind`` is not a category.
    FloatingPointError
        The category's mode is ``"raise"``.

    Examples
    --------
    >>> import atoll as ak
    >>> with ak.errstate(over="raise"):
    ...     ak.numpy.err.handle("over", "overflow encountered in exp")
    Traceback (most recent call last):
    ...
    FloatingPointError: overflow encountered in exp
    """
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


_Mask = Union[bool, "pdarray"]
_R = TypeVar("_R")


def _is_array(x: object) -> bool:
    return hasattr(x, "_ex") and hasattr(x, "dtype")


def _scalar_test(f: Callable[[Any], object], x: object) -> bool:
    try:
        return bool(f(x))
    except (TypeError, OverflowError):
        return False


# Masks below are bool pdarrays or Python bools (a scalar operand's, or "none" as False).


def _and(a: _Mask, b: _Mask) -> _Mask:
    if a is False or b is False:
        return False
    if a is True:
        return b
    if b is True:
        return a
    both: _Mask = a & b
    return both


def _or(*ms: _Mask) -> _Mask:
    out: _Mask = False
    for m in ms:
        if m is True:
            return True
        if m is not False:
            out = m if out is False else (out | m)
    return out


def _not(a: _Mask) -> _Mask:
    return (not a) if isinstance(a, bool) else ~a


def _nan(x: Any) -> _Mask:  # noqa: ANN401 (a pdarray or a scalar)
    """The NaN mask of an operand (False for an array without floats)."""
    if _is_array(x):
        return (x != x) if x.dtype.kind == "f" else False
    return _scalar_test(math.isnan, x)


def _inf(x: Any) -> _Mask:  # noqa: ANN401 (a pdarray or a scalar)
    """The infinity mask of an operand (False for an array without floats)."""
    if _is_array(x):
        return ((x == math.inf) | (x == -math.inf)) if x.dtype.kind == "f" else False
    return _scalar_test(math.isinf, x)


def _eq(x: Any, v: object) -> _Mask:  # noqa: ANN401 (a pdarray or a scalar)
    """``x == v``: a mask of a pdarray, a bool of a scalar."""
    return (x == v) if _is_array(x) else _scalar_test(lambda y: y == v, x)


def _zero_divisor_cases(name: str, args: tuple[object, ...]) -> _Mask:
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


def _count(mask: _Mask) -> bool:
    if isinstance(mask, bool):
        return mask
    return bool(mask.any())


def _float_errors(name: str, result: pdarray, args: tuple[object, ...], want: set[str]) -> list[str]:
    """The categories (in NumPy's order) that a float ``result`` of ``name`` shows."""
    found: list[str] = []
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


def check(name: str, result: _R, *args: object) -> _R:
    """Reports the floating-point errors of an elementwise operation through the current modes.

    Free unless some mode is not ``"ignore"``.

    Parameters
    ----------
    name : str
        NumPy's ufunc name of the operation.
    result : pdarray
        What the operation gave (anything else is passed through unchecked).
    *args : pdarray or scalar
        The operation's operands.

    Returns
    -------
    pdarray
        ``result``.

    Raises
    ------
    FloatingPointError
        An error's category has mode ``"raise"``.

    Examples
    --------
    >>> import atoll as ak
    >>> a = ak.array([1.0, 0.0])
    >>> with ak.errstate(invalid="raise"):
    ...     ak.numpy.err.check("divide", a / 0.0, a, 0.0)
    Traceback (most recent call last):
    ...
    FloatingPointError: invalid value encountered in divide
    """
    if not _active[0] or _checking[0] or not _is_array(result):
        return result
    want = {k for k in ("divide", "over", "invalid") if _state[k] != "ignore"}
    if not want:
        return result
    _checking[0] = True
    r: Any = result  # a pdarray: _is_array said so
    try:
        r._materialize()
        found: list[str] = []
        kind = r.dtype.kind
        if kind in "iu" and name in _INT_DIVIDING and len(args) == 2:
            if "divide" in want and _count(_eq(args[1], 0)):
                found.append("divide")
        elif kind == "f":
            found = _float_errors(name, r, args, want)
    finally:
        _checking[0] = False
    for k in found:
        handle(k, _MESSAGES[k].format(name))
    return result
