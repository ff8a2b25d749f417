"""Shared arrays from Python (atoll.share): zero-copy NumPy views of the mappings, attach from
another process with signals, read-only attaches, bad files and timeouts."""

import os
import subprocess
import sys
import textwrap

import atoll as ak
import numpy as np
import pytest
from atoll import share


def _name(tag):
    return f"pyt-{tag}-{os.getpid()}"


def test_blocks_are_zero_copy_views_of_the_files(tmp_path):
    a = share.create(_name("z"), 10, "f64", nblocks=1, dir=tmp_path)
    b = share.attach(_name("z"), dir=tmp_path, writable=True)
    a.numpy()[:] = np.arange(10) * 1.5
    # The other mapping sees the stores at once: no copy in between.
    np.testing.assert_array_equal(b.numpy(), np.arange(10) * 1.5)
    b.numpy()[3] = -1.0
    assert a.numpy()[3] == -1.0
    assert a.numpy().dtype == np.float64 and a.shape == (10,)
    with open(tmp_path / f"atoll-{_name('z')}-0", "rb") as f:
        np.testing.assert_array_equal(np.frombuffer(f.read(), dtype=np.float64), a.numpy())
    del a, b
    assert os.listdir(tmp_path) == []  # created without keep: removed with the last view


def test_several_blocks_follow_the_block_layout(tmp_path):
    want = np.arange(7 * 5, dtype=np.int32).reshape(7, 5)
    a = share.from_numpy(_name("m"), want, nblocks=4, dir=tmp_path)
    assert a.nblocks == 4
    np.testing.assert_array_equal(a.to_numpy(), want)
    with pytest.raises(ValueError, match="4 blocks"):
        a.numpy()
    ro = share.attach(_name("m"), dir=tmp_path)
    np.testing.assert_array_equal(ro.to_numpy(), want)
    with pytest.raises(ValueError):
        ro.blocks[0][2][0, 0] = 99  # read-only attach: read-only NumPy arrays


def test_a_pdarray_becomes_a_shared_array(tmp_path):
    x = ak.arange(100) * 3
    a = share.from_numpy(_name("pd"), x, nblocks=2, dir=tmp_path)
    np.testing.assert_array_equal(a.to_numpy(), np.arange(100) * 3)


def test_bad_files_and_timeouts_are_clear_errors(tmp_path):
    with pytest.raises(OSError, match="cannot open"):
        share.attach("absent", dir=tmp_path)
    (tmp_path / "atoll-foreign.meta").write_bytes(b"hello, not an array")
    with pytest.raises(OSError, match="bad magic"):
        share.attach("foreign", dir=tmp_path)
    with pytest.raises(ValueError):
        share.create("../escape", 4, dir=tmp_path)
    with pytest.raises(TypeError):
        share.create(_name("b"), 4, np.complex128, dir=tmp_path)
    a = share.create(_name("t"), 4, dir=tmp_path)
    with pytest.raises(TimeoutError):
        a.signal_wait(0, timeout=0.05)
    with pytest.raises(ValueError):
        a.signal_wait(0, timeout=-1)
    with pytest.raises(ValueError):
        a.signal_post(32)


_CHILD = textwrap.dedent(
    """
    import sys
    import numpy as np
    from atoll import share
    name, out, d = sys.argv[1], sys.argv[2], sys.argv[3]
    x = share.attach(name, dir=d)
    y = share.attach(out, dir=d, writable=True)
    for _ in range(3):
        y.signal_wait(0, timeout=60)
        y.numpy()[0] = x.to_numpy().sum()
        y.bump_generation()
        y.signal_post(1)
    """
)


