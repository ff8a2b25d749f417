"""The docstrings' Examples (``pytest --doctest-modules``, ``make test``) run with the package as
``ak`` and NumPy as ``np`` in their namespace, as Arkouda's are written, on a job of ATOLL_LOCALES
locales."""

import atoll as ak
import numpy as np
import pytest


@pytest.fixture(autouse=True, scope="session")
def _doctest_names(doctest_namespace):
    doctest_namespace["ak"] = ak
    doctest_namespace["np"] = np
