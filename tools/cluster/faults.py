#!/usr/bin/env python3
"""Fault tests on the simulated cluster (run by `tools/cluster/suite.sh`, `make test-cluster`).

Each test starts the runtime's `soak` selftest (ranks that keep communicating: puts, gets,
`on`, collectives) on 2 hosts x 2 ranks, injects one fault with `tools/cluster/cluster fail`,
and checks how the job ends: its message (text), the time it took, and that no process is
left on any host.

    ATOLL_CLUSTER=<name> tools/cluster/faults.py SELFTEST [TEST...]

SELFTEST is the runtime's MPI suite binary (`cargo test -p atoll-runtime --features mpi
--test mpi_launch --no-run` prints it), whose program runs the scenario; TESTs are among
crash, partition, outage, freeze, sigterm (default: all). The cluster must be up (`cluster up 2`) and is left as it was found.
"""

import os
import re
import signal
import subprocess
import sys
import threading
import time

HERE = os.path.dirname(os.path.abspath(__file__))
CLUSTER = os.path.join(HERE, "cluster")


def cluster(*args):
    return subprocess.run([CLUSTER, *args], capture_output=True, text=True, check=False)


def host_pids():
    """Processes still running on the hosts and the head: [(host, pid, command)]."""
    out = cluster("pids").stdout
    return [tuple(line.split(" ", 2)) for line in out.splitlines() if line.strip()]


# The runtime's MPI suite binary runs its program as an ignored test (atoll-testkit), the
# scenario named by ATOLL_TESTKIT_ARG.
PROGRAM_ARGS = ["selftest_program", "--exact", "--ignored", "--nocapture", "--test-threads=1", "-q"]


class Job:
    """A soak job on 2 hosts x 2 ranks (blocked: ranks 0, 1 on h0; 2, 3 on h1)."""

    def __init__(self, selftest, seconds, env):
        e = dict(os.environ)
        e.update({"ATOLL_BACKEND": "mpi", "ATOLL_SELFTEST_SOAK_S": str(seconds), "ATOLL_TESTKIT_ARG": "soak"})
        e.update(env)
        self.start = time.monotonic()
        self.p = subprocess.Popen(
            [CLUSTER, "mpiexec", "-n", "4", "-ppn", "2", selftest, *PROGRAM_ARGS],
            env=e,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines = []
        self.started = threading.Event()
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self):
        for line in self.p.stdout:
            self.lines.append(line)
            if "soak: every rank started" in line:
                self.started.set()

    def wait_started(self, limit=60.0, settle=2.0):
        """Waits until every rank runs the soak (a slow launch must not meet the fault),
        then `settle` seconds of traffic."""
        if not self.started.wait(limit):
            raise Failed(
                f"the job did not start within {limit:.0f} s\n--- job output ---\n{''.join(self.lines)[-6000:]}"
            )
        time.sleep(settle)

    def wait(self, limit):
        """(returncode, seconds since start, output); kills the launcher past `limit`."""
        try:
            self.p.wait(timeout=limit)
        except subprocess.TimeoutExpired:
            self.p.kill()
            self.p.wait()
            self.reader.join(10)
            return None, time.monotonic() - self.start, "".join(self.lines)
        self.reader.join(10)
        return self.p.returncode, time.monotonic() - self.start, "".join(self.lines)


class Failed(Exception):
    pass


def expect(cond, what, out=""):
    if not cond:
        raise Failed(f"{what}\n--- job output ---\n{out[-6000:]}")


def nothing_left(within=5.0):
    """Every process on the cluster's hosts has ended within `within` seconds."""
    end = time.monotonic() + within
    left = host_pids()
    while left and time.monotonic() < end:
        time.sleep(0.2)
        left = host_pids()
    return left


def no_crash(out):
    return "EXIT CODE: 11" not in out and "Segmentation fault" not in out and "EXIT CODE: 139" not in out


def ended_by_watch(out, silent_host):
    """The watch's message: a rank names an unreachable rank of `silent_host` and what it
    was waiting for."""
    pat = rf"atoll: rank \d \(host h\d\) ends the job: rank \d \(host {silent_host}\) has not answered for \d+ s .* while rank \d \(host h\d\) (waited \d+ s in .+|was not waiting in communication)"
    return re.search(pat, out) is not None


def test_crash(selftest, timeout=10):
    """A host dies without a word: the job ends within the peer timeout + 10 s, naming it."""
    env = {"ATOLL_PEER_TIMEOUT": str(timeout), "CLUSTER_SSH_TIMEOUT": str(timeout + 5)}
    job = Job(selftest, 120, env)
    job.wait_started()
    t0 = time.monotonic()
    cluster("fail", "h1", "crash")
    rc, _, out = job.wait(timeout + 40)
    took = time.monotonic() - t0
    try:
        expect(rc is not None and rc != 0, f"the job did not end (rc {rc})", out)
        expect(took <= timeout + 10, f"the job took {took:.1f} s after the crash", out)
        expect(ended_by_watch(out, "h1"), "no message naming the lost host's rank", out)
        left = nothing_left()
        expect(not left, f"processes left: {left}", out)
    finally:
        cluster("fail", "h1", "up")
    return f"ended {took:.1f} s after the crash (timeout {timeout} s), rc {rc}"


