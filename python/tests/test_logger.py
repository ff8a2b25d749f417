"""``atoll.core.logger`` (Arkouda's ``arkouda.core.logger``): levels, handlers and the
verbosity switches, checked against what Python's ``logging`` passes to a handler."""

import inspect
import io
import logging

import pytest
from atoll.core import logger as lg
from atoll.core.logger import ArkoudaLogger, LogLevel, get_arkouda_client_logger, get_arkouda_logger


def _capture(level=logging.DEBUG, name="capture"):
    buf = io.StringIO()
    h = logging.StreamHandler(buf)
    h.name = name
    h.setLevel(level)
    return h, buf


def test_levels_are_loggings():
    for lvl, num in [
        (LogLevel.DEBUG, logging.DEBUG),
        (LogLevel.INFO, logging.INFO),
        (LogLevel.WARN, logging.WARN),
        (LogLevel.ERROR, logging.ERROR),
        (LogLevel.CRITICAL, logging.CRITICAL),
    ]:
        assert LogLevel(lvl.value) is lvl and lvl.value == lvl.name
        assert ArkoudaLogger.levelMappings[lvl] == num


def test_default_logger(monkeypatch):
    monkeypatch.delenv("ARKOUDA_LOG_LEVEL", raising=False)
    log = get_arkouda_logger("TestDefault")
    assert isinstance(log, logging.Logger) and log.name == "TestDefault"
    assert log.level == logging.DEBUG
    assert log.get_handler("console-handler").level == logging.INFO
    with pytest.raises(ValueError):
        log.get_handler("console-handlers")
    monkeypatch.setenv("ARKOUDA_LOG_LEVEL", "warn")
    assert get_arkouda_logger("TestEnv").get_handler("console-handler").level == logging.WARN
    monkeypatch.setenv("ARKOUDA_LOG_LEVEL", "LOUD")
    with pytest.raises(ValueError):
        get_arkouda_logger("TestBadEnv")


def test_messages_follow_handler_levels():
    h, buf = _capture(logging.INFO)
    log = get_arkouda_logger("TestMessages", handlers=[h])
    log.debug("hidden")
    line = inspect.currentframe().f_lineno + 1
    log.info("shown")
    assert buf.getvalue() == f"[TestMessages] Line {line} INFO: shown\n"
    log.enable_verbose()
    log.debug("now shown")
    assert buf.getvalue().endswith("DEBUG: now shown\n")
    log.disable_verbose(LogLevel.ERROR)
    log.warning("hidden again")
    assert "hidden" not in buf.getvalue()


def test_change_log_level_by_name():
    h1, _ = _capture(logging.DEBUG, "one")
    h2, _ = _capture(logging.INFO, "two")
    log = get_arkouda_logger("TestNamed", handlers=[h1, h2])
    log.change_log_level(LogLevel.WARN, handlerNames=["two"])
    assert (h1.level, h2.level) == (logging.DEBUG, logging.WARN)
    log.change_log_level(LogLevel.ERROR)
    assert (h1.level, h2.level) == (logging.ERROR, logging.ERROR)


def test_client_logger_has_no_format():
    log = get_arkouda_client_logger("TestClient")
    buf = io.StringIO()
    h = log.get_handler("console-handler")
    h.setStream(buf)
    log.info("plain message")
    assert buf.getvalue() == "plain message\n"


def test_global_verbosity():
    a = get_arkouda_logger("TestGlobalA", log_level=LogLevel.INFO)
    b = get_arkouda_logger("TestGlobalB", log_level=LogLevel.WARN)
    assert lg.loggers["TestGlobalA"] is a
    lg.enable_verbose()
    assert a.get_handler("console-handler").level == logging.DEBUG
    assert b.get_handler("console-handler").level == logging.DEBUG
    lg.disable_verbose()
    assert a.get_handler("console-handler").level == logging.INFO
    lg.disable_verbose(LogLevel.ERROR)
    assert b.get_handler("console-handler").level == logging.ERROR
    lg.enableVerbose()
    assert b.get_handler("console-handler").level == logging.DEBUG
    lg.disableVerbose()


def test_write_log(caplog):
    with caplog.at_level(logging.DEBUG, logger="atoll.server"):
        lg.write_log("hello job")
        lg.write_log("careful", tag="MyTag", log_lvl=LogLevel.WARN)
    recs = [(r.levelno, r.getMessage()) for r in caplog.records if r.name == "atoll.server"]
    assert recs == [(logging.INFO, "[ClientGeneratedLog] hello job"), (logging.WARN, "[MyTag] careful")]


def test_errors():
    log = get_arkouda_logger("TestErrors", log_level=LogLevel.INFO)
    with pytest.raises(TypeError):
        log.disable_verbose(log_level="INFO")
    with pytest.raises(TypeError):
        log.change_log_level("DEBUG")
    with pytest.raises(TypeError):
        ArkoudaLogger("x", log_level="INFO")
    with pytest.raises(TypeError):
        get_arkouda_logger("x", handlers="console")
    with pytest.raises(TypeError):
        lg.disable_verbose("INFO")
    with pytest.raises(TypeError):
        lg.write_log("m", log_lvl="INFO")
    with pytest.raises(TypeError):
        log.get_handler(3)
