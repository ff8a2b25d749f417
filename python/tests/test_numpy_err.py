"""Floating-point error modes (ak.seterr, ak.errstate, ...): the API against NumPy's, and the
errors each elementwise operation reports against those NumPy reports for the same values."""

import io
import logging
import warnings

import atoll as ak
import numpy as np
import pytest
from atoll.numpy import err as akerr
from hypothesis import given, strategies as st

SPECIAL = [0.0, -0.0, 1.0, -1.0, 2.0, 0.5, np.inf, -np.inf, np.nan, 1e308, -1e308, 1e-308, 709.0, 710.0, 3.0]


@pytest.fixture(autouse=True)
def _restore():
    modes, call = ak.geterr(), ak.geterrcall()
    yield
    akerr._set(modes)
    ak.seterrcall(call)


def _np_kinds(f, *args):
    """The categories NumPy reports for ``f(*args)`` (its messages' first words)."""
    seen = []

    def call(kind, flag):
        seen.append(kind)

    old = np.seterrcall(call)
    try:
        with np.errstate(divide="call", over="call", invalid="call", under="ignore"):
            f(*args)
    finally:
        np.seterrcall(old)
    names = {"divide by zero": "divide", "overflow": "over", "invalid value": "invalid"}
    return sorted({names[k] for k in seen})


def _ak_kinds(f, *args):
    seen = []
    with ak.errstate(divide="call", over="call", invalid="call", call=lambda kind, msg: seen.append((kind, msg))):
        f(*args)
    return sorted({k for k, _ in seen}), [m for _, m in seen]


# ----- the API ---------------------------------------------------------------------------


def test_defaults_are_arkoudas():
    assert ak.geterr() == {"divide": "ignore", "over": "ignore", "under": "ignore", "invalid": "ignore"}
    assert ak.geterrcall() is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        r = ak.array([1.0, 0.0, -1.0]) / 0  # nothing reported by default
    np.testing.assert_array_equal(r.to_ndarray(), np.array([np.inf, np.nan, -np.inf]))


def test_seterr_returns_previous_like_numpy():
    old_np = np.seterr(all="ignore")
    try:
        np_prev = np.seterr(divide="warn", over="raise")
        ak.seterr(all="ignore")
        ak_prev = ak.seterr(divide="warn", over="raise")
        assert ak_prev == np_prev
        assert ak.geterr() == np.geterr()
        # None leaves a category as it is; ``all`` sets the four, the others override it.
        assert ak.seterr(divide=None) == np.seterr(divide=None)
        ak.seterr(all="print", invalid="log")
        np.seterr(all="print", invalid="log")
        assert ak.geterr() == np.geterr()
    finally:
        np.seterr(**old_np)


@pytest.mark.parametrize("bad", [{"foo": "warn"}, {"divide": "nope"}, {"all": "sometimes"}])
def test_seterr_rejects_unknown(bad):
    before = ak.geterr()
    with pytest.raises(ValueError):
        ak.seterr(**bad)
    assert ak.geterr() == before


def test_under_warns_that_it_has_no_effect():
    with pytest.warns(UserWarning, match="under"):
        ak.seterr(under="warn")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ak.seterr(over="warn", invalid="warn", divide="warn")  # detected: no such warning


def test_seterrcall_roundtrip_and_types():
    def handler(kind, msg):
        pass

    assert ak.seterrcall(handler) is None
    assert ak.geterrcall() is handler
    assert ak.seterrcall(None) is handler
    with pytest.raises(TypeError):
        ak.seterrcall(123)


def test_errstate_restores_and_nests_like_numpy():
    base = ak.geterr()
    with ak.errstate(divide="warn"):
        assert ak.geterr()["divide"] == "warn"
        with ak.errstate(all="raise", under="ignore"):
            with np.errstate(all="raise", under="ignore"):
                assert ak.geterr() == np.geterr()
        assert ak.geterr()["divide"] == "warn"
    assert ak.geterr() == base


def test_errstate_restores_after_exception_and_as_decorator():
    base = ak.geterr()
    with pytest.raises(FloatingPointError):
        with ak.errstate(divide="raise"):
            ak.array([1.0]) / 0
    assert ak.geterr() == base

    @ak.errstate(invalid="raise")
    def f():
        return ak.sqrt(ak.array([-1.0]))

    with pytest.raises(FloatingPointError, match="invalid value encountered in sqrt"):
        f()
    assert ak.geterr() == base


