//! Generators and algorithms on 1-4 locales against sequential references written here
//! (adjacency lists, union-find, a queue BFS, a dense solve, a plain power iteration), and the
//! SpMV communication bound (one put per remote locale per product).

mod common;

use atoll_graph::{
    bfs, connected_components, fe_entries, hitting_times, kronecker, kronecker_edges, label_propagation, pagerank,
    CsrMatrix, HittingMethod, LocalEntries, RowMatrix,
};
use atoll_runtime::{run, Config, Ctx, Error, Result};
use common::*;

/// Every locale's labels concatenated (rows are Block, in locale order).
fn all<T: atoll_runtime::Pod + serde_like::S>(ctx: &Ctx, v: &[T]) -> Result<Vec<T>> {
    Ok(ctx.allgather(&v.to_vec())?.concat())
}
mod serde_like {
    pub trait S: serde::Serialize + serde::de::DeserializeOwned {}
    impl<T: serde::Serialize + serde::de::DeserializeOwned> S for T {}
}

/// The raw Kronecker edges of every locale, gathered.
fn kron_pairs(ctx: &Ctx, scale: u32, seed: u64) -> Result<Vec<(u64, u64)>> {
    let e = kronecker_edges(ctx, scale, 16, seed)?;
    let mine: Vec<(u64, u64)> = e.rows.iter().copied().zip(e.cols.iter().copied()).collect();
    Ok(ctx.allgather(&mine)?.concat())
}

fn sym(pairs: &[(u64, u64)]) -> Vec<(u64, u64)> {
    pairs.iter().flat_map(|&(u, v)| [(u, v), (v, u)]).filter(|(u, v)| u != v).collect()
}

/// A graph with several components: a Kronecker graph of scale 6 on ids 0..64 plus paths and
/// isolated vertices up to 100.
fn multi_component(ctx: &Ctx) -> Result<(Vec<(u64, u64)>, CsrMatrix)> {
    let mut pairs = sym(&kron_pairs(ctx, 6, 3)?);
    for v in 70..80u64 {
        pairs.push((v, v + 1));
        pairs.push((v + 1, v));
    }
    pairs.push((90, 95));
    pairs.push((95, 90));
    // Each locale contributes a slice of the pairs.
    let (p, me) = (ctx.num_locales(), ctx.id());
    let mut e = LocalEntries::new(true);
    for (k, &(u, v)) in pairs.iter().enumerate() {
        if k % p == me {
            e.push(u, v, 1.0);
        }
    }
    Ok((pairs, CsrMatrix::from_entries(ctx, 100, 100, e)?))
}

#[test]
fn kronecker_is_the_same_graph_on_any_locale_count() {
    let one = run(Config::local(1), |ctx| kron_pairs(ctx, 8, 42)).unwrap();
    assert_eq!(one.len(), 16 << 8);
    assert!(one.iter().all(|&(u, v)| u < 256 && v < 256));
    // Skewed degrees: the most frequent vertex is far above the mean of 32.
    let mut deg = vec![0usize; 256];
    one.iter().for_each(|&(u, v)| {
        deg[u as usize] += 1;
        deg[v as usize] += 1;
    });
    assert!(*deg.iter().max().unwrap() > 200, "{:?}", deg.iter().max());
    for p in 2..=4 {
        assert_eq!(run(Config::local(p), |ctx| kron_pairs(ctx, 8, 42)).unwrap(), one, "{p} locales");
    }
    assert_ne!(run(Config::local(1), |ctx| kron_pairs(ctx, 8, 43)).unwrap(), one);
    // The CSR holds the distinct undirected edges.
    let adj = adjacency(256, &sym(&one));
    let want: usize = adj.iter().map(Vec::len).sum();
    for p in 1..=3 {
        let nnz = run(Config::local(p), |ctx| kronecker(ctx, 8, 16, 42)?.nnz(ctx)).unwrap();
        assert_eq!(nnz, want as u64);
    }
}

