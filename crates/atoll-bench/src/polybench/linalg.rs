//! The linear-algebra kernels of the suite (PolyBench/C 3.2 unless noted): 2mm, fw
//! (Floyd-Warshall), trmm, correlation, covariance, cholesky, lu, mvt, syrk.
//!
//! Written the way a careful Chapel or Atoll user writes them (see `owned.rs`): the matrices
//! are distributed by rows (Cyclic or BlockCyclic over a `locales x 1` grid), each locale
//! updates the rows it owns with plain loops over its local storage, and the rows a locale
//! reads but does not own arrive in a few collective operations, not one per row or element:
//!
//! - 2mm, trmm, syrk, correlation, covariance: the operands that every row reads are replicated
//!   once ([`Replica`]: with aggregation `static`/`auto` every locale publishes its rows and
//!   reads the others' rows in bulk, all at once; with `off`, the paper's baseline, a zippered
//!   loop per locale whose follower fetches remote elements one by one).
//! - lu, cholesky, fw: the loop over `k` carries a dependence from row to row; it runs in panels
//!   of [`PANEL`] rows. The panel's rows are copied onto every locale (as a replica, through
//!   zippered loops), every locale applies the panel's steps to them (a few rows, the same
//!   arithmetic everywhere), then each owner applies them to its own rows. One copy per panel
//!   instead of one zippered loop per row update.
//! - mvt: each locale's rows contribute to both products in one pass; the partial `A^T y2`
//!   vectors are summed in one allreduce.
//!
//! Every kernel computes each element with the same operations in the same order as its
//! sequential reference (the plain one-core loop a skeptic writes: `i-k-j` loop order, no
//! temporary), so results agree to rounding.

use super::owned::{axpy, dot, owned_rows, row_mat, sub_dot, Replica};
use super::{concat_gathered, verify, Dists, Meter, Outcome, Params};
use atoll::array::{DistArray, Scalar};
use atoll::prelude::*;

/// Tolerance of the floating-point comparisons (relative, absolute below 1).
const TOL: f64 = 1e-9;

/// Rows per panel of lu, cholesky and fw.
pub const PANEL: usize = 16;

fn host(r: usize, c: usize, f: impl Fn(usize, usize) -> f64) -> Vec<f64> {
    (0..r * c).map(|p| f(p / c, p % c)).collect()
}

/// 2mm: `tmp = alpha A B; D = beta D + tmp C` (n x n). `B` and `C` are replicated; each owner
/// computes its rows of `tmp` (`tmp[i, ..] += alpha A[i][k] B[k, ..]`, row `i` of `A` is its
/// own) and then of `D` (`D[i, ..] += tmp[i][k] C[k, ..]`, row `i` of `tmp` is its own).
pub fn two_mm<X: Dists>(ctx: &Ctx, x: &X, p: &Params, m: &mut Meter) -> Result<Outcome> {
    let n = p.d2(128, 4);
    let (alpha, beta) = (1.5, 1.2);
    let fa = |i: usize, j: usize| ((i * j) % n) as f64 / n as f64;
    let fb = |i: usize, j: usize| ((i * (j + 1)) % n) as f64 / n as f64;
    let fc = |i: usize, j: usize| ((i * (j + 3)) % n) as f64 / n as f64;
    let fd = |i: usize, j: usize| ((i * (j + 2)) % n) as f64 / n as f64;
    let a = row_mat(ctx, x, n, n, fa)?;
    let b = row_mat(ctx, x, n, n, fb)?;
    let c = row_mat(ctx, x, n, n, fc)?;
    let mut d = row_mat(ctx, x, n, n, fd)?;
    let mut tmp = row_mat(ctx, x, n, n, |_, _| 0.0)?;
    let (mut rb, mut rc) = (Replica::new(ctx, n, n)?, Replica::new(ctx, n, n)?);
    m.measure(ctx, || {
        rb.fill_pair(&mut rc, &b, &c)?;
        let (bl, cl) = (rb.get(), rc.get());
        // A, tmp and D have the same distribution: local row l is the same row of each.
        for ((ar, t), dr) in
            a.local().chunks_exact(n).zip(tmp.local_mut().chunks_exact_mut(n)).zip(d.local_mut().chunks_exact_mut(n))
        {
            t.fill(0.0);
            for k in 0..n {
                axpy(t, alpha * ar[k], &bl[k * n..(k + 1) * n]);
            }
            dr.iter_mut().for_each(|v| *v *= beta);
            for k in 0..n {
                axpy(dr, t[k], &cl[k * n..(k + 1) * n]);
            }
        }
        Ok(())
    })?;
    let ok = verify(
        ctx,
        m,
        d.gather(0)?,
        || (host(n, n, fa), host(n, n, fb), host(n, n, fc), host(n, n, fd), vec![0.0; n * n]),
        |(a, b, c, mut d, mut t)| {
            for i in 0..n {
                for k in 0..n {
                    axpy(&mut t[i * n..(i + 1) * n], alpha * a[i * n + k], &b[k * n..(k + 1) * n]);
                }
            }
            for i in 0..n {
                d[i * n..(i + 1) * n].iter_mut().for_each(|v| *v *= beta);
                for k in 0..n {
                    let s = t[i * n + k];
                    axpy(&mut d[i * n..(i + 1) * n], s, &c[k * n..(k + 1) * n]);
                }
            }
            d
        },
        TOL,
    )?;
    Ok(Outcome { ok, n: (n * n) as u64, size: format!("{n}x{n}") })
}