def test_errstate_call_is_temporary():
    seen = []
    with ak.errstate(divide="call", call=lambda k, m: seen.append((k, m))):
        ak.array([2.0]) / ak.array([0.0])
    assert seen == [("divide", "divide by zero encountered in divide")]
    assert ak.geterrcall() is None


def test_modes_warn_raise_print_log(capsys):
    with ak.errstate(divide="warn"):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            ak.array([1.0]) // 0.0
    with np.errstate(divide="warn"):
        with warnings.catch_warnings(record=True) as wn:
            warnings.simplefilter("always")
            np.array([1.0]) // 0.0
    assert [(x.category, str(x.message)) for x in w] == [(x.category, str(x.message)) for x in wn]

    with ak.errstate(over="raise"):
        with pytest.raises(FloatingPointError) as e:
            ak.exp(ak.array([1000.0]))
    with np.errstate(over="raise"):
        with pytest.raises(FloatingPointError) as en:
            np.exp(np.array([1000.0]))
    assert str(e.value) == str(en.value)

    with ak.errstate(invalid="print"):
        ak.log(ak.array([-1.0]))
    assert capsys.readouterr().out == "invalid: invalid value encountered in log"

    records = []

    class H(logging.Handler):
        def emit(self, record):
            records.append(record.getMessage())

    h = H(logging.ERROR)
    akerr._logger.addHandler(h)
    try:
        with ak.errstate(divide="log"):
            ak.log(ak.array([0.0]))
    finally:
        akerr._logger.removeHandler(h)
    assert records == ["divide: divide by zero encountered in log"]

    buf = io.StringIO()
    with ak.errstate(divide="log", call=buf):  # NumPy's log object: its write method
        ak.array([1.0]) / 0
    assert buf.getvalue() == "divide: divide by zero encountered in divide\n"


def test_handle_routes_and_validates():
    with pytest.raises(ValueError):
        akerr.handle("bogus", "x")
    with ak.errstate(divide="raise"):
        with pytest.raises(FloatingPointError, match="boom"):
            akerr.handle("divide", "boom")
    akerr.handle("divide", "ignored by default")


# ----- what elementwise operations report, against NumPy -----------------------------------

