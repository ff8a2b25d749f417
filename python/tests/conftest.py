"""The suite runs on the locale count of ATOLL_LOCALES (make test-python runs 1, 2 and 4) or
under mpiexec (ATOLL_BACKEND=mpi); the same files either way."""

import os

import atoll as ak
import numpy as np
from hypothesis import settings

settings.register_profile("atoll", max_examples=int(os.environ.get("ATOLL_HYPOTHESIS_EXAMPLES", "25")), deadline=None)
settings.load_profile("atoll")


def pytest_report_header(config):
    return f"atoll: {ak.num_locales()} locales, backend {ak.backend()}"


def assert_same(got, want, exact=True):
    """``got`` (a pdarray or scalar) equals NumPy's ``want``, dtype included."""
    if isinstance(got, ak.pdarray):
        g = got.to_ndarray()
        assert g.dtype == np.asarray(want).dtype, (g.dtype, np.asarray(want).dtype)
        if exact:
            np.testing.assert_array_equal(g, want)
        else:
            np.testing.assert_allclose(g, want, rtol=1e-12, atol=1e-12, equal_nan=True)
    else:
        if exact:
            assert got == want or (np.isnan(got) and np.isnan(want)), (got, want)
        else:
            np.testing.assert_allclose(got, want, rtol=1e-9, equal_nan=True)
