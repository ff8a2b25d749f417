"""Progress lines on stderr (``atoll.progress``) for the operations that can take seconds: with
bars forced on (``ATOLL_PROGRESS=1``) and no size or time threshold, each operation draws a
line naming it that ends with its finished state, and its result is still the reference's
(NumPy, pandas, pyarrow, h5py); with bars off, or below a threshold, nothing is written; on an
MPI rank other than 0 nothing is written."""

import os
import re
import subprocess
import sys
import types

import atoll as ak
import h5py
import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest
from atoll import progress

N = 2000


@pytest.fixture
def bars(monkeypatch):
    """Bars forced on, drawn from the start, whatever the size."""
    monkeypatch.setenv("ATOLL_PROGRESS", "1")
    monkeypatch.setenv("ATOLL_PROGRESS_DELAY", "0")
    monkeypatch.setenv("ATOLL_PROGRESS_MIN_ROWS", "0")
    before = progress.configure(enabled=None, min_rows=None, delay=None)
    yield
    progress.configure(**before)


@pytest.fixture
def quiet(monkeypatch):
    monkeypatch.setenv("ATOLL_PROGRESS", "0")
    monkeypatch.setenv("ATOLL_PROGRESS_DELAY", "0")
    monkeypatch.setenv("ATOLL_PROGRESS_MIN_ROWS", "0")


def finished(err, label):
    """Whether ``err`` holds the finished line of ``label`` (drawn over its running line)."""
    return re.search(r"\r" + re.escape(label) + r"(:| \[#+\] (\d+)/\2) done in \d+\.\ds\n", err) is not None


def labels(err):
    """The labels of the finished lines of ``err``, in order."""
    return re.findall(r"\r(\S+?)(?::| \[#+\] \d+/\d+) done in \d+\.\ds\n", err)


def data(seed=0):
    rng = np.random.default_rng(seed)
    return rng.integers(0, 50, N), rng.normal(size=N), np.array([f"s{i % 37}" for i in range(N)])


def frame(seed=0):
    k, v, s = data(seed)
    return pd.DataFrame({"k": k, "v": v, "s": s})


def ak_frame(p):
    return ak.DataFrame({"k": ak.array(p["k"].to_numpy()), "v": ak.array(p["v"].to_numpy()), "s": ak.array(p["s"])})


# ----- each operation draws its line, and computes what the reference does -----------------
def test_sorts(bars, capsys):
    k, v, _ = data()
    capsys.readouterr()
    p = ak.argsort(ak.array(v))
    assert labels(capsys.readouterr().err) == ["argsort"]
    np.testing.assert_array_equal(p.to_ndarray(), np.argsort(v, kind="stable"))
    assert labels(capsys.readouterr().err) == ["to_ndarray"]
    c = ak.coargsort([ak.array(k), ak.array(v)])
    assert labels(capsys.readouterr().err) == ["coargsort"]
    np.testing.assert_array_equal(c.to_ndarray(), np.lexsort([v, k]))
    capsys.readouterr()
    s = ak.sort(ak.array(v))
    assert labels(capsys.readouterr().err) == ["sort"]
    np.testing.assert_array_equal(s.to_ndarray(), np.sort(v, kind="stable"))


def test_frame_sort_values_and_to_pandas(bars, capsys):
    p = frame(1)
    df = ak_frame(p)
    capsys.readouterr()
    got = df.sort_values(["k", "v"])
    assert labels(capsys.readouterr().err) == ["DataFrame.sort_values"]
    out = got.to_pandas()
    err = capsys.readouterr().err
    # One bar of a step per column (the inner gathers draw nothing of their own).
    assert labels(err) == ["DataFrame.to_pandas"] and "3/3 done in" in err
    want = p.sort_values(["k", "v"], kind="stable").reset_index(drop=True)
    pd.testing.assert_frame_equal(out.reset_index(drop=True), want, check_dtype=False)


def test_merge(bars, capsys):
    left, right = frame(2), frame(3).rename(columns={"v": "w", "s": "t"})
    right = right.drop_duplicates("k")
    a, b = ak_frame(left), ak.DataFrame({"k": ak.array(right["k"].to_numpy()), "w": ak.array(right["w"].to_numpy())})
    capsys.readouterr()
    m = ak.merge(a, b, on="k", how="inner")
    err = capsys.readouterr().err
    # The merge's line only: its sorts and groupings run inside it.
    assert labels(err) == ["merge"], err
    got = m.to_pandas()[["k", "v", "s", "w"]]
    want = pd.merge(left, right[["k", "w"]], on="k", how="inner")
    key = ["k", "v"]
    pd.testing.assert_frame_equal(
        got.sort_values(key).reset_index(drop=True), want.sort_values(key).reset_index(drop=True), check_dtype=False
    )


