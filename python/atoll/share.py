"""Shared arrays: arrays whose blocks are memory-mapped files that several
processes (Atoll jobs in Rust or Python, C/C++ through ``include/atoll.h``) read and write in
place, with signals to synchronise them.

    from atoll import share
    a = share.create("edges", (1000,), "f64", nblocks=2)   # made here (files in /dev/shm)
    a.blocks[0][:] = 1.0                                   # NumPy views of the mappings
    b = share.attach("edges")                              # in any process: zero copy
    p = share.make("x", 1000, "float64")                   # a pdarray whose blocks are shared
    p[:] = ak.arange(1000) * 0.5                           # ... and another process attaches "x"
    b.signal_post(0); ...; b.signal_wait(1, timeout=10)    # futex signals, with timeouts

Blocks are NumPy arrays over the mappings (no copy); ``numpy()`` is the whole array as one
zero-copy array when it has one block, and ``to_numpy()`` a copy in global order otherwise.
A read-only attach maps private copy-on-write pages and gives read-only NumPy arrays.
Bad files raise ``OSError`` naming the defect; a wait that times out raises ``TimeoutError``.
"""

import ctypes

import numpy as np

from . import _atoll
from .numpy.dtypes import _stored_dtype as _dtype
from .numpy.pdarrayclass import _before_write, pdarray
from .numpy.pdarraycreation import _size

__all__ = ["SharedArray", "attach", "call_c", "create", "from_numpy", "make"]

_DTYPES = {
    "i8": np.int8,
    "i16": np.int16,
    "i32": np.int32,
    "i64": np.int64,
    "u8": np.uint8,
    "u16": np.uint16,
    "u32": np.uint32,
    "u64": np.uint64,
    "f32": np.float32,
    "f64": np.float64,
}


def _code(dtype):
    dt = np.dtype(dtype)
    for k, v in _DTYPES.items():
        if np.dtype(v) == dt:
            return k
    raise TypeError(f"shared arrays hold int8..int64, uint8..uint64, float32 or float64, not {dt}")


class SharedArray:
    """An open shared array: ``blocks`` (a list of ``(lo, hi, ndarray)``), ``numpy()``,
    ``to_numpy()``, signals and the generation counter. The mappings live as long as this
    object or any NumPy array taken from it."""

    def __init__(self, handle):
        self._h = handle
        self.dtype = np.dtype(_DTYPES[handle.dtype])
        self.shape = tuple(handle.shape)
        self.writable = handle.writable
        self.blocks = [self._block(b) for b in range(handle.nblocks)]

    def _block(self, b):
        lo, hi, addr, nbytes = self._h.block(b)
        shape = tuple(h - l for l, h in zip(lo, hi))
        if nbytes == 0:
            arr = np.empty(shape, dtype=self.dtype)
        else:
            buf = (ctypes.c_char * nbytes).from_address(addr)
            buf._atoll_handle = self._h  # the mapping stays while any view of it lives
            arr = np.frombuffer(buf, dtype=self.dtype).reshape(shape)
        if not self.writable:
            arr.flags.writeable = False
        return tuple(lo), tuple(hi), arr

    @property
    def nblocks(self):
        return len(self.blocks)

    def numpy(self):
        """The whole array as one NumPy array over the mapping (zero copy): one block only."""
        if len(self.blocks) != 1:
            raise ValueError(
                f"the array has {len(self.blocks)} blocks (separate mappings): use .blocks, or .to_numpy() for a copy"
            )
        return self.blocks[0][2]

    def to_numpy(self):
        """A copy of the whole array in global order."""
        out = np.empty(self.shape, dtype=self.dtype)
        for lo, hi, arr in self.blocks:
            out[tuple(slice(l, h) for l, h in zip(lo, hi))] = arr
        return out

    def signal_post(self, k, n=1):
        """Adds ``n`` to signal ``k`` (0..31), waking up to ``n`` waiters in any process."""
        self._h.signal_post(k, n)

    def signal_wait(self, k, timeout):
        """Takes one post of signal ``k``; ``TimeoutError`` after ``timeout`` seconds."""
        self._h.signal_wait(k, float(timeout))

    def signal_value(self, k):
        """Posts of signal ``k`` not yet taken."""
        return self._h.signal_value(k)

    @property
    def generation(self):
        """The generation counter (the producer bumps it after each update)."""
        return self._h.generation

    def bump_generation(self):
        """Adds one to the generation counter; returns the new value."""
        return self._h.bump_generation()


