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

from __future__ import annotations

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
loggers: dict[str, ArkoudaLogger] = {}


class LogLevel(Enum):
    """The log levels by name (their values are the names, as Arkouda's)."""

    DEBUG = "DEBUG"
    CRITICAL = "CRITICAL"
    INFO = "INFO"
    WARN = "WARN"
    ERROR = "ERROR"

    @property
    def level(self) -> int:
        """The ``logging`` module's number of the level."""
        return ArkoudaLogger.levelMappings[self]


class _Unset(Enum):
    """The default of a level argument that is not given (``None`` is a wrong level)."""

    UNSET = "unset"


_UNSET = _Unset.UNSET


def _level(x: object, what: str) -> int:
    if not isinstance(x, LogLevel):
        raise TypeError(f"{what}: expected a LogLevel, got {type(x).__name__}")
    return ArkoudaLogger.levelMappings[x]


class ArkoudaLogger(Logger):
    """A ``logging.Logger`` at level DEBUG whose handlers hold the levels (see the module).

    Parameters
    ----------
    name : str
        The logger's name.
    log_level : LogLevel, default LogLevel.INFO
        The level of the default handler.
    handlers : list of logging.Handler, optional
        The handlers (their own levels kept); by default one ``StreamHandler`` named
        ``"console-handler"``.
    log_format : str, default ArkoudaLogger.DEFAULT_LOG_FORMAT
        The format set on every handler (none when empty).
    **kwargs
        None is taken: any raises ``TypeError``.

    Raises
    ------
    TypeError
        An argument of another type, or an unknown keyword.

    Examples
    --------
    >>> import logging, sys
    >>> from atoll.core.logger import ArkoudaLogger, LogLevel
    >>> out = logging.StreamHandler(sys.stdout)
    >>> log = ArkoudaLogger("docClass", handlers=[out], log_format="%(levelname)s %(message)s")
    >>> log.info("ready")
    INFO ready
    """

    DEFAULT_LOG_FORMAT = "[%(name)s] Line %(lineno)d %(levelname)s: %(message)s"
    CLIENT_LOG_FORMAT = ""
    levelMappings = {
        LogLevel.DEBUG: DEBUG,
        LogLevel.INFO: INFO,
        LogLevel.WARN: WARN,
        LogLevel.ERROR: ERROR,
        LogLevel.CRITICAL: CRITICAL,
    }

    def __init__(
        self,
        name: str,
        log_level: LogLevel | _Unset = _UNSET,
        handlers: list[Handler] | None = None,
        log_format: str = DEFAULT_LOG_FORMAT,
        **kwargs: object,
    ) -> None:
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
            console = StreamHandler()
            console.name = "console-handler"
            console.setLevel(level)
            handlers = [console]
        for h in handlers:
            if log_format:
                h.setFormatter(Formatter(log_format))
            self.addHandler(h)

    def change_log_level(self, level: LogLevel, handlerNames: list[str] | None = None) -> None:
        """Set the level of every handler, or of the handlers named in ``handlerNames``.

        Parameters
        ----------
        level : LogLevel
            The new level.
        handlerNames : list of str, optional
            The handlers to change; all by default.

        Raises
        ------
        TypeError
            ``level`` is not a LogLevel, or ``handlerNames`` not a list of str.

        Examples
        --------
        >>> from atoll.core.logger import get_arkouda_logger, LogLevel
        >>> log = get_arkouda_logger("docChange")
        >>> log.change_log_level(LogLevel.ERROR, ["console-handler"])
        >>> log.get_handler("console-handler").level == LogLevel.ERROR.level
        True
        """
        new = _level(level, "level")
        if handlerNames is not None and (
            not isinstance(handlerNames, list) or not all(isinstance(n, str) for n in handlerNames)
        ):
            raise TypeError("handlerNames: expected a list of str")
        for h in self.handlers:
            if handlerNames is None or h.name in handlerNames:
                h.setLevel(new)

    def enable_verbose(self) -> None:
        """Show DEBUG messages: every handler at DEBUG.

        Examples
        --------
        >>> from atoll.core.logger import get_arkouda_logger, LogLevel
        >>> log = get_arkouda_logger("docVerbose")
        >>> log.enable_verbose()
        >>> log.get_handler("console-handler").level == LogLevel.DEBUG.level
        True
        """
        self.change_log_level(LogLevel.DEBUG)

    def disable_verbose(self, log_level: LogLevel | _Unset = _UNSET, **kwargs: object) -> None:
        """Hide DEBUG messages: every handler at ``log_level``.

        Parameters
        ----------
        log_level : LogLevel, default LogLevel.INFO
            The handlers' new level.
        **kwargs
            None is taken: any raises ``TypeError``.

        Raises
        ------
        TypeError
            ``log_level`` is not a LogLevel, or a keyword is unknown.

        Examples
        --------
        >>> from atoll.core.logger import get_arkouda_logger, LogLevel
        >>> log = get_arkouda_logger("docQuiet")
        >>> log.disable_verbose(LogLevel.WARN)
        >>> log.get_handler("console-handler").level == LogLevel.WARN.level
        True
        >>> log.disable_verbose(None)
        Traceback (most recent call last):
        ...
        TypeError: level: expected a LogLevel, got NoneType
        """
        if kwargs:
            raise TypeError(f"unexpected keyword argument(s): {', '.join(kwargs)}")
        self.change_log_level(LogLevel.INFO if log_level is _UNSET else log_level)

    def get_handler(self, name: str) -> Handler:
        """The handler named ``name``.

        Parameters
        ----------
        name : str
            The handler's name.

        Returns
        -------
        logging.Handler
            The first handler of that name.

        Raises
        ------
        TypeError
            ``name`` is not a str.
        ValueError
            No handler has that name.

        Examples
        --------
        >>> from atoll.core.logger import get_arkouda_logger
        >>> log = get_arkouda_logger("docHandler")
        >>> log.get_handler("console-handler").name
        'console-handler'
        >>> log.get_handler("file")
        Traceback (most recent call last):
        ...
        ValueError: The name file does not match any handler
        """
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


