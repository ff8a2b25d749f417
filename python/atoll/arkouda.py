"""Run Arkouda scripts unchanged.

Make ``import arkouda`` (and ``arkouda.<pkg>.<module>``) resolve to Atoll's modules. Opt-in,
never done by ``import atoll`` itself.

- ``python -m atoll.arkouda script.py [args]`` or ``python -m atoll.arkouda -m pytest ...``
  runs a script or a module with the alias installed (also under ``mpiexec``).
- ``PYTHONPATH="$(python -m atoll.arkouda --path)" python script.py``: the same for tools
  that start interpreters of their own (the directory holds a one-file ``arkouda`` package
  that installs the alias when it is imported).
- ``import atoll.arkouda; atoll.arkouda.install()`` in a program, before ``import arkouda``.

Atoll's package has Arkouda's layout (``numpy/``, ``pandas/``, ``scipy/``, ``core/``,
``testing/``, with Arkouda's module names), so the map is the package name alone:
``arkouda.<rest>`` is the very module object ``atoll.<rest>`` (not a copy), and
``arkouda.numpy.pdarrayclass.pdarray is atoll.pdarray``.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import os
import runpy
import sys
from collections.abc import Sequence
from types import ModuleType

_SHIM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_arkouda_shim")


def target(name: str) -> str:
    """The Atoll module name that the Arkouda module ``name`` resolves to.

    Parameters
    ----------
    name : str
        ``arkouda`` or a dotted name under it.

    Returns
    -------
    str
        The same name under ``atoll``.

    Examples
    --------
    >>> from atoll.arkouda import target
    >>> target("arkouda.numpy.pdarrayclass")
    'atoll.numpy.pdarrayclass'
    """
    return "atoll" + name[len("arkouda") :]


class _Loader(importlib.abc.Loader):
    """Hands out an already imported Atoll module under the Arkouda name.

    The module keeps its own ``__spec__``, so it stays what it is under its Atoll name.
    """

    def __init__(self, module: ModuleType) -> None:
        self._module = module
        self._spec = getattr(module, "__spec__", None)

    def create_module(self, spec: importlib.machinery.ModuleSpec) -> ModuleType:
        return self._module

    def exec_module(self, module: ModuleType) -> None:
        module.__spec__ = self._spec


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(
        self, fullname: str, path: Sequence[str] | None = None, target_module: ModuleType | None = None
    ) -> importlib.machinery.ModuleSpec | None:
        if fullname != "arkouda" and not fullname.startswith("arkouda."):
            return None
        name = target(fullname)
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name is not None and (name == e.name or name.startswith(e.name + ".")):
                raise ModuleNotFoundError(
                    f"No module named {fullname!r} (Atoll's alias: {name!r} does not exist)", name=fullname
                ) from None
            raise
        return importlib.machinery.ModuleSpec(fullname, _Loader(module), is_package=hasattr(module, "__path__"))


_FINDER = _Finder()


def install() -> None:
    """Make ``import arkouda`` and ``import arkouda.<...>`` resolve to Atoll (idempotent).

    Examples
    --------
    >>> import atoll as ak
    >>> import sys
    >>> from atoll import arkouda as alias
    >>> alias.install()
    >>> import arkouda.numpy.pdarrayclass
    >>> sys.modules["arkouda.numpy.pdarrayclass"].pdarray is ak.pdarray
    True
    >>> alias.uninstall()
    """
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)


def uninstall() -> None:
    """Remove the alias and the ``arkouda.*`` entries of ``sys.modules``.

    The modules themselves stay imported under their Atoll names.

    Examples
    --------
    >>> import sys
    >>> from atoll import arkouda as alias
    >>> alias.install()
    >>> import arkouda.numpy
    >>> alias.uninstall()
    >>> "arkouda.numpy" in sys.modules
    False
    """
    if _FINDER in sys.meta_path:
        sys.meta_path.remove(_FINDER)
    for k in [k for k in sys.modules if k == "arkouda" or k.startswith("arkouda.")]:
        del sys.modules[k]


def shim_path() -> str:
    """The directory to put on ``PYTHONPATH`` for the alias in interpreters started elsewhere.

    Returns
    -------
    str
        The directory of the one-file ``arkouda`` package.

    Examples
    --------
    >>> import os
    >>> from atoll.arkouda import shim_path
    >>> os.path.isfile(os.path.join(shim_path(), "arkouda", "__init__.py"))
    True
    """
    return _SHIM


def main(argv: Sequence[str] | None = None) -> int:
    """Run ``python -m atoll.arkouda``: a script or a module with the alias installed, or ``--path``.

    Parameters
    ----------
    argv : sequence of str, optional
        The arguments (None: ``sys.argv[1:]``): ``--path``, ``script.py [args]`` or
        ``-m module [args]``.

    Returns
    -------
    int
        The exit status (2 for a usage error).

    Examples
    --------
    >>> from atoll.arkouda import main
    >>> main(["--path"])  # doctest: +ELLIPSIS
    /.../_arkouda_shim
    0
    """
    args = list(sys.argv[1:] if argv is None else argv)
    usage = "usage: python -m atoll.arkouda (--path | script.py [args] | -m module [args])"
    if not args or args[0] in ("-h", "--help"):
        print(usage)
        return 0 if args else 2
    if args[0] == "--path":
        print(_SHIM)
        return 0
    install()
    # Interpreters this one starts (pytest-xdist workers, multiprocessing) get it too.
    os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (_SHIM, os.environ.get("PYTHONPATH")) if p)
    if args[0] == "-m":
        if len(args) < 2:
            print(usage, file=sys.stderr)
            return 2
        sys.argv = args[1:]
        runpy.run_module(args[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = args
        sys.path.insert(0, os.path.dirname(os.path.abspath(args[0])))
        runpy.run_path(args[0], run_name="__main__")
    return 0


if __name__ == "__main__":
    sys.exit(main())
