"""On PYTHONPATH (``python -m atoll.arkouda --path``), ``import arkouda`` gives Atoll.

This package installs Atoll's alias (``atoll.arkouda``) and hands over to ``atoll``.
"""

import sys

import atoll.arkouda as _alias

_alias.install()
import atoll as _atoll  # noqa: E402

sys.modules[__name__] = _atoll
