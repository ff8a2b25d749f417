//! Approach 2 of the Chapel-Grafiki talk end to end: an Atoll job (2 locales) builds a
//! graph's edge list in shared arrays (`atoll_graph::SharedEdges`), the C++ program
//! `examples/c/hitting_consumer.cpp` (built here with the system `c++` against
//! `include/atoll.h` and this crate's cdylib) attaches to it and to the target set, computes
//! random-walk hitting times in place and writes them into a shared output array. The answer
//! is checked against `atoll_graph::hitting_times` and against a dense Gaussian elimination
//! (relative tolerance 1e-6, `inf` pattern equal), on the bcsstk-like FE pattern (small) and
//! on a Kronecker graph with several components; also in new PID, IPC and mount namespaces
//! (`unshare`, skipped with a message where not permitted). Bad input (a truncated or foreign
//! edge-list file, ids out of range, negative weights) gives the consumer's exit status 2 and
//! a message.

use atoll_graph::{
    fe_entries, hitting_times, kronecker, share_targets, CsrMatrix, HittingMethod, LocalEntries, SharedEdges,
};
use atoll_runtime::{run, Config, Ctx};
use atoll_share::{ShareOptions, SharedArray};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::time::Duration;

/// Relative tolerance of the comparisons (both solvers stop at a relative residual of 1e-10).
const RTOL: f64 = 1e-6;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// The consumer, compiled once per test run.
fn consumer() -> &'static Path {
    static BIN: OnceLock<PathBuf> = OnceLock::new();
    BIN.get_or_init(|| {
        let libdir = std::env::current_exe().unwrap().parent().unwrap().to_path_buf();
        assert!(libdir.join("libatoll_capi.so").exists(), "libatoll_capi.so is not in {}", libdir.display());
        let out = Path::new(env!("CARGO_TARGET_TMPDIR")).join("hitting_consumer");
        let cxx = std::env::var("CXX").unwrap_or_else(|_| "c++".into());
        let st = Command::new(&cxx)
            .args(["-O2", "-std=c++17", "-Wall", "-Wextra", "-Werror", "-I"])
            .arg(root().join("include"))
            .arg(root().join("examples/c/hitting_consumer.cpp"))
            .arg("-L")
            .arg(&libdir)
            .arg("-latoll_capi")
            .arg(format!("-Wl,-rpath,{}", libdir.display()))
            .arg("-o")
            .arg(&out)
            .status()
            .unwrap_or_else(|e| panic!("cannot run the C++ compiler {cxx}: {e}"));
        assert!(st.success(), "compiling examples/c/hitting_consumer.cpp failed");
        out
    })
}

