"""File helpers of Arkouda's ``arkouda.pandas.io_util``: directories, and small key/value
files.

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

import os
import shutil
from pathlib import Path

__all__ = [
    "get_directory",
    "write_line_to_file",
    "delimited_file_to_dict",
    "dict_to_delimited_file",
    "delete_directory",
    "directory_exists",
]


def get_directory(path):
    """The directory ``path`` as a ``Path``, created with its parents if missing
    (ValueError when that fails)."""
    try:
        Path(path).mkdir(parents=True, exist_ok=True)
        return Path(path)
    except Exception as e:
        raise ValueError(e) from None


def write_line_to_file(path, line):
    """Appends ``line`` and a newline to the file ``path`` (created if missing)."""
    with open(path, "a") as f:
        f.write(f"{line}\n")


def delimited_file_to_dict(path, delimiter=","):
    """A dict of the ``key<delimiter>value`` lines of the file (empty when it is missing);
    ValueError for a line without exactly two fields."""
    values = {}
    try:
        with open(path) as f:
            for line in f:
                line = line.rstrip()
                key, value = line.split(delimiter)
                values[key] = value
    except FileNotFoundError:
        pass
    return values


def dict_to_delimited_file(path, values, delimiter=","):
    """Writes ``values`` as ``key,value`` lines (only ',' is supported, as in Arkouda)."""
    if delimiter != ",":
        raise ValueError(f"the delimiter {delimiter} is not supported")
    with open(path, "w+") as f:
        for key, value in values.items():
            f.write(f"{key},{value}\n")


def delete_directory(dir):
    """Removes the directory ``dir`` and what it holds (nothing when it is missing)."""
    if os.path.isdir(dir):
        shutil.rmtree(dir, ignore_errors=True)


def directory_exists(dir):
    """Whether ``dir`` is an existing directory."""
    return os.path.isdir(dir)
