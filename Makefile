# Atoll: the two Quick start commands are `make demo` and `make test`.
# Everything they need is installed here: Debian's libclang-dev (for rsmpi's bindgen),
# the project venv .venv with MPICH from PyPI, and the Rust crates.

SHELL := /bin/bash
VENV := .venv
MPICH_VERSION := 5.0.2
PYTHON ?= python3
CARGO ?= cargo
STAMPS := .stamps
# The wheels' build tools (maturin, and CMake 3.26+ for atoll-python's hdf5-static feature,
# which builds HDF5 from source), from PyPI into a venv of their own; WHEEL_ENV puts them first
# on PATH. `make wheel` and friends are below.
WHEEL_TOOLS := target/wheel-tools
WHEEL_ENV := PATH=$(abspath $(WHEEL_TOOLS))/bin:$$PATH
WHEEL_DIR := target/wheels
WHEEL_VENV := target/wheel-venv
WHEEL_PYTHON ?= $(PYTHON)
MANYLINUX := manylinux_2_35
export MPIEXEC := $(abspath $(VENV))/bin/mpiexec
# Keep MPI runs polite on oversubscribed machines (4 ranks on 2 cores).
export ATOLL_MPIEXEC := $(MPIEXEC)

.PHONY: all demo test build build-python venv apt test-local test-mpi test-python bench clean doc examples-c loom lint stubtest test-cluster

all: build

$(STAMPS):
	mkdir -p $(STAMPS)

# libclang-dev for bindgen (rsmpi), libhdf5-dev for atoll-io's HDF5 files; installed only
# when missing.
$(STAMPS)/apt: | $(STAMPS)
	@if ! dpkg -s libclang-dev >/dev/null 2>&1; then \
		echo "installing libclang-dev (needed by rsmpi's bindgen)"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libclang-dev >/dev/null; \
	fi
	@if ! dpkg -s libhdf5-dev >/dev/null 2>&1; then \
		echo "installing libhdf5-dev (HDF5 files, through the hdf5-metno crate)"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libhdf5-dev >/dev/null; \
	fi
	touch $@

apt: $(STAMPS)/apt

# The project venv: MPICH (mpicc, mpiexec, libmpi) from the PyPI wheel.
$(VENV)/bin/mpiexec:
	$(PYTHON) -m venv $(VENV)
	$(VENV)/bin/python -m pip install -q --upgrade pip
	$(VENV)/bin/python -m pip install -q "mpich==$(MPICH_VERSION)"
	@test -x $(VENV)/bin/mpicc && test -x $(VENV)/bin/mpiexec

venv: $(VENV)/bin/mpiexec

# Release binaries with the MPI backend, and the Python package (atoll) in the venv.
build: apt venv
	$(CARGO) build --release --workspace --exclude atoll-python --features atoll-bench/mpi
	$(MAKE) build-python

# Python tooling in the venv: maturin builds the extension, pytest/hypothesis run its suite.
$(STAMPS)/pydeps: | $(STAMPS) $(VENV)/bin/mpiexec
	$(VENV)/bin/python -m pip install -q "maturin>=1.5,<2" "numpy>=1.24" pytest pytest-timeout pytest-env hypothesis scipy networkx pandas polars pyarrow duckdb matplotlib
	touch $@

# The pandas layer's tests compare files with h5py and print tables with tabulate.
$(STAMPS)/pydeps-pandas: | $(STAMPS) $(STAMPS)/pydeps
	$(VENV)/bin/python -m pip install -q h5py tabulate
	touch $@

# pandas' HDF5 reader and writer (`pd.read_hdf`, `DataFrame.to_hdf`, used by `ak.import_data`
# and `ak.export`) need PyTables.
$(STAMPS)/pydeps-tables: | $(STAMPS) $(STAMPS)/pydeps
	$(VENV)/bin/python -m pip install -q tables
	touch $@

# Ruff (Python lint and format) in the venv, pinned: every machine checks alike.
RUFF_VERSION := 0.17.6
$(STAMPS)/ruff: | $(STAMPS) $(VENV)/bin/mpiexec
	$(VENV)/bin/python -m pip install -q "ruff==$(RUFF_VERSION)"
	touch $@

