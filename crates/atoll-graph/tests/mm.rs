//! Matrix Market reading and writing on 1-4 locales: values against a dense reference, SpMV and
//! its transpose, norms, and the typed errors (naming the line) of malformed files.

mod common;

use atoll_graph::{read_local, read_matrix_market, write_matrix_market, MmSymmetry, RowMatrix};
use atoll_runtime::{run, Config, Error};
use atoll_util::mix;
use common::{dense, tmp};

fn write(name: &str, text: &str) -> std::path::PathBuf {
    let p = tmp(name);
    std::fs::write(&p, text).unwrap();
    p
}

/// A random general real matrix as Matrix Market text, with comments and blank lines.
fn sample(n: usize, m: usize, nnz: usize, seed: u64) -> (String, Vec<(usize, usize, f64)>) {
    let mut t = Vec::new();
    let mut s = format!("%%MatrixMarket matrix coordinate real general\n% a comment\n%another\n\n{n} {m} {nnz}\n");
    for k in 0..nnz as u64 {
        let (i, j) = ((mix(seed + 3 * k) % n as u64) as usize, (mix(seed + 3 * k + 1) % m as u64) as usize);
        let v = (mix(seed + 3 * k + 2) % 1000) as f64 / 8.0 - 60.0;
        t.push((i, j, v));
        s.push_str(&format!("{} {} {}\n", i + 1, j + 1, v));
    }
    (s, t)
}

#[test]
fn general_real_file_gives_the_dense_reference_on_1_to_4_locales() {
    let (text, t) = sample(37, 23, 300, 7);
    let path = write("general.mtx", &text);
    let a = dense(37, 23, &t);
    let x: Vec<f64> = (0..23).map(|j| (j as f64 * 0.37).sin()).collect();
    let want: Vec<f64> = a.iter().map(|row| row.iter().zip(&x).map(|(p, q)| p * q).sum()).collect();
    let xt: Vec<f64> = (0..37).map(|i| (i as f64 * 0.11).cos()).collect();
    let want_t: Vec<f64> = (0..23).map(|j| (0..37).map(|i| a[i][j] * xt[i]).sum()).collect();
    let fro: f64 = a.iter().flatten().map(|v| v * v).sum::<f64>().sqrt();
    let ninf = a.iter().map(|r| r.iter().map(|v| v.abs()).sum::<f64>()).fold(0.0, f64::max);
    let n1 = (0..23).map(|j| (0..37).map(|i| a[i][j].abs()).sum::<f64>()).fold(0.0, f64::max);
    for p in 1..=4 {
        run(Config::local(p), |ctx| {
            let m = read_matrix_market(ctx, &path)?;
            assert_eq!(m.shape(), (37, 23));
            let (rows, cols) = (RowMatrix::local_rows(&m), RowMatrix::local_cols(&m));
            let mut y = vec![0.0; rows.len()];
            m.spmv(ctx, &x[cols.clone()], &mut y)?;
            for (k, i) in rows.clone().enumerate() {
                assert!((y[k] - want[i]).abs() < 1e-9, "p {p} row {i}: {} vs {}", y[k], want[i]);
            }
            let mut yt = vec![0.0; cols.len()];
            m.spmv_transpose(ctx, &xt[rows.clone()], &mut yt)?;
            for (k, j) in cols.clone().enumerate() {
                assert!((yt[k] - want_t[j]).abs() < 1e-9, "p {p} col {j}");
            }
            assert!((m.norm_frobenius(ctx)? - fro).abs() < 1e-9);
            assert!((m.norm_inf(ctx)? - ninf).abs() < 1e-9);
            assert!((m.norm_1(ctx)? - n1).abs() < 1e-9);
            // Duplicates are summed: the stored entries are the distinct positions.
            let distinct = a.iter().flatten().filter(|v| **v != 0.0).count() as u64;
            assert!(m.nnz(ctx)? >= distinct);
            Ok(())
        })
        .unwrap();
    }
}

#[test]
fn symmetric_pattern_file_is_mirrored_and_round_trips_through_the_writer() {
    let mut text = String::from("%%MatrixMarket matrix coordinate pattern symmetric\n5 5 6\n");
    let lower = [(1, 1), (2, 1), (3, 2), (5, 1), (4, 4), (5, 3)];
    for (i, j) in lower {
        text.push_str(&format!("{i} {j}\n"));
    }
    let path = write("sym.mtx", &text);
    let mut t = Vec::new();
    for (i, j) in lower {
        t.push((i - 1, j - 1, 1.0));
        if i != j {
            t.push((j - 1, i - 1, 1.0));
        }
    }
    let a = dense(5, 5, &t);
    for p in 1..=4 {
        let out = tmp(&format!("sym-out-{p}.mtx"));
        run(Config::local(p), |ctx| {
            let m = read_matrix_market(ctx, &path)?;
            assert_eq!(m.nnz(ctx)?, 10);
            let diag = m.diagonal(ctx)?;
            for (k, i) in RowMatrix::local_rows(&m).enumerate() {
                assert_eq!(diag[k], a[i][i]);
            }
            write_matrix_market(ctx, &out, 5, 5, &m.local_entries(), MmSymmetry::Symmetric)?;
            let back = read_local(ctx, &out)?;
            assert_eq!(back.header.nnz, 6);
            assert_eq!(back.header.symmetry, MmSymmetry::Symmetric);
            let m2 = read_matrix_market(ctx, &out)?;
            let (e1, e2) = (m.local_entries(), m2.local_entries());
            assert_eq!(e1, e2);
            Ok(())
        })
        .unwrap();
    }
}

