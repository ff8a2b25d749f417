//! A graph's edge list in shared arrays (`SharedEdges`, approach 2 of the Chapel-Grafiki talk): the files hold
//! exactly the graph's entries (read back by a plain process), Atoll's own edge-list operator
//! runs on the shared memory and agrees with the CSR matrix, and bad input is a typed error
//! that leaves no file behind. 1-3 locales.

use atoll_graph::{kronecker, share_targets, shared_edge_names, EdgeListMatrix, LocalEntries, RowMatrix, SharedEdges};
use atoll_runtime::{run, Config, Error};
use atoll_share::{Access, ShareOptions, SharedFile};
use std::path::PathBuf;

fn dir(tag: &str) -> PathBuf {
    let p = std::env::temp_dir().join(format!("atoll-graph-shared-{tag}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&p);
    std::fs::create_dir_all(&p).unwrap();
    p
}

#[test]
fn shared_edges_hold_the_graph_and_run_atolls_spmv() {
    for p in 1..=3 {
        let d = dir(&format!("ok{p}"));
        run(Config::local(p), |ctx| {
            let m = kronecker(ctx, 7, 4, 3)?;
            let n = m.shape().0;
            let mine = m.local_entries();
            let all_r: Vec<u64> = ctx.allgather(&mine.rows)?.concat();
            let all_c: Vec<u64> = ctx.allgather(&mine.cols)?.concat();
            let s = SharedEdges::from_csr(ctx, "g", &m, false, ShareOptions::in_dir(&d))?;
            let t = share_targets(ctx, "g-targets", &[5, 1, 9], ShareOptions::in_dir(&d))?;
            assert_eq!((s.num_vertices(), s.num_entries()), (n, all_r.len()));
            if ctx.id() == 0 {
                // Another process's view: the plain files, in global order.
                let (rn, cn, vn) = shared_edge_names("g");
                let r = SharedFile::open(&rn, &d, Access::ReadOnly)?.to_vec::<i64>()?;
                let c = SharedFile::open(&cn, &d, Access::ReadOnly)?.to_vec::<i64>()?;
                let v = SharedFile::open(&vn, &d, Access::ReadOnly)?.to_vec::<f64>()?;
                assert_eq!(r, all_r.iter().map(|&x| x as i64).collect::<Vec<_>>());
                assert_eq!(c, all_c.iter().map(|&x| x as i64).collect::<Vec<_>>());
                assert!(v.iter().all(|&w| w == 1.0));
                assert_eq!(SharedFile::open("g-targets", &d, Access::ReadOnly)?.to_vec::<i64>()?, vec![5, 1, 9]);
            }
            // Atoll's edge-list operator over the shared memory equals the CSR product.
            let e = EdgeListMatrix::new(ctx, n, n, s)?;
            let x: Vec<f64> = e.local_cols().map(|j| 1.0 + (j % 5) as f64).collect();
            let (mut y1, mut y2) = (vec![0.0; x.len()], vec![0.0; x.len()]);
            e.spmv(ctx, &x, &mut y1)?;
            m.spmv(ctx, &x, &mut y2)?;
            assert_eq!(y1, y2);
            t.free()?;
            drop(e); // the operator owns the shared arrays: their files go with it
            ctx.barrier()
        })
        .unwrap();
        assert_eq!(std::fs::read_dir(&d).unwrap().count(), 0, "files left behind ({p} locales)");
        let _ = std::fs::remove_dir_all(&d);
    }
}

#[test]
fn bad_edges_are_typed_errors_and_leave_no_files() {
    let d = dir("bad");
    run(Config::local(2), |ctx| {
        let mut e = LocalEntries::new(true);
        e.push(0, 1, 1.0);
        if ctx.id() == 1 {
            e.push(3, 4, 1.0);
        }
        let o = || ShareOptions::in_dir(&d);
        assert!(matches!(SharedEdges::create(ctx, "g", 4, &e, true, o()), Err(Error::IndexOutOfBounds { .. })));
        assert!(matches!(SharedEdges::create(ctx, "no/slash", 5, &e, true, o()), Err(Error::InvalidArgument(_))));
        assert!(matches!(share_targets(ctx, "t", &[], o()), Err(Error::InvalidArgument(_))));
        // The second array's name is taken: the first one made is removed again.
        let taken = share_targets(ctx, "h-cols", &[1], o())?;
        assert!(matches!(SharedEdges::create(ctx, "h", 5, &e, true, o()), Err(Error::SharedFile { .. })));
        taken.free()?;
        let ok = SharedEdges::create(ctx, "h", 5, &e, false, o())?;
        assert_eq!(ok.num_entries(), 3);
        ok.free()
    })
    .unwrap();
    assert_eq!(std::fs::read_dir(&d).unwrap().count(), 0, "files left behind");
    let _ = std::fs::remove_dir_all(&d);
}