def test_groupby_aggregations(bars, capsys):
    k, v, _ = data(4)
    capsys.readouterr()
    g = ak.GroupBy(ak.array(k))
    assert labels(capsys.readouterr().err) == ["GroupBy"]
    want = pd.Series(v).groupby(k)
    for op in ("sum", "mean", "max"):
        keys, vals = g.aggregate(ak.array(v), op)
        assert labels(capsys.readouterr().err) == [f"GroupBy.{op}"]
        np.testing.assert_array_equal(keys.to_ndarray(), want.sum().index.to_numpy())
        np.testing.assert_allclose(vals.to_ndarray(), getattr(want, op)().to_numpy(), rtol=1e-12)
        capsys.readouterr()
    _, s = g.sum(ak.array(v))
    assert labels(capsys.readouterr().err) == ["GroupBy.sum"]
    np.testing.assert_allclose(s.to_ndarray(), want.sum().to_numpy(), rtol=1e-12)
    p = frame(4)
    df = ak_frame(p)
    capsys.readouterr()
    r = df.groupby("k").sum()
    err = capsys.readouterr().err
    assert labels(err)[-1] == "groupby.sum" and "GroupBy" in labels(err)
    np.testing.assert_allclose(r["v"].to_ndarray(), p.groupby("k")["v"].sum().to_numpy(), rtol=1e-12)


def test_gathers(bars, capsys):
    _, v, s = data(5)
    a, t = ak.array(v), ak.array(s)
    capsys.readouterr()
    np.testing.assert_array_equal(a.to_ndarray(), v)
    assert labels(capsys.readouterr().err) == ["to_ndarray"]
    np.testing.assert_array_equal(t.to_ndarray(), s)
    assert labels(capsys.readouterr().err) == ["Strings.to_ndarray"]
    assert t.to_list() == s.tolist()
    assert labels(capsys.readouterr().err) == ["Strings.to_list"]


def test_parquet(bars, capsys, tmp_path):
    _, v, s = data(6)
    ak.to_parquet({"v": ak.array(v), "s": ak.array(s)}, str(tmp_path / "p"))
    assert labels(capsys.readouterr().err)[-1] == "to_parquet"
    files = sorted(str(f) for f in tmp_path.glob("p_LOCALE*"))
    t = pd.concat([pq.read_table(f).to_pandas() for f in files], ignore_index=True)
    np.testing.assert_array_equal(t["v"].to_numpy(), v)
    capsys.readouterr()
    got = ak.read_parquet(str(tmp_path / "p*"))
    assert labels(capsys.readouterr().err) == ["read_parquet"]
    np.testing.assert_array_equal(got["v"].to_ndarray(), v)
    assert got["s"].to_list() == s.tolist()


def test_hdf5(bars, capsys, tmp_path):
    k, v, _ = data(7)
    capsys.readouterr()
    ak.to_hdf({"k": ak.array(k), "v": ak.array(v)}, str(tmp_path / "h"))
    err = capsys.readouterr().err
    assert labels(err) == ["to_hdf"] and "2/2 done in" in err
    files = sorted(tmp_path.glob("h_LOCALE*"))
    with h5py.File(files[0]) as f0:
        assert set(f0.keys()) >= {"k", "v"}
    parts = []
    for f in files:
        with h5py.File(f) as h:
            parts.append(h["v"][()])
    np.testing.assert_array_equal(np.concatenate(parts), v)
    got = ak.read_hdf(str(tmp_path / "h*"))
    err = capsys.readouterr().err
    assert labels(err) == ["read_hdf"] and "2/2 done in" in err
    np.testing.assert_array_equal(got["k"].to_ndarray(), k)
    capsys.readouterr()
    ak.update_hdf({"k": ak.array(k + 1)}, str(tmp_path / "h"))
    assert labels(capsys.readouterr().err) == ["update_hdf"]
    np.testing.assert_array_equal(ak.read_hdf(str(tmp_path / "h*"))["k"].to_ndarray(), k + 1)


def test_csv(bars, capsys, tmp_path):
    k, v, _ = data(8)
    capsys.readouterr()
    ak.to_csv({"k": ak.array(k), "v": ak.array(v)}, str(tmp_path / "c.csv"))
    nl = ak.num_locales()
    err = capsys.readouterr().err
    assert labels(err) == ["to_csv"] and (nl == 1 or f"{nl}/{nl} done in" in err)
    files = sorted(tmp_path.glob("c_LOCALE*"))
    assert len(files) == nl
    want = pd.concat([pd.read_csv(f, skiprows=3) for f in files], ignore_index=True)
    np.testing.assert_array_equal(want["k"].to_numpy(), k)
    got = ak.read_csv(str(tmp_path / "c_LOCALE*"))
    err = capsys.readouterr().err
    assert labels(err) == ["read_csv"] and (nl == 1 or f"{nl}/{nl} done in" in err)
    np.testing.assert_array_equal(got["k"].to_ndarray(), k)
    np.testing.assert_array_equal(got["v"].to_ndarray(), v)


