//! The C++ consumer of `examples/c/spmv_consumer.cpp`, built here with the system `c++` against
//! `include/atoll.h` and this crate's cdylib, attaches to an edge list made by an Atoll job,
//! computes y = A x in place and signals back; the result is checked against a sequential
//! computation of the same product. Also in new PID, IPC and mount namespaces (`unshare`,
//! skipped with a message where not permitted), and with a dead peer on either side.

use atoll_array::{dist, DistArray, ExprReduce};
use atoll_error::Error;
use atoll_runtime::{run, Config};
use atoll_share::{ShareOptions, SharedArray};
use atoll_util::{mix, GOLDEN_GAMMA};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The consumer, compiled once per test run.
fn consumer() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let libdir = std::env::current_exe().unwrap().parent().unwrap().to_path_buf();
        assert!(libdir.join("libatoll_capi.so").exists(), "libatoll_capi.so is not in {}", libdir.display());
        let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("spmv_consumer");
        let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".into());
        let st = Command::new(&cxx)
            .args(["-O2", "-std=c++17", "-Wall", "-Wextra", "-Werror", "-I"])
            .arg(root().join("include"))
            .arg(root().join("examples/c/spmv_consumer.cpp"))
            .arg("-L")
            .arg(&libdir)
            .arg("-latoll_capi")
            .arg(format!("-Wl,-rpath,{}", libdir.display()))
            .arg("-o")
            .arg(&out)
            .status()
            .unwrap_or_else(|e| panic!("cannot run the C++ compiler {cxx}: {e}"));
        assert!(st.success(), "compiling examples/c/spmv_consumer.cpp failed");
        out
    })
}

