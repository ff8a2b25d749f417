//! The linear-algebra kernels of the suite (PolyBench/C 3.2 unless noted): 2mm, fw
//! (Floyd-Warshall), trmm, correlation, covariance, cholesky, lu, mvt, syrk.
//!
//! The loop over `j` of a PolyBench nest becomes a zippered loop over a row view (or a reduction
//! over zipped row or column views); the outer loops stay sequential. A scalar such as
//! `A[i][k]` in a row update is read once per outer iteration with `get` (one message when
//! remote, as in Chapel). Where PolyBench updates a matrix in place from another row of the same
//! matrix, the row that is read is first copied into a second array with the same distribution
//! (an aligned, local copy): a loop cannot read the array it writes (see the crate README of
//! atoll-array), and the copy keeps the follower's distribution, so its communication is the
//! one the in-place loop would have.

use super::{col, concat_gathered, row, update_owned, verify, Dists, Meter, Outcome, Params};
use atoll::array::{DistArray, ExprExt, ExprReduce, Scalar};
use atoll::prelude::*;

/// Tolerance of the floating-point comparisons (relative, absolute below 1).
const TOL: f64 = 1e-9;

type Mat<X> = DistArray<f64, 2, <X as Dists>::M<2>>;

fn mat<X: Dists>(ctx: &Ctx, x: &X, r: usize, c: usize, f: impl Fn(usize, usize) -> f64 + Sync) -> Result<Mat<X>> {
    DistArray::from_fn(ctx, x.make(ctx, [r, c])?, |[i, j]| f(i as usize, j as usize))
}

fn host(r: usize, c: usize, f: impl Fn(usize, usize) -> f64) -> Vec<f64> {
    (0..r * c).map(|p| f(p / c, p % c)).collect()
}

/// 2mm: `tmp = alpha A B; D = beta D + tmp C` (n x n). Row form: for each `i` and `k`,
/// `tmp[i, ..] += alpha A[i][k] * B[k, ..]` (leader row `i`, follower row `k`).
pub fn two_mm<X: Dists>(ctx: &Ctx, x: &X, p: &Params, m: &mut Meter) -> Result<Outcome> {
    let n = p.d2(128, 4);
    let (alpha, beta) = (1.5, 1.2);
    let fa = |i: usize, j: usize| ((i * j) % n) as f64 / n as f64;
    let fb = |i: usize, j: usize| ((i * (j + 1)) % n) as f64 / n as f64;
    let fc = |i: usize, j: usize| ((i * (j + 3)) % n) as f64 / n as f64;
    let fd = |i: usize, j: usize| ((i * (j + 2)) % n) as f64 / n as f64;
    let a = mat(ctx, x, n, n, fa)?;
    let b = mat(ctx, x, n, n, fb)?;
    let c = mat(ctx, x, n, n, fc)?;
    let mut d = mat(ctx, x, n, n, fd)?;
    let mut tmp = mat(ctx, x, n, n, |_, _| 0.0)?;
    m.measure(ctx, || {
        for i in 0..n {
            for k in 0..n {
                let s = alpha * a.get([i as i64, k as i64])?;
                tmp.slice_mut(row(i, 0, n))?.zip_apply(b.slice(row(k, 0, n))?, |t, bv| *t += s * bv)?;
            }
        }
        d.view_mut().zip_apply(Scalar(beta), |v, be| *v *= be)?;
        for i in 0..n {
            for k in 0..n {
                let s = tmp.get([i as i64, k as i64])?;
                d.slice_mut(row(i, 0, n))?.zip_apply(c.slice(row(k, 0, n))?, |v, cv| *v += s * cv)?;
            }
        }
        Ok(())
    })?;
    let ok = verify(
        ctx,
        d.gather(0)?,
        || {
            let (a, b, c, mut d) = (host(n, n, fa), host(n, n, fb), host(n, n, fc), host(n, n, fd));
            let mut t = vec![0.0; n * n];
            for i in 0..n {
                for j in 0..n {
                    for k in 0..n {
                        t[i * n + j] += alpha * a[i * n + k] * b[k * n + j];
                    }
                }
            }
            for i in 0..n {
                for j in 0..n {
                    d[i * n + j] *= beta;
                    for k in 0..n {
                        d[i * n + j] += t[i * n + k] * c[k * n + j];
                    }
                }
            }
            d
        },
        TOL,
    )?;
    Ok(Outcome { ok, n: (n * n) as u64, size: format!("{n}x{n}") })
}