def get_arkouda_logger(
    name: str,
    handlers: list[Handler] | None = None,
    log_format: str | None = None,
    log_level: LogLevel | None = None,
    **kwargs: object,
) -> ArkoudaLogger:
    """A new ``ArkoudaLogger``, kept by name for the module's verbosity switches.

    Parameters
    ----------
    name : str
        The logger's name.
    handlers : list of logging.Handler, optional
        Its handlers; by default one ``StreamHandler`` named ``"console-handler"``.
    log_format : str, optional
        The handlers' format; ``ArkoudaLogger.DEFAULT_LOG_FORMAT`` by default.
    log_level : LogLevel, optional
        The default handler's level; by default the environment's ``ARKOUDA_LOG_LEVEL``,
        else INFO.
    **kwargs
        None is taken: any raises ``TypeError``.

    Returns
    -------
    ArkoudaLogger
        The logger.

    Raises
    ------
    ValueError
        ``ARKOUDA_LOG_LEVEL`` is set to a name that is not a level.
    TypeError
        An argument of another type, or an unknown keyword.

    Examples
    --------
    >>> from atoll.core.logger import get_arkouda_logger, loggers, LogLevel
    >>> log = get_arkouda_logger("docGet", log_level=LogLevel.DEBUG)
    >>> loggers["docGet"] is log
    True
    """
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


def get_arkouda_client_logger(name: str) -> ArkoudaLogger:
    """A logger for messages meant for the user: the bare message, no format.

    Parameters
    ----------
    name : str
        The logger's name.

    Returns
    -------
    ArkoudaLogger
        The logger, at the level of ``ARKOUDA_LOG_LEVEL`` (INFO by default).

    Examples
    --------
    >>> from atoll.core.logger import get_arkouda_client_logger
    >>> log = get_arkouda_client_logger("docClient")
    >>> log.get_handler("console-handler").formatter is None
    True
    """
    return get_arkouda_logger(name=name, log_format=ArkoudaLogger.CLIENT_LOG_FORMAT)


def enable_verbose() -> None:
    """Make every logger made by ``get_arkouda_logger`` show DEBUG messages.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.core.logger import get_arkouda_logger, LogLevel
    >>> log = get_arkouda_logger("docAll")
    >>> ak.enable_verbose()
    >>> log.get_handler("console-handler").level == LogLevel.DEBUG.level
    True
    >>> ak.disable_verbose()
    """
    for logger in loggers.values():
        logger.enable_verbose()


def disable_verbose(logLevel: LogLevel = LogLevel.INFO) -> None:
    """Set every logger made by ``get_arkouda_logger`` back to ``logLevel``.

    Parameters
    ----------
    logLevel : LogLevel, default LogLevel.INFO
        The loggers' handlers' new level.

    Raises
    ------
    TypeError
        ``logLevel`` is not a LogLevel.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.core.logger import get_arkouda_logger, LogLevel
    >>> log = get_arkouda_logger("docNone")
    >>> ak.disable_verbose(LogLevel.ERROR)
    >>> log.get_handler("console-handler").level == LogLevel.ERROR.level
    True
    >>> ak.disable_verbose()
    """
    _level(logLevel, "logLevel")
    for logger in loggers.values():
        logger.disable_verbose(logLevel)


# The job's log: Arkouda's server log, here a logging logger of the driver.
_server_log = logging.getLogger("atoll.server")


def write_log(log_msg: str, tag: str = "ClientGeneratedLog", log_lvl: LogLevel = LogLevel.INFO) -> None:
    """Write ``log_msg`` to the job's log, the ``atoll.server`` logging logger.

    Parameters
    ----------
    log_msg : str
        The message.
    tag : str, default 'ClientGeneratedLog'
        Its tag, where Arkouda's server log names the function.
    log_lvl : LogLevel, default LogLevel.INFO
        Its level.

    Raises
    ------
    TypeError
        ``log_msg`` or ``tag`` is not a str, or ``log_lvl`` not a LogLevel.

    Examples
    --------
    >>> import atoll as ak
    >>> import logging, sys
    >>> server = logging.getLogger("atoll.server")
    >>> out = logging.StreamHandler(sys.stdout)
    >>> server.addHandler(out)
    >>> server.setLevel(logging.INFO)
    >>> ak.write_log("phase 2 starts", tag="etl")
    [etl] phase 2 starts
    >>> server.removeHandler(out)
    >>> server.setLevel(logging.NOTSET)
    """
    if not isinstance(log_msg, str) or not isinstance(tag, str):
        raise TypeError("log_msg and tag: expected str")
    _server_log.log(_level(log_lvl, "log_lvl"), "[%s] %s", tag, log_msg)


# Arkouda's older camel-case names.
getArkoudaLogger = get_arkouda_logger
getArkoudaClientLogger = get_arkouda_client_logger
enableVerbose = enable_verbose
disableVerbose = disable_verbose
