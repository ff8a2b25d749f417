"""File helpers of Arkouda's ``arkouda.pandas.io_util``: directories, and small key/value files.

>>> import os, tempfile
>>> from atoll.pandas import io_util
>>> d = tempfile.mkdtemp()
>>> io_util.get_directory(os.path.join(d, "a", "b")).is_dir()
True
>>> p = os.path.join(d, "kv.txt")
>>> io_util.dict_to_delimited_file(p, {"x": 1, "y": "two"})
>>> io_util.delimited_file_to_dict(p)
{'x': '1', 'y': 'two'}
>>> io_util.delete_directory(d)
>>> io_util.directory_exists(d)
False
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Mapping
from pathlib import Path
from typing import Union

# A path, as ``open`` takes it.
_Path = Union[str, "os.PathLike[str]"]

__all__ = [
    "get_directory",
    "write_line_to_file",
    "delimited_file_to_dict",
    "dict_to_delimited_file",
    "delete_directory",
    "directory_exists",
]


def get_directory(path: _Path) -> Path:
    """The directory ``path`` as a ``Path``, created with its parents if missing.

    Parameters
    ----------
    path : str or os.PathLike
        The directory.

    Returns
    -------
    pathlib.Path
        ``path``, which now exists.

    Raises
    ------
    ValueError
        The directory cannot be made.

    Examples
    --------
    >>> import os, tempfile
    >>> from atoll.pandas.io_util import get_directory
    >>> get_directory(os.path.join(tempfile.mkdtemp(), "x", "y")).is_dir()
    True
    """
    try:
        Path(path).mkdir(parents=True, exist_ok=True)
        return Path(path)
    except Exception as e:
        raise ValueError(e) from None


def write_line_to_file(path: _Path, line: object) -> None:
    r"""Append ``line`` and a newline to the file ``path`` (created if missing).

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    line : object
        What to write (as ``str`` gives it).

    Examples
    --------
    >>> import os, tempfile
    >>> from atoll.pandas.io_util import write_line_to_file
    >>> p = os.path.join(tempfile.mkdtemp(), "log.txt")
    >>> write_line_to_file(p, "one"); write_line_to_file(p, 2)
    >>> open(p).read()
    'one\n2\n'
    """
    with open(path, "a") as f:
        f.write(f"{line}\n")


def delimited_file_to_dict(path: _Path, delimiter: str = ",") -> dict[str, str]:
    r"""A dict of the ``key<delimiter>value`` lines of the file (empty when it is missing).

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    delimiter : str, default ","
        What separates a key from its value.

    Returns
    -------
    dict of str to str
        Key -> value, in the file's order.

    Raises
    ------
    ValueError
        A line has not exactly two fields.

    Examples
    --------
    >>> import os, tempfile
    >>> from atoll.pandas.io_util import delimited_file_to_dict
    >>> p = os.path.join(tempfile.mkdtemp(), "kv.txt")
    >>> _ = open(p, "w").write("a|1\nb|2\n")
    >>> delimited_file_to_dict(p, "|")
    {'a': '1', 'b': '2'}
    """
    values: dict[str, str] = {}
    try:
        with open(path) as f:
            for line in f:
                line = line.rstrip()
                key, value = line.split(delimiter)
                values[key] = value
    except FileNotFoundError:
        pass
    return values


def dict_to_delimited_file(path: _Path, values: Mapping[object, object], delimiter: str = ",") -> None:
    r"""Write ``values`` as ``key,value`` lines, replacing the file.

    Parameters
    ----------
    path : str or os.PathLike
        The file.
    values : mapping
        The keys and values (written as ``str`` gives them).
    delimiter : str, default ","
        Only ``","`` is supported, as in Arkouda.

    Raises
    ------
    ValueError
        ``delimiter`` is not ``","``.

    Examples
    --------
    >>> import os, tempfile
    >>> from atoll.pandas.io_util import dict_to_delimited_file
    >>> p = os.path.join(tempfile.mkdtemp(), "kv.txt")
    >>> dict_to_delimited_file(p, {"a": 1})
    >>> open(p).read()
    'a,1\n'
    """
    if delimiter != ",":
        raise ValueError(f"the delimiter {delimiter} is not supported")
    with open(path, "w+") as f:
        for key, value in values.items():
            f.write(f"{key},{value}\n")


def delete_directory(dir: _Path) -> None:
    """Remove the directory ``dir`` and what it holds (nothing when it is missing).

    Parameters
    ----------
    dir : str or os.PathLike
        The directory.

    Examples
    --------
    >>> import os, tempfile
    >>> from atoll.pandas.io_util import delete_directory
    >>> d = tempfile.mkdtemp()
    >>> delete_directory(d); os.path.exists(d)
    False
    """
    if os.path.isdir(dir):
        shutil.rmtree(dir, ignore_errors=True)


def directory_exists(dir: _Path) -> bool:
    """Whether ``dir`` is an existing directory.

    Parameters
    ----------
    dir : str or os.PathLike
        The path.

    Returns
    -------
    bool
        True for an existing directory.

    Examples
    --------
    >>> import tempfile
    >>> from atoll.pandas.io_util import directory_exists
    >>> directory_exists(tempfile.mkdtemp())
    True
    """
    return os.path.isdir(dir)
