//! The MPI suite of sublocale-target arrays: launches `atoll-array-sublocale-selftest` under
//! `mpiexec -n 2` with one sublocale per core and `-n 3` with one per rank, and checks that
//! every check passed on every rank (the same checks `tests/sublocales.rs` runs locally).
#![cfg(feature = "mpi")]

use std::time::Duration;

#[path = "support/launch.rs"]
#[allow(dead_code)] // `counts` is for the counting suites
mod launch;

#[test]
fn sublocale_arrays_under_mpi_on_2_and_3_ranks() {
    // One test (not one per case): the sublocale mode travels to the ranks in the environment.
    for (ranks, mode) in [(2, "core"), (3, "none")] {
        std::env::set_var("ATOLL_SUBLOCALES", mode);
        let exe = env!("CARGO_BIN_EXE_atoll-array-sublocale-selftest");
        let so =
            launch::launch(exe, "the sublocale selftest", "sublocale selftest ok", ranks, Duration::from_secs(300));
        assert!(so.contains("sublocale checks:"), "{so}");
    }
}
