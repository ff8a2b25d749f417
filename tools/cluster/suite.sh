#!/usr/bin/env bash
# The MPI test suite across a simulated cluster of 2 hosts (what `make test-cluster` runs):
#
#   1. the Rust MPI suites (the selftest programs under `mpiexec`) with ranks placed
#      round-robin (2 ranks: 2 hosts x 1; 4 ranks: 2 x 2 round-robin) and in blocks
#      (4 ranks: 2 x 2 blocked; 3 ranks: 2 + 1);
#   2. the pytest suite under MPI: all of it on 2 x 1, a subset on 2 x 2 blocked and 2 x 2
#      round-robin;
#   3. the fault tests (faults.py): a host crash, a link down for good, a 20 s outage, a host
#      that stops answering for 8 s, SIGTERM to the launcher.
#
# Needs root, iproute2 and unshare (network, UTS, IPC, PID and mount namespaces): without
# them it says so and skips (exit 0). The cluster gets its own name (ATOLL_CLUSTER, default
# atc<pid>) and is torn down on every exit, failures and interrupts included.
#
#   tools/cluster/suite.sh [rust] [python] [faults]     (default: all three)
set -uo pipefail
cd "$(dirname "$0")/../.."
root=$PWD
C=$root/tools/cluster/cluster
if ! why=$("$C" check 2>&1); then
    echo "test-cluster: SKIPPED: no simulated cluster on this host ($why); it needs root, ip netns and unshare"
    exit 0
fi
export ATOLL_CLUSTER=${ATOLL_CLUSTER:-atc$$}
cleanup() { "$C" down >/dev/null 2>&1 || true; }
trap cleanup EXIT
trap 'echo "test-cluster: interrupted"; exit 130' INT TERM
"$C" up 2 || exit 1

export ATOLL_MPIEXEC=$root/tools/cluster/layout-mpiexec
export ATOLL_POISON_OVERWRITE=1
CARGO=${CARGO:-cargo}
parts=${*:-rust python faults}
failed=()

step() { # name command...
    local name=$1 t0=$SECONDS
    shift
    echo "== test-cluster: $name"
    if "$@"; then
        echo "== test-cluster: $name: ok ($((SECONDS - t0)) s)"
    else
        echo "== test-cluster: $name: FAILED ($((SECONDS - t0)) s)"
        failed+=("$name")
    fi
    local left
    left=$("$C" pids)
    if [ -n "$left" ]; then
        echo "== test-cluster: processes left after $name:"
        echo "$left"
        failed+=("$name (left processes)")
        "$C" down >/dev/null 2>&1
        "$C" up 2 >/dev/null || exit 1
    fi
}

# The Rust MPI suites (as `make test-mpi` runs them), with a layout and test filter options.
rust_suites() { # layout [libtest options]
    export CLUSTER_LAYOUT=$1
    shift
    local t rc=0
    for t in "atoll-runtime mpi_launch" "atoll-array mpi_launch" "atoll-array mpi_launch_irregular" \
        "atoll-array mpi_launch_sublocales" "atoll-ops mpi_launch" "atoll-share mpi_launch" \
        "atoll-graph mpi_launch" "atoll-strings mpi_launch"; do
        set -- $t "$@"
        local pkg=$1 test=$2
        shift 2
        $CARGO test -q -p "$pkg" --features mpi --test "$test" -- --test-threads=1 "$@" || rc=1
    done
    return $rc
}

pytest_mpi() { # layout ranks [pytest args]
    local layout=$1 n=$2
    shift 2
    CLUSTER_LAYOUT=$layout ATOLL_BACKEND=mpi ATOLL_HYPOTHESIS_EXAMPLES=10 \
        "$ATOLL_MPIEXEC" -n "$n" "$root/.venv/bin/python" -m pytest -q -p no:cacheprovider "$@"
}

# The subset of the pytest suite for the 2 x 2 layouts (4 ranks: each test costs several
# times its 2-rank time on 2 cores): an Arkouda script end to end and the operations that
# communicate most (sorts, GroupBy, gather/scatter indexing, set operations, strings).
PY_SUBSET=(python/tests/test_arkouda_script.py python/tests/test_sorting.py python/tests/test_groupby.py
    python/tests/test_index.py python/tests/test_setops.py python/tests/test_str_groupby.py)

for part in $parts; do
    case $part in
        rust)
            step "Rust MPI suites, round-robin (2 x 1, 2 x 2 round-robin)" rust_suites rr
            # Two ranks are placed alike either way (2 x 1): the blocked pass skips the tests
            # that launch only 2 ranks.
            step "Rust MPI suites, blocked (2 x 2 blocked, 2 + 1)" rust_suites blocked --skip _on_2_ranks
            ;;
        python)
            subset=()
            for f in "${PY_SUBSET[@]}"; do [ -e "$f" ] && subset+=("$f"); done
            step "pytest under MPI, 2 x 1 (all)" pytest_mpi rr 2 python/tests
            step "pytest under MPI, 2 x 2 blocked (subset)" pytest_mpi blocked 4 "${subset[@]}"
            step "pytest under MPI, 2 x 2 round-robin (subset)" pytest_mpi rr 4 "${subset[@]}"
            # Scripts launched by mpiexec (the driver on rank 0 ends normally, by an exception,
            # by sys.exit): the in-process test that launches them, with the cluster's mpiexec.
            step "pytest: scripts under mpiexec, 2 x 1" env CLUSTER_LAYOUT=rr MPIEXEC="$ATOLL_MPIEXEC" \
                "$root/.venv/bin/python" -m pytest -q -p no:cacheprovider python/tests/test_mpi_launch.py
            ;;
        faults)
            # The runtime's MPI suite binary holds the program (its ignored `selftest_program`).
            exe=$($CARGO test -p atoll-runtime --features mpi --test mpi_launch --no-run 2>&1 |
                grep -o '[^ (]*deps/mpi_launch-[0-9a-f]*' | tail -1)
            [ -n "$exe" ] && [ -f "$root/$exe" ] && exe="$root/$exe"
            [ -n "$exe" ] && [ -f "$exe" ] && [ -x "$exe" ] || { failed+=("build"); continue; }
            step "fault tests (2 x 2 blocked)" "$root/tools/cluster/faults.py" "$exe"
            ;;
        *) echo "suite.sh: unknown part $part (rust, python, faults)"; exit 2 ;;
    esac
done

if [ ${#failed[@]} -gt 0 ]; then
    echo "test-cluster: FAILED: ${failed[*]}"
    exit 1
fi
echo "test-cluster: every part passed ($parts)"
