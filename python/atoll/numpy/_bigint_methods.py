"""Methods of ``BigIntArray`` that call modules above ``atoll.numpy._bigint``.

The elementwise functions, creation and sorting: defined here, where both are known, and set on
the class by ``atoll._attach.attach``; the root ``atoll/__init__.py`` runs this module.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, cast

import numpy as np

from .._attach import attach
from ._bigint import _ALL, _TOP, _ZERO, BigIntArray, _neg, _zeros
from .numeric import where
from .pdarrayclass import pdarray
from .sorting import coargsort

if TYPE_CHECKING:
    _Base = BigIntArray  # the methods see the class they are set on
else:
    _Base = object


class _BigIntArrayMethods(_Base):
    def _sign_limb(self) -> pdarray:
        top = self._limbs[-1]

        return cast(pdarray, where(top >= _TOP, _ALL, _ZERO)._materialize())

    def __abs__(self) -> BigIntArray:
        n = _neg(self)
        neg = self._limbs[-1] >= _TOP
        return BigIntArray([where(neg, a, b) for a, b in zip(n, self._ext(len(n)))], self._mb)

    def ctz(self) -> pdarray:
        """The number of trailing zero bits of each value.

        The lowest set bit's position; 0 for 0, as Arkouda defines it; found limb by limb from
        the least significant (uint64).
        """
        tz = found = None
        for x in self._magnitude():
            zero = x == 0
            here = where(zero, np.uint64(64), x.ctz())
            tz = here if tz is None else where(found, tz, tz + here)
            found = ~zero if found is None else found | ~zero
        return cast(pdarray, where(found, tz, _ZERO)._materialize())

    def clz(self) -> pdarray:
        """The number of leading zero bits of each value within ``max_bits``.

        ``max_bits`` minus the value's bit length (uint64); needs ``max_bits``, as in Arkouda.
        """
        if self._mb < 0:
            raise ValueError("max_bits must be set to count leading zeros")

        length = _zeros(self._size)
        for i, x in enumerate(self._limbs):
            length = where(x != 0, np.uint64(64 * (i + 1)) - x.clz(), length)
        return cast(pdarray, (np.uint64(self._mb) - length)._materialize())

    def argsort(self, algorithm: object = None, axis: int = 0, ascending: bool = True) -> pdarray:
        """The permutation that sorts the values (``algorithm`` and ``axis`` are Arkouda's, unused)."""
        return coargsort(self._grouping_keys(), ascending=ascending)


attach(BigIntArray, _BigIntArrayMethods)
