"""Arkouda's ``arkouda.scipy.special``: SciPy's special functions on pdarrays."""

from __future__ import annotations

from ._math import xlogy

__all__ = ["xlogy"]