def test_partition(selftest, timeout=10):
    """A link down for good: both sides end (no orphan on the cut-off host)."""
    env = {"ATOLL_PEER_TIMEOUT": str(timeout), "CLUSTER_SSH_TIMEOUT": str(timeout + 5)}
    job = Job(selftest, 120, env)
    job.wait_started()
    t0 = time.monotonic()
    cluster("fail", "h1", "down")
    try:
        rc, _, out = job.wait(timeout + 40)
        took = time.monotonic() - t0
        expect(rc is not None and rc != 0, f"the job did not end (rc {rc})", out)
        expect(took <= timeout + 10, f"the job took {took:.1f} s after the cut", out)
        expect(ended_by_watch(out, "h1"), "no message naming the cut-off rank", out)
        expect(no_crash(out), "a rank crashed", out)
        # The cut-off host's ranks end by themselves (their own watch), and its launcher
        # side when its connection times out.
        left = nothing_left(timeout + 10 - took + 2)
        expect(not left, f"processes left: {left}", out)
        took_all = time.monotonic() - t0
    finally:
        cluster("fail", "h1", "up")
    return f"ended {took:.1f} s after the cut, everything gone after {took_all:.1f} s (timeout {timeout} s)"


def test_outage(selftest, timeout=30, outage=20):
    """A link down for 20 s, shorter than the timeout: the job goes on (or ends with the
    watch's message), never crashes; stall reports name the silent ranks."""
    env = {"ATOLL_PEER_TIMEOUT": str(timeout), "CLUSTER_SSH_TIMEOUT": str(timeout + 5)}
    job = Job(selftest, outage + 20, env)
    job.wait_started()
    cluster("fail", "h1", "down")
    time.sleep(outage)
    cluster("fail", "h1", "up")
    rc, took, out = job.wait(outage + timeout + 60)
    expect(rc is not None, "the job did not end", out)
    expect(no_crash(out), "a rank crashed", out)
    if rc == 0:
        expect("selftest soak ok" in out, "no success line", out)
    else:
        expect(ended_by_watch(out, r"h\d"), f"rc {rc} without the watch's message", out)
    expect("has not answered" in out, "no stall report naming a silent rank", out)
    expect("in a different order" not in out, "the collective-order hint during an outage", out)
    left = nothing_left()
    expect(not left, f"processes left: {left}", out)
    iters = re.search(r"soak iterations (\d+)", out)
    return f"rc {rc} after {took:.1f} s ({iters.group(0) if iters else 'no iteration count'})"


def test_freeze(selftest, timeout=30, pause=8):
    """A host that stops answering for 8 s (its processes stopped): the waits stalled on it,
    RMA flushes included, are reported naming it; the job then goes on."""
    env = {"ATOLL_PEER_TIMEOUT": str(timeout)}
    job = Job(selftest, 25, env)
    job.wait_started()
    pids = [p for h, p, _ in host_pids() if h == "h1"]
    for p in pids:
        os.kill(int(p), signal.SIGSTOP)
    time.sleep(pause)
    for p in pids:
        os.kill(int(p), signal.SIGCONT)
    rc, took, out = job.wait(120)
    expect(rc == 0 and "selftest soak ok" in out, f"the job failed (rc {rc})", out)
    expect(re.search(r"has waited \d+ s in MPI_Win_flush", out), "no stall report of an RMA flush", out)
    expect(re.search(r"rank [23] \(host h1\) has not answered for \d+ s", out), "the report does not name h1", out)
    expect("in a different order" not in out, "the collective-order hint while h1 is silent", out)
    left = nothing_left()
    expect(not left, f"processes left: {left}", out)
    return f"rc {rc} after {took:.1f} s"


def test_sigterm(selftest):
    """SIGTERM to the launcher ends every rank within 5 s."""
    job = Job(selftest, 120, {})
    job.wait_started()
    t0 = time.monotonic()
    job.p.send_signal(signal.SIGTERM)
    left = nothing_left(5.0)
    took = time.monotonic() - t0
    rc, _, out = job.wait(10)
    expect(not left, f"processes left 5 s after SIGTERM: {left}", out)
    expect(rc is not None, "the launcher did not end", out)
    return f"every process gone {took:.1f} s after SIGTERM, launcher rc {rc}"


TESTS = {
    "crash": test_crash,
    "partition": test_partition,
    "outage": test_outage,
    "freeze": test_freeze,
    "sigterm": test_sigterm,
}


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    selftest = os.path.abspath(sys.argv[1])
    names = sys.argv[2:] or list(TESTS)
    failed = 0
    for name in names:
        if host_pids():
            print(f"fault {name}: FAILED: processes running before the test: {host_pids()}")
            failed += 1
            continue
        t = time.monotonic()
        try:
            what = TESTS[name](selftest)
            print(f"fault {name}: ok ({what}; test {time.monotonic() - t:.0f} s)", flush=True)
        except Failed as e:
            failed += 1
            print(f"fault {name}: FAILED: {e}", flush=True)
            cluster("fail", "h1", "up")
            for h, p, _ in host_pids():
                try:
                    os.kill(int(p), signal.SIGKILL)
                except OSError:
                    pass
    sys.exit(1 if failed else 0)


if __name__ == "__main__":
    main()