/// The panel loop shared by fw, lu and cholesky: for each panel `lo..hi` of [`PANEL`] rows,
/// copies the panel's rows onto every locale (`pan`, a replica of `PANEL` rows), lets `factor`
/// bring them up to date (the same on every locale), then `update` each owned row below the
/// panel (`row`, its index, the panel), and stores the owned panel rows back. `state` is what
/// `factor` computes besides the rows (cholesky's inverse diagonal) and `update` reads.
/// **Collective.**
fn panels<M: Distribution<2> + 'static, S>(
    a: &mut DistArray<f64, 2, M>,
    rows: &[usize],
    pan: &mut Replica,
    state: &mut S,
    factor: impl Fn(&mut S, usize, usize, &mut [f64]),
    update: impl Fn(&S, &mut [f64], usize, usize, usize, &[f64]),
) -> Result<()> {
    let [n, c] = a.shape();
    let mut lo = 0;
    while lo < n {
        let hi = (lo + PANEL).min(n);
        pan.fill_rows(a, lo, hi)?;
        let pan = &mut pan.get_mut()[..(hi - lo) * c];
        factor(state, lo, hi, pan);
        for (row, &i) in a.local_mut().chunks_exact_mut(c).zip(rows) {
            if (lo..hi).contains(&i) {
                row.copy_from_slice(&pan[(i - lo) * c..(i - lo + 1) * c]);
            } else if i >= hi {
                update(state, row, i, lo, hi, pan);
            }
        }
        lo = hi;
    }
    Ok(())
}

