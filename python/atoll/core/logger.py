"""Arkouda's ``arkouda.core.logger``: loggers built on Python's ``logging``.

``ArkoudaLogger`` is a ``logging.Logger`` at level DEBUG whose handlers decide what is
shown: by default one ``StreamHandler`` named ``"console-handler"`` at the level asked for
(``ARKOUDA_LOG_LEVEL`` in the environment, else INFO). ``change_log_level`` sets the
handlers' level (all, or those named), ``enable_verbose``/``disable_verbose`` switch one
logger to DEBUG and back, and the module's ``enable_verbose``/``disable_verbose`` do it for
every logger made by ``get_arkouda_logger``. ``write_log`` writes a message to the log of
the job: Arkouda's server log is, for an in-process job, the logging logger
``"atoll.server"``. Loggers live in the driver (the program; rank 0 under MPI).

>>> from atoll.core.logger import get_arkouda_logger, LogLevel
>>> log = get_arkouda_logger("docLogger", log_level=LogLevel.WARN)
>>> log.get_handler("console-handler").level == LogLevel.WARN.level
True
>>> log.enable_verbose()
>>> log.get_handler("console-handler").level == LogLevel.DEBUG.level
True
>>> log.disable_verbose()
>>> log.get_handler("console-handler").level == LogLevel.INFO.level
True
"""

import logging
import os
from enum import Enum
from logging import CRITICAL, DEBUG, ERROR, INFO, WARN, Formatter, Handler, Logger, StreamHandler

__all__ = [
    "LogLevel",
    "ArkoudaLogger",
    "get_arkouda_logger",
    "get_arkouda_client_logger",
    "getArkoudaLogger",
    "getArkoudaClientLogger",
    "enable_verbose",
    "disable_verbose",
    "enableVerbose",
    "disableVerbose",
    "write_log",
    "loggers",
]

# Every logger made by get_arkouda_logger, by name (the module's verbosity switches act on
# them all).
loggers = {}


class LogLevel(Enum):
    """The log levels by name (their values are the names, as Arkouda's)."""

    DEBUG = "DEBUG"
    CRITICAL = "CRITICAL"
    INFO = "INFO"
    WARN = "WARN"
    ERROR = "ERROR"

    @property
    def level(self):
        """The ``logging`` module's number of the level."""
        return ArkoudaLogger.levelMappings[self]


_UNSET = object()


def _level(x, what):
    if not isinstance(x, LogLevel):
        raise TypeError(f"{what}: expected a LogLevel, got {type(x).__name__}")
    return ArkoudaLogger.levelMappings[x]


class ArkoudaLogger(Logger):
    """A ``logging.Logger`` at level DEBUG whose handlers hold the levels (see the module)."""

    DEFAULT_LOG_FORMAT = "[%(name)s] Line %(lineno)d %(levelname)s: %(message)s"
    CLIENT_LOG_FORMAT = ""
    levelMappings = {
        LogLevel.DEBUG: DEBUG,
        LogLevel.INFO: INFO,
        LogLevel.WARN: WARN,
        LogLevel.ERROR: ERROR,
        LogLevel.CRITICAL: CRITICAL,
    }

    def __init__(self, name, log_level=_UNSET, handlers=None, log_format=DEFAULT_LOG_FORMAT, **kwargs):
        """``name``: a str; ``log_level``: the level of the default handler (a ``LogLevel``,
        INFO when not given); ``handlers``: a list of ``logging.Handler`` (their own levels
        kept), else one ``StreamHandler`` named ``"console-handler"``; ``log_format``: the
        format set on every handler (none when empty). ``TypeError`` for other types."""
        if kwargs:
            raise TypeError(f"unexpected keyword argument(s): {', '.join(kwargs)}")
        if not isinstance(name, str):
            raise TypeError(f"name: expected a str, got {type(name).__name__}")
        level = _level(LogLevel.INFO if log_level is _UNSET else log_level, "log_level")
        if not isinstance(log_format, str):
            raise TypeError(f"log_format: expected a str, got {type(log_format).__name__}")
        if handlers is not None and (
            not isinstance(handlers, list) or not all(isinstance(h, Handler) for h in handlers)
        ):
            raise TypeError("handlers: expected a list of logging.Handler")
        super().__init__(name=name, level=DEBUG)
        if handlers is None:
            h = StreamHandler()
            h.name = "console-handler"
            h.setLevel(level)
            handlers = [h]
        for h in handlers:
            if log_format:
                h.setFormatter(Formatter(log_format))
            self.addHandler(h)

    def change_log_level(self, level, handlerNames=None):
        """Sets the level of every handler, or of the handlers named in ``handlerNames``."""
        new = _level(level, "level")
        if handlerNames is not None and (
            not isinstance(handlerNames, list) or not all(isinstance(n, str) for n in handlerNames)
        ):
            raise TypeError("handlerNames: expected a list of str")
        for h in self.handlers:
            if handlerNames is None or h.name in handlerNames:
                h.setLevel(new)

    def enable_verbose(self):
        """Shows DEBUG messages: every handler at DEBUG."""
        self.change_log_level(LogLevel.DEBUG)

    def disable_verbose(self, log_level=_UNSET, **kwargs):
        """Hides DEBUG messages: every handler at ``log_level`` (a ``LogLevel``, INFO when
        not given; ``TypeError`` for anything else)."""
        if kwargs:
            raise TypeError(f"unexpected keyword argument(s): {', '.join(kwargs)}")
        self.change_log_level(LogLevel.INFO if log_level is _UNSET else log_level)

    def get_handler(self, name):
        """The handler named ``name`` (``ValueError`` when there is none)."""
        if not isinstance(name, str):
            raise TypeError(f"name: expected a str, got {type(name).__name__}")
        for h in self.handlers:
            if h.name == name:
                return h
        raise ValueError(f"The name {name} does not match any handler")

    # Arkouda's older camel-case names.
    changeLogLevel = change_log_level
    enableVerbose = enable_verbose
    disableVerbose = disable_verbose
    getHandler = get_handler


