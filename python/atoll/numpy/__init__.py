"""Arkouda's ``arkouda.numpy`` namespace on Atoll.

Pdarrays, Strings, their creation, elementwise functions, reductions, sorting and set
operations, dtypes, ``random``. The modules carry Arkouda's names
(``atoll.numpy.pdarrayclass``, ``atoll.numpy.pdarraycreation``, ...), so ``arkouda.numpy.X``
is ``atoll.numpy.X``.
"""

# The modules of this package sit in different layers of ``atoll`` (tools/py_import_cycles.py),
# and a package's ``__init__`` runs whenever one of its modules is first imported: this one
# imports none of them. ``atoll.numpy._namespace`` sets the names on the package; the root
# ``atoll/__init__.py`` runs it.

newaxis = None
inf = float("inf")
nan = float("nan")
pi = 3.141592653589793
e = 2.718281828459045
euler_gamma = 0.5772156649015329