/// fw (Floyd-Warshall): for each `k` and `i`, `path[i, ..] = min(path[i, ..], path[i][k] +
/// path[k, ..])` (row `k` does not change during step `k`), in panels of rows: each owner
/// applies a panel's steps to its rows above and below it.
pub fn fw<X: Dists>(ctx: &Ctx, x: &X, p: &Params, m: &mut Meter) -> Result<Outcome> {
    let n = p.d2(64, 4);
    let f = |i: usize, j: usize| {
        if i == j {
            0.0
        } else if (i + j) % 5 == 0 {
            999.0
        } else {
            ((i * 7 + j * 3) % 23 + 1) as f64
        }
    };
    let mut path = row_mat(ctx, x, n, n, f)?;
    let rows = owned_rows(ctx, &path)?;
    let mut rp = Replica::new(ctx, PANEL, n)?;
    let relax = |row: &mut [f64], k: usize, rk: &[f64]| {
        let s = row[k];
        for (v, r) in row.iter_mut().zip(rk) {
            *v = v.min(s + r);
        }
    };
    m.measure(ctx, || {
        let mut lo = 0;
        while lo < n {
            let hi = (lo + PANEL).min(n);
            rp.fill_rows(&path, lo, hi)?;
            let pan = &mut rp.get_mut()[..(hi - lo) * n];
            // Row k as step k reads it (the panel's steps before k applied).
            let mut snap = vec![0.0; (hi - lo) * n];
            for k in lo..hi {
                let rk = pan[(k - lo) * n..(k - lo + 1) * n].to_vec();
                for r in pan.chunks_exact_mut(n) {
                    relax(r, k, &rk);
                }
                snap[(k - lo) * n..(k - lo + 1) * n].copy_from_slice(&rk);
            }
            for (row, &i) in path.local_mut().chunks_exact_mut(n).zip(&rows) {
                if (lo..hi).contains(&i) {
                    row.copy_from_slice(&pan[(i - lo) * n..(i - lo + 1) * n]);
                } else {
                    for k in lo..hi {
                        relax(row, k, &snap[(k - lo) * n..(k - lo + 1) * n]);
                    }
                }
            }
            lo = hi;
        }
        Ok(())
    })?;
    let ok = verify(
        ctx,
        m,
        path.gather(0)?,
        || (host(n, n, f), vec![0.0; n]),
        |(mut p, mut rk)| {
            for k in 0..n {
                rk.copy_from_slice(&p[k * n..(k + 1) * n]);
                for i in 0..n {
                    relax(&mut p[i * n..(i + 1) * n], k, &rk);
                }
            }
            p
        },
        0.0,
    )?;
    Ok(Outcome { ok, n: (n * n) as u64, size: format!("{n}x{n}") })
}

/// trmm (PolyBench/C 4.x: `B = alpha A^T B`, `A` unit lower triangular): `A` and the input `B`
/// are replicated; each owner computes its rows, `B[i, ..] = alpha (B[i, ..] + sum over k > i
/// of A[k][i] B[k, ..])`.
pub fn trmm<X: Dists>(ctx: &Ctx, x: &X, p: &Params, m: &mut Meter) -> Result<Outcome> {
    let n = p.d2(128, 4);
    let alpha = 1.5;
    let fa = |i: usize, j: usize| ((i + j) % n) as f64 / n as f64;
    let fb = |i: usize, j: usize| ((n + i - j) % n) as f64 / n as f64;
    let a = row_mat(ctx, x, n, n, fa)?;
    let mut b = row_mat(ctx, x, n, n, fb)?;
    let (mut ra, mut rb) = (Replica::new(ctx, n, n)?, Replica::new(ctx, n, n)?);
    let rows = owned_rows(ctx, &b)?;
    m.measure(ctx, || {
        ra.fill_pair(&mut rb, &a, &b)?;
        let (al, bl) = (ra.get(), rb.get());
        for (br, &i) in b.local_mut().chunks_exact_mut(n).zip(&rows) {
            for k in i + 1..n {
                axpy(br, al[k * n + i], &bl[k * n..(k + 1) * n]);
            }
            br.iter_mut().for_each(|v| *v *= alpha);
        }
        Ok(())
    })?;
    let ok = verify(
        ctx,
        m,
        b.gather(0)?,
        || (host(n, n, fa), host(n, n, fb)),
        |(a, mut b)| {
            // In place: rows k > i are still the input's when row i is computed.
            for i in 0..n {
                let (top, below) = b.split_at_mut((i + 1) * n);
                let bi = &mut top[i * n..];
                for k in i + 1..n {
                    axpy(bi, a[k * n + i], &below[(k - i - 1) * n..(k - i) * n]);
                }
                bi.iter_mut().for_each(|v| *v *= alpha);
            }
            b
        },
        TOL,
    )?;
    Ok(Outcome { ok, n: (n * n) as u64, size: format!("{n}x{n}") })
}

fn corr_data(m: usize) -> impl Fn(usize, usize) -> f64 + Sync + Copy {
    move |i, j| ((i * j) % (m + 7)) as f64 / m as f64 + ((i + 3 * j) % 11) as f64 * 0.1 + (j % 5) as f64
}

/// Column sums of the rows `rows` (row-major, `m` columns), accumulated row by row.
fn column_sums<'a>(rows: impl Iterator<Item = &'a [f64]>, m: usize, f: impl Fn(usize, f64) -> f64) -> Vec<f64> {
    let mut s = vec![0.0; m];
    for r in rows {
        for (j, (acc, v)) in s.iter_mut().zip(r).enumerate() {
            *acc += f(j, *v);
        }
    }
    s
}

