"""Type names used in the signatures of the Array API namespace."""

from __future__ import annotations

from typing import Any, Literal, Protocol, TypeVar, Union

import numpy as np

__all__ = ["Device", "Dtype", "NestedSequence", "PyCapsule", "SupportsBufferProtocol", "SupportsDLPack"]

_T_co = TypeVar("_T_co", covariant=True)


class NestedSequence(Protocol[_T_co]):
    """A sequence of items or of nested sequences (what ``asarray`` takes, like a list of lists)."""

    def __getitem__(self, key: int, /) -> _T_co | NestedSequence[_T_co]: ...

    def __len__(self, /) -> int: ...


Device = Literal["cpu"]
Dtype = Union[type[np.generic], np.dtype]  # Union: the alias is evaluated on Python 3.9 too
SupportsBufferProtocol = Any
PyCapsule = Any


class SupportsDLPack(Protocol):
    """An object that exports its data through DLPack."""

    def __dlpack__(self, /, *, stream: None = ...) -> PyCapsule: ...
