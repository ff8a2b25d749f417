"""Hypothesis strategies: 1-D NumPy arrays of the four dtypes."""

import numpy as np
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

SIZES = st.integers(min_value=0, max_value=300)


def arrays(dtype, min_size=0, max_size=300, elements=None):
    if elements is None:
        if dtype == np.float64:
            elements = st.floats(-1e6, 1e6, allow_nan=False, width=64)
        elif dtype == np.int64:
            elements = st.integers(-(10**9), 10**9)
        elif dtype == np.uint64:
            elements = st.integers(0, 10**9)
        else:
            elements = st.booleans()
    return hnp.arrays(dtype, st.integers(min_size, max_size), elements=elements)


DTYPES = [np.int64, np.uint64, np.float64, np.bool_]