/// The PolyBench standard deviation from a sum of squared deviations.
fn stddev(sq: f64, float_n: f64) -> f64 {
    let v = (sq / float_n).sqrt();
    if v <= 0.1 {
        1.0
    } else {
        v
    }
}

/// Centers (and with `reduced`, scales) the rows `rows` in place.
fn center_rows<'a>(rows: impl Iterator<Item = &'a mut [f64]>, mean: &[f64], sd: &[f64], float_n: f64, reduced: bool) {
    for r in rows {
        for (j, v) in r.iter_mut().enumerate() {
            *v -= mean[j];
            if reduced {
                *v /= float_n.sqrt() * sd[j];
            }
        }
    }
}

/// The upper triangle (`j2 >= j1`, `> j1` with `unit_diagonal`) of the rows `j1` of the column
/// products `sum_i d[i][j1] d[i][j2]`, accumulated over `i` in order: `out[l]` is row `js[l]`.
fn upper_products(d: &[f64], n: usize, m: usize, js: &[usize], out: &mut [f64], unit_diagonal: bool) {
    for i in 0..n {
        let di = &d[i * m..(i + 1) * m];
        for (o, &j1) in out.chunks_exact_mut(m).zip(js) {
            let first = if unit_diagonal { j1 + 1 } else { j1 };
            axpy(&mut o[first..], di[j1], &di[first..]);
        }
    }
}

/// correlation: column means and standard deviations (each locale's partial column sums,
/// summed in one allreduce), the centered and reduced data (each owner its rows), then the
/// correlation matrix: the data replicated, each owner computing the upper triangle of its
/// rows, the result replicated for the mirrored lower triangle.
pub fn correlation<X: Dists>(ctx: &Ctx, x: &X, p: &Params, meter: &mut Meter) -> Result<Outcome> {
    column_statistics(ctx, x, p, meter, true)
}

/// covariance: as correlation without the standard deviations (PolyBench 3.2 does not divide
/// by `n - 1`).
pub fn covariance<X: Dists>(ctx: &Ctx, x: &X, p: &Params, meter: &mut Meter) -> Result<Outcome> {
    column_statistics(ctx, x, p, meter, false)
}

fn sum_vectors(ctx: &Ctx, v: Vec<f64>) -> Result<Vec<f64>> {
    ctx.allreduce(v, |a, b| a.iter().zip(&b).map(|(x, y)| x + y).collect())
}

/// correlation (`reduced`: columns also divided by their standard deviation, unit diagonal)
/// or covariance, checked against the sequential version.
fn column_statistics<X: Dists>(ctx: &Ctx, x: &X, p: &Params, meter: &mut Meter, reduced: bool) -> Result<Outcome> {
    let (n, m) = (p.d2(512, 4), p.d2(512, 4));
    let float_n = n as f64;
    let f = corr_data(m);
    let mut data = row_mat(ctx, x, n, m, f)?;
    let mut sym = row_mat(ctx, x, m, m, |_, _| 0.0)?;
    let (mut rd, mut rs) = (Replica::new(ctx, n, m)?, Replica::new(ctx, m, m)?);
    let srows = owned_rows(ctx, &sym)?;
    meter.measure(ctx, || {
        let mean: Vec<f64> = sum_vectors(ctx, column_sums(data.local().chunks_exact(m), m, |_, v| v))?
            .into_iter()
            .map(|s| s / float_n)
            .collect();
        let sd = if reduced {
            let sq = column_sums(data.local().chunks_exact(m), m, |j, v| (v - mean[j]) * (v - mean[j]));
            sum_vectors(ctx, sq)?.into_iter().map(|s| stddev(s, float_n)).collect()
        } else {
            vec![1.0; m]
        };
        center_rows(data.local_mut().chunks_exact_mut(m), &mean, &sd, float_n, reduced);
        rd.fill(&data)?;
        upper_products(rd.get(), n, m, &srows, sym.local_mut(), reduced);
        rs.fill(&sym)?;
        let up = rs.get();
        for (o, &j1) in sym.local_mut().chunks_exact_mut(m).zip(&srows) {
            for (j2, v) in o.iter_mut().enumerate().take(j1) {
                *v = up[j2 * m + j1];
            }
            if reduced {
                o[j1] = 1.0;
            }
        }
        Ok(())
    })?;
    let ok = verify(
        ctx,
        meter,
        sym.gather(0)?,
        || (host(n, m, f), vec![0.0; m * m]),
        |(mut d, mut s)| {
            let mean: Vec<f64> = column_sums(d.chunks_exact(m), m, |_, v| v).into_iter().map(|s| s / float_n).collect();
            let sd: Vec<f64> = if reduced {
                column_sums(d.chunks_exact(m), m, |j, v| (v - mean[j]) * (v - mean[j]))
                    .into_iter()
                    .map(|s| stddev(s, float_n))
                    .collect()
            } else {
                vec![1.0; m]
            };
            center_rows(d.chunks_exact_mut(m), &mean, &sd, float_n, reduced);
            let all: Vec<usize> = (0..m).collect();
            upper_products(&d, n, m, &all, &mut s, reduced);
            for j1 in 0..m {
                if reduced {
                    s[j1 * m + j1] = 1.0;
                }
                for j2 in 0..j1 {
                    s[j1 * m + j2] = s[j2 * m + j1];
                }
            }
            s
        },
        1e-8,
    )?;
    Ok(Outcome { ok, n: (n * m) as u64, size: format!("{n}x{m}") })
}