# mypy's stubtest (the native module's stub against the module), pinned like ruff.
MYPY_VERSION := 2.4.1
$(STAMPS)/mypy: | $(STAMPS) $(VENV)/bin/mpiexec
	$(VENV)/bin/python -m pip install -q "mypy==$(MYPY_VERSION)"
	touch $@

# The gates CI runs before the tests (.ci/run): the formatters' checks (rustfmt, ruff format),
# clippy and rustdoc with warnings as errors, over every target and feature, ruff's lints, and
# mypy --strict over the package with the typing ratchet's lists honest (tools/typing_ratchet.py;
# mypy reads the types NumPy and matplotlib ship, so the lint installs the Python dependencies).
# atoll-python's hdf5-static feature only switches a dependency to HDF5 built from source (it
# adds no code of ours), so the gates take atoll-python with its other features, and a lint
# builds no HDF5 (the wheel's build does, `make wheel`). LINT_SCOPE narrows the Rust gates
# over the other crates, e.g. `make lint LINT_SCOPE="-p atoll-array"`.
LINT_SCOPE ?= --workspace --exclude atoll-python
LINT_PYTHON_FEATURES := --features mpi
lint: apt venv $(STAMPS)/ruff $(STAMPS)/mypy $(STAMPS)/pydeps
	$(CARGO) fmt --all --check
	$(CARGO) clippy $(LINT_SCOPE) --all-targets --all-features -- -D warnings
	$(CARGO) clippy -p atoll-python --all-targets $(LINT_PYTHON_FEATURES) -- -D warnings
	RUSTDOCFLAGS=-Dwarnings $(CARGO) doc $(LINT_SCOPE) --no-deps --all-features
	RUSTDOCFLAGS=-Dwarnings $(CARGO) doc -p atoll-python --no-deps $(LINT_PYTHON_FEATURES)
	$(VENV)/bin/ruff check python tools bench
	$(VENV)/bin/ruff format --check python tools bench
	python3 tools/module_cycles.py --rules
	python3 tools/py_import_cycles.py
	$(VENV)/bin/python -m mypy
	python3 tools/typing_ratchet.py --check
	$(MAKE) -s stubtest

# The stub python/atoll/_atoll.pyi against the built module atoll._atoll: every binding, its
# parameters and defaults (tools/stubtest_allowlist.txt: what stubtest cannot see).
stubtest: build-python $(STAMPS)/mypy
	$(VENV)/bin/python -m mypy.stubtest atoll._atoll --allowlist tools/stubtest_allowlist.txt --concise

# The atoll package, release mode, with the MPI backend, installed (editable) into the venv.
build-python: apt venv $(STAMPS)/pydeps $(STAMPS)/pydeps-pandas $(STAMPS)/pydeps-tables
	VIRTUAL_ENV=$(abspath $(VENV)) PATH=$(abspath $(VENV))/bin:$$PATH $(VENV)/bin/maturin develop --release --features mpi -q

# Wheels, in target/wheels (README's Install says what each needs and takes).
# `make wheel`: the portable one, for any x86-64 Linux with glibc 2.35 or later (the newest
# symbol version it uses is `hypot`'s): the in-process backend, HDF5 built from source and
# linked in (hdf5-static), stripped, tagged manylinux after maturin's compatibility check.
# `make wheel-mpi`: the MPI flavour, to install with the MPICH wheel (`atoll[mpi]`): it links
# the libmpi.so.12 that the mpich wheel puts in <env>/lib (rpath $$ORIGIN/../../..), so it is
# tagged linux, not manylinux; its build needs libclang (rsmpi's bindgen) and the venv's mpicc.
# Both build in target/'s release profile, beside build-python's build, with which they share
# the crates whose features agree.
.PHONY: wheel wheel-mpi test-wheel check-portable

$(WHEEL_TOOLS)/bin/maturin:
	$(PYTHON) -m venv $(WHEEL_TOOLS)
	$(WHEEL_TOOLS)/bin/python -m pip install -q "maturin>=1.5,<2" "cmake>=3.26,<5"

wheel: $(WHEEL_TOOLS)/bin/maturin
	mkdir -p $(WHEEL_DIR) && rm -f $(WHEEL_DIR)/atoll-*.whl
	$(WHEEL_ENV) maturin build --release --strip --features hdf5-static \
		--compatibility $(MANYLINUX) --auditwheel check -i $(WHEEL_PYTHON) -o $(WHEEL_DIR)
	@ls -l $(WHEEL_DIR)/atoll-*.whl

