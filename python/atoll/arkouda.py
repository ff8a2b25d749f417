"""Run Arkouda scripts unchanged: make ``import arkouda`` (and ``arkouda.<pkg>.<module>``)
resolve to Atoll's modules. Opt-in, never done by ``import atoll`` itself.

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

import importlib
import importlib.abc
import importlib.machinery
import os
import sys

_SHIM = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_arkouda_shim")


def target(name):
    """The Atoll module name that the Arkouda module ``name`` resolves to."""
    return "atoll" + name[len("arkouda") :]


class _Loader(importlib.abc.Loader):
    """Hands out an already imported Atoll module under the Arkouda name (keeping its own
    ``__spec__``, so the module stays what it is under its Atoll name)."""

    def __init__(self, module):
        self._module = module
        self._spec = getattr(module, "__spec__", None)

    def create_module(self, spec):
        return self._module

    def exec_module(self, module):
        module.__spec__ = self._spec


class _Finder(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target_module=None):
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


def install():
    """Makes ``import arkouda`` and ``import arkouda.<...>`` resolve to Atoll (idempotent)."""
    if _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)


def uninstall():
    """Removes the alias (modules already imported as ``arkouda.*`` stay in ``sys.modules``)."""
    if _FINDER in sys.meta_path:
        sys.meta_path.remove(_FINDER)
    for k in [k for k in sys.modules if k == "arkouda" or k.startswith("arkouda.")]:
        del sys.modules[k]


def shim_path():
    """The directory to put on ``PYTHONPATH`` for the alias in interpreters started elsewhere."""
    return _SHIM


def main(argv=None):
    import runpy

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