/// fw (Floyd-Warshall): for each `k` and `i`, `path[i, ..] = min(path[i, ..], path[i][k] +
/// path[k, ..])`. Row `k` does not change during step `k`; it is read from a copy.
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
    let mut path = mat(ctx, x, n, n, f)?;
    let mut pivot = mat(ctx, x, n, n, |_, _| 0.0)?;
    m.measure(ctx, || {
        for k in 0..n {
            pivot.slice_mut(row(k, 0, n))?.assign(&path.slice(row(k, 0, n))?)?;
            for i in 0..n {
                let s = path.get([i as i64, k as i64])?;
                path.slice_mut(row(i, 0, n))?.zip_apply(pivot.slice(row(k, 0, n))?, |v, r| *v = v.min(s + r))?;
            }
        }
        Ok(())
    })?;
    let ok = verify(
        ctx,
        path.gather(0)?,
        || {
            let mut p = host(n, n, f);
            for k in 0..n {
                for i in 0..n {
                    for j in 0..n {
                        let via = p[i * n + k] + p[k * n + j];
                        if via < p[i * n + j] {
                            p[i * n + j] = via;
                        }
                    }
                }
            }
            p
        },
        0.0,
    )?;
    Ok(Outcome { ok, n: (n * n) as u64, size: format!("{n}x{n}") })
}