#[test]
fn integer_file_and_real_round_trip_keep_values() {
    let path = write("int.mtx", "%%MatrixMarket matrix coordinate integer general\n3 3 3\n1 2 -7\n3 3 5\n2 1 12\n");
    run(Config::local(2), |ctx| {
        let m = read_matrix_market(ctx, &path)?;
        let mut all = ctx
            .allgather(
                &m.local_entries().rows.iter().zip(&m.local_entries().cols).map(|(&r, &c)| (r, c)).collect::<Vec<_>>(),
            )?
            .concat();
        all.sort();
        assert_eq!(all, vec![(0, 1), (1, 0), (2, 2)]);
        let out = tmp("int-out.mtx");
        write_matrix_market(ctx, &out, 3, 3, &m.local_entries(), MmSymmetry::General)?;
        let m2 = read_matrix_market(ctx, &out)?;
        assert_eq!(m.local_entries(), m2.local_entries());
        Ok(())
    })
    .unwrap();
}

fn parse_error(text: &str, name: &str, p: usize) -> (u64, String) {
    let path = write(name, text);
    let errs = run(Config::local(p), |ctx| {
        let e = match read_matrix_market(ctx, &path) {
            Err(e) => e,
            Ok(_) => panic!("{name}: read a malformed file"),
        };
        // The job goes on after the error; every locale has the same one.
        let all = ctx.allgather(&e)?;
        Ok(all)
    })
    .unwrap();
    assert!(errs.windows(2).all(|w| w[0] == w[1]), "every locale returns the same error: {errs:?}");
    match &errs[0] {
        Error::Parse { line, message, .. } => (*line, message.clone()),
        e => panic!("{name}: expected a parse error, got {e:?}"),
    }
}

#[test]
fn malformed_files_give_an_error_naming_the_line_on_every_locale() {
    let body = |n: usize| (1..=n).map(|k| format!("{} {} 1.5\n", k % 9 + 1, k % 7 + 1)).collect::<String>();
    for p in 1..=4 {
        let (l, m) = parse_error("%%MatrixMarket matrix coordinate real general\n", "nosize.mtx", p);
        assert!(l == 2 && m.contains("size line"), "{l} {m}");
        let (l, m) = parse_error("%%MatrixMarket matrix array real general\n3 3\n", "array.mtx", p);
        assert!(l == 1 && m.contains("array"), "{l} {m}");
        let (l, m) = parse_error("%MatrixMarket matrix coordinate real general\n3 3 0\n", "banner.mtx", p);
        assert!(l == 1 && m.contains("banner"), "{l} {m}");
        let (l, m) = parse_error("%%MatrixMarket matrix coordinate real general\n% c\n9 x 3\n", "size.mtx", p);
        assert!(l == 3 && m.contains("size line"), "{l} {m}");
        // Out of range on line 3 + 40 = 43.
        let mut t = format!("%%MatrixMarket matrix coordinate real general\n% c\n9 7 80\n{}", body(40));
        t.push_str("10 1 2.0\n");
        t.push_str(&body(39));
        let (l, m) = parse_error(&t, "range.mtx", p);
        assert!(l == 44 && m.contains("row index 10 is out of range 1..=9"), "{l} {m}");
        let t = format!("%%MatrixMarket matrix coordinate real general\n9 7 60\n{}3 0 1.0\n", body(59));
        let (l, m) = parse_error(&t, "zero.mtx", p);
        assert!(l == 62 && m.contains("column index 0"), "{l} {m}");
        // Too many entries: the first extra one.
        let t = format!("%%MatrixMarket matrix coordinate real general\n9 7 50\n{}", body(70));
        let (l, m) = parse_error(&t, "many.mtx", p);
        assert!(l == 53 && m.contains("beyond"), "{l} {m}");
        // Truncated: fewer entries, and a last line cut in the middle.
        let t = format!("%%MatrixMarket matrix coordinate real general\n9 7 50\n{}", body(45));
        let (l, m) = parse_error(&t, "short.mtx", p);
        assert!(l == 48 && m.contains("ends after 45 of the 50"), "{l} {m}");
        let t = format!("%%MatrixMarket matrix coordinate real general\n9 7 50\n{}4 5", body(45));
        let (l, m) = parse_error(&t, "cut.mtx", p);
        assert!(l == 48 && m.contains("expected 3 fields"), "{l} {m}");
        let t = format!("%%MatrixMarket matrix coordinate integer general\n9 7 5\n{}", "1 1 2.5\n".repeat(5));
        let (l, m) = parse_error(&t, "intval.mtx", p);
        assert!(l == 3 && m.contains("integer"), "{l} {m}");
        let t = format!("%%MatrixMarket matrix coordinate pattern general\n9 7 5\n{}", "1 1 1\n".repeat(5));
        let (l, m) = parse_error(&t, "extra.mtx", p);
        assert!(l == 3 && m.contains("unexpected field"), "{l} {m}");
    }
}

#[test]
fn a_missing_file_is_an_io_error_everywhere() {
    let r =
        run(Config::local(3), |ctx| ctx.allgather(&read_matrix_market(ctx, "/nonexistent/atoll.mtx").err())).unwrap();
    assert!(r.iter().all(|e| matches!(e, Some(Error::Io(m)) if m.contains("/nonexistent/atoll.mtx"))), "{r:?}");
}