def test_a_failure_closes_the_line(bars, capsys, tmp_path):
    with pytest.raises(ak.ParquetFileNotFoundError):
        ak.read_parquet(str(tmp_path / "missing.parquet"))
    err = capsys.readouterr().err
    assert re.search(r"\rread_parquet: failed after \d+\.\ds\n", err), err


# ----- when nothing is drawn -----------------------------------------------------------------
def run_everything(tmp_path):
    p = frame(9)
    df = ak_frame(p)
    df.sort_values("k").to_pandas()
    ak.merge(df, ak.DataFrame({"k": ak.arange(50), "w": ak.arange(50)}), on="k")
    df.groupby("k").sum()
    ak.argsort(df["v"])
    ak.to_parquet({"v": df["v"]}, str(tmp_path / "p"))
    ak.read_parquet(str(tmp_path / "p*"))
    ak.to_hdf({"v": df["v"]}, str(tmp_path / "h"))
    ak.read_hdf(str(tmp_path / "h*"))
    ak.to_csv({"v": df["v"]}, str(tmp_path / "c.csv"))
    ak.read_csv(str(tmp_path / "c_LOCALE*"))


def test_off_writes_nothing(quiet, capsys, tmp_path):
    capsys.readouterr()
    run_everything(tmp_path)
    assert capsys.readouterr().err == ""


def test_pipes_write_nothing_by_default(monkeypatch, capsys, tmp_path):
    # Captured stderr is no terminal, and no Jupyter kernel runs the tests.
    monkeypatch.delenv("ATOLL_PROGRESS", raising=False)
    monkeypatch.setenv("ATOLL_PROGRESS_DELAY", "0")
    monkeypatch.setenv("ATOLL_PROGRESS_MIN_ROWS", "0")
    monkeypatch.delitem(sys.modules, "ipykernel", raising=False)
    assert not progress.enabled()
    capsys.readouterr()
    run_everything(tmp_path)
    assert capsys.readouterr().err == ""


def test_below_the_size_threshold_nothing_is_written(bars, monkeypatch, capsys):
    monkeypatch.setenv("ATOLL_PROGRESS_MIN_ROWS", str(N + 1))
    _, v, _ = data()
    capsys.readouterr()
    np.testing.assert_array_equal(ak.argsort(ak.array(v)).to_ndarray(), np.argsort(v, kind="stable"))
    assert capsys.readouterr().err == ""
    monkeypatch.setenv("ATOLL_PROGRESS_MIN_ROWS", str(N))
    ak.argsort(ak.array(v))
    assert labels(capsys.readouterr().err) == ["argsort"]


def test_before_the_delay_nothing_is_written(bars, monkeypatch, capsys):
    monkeypatch.setenv("ATOLL_PROGRESS_DELAY", "3600")
    _, v, _ = data()
    capsys.readouterr()
    np.testing.assert_array_equal(ak.argsort(ak.array(v)).to_ndarray(), np.argsort(v, kind="stable"))
    assert capsys.readouterr().err == ""


@pytest.mark.parametrize("var", ["PMI_RANK", "PMIX_RANK", "OMPI_COMM_WORLD_RANK", "MV2_COMM_WORLD_RANK"])
def test_a_rank_other_than_0_writes_nothing(bars, monkeypatch, capsys, var):
    for v in ("PMI_RANK", "PMIX_RANK", "OMPI_COMM_WORLD_RANK", "MV2_COMM_WORLD_RANK"):
        monkeypatch.delenv(v, raising=False)
    monkeypatch.setenv(var, "1")
    monkeypatch.setattr(progress, "_RANK", progress._launcher_rank())
    assert progress._RANK == 1 and not progress.enabled()
    _, v, _ = data()
    capsys.readouterr()
    ak.argsort(ak.array(v))
    assert capsys.readouterr().err == ""
    monkeypatch.setenv(var, "0")
    monkeypatch.setattr(progress, "_RANK", progress._launcher_rank())
    assert progress.enabled()