#[test]
fn fe_pattern_has_the_bcsstk29_size_and_is_symmetric() {
    let (n, nnz) = run(Config::local(2), |ctx| {
        let m = atoll_graph::bcsstk29_like(ctx)?;
        Ok((m.shape().0, m.nnz(ctx)?))
    })
    .unwrap();
    assert_eq!(n, 13_992);
    assert!((600_000..650_000).contains(&nnz), "{nnz}");
    // A small case: symmetric, 27-point couplings.
    let (n, e) = run(Config::local(1), |ctx| fe_entries(ctx, 3, 4, 2, 2)).unwrap();
    let mut pairs: Vec<(u64, u64)> = e.rows.iter().copied().zip(e.cols.iter().copied()).collect();
    pairs.sort();
    let mut t: Vec<(u64, u64)> = pairs.iter().map(|&(a, b)| (b, a)).collect();
    t.sort();
    assert_eq!(pairs, t);
    assert_eq!(n, 48);
    // Corner node (0,0,0): 8 nodes x 2 unknowns.
    assert_eq!(pairs.iter().filter(|p| p.0 == 0).count(), 16);
}

#[test]
fn label_propagation_components_and_bfs_match_the_references() {
    for p in 1..=4 {
        run(Config::local(p), |ctx| {
            let (pairs, m) = multi_component(ctx)?;
            let adj = adjacency(100, &pairs);
            let lp = label_propagation(ctx, &m, None, 30)?;
            let (want, it, conv) = lp_reference(&adj, 30);
            assert_eq!(all(ctx, &lp.labels)?, want, "lp on {p} locales");
            assert_eq!((lp.iters, lp.converged), (it, conv));
            let cc = connected_components(ctx, &m)?;
            assert_eq!(all(ctx, &cc.labels)?, cc_reference(&adj), "cc on {p} locales");
            for s in [0u64, 70, 99] {
                let (lv, _) = bfs(ctx, &m, s)?;
                assert_eq!(all(ctx, &lv)?, bfs_reference(&adj, s as usize), "bfs from {s} on {p} locales");
            }
            assert!(matches!(bfs(ctx, &m, 100), Err(Error::IndexOutOfBounds { .. })));
            Ok(())
        })
        .unwrap();
    }
}

#[test]
fn label_propagation_on_the_fe_pattern_matches_the_reference() {
    let (n, e) = run(Config::local(1), |ctx| fe_entries(ctx, 4, 3, 5, 2)).unwrap();
    let pairs: Vec<(u64, u64)> = e.rows.iter().copied().zip(e.cols.iter().copied()).collect();
    let adj = adjacency(n, &pairs);
    let want = lp_reference(&adj, 50);
    for p in [1, 2, 3] {
        let got = run(Config::local(p), |ctx| {
            let m = atoll_graph::fe_banded(ctx, 4, 3, 5, 2)?;
            let lp = label_propagation(ctx, &m, None, 50)?;
            Ok((all(ctx, &lp.labels)?, lp.iters, lp.converged))
        })
        .unwrap();
        assert_eq!(got, want, "{p} locales");
    }
}

#[test]
fn hitting_times_match_a_dense_solve_with_both_methods() {
    for p in 1..=4 {
        run(Config::local(p), |ctx| {
            let (pairs, m) = multi_component(ctx)?;
            let adj = adjacency(100, &pairs);
            let targets = [5u64, 71];
            let want = hitting_reference(&adj, &targets);
            for (method, iters) in [(HittingMethod::ConjugateGradient, 500), (HittingMethod::Jacobi, 20_000)] {
                let h = hitting_times(ctx, &m, &targets, method, 1e-11, iters)?;
                assert!(
                    h.converged,
                    "{method:?} on {p} locales: residuals {:?}",
                    &h.residuals[h.residuals.len().saturating_sub(3)..]
                );
                assert!(h.residuals.windows(2).any(|w| w[1] < w[0]));
                let got = all(ctx, &h.times)?;
                for v in 0..100 {
                    if want[v].is_infinite() {
                        assert!(got[v].is_infinite(), "{method:?} vertex {v}: {}", got[v]);
                    } else {
                        assert!(
                            (got[v] - want[v]).abs() <= 1e-6 * want[v].max(1.0),
                            "{method:?} vertex {v}: {} vs {}",
                            got[v],
                            want[v]
                        );
                    }
                }
            }
            assert!(matches!(
                hitting_times(ctx, &m, &[], HittingMethod::Jacobi, 1e-9, 10),
                Err(Error::InvalidArgument(_))
            ));
            assert!(matches!(
                hitting_times(ctx, &m, &[100], HittingMethod::Jacobi, 1e-9, 10),
                Err(Error::IndexOutOfBounds { .. })
            ));
            Ok(())
        })
        .unwrap();
    }
}

