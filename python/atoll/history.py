"""The interpreter's command history, as Arkouda's ``arkouda.history``.

``HistoryRetriever`` states the ``retrieve(command_filter, num_commands)`` method;
``ShellHistoryRetriever`` reads a Python REPL's history (``readline``) and
``NotebookHistoryRetriever`` an IPython shell's or Jupyter notebook's (IPython's history
database; it needs IPython, imported on first use).

Examples
--------
>>> import atoll as ak
>>> from atoll.history import ShellHistoryRetriever
>>> h = ShellHistoryRetriever()
>>> cmds = h.retrieve(command_filter="ak.", num_commands=5)
>>> len(cmds) <= 5 and all("ak." in c for c in cmds)
True
"""

from __future__ import annotations

from ._optional import LazyModule

__all__ = ["HistoryRetriever", "NotebookHistoryRetriever", "ShellHistoryRetriever"]

_readline = LazyModule("readline")
_ipython_history = LazyModule("IPython.core.history")


def _select(commands: list[str], command_filter: str | None, num_commands: int | None) -> list[str]:
    if command_filter:
        commands = [c for c in commands if HistoryRetriever._filter_arkouda_command(c, command_filter) is not None]
    return commands[-num_commands:] if num_commands else commands


class HistoryRetriever:
    """The interface of the history readers: ``retrieve(command_filter, num_commands)``.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.history import HistoryRetriever
    >>> HistoryRetriever._filter_arkouda_command("x = ak.arange(3)", "ak.")
    'x = ak.arange(3)'
    >>> HistoryRetriever._filter_arkouda_command("ak.generate_history()", "ak.") is None
    True
    """

    @staticmethod
    def _filter_arkouda_command(command: str, filter_string: str = "ak") -> str | None:
        """``command`` when it contains ``filter_string`` and is not a history request, else None."""
        if command and filter_string in command and "generate_history" not in command:
            return command
        return None

    def retrieve(self, command_filter: str | None = None, num_commands: int | None = None) -> list[str]:
        """The commands run so far, oldest first.

        Parameters
        ----------
        command_filter : str, optional
            Give only the commands that contain this text.
        num_commands : int, optional
            Give only the latest this many commands; all by default.

        Returns
        -------
        list of str

        Raises
        ------
        NotImplementedError
            On this base class; the readers define it.

        Examples
        --------
        >>> from atoll.history import HistoryRetriever
        >>> try:
        ...     HistoryRetriever().retrieve()
        ... except NotImplementedError as e:
        ...     print(e)
        Derived classes must implement retrieve
        """
        raise NotImplementedError("Derived classes must implement retrieve")


class ShellHistoryRetriever(HistoryRetriever):
    """The history of a Python REPL, from ``readline``.

    Examples
    --------
    >>> from atoll.history import ShellHistoryRetriever
    >>> isinstance(ShellHistoryRetriever().retrieve(), list)
    True
    """

    def retrieve(self, command_filter: str | None = None, num_commands: int | None = None) -> list[str]:
        """The REPL's commands, oldest first (see ``HistoryRetriever.retrieve``).

        Parameters
        ----------
        command_filter : str, optional
            Give only the commands that contain this text.
        num_commands : int, optional
            Give only the latest this many commands; all by default.

        Returns
        -------
        list of str

        Examples
        --------
        >>> import atoll as ak
        >>> from atoll.history import ShellHistoryRetriever
        >>> cmds = ShellHistoryRetriever().retrieve(command_filter="ak.", num_commands=2)
        >>> len(cmds) <= 2 and all("ak." in c for c in cmds)
        True
        """
        n = _readline.get_current_history_length()
        commands = [str(_readline.get_history_item(i + 1)) for i in range(n)]
        return _select(commands, command_filter, num_commands)


class NotebookHistoryRetriever(HistoryRetriever):
    """The history of an IPython shell or Jupyter notebook, from IPython's history database.

    Examples
    --------
    >>> import atoll as ak
    >>> from atoll.history import NotebookHistoryRetriever
    >>> h = NotebookHistoryRetriever()  # doctest: +SKIP
    >>> h.retrieve(num_commands=3)  # doctest: +SKIP
    ['x = ak.arange(5)', 'x.sum()', 'x.max()']
    """

    def __init__(self, **kwargs: object) -> None:
        self._accessor = _ipython_history.HistoryAccessor(**kwargs)

    def retrieve(self, command_filter: str | None = None, num_commands: int | None = None) -> list[str]:
        """The session's commands, oldest first (see ``HistoryRetriever.retrieve``).

        Parameters
        ----------
        command_filter : str, optional
            Give only the commands that contain this text.
        num_commands : int, optional
            Give only the latest this many commands; all by default.

        Returns
        -------
        list of str

        Examples
        --------
        >>> import atoll as ak
        >>> from atoll.history import NotebookHistoryRetriever
        >>> NotebookHistoryRetriever().retrieve(command_filter="ak.", num_commands=2)  # doctest: +SKIP
        ['x = ak.arange(5)', 'y = ak.ones(3)']
        """
        # Every stored command; the filter applies before the count.
        raw = self._accessor.get_tail(n=2**62, raw=True, output=False, include_latest=True)
        commands = [str(entry[2]) for entry in raw]
        return _select(commands, command_filter, num_commands)