# ----- the defaults and the settings -----------------------------------------------------
def test_default_follows_the_terminal_and_jupyter(monkeypatch):
    monkeypatch.setattr(progress, "_RANK", 0)
    monkeypatch.delenv("ATOLL_PROGRESS", raising=False)
    monkeypatch.delitem(sys.modules, "ipykernel", raising=False)

    class Tty:
        def isatty(self):
            return True

        def write(self, s):
            return len(s)

        def flush(self):
            pass

    monkeypatch.setattr(sys, "stderr", Tty())
    assert progress.enabled()
    for off in ("0", "false", "no", "off"):
        monkeypatch.setenv("ATOLL_PROGRESS", off)
        assert not progress.enabled()
    monkeypatch.delenv("ATOLL_PROGRESS")
    monkeypatch.setattr(sys, "stderr", types.SimpleNamespace(isatty=lambda: False))
    assert not progress.enabled()
    monkeypatch.setitem(sys.modules, "ipykernel", types.ModuleType("ipykernel"))
    assert progress.enabled()
    monkeypatch.setenv("ATOLL_PROGRESS", "0")
    assert not progress.enabled()
    monkeypatch.delitem(sys.modules, "ipykernel")
    for on in ("1", "true", "yes", "on"):
        monkeypatch.setenv("ATOLL_PROGRESS", on)
        assert progress.enabled()
    monkeypatch.delenv("ATOLL_PROGRESS_MIN_ROWS", raising=False)
    monkeypatch.delenv("ATOLL_PROGRESS_DELAY", raising=False)
    assert progress.min_rows() == 10**6 and progress.delay() == 1.0


def test_configure_overrides_the_environment(monkeypatch, capsys):
    monkeypatch.setenv("ATOLL_PROGRESS", "0")
    monkeypatch.setenv("ATOLL_PROGRESS_MIN_ROWS", "5")
    before = progress.configure(enabled=True, min_rows=0, delay=0)
    try:
        assert progress.enabled() and progress.min_rows() == 0 and progress.delay() == 0.0
        capsys.readouterr()
        ak.argsort(ak.arange(3))
        assert labels(capsys.readouterr().err) == ["argsort"]
    finally:
        progress.configure(**before)
    assert not progress.enabled() and progress.min_rows() == 5


@pytest.mark.parametrize(
    "kw, exc",
    [
        ({"enabled": 1}, TypeError),
        ({"min_rows": -1}, ValueError),
        ({"min_rows": 1.5}, TypeError),
        ({"delay": -0.5}, ValueError),
        ({"delay": float("inf")}, ValueError),
        ({"delay": "1"}, TypeError),
    ],
)
def test_configure_refuses_bad_values(kw, exc):
    before = progress.configure()
    with pytest.raises(exc):
        progress.configure(**kw)
    assert progress.configure() == before


def test_bad_variables_warn_and_keep_the_defaults(monkeypatch):
    monkeypatch.setenv("ATOLL_PROGRESS_MIN_ROWS", "lots")
    with pytest.warns(RuntimeWarning, match="ATOLL_PROGRESS_MIN_ROWS"):
        assert progress.min_rows() == progress.DEFAULT_MIN_ROWS
    monkeypatch.setenv("ATOLL_PROGRESS_DELAY", "-2")
    with pytest.warns(RuntimeWarning, match="ATOLL_PROGRESS_DELAY"):
        assert progress.delay() == progress.DEFAULT_DELAY


def test_a_block_with_steps(bars, capsys):
    with progress.Progress("work", total=4) as bar:
        for _ in range(4):
            bar.step()
    err = capsys.readouterr().err
    # Drawn at the start (delay 0) with no step done, closed full.
    assert err.startswith("\rwork [" + "-" * 20 + "] 0/4 ")
    assert re.search(r"\rwork \[#{20}\] 4/4 done in \d+\.\ds\n$", err), err


# ----- under MPI ---------------------------------------------------------------------------
MPIEXEC = os.environ.get("MPIEXEC") or os.path.join(os.path.dirname(sys.executable), "mpiexec")


@pytest.mark.skipif(
    ak.backend() == "mpi" or not os.path.exists(MPIEXEC), reason="needs mpiexec, and not nested under it"
)
def test_only_rank_0_writes_under_mpi():
    script = (
        "import numpy as np, atoll as ak\n"
        "v = np.arange(1000)[::-1].copy()\n"
        "p = ak.argsort(ak.array(v)).to_ndarray()\n"
        "assert (p == np.argsort(v, kind='stable')).all()\n"
        "print('ok', ak.num_locales())\n"
    )
    env = dict(os.environ)
    env.pop("ATOLL_LOCALES", None)
    env.update(ATOLL_BACKEND="mpi", ATOLL_PROGRESS="1", ATOLL_PROGRESS_DELAY="0", ATOLL_PROGRESS_MIN_ROWS="0")
    r = subprocess.run([MPIEXEC, "-n", "2", sys.executable, "-c", script], capture_output=True, timeout=120, env=env)
    out, err = r.stdout.decode(), r.stderr.decode()  # bytes: the lines' carriage returns kept
    assert r.returncode == 0, err
    assert out.split() == ["ok", "2"]
    assert labels(err) == ["argsort", "to_ndarray"], err