wheel-mpi: apt venv $(WHEEL_TOOLS)/bin/maturin
	mkdir -p $(WHEEL_DIR)-mpi && rm -f $(WHEEL_DIR)-mpi/atoll-*.whl
	$(WHEEL_ENV) maturin build --release --strip --features mpi,hdf5-static --compatibility linux \
		-i $(VENV)/bin/python -o $(WHEEL_DIR)-mpi -- -C 'link-arg=-Wl,-rpath,$$ORIGIN/../../..'
	@ls -l $(WHEEL_DIR)-mpi/atoll-*.whl

# The portable wheel in a fresh venv with its core dependencies only (NumPy): it imports from
# there and runs the README's and the Python guide's examples that need no extra
# (tools/wheel_check.py); then with atoll[test] (the extras pandas and io, pytest, SciPy,
# polars): the whole guide, and the IO tests that compare its files with pyarrow's and h5py's.
test-wheel: wheel
	rm -rf $(WHEEL_VENV)
	$(WHEEL_PYTHON) -m venv $(WHEEL_VENV)
	$(WHEEL_VENV)/bin/python -m pip install -q $(WHEEL_DIR)/atoll-*.whl
	ATOLL_LOCALES=2 $(WHEEL_VENV)/bin/python tools/wheel_check.py core
	$(WHEEL_VENV)/bin/python -m pip install -q "$$(ls $(WHEEL_DIR)/atoll-*.whl)[test]"
	$(WHEEL_VENV)/bin/python -c 'import atoll, sys; assert atoll.__file__.startswith(sys.prefix), atoll.__file__'
	ATOLL_LOCALES=2 $(WHEEL_VENV)/bin/python -m pytest -q -p no:cacheprovider \
		python/tests/test_guide.py python/tests/test_io.py python/tests/test_pandas_io.py

# The fallbacks that other systems get in place of Linux-only calls (futex waits, thread
# affinity), compiled and tested on Linux with `--cfg atoll_portable` (in target/portable); and
# the local backend's crates checked for macOS where rustup has that target.
check-portable:
	RUSTFLAGS="--cfg atoll_portable" CARGO_TARGET_DIR=target/portable \
		$(CARGO) test -p atoll-share --lib futex
	RUSTFLAGS="--cfg atoll_portable" CARGO_TARGET_DIR=target/portable \
		$(CARGO) test -p atoll-share --test shared signal
	RUSTFLAGS="--cfg atoll_portable" CARGO_TARGET_DIR=target/portable \
		$(CARGO) check -p atoll-runtime -p atoll-share --all-targets
	@if rustup target list --installed 2>/dev/null | grep -qx x86_64-apple-darwin; then \
		CARGO_TARGET_DIR=target/portable $(CARGO) check --target x86_64-apple-darwin \
			-p atoll -p atoll-share -p atoll-graph; \
	else echo "check-portable: no x86_64-apple-darwin target (rustup target add x86_64-apple-darwin)"; fi

# The tour, on the embedded backend with 4 locales (no MPI needed).
demo:
	ATOLL_LOCALES=$${ATOLL_LOCALES:-4} $(CARGO) run --release -q -p atoll-bench --bin atoll-demo
	$(MAKE) -s build-python
	ATOLL_LOCALES=$${ATOLL_LOCALES:-4} $(VENV)/bin/python python/examples/tour.py

# Every test: the local backend (1-4 locales in process), the MPI suite (2 and 4 ranks), then
# the Python package's pytest suite (1, 2, 4 locales in process, then mpiexec -n 2 and -n 3),
# then the MPI suite across a simulated cluster (skipped, saying so, where it cannot be made),
# then the portable wheel installed in a fresh venv, and the fallbacks for other systems.
test: test-local test-mpi test-python test-cluster test-wheel check-portable

# The tests fill every array part made to be overwritten (`DistArray::for_overwrite`: results
# of cumsum, take, sorts, Python expressions) with a poison byte, so that an operation reading
# an element it has not written shows in their checks.
test-local test-mpi test-python test-cluster: export ATOLL_POISON_OVERWRITE := 1

# The Python extension is left out of cargo's tests (a PyO3 extension module links against
# the interpreter that loads it); test-python covers it.
test-local: examples-c
	$(CARGO) test --workspace --exclude atoll-python

