//! Launching an MPI selftest program from a test: shared by the MPI suites of `atoll-array`
//! (arrays, gather/scatter) and `atoll-ops` (sorts), which include this file by path.

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// `ATOLL_MPIEXEC` or `MPIEXEC`, else the project venv's MPICH.
fn mpiexec() -> String {
    std::env::var("ATOLL_MPIEXEC")
        .or_else(|_| std::env::var("MPIEXEC"))
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/../../.venv/bin/mpiexec").into())
}

/// Runs `exe` (the selftest called `what` in messages) on `n` ranks with the MPI backend and a
/// hard time limit (a hang fails instead of blocking), checks that it succeeded and printed
/// `ok_line`, and returns its stdout.
pub fn launch(exe: &str, what: &str, ok_line: &str, n: usize, limit: Duration) -> String {
    let mut cmd = Command::new(mpiexec());
    cmd.args(["-n", &n.to_string(), exe]).env("ATOLL_BACKEND", "mpi");
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let start = Instant::now();
    let mut child = cmd.spawn().expect("cannot start mpiexec: run `make venv` first");
    while child.try_wait().expect("wait").is_none() {
        if start.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().expect("output");
            panic!(
                "{what} on {n} ranks did not end within {limit:?}\nstdout:\n{}\nstderr:\n{}",
                String::from_utf8_lossy(&out.stdout),
                String::from_utf8_lossy(&out.stderr)
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().expect("output");
    let (so, se) = (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr));
    assert!(out.status.success(), "{what} on {n} ranks failed\nstdout:\n{so}\nstderr:\n{se}");
    assert!(so.contains(ok_line), "{so}\n{se}");
    so
}

/// The `counts` lines of a report.
pub fn counts(report: &str) -> Vec<String> {
    report.lines().filter(|l| l.starts_with("counts ")).map(str::to_string).collect()
}
