//! The edge-list operator (plain Block DistArrays) against a dense reference and against the
//! CSR matrix of the same file, on 1-4 locales.

mod common;

use atoll_graph::{pagerank, read_matrix_market, read_matrix_market_edges, EdgeListMatrix, RowMatrix};
use atoll_runtime::{run, Config, Error};
use atoll_util::mix;
use common::{dense, tmp};

#[test]
fn edge_list_operator_matches_the_dense_reference_and_the_csr() {
    let (n, m) = (29usize, 31usize);
    // Distinct positions (the edge list's norms take entries one by one; see its docs).
    let mut t = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut body = String::new();
    for k in 0..250u64 {
        let (i, j) = ((mix(5 * k) % n as u64) as usize, (mix(5 * k + 1) % m as u64) as usize);
        let v = (mix(5 * k + 2) % 100) as f64 / 4.0 - 12.0;
        if seen.insert((i, j)) {
            t.push((i, j, v));
            body.push_str(&format!("{} {} {}\n", i + 1, j + 1, v));
        }
    }
    let text = format!("%%MatrixMarket matrix coordinate real general\n{n} {m} {}\n{body}", t.len());
    let path = tmp("edges.mtx");
    std::fs::write(&path, text).unwrap();
    let a = dense(n, m, &t);
    let x: Vec<f64> = (0..m).map(|j| 1.0 + j as f64 / 3.0).collect();
    let xt: Vec<f64> = (0..n).map(|i| 2.0 - i as f64 / 5.0).collect();
    for p in 1..=4 {
        run(Config::local(p), |ctx| {
            let (h, edges) = read_matrix_market_edges(ctx, &path)?;
            assert_eq!(edges.rows.len(), t.len());
            let e = EdgeListMatrix::new(ctx, h.rows, h.cols, edges)?;
            let (rows, cols) = (e.local_rows(), e.local_cols());
            let mut y = vec![0.0; rows.len()];
            e.spmv(ctx, &x[cols.clone()], &mut y)?;
            for (k, i) in rows.clone().enumerate() {
                let want: f64 = (0..m).map(|j| a[i][j] * x[j]).sum();
                assert!((y[k] - want).abs() < 1e-9, "row {i} on {p}");
            }
            let mut yt = vec![0.0; cols.len()];
            e.spmv_transpose(ctx, &xt[rows.clone()], &mut yt)?;
            for (k, j) in cols.clone().enumerate() {
                let want: f64 = (0..n).map(|i| a[i][j] * xt[i]).sum();
                assert!((yt[k] - want).abs() < 1e-9, "col {j} on {p}");
            }
            let csr = read_matrix_market(ctx, &path)?;
            assert!((e.norm_inf(ctx)? - csr.norm_inf(ctx)?).abs() < 1e-9);
            assert!((e.norm_frobenius(ctx)? - csr.norm_frobenius(ctx)?).abs() < 1e-9);
            assert!((e.norm_1(ctx)? - csr.norm_1(ctx)?).abs() < 1e-9);
            let (d1, d2) = (e.diagonal(ctx)?, csr.diagonal(ctx)?);
            assert!(d1.iter().zip(&d2).all(|(a, b)| (a - b).abs() < 1e-12));
            for (k, i) in rows.clone().enumerate() {
                assert!((d1[k] - if i < m { a[i][i] } else { 0.0 }).abs() < 1e-12);
            }
            Ok(())
        })
        .unwrap();
    }
}

#[test]
fn pagerank_is_the_same_on_the_edge_list_and_the_csr() {
    let mut pos: Vec<(u64, u64)> = (0..160u64).map(|k| (mix(2 * k) % 40 + 1, mix(2 * k + 1) % 40 + 1)).collect();
    pos.sort();
    pos.dedup();
    let mut text = format!("%%MatrixMarket matrix coordinate pattern general\n40 40 {}\n", pos.len());
    for (i, j) in &pos {
        text.push_str(&format!("{i} {j}\n"));
    }
    let path = tmp("pr.mtx");
    std::fs::write(&path, text).unwrap();
    for p in [1, 3] {
        run(Config::local(p), |ctx| {
            let (h, edges) = read_matrix_market_edges(ctx, &path)?;
            let e = EdgeListMatrix::new(ctx, h.rows, h.cols, edges)?;
            let csr = read_matrix_market(ctx, &path)?;
            // Distinct positions: the two operators are the same matrix.
            assert_eq!(csr.nnz(ctx)?, pos.len() as u64);
            let (x1, _, c1) = pagerank(ctx, &csr, 0.85, 1e-13, 500)?;
            let (x2, _, c2) = pagerank(ctx, &e, 0.85, 1e-13, 500)?;
            assert!(c1 && c2);
            assert!(x1.iter().zip(&x2).all(|(a, b)| (a - b).abs() < 1e-10));
            assert!(x1.iter().any(|&v| (v - 1.0 / 40.0).abs() > 1e-3));
            Ok(())
        })
        .unwrap();
    }
}

#[test]
fn out_of_range_edges_are_refused_everywhere() {
    let r = run(Config::local(2), |ctx| {
        let mut e = atoll_graph::LocalEntries::new(true);
        if ctx.id() == 1 {
            e.push(3, 9, 1.0);
        }
        let edges = atoll_graph::DistEdges::from_entries(ctx, &e)?;
        let r = EdgeListMatrix::new(ctx, 5, 5, edges).err();
        ctx.allgather(&r)
    })
    .unwrap();
    assert!(r.iter().all(|e| matches!(e, Some(Error::IndexOutOfBounds { .. }))), "{r:?}");
}