# The C++ consumer of shared arrays (examples/c/, protocol in its header comment), built with
# the system c++ against include/atoll.h and libatoll_capi (crates/atoll-capi's test builds
# and runs it too, also in new namespaces).
examples-c:
	$(CARGO) build -p atoll-capi
	mkdir -p target/examples-c
	$${CXX:-c++} -O2 -std=c++17 -Wall -Wextra -Werror -Iinclude examples/c/spmv_consumer.cpp \
		-Ltarget/debug -latoll_capi -Wl,-rpath,$(abspath target/debug) -o target/examples-c/spmv_consumer
	$${CXX:-c++} -O2 -std=c++17 -Wall -Wextra -Werror -Iinclude examples/c/hitting_consumer.cpp \
		-Ltarget/debug -latoll_capi -Wl,-rpath,$(abspath target/debug) -o target/examples-c/hitting_consumer

# The Examples of the documented modules' docstrings (tools/typing_ratchet.py --documented) run as
# doctests, at 2 locales, each importing what it uses (python/conftest.py).
test-python: build-python
	$(VENV)/bin/python tools/py_import_cycles.py --import
	ATOLL_LOCALES=2 $(VENV)/bin/python -m pytest -q -p no:cacheprovider --import-mode=importlib --doctest-modules $$(python3 tools/typing_ratchet.py --documented)
	for n in 1 2 4; do ATOLL_LOCALES=$$n $(VENV)/bin/python -m pytest -q -p no:cacheprovider python/tests || exit 1; done
	for n in 2 3; do ATOLL_BACKEND=mpi ATOLL_HYPOTHESIS_EXAMPLES=10 $(MPIEXEC) -n $$n $(VENV)/bin/python -m pytest -q -p no:cacheprovider python/tests || exit 1; done

test-mpi: apt venv
	$(CARGO) test -p atoll-runtime --features mpi --test mpi_launch -- --test-threads=1
	$(CARGO) test -p atoll-array --features mpi --test mpi_launch -- --test-threads=1
	$(CARGO) test -p atoll-array --features mpi --test mpi_launch_irregular -- --test-threads=1
	$(CARGO) test -p atoll-array --features mpi --test mpi_launch_sublocales -- --test-threads=1
	$(CARGO) test -p atoll-ops --features mpi --test mpi_launch -- --test-threads=1
	$(CARGO) test -p atoll-share --features mpi --test mpi_launch -- --test-threads=1
	$(CARGO) test -p atoll-graph --features mpi --test mpi_launch -- --test-threads=1
	$(CARGO) test -p atoll-strings --features mpi --test mpi_launch -- --test-threads=1
	$(CARGO) test -p atoll-bench --features mpi --test ft_mpi -- --test-threads=1
	$(CARGO) test -p atoll-bench --features mpi --test arkouda_mpi -- --test-threads=1

# The loom models of the local backend's barrier and the MPI backend's shared-memory inbox
# ring (crates/atoll-runtime/src/sync.rs): every interleaving within LOOM_MAX_PREEMPTIONS
# preemptions. A build of its own (`--cfg loom` swaps the primitives), in target/loom.
loom:
	RUSTFLAGS="--cfg loom" CARGO_TARGET_DIR=target/loom LOOM_MAX_PREEMPTIONS=$${LOOM_MAX_PREEMPTIONS:-2} \
		$(CARGO) test -p atoll-runtime --lib --release -- loom

# The MPI suite across a simulated cluster of 2 hosts (tools/cluster/: network, UTS, IPC, PID
# and mount namespaces joined by a virtual switch; needs root, ip netns and unshare, and says
# so and skips without them): the Rust MPI suites placed round-robin and in blocks (2 hosts x
# 1 rank, 2 x 2), pytest under MPI (all of it on 2 x 1, a subset on 2 x 2 blocked and 2 x 2
# round-robin), and the fault tests (a host crash, a link down for good or for 20 s, a host
# that stops answering, SIGTERM to mpiexec). Details: docs/cluster.md.
test-cluster: apt venv build-python
	tools/cluster/suite.sh

bench: build
	@echo "see docs/BENCHMARKS.md for the benchmark commands"

doc:
	$(CARGO) doc --workspace --no-deps

clean:
	$(CARGO) clean
	rm -rf $(STAMPS)
