"""Scripts under mpiexec: rank 0 runs the script, the other ranks serve inside ``import atoll``
and leave when the driver ends (normally, by an exception, by sys.exit). Run from the
in-process suite (skipped when the suite itself runs under MPI)."""

import os
import subprocess
import sys

import atoll as ak
import pytest

MPIEXEC = os.environ.get("MPIEXEC") or os.path.join(os.path.dirname(sys.executable), "mpiexec")
pytestmark = pytest.mark.skipif(
    ak.backend() == "mpi" or not os.path.exists(MPIEXEC), reason="needs mpiexec, and not nested under it"
)


def launch(body, n=2):
    script = "import sys, atoll as ak\n" + body
    env = dict(os.environ)
    env.pop("ATOLL_LOCALES", None)
    env["ATOLL_BACKEND"] = "mpi"
    return subprocess.run(
        [MPIEXEC, "-n", str(n), sys.executable, "-c", script], capture_output=True, text=True, timeout=120, env=env
    )


def test_rank0_runs_the_script_once():
    r = launch("a = ak.arange(100)\nprint('sum', ak.sum(a * 2), ak.num_locales(), ak.backend())\n", n=3)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["sum 9900 3 mpi"]


def test_exception_ends_the_job_with_its_status():
    r = launch("a = ak.arange(10)\nraise RuntimeError('boom')\nprint('never')\n")
    assert r.returncode != 0 and "boom" in r.stderr and "never" not in r.stdout


def test_sys_exit_status_is_kept():
    r = launch("a = ak.arange(10)\nsys.exit(3)\n")
    assert r.returncode == 3, r.stderr


def test_use_after_shutdown_ends_the_job_with_its_message():
    r = launch("a = ak.arange(10)\nak.shutdown()\nak.arange(3)\nprint('never')\n", n=3)
    assert r.returncode != 0 and "MPI job has ended" in r.stderr and "never" not in r.stdout


def test_init_with_a_locale_count_ends_the_job_with_its_message():
    r = launch("ak.init(locales=2)\nprint('never')\n", n=2)
    assert r.returncode != 0 and "mpiexec -n" in r.stderr and "never" not in r.stdout


def test_init_under_mpi_keeps_the_running_job():
    r = launch("a = ak.arange(10)\nak.init()\nak.connect()\nprint('sum', ak.sum(a), ak.num_locales())\n", n=2)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == ["sum 45 2"]
