//! Shared arrays under MPI: `atoll-share-selftest` on 2 and 3 ranks (each rank writes its own
//! block file, rank 0 the metadata after all; see the program).
#![cfg(feature = "mpi")]

use std::time::Duration;

#[allow(dead_code)]
#[path = "../../atoll-array/tests/support/launch.rs"]
mod launch;

fn ranks(n: usize) {
    let dir = std::env::temp_dir().join(format!("atoll-share-mpi-{n}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let so = launch_with_dir(n, &dir);
    assert!(so.contains("share selftest ok"));
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

fn launch_with_dir(n: usize, dir: &std::path::Path) -> String {
    // The selftest takes its directory from the environment of the launch (argv is fixed by
    // launch()): a small wrapper script would do too, the variable is simpler.
    std::env::set_var("ATOLL_SHARE_SELFTEST_DIR", dir);
    launch::launch(
        env!("CARGO_BIN_EXE_atoll-share-selftest"),
        "the share selftest",
        "share selftest ok",
        n,
        Duration::from_secs(120),
    )
}

#[test]
fn shared_arrays_under_mpi_on_2_and_3_ranks() {
    ranks(2);
    ranks(3);
}
