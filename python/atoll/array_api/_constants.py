"""The constants of the Array API standard.

``e``, ``inf``, ``nan`` and ``pi``: Python floats, NumPy's values.
"""

from __future__ import annotations

import numpy as np

__all__ = ["e", "inf", "nan", "pi"]

e = float(np.e)
inf = float(np.inf)
nan = float(np.nan)
pi = float(np.pi)
