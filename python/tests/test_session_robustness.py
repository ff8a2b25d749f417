"""The session stays right and usable: Python threads each get their own data back, a bad
expression fails on the line that built it and leaves nothing behind, an error on some
locales only comes back as one typed error, impossible sizes raise instead of aborting, and
results do not depend on the locale count."""

import os
import subprocess
import sys
import tempfile
import threading

import atoll as ak
import numpy as np
import pytest
from conftest import assert_same


def test_threads_get_their_own_data():
    errors, done = [], []

    def work(k):
        try:
            rng = np.random.default_rng(k)
            for i in range(15):
                x = rng.integers(-1000, 1000, 500 + 37 * k + i)
                a = ak.array(x)
                got = (a * 2 + k).to_ndarray()
                if not np.array_equal(got, x * 2 + k):
                    errors.append((k, i))
                s = ak.array([f"t{k}-{j}" for j in range(20)])
                if s.to_ndarray().tolist() != [f"t{k}-{j}" for j in range(20)]:
                    errors.append((k, i, "strings"))
            done.append(k)
        except Exception as e:  # a failure must show in the test, not only in the thread
            errors.append((k, repr(e)))

    ts = [threading.Thread(target=work, args=(k,)) for k in range(4)]
    for t in ts:
        t.start()
    for t in ts:
        t.join(120)
    assert not any(t.is_alive() for t in ts), "a thread hung"
    assert errors == [] and sorted(done) == [0, 1, 2, 3]


def test_bad_expression_fails_at_once_and_leaves_nothing_behind():
    f = ak.array([1.5, 2.5, 3.5])
    with pytest.raises(TypeError):
        ~f  # NumPy: invert is not defined for floats
    with pytest.raises(TypeError):
        f & 1
    a = ak.zeros(4)
    a[0] = 1
    a[1:3] = 7
    a += 1
    a[ak.array([3])] = 9
    assert_same(a, np.array([2.0, 8.0, 8.0, 9.0]))


def test_failure_on_some_locales_leaves_the_session_usable():
    # Two elements on any locale count: with 3 or 4 locales only some locales hold data.
    x = np.array([3, -2])
    a = ak.array(x)
    with pytest.raises(ValueError, match="negative"):
        (a ** ak.array([2, -1])).to_ndarray()
    with pytest.raises(IndexError):
        ak.arange(5)[ak.array([0, 7])]
    for _ in range(3):
        assert ak.arange(10).sum() == 45
        assert_same(a * 2, x * 2)
        assert_same(ak.arange(2)[a.astype(ak.bool_)], np.arange(2)[x.astype(bool)])


def test_float_products_do_not_depend_on_the_locale_count():
    for vals in ([1e-300, 1e-300, 1e300, 1e300], [1e300, 1e300, 1e-300, 1e-300], [1e200, 1e200, 1e-200, 0.5] * 3):
        x = np.array(vals)
        a = ak.array(x)
        with np.errstate(all="ignore"):
            want, want_c = np.prod(x), np.cumprod(x)
        assert_same(ak.prod(a), want)
        assert_same(ak.cumprod(a), want_c)
    x = np.random.default_rng(5).uniform(0.5, 1.5, 20001)
    assert ak.prod(ak.array(x)) == np.prod(x)
    assert_same(ak.cumprod(ak.array(x)), np.cumprod(x))


def test_unique_of_the_full_int64_range():
    x = np.array([2**63 - 1, -(2**63), 0, 2**63 - 1])
    assert_same(ak.unique(ak.array(x)), np.unique(x))
    k, c = ak.GroupBy(ak.array(x)).size()
    uk, uc = np.unique(x, return_counts=True)
    assert_same(k, uk)
    assert_same(c, uc.astype(np.int64))


def test_parquet_rewrite_with_fewer_locales_leaves_only_the_new_dataset():
    n = ak.num_locales()
    with tempfile.TemporaryDirectory() as d:
        p = os.path.join(d, "x")
        # Files of a write with more locales than this session has.
        for k in range(n, n + 3):
            open(os.path.join(d, f"x_LOCALE{k:04d}.parquet"), "wb").write(b"stale")
        ak.to_parquet({"v": ak.arange(10)}, p)
        names = sorted(os.listdir(d))
        assert names == [f"x_LOCALE{k:04d}.parquet" for k in range(n)]
        r = ak.read_parquet(p + "*")
        assert_same(r["v"] if isinstance(r, dict) else r, np.arange(10))


def test_impossible_locale_counts_raise():
    if ak.backend() == "mpi":
        pytest.skip("the locale count comes from mpiexec")
    with pytest.raises(ValueError, match="locales"):
        ak.init(locales=2**40)
    assert ak.arange(3).sum() == 3  # the session goes on


def _run(code, env_extra):
    env = dict(os.environ)
    env.update(env_extra)
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=env)


@pytest.mark.skipif(ak.backend() == "mpi", reason="starts its own local sessions")
def test_impossible_locale_count_in_the_environment_raises():
    r = _run(
        "import atoll as ak\ntry:\n    ak.arange(3)\nexcept ValueError as e:\n    print('ValueError', e)\n",
        {"ATOLL_LOCALES": "99999999999", "ATOLL_BACKEND": "local"},
    )
    assert r.returncode == 0, r.stderr
    assert "ValueError" in r.stdout and "ATOLL_LOCALES" in r.stdout


@pytest.mark.skipif(ak.backend() == "mpi", reason="starts its own local sessions")
def test_eager_evaluation_comes_from_the_configuration():
    code = "import atoll as ak\na = ak.arange(5)\nb = a * 2\nprint(ak.is_eager(), b._expr is None, b.tolist())\n"
    on = _run(code, {"ATOLL_EAGER": "1", "ATOLL_BACKEND": "local", "ATOLL_LOCALES": "2"})
    assert on.returncode == 0, on.stderr
    assert on.stdout.split() == ["True", "True", "[0,", "2,", "4,", "6,", "8]"]
    off = _run(code, {"ATOLL_EAGER": "0", "ATOLL_BACKEND": "local", "ATOLL_LOCALES": "2"})
    assert off.returncode == 0, off.stderr
    assert off.stdout.split() == ["False", "False", "[0,", "2,", "4,", "6,", "8]"]
    bad = _run(
        "import atoll as ak\ntry:\n    ak.arange(3)\nexcept ValueError as e:\n    print('ValueError', e)\n",
        {"ATOLL_EAGER": "sometimes", "ATOLL_BACKEND": "local"},
    )
    assert bad.returncode == 0, bad.stderr
    assert "ValueError" in bad.stdout and "ATOLL_EAGER" in bad.stdout


def test_impossible_sizes_raise_out_of_memory_before_allocating():
    for f in (
        lambda: ak.zeros(10**15),
        lambda: ak.random_strings_uniform(1, 2, 10**13),
        lambda: ak.random_strings_uniform(10**9, 10**9 + 1, 1000),
    ):
        with pytest.raises(ak.OutOfMemoryError):
            f()
        assert ak.arange(3).sum() == 3  # the session goes on