/// trmm (PolyBench/C 4.x: `B = alpha A^T B`, `A` unit lower triangular): for each `i` and
/// `k > i`, `B[i, ..] += A[k][i] * B[k, ..]`, then `B[i, ..] *= alpha`. Rows `k > i` are still
/// the input's then, so they are read from a copy of the input.
pub fn trmm<X: Dists>(ctx: &Ctx, x: &X, p: &Params, m: &mut Meter) -> Result<Outcome> {
    let n = p.d2(128, 4);
    let alpha = 1.5;
    let fa = |i: usize, j: usize| ((i + j) % n) as f64 / n as f64;
    let fb = |i: usize, j: usize| ((n + i - j) % n) as f64 / n as f64;
    let a = mat(ctx, x, n, n, fa)?;
    let mut b = mat(ctx, x, n, n, fb)?;
    let b0 = mat(ctx, x, n, n, fb)?;
    m.measure(ctx, || {
        for i in 0..n {
            for k in i + 1..n {
                let s = a.get([k as i64, i as i64])?;
                b.slice_mut(row(i, 0, n))?.zip_apply(b0.slice(row(k, 0, n))?, |v, w| *v += s * w)?;
            }
            b.slice_mut(row(i, 0, n))?.zip_apply(Scalar(alpha), |v, al| *v *= al)?;
        }
        Ok(())
    })?;
    let ok = verify(
        ctx,
        b.gather(0)?,
        || {
            let (a, mut b) = (host(n, n, fa), host(n, n, fb));
            for i in 0..n {
                for j in 0..n {
                    for k in i + 1..n {
                        b[i * n + j] += a[k * n + i] * b[k * n + j];
                    }
                    b[i * n + j] *= alpha;
                }
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

/// Column means (and, with `stddev`, the PolyBench standard deviations), as reductions over
/// column views; then the centered (and reduced) data, in one loop over the whole array.
fn center<X: Dists>(data: &mut Mat<X>, n: usize, m: usize, stddev: bool) -> Result<()> {
    let float_n = n as f64;
    let mut mean = vec![0.0; m];
    let mut sd = vec![1.0; m];
    for (j, mj) in mean.iter_mut().enumerate() {
        *mj = data.slice(col(j, 0, n))?.sum()? / float_n;
    }
    if stddev {
        for (j, s) in sd.iter_mut().enumerate() {
            let mj = mean[j];
            let v = data.slice(col(j, 0, n))?.map(move |d| (d - mj) * (d - mj)).sum()? / float_n;
            let v = v.sqrt();
            *s = if v <= 0.1 { 1.0 } else { v };
        }
    }
    let (mean, sd) = (&mean, &sd);
    data.view_mut().zip_apply_indexed(Scalar(0u8), |[_, j], d, _| {
        let j = j as usize;
        *d -= mean[j];
        if stddev {
            *d /= float_n.sqrt() * sd[j];
        }
    })
}

fn center_host(d: &mut [f64], n: usize, m: usize, stddev: bool) {
    let float_n = n as f64;
    for j in 0..m {
        let mean = (0..n).map(|i| d[i * m + j]).sum::<f64>() / float_n;
        let mut sd = 1.0;
        if stddev {
            let v = ((0..n).map(|i| (d[i * m + j] - mean) * (d[i * m + j] - mean)).sum::<f64>() / float_n).sqrt();
            sd = if v <= 0.1 { 1.0 } else { v };
        }
        for i in 0..n {
            d[i * m + j] -= mean;
            if stddev {
                d[i * m + j] /= float_n.sqrt() * sd;
            }
        }
    }
}

/// The symmetric `m x m` matrix of column dot products `sum_i data[i][j1] * data[i][j2]`:
/// each one a reduction over two zipped column views (leader column `j1`, follower `j2`).
fn column_products<X: Dists>(ctx: &Ctx, x: &X, data: &Mat<X>, n: usize, m: usize, unit_diagonal: bool) -> Result<Mat<X>> {
    let mut sym = mat(ctx, x, m, m, |_, _| 0.0)?;
    for j1 in 0..m {
        let first = if unit_diagonal { j1 + 1 } else { j1 };
        if unit_diagonal {
            update_owned(&mut sym, [j1 as i64, j1 as i64], |_| 1.0)?;
        }
        for j2 in first..m {
            let v = (data.slice(col(j1, 0, n))? * data.slice(col(j2, 0, n))?).sum()?;
            update_owned(&mut sym, [j1 as i64, j2 as i64], |_| v)?;
            update_owned(&mut sym, [j2 as i64, j1 as i64], |_| v)?;
        }
    }
    Ok(sym)
}

fn column_products_host(d: &[f64], n: usize, m: usize, unit_diagonal: bool) -> Vec<f64> {
    let mut s = vec![0.0; m * m];
    for j1 in 0..m {
        let first = if unit_diagonal { j1 + 1 } else { j1 };
        if unit_diagonal {
            s[j1 * m + j1] = 1.0;
        }
        for j2 in first..m {
            let v: f64 = (0..n).map(|i| d[i * m + j1] * d[i * m + j2]).sum();
            s[j1 * m + j2] = v;
            s[j2 * m + j1] = v;
        }
    }
    s
}

/// correlation: column means and standard deviations (reductions over column views), the
/// centered and reduced data (one loop), then the correlation matrix (a reduction over each
/// pair of column views).
pub fn correlation<X: Dists>(ctx: &Ctx, x: &X, p: &Params, meter: &mut Meter) -> Result<Outcome> {
    column_statistics(ctx, x, p, meter, true)
}

/// covariance: column means (reductions), the centered data (one loop), then the covariance
/// matrix (a reduction over each pair of column views; PolyBench 3.2 does not divide by
/// `n - 1`).
pub fn covariance<X: Dists>(ctx: &Ctx, x: &X, p: &Params, meter: &mut Meter) -> Result<Outcome> {
    column_statistics(ctx, x, p, meter, false)
}

/// correlation (`reduced`: columns also divided by their standard deviation, unit diagonal)
/// or covariance, checked against the sequential version.
fn column_statistics<X: Dists>(ctx: &Ctx, x: &X, p: &Params, meter: &mut Meter, reduced: bool) -> Result<Outcome> {
    let (n, m) = (p.d2(512, 4), p.d2(512, 4));
    let f = corr_data(m);
    let mut data = mat(ctx, x, n, m, f)?;
    let sym = meter.measure(ctx, || {
        center::<X>(&mut data, n, m, reduced)?;
        column_products(ctx, x, &data, n, m, reduced)
    })?;
    let ok = verify(
        ctx,
        sym.gather(0)?,
        || {
            let mut d = host(n, m, f);
            center_host(&mut d, n, m, reduced);
            column_products_host(&d, n, m, reduced)
        },
        1e-8,
    )?;
    Ok(Outcome { ok, n: (n * m) as u64, size: format!("{n}x{m}") })
}

/// cholesky (PolyBench 3.2: the factor is stored below the diagonal, `p` holds the inverse
/// diagonal): for each `i`, `x = A[i][i] - sum A[i, 0..i]^2` and, for each `j > i`,
/// `A[j][i] = (A[i][j] - A[j, 0..i] . A[i, 0..i]) * p[i]`: reductions over a row view zipped
/// with another row's (leader row `j`, follower row `i`).
pub fn cholesky<X: Dists>(ctx: &Ctx, x: &X, p: &Params, m: &mut Meter) -> Result<Outcome> {
    let n = p.d2(256, 4);
    // Symmetric and diagonally dominant: positive definite.
    let f = move |i: usize, j: usize| if i == j { n as f64 + 1.0 } else { ((i + j) % 10) as f64 / 10.0 };
    let mut a = mat(ctx, x, n, n, f)?;
    let mut pv = vec![0.0; n];
    m.measure(ctx, || {
        for (i, pi) in pv.iter_mut().enumerate() {
            let mut s = a.get([i as i64, i as i64])?;
            if i > 0 {
                s -= a.slice(row(i, 0, i))?.map(|v| v * v).sum()?;
            }
            *pi = 1.0 / s.sqrt();
            let pi = *pi;
            for j in i + 1..n {
                let mut s = a.get([i as i64, j as i64])?;
                if i > 0 {
                    s -= (a.slice(row(j, 0, i))? * a.slice(row(i, 0, i))?).sum()?;
                }
                update_owned(&mut a, [j as i64, i as i64], |_| s * pi)?;
            }
        }
        Ok(())
    })?;
    let got = a.gather(0)?.map(|mut g| {
        g.extend_from_slice(&pv);
        g
    });
    let ok = verify(
        ctx,
        got,
        || {
            let mut a = host(n, n, f);
            let mut p = vec![0.0; n];
            for i in 0..n {
                let mut x = a[i * n + i];
                for j in 0..i {
                    x -= a[i * n + j] * a[i * n + j];
                }
                p[i] = 1.0 / x.sqrt();
                for j in i + 1..n {
                    let mut x = a[i * n + j];
                    for k in 0..i {
                        x -= a[j * n + k] * a[i * n + k];
                    }
                    a[j * n + i] = x * p[i];
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
/// `i > k`, `A[i, k+1..] -= A[i][k] * A[k, k+1..]` (leader row `i`, follower row `k`, read
/// from a copy).
pub fn lu<X: Dists>(ctx: &Ctx, x: &X, p: &Params, m: &mut Meter) -> Result<Outcome> {
    let n = p.d2(128, 4);
    let f = move |i: usize, j: usize| if i == j { n as f64 + 1.0 } else { ((i * 3 + j * 5) % 17) as f64 / 17.0 };
    let mut a = mat(ctx, x, n, n, f)?;
    let mut pivot = mat(ctx, x, n, n, |_, _| 0.0)?;
    m.measure(ctx, || {
        for k in 0..n - 1 {
            let akk = a.get([k as i64, k as i64])?;
            a.slice_mut(row(k, k + 1, n))?.zip_apply(Scalar(akk), |v, d| *v /= d)?;
            pivot.slice_mut(row(k, k + 1, n))?.assign(&a.slice(row(k, k + 1, n))?)?;
            for i in k + 1..n {
                let aik = a.get([i as i64, k as i64])?;
                a.slice_mut(row(i, k + 1, n))?.zip_apply(pivot.slice(row(k, k + 1, n))?, |v, r| *v -= aik * r)?;
            }
        }
        Ok(())
    })?;
    let ok = verify(
        ctx,
        a.gather(0)?,
        || {
            let mut a = host(n, n, f);
            for k in 0..n {
                for j in k + 1..n {
                    a[k * n + j] /= a[k * n + k];
                }
                for i in k + 1..n {
                    for j in k + 1..n {
                        a[i * n + j] -= a[i * n + k] * a[k * n + j];
                    }
                }
            }
            a
        },
        TOL,
    )?;
    Ok(Outcome { ok, n: (n * n) as u64, size: format!("{n}x{n}") })
}

/// mvt: `x1 += A y1` and `x2 += A^T y2`: for each `i`, a reduction over row `i` of `A` zipped
/// with `y1` (a `1 x n` array), then over column `i` zipped with `y2` (`n x 1`).
pub fn mvt<X: Dists>(ctx: &Ctx, x: &X, p: &Params, m: &mut Meter) -> Result<Outcome> {
    let n = p.d2(4000, 8);
    let fa = move |i: usize, j: usize| ((i * j) % n) as f64 / n as f64;
    let fy1 = move |j: usize| ((j * 3) % n) as f64 / n as f64;
    let fy2 = move |j: usize| ((j * 7 + 1) % n) as f64 / n as f64;
    let fx1 = move |i: usize| (i % n) as f64 / n as f64;
    let fx2 = move |i: usize| ((i + 1) % n) as f64 / n as f64;
    let a = mat(ctx, x, n, n, fa)?;
    let y1 = mat(ctx, x, 1, n, |_, j| fy1(j))?;
    let y2 = mat(ctx, x, n, 1, |i, _| fy2(i))?;
    let mut x1 = DistArray::<f64, 1, X::M<1>>::from_fn(ctx, x.make(ctx, [n])?, |[i]| fx1(i as usize))?;
    let mut x2 = DistArray::<f64, 1, X::M<1>>::from_fn(ctx, x.make(ctx, [n])?, |[i]| fx2(i as usize))?;
    m.measure(ctx, || {
        for i in 0..n {
            let d = (a.slice(row(i, 0, n))? * y1.view()).sum()?;
            update_owned(&mut x1, [i as i64], |v| v + d)?;
        }
        for i in 0..n {
            let d = (a.slice(col(i, 0, n))? * y2.view()).sum()?;
            update_owned(&mut x2, [i as i64], |v| v + d)?;
        }
        Ok(())
    })?;
    let got = concat_gathered(vec![x1.gather(0)?, x2.gather(0)?]);
    let ok = verify(
        ctx,
        got,
        || {
            let a = host(n, n, fa);
            let mut x1: Vec<f64> = (0..n).map(fx1).collect();
            let mut x2: Vec<f64> = (0..n).map(fx2).collect();
            for i in 0..n {
                for j in 0..n {
                    x1[i] += a[i * n + j] * fy1(j);
                }
            }
            for i in 0..n {
                for j in 0..n {
                    x2[i] += a[j * n + i] * fy2(j);
                }
            }
            x1.extend(x2);
            x1
        },
        TOL,
    )?;
    Ok(Outcome { ok, n: (n * n) as u64, size: format!("{n}") })
}

/// syrk: `C = beta C + alpha A A^T`: `C *= beta` (one loop), then for each `i` and `j`, a
/// reduction over row `i` of `A` zipped with row `j`.
pub fn syrk<X: Dists>(ctx: &Ctx, x: &X, p: &Params, m: &mut Meter) -> Result<Outcome> {
    let n = p.d2(128, 4);
    let (alpha, beta) = (1.5, 1.2);
    let fa = move |i: usize, j: usize| ((i * j) % n) as f64 / n as f64;
    let fc = move |i: usize, j: usize| ((i * j + 2) % n) as f64 / n as f64;
    let a = mat(ctx, x, n, n, fa)?;
    let mut c = mat(ctx, x, n, n, fc)?;
    m.measure(ctx, || {
        c.view_mut().zip_apply(Scalar(beta), |v, be| *v *= be)?;
        for i in 0..n {
            for j in 0..n {
                let d = (a.slice(row(i, 0, n))? * a.slice(row(j, 0, n))?).sum()?;
                update_owned(&mut c, [i as i64, j as i64], |v| v + alpha * d)?;
            }
        }
        Ok(())
    })?;
    let ok = verify(
        ctx,
        c.gather(0)?,
        || {
            let (a, mut c) = (host(n, n, fa), host(n, n, fc));
            for v in c.iter_mut() {
                *v *= beta;
            }
            for i in 0..n {
                for j in 0..n {
                    for k in 0..n {
                        c[i * n + j] += alpha * a[i * n + k] * a[j * n + k];
                    }
                }
            }
            c
        },
        TOL,
    )?;
    Ok(Outcome { ok, n: (n * n) as u64, size: format!("{n}x{n}") })
}