/// cholesky (PolyBench 3.2: the factor is stored below the diagonal, `p` holds the inverse
/// diagonal): for each `i`, `x = A[i][i] - sum A[i, 0..i]^2`, `p[i] = 1 / sqrt(x)` and, for
/// each `j > i`, `A[j][i] = (A[i][j] - A[j, 0..i] . A[i, 0..i]) * p[i]`. In panels of rows:
/// every locale factors the panel's rows, each owner then computes the panel's columns of its
/// rows below.
pub fn cholesky<X: Dists>(ctx: &Ctx, x: &X, p: &Params, m: &mut Meter) -> Result<Outcome> {
    let n = p.d2(256, 4);
    // Symmetric and diagonally dominant: positive definite.
    let f = move |i: usize, j: usize| if i == j { n as f64 + 1.0 } else { ((i + j) % 10) as f64 / 10.0 };
    let mut a = row_mat(ctx, x, n, n, f)?;
    let rows = owned_rows(ctx, &a)?;
    let mut rp = Replica::new(ctx, PANEL, n)?;
    let mut pv = vec![0.0; n];
    // Column `i` of row `row` (`row[..i]` up to date), from row `i` of the factor.
    let column = |row: &mut [f64], j: usize, i: usize, ri: &[f64], pi: f64| {
        row[i] = sub_dot(ri[j], &row[..i], &ri[..i]) * pi;
    };
    m.measure(ctx, || {
        panels(
            &mut a,
            &rows,
            &mut rp,
            &mut pv,
            |pv, lo, hi, pan| {
                for i in lo..hi {
                    let (top, below) = pan.split_at_mut((i - lo + 1) * n);
                    let ri = &top[(i - lo) * n..];
                    pv[i] = 1.0 / sub_dot(ri[i], &ri[..i], &ri[..i]).sqrt();
                    for (r, j) in below.chunks_exact_mut(n).zip(i + 1..hi) {
                        column(r, j, i, ri, pv[i]);
                    }
                }
            },
            |pv, row, j, lo, hi, pan| {
                for i in lo..hi {
                    column(row, j, i, &pan[(i - lo) * n..(i - lo + 1) * n], pv[i]);
                }
            },
        )
    })?;
    let got = a.gather(0)?.map(|mut g| {
        g.extend_from_slice(&pv);
        g
    });
    let ok = verify(
        ctx,
        m,
        got,
        || host(n, n, f),
        |mut a| {
            let mut p = vec![0.0; n];
            for i in 0..n {
                let (top, below) = a.split_at_mut((i + 1) * n);
                let ri = &top[i * n..];
                p[i] = 1.0 / sub_dot(ri[i], &ri[..i], &ri[..i]).sqrt();
                for (r, j) in below.chunks_exact_mut(n).zip(i + 1..n) {
                    column(r, j, i, ri, p[i]);
                }
            }
            a.extend_from_slice(&p);
            a
        },
        TOL,
    )?;
    Ok(Outcome { ok, n: (n * n) as u64, size: format!("{n}x{n}") })
}

