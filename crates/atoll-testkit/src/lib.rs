//! What Atoll's test suites share (a dev-dependency of the crates that test under MPI).
//!
//! **MPI launches without a separate program.** A launch test starts *its own test binary*
//! under `mpiexec`, running one `#[ignore]`d test of the same file, the *program* (the ranks'
//! code, with the scenarios of the suite at hand), and checks what the ranks printed:
//!
//! ```no_run
//! use atoll_testkit::{launch, selftest, Program};
//! use std::time::Duration;
//!
//! const PROGRAM: Program = Program::new("selftest_program");
//!
//! /// The ranks' program: started by the launches below, never as a test.
//! #[test]
//! #[ignore = "the MPI program of the launches below"]
//! fn selftest_program() {
//!     selftest("demo selftest", |ctx| Ok(format!("counts {}", ctx.num_locales())));
//! }
//!
//! #[test]
//! fn demo_under_mpi() {
//!     let out = launch(&PROGRAM, "demo selftest ok", 2, Duration::from_secs(60));
//!     assert!(out.contains("counts 2"));
//! }
//! ```
//!
//! So the program is built with the suite (no `[[bin]]` target with its own copy of the
//! launcher and of `main`), sees the suite's scenario modules directly, and may use
//! dev-dependencies. [`Program::command`] passes it a word (a scenario's name, say), which it
//! reads with [`launched`].

use atoll_runtime::{run, Config, Ctx, Result};
use std::io::Read;
use std::process::{Command, Output, Stdio};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

pub use atoll_util::mix;

/// The environment variable that marks a process as a launched program and carries its word.
const ARG: &str = "ATOLL_TESTKIT_ARG";

/// `ATOLL_MPIEXEC` or `MPIEXEC` (the Makefile sets them), else the project venv's MPICH.
pub fn mpiexec() -> String {
    std::env::var("ATOLL_MPIEXEC")
        .or_else(|_| std::env::var("MPIEXEC"))
        .unwrap_or_else(|_| concat!(env!("CARGO_MANIFEST_DIR"), "/../../.venv/bin/mpiexec").into())
}

/// A program: the `#[ignore]`d test of the calling test binary that the launches run.
#[derive(Debug, Clone, Copy)]
pub struct Program {
    test: &'static str,
}

impl Program {
    /// The program that is the ignored test `test` (its function's name) of this binary.
    pub const fn new(test: &'static str) -> Self {
        Program { test }
    }

    /// The command that runs the program with `arg` (see [`launched`]): under `mpiexec`
    /// on `ranks` ranks with the MPI backend, or with `None` as one process on the local
    /// backend with `locales` locales (`ATOLL_LOCALES`; pass it in `env`).
    pub fn command(&self, ranks: Option<usize>, arg: &str) -> Command {
        let exe = std::env::current_exe().expect("the test binary's path");
        let test_args = [self.test, "--exact", "--ignored", "--nocapture", "--test-threads=1", "-q"];
        let mut c = match ranks {
            Some(n) => {
                let mut c = Command::new(mpiexec());
                c.args(["-n", &n.to_string()]).arg(&exe).args(test_args).env("ATOLL_BACKEND", "mpi");
                c
            }
            None => {
                let mut c = Command::new(&exe);
                c.args(test_args).env("ATOLL_BACKEND", "local");
                c
            }
        };
        c.env(ARG, arg);
        c
    }
}

/// Inside a program: the word it was launched with ([`Program::command`]'s `arg`), or `None`
/// when the process was not launched as a program (the ignored test run by hand, with
/// `--ignored`): the program then returns at once, as a test that has nothing to do.
pub fn launched() -> Option<String> {
    std::env::var(ARG).ok()
}

