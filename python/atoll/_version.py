"""The package's version: the installed distribution's, else the source tree's."""

try:
    from importlib.metadata import version as _version

    __version__ = _version("atoll")
except Exception:  # noqa: BLE001  (not installed as a distribution)
    __version__ = "0.1.0"
