//! Strided copies (the N-d views of the Python front end) against a sequential computation
//! of each output element's source position, on 1 to 4 locales: transposes of every axis
//! order, broadcasts (stride 0), reversed axes, views sparse enough to take the general
//! gather, bool arrays, and views reaching outside the source refused; and matrix products of
//! row-major blocks against the sequential triple loop.

mod common;

use atoll_session::commands as cmd;
use atoll_session::{DType, Node, Session};
use common::{f64s, i64s, leaf, on_1_to_4_locales, put_bool, put_f64, put_i64};

/// The source positions of a view, one division per axis and element.
fn reference(offset: i64, shape: &[usize], strides: &[i64]) -> Vec<i64> {
    let n: usize = shape.iter().product();
    (0..n)
        .map(|i| {
            let mut rem = i;
            let mut p = offset;
            for k in (0..shape.len()).rev() {
                p += (rem % shape[k]) as i64 * strides[k];
                rem /= shape[k];
            }
            p
        })
        .collect()
}

fn c_strides(shape: &[usize]) -> Vec<i64> {
    let mut out = vec![1i64; shape.len()];
    for k in (0..shape.len().saturating_sub(1)).rev() {
        out[k] = out[k + 1] * shape[k + 1] as i64;
    }
    out
}

fn check_i64(s: &Session, src: &[i64], offset: i64, shape: &[usize], strides: &[i64]) {
    let a = put_i64(s, src);
    let got = i64s(s, &cmd::strided(s, &a, offset, shape, strides).unwrap());
    let want: Vec<i64> = reference(offset, shape, strides).into_iter().map(|p| src[p as usize]).collect();
    assert_eq!(got, want, "shape {shape:?} strides {strides:?} offset {offset}");
}

#[test]
fn positions_match_the_sequential_formula() {
    for (shape, strides, offset) in [
        (vec![2usize, 3, 4], vec![12i64, 4, 1], 0i64),
        (vec![4, 3, 2], vec![1, 4, 12], 0),
        (vec![3, 5], vec![0, 1], 7),
        (vec![5, 3], vec![-3, 1], 12),
        (vec![1], vec![1], 3),
        (vec![], vec![], 9),
        (vec![2, 0, 3], vec![0, 1, 1], 0),
    ] {
        let n: usize = shape.iter().product();
        for lo in 0..=n {
            for hi in lo..=n {
                let want = reference(offset, &shape, &strides)[lo..hi].to_vec();
                let got = cmd::strided_positions(offset, &shape, &strides, lo, hi);
                assert_eq!(got, want, "shape {shape:?} {lo}..{hi}");
            }
        }
    }
}

#[test]
fn strided_copies_equal_the_sequential_views() {
    on_1_to_4_locales(|s| {
        let src: Vec<i64> = (0..24 * 7).map(|i| i * 3 - 5).collect();
        let shape = [4usize, 6, 7];
        let st = c_strides(&shape);
        // Every axis order of a 3-D array.
        for perm in [[0, 1, 2], [0, 2, 1], [1, 0, 2], [1, 2, 0], [2, 0, 1], [2, 1, 0]] {
            let sh: Vec<usize> = perm.iter().map(|&k| shape[k]).collect();
            let sd: Vec<i64> = perm.iter().map(|&k| st[k]).collect();
            check_i64(s, &src, 0, &sh, &sd);
        }
        // Broadcasts: a row repeated, a column repeated.
        check_i64(s, &src, 0, &[9, 7], &[0, 1]);
        check_i64(s, &src, 5, &[6, 11], &[7, 0]);
        // Reversed axes and steps (a[::-1, 1::2]).
        check_i64(s, &src, 23 * 7 + 1, &[24, 3], &[-7, 2]);
        // Sparse: every 1009th element of a long array takes the general gather.
        let long: Vec<i64> = (0..400_000).map(|i| i ^ 0x5555).collect();
        check_i64(s, &long, 11, &[300, 1], &[1009, 1]);
        check_i64(s, &long, 0, &[2, 150], &[200_000, 1201]);
        // float64 and bool.
        let fsrc: Vec<f64> = (0..60).map(|i| i as f64 * 0.5).collect();
        let f = put_f64(s, &fsrc);
        let got = f64s(s, &cmd::strided(s, &f, 0, &[6, 10], &[1, 6]).unwrap());
        let want: Vec<f64> = reference(0, &[6, 10], &[1, 6]).into_iter().map(|p| fsrc[p as usize]).collect();
        assert_eq!(got, want);
        let bsrc: Vec<bool> = (0..50).map(|i| i % 3 == 0).collect();
        let b = put_bool(s, &bsrc);
        let out = cmd::strided(s, &b, 49, &[5, 10], &[-1, -5]).unwrap();
        let as_i = cmd::evaluate(s, &Node::Cast(Box::new(leaf(&out)), DType::I64), out.len).unwrap();
        let want: Vec<i64> = reference(49, &[5, 10], &[-1, -5]).into_iter().map(|p| bsrc[p as usize] as i64).collect();
        assert_eq!(i64s(s, &as_i), want);
        // A view reaching past either end is refused.
        let a = put_i64(s, &src);
        assert!(cmd::strided(s, &a, 0, &[24, 8], &[7, 1]).is_err());
        assert!(cmd::strided(s, &a, 3, &[5], &[-1]).is_err());
        // An empty view of any source is empty.
        assert_eq!(cmd::strided(s, &a, 0, &[0, 4], &[4, 1]).unwrap().len, 0);
    });
}