struct Dir(PathBuf);
impl Dir {
    fn new(tag: &str) -> Dir {
        let base = if Path::new("/dev/shm").is_dir() { PathBuf::from("/dev/shm") } else { std::env::temp_dir() };
        let p = base.join(format!("atoll-hitting-test-{tag}-{}", std::process::id()));
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

#[derive(Clone, Copy, Debug)]
enum GraphKind {
    /// The 3-D finite-element pattern (unit weights), a small bcsstk29-like case.
    Fe,
    /// An undirected Kronecker graph: a giant component, small ones, isolated vertices.
    Kron,
}

fn build(ctx: &Ctx, kind: GraphKind) -> atoll_runtime::Result<CsrMatrix> {
    match kind {
        GraphKind::Fe => {
            let (n, e) = fe_entries(ctx, 3, 4, 20, 2)?;
            CsrMatrix::from_entries(ctx, n, n, LocalEntries { rows: e.rows, cols: e.cols, vals: None })
        }
        GraphKind::Kron => kronecker(ctx, 9, 2, 7),
    }
}

/// Every vertex's neighbours (self loops dropped), from every locale's entries.
fn adjacency(ctx: &Ctx, m: &CsrMatrix) -> atoll_runtime::Result<Vec<Vec<usize>>> {
    let e = m.local_entries();
    let (r, c) = (ctx.allgather(&e.rows)?.concat(), ctx.allgather(&e.cols)?.concat());
    let mut adj = vec![Vec::new(); m.shape().0];
    for (&a, &b) in r.iter().zip(&c) {
        if a != b {
            adj[a as usize].push(b as usize);
        }
    }
    Ok(adj)
}

/// Component of each vertex (smallest id), sequentially.
fn components(adj: &[Vec<usize>]) -> Vec<usize> {
    let mut comp = vec![usize::MAX; adj.len()];
    for s in 0..adj.len() {
        if comp[s] == usize::MAX {
            comp[s] = s;
            let mut stack = vec![s];
            while let Some(u) = stack.pop() {
                for &v in &adj[u] {
                    if comp[v] == usize::MAX {
                        comp[v] = s;
                        stack.push(v);
                    }
                }
            }
        }
    }
    comp
}

/// The targets: FE: two corners; Kron: the highest-degree vertex and a vertex of the largest
/// other component with an edge (so that several components are finite and others `inf`).
fn targets(kind: GraphKind, adj: &[Vec<usize>]) -> Vec<u64> {
    match kind {
        GraphKind::Fe => vec![0, adj.len() as u64 - 1],
        GraphKind::Kron => {
            let hub = (0..adj.len()).max_by_key(|&v| (adj[v].len(), std::cmp::Reverse(v))).unwrap();
            let comp = components(adj);
            let mut size = vec![0usize; adj.len()];
            comp.iter().for_each(|&c| size[c] += 1);
            let other = (0..adj.len())
                .filter(|&c| comp[c] == c && c != comp[hub] && size[c] >= 2)
                .max_by_key(|&c| (size[c], std::cmp::Reverse(c)));
            let other = other.expect("the Kronecker graph has a second non-trivial component");
            vec![hub as u64, other as u64]
        }
    }
}

/// Hitting times by Gaussian elimination (partial pivoting) on the dense system of the
/// unknowns (reachable non-targets), sequentially; `inf` where no target is reachable.
fn dense_reference(adj: &[Vec<usize>], targets: &[u64]) -> Vec<f64> {
    let n = adj.len();
    let comp = components(adj);
    let mut is_t = vec![false; n];
    let mut tcomp = std::collections::BTreeSet::new();
    for &t in targets {
        is_t[t as usize] = true;
        tcomp.insert(comp[t as usize]);
    }
    let unknowns: Vec<usize> = (0..n).filter(|&v| !is_t[v] && tcomp.contains(&comp[v])).collect();
    let mut pos = vec![usize::MAX; n];
    unknowns.iter().enumerate().for_each(|(k, &v)| pos[v] = k);
    let k = unknowns.len();
    let mut a = vec![vec![0.0f64; k + 1]; k];
    for (r, &v) in unknowns.iter().enumerate() {
        let d = adj[v].len() as f64;
        a[r][r] += d;
        a[r][k] = d;
        for &u in &adj[v] {
            if pos[u] != usize::MAX {
                a[r][pos[u]] -= 1.0;
            }
        }
    }
    for c in 0..k {
        let p = (c..k).max_by(|&x, &y| a[x][c].abs().total_cmp(&a[y][c].abs())).unwrap();
        a.swap(c, p);
        let (top, rest) = a.split_at_mut(c + 1);
        let piv = &top[c];
        for row in rest.iter_mut() {
            let f = row[c] / piv[c];
            if f != 0.0 {
                for j in c..=k {
                    row[j] -= f * piv[j];
                }
            }
        }
    }
    let mut x = vec![0.0; k];
    for r in (0..k).rev() {
        let s: f64 = (r + 1..k).map(|j| a[r][j] * x[j]).sum();
        x[r] = (a[r][k] - s) / a[r][r];
    }
    let mut h = vec![f64::INFINITY; n];
    targets.iter().for_each(|&t| h[t as usize] = 0.0);
    unknowns.iter().enumerate().for_each(|(r, &v)| h[v] = x[r]);
    h
}

fn close(what: &str, got: &[f64], want: &[f64]) {
    assert_eq!(got.len(), want.len(), "{what}: lengths");
    for (v, (&a, &b)) in got.iter().zip(want).enumerate() {
        assert_eq!(a.is_infinite(), b.is_infinite(), "{what}: vertex {v}: {a} vs {b} (inf pattern)");
        if b.is_finite() {
            assert!((a - b).abs() <= RTOL * b.abs().max(1.0), "{what}: vertex {v}: {a} vs {b}");
        }
    }
}

/// The producer job and the consumer (behind `prefix`, e.g. `unshare ...`).
fn producer_and_consumer(tag: &str, kind: GraphKind, method: &str, prefix: &[&str]) {
    let dir = Dir::new(tag);
    let d = dir.0.clone();
    let prefix: Vec<String> = prefix.iter().map(|s| s.to_string()).collect();
    let bin = consumer().to_path_buf();
    let method = method.to_string();
    run(Config::local(2), move |ctx| {
        let opts = || ShareOptions::in_dir(&d);
        let m = build(ctx, kind)?;
        let n = m.shape().0;
        let adj = adjacency(ctx, &m)?;
        let t = targets(kind, &adj);
        let edges = SharedEdges::from_csr(ctx, "g", &m, true, opts())?;
        let tg = share_targets(ctx, "g-targets", &t, opts())?;
        let out = SharedArray::<f64, 1>::create(ctx, "h", [n], opts())?;
        let child = if ctx.id() == 0 {
            let mut cmd = Command::new(prefix.first().map(String::as_str).unwrap_or(bin.to_str().unwrap()));
            if !prefix.is_empty() {
                cmd.args(&prefix[1..]).arg(&bin);
            }
            cmd.args([
                "--dir",
                d.to_str().unwrap(),
                "--edges",
                "g",
                "--targets",
                "g-targets",
                "--out",
                "h",
                "--method",
                &method,
            ]);
            cmd.args(["--tol", "1e-10", "--max-iters", "100000", "--timeout-ms", "60000"])
                .stdout(Stdio::piped())
                .stderr(Stdio::piped());
            let mut child = cmd.spawn().expect("cannot start the consumer");
            let done =
                out.signal(0).and_then(|s| s.post(1)).and_then(|()| out.signal(1)?.wait(Duration::from_secs(120)));
            if let Err(e) = done {
                let _ = child.kill();
                let o = child.wait_with_output().unwrap();
                panic!("no done from the consumer ({e}): {:?}\n{}", o.status, String::from_utf8_lossy(&o.stderr));
            }
            Some(child)
        } else {
            None
        };
        ctx.barrier()?;
        let jm = if method == "cg" { HittingMethod::ConjugateGradient } else { HittingMethod::Jacobi };
        let mine = hitting_times(ctx, &m, &t, jm, 1e-10, 100_000)?;
        assert!(mine.converged);
        let atoll: Vec<f64> = ctx.allgather(&mine.times)?.concat();
        if let Some(got) = out.array().gather(0)? {
            let want = dense_reference(&adj, &t);
            let (fin, inf) = (
                want.iter().filter(|x| x.is_finite() && **x > 0.0).count(),
                want.iter().filter(|x| x.is_infinite()).count(),
            );
            assert!(fin > 10, "{kind:?}: too few finite hitting times ({fin})");
            if let GraphKind::Kron = kind {
                assert!(inf > 0, "the Kronecker case should have unreachable vertices");
            }
            close(&format!("{kind:?} {method}: consumer vs dense reference"), &got, &want);
            close(&format!("{kind:?} {method}: consumer vs atoll_graph::hitting_times"), &got, &atoll);
            close(&format!("{kind:?} {method}: atoll_graph::hitting_times vs dense reference"), &atoll, &want);
            assert_eq!(out.generation(), 2, "the consumer bumps the output's generation once");
        }
        if let Some(child) = child {
            let o = child.wait_with_output().unwrap();
            let (so, se) = (String::from_utf8_lossy(&o.stdout), String::from_utf8_lossy(&o.stderr));
            assert!(o.status.success(), "consumer failed: {:?}\n{so}\n{se}", o.status);
            assert!(so.contains("\"converged\": true") && so.contains(&format!("\"n\": {n},")), "{so}");
            eprintln!("{kind:?} {method}: {}", so.trim());
        }
        ctx.barrier()?;
        tg.free()?;
        out.free()?;
        edges.free()
    })
    .unwrap();
    assert_eq!(std::fs::read_dir(&dir.0).unwrap().count(), 0, "files left behind");
}

#[test]
fn cpp_consumer_hitting_times_on_the_fe_graph() {
    producer_and_consumer("fe-cg", GraphKind::Fe, "cg", &[]);
    producer_and_consumer("fe-jacobi", GraphKind::Fe, "jacobi", &[]);
}

#[test]
fn cpp_consumer_hitting_times_on_a_kronecker_graph_with_several_components() {
    producer_and_consumer("kron-cg", GraphKind::Kron, "cg", &[]);
}

#[test]
fn cpp_consumer_hitting_times_across_pid_ipc_and_mount_namespaces() {
    let probe =
        Command::new("unshare").args(["--pid", "--ipc", "--mount", "--fork", "true"]).stderr(Stdio::piped()).output();
    match probe {
        Ok(o) if o.status.success() => {}
        Ok(o) => {
            eprintln!(
                "SKIP cpp_consumer_hitting_times_across_pid_ipc_and_mount_namespaces: unshare not permitted here: {}",
                String::from_utf8_lossy(&o.stderr).trim()
            );
            return;
        }
        Err(e) => {
            eprintln!("SKIP cpp_consumer_hitting_times_across_pid_ipc_and_mount_namespaces: no unshare: {e}");
            return;
        }
    }
    producer_and_consumer("ns", GraphKind::Kron, "cg", &["unshare", "--pid", "--ipc", "--mount", "--fork"]);
}

/// Runs the consumer on the arrays of `d` (go already posted or not) and returns its exit
/// status and stderr.
fn consume(bin: &Path, d: &Path, edges: &str, targets: &str, out: &str, timeout_ms: &str) -> (Option<i32>, String) {
    let o = Command::new(bin)
        .args([
            "--dir",
            d.to_str().unwrap(),
            "--edges",
            edges,
            "--targets",
            targets,
            "--out",
            out,
            "--timeout-ms",
            timeout_ms,
        ])
        .output()
        .expect("cannot start the consumer");
    (o.status.code(), String::from_utf8_lossy(&o.stderr).into_owned())
}

#[test]
fn bad_edge_lists_give_the_consumers_exit_2_with_a_message() {
    let dir = Dir::new("bad");
    let d = dir.0.clone();
    let bin = consumer().to_path_buf();
    run(Config::local(1), move |ctx| {
        let opts = || ShareOptions::in_dir(&d);
        // A weighted FE matrix: -1 off the diagonal (not a random walk).
        let (n, e) = fe_entries(ctx, 2, 2, 3, 1)?;
        let weighted = SharedEdges::create(ctx, "w", n, &e, false, opts())?;
        let unit = SharedEdges::create(ctx, "u", n, &e, true, opts())?;
        let tg = share_targets(ctx, "t", &[0], opts())?;
        let far = share_targets(ctx, "far", &[n as u64], opts())?;
        let out = SharedArray::<f64, 1>::create(ctx, "h", [n], opts())?;
        let short = SharedArray::<f64, 1>::create(ctx, "short", [n - 1], opts())?;
        let expect2 = |(code, msg): (Option<i32>, String), needle: &str| {
            assert_eq!(code, Some(2), "{msg}");
            assert!(msg.contains(needle), "expected {needle:?} in: {msg}");
            assert!(out.signal(1).unwrap().value() == 0, "no done after a failure");
        };
        // Contents checked after go: negative weights, ids out of range (edges and targets).
        out.signal(0)?.post(1)?;
        expect2(consume(&bin, &d, "w", "t", "h", "2000"), "weight -1");
        out.signal(0)?.post(1)?;
        expect2(consume(&bin, &d, "u", "far", "h", "2000"), &format!("target {n} is outside"));
        short.signal(0)?.post(1)?;
        expect2(consume(&bin, &d, "u", "t", "short", "2000"), "is outside a graph of");
        // Arrays of the wrong type or missing: before go.
        expect2(consume(&bin, &d, "u", "h", "h", "2000"), "h holds float64 of rank 1, expected int64");
        expect2(consume(&bin, &d, "nothing", "t", "h", "2000"), "atoll-nothing-rows.meta");
        // A truncated block file of the edge list.
        let f = std::fs::OpenOptions::new().write(true).open(d.join("atoll-u-cols-0")).unwrap();
        f.set_len(8).unwrap();
        drop(f);
        expect2(consume(&bin, &d, "u", "t", "h", "2000"), "atoll-u-cols");
        // A foreign metadata file of the edge list.
        std::fs::write(d.join("atoll-w-vals.meta"), b"P6\n2 2\n255\nnot an atoll array at all").unwrap();
        expect2(consume(&bin, &d, "w", "t", "h", "2000"), "atoll-w-vals.meta");
        weighted.free()?;
        unit.free()?;
        tg.free()?;
        far.free()?;
        out.free()?;
        short.free()
    })
    .unwrap();
}

#[test]
fn no_go_is_a_timeout_with_status_3() {
    let dir = Dir::new("nogo");
    let d = dir.0.clone();
    let bin = consumer().to_path_buf();
    run(Config::local(2), move |ctx| {
        let opts = || ShareOptions::in_dir(&d);
        let m = kronecker(ctx, 5, 2, 1)?;
        let edges = SharedEdges::from_csr(ctx, "g", &m, true, opts())?;
        let tg = share_targets(ctx, "t", &[1], opts())?;
        let out = SharedArray::<f64, 1>::create(ctx, "h", [m.shape().0], opts())?;
        if ctx.id() == 0 {
            let (code, msg) = consume(&bin, &d, "g", "t", "h", "200");
            assert_eq!(code, Some(3), "{msg}");
            assert!(msg.contains("timed out"), "{msg}");
        }
        ctx.barrier()?;
        tg.free()?;
        out.free()?;
        edges.free()
    })
    .unwrap();
}