/// lu (PolyBench 3.2, no pivoting): for each `k`, `A[k, k+1..] /= A[k][k]`, then for each
/// `i > k`, `A[i, k+1..] -= A[i][k] * A[k, k+1..]`. In panels of rows: every locale factors
/// the panel's rows, each owner then applies the panel's steps to its rows below.
pub fn lu<X: Dists>(ctx: &Ctx, x: &X, p: &Params, m: &mut Meter) -> Result<Outcome> {
    let n = p.d2(128, 4);
    let f = move |i: usize, j: usize| if i == j { n as f64 + 1.0 } else { ((i * 3 + j * 5) % 17) as f64 / 17.0 };
    let mut a = row_mat(ctx, x, n, n, f)?;
    let rows = owned_rows(ctx, &a)?;
    let mut rp = Replica::new(ctx, PANEL, n)?;
    // Step k on row `row` (below k), from the scaled row k.
    let eliminate = |row: &mut [f64], k: usize, rk: &[f64]| {
        let s = row[k];
        for (v, r) in row[k + 1..].iter_mut().zip(&rk[k + 1..]) {
            *v -= s * r;
        }
    };
    let scale = |rk: &mut [f64], k: usize| {
        let d = rk[k];
        rk[k + 1..].iter_mut().for_each(|v| *v /= d);
    };
    m.measure(ctx, || {
        panels(
            &mut a,
            &rows,
            &mut rp,
            &mut (),
            |_, lo, hi, pan| {
                for k in lo..hi {
                    let (top, below) = pan.split_at_mut((k - lo + 1) * n);
                    let rk = &mut top[(k - lo) * n..];
                    scale(rk, k);
                    for r in below.chunks_exact_mut(n) {
                        eliminate(r, k, rk);
                    }
                }
            },
            |_, row, _, lo, hi, pan| {
                for k in lo..hi {
                    eliminate(row, k, &pan[(k - lo) * n..(k - lo + 1) * n]);
                }
            },
        )
    })?;
    let ok = verify(
        ctx,
        m,
        a.gather(0)?,
        || host(n, n, f),
        |mut a| {
            for k in 0..n {
                let (top, below) = a.split_at_mut((k + 1) * n);
                let rk = &mut top[k * n..];
                scale(rk, k);
                for r in below.chunks_exact_mut(n) {
                    eliminate(r, k, rk);
                }
            }
            a
        },
        TOL,
    )?;
    Ok(Outcome { ok, n: (n * n) as u64, size: format!("{n}x{n}") })
}

