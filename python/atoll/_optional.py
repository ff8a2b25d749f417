"""The optional libraries, imported on first use: ``import atoll`` needs NumPy alone.

Each accessor stands for one library and imports it the first time one of its attributes is
read, so that a module may write ``from .._optional import pd`` at its top and ``pd.Series``
in its functions. Where the library is not installed, that first read raises an
``ImportError`` naming the function that needed it and the extra that installs it::

    ImportError: atoll: DataFrame.to_pandas needs pandas; pip install 'atoll[pandas]'

A type test must not import a library only to learn that an object is not of its types: an
object can be a pandas Series only when pandas is already imported, so such tests read
``loaded("pandas") and isinstance(x, pd.Series)``.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from types import ModuleType
from typing import Any

__all__ = ["LazyModule", "loaded", "has", "pd", "pa", "pq", "h5py", "scipy_stats", "pl"]


class LazyModule:
    """A module-like stand-in for the library ``name``, imported at the first attribute read.

    Later reads go to the library. Where it is missing, the first read raises an ``ImportError``
    that names the function that needed it and the extra ``extra`` that installs it.

    Parameters
    ----------
    name : str
        The library's module (``"pandas"``, ``"pyarrow.parquet"``).
    extra : str, optional
        Atoll's extra that installs it (``pip install 'atoll[extra]'``); by default the
        message names the library's own package.

    Examples
    --------
    >>> from atoll._optional import LazyModule
    >>> fractions = LazyModule("fractions")
    >>> fractions
    <atoll lazy module 'fractions' (not imported yet)>
    >>> fractions.Fraction(1, 3) + fractions.Fraction(1, 6)
    Fraction(1, 2)
    >>> missing = LazyModule("no_such_library", extra="io")
    >>> missing.read
    Traceback (most recent call last):
    ...
    ImportError: atoll: no_such_library.read needs no_such_library; pip install 'atoll[io]'
    """

    __slots__ = ("_name", "_extra", "_module")

    def __init__(self, name: str, extra: str | None = None) -> None:
        self._name = name
        self._extra = extra
        self._module: ModuleType | None = None

    def _load(self, feature: str) -> ModuleType:
        module = self._module
        if module is None:
            try:
                module = importlib.import_module(self._name)
            except ImportError as e:
                top = self._name.split(".")[0]
                how = f"pip install 'atoll[{self._extra}]'" if self._extra else f"pip install {top}"
                raise ImportError(f"atoll: {feature} needs {top}; {how}", name=self._name) from e
            self._module = module
        return module

    def __getattr__(self, attr: str) -> Any:  # noqa: ANN401 (an attribute of any library)
        if attr.startswith("__") and attr.endswith("__"):
            # Introspection (``hasattr(x, "__wrapped__")``, copy, pickle) imports nothing.
            if self._module is None:
                raise AttributeError(attr)
            return getattr(self._module, attr)
        # The caller's function names the feature in the message: ``DataFrame.to_pandas``.
        code = sys._getframe(1).f_code
        feature = getattr(code, "co_qualname", code.co_name)
        if feature == "<module>":
            feature = f"{self._name}.{attr}"
        return getattr(self._load(feature), attr)

    def __dir__(self) -> list[str]:
        return dir(self._load(self._name))

    def __repr__(self) -> str:
        state = "imported" if self._module is not None else "not imported yet"
        return f"<atoll lazy module {self._name!r} ({state})>"


def loaded(name: str) -> bool:
    """Whether the library ``name`` is imported already (never imports it).

    An object can be of one of the library's types only then.

    Parameters
    ----------
    name : str
        The library's module.

    Returns
    -------
    bool
        Whether ``sys.modules`` holds it.

    Examples
    --------
    >>> from atoll._optional import loaded
    >>> loaded("numpy")
    True
    >>> loaded("no_such_library")
    False
    """
    return sys.modules.get(name) is not None


def has(name: str) -> bool:
    """Whether the library ``name`` can be imported (without importing it, for a top-level name).

    Parameters
    ----------
    name : str
        The library's module.

    Returns
    -------
    bool
        Whether it is imported already or can be found; ``False`` where ``sys.modules[name]``
        is ``None`` (an import blocked on purpose).

    Examples
    --------
    >>> from atoll._optional import has
    >>> has("numpy"), has("no_such_library")
    (True, False)
    """
    if loaded(name):
        return True
    if name in sys.modules:  # ``sys.modules[name] = None`` blocks the import
        return False
    try:
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


# pandas: Series, DataFrame and Index conversions, the pandas-layer asserters, pandas' readers.
pd = LazyModule("pandas", extra="pandas")
# Arrow and HDF5 from Python (Atoll's own readers and writers are native and need neither).
pa = LazyModule("pyarrow", extra="io")
pq = LazyModule("pyarrow.parquet", extra="io")
h5py = LazyModule("h5py", extra="io")
# SciPy's distributions, for the p-values of ``atoll.scipy``.
scipy_stats = LazyModule("scipy.stats")
pl = LazyModule("polars")
