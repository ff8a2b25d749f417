"""Seeds of independent random streams, as ``atoll_util::Stream`` derives them in Rust.

Every seeded draw is a function of its seed and its element's index only, so the values are
the same on any number of locales. Where Python derives a new seed from an old one (the
draws of a ``Generator``, the words of a wide ``randint``), it takes the key of the stream
``(seed, i)`` here rather than ``seed + i``: related seeds would give shifted copies of one
another's draws.
"""

__all__ = ["mix", "stream_key"]

_M64 = (1 << 64) - 1
_GAMMA = 0x9E3779B97F4A7C15


def mix(seed: int, i: int) -> int:
    """SplitMix64's word ``i`` from the state ``seed``: ``mix(seed + (i + 1) * GAMMA)``.

    The same function as the Rust ``atoll_util::mix`` of ``seed + i * GAMMA``.

    Parameters
    ----------
    seed : int
        The generator's state, taken modulo 2**64.
    i : int
        The index of the word, 0 for the first.

    Returns
    -------
    int
        The word, in ``[0, 2**64)``.

    Examples
    --------
    SplitMix64's first word from the state 0:

    >>> from atoll._stream import mix
    >>> hex(mix(0, 0))
    '0xe220a8397b1dcdaf'
    """
    z = (seed + ((i + 1) * _GAMMA & _M64)) & _M64
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
    return z ^ (z >> 31)


def stream_key(seed: int, i: int) -> int:
    """The key of the stream ``(seed, i)``: ``mix(mix(seed) + i * GAMMA)``.

    Hashing the seed first keeps related seeds (``s`` and ``s + 1``, ``s`` and
    ``s + GAMMA``) from giving shifted copies of one another's draws.

    Parameters
    ----------
    seed : int
        The parent seed; its low 64 bits count.
    i : int
        The index of the stream under that seed.

    Returns
    -------
    int
        The stream's seed, in ``[0, 2**64)``.

    Examples
    --------
    The stream ``(seed, i)`` is the word ``i`` of the state ``mix(seed, 0)``:

    >>> from atoll._stream import mix, stream_key
    >>> stream_key(1, 2) == mix(mix(1, 0), 2)
    True
    >>> stream_key(1, 2) != stream_key(2, 1)
    True
    """
    return mix(mix(seed & _M64, 0), i)