def get_arkouda_logger(name, handlers=None, log_format=None, log_level=None, **kwargs):
    """A new ``ArkoudaLogger`` (see the class), kept by name for the module's verbosity
    switches. ``log_format`` defaults to ``ArkoudaLogger.DEFAULT_LOG_FORMAT``, ``log_level``
    to the environment's ``ARKOUDA_LOG_LEVEL`` (``ValueError`` when that is not a level
    name), else INFO."""
    if kwargs:
        raise TypeError(f"unexpected keyword argument(s): {', '.join(kwargs)}")
    if log_format is None:
        log_format = ArkoudaLogger.DEFAULT_LOG_FORMAT
    if log_level is None:
        env = os.getenv("ARKOUDA_LOG_LEVEL", "INFO")
        try:
            log_level = LogLevel(env.upper())
        except ValueError:
            raise ValueError(f"Invalid ARKOUDA_LOG_LEVEL={env!r}") from None
    logger = ArkoudaLogger(name=name, handlers=handlers, log_format=log_format, log_level=log_level)
    loggers[logger.name] = logger
    return logger


def get_arkouda_client_logger(name):
    """A logger for messages meant for the user: no format (the bare message), the level of
    ``ARKOUDA_LOG_LEVEL`` (INFO by default)."""
    return get_arkouda_logger(name=name, log_format=ArkoudaLogger.CLIENT_LOG_FORMAT)


def enable_verbose():
    """Every logger made by ``get_arkouda_logger`` shows DEBUG messages."""
    for logger in loggers.values():
        logger.enable_verbose()


def disable_verbose(logLevel=LogLevel.INFO):
    """Every logger made by ``get_arkouda_logger`` back to ``logLevel`` (INFO)."""
    _level(logLevel, "logLevel")
    for logger in loggers.values():
        logger.disable_verbose(logLevel)


# The job's log: Arkouda's server log, here a logging logger of the driver.
_server_log = logging.getLogger("atoll.server")


def write_log(log_msg, tag="ClientGeneratedLog", log_lvl=LogLevel.INFO):
    """Writes ``log_msg`` to the job's log (the ``atoll.server`` logging logger) at
    ``log_lvl``, tagged with ``tag`` where Arkouda's server log names the function."""
    if not isinstance(log_msg, str) or not isinstance(tag, str):
        raise TypeError("log_msg and tag: expected str")
    _server_log.log(_level(log_lvl, "log_lvl"), "[%s] %s", tag, log_msg)


# Arkouda's older camel-case names.
getArkoudaLogger = get_arkouda_logger
getArkoudaClientLogger = get_arkouda_client_logger
enableVerbose = enable_verbose
disableVerbose = disable_verbose