BINARY = [
    ("add", lambda x, y: x + y),
    ("subtract", lambda x, y: x - y),
    ("multiply", lambda x, y: x * y),
    ("divide", lambda x, y: x / y),
    ("floor_divide", lambda x, y: x // y),
    ("remainder", lambda x, y: x % y),
    ("power", lambda x, y: x**y),
]
UNARY = ["log", "log2", "log10", "log1p", "sqrt", "exp", "expm1", "arcsin", "arccos", "arccosh", "arctanh", "cosh"]
UNARY += ["sinh", "tan", "sin", "cos", "square"]


def _pairs(name):
    xs = np.repeat(np.array(SPECIAL), len(SPECIAL))
    ys = np.tile(np.array(SPECIAL), len(SPECIAL))
    if name == "power":  # glibc's pow(1e308, inf) raises its overflow flag: a libm detail
        keep = ~(np.isinf(ys) & np.isfinite(xs) & (np.abs(xs) > 1e300))
        xs, ys = xs[keep], ys[keep]
    return xs, ys


@pytest.mark.parametrize("name,op", BINARY, ids=[b[0] for b in BINARY])
def test_binary_operators_report_what_numpy_reports(name, op):
    xs, ys = _pairs(name)
    want = [_np_kinds(op, xs[i : i + 1], ys[i : i + 1]) for i in range(xs.size)]
    # The pairs NumPy reports nothing for, at once (none may report), then each other pair.
    quiet = np.array([not w for w in want])
    assert _ak_kinds(op, ak.array(xs[quiet]), ak.array(ys[quiet]))[0] == []
    for i in np.flatnonzero(~quiet):
        kinds, msgs = _ak_kinds(op, ak.array(xs[i : i + 1]), ak.array(ys[i : i + 1]))
        assert kinds == want[i], (name, xs[i], ys[i])
        assert all(m.endswith(f"encountered in {name}") for m in msgs)
    # The whole arrays at once, and with a scalar on either side.
    assert _ak_kinds(op, ak.array(xs), ak.array(ys))[0] == _np_kinds(op, xs, ys)
    for s in (0.0, 2.0, np.inf):
        if not (name == "power" and np.isinf(s)):
            assert _ak_kinds(op, ak.array(xs), s)[0] == _np_kinds(op, xs, np.float64(s)), s
        assert _ak_kinds(op, s, ak.array(ys))[0] == _np_kinds(op, np.float64(s), ys), s


@pytest.mark.parametrize("name", ["floor_divide", "remainder", "divide"])
def test_integer_division_by_zero_like_numpy(name):
    op = dict(BINARY)[name]
    x = np.array([5, 0, -3, 7], dtype=np.int64)
    for y in (np.array([1, 0, 2, 3]), np.array([1, 2, 3, 4])):
        assert _ak_kinds(op, ak.array(x), ak.array(y))[0] == _np_kinds(op, x, y)
    assert _ak_kinds(op, ak.array(x), 0)[0] == _np_kinds(op, x, np.int64(0))


@pytest.mark.parametrize("name", UNARY)
def test_functions_report_what_numpy_reports(name):
    x = np.array(SPECIAL)
    f_ak, f_np = getattr(ak, name), getattr(np, name)
    with np.errstate(all="ignore"):
        want = f_np(x)
    for i in range(x.size):
        got = f_ak(ak.array(x[i : i + 1])).to_ndarray()
        if not np.allclose(got, want[i : i + 1], rtol=1e-12, equal_nan=True):
            continue  # another value than NumPy's: other errors, rightly
        kinds, msgs = _ak_kinds(f_ak, ak.array(x[i : i + 1]))
        assert kinds == _np_kinds(f_np, x[i : i + 1]), (name, x[i])
        assert all(m.endswith(f"encountered in {name}") for m in msgs)


def test_two_argument_functions_report_what_numpy_reports():
    x = np.repeat(np.array(SPECIAL), len(SPECIAL))
    y = np.tile(np.array(SPECIAL), len(SPECIAL))
    for name in ("fmod", "hypot", "arctan2"):
        assert _ak_kinds(getattr(ak, name), ak.array(x), ak.array(y))[0] == _np_kinds(getattr(np, name), x, y), name


finite = st.floats(allow_nan=True, allow_infinity=True, width=64)


@given(st.lists(finite, min_size=1, max_size=20), st.lists(finite, min_size=1, max_size=20), st.sampled_from(BINARY))
def test_random_operands_report_what_numpy_reports(xs, ys, named):
    n = min(len(xs), len(ys))
    x, y = np.array(xs[:n]), np.array(ys[:n])
    _, op = named
    assert _ak_kinds(op, ak.array(x), ak.array(y))[0] == _np_kinds(op, x, y)


def test_checks_do_not_change_results():
    x = ak.array(np.array(SPECIAL))
    y = ak.array(np.array(SPECIAL[::-1]))
    for _, op in BINARY:
        plain = op(x, y).to_ndarray()
        with ak.errstate(all="warn", under="ignore"), warnings.catch_warnings():
            warnings.simplefilter("ignore")
            checked = op(x, y).to_ndarray()
        np.testing.assert_array_equal(checked, plain)


def test_raise_stops_at_numpys_first_category():
    # NumPy checks divide before invalid: 0/0 and 1/0 together raise the divide error.
    x, y = np.array([1.0, 0.0]), np.array([0.0, 0.0])
    with np.errstate(all="raise"), pytest.raises(FloatingPointError) as en:
        x / y
    with ak.errstate(all="raise", under="ignore"), pytest.raises(FloatingPointError) as e:
        ak.array(x) / ak.array(y)
    assert str(e.value) == str(en.value)


def test_isclose_reports_nothing_like_numpy():
    x = np.array([1.0, np.inf, -np.inf, np.nan, 0.0])
    y = np.array([1.0, np.inf, np.inf, np.nan, 1e-300])
    assert _np_kinds(np.isclose, x, y) == []
    kinds, _ = _ak_kinds(ak.isclose, ak.array(x), ak.array(y))
    assert kinds == []
    assert _ak_kinds(ak.allclose, ak.array(x), ak.array(y))[0] == []
    with ak.errstate(invalid="raise"):
        np.testing.assert_array_equal(ak.isclose(ak.array(x), ak.array(y)).to_ndarray(), np.isclose(x, y))
        with pytest.raises(FloatingPointError):  # the checks are back after it
            ak.array([np.inf]) - ak.array([np.inf])