def test_another_process_attaches_computes_and_signals_back(tmp_path):
    x = share.create(_name("x"), 1000, "i64", nblocks=3, dir=tmp_path)
    y = share.create(_name("y"), 1, "i64", dir=tmp_path)
    # The child is a plain process: no MPI launcher variables, no Atoll job.
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PMI", "MPI", "HYDRA", "OMPI", "PMIX"))}
    env["ATOLL_BACKEND"] = "local"
    child = subprocess.Popen([sys.executable, "-c", _CHILD, _name("x"), _name("y"), str(tmp_path)], env=env)
    try:
        for it in range(3):
            for _, _, blk in x.blocks:
                blk[:] = it + 1
            y.signal_post(0)
            y.signal_wait(1, timeout=120)
            assert y.numpy()[0] == 1000 * (it + 1)
            assert y.generation == 2 + it
    finally:
        assert child.wait(timeout=120) == 0


def test_a_shared_pdarray_is_written_in_place_and_attached_zero_copy():
    name = _name("pda")
    p = share.make(name, 1000, "float64")
    p[:] = ak.arange(1000) * 0.5
    a = share.attach(name)  # from /dev/shm: the session's locales wrote their blocks there
    assert a.nblocks == ak.num_locales()
    np.testing.assert_array_equal(a.to_numpy(), np.arange(1000) * 0.5)
    # The session computes on it like on any pdarray...
    assert (p * 2).sum() == (np.arange(1000) * 1.0).sum()
    # ... and sees what another process writes into the blocks.
    w = share.attach(name, writable=True)
    w.blocks[-1][2][-1] = 12345.0
    assert p[999] == 12345.0
    with pytest.raises((TypeError, ValueError)):
        share.make(_name("bool"), 4, "bool")
    del a, w, p
    import gc

    gc.collect()


_C_SRC = r"""
#include <stdint.h>
int fill(uint32_t loc, uint32_t nl, void *data, uint64_t len, uint64_t first, void *user) {
    double *d = data; (void)loc; (void)nl;
    for (uint64_t k = 0; k < len; k++) d[k] = (double)(first + k) * (double)(uintptr_t)user;
    return 0;
}
int fail_last(uint32_t loc, uint32_t nl, void *d, uint64_t len, uint64_t first, void *user) {
    (void)d; (void)len; (void)first; (void)user; return loc + 1 == nl ? 7 : 0;
}
"""


def test_each_locale_calls_c_with_its_block(tmp_path):
    src = tmp_path / "blk.c"
    src.write_text(_C_SRC)
    lib = tmp_path / "libblk.so"
    subprocess.run([os.environ.get("CC", "cc"), "-shared", "-fPIC", "-O2", "-o", str(lib), str(src)], check=True)
    p = ak.zeros(1000)
    share.call_c(p, lib, "fill", user=3)
    np.testing.assert_array_equal(p.to_ndarray(), np.arange(1000) * 3.0)
    with pytest.raises(ValueError, match="returned 7"):
        share.call_c(p, lib, "fail_last")
    with pytest.raises(ValueError, match="no symbol"):
        share.call_c(p, lib, "missing")
    with pytest.raises(ValueError, match="slice"):
        share.call_c(p[1:], lib, "fill")
    # A shared pdarray filled by C, seen by another process's attach.
    name = _name("c")
    s = share.make(name, 100, "float64")
    share.call_c(s, lib, "fill", user=2)
    np.testing.assert_array_equal(share.attach(name).to_numpy(), np.arange(100) * 2.0)


def test_a_shared_pdarray_keeps_its_files_when_assigned_from_itself(tmp_path):
    name = _name("alias")
    p = share.make(name, 10, "float64", dir=tmp_path)
    files = sorted(os.listdir(tmp_path))
    assert files
    p[:] = ak.arange(10) * 1.0
    p[:] = p + 1
    p *= 2
    p[::-1] = p
    assert sorted(os.listdir(tmp_path)) == files
    want = ((np.arange(10) + 1.0) * 2)[::-1]
    np.testing.assert_array_equal(p.to_ndarray(), want)
    a = share.attach(name, dir=tmp_path)
    np.testing.assert_array_equal(a.to_numpy(), want)
    del a, p