/// A Kronecker graph of scale 9 (degrees from 0 to a few hundred, isolated vertices, small
/// components, duplicate edges and self loops as generated) plus a path 520..540 and a
/// triangle 550..553, on 560 vertices.
fn kron_components(ctx: &Ctx) -> Result<(Vec<(u64, u64)>, CsrMatrix)> {
    let raw = kron_pairs(ctx, 9, 11)?;
    // Both directions, self loops kept (they cancel in D - A; the reference drops them).
    let mut pairs: Vec<(u64, u64)> = raw.iter().flat_map(|&(u, v)| [(u, v), (v, u)]).collect();
    for v in 520..539u64 {
        pairs.extend([(v, v + 1), (v + 1, v)]);
    }
    pairs.extend([(550, 551), (551, 550), (551, 552), (552, 551), (552, 550), (550, 552)]);
    let (p, me) = (ctx.num_locales(), ctx.id());
    let mut e = LocalEntries::new(true);
    for (k, &(u, v)) in pairs.iter().enumerate() {
        if k % p == me {
            e.push(u, v, 1.0);
        }
    }
    Ok((pairs, CsrMatrix::from_entries(ctx, 560, 560, e)?))
}

/// The Kronecker graph's degrees span two orders of magnitude: conjugate gradients must reach
/// a tight tolerance in a modest number of iterations (it needs the degree preconditioner;
/// plain CG did not converge in this budget) and match the dense solve on 1-4 locales.
#[test]
fn hitting_times_on_a_kronecker_graph_with_several_components_match_a_dense_solve() {
    let pairs = run(Config::local(1), |ctx| kron_components(ctx).map(|(p, _)| p)).unwrap();
    let adj = adjacency(560, &pairs);
    let deg: Vec<usize> = adj.iter().enumerate().map(|(v, a)| a.iter().filter(|&&u| u != v as u64).count()).collect();
    let top = (0..512).max_by_key(|&v| (deg[v], std::cmp::Reverse(v))).unwrap() as u64;
    let low = (0..512).find(|&v| deg[v] == 1).unwrap() as u64;
    assert!(deg[top as usize] >= 100 && deg.iter().filter(|&&d| d == 0).count() > 10, "skewed, with isolated vertices");
    let targets = [top, low, 530];
    let want = hitting_reference(&adj, &targets);
    assert!(want.iter().any(|x| x.is_infinite()) && want.iter().filter(|x| x.is_finite()).count() > 300);
    for p in 1..=4 {
        let got = run(Config::local(p), |ctx| {
            let (_, m) = kron_components(ctx)?;
            let h = hitting_times(ctx, &m, &targets, HittingMethod::ConjugateGradient, 1e-10, KRON_CG_ITERS)?;
            assert!(
                h.converged,
                "{p} locales: {} iterations, last residuals {:?}",
                h.residuals.len(),
                &h.residuals[h.residuals.len().saturating_sub(3)..]
            );
            all(ctx, &h.times)
        })
        .unwrap();
        for v in 0..560 {
            if want[v].is_infinite() {
                assert!(got[v].is_infinite(), "{p} locales, vertex {v}: {}", got[v]);
            } else {
                assert!(
                    (got[v] - want[v]).abs() <= 1e-7 * want[v].max(1.0),
                    "{p} locales, vertex {v}: {} vs {}",
                    got[v],
                    want[v]
                );
            }
        }
    }
}

