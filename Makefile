# Atoll: the two Quick start commands are `make demo` and `make test`.
# Everything they need is installed here: Debian's libclang-dev (for rsmpi's bindgen),
# the project venv .venv with MPICH from PyPI, and the Rust crates.

SHELL := /bin/bash
VENV := .venv
MPICH_VERSION := 5.0.2
PYTHON ?= python3
CARGO ?= cargo
STAMPS := .stamps
export MPIEXEC := $(abspath $(VENV))/bin/mpiexec
# Keep MPI runs polite on oversubscribed machines (4 ranks on 2 cores).
export ATOLL_MPIEXEC := $(MPIEXEC)

.PHONY: all demo test build venv apt test-local test-mpi bench clean doc

all: build

$(STAMPS):
	mkdir -p $(STAMPS)

# libclang-dev for bindgen (rsmpi); installed only when missing.
$(STAMPS)/apt: | $(STAMPS)
	@if ! dpkg -s libclang-dev >/dev/null 2>&1; then \
		echo "installing libclang-dev (needed by rsmpi's bindgen)"; \
		SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
		$$SUDO apt-get update -qq && $$SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq libclang-dev >/dev/null; \
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

# Release binaries with the MPI backend.
build: apt venv
	$(CARGO) build --release --workspace --features atoll-bench/mpi

# The tour, on the embedded backend with 4 locales (no MPI needed).
demo:
	ATOLL_LOCALES=$${ATOLL_LOCALES:-4} $(CARGO) run --release -q -p atoll-bench --bin atoll-demo

# Every test: the local backend (1-4 locales in process), then the MPI suite (2 and 4 ranks).
test: test-local test-mpi

test-local:
	$(CARGO) test --workspace

test-mpi: apt venv
	$(CARGO) test -p atoll-runtime --features mpi --test mpi_launch -- --test-threads=1
	$(CARGO) test -p atoll-array --features mpi --test mpi_launch -- --test-threads=1
	$(CARGO) test -p atoll-array --features mpi --test mpi_launch_irregular -- --test-threads=1
	$(CARGO) test -p atoll-ops --features mpi --test mpi_launch -- --test-threads=1

bench: build
	@echo "see docs/BENCHMARKS.md for the benchmark commands"

doc:
	$(CARGO) doc --workspace --no-deps

clean:
	$(CARGO) clean
	rm -rf $(STAMPS)
