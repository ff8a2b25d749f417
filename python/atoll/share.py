"""Shared arrays: arrays whose blocks are memory-mapped files that several processes share.

Atoll jobs in Rust or Python, and C/C++ programs through ``include/atoll.h``, read and write
them in place, with signals to synchronise them::

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

from __future__ import annotations

import ctypes
import os
from typing import Union

import numpy as np
import numpy.typing as npt

from . import _atoll
from .numpy.dtypes import _stored_dtype as _dtype
from .numpy.pdarrayclass import _before_write, _size, pdarray

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


# A path, as ``open`` takes it.
_Path = Union[str, "os.PathLike[str]"]
# A block: its first and one-past-last global index per dimension, and its values.
_Block = tuple[tuple[int, ...], tuple[int, ...], npt.NDArray[np.generic]]


def _code(dtype: npt.DTypeLike) -> str:
    dt = np.dtype(dtype)
    for k, v in _DTYPES.items():
        if np.dtype(v) == dt:
            return k
    raise TypeError(f"shared arrays hold int8..int64, uint8..uint64, float32 or float64, not {dt}")


class SharedArray:
    """An open shared array: its blocks as NumPy arrays, signals and a generation counter.

    Made by ``create``, ``from_numpy`` or ``attach``. The mappings live as long as this object
    or any NumPy array taken from it.

    Parameters
    ----------
    handle : atoll._atoll.SharedHandle
        The native handle.

    Attributes
    ----------
    dtype : numpy.dtype
        The element type.
    shape : tuple of int
        The global shape.
    writable : bool
        Whether the mappings may be written (a read-only attach maps copy-on-write pages).
    blocks : list of tuple
        ``(lo, hi, ndarray)`` per block: its global index range per dimension and a NumPy
        view of its mapping.

    Examples
    --------
    >>> import os
    >>> from atoll import share
    >>> a = share.create(f"doc-sa-{os.getpid()}", (4,), "i64", nblocks=2)
    >>> a.shape, a.dtype, a.nblocks
    ((4,), dtype('int64'), 2)
    >>> [(lo, hi) for lo, hi, _ in a.blocks]
    [((0,), (2,)), ((2,), (4,))]
    """

    def __init__(self, handle: _atoll.SharedHandle) -> None:
        self._h = handle
        self.dtype = np.dtype(_DTYPES[handle.dtype])
        self.shape = tuple(handle.shape)
        self.writable = handle.writable
        self.blocks = [self._block(b) for b in range(handle.nblocks)]

    def _block(self, b: int) -> _Block:
        lo, hi, addr, nbytes = self._h.block(b)
        shape = tuple(h - l for l, h in zip(lo, hi))
        if nbytes == 0:
            arr = np.empty(shape, dtype=self.dtype)
        else:
            buf = (ctypes.c_char * nbytes).from_address(addr)
            buf._atoll_handle = self._h  # type: ignore[attr-defined]  # the mapping stays while any view of it lives
            # A ctypes array is a buffer, which NumPy's stubs do not list.
            arr = np.frombuffer(buf, dtype=self.dtype).reshape(shape)  # type: ignore[call-overload]
        if not self.writable:
            arr.flags.writeable = False
        return tuple(lo), tuple(hi), arr

    @property
    def nblocks(self) -> int:
        """The number of blocks (separate mappings)."""
        return len(self.blocks)

    def numpy(self) -> npt.NDArray[np.generic]:
        """The whole array as one NumPy array over the mapping (zero copy), for one block only.

        Returns
        -------
        numpy.ndarray
            A view of the mapping: writes go to the shared file.

        Raises
        ------
        ValueError
            The array has more than one block.

        Examples
        --------
        >>> import os
        >>> from atoll import share
        >>> a = share.create(f"doc-np-{os.getpid()}", 3, "f64")
        >>> a.numpy()[:] = [1.0, 2.0, 3.0]
        >>> a.to_numpy()
        array([1., 2., 3.])
        """
        if len(self.blocks) != 1:
            raise ValueError(
                f"the array has {len(self.blocks)} blocks (separate mappings): use .blocks, or .to_numpy() for a copy"
            )
        return self.blocks[0][2]

    def to_numpy(self) -> npt.NDArray[np.generic]:
        """A copy of the whole array in global order.

        Returns
        -------
        numpy.ndarray
            The values of every block, of the array's shape.

        Examples
        --------
        >>> import numpy as np
        >>> import os
        >>> from atoll import share
        >>> a = share.from_numpy(f"doc-tn-{os.getpid()}", np.arange(6).reshape(2, 3), nblocks=2)
        >>> a.to_numpy()
        array([[0, 1, 2],
               [3, 4, 5]])
        """
        out = np.empty(self.shape, dtype=self.dtype)
        for lo, hi, arr in self.blocks:
            out[tuple(slice(l, h) for l, h in zip(lo, hi))] = arr
        return out

    def signal_post(self, k: int, n: int = 1) -> None:
        """Add ``n`` to signal ``k``, waking up to ``n`` waiters in any process.

        Parameters
        ----------
        k : int
            The signal, 0 to 31.
        n : int, default 1
            The posts to add.

        Examples
        --------
        >>> import os
        >>> from atoll import share
        >>> a = share.create(f"doc-sp-{os.getpid()}", 1)
        >>> a.signal_post(0, 2)
        >>> a.signal_value(0)
        2
        """
        self._h.signal_post(k, n)

    def signal_wait(self, k: int, timeout: float) -> None:
        """Take one post of signal ``k``, waiting for one at most ``timeout`` seconds.

        Parameters
        ----------
        k : int
            The signal, 0 to 31.
        timeout : float
            Seconds to wait at most.

        Raises
        ------
        TimeoutError
            No post came within ``timeout``.

        Examples
        --------
        >>> import os
        >>> from atoll import share
        >>> a = share.create(f"doc-sw-{os.getpid()}", 1)
        >>> a.signal_post(1)
        >>> a.signal_wait(1, timeout=1)
        >>> a.signal_wait(1, timeout=0.01)
        Traceback (most recent call last):
        ...
        TimeoutError: ...
        """
        self._h.signal_wait(k, float(timeout))

    def signal_value(self, k: int) -> int:
        """The posts of signal ``k`` not yet taken.

        Parameters
        ----------
        k : int
            The signal, 0 to 31.

        Returns
        -------
        int
            The count.

        Examples
        --------
        >>> import os
        >>> from atoll import share
        >>> a = share.create(f"doc-sv-{os.getpid()}", 1)
        >>> a.signal_value(3)
        0
        """
        return self._h.signal_value(k)

    @property
    def generation(self) -> int:
        """The generation counter (the producer bumps it after each update)."""
        return self._h.generation

    def bump_generation(self) -> int:
        """Add one to the generation counter (the producer's note that it updated the values).

        Returns
        -------
        int
            The new value.

        Examples
        --------
        >>> import os
        >>> from atoll import share
        >>> a = share.create(f"doc-bg-{os.getpid()}", 1)
        >>> g = a.generation
        >>> a.bump_generation() == g + 1 == a.generation
        True
        """
        return self._h.bump_generation()


def attach(name: str, dir: _Path = "/dev/shm", writable: bool = False) -> SharedArray:
    """Open the shared array ``name`` in ``dir``, made by any Atoll program or ``create``.

    Parameters
    ----------
    name : str
        The shared array's name.
    dir : str or path, default '/dev/shm'
        The folder of its files.
    writable : bool, default False
        Map it for writing; else private copy-on-write pages and read-only NumPy arrays.

    Returns
    -------
    SharedArray
        The open array (no copy).

    Raises
    ------
    OSError
        A file is missing or not a shared array's, naming the defect.

    Examples
    --------
    >>> import numpy as np
    >>> import os
    >>> from atoll import share
    >>> name = f"doc-at-{os.getpid()}"
    >>> a = share.from_numpy(name, np.array([1.5, 2.5]))
    >>> b = share.attach(name)
    >>> b.to_numpy(), b.writable
    (array([1.5, 2.5]), False)
    """
    return SharedArray(_atoll.SharedHandle(name, str(dir), bool(writable)))


def create(
    name: str,
    shape: int | tuple[int, ...],
    dtype: npt.DTypeLike = "f64",
    nblocks: int = 1,
    dir: _Path = "/dev/shm",
    keep: bool = False,
) -> SharedArray:
    """Make the shared array ``name`` of zeros in ``dir`` from this process.

    It is laid out as a Block distribution over ``nblocks`` locales: an Atoll job of that many
    locales can attach it as a distributed array.

    Parameters
    ----------
    name : str
        The shared array's name.
    shape : int or tuple of int
        Its shape.
    dtype : str or dtype, default 'f64'
        ``'i8'`` ... ``'i64'``, ``'u8'`` ... ``'u64'``, ``'f32'``, ``'f64'``, or a NumPy dtype
        of those.
    nblocks : int, default 1
        The number of blocks (the locales of its Block distribution).
    dir : str or path, default '/dev/shm'
        The folder of its files.
    keep : bool, default False
        Keep the files when the array goes; else they are removed then.

    Returns
    -------
    SharedArray
        The new array, writable.

    Raises
    ------
    TypeError
        ``dtype`` is not one of the dtypes above.
    OSError
        A file of that name exists, or the files cannot be made.

    Examples
    --------
    >>> import numpy as np
    >>> import os
    >>> from atoll import share
    >>> a = share.create(f"doc-cr-{os.getpid()}", (2, 2), np.int32)
    >>> a.to_numpy()
    array([[0, 0],
           [0, 0]], dtype=int32)
    >>> share.create(f"doc-cr2-{os.getpid()}", 2, np.complex128)
    Traceback (most recent call last):
    ...
    TypeError: shared arrays hold int8..int64, uint8..uint64, float32 or float64, not complex128
    """
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    if isinstance(dtype, str) and dtype in _DTYPES:
        code = dtype
    else:
        code = _code(dtype)
    return SharedArray(
        _atoll.SharedHandle.create(name, str(dir), code, [int(s) for s in shape], int(nblocks), bool(keep))
    )


def from_numpy(
    name: str, values: npt.ArrayLike | pdarray, nblocks: int = 1, dir: _Path = "/dev/shm", keep: bool = False
) -> SharedArray:
    """``create`` with the values of a NumPy array, copied once into the mappings.

    Parameters
    ----------
    name : str
        The shared array's name.
    values : array_like or pdarray
        The values (a pdarray's ``to_ndarray()``); their shape and dtype are the array's.
    nblocks : int, default 1
        The number of blocks.
    dir : str or path, default '/dev/shm'
        The folder of its files.
    keep : bool, default False
        Keep the files when the array goes.

    Returns
    -------
    SharedArray
        The new array, writable.

    Raises
    ------
    TypeError
        The values' dtype is not one a shared array holds.
    OSError
        A file of that name exists, or the files cannot be made.

    Examples
    --------
    >>> import atoll as ak
    >>> import os
    >>> from atoll import share
    >>> a = share.from_numpy(f"doc-fn-{os.getpid()}", ak.arange(5), nblocks=2)
    >>> a.to_numpy()
    array([0, 1, 2, 3, 4])
    """
    v = np.asarray(values.to_ndarray() if isinstance(values, pdarray) else values)
    a = create(name, v.shape, v.dtype, nblocks=nblocks, dir=dir, keep=keep)
    for lo, hi, arr in a.blocks:
        arr[...] = v[tuple(slice(l, h) for l, h in zip(lo, hi))]
    return a


def make(
    name: str, size: int, dtype: npt.DTypeLike = "float64", dir: _Path = "/dev/shm", keep: bool = False
) -> pdarray:
    """A pdarray of zeros whose every locale's block is a file of the shared array ``name``.

    Other processes ``attach`` it by name while the session writes it in place
    (``p[:] = ...``). Operations that make new arrays (``p + 1``) make ordinary ones.

    Parameters
    ----------
    name : str
        The shared array's name.
    size : int
        The number of elements.
    dtype : {'float64', 'int64', 'uint64'}, default 'float64'
        The element type.
    dir : str or path, default '/dev/shm'
        The folder of its files.
    keep : bool, default False
        Keep the files when the pdarray goes; else they go with it.

    Returns
    -------
    pdarray
        The zeros, one block per locale.

    Raises
    ------
    OSError
        A file of that name exists, or the files cannot be made.

    Examples
    --------
    >>> import atoll as ak
    >>> import os
    >>> from atoll import share
    >>> name = f"doc-mk-{os.getpid()}"
    >>> p = share.make(name, 4, "int64")
    >>> p[:] = ak.arange(4) * 10
    >>> share.attach(name).to_numpy()
    array([ 0, 10, 20, 30])
    """
    d = _dtype(dtype)
    return pdarray(_atoll.make_shared_arr(str(name), str(dir), d.name, _size(size), bool(keep)))


def call_c(pda: pdarray, library: _Path | ctypes.CDLL, symbol: str, user: int = 0) -> None:
    """Every locale calls a C function with a pointer to its own block of ``pda``, all at once.

    Approach 1 of the Chapel-Grafiki talk
    (``coforall loc in Locales do on loc { f(c_ptrTo(A[local block])) }``). The function's
    signature is::

        int symbol(uint32_t locale, uint32_t nlocales, void *data, uint64_t len,
                   uint64_t first_global_index, void *user);

    Each locale loads the library itself, so it works under MPI too. Like any ctypes call, a
    function of another signature is undefined behaviour.

    Parameters
    ----------
    pda : pdarray
        A whole int64, uint64 or float64 array (not a slice): the function writes it in place.
    library : str, path or ctypes.CDLL
        The shared library.
    symbol : str
        The function's name in it.
    user : int, default 0
        Passed as the ``user`` pointer.

    Raises
    ------
    TypeError
        ``pda`` is not a pdarray.
    ValueError
        ``pda`` is a slice, or the function returned non-zero on a locale.

    Examples
    --------
    A function that is not there:

    >>> import atoll as ak

    >>> from atoll import share
    >>> share.call_c(ak.zeros(4), "libc.so.6", "no_such_function")
    Traceback (most recent call last):
    ...
    ValueError: ...
    >>> share.call_c(ak.zeros(4)[1:], "libc.so.6", "abs")
    Traceback (most recent call last):
    ...
    ValueError: call_c writes an array in place: pass a whole array, not a slice
    """
    if not isinstance(pda, pdarray):
        raise TypeError(f"pda: expected a pdarray, got {type(pda).__name__}")
    pda._materialize()
    if pda._start != 0 or pda._step != 1 or pda._size != pda._arr.size:
        raise ValueError("call_c writes an array in place: pass a whole array, not a slice")
    path = library._name if isinstance(library, ctypes.CDLL) else os.fspath(library)
    _before_write(pda._arr)
    _atoll.share_call_c(pda._arr, str(path), str(symbol), int(user))