/// The iteration budget of the Kronecker hitting-time test.
const KRON_CG_ITERS: usize = 100;

#[test]
fn pagerank_matches_the_power_iteration_on_a_directed_graph() {
    for p in 1..=4 {
        run(Config::local(p), |ctx| {
            // Directed: the raw Kronecker edges, one direction (dangling vertices exist).
            let pairs: Vec<(u64, u64)> = kron_pairs(ctx, 6, 9)?.into_iter().filter(|(u, v)| u != v).collect();
            let adj = adjacency(64, &pairs);
            let mut e = LocalEntries::new(true);
            for (k, &(u, v)) in pairs.iter().enumerate() {
                if k % ctx.num_locales() == ctx.id() {
                    e.push(u, v, 1.0);
                }
            }
            let m = CsrMatrix::from_entries(ctx, 64, 64, e)?;
            let (x, _, conv) = pagerank(ctx, &m, 0.85, 1e-12, 1000)?;
            assert!(conv);
            let want = pagerank_reference(&adj, 0.85, 1e-12, 1000);
            let got = all(ctx, &x)?;
            for v in 0..64 {
                assert!((got[v] - want[v]).abs() < 1e-9, "vertex {v}: {} vs {}", got[v], want[v]);
            }
            assert!((got.iter().sum::<f64>() - 1.0).abs() < 1e-9);
            Ok(())
        })
        .unwrap();
    }
}

#[test]
fn spmv_sends_at_most_one_message_per_remote_locale() {
    for p in 2..=4 {
        run(Config::local(p), |ctx| {
            let m = kronecker(ctx, 9, 16, 1)?;
            let x: Vec<f64> = m.local_cols().map(|j| j as f64).collect();
            let mut y = vec![0.0; RowMatrix::local_rows(&m).len()];
            m.spmv(ctx, &x, &mut y)?; // warm
            ctx.reset_comm_diagnostics()?;
            ctx.start_comm_diagnostics()?;
            for _ in 0..3 {
                m.spmv(ctx, &x, &mut y)?;
            }
            ctx.stop_comm_diagnostics()?;
            let c = ctx.comm_diagnostics()?;
            // Who reads from whom: a locale sends to every locale that holds ghosts of it.
            let sources: Vec<Vec<usize>> = ctx.allgather(&m.halo().sources().collect::<Vec<_>>())?;
            for (l, cl) in c.iter().enumerate() {
                let readers = sources.iter().filter(|s| s.contains(&l)).count() as u64;
                assert!(readers >= 1 && readers < p as u64);
                assert_eq!(cl.puts, 3 * readers, "locale {l} on {p}: {cl:?}");
                assert_eq!(cl.gets + cl.strided_gets + cl.strided_puts + cl.atomics, 0, "locale {l}: {cl:?}");
            }
            // The product is right (against the gathered entries).
            let ents = m.local_entries();
            let mut want = vec![0.0; y.len()];
            let start = RowMatrix::local_rows(&m).start;
            for k in 0..ents.len() {
                want[ents.rows[k] as usize - start] += ents.cols[k] as f64;
            }
            assert_eq!(y, want);
            Ok(())
        })
        .unwrap();
    }
}

#[test]
fn bad_initial_labels_are_refused_on_every_locale() {
    let r = run(Config::local(3), |ctx| {
        let m = kronecker(ctx, 5, 4, 1)?;
        let mut l: Vec<u64> = RowMatrix::local_rows(&m).map(|i| i as u64).collect();
        if ctx.id() == 2 {
            l[0] = 1 << 20;
        }
        let e = label_propagation(ctx, &m, Some(l), 5).err();
        let short = label_propagation(ctx, &m, Some(vec![0; usize::from(ctx.id() != 1)]), 5).err();
        ctx.allgather(&(e, short.is_some()))
    })
    .unwrap();
    assert!(r.iter().all(|(e, s)| matches!(e, Some(Error::IndexOutOfBounds { .. })) && *s), "{r:?}");
}