/// mvt: `x1 += A y1` and `x2 += A^T y2`. `y1` is replicated (`y2`, an `n x 1` matrix
/// distributed by rows as `A`, is where it is needed); each owner makes one pass over its rows
/// of `A` (`x1[i]` for its rows `i`, partial `x2`), the partial vectors are summed in one
/// allreduce, and the owners of `x1` and `x2` add them (one loop each).
pub fn mvt<X: Dists>(ctx: &Ctx, x: &X, p: &Params, m: &mut Meter) -> Result<Outcome> {
    let n = p.d2(4000, 8);
    let fa = move |i: usize, j: usize| ((i * j) % n) as f64 / n as f64;
    let fy1 = move |j: usize| ((j * 3) % n) as f64 / n as f64;
    let fy2 = move |j: usize| ((j * 7 + 1) % n) as f64 / n as f64;
    let fx1 = move |i: usize| (i % n) as f64 / n as f64;
    let fx2 = move |i: usize| ((i + 1) % n) as f64 / n as f64;
    let a = row_mat(ctx, x, n, n, fa)?;
    let y1 = row_mat(ctx, x, 1, n, |_, j| fy1(j))?;
    let y2 = row_mat(ctx, x, n, 1, |i, _| fy2(i))?;
    let mut x1 = DistArray::<f64, 1, X::M<1>>::from_fn(ctx, x.make(ctx, [n])?, |[i]| fx1(i as usize))?;
    let mut x2 = DistArray::<f64, 1, X::M<1>>::from_fn(ctx, x.make(ctx, [n])?, |[i]| fx2(i as usize))?;
    let mut r1 = Replica::new(ctx, 1, n)?;
    let rows = owned_rows(ctx, &a)?;
    if owned_rows(ctx, &y2)? != rows {
        return Err(Error::InvalidArgument("mvt: y2 is not distributed as the rows of A".into()));
    }
    m.measure(ctx, || {
        r1.fill(&y1)?;
        let y1 = r1.get();
        let mut part = vec![0.0; 2 * n];
        let (p1, p2) = part.split_at_mut(n);
        for ((ar, &i), &y2i) in a.local().chunks_exact(n).zip(&rows).zip(y2.local()) {
            p1[i] = dot(ar, y1);
            axpy(p2, y2i, ar);
        }
        let tot = sum_vectors(ctx, part)?;
        let (t1, t2) = tot.split_at(n);
        x1.view_mut().zip_apply_indexed(Scalar(0u8), |[i], v, _| *v += t1[i as usize])?;
        x2.view_mut().zip_apply_indexed(Scalar(0u8), |[i], v, _| *v += t2[i as usize])?;
        Ok(())
    })?;
    let got = concat_gathered(vec![x1.gather(0)?, x2.gather(0)?]);
    let ok = verify(
        ctx,
        m,
        got,
        || {
            (
                host(n, n, fa),
                (0..n).map(fy1).collect::<Vec<f64>>(),
                (0..n).map(fy2).collect::<Vec<f64>>(),
                (0..n).map(fx1).collect::<Vec<f64>>(),
                (0..n).map(fx2).collect::<Vec<f64>>(),
            )
        },
        |(a, y1, y2, mut x1, mut x2)| {
            // One pass over A for both products.
            for i in 0..n {
                let ar = &a[i * n..(i + 1) * n];
                x1[i] += dot(ar, &y1);
                axpy(&mut x2, y2[i], ar);
            }
            x1.extend(x2);
            x1
        },
        TOL,
    )?;
    Ok(Outcome { ok, n: (n * n) as u64, size: format!("{n}") })
}

/// syrk: `C = beta C + alpha A A^T`: `A` is replicated; each owner computes its rows,
/// `C[i][j] = beta C[i][j] + alpha A[i, ..] . A[j, ..]`.
pub fn syrk<X: Dists>(ctx: &Ctx, x: &X, p: &Params, m: &mut Meter) -> Result<Outcome> {
    let n = p.d2(128, 4);
    let (alpha, beta) = (1.5, 1.2);
    let fa = move |i: usize, j: usize| ((i * j) % n) as f64 / n as f64;
    let fc = move |i: usize, j: usize| ((i * j + 2) % n) as f64 / n as f64;
    let a = row_mat(ctx, x, n, n, fa)?;
    let mut c = row_mat(ctx, x, n, n, fc)?;
    let mut ra = Replica::new(ctx, n, n)?;
    let rows = owned_rows(ctx, &c)?;
    let row = |cr: &mut [f64], ai: &[f64], a: &[f64]| {
        for (v, aj) in cr.iter_mut().zip(a.chunks_exact(n)) {
            *v = beta * *v + alpha * dot(ai, aj);
        }
    };
    m.measure(ctx, || {
        ra.fill(&a)?;
        let al = ra.get();
        for (cr, &i) in c.local_mut().chunks_exact_mut(n).zip(&rows) {
            row(cr, &al[i * n..(i + 1) * n], al);
        }
        Ok(())
    })?;
    let ok = verify(
        ctx,
        m,
        c.gather(0)?,
        || (host(n, n, fa), host(n, n, fc)),
        |(a, mut c)| {
            for (i, cr) in c.chunks_exact_mut(n).enumerate() {
                row(cr, &a[i * n..(i + 1) * n], &a);
            }
            c
        },
        TOL,
    )?;
    Ok(Outcome { ok, n: (n * n) as u64, size: format!("{n}x{n}") })
}