#[test]
fn matrix_products_equal_the_sequential_loop() {
    on_1_to_4_locales(|s| {
        for (n, k, m) in [(1usize, 1usize, 1usize), (5, 3, 7), (13, 17, 2), (3, 0, 4), (40, 33, 21)] {
            let a: Vec<f64> = (0..n * k).map(|i| ((i * 7) % 11) as f64 - 5.0).collect();
            let b: Vec<f64> = (0..k * m).map(|i| ((i * 3) % 13) as f64 * 0.25).collect();
            let want: Vec<f64> =
                (0..n * m).map(|p| (0..k).map(|l| a[(p / m) * k + l] * b[l * m + p % m]).sum()).collect();
            let (da, db) = (put_f64(s, &a), put_f64(s, &b));
            assert_eq!(f64s(s, &cmd::matmul(s, &da, &db, n, k, m).unwrap()), want, "{n}x{k}x{m}");
            let ai: Vec<i64> = a.iter().map(|&x| x as i64).collect();
            let bi: Vec<i64> = (0..k * m).map(|i| (i as i64 * 3) % 13 - 6).collect();
            let want_i: Vec<i64> =
                (0..n * m).map(|p| (0..k).map(|l| ai[(p / m) * k + l] * bi[l * m + p % m]).sum()).collect();
            let (ia, ib) = (put_i64(s, &ai), put_i64(s, &bi));
            assert_eq!(i64s(s, &cmd::matmul(s, &ia, &ib, n, k, m).unwrap()), want_i);
        }
        // The same array on both sides, and sizes that do not match.
        let sq: Vec<f64> = (0..9).map(|i| i as f64).collect();
        let a = put_f64(s, &sq);
        let want: Vec<f64> = (0..9).map(|p| (0..3).map(|l| sq[(p / 3) * 3 + l] * sq[l * 3 + p % 3]).sum()).collect();
        assert_eq!(f64s(s, &cmd::matmul(s, &a, &a, 3, 3, 3).unwrap()), want);
        assert!(cmd::matmul(s, &a, &a, 2, 3, 3).is_err());
    });
}

#[test]
fn reductions_along_an_axis_equal_the_sequential_fold() {
    on_1_to_4_locales(|s| {
        for (outer, n, inner) in
            [(1usize, 7usize, 5usize), (6, 4, 1), (3, 5, 4), (1, 1, 1), (2, 0, 3), (9, 13, 1), (1, 40, 1)]
        {
            let len = outer * n * inner;
            let xi: Vec<i64> = (0..len).map(|p| ((p * 37) % 23) as i64 - 11).collect();
            let xf: Vec<f64> = xi.iter().map(|&v| v as f64 * 0.5).collect();
            let (ai, af) = (put_i64(s, &xi), put_f64(s, &xf));
            for op in [cmd::AxisOp::Sum, cmd::AxisOp::Prod, cmd::AxisOp::Min, cmd::AxisOp::Max] {
                if n == 0 && matches!(op, cmd::AxisOp::Min | cmd::AxisOp::Max) {
                    assert!(cmd::reduce_axis(s, &ai, outer, n, inner, op).is_err());
                    continue;
                }
                let want_i: Vec<i64> = (0..outer * inner)
                    .map(|q| {
                        let (o, i) = (q / inner, q % inner);
                        let lane = (0..n).map(|l| xi[o * n * inner + l * inner + i]);
                        match op {
                            cmd::AxisOp::Sum => lane.fold(0i64, i64::wrapping_add),
                            cmd::AxisOp::Prod => lane.fold(1i64, i64::wrapping_mul),
                            cmd::AxisOp::Min => lane.min().unwrap(),
                            cmd::AxisOp::Max => lane.max().unwrap(),
                        }
                    })
                    .collect();
                assert_eq!(
                    i64s(s, &cmd::reduce_axis(s, &ai, outer, n, inner, op).unwrap()),
                    want_i,
                    "{op:?} {outer} {n} {inner}"
                );
                let want_f: Vec<f64> = want_i
                    .iter()
                    .enumerate()
                    .map(|(q, _)| {
                        let (o, i) = (q / inner, q % inner);
                        let lane = (0..n).map(|l| xf[o * n * inner + l * inner + i]);
                        match op {
                            cmd::AxisOp::Sum => lane.sum(),
                            cmd::AxisOp::Prod => lane.product(),
                            cmd::AxisOp::Min => lane.fold(f64::INFINITY, f64::min),
                            cmd::AxisOp::Max => lane.fold(f64::NEG_INFINITY, f64::max),
                        }
                    })
                    .collect();
                // Sums of halves are exact in any order; products may round (compared to 1e-12).
                let got_f = f64s(s, &cmd::reduce_axis(s, &af, outer, n, inner, op).unwrap());
                assert_eq!(got_f.len(), want_f.len());
                for (g, w) in got_f.iter().zip(&want_f) {
                    assert!((g - w).abs() <= 1e-12 * w.abs(), "{op:?}: {g} against {w}");
                }
            }
        }
        // A NaN in a lane makes its min and max NaN, as NumPy's.
        let a = put_f64(s, &[1.0, f64::NAN, 3.0, 4.0, 0.5, 6.0]);
        let got = f64s(s, &cmd::reduce_axis(s, &a, 1, 3, 2, cmd::AxisOp::Min).unwrap());
        assert!(got[0] == 0.5 && got[1].is_nan(), "{got:?}");
        let got = f64s(s, &cmd::reduce_axis(s, &a, 2, 3, 1, cmd::AxisOp::Max).unwrap());
        assert!(got[0].is_nan() && got[1] == 6.0, "{got:?}");
    });
}