def attach(name, dir="/dev/shm", writable=False):
    """Opens shared array ``name`` in ``dir`` (made by any Atoll program or ``create``)."""
    return SharedArray(_atoll.SharedHandle(name, str(dir), bool(writable)))


def create(name, shape, dtype="f64", nblocks=1, dir="/dev/shm", keep=False):
    """Makes shared array ``name`` of ``shape`` (zeros) in ``dir`` from this process, laid out
    as a Block distribution over ``nblocks`` locales (an Atoll job of that many locales can
    attach it as a distributed array). Its files are removed when it goes unless ``keep``."""
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    if isinstance(dtype, str) and dtype in _DTYPES:
        code = dtype
    else:
        code = _code(dtype)
    return SharedArray(
        _atoll.SharedHandle.create(name, str(dir), code, [int(s) for s in shape], int(nblocks), bool(keep))
    )


def from_numpy(name, values, nblocks=1, dir="/dev/shm", keep=False):
    """``create`` with the values of a NumPy array (or a pdarray: ``to_ndarray()`` is used),
    copied once into the mappings."""
    if hasattr(values, "to_ndarray"):
        values = values.to_ndarray()
    values = np.asarray(values)
    a = create(name, values.shape, values.dtype, nblocks=nblocks, dir=dir, keep=keep)
    for lo, hi, arr in a.blocks:
        arr[...] = values[tuple(slice(l, h) for l, h in zip(lo, hi))]
    return a


def make(name, size, dtype="float64", dir="/dev/shm", keep=False):
    """A pdarray of ``size`` zeros (int64, uint64 or float64) whose every locale's block is a
    file of shared array ``name`` in ``dir``: other processes ``attach`` it by name while the
    session writes it in place (``p[:] = ...``); the files go with the pdarray unless ``keep``.
    Operations that make new arrays (``p + 1``) make ordinary ones."""

    d = _dtype(dtype)
    return pdarray(_atoll.make_shared_arr(str(name), str(dir), d.name, _size(size), bool(keep)))


def call_c(pda, library, symbol, user=0):
    """Every locale calls the C function ``symbol`` of the shared library ``library`` (a path,
    or a ``ctypes.CDLL``) with a pointer to its own block of ``pda``, all locales at once
    (approach 1 of the Chapel-Grafiki talk: ``coforall loc in Locales do on loc { f(c_ptrTo(A[local block])) }``):

        int symbol(uint32_t locale, uint32_t nlocales, void *data, uint64_t len,
                   uint64_t first_global_index, void *user);

    ``user`` (an int) is passed as the pointer. Each locale loads the library itself, so it
    works under MPI too. A non-zero return on any locale raises ``ValueError``. ``pda`` must
    be a whole int64, uint64 or float64 array (not a slice): the function writes it in place.
    Like any ctypes call, a function of another signature is undefined behaviour."""

    if not isinstance(pda, pdarray):
        raise TypeError(f"pda: expected a pdarray, got {type(pda).__name__}")
    pda._materialize()
    if pda._start != 0 or pda._step != 1 or pda._size != pda._arr.size:
        raise ValueError("call_c writes an array in place: pass a whole array, not a slice")
    if hasattr(library, "_name"):
        library = library._name
    _before_write(pda._arr)
    _atoll.share_call_c(pda._arr, str(library), str(symbol), int(user))