/// Runs `cmd` (pipes drained while it runs, so that a job writing more than a pipe holds
/// does not look like a hang) and returns its output and how long it took; kills it and
/// panics with what it printed after `limit`.
pub fn run_limited(mut cmd: Command, what: &str, limit: Duration) -> (Output, Duration) {
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let start = Instant::now();
    let mut child = cmd.spawn().expect("cannot start the program (mpiexec: run `make venv` first)");
    let drain = |r: Option<Box<dyn Read + Send>>| {
        let buf = Arc::new(Mutex::new(Vec::new()));
        let into = Arc::clone(&buf);
        let t = std::thread::spawn(move || {
            let Some(mut r) = r else { return };
            let mut chunk = [0u8; 4096];
            while let Ok(k @ 1..) = r.read(&mut chunk) {
                atoll_util::sync::lock(&into).extend_from_slice(&chunk[..k]);
            }
        });
        (buf, t)
    };
    let (so, so_t) = drain(child.stdout.take().map(|r| Box::new(r) as Box<dyn Read + Send>));
    let (se, se_t) = drain(child.stderr.take().map(|r| Box::new(r) as Box<dyn Read + Send>));
    let taken = |b: &Mutex<Vec<u8>>| std::mem::take(&mut *atoll_util::sync::lock(b));
    let status = loop {
        if let Some(status) = child.try_wait().expect("wait") {
            break status;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let _ = child.wait();
            // Not joined: ranks the launcher left behind may still hold the pipes.
            std::thread::sleep(Duration::from_millis(200));
            panic!(
                "{what} did not end within {limit:?}\nstdout:\n{}\nstderr:\n{}",
                String::from_utf8_lossy(&taken(&so)),
                String::from_utf8_lossy(&taken(&se))
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    let _ = (so_t.join(), se_t.join());
    (Output { status, stdout: taken(&so), stderr: taken(&se) }, start.elapsed())
}

/// Standard output and error as text; the output without the lines the test harness of each
/// process prints around the program (`running 1 test`, the blank line before it).
pub fn text(o: &Output) -> (String, String) {
    let out = String::from_utf8_lossy(&o.stdout);
    let program: Vec<&str> = out.lines().filter(|l| !l.is_empty() && !l.starts_with("running 1 test")).collect();
    let mut so = program.join("\n");
    if !so.is_empty() {
        so.push('\n');
    }
    (so, String::from_utf8_lossy(&o.stderr).into_owned())
}

/// Runs `cmd` within `limit`, checks that it succeeded and printed `ok_line`, and returns its
/// standard output.
pub fn expect_ok(cmd: Command, what: &str, ok_line: &str, limit: Duration) -> String {
    let (out, _) = run_limited(cmd, what, limit);
    let (so, se) = text(&out);
    assert!(out.status.success(), "{what} failed\nstdout:\n{so}\nstderr:\n{se}");
    assert!(so.contains(ok_line), "{what}: no {ok_line:?}\nstdout:\n{so}\nstderr:\n{se}");
    so
}

/// Runs `program` on `n` ranks under `mpiexec` with the MPI backend within `limit`, checks that
/// it succeeded and printed `ok_line`, and returns its standard output.
pub fn launch(program: &Program, ok_line: &str, n: usize, limit: Duration) -> String {
    expect_ok(program.command(Some(n), ""), &format!("{ok_line:?} on {n} ranks"), ok_line, limit)
}

/// The `counts` lines of a report.
pub fn counts(report: &str) -> Vec<String> {
    report.lines().filter(|l| l.starts_with("counts ")).map(str::to_string).collect()
}

/// Ends a program with `r`: prints the text (if any) and `<name> ok`, or the error on standard
/// error and exit status 1.
pub fn finish(name: &str, r: Result<String>) -> ! {
    match r {
        Ok(out) => {
            if !out.is_empty() {
                println!("{out}");
            }
            println!("{name} ok");
            std::process::exit(0)
        }
        Err(e) => {
            eprintln!("{name} failed: {e}");
            std::process::exit(1)
        }
    }
}

/// The configuration of a program, from the environment (`Config::from_env`); a bad variable
/// ends it with exit status 2.
pub fn config(name: &str) -> Config {
    Config::from_env().unwrap_or_else(|e| {
        eprintln!("{name}: {e}");
        std::process::exit(2)
    })
}

/// A selftest program: runs `job` on every locale of a job configured by the environment,
/// then prints locale 0's report and `<name> ok` (other locales print nothing) and exits, or
/// ends with the error (see [`finish`]). Returns at once when not [`launched`].
pub fn selftest(name: &str, job: impl Fn(&Ctx) -> Result<String> + Send + Sync) {
    if launched().is_none() {
        return;
    }
    let config = config(name);
    let r = run(config, |ctx| Ok((ctx.id(), job(ctx)?)));
    match r {
        Ok((0, report)) => finish(name, Ok(report)),
        Ok(_) => std::process::exit(0),
        Err(e) => finish(name, Err(e)),
    }
}
