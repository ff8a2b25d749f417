"""``import atoll`` needs NumPy alone: pandas, pyarrow, h5py, SciPy and polars are imported
where a feature uses them, and a missing one makes that feature (not the import) raise an
``ImportError`` naming the extra that installs it."""

import os
import subprocess
import sys
import textwrap

import atoll as ak
import numpy as np
import pytest
from atoll import _optional
from atoll._optional import LazyModule

OPTIONAL = ("pandas", "pyarrow", "h5py", "scipy", "polars")

# A fresh interpreter in which the optional libraries cannot be imported; it prints one line
# per check, and ``ok`` at the end.
BLOCKED = textwrap.dedent(
    """
    import sys
    BLOCKED = {blocked!r}

    class Blocker:
        def find_spec(self, name, path=None, target=None):
            if name.split(".")[0] in BLOCKED:
                raise ModuleNotFoundError(f"No module named {{name!r}}", name=name)
            return None

    sys.meta_path.insert(0, Blocker())

    import collections
    import numpy as np
    import atoll as ak
    from atoll import _optional
    from atoll.testing import assert_arkouda_array_equal

    rng = np.random.default_rng(7)
    v = rng.integers(-50, 50, 1000)
    a = ak.array(v)
    assert ak.arange(10).sum() == sum(range(10))
    assert a.to_ndarray().tolist() == v.tolist()
    assert ak.zeros(5).to_ndarray().tolist() == np.zeros(5).tolist()
    assert ak.linspace(0, 1, 5).to_ndarray().tolist() == np.linspace(0, 1, 5).tolist()
    assert ak.sort(a).to_ndarray().tolist() == np.sort(v).tolist()
    assert a[ak.argsort(a)].to_ndarray().tolist() == np.sort(v).tolist()
    words = [f"w{{x % 7}}" for x in v.tolist()]
    s = ak.array(words)
    assert s.to_list() == words
    assert sorted(ak.unique(s).to_list()) == sorted(set(words))
    keys, counts = ak.GroupBy(a % 5).size()
    want = collections.Counter((v % 5).tolist())
    assert dict(zip(keys.to_ndarray().tolist(), counts.to_ndarray().tolist())) == want
    keys, sums = ak.GroupBy(s).sum(a)
    want = collections.defaultdict(int)
    for w, x in zip(words, v.tolist()):
        want[w] += x
    assert dict(zip(keys.to_list(), sums.to_ndarray().tolist())) == dict(want)
    assert_arkouda_array_equal(a, ak.array(v))
    df = ak.DataFrame({{"x": a, "s": s}})
    assert len(df) == len(v)
    assert ak.Series(a).values.to_ndarray().tolist() == v.tolist()
    assert ak.Index(a).to_ndarray().tolist() == v.tolist()
    try:
        df.to_pandas()
    except ImportError as e:
        print("to_pandas:", e)
    try:
        ak.scipy.chisquare(ak.array([10.0, 12.0, 8.0]))
    except ImportError as e:
        print("chisquare:", e)
    print("loaded:", [m for m in sys.modules if m.split(".")[0] in BLOCKED])
    print("ok")
    """
)


def _child_env():
    """The environment of a local session of this many locales (never an MPI rank: the child
    is not one of mpiexec's processes)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PMI_", "PMIX_", "HYDRA_", "MPI", "OMPI_"))}
    env["ATOLL_BACKEND"] = "local"
    env["ATOLL_LOCALES"] = str(max(ak.num_locales(), 1))
    return env


def test_atoll_works_without_the_optional_libraries():
    r = subprocess.run(
        [sys.executable, "-c", BLOCKED.format(blocked=set(OPTIONAL))],
        capture_output=True,
        text=True,
        timeout=120,
        env=_child_env(),
    )
    assert r.returncode == 0, r.stderr
    lines = dict(line.split(": ", 1) for line in r.stdout.splitlines() if ": " in line)
    assert r.stdout.splitlines()[-1] == "ok", r.stdout
    assert "DataFrame.to_pandas needs pandas" in lines["to_pandas"]
    assert "pip install 'atoll[pandas]'" in lines["to_pandas"]
    assert "needs scipy" in lines["chisquare"]
    assert lines["loaded"] == "[]"


def test_import_atoll_imports_no_optional_library():
    code = "import sys, atoll\nprint(sorted(m for m in sys.modules if m.split('.')[0] in %r))" % (set(OPTIONAL),)
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, env=_child_env())
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "[]"


def test_lazy_module_imports_on_first_use_and_names_the_feature():
    lazy = LazyModule("json")
    assert repr(lazy).endswith("(not imported yet)>")
    assert lazy.dumps([1, 2]) == "[1, 2]"
    assert lazy.loads is sys.modules["json"].loads

    missing = LazyModule("atoll_test_no_such_library", extra="io")

    def reader():
        return missing.read

    with pytest.raises(
        ImportError, match=r"atoll: .*reader needs atoll_test_no_such_library; pip install 'atoll\[io\]'"
    ):
        reader()
    assert not hasattr(missing, "__wrapped__")  # introspection imports nothing
    assert not _optional.loaded("atoll_test_no_such_library")
    assert not _optional.has("atoll_test_no_such_library")


def test_loaded_and_has_never_import():
    assert _optional.loaded("numpy") and _optional.has("numpy")
    assert _optional.has("json")
    before = "antigravity" in sys.modules
    assert _optional.has("antigravity")  # found, not imported (importing it opens a browser)
    assert ("antigravity" in sys.modules) == before


@pytest.mark.skipif(not _optional.has("pandas"), reason="needs pandas")
def test_pandas_objects_still_convert():
    import pandas as pd

    s = pd.Series(np.arange(5) * 3, name="x")
    assert ak.Series(s).to_pandas().equals(s)
    assert ak.from_series(s).to_ndarray().tolist() == s.tolist()
    with pytest.raises(TypeError):
        ak.from_series(np.arange(3))