struct Dir(PathBuf);
impl Dir {
    fn new(tag: &str) -> Dir {
        let base = if Path::new("/dev/shm").is_dir() { PathBuf::from("/dev/shm") } else { std::env::temp_dir() };
        let p = base.join(format!("atoll-capi-test-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        Dir(p)
    }
}
impl Drop for Dir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// Pseudo-random word `k` of edge `e`.
fn word(e: u64, k: u64) -> u64 {
    mix(e.wrapping_mul(GOLDEN_GAMMA).wrapping_add(k))
}

fn spmv(rows: &[i64], cols: &[i64], vals: &[f64], x: &[f64]) -> Vec<f64> {
    let mut y = vec![0.0; x.len()];
    for e in 0..rows.len() {
        y[rows[e] as usize] += vals[e] * x[cols[e] as usize];
    }
    y
}

/// Runs the producer job (2 locales) and the consumer (behind `prefix`, e.g. `unshare ...`)
/// for two iterations of y = A x, x = y / max(y).
fn producer_and_consumer(tag: &str, prefix: &[&str]) {
    let dir = Dir::new(tag);
    let (n, m) = (300usize, 2000usize);
    let d = dir.0.clone();
    let prefix: Vec<String> = prefix.iter().map(|s| s.to_string()).collect();
    let bin = consumer().to_path_buf();
    run(Config::local(2), move |ctx| {
        let opts = || ShareOptions::in_dir(&d);
        let mut rows = SharedArray::<i64, 1>::create(ctx, "rows", [m], opts())?;
        let mut cols = SharedArray::<i64, 1>::create(ctx, "cols", [m], opts())?;
        let mut vals = SharedArray::<f64, 1>::create(ctx, "vals", [m], opts())?;
        let mut x = SharedArray::<f64, 1>::create(ctx, "x", [n], opts())?;
        let y = SharedArray::<f64, 1>::create(ctx, "y", [n], opts())?;
        let e = dist::block(ctx, [m])?;
        rows.array_mut()?
            .assign(&DistArray::from_fn(ctx, e.clone(), |[i]| (word(i as u64, 1) % n as u64) as i64)?.view())?;
        cols.array_mut()?
            .assign(&DistArray::from_fn(ctx, e.clone(), |[i]| (word(i as u64, 2) % n as u64) as i64)?.view())?;
        vals.array_mut()?
            .assign(&DistArray::from_fn(ctx, e, |[i]| (word(i as u64, 3) % 1000) as f64 / 1000.0)?.view())?;
        x.array_mut()?.assign(&DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[i]| 1.0 + (i % 7) as f64)?.view())?;
        let child = if ctx.id() == 0 {
            let mut cmd = Command::new(prefix.first().map(String::as_str).unwrap_or(bin.to_str().unwrap()));
            if !prefix.is_empty() {
                cmd.args(&prefix[1..]).arg(&bin);
            }
            cmd.args([
                "--dir",
                d.to_str().unwrap(),
                "--rows",
                "rows",
                "--cols",
                "cols",
                "--vals",
                "vals",
                "--x",
                "x",
                "--y",
                "y",
            ]);
            cmd.args(["--iters", "2", "--timeout-ms", "60000"]).stdout(Stdio::piped()).stderr(Stdio::piped());
            Some(cmd.spawn().expect("cannot start the consumer"))
        } else {
            None
        };
        for it in 0..2 {
            ctx.barrier()?;
            if ctx.id() == 0 {
                y.signal(0)?.post(1)?;
                y.signal(1)?.wait(Duration::from_secs(120))?;
            }
            ctx.barrier()?;
            let got = y.array().gather(0)?;
            let (r, c, v, xs) =
                (rows.array().gather(0)?, cols.array().gather(0)?, vals.array().gather(0)?, x.array().gather(0)?);
            if let (Some(got), Some(r), Some(c), Some(v), Some(xs)) = (got, r, c, v, xs) {
                let want = spmv(&r, &c, &v, &xs);
                assert_eq!(got, want, "iteration {it}: the consumer's y = A x differs from the reference");
                assert!(want.iter().any(|&w| w != 0.0));
            }
            assert_eq!(y.generation(), 2 + it as u64);
            // Next iterate: x = y / max(y), computed by Atoll on the shared arrays.
            let top = y.array().view().max()?;
            x.array_mut()?.assign_expr(y.array() * (1.0 / top))?;
        }
        if let Some(child) = child {
            let out = child.wait_with_output().unwrap();
            let (so, se) = (String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
            assert!(out.status.success(), "consumer failed: {:?}\n{so}\n{se}", out.status);
            assert!(so.contains("spmv_consumer: 2 iterations"), "{so}");
        }
        for a in [rows, cols] {
            a.free()?;
        }
        vals.free()?;
        x.free()?;
        y.free()
    })
    .unwrap();
    assert_eq!(std::fs::read_dir(&dir.0).unwrap().count(), 0, "files left behind");
}

#[test]
fn cpp_consumer_computes_spmv_in_place() {
    producer_and_consumer("plain", &[]);
}

#[test]
fn cpp_consumer_across_pid_ipc_and_mount_namespaces() {
    let probe =
        Command::new("unshare").args(["--pid", "--ipc", "--mount", "--fork", "true"]).stderr(Stdio::piped()).output();
    match probe {
        Ok(o) if o.status.success() => {}
        Ok(o) => {
            eprintln!(
                "SKIP cpp_consumer_across_pid_ipc_and_mount_namespaces: unshare not permitted here: {}",
                String::from_utf8_lossy(&o.stderr).trim()
            );
            return;
        }
        Err(e) => {
            eprintln!("SKIP cpp_consumer_across_pid_ipc_and_mount_namespaces: no unshare: {e}");
            return;
        }
    }
    producer_and_consumer("ns", &["unshare", "--pid", "--ipc", "--mount", "--fork"]);
}

#[test]
fn a_dead_peer_is_a_timeout_on_either_side() {
    let dir = Dir::new("dead");
    let d = dir.0.clone();
    let bin = consumer().to_path_buf();
    run(Config::local(1), move |ctx| {
        let opts = || ShareOptions::in_dir(&d);
        let e = SharedArray::<i64, 1>::create(ctx, "e", [4], opts())?;
        let v = SharedArray::<f64, 1>::create(ctx, "v", [4], opts())?;
        let y = SharedArray::<f64, 1>::create(ctx, "y", [4], opts())?;
        let args = |ys: &str| {
            let mut c = Command::new(&bin);
            c.args([
                "--dir",
                d.to_str().unwrap(),
                "--rows",
                "e",
                "--cols",
                "e",
                "--vals",
                "v",
                "--x",
                "y",
                "--y",
                ys,
                "--timeout-ms",
                "300",
            ]);
            c
        };
        // The producer never says go: the consumer gives up with its timeout status.
        let out = args("y").output().unwrap();
        assert_eq!(out.status.code(), Some(3), "{}", String::from_utf8_lossy(&out.stderr));
        assert!(String::from_utf8_lossy(&out.stderr).contains("timed out"));
        // The consumer dies (here: a name that does not exist): the producer's wait times out.
        let out = args("missing").output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        assert!(
            String::from_utf8_lossy(&out.stderr).contains("atoll-missing.meta"),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        y.signal(0)?.post(1)?;
        match y.signal(1)?.wait(Duration::from_millis(200)) {
            Err(Error::Timeout { .. }) => {}
            other => panic!("expected a timeout, got {other:?}"),
        }
        e.free()?;
        v.free()?;
        y.free()
    })
    .unwrap();
}
