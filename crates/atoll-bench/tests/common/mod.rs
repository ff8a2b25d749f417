//! Launching `atoll-bench` under MPI for the integration tests.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// `ATOLL_MPIEXEC` or `MPIEXEC`, else the project venv's MPICH.
fn mpiexec() -> String {
    std::env::var("ATOLL_MPIEXEC")
        .or_else(|_| std::env::var("MPIEXEC"))
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/../../.venv/bin/mpiexec").into())
}

/// Runs `atoll-bench args` on `ranks` ranks of the MPI backend with a hard time limit (a hang
/// fails); returns stdout, after asserting that the launch succeeded.
pub fn launch(ranks: usize, args: &[&str]) -> String {
    let mut child = Command::new(mpiexec())
        .args(["-n", &ranks.to_string(), env!("CARGO_BIN_EXE_atoll-bench")])
        .args(args)
        .env("ATOLL_BACKEND", "mpi")
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cannot start mpiexec: run `make venv` first");
    let start = Instant::now();
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > Duration::from_secs(300) {
            let _ = child.kill();
            break;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("output");
    let (so, se) = (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "atoll-bench {args:?} on {ranks} ranks failed or hung\nstdout:\n{so}\nstderr:\n{se}");
    so
}
