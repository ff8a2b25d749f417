//! The stencil kernels of the suite: fdtd-2d, fdtd-apml, jacobi1D, jacobi2D (PolyBench/C 3.2)
//! and stencil9 (the 9-point stencil of the Chapel test suite). Each sweep is one zippered loop
//! whose leader is the written interior and whose followers are the same interior shifted by
//! one in some dimension: on Cyclic and BlockCyclic data the shifted followers are remote.
//! The time loop is sequential.

use super::{concat_gathered, verify, Dists, Meter, Outcome, Params};
use atoll::array::DistArray;
use atoll::prelude::*;
use std::ops::Range;

/// Tolerance of the floating-point comparisons (relative, absolute below 1).
const TOL: f64 = 1e-9;

fn r(lo: usize, hi: usize) -> Range<i64> {
    lo as i64..hi as i64
}

/// fdtd-2d (`nx x ny`, `T` steps): per step, `ey[0, ..] = t`, then the `ey`, `ex` and `hz`
/// updates, each one zippered loop over the interior with followers shifted by one row or
/// column.
pub fn fdtd_2d<X: Dists>(ctx: &Ctx, x: &X, p: &Params, m: &mut Meter) -> Result<Outcome> {
    let (nx, ny) = (p.d2(1000, 4), p.d2(1000, 4));
    let t_max = p.steps(10);
    let fex = move |i: usize, j: usize| (i * (j + 1)) as f64 / nx as f64;
    let fey = move |i: usize, j: usize| (i * (j + 2)) as f64 / ny as f64;
    let fhz = move |i: usize, j: usize| (i * (j + 3)) as f64 / nx as f64;
    let make = |f: &(dyn Fn(usize, usize) -> f64 + Sync)| {
        DistArray::<f64, 2, X::M<2>>::from_fn(ctx, x.make(ctx, [nx, ny])?, |[i, j]| f(i as usize, j as usize))
    };
    let (mut ex, mut ey, mut hz) = (make(&fex)?, make(&fey)?, make(&fhz)?);
    m.measure(ctx, || {
        for t in 0..t_max {
            ey.slice_mut([r(0, 1), r(0, ny)])?.fill(t as f64)?;
            ey.slice_mut([r(1, nx), r(0, ny)])?
                .zip_apply((hz.slice([r(1, nx), r(0, ny)])?, hz.slice([r(0, nx - 1), r(0, ny)])?), |e, (h, hu)| {
                    *e -= 0.5 * (h - hu)
                })?;
            ex.slice_mut([r(0, nx), r(1, ny)])?
                .zip_apply((hz.slice([r(0, nx), r(1, ny)])?, hz.slice([r(0, nx), r(0, ny - 1)])?), |e, (h, hl)| {
                    *e -= 0.5 * (h - hl)
                })?;
            let (i, j) = (r(0, nx - 1), r(0, ny - 1));
            hz.slice_mut([i.clone(), j.clone()])?.zip_apply(
                (
                    ex.slice([i.clone(), r(1, ny)])?,
                    ex.slice([i.clone(), j.clone()])?,
                    ey.slice([r(1, nx), j.clone()])?,
                    ey.slice([i, j])?,
                ),
                |h, (exr, exc, eyd, eyc)| *h -= 0.7 * (exr - exc + eyd - eyc),
            )?;
        }
        Ok(())
    })?;
    let got = concat_gathered(vec![ex.gather(0)?, ey.gather(0)?, hz.gather(0)?]);
    let ok = verify(
        ctx,
        m,
        got,
        || {
            let grid = |f: &dyn Fn(usize, usize) -> f64| (0..nx * ny).map(|q| f(q / ny, q % ny)).collect::<Vec<f64>>();
            (grid(&fex), grid(&fey), grid(&fhz))
        },
        |(mut ex, mut ey, mut hz)| {
            for t in 0..t_max {
                for v in ey.iter_mut().take(ny) {
                    *v = t as f64;
                }
                for i in 1..nx {
                    for j in 0..ny {
                        ey[i * ny + j] -= 0.5 * (hz[i * ny + j] - hz[(i - 1) * ny + j]);
                    }
                }
                for i in 0..nx {
                    for j in 1..ny {
                        ex[i * ny + j] -= 0.5 * (hz[i * ny + j] - hz[i * ny + j - 1]);
                    }
                }
                for i in 0..nx - 1 {
                    for j in 0..ny - 1 {
                        hz[i * ny + j] -=
                            0.7 * (ex[i * ny + j + 1] - ex[i * ny + j] + ey[(i + 1) * ny + j] - ey[i * ny + j]);
                    }
                }
            }
            ex.extend(ey);
            ex.extend(hz);
            ex
        },
        TOL,
    )?;
    Ok(Outcome { ok, n: (nx * ny) as u64, size: format!("{nx}x{ny} t={t_max}") })
}

/// The coefficients of fdtd-apml (PolyBench's initialization).
#[derive(Clone)]
struct Apml {
    mui: f64,
    ch: f64,
    czm: Vec<f64>,
    czp: Vec<f64>,
    cxmh: Vec<f64>,
    cxph: Vec<f64>,
    cymh: Vec<f64>,
    cyph: Vec<f64>,
}

impl Apml {
    fn new(cz: usize, cym: usize, cxm: usize) -> Apml {
        let v = |len: usize, off: f64| (0..=len).map(|i| (i as f64 + off) / cxm as f64).collect::<Vec<f64>>();
        Apml {
            mui: 2341.0,
            ch: 42.0,
            czm: v(cz, 1.0),
            czp: v(cz, 2.0),
            cxmh: v(cxm, 3.0),
            cxph: v(cxm, 4.0),
            cymh: v(cym, 5.0),
            cyph: v(cym, 6.0),
        }
    }

    /// `(clf, tmp)` of PolyBench's inner loop at `(iy, ix)`.
    #[inline]
    fn tmp(&self, iy: usize, bza: f64, ex: f64, ex_next_y: f64, ey_next_x: f64, ey: f64) -> f64 {
        let clf = ex - ex_next_y + ey_next_x - ey;
        (self.cymh[iy] / self.cyph[iy]) * bza - (self.ch / self.cyph[iy]) * clf
    }

    /// The new `Hz` at `(iz, ix)`, from the old one, `tmp` and the old `Bza`.
    #[inline]
    fn hz(&self, iz: usize, ix: usize, hz: f64, tmp: f64, bza: f64) -> f64 {
        (self.cxmh[ix] / self.cxph[ix]) * hz + (self.mui * self.czp[iz] / self.cxph[ix]) * tmp
            - (self.mui * self.czm[iz] / self.cxph[ix]) * bza
    }
}

/// fdtd-apml (`cz x cym x cxm` cells, arrays of `(cz+1) x (cym+1) x (cxm+1)`): PolyBench's
/// interior update (`ix < cxm`, `iy < cym`) as two 3-D zippered loops (the `Hz` update, then
/// `Bza = tmp`), with `Ex` shifted by one in `y` and `Ey` shifted by one in `x`. The two
/// boundary faces (`ix = cxm` with `Ry`, `iy = cym` with `Ax`) are left out.
pub fn fdtd_apml<X: Dists>(ctx: &Ctx, x: &X, p: &Params, m: &mut Meter) -> Result<Outcome> {
    let c = p.d3(64, 3);
    let (cz, cym, cxm) = (c, c, c);
    let sweeps = p.steps(1);
    let shape = [cz + 1, cym + 1, cxm + 1];
    let fex = move |i: usize, j: usize, k: usize| (i * (j + 3) + k + 1) as f64 / cxm as f64;
    let fey = move |i: usize, j: usize, k: usize| (i * (j + 4) + k + 2) as f64 / cym as f64;
    let fhz = move |i: usize, j: usize, k: usize| (i * (j + 5) + k + 3) as f64 / cz as f64;
    let fbz = move |i: usize, j: usize, k: usize| (i * (j + 6) + k + 4) as f64 / cz as f64;
    let make = |f: &(dyn Fn(usize, usize, usize) -> f64 + Sync)| {
        DistArray::<f64, 3, X::M<3>>::from_fn(ctx, x.make(ctx, shape)?, |[i, j, k]| {
            f(i as usize, j as usize, k as usize)
        })
    };
    let (ex, ey, mut hz, mut bza) = (make(&fex)?, make(&fey)?, make(&fhz)?, make(&fbz)?);
    let co = Apml::new(cz, cym, cxm);
    let (z, y, xr) = (r(0, cz), r(0, cym), r(0, cxm));
    m.measure(ctx, || {
        for _ in 0..sweeps {
            let exs =
                (ex.slice([z.clone(), y.clone(), xr.clone()])?, ex.slice([z.clone(), r(1, cym + 1), xr.clone()])?);
            let eys = (ey.slice([z.clone(), y.clone(), r(1, cxm + 1)])?, ey.slice([z.clone(), y.clone(), xr.clone()])?);
            hz.slice_mut([z.clone(), y.clone(), xr.clone()])?.zip_apply_indexed(
                (bza.slice([z.clone(), y.clone(), xr.clone()])?, exs.0, exs.1, eys.0, eys.1),
                |[iz, iy, ix], h, (b, e, en, eyn, eyc)| {
                    let tmp = co.tmp(iy as usize, b, e, en, eyn, eyc);
                    *h = co.hz(iz as usize, ix as usize, *h, tmp, b);
                },
            )?;
            bza.slice_mut([z.clone(), y.clone(), xr.clone()])?.zip_apply_indexed(
                (exs.0, exs.1, eys.0, eys.1),
                |[_, iy, _], b, (e, en, eyn, eyc)| {
                    *b = co.tmp(iy as usize, *b, e, en, eyn, eyc);
                },
            )?;
        }
        Ok(())
    })?;
    let got = concat_gathered(vec![hz.gather(0)?, bza.gather(0)?]);
    let (sy, sx) = (cym + 1, cxm + 1);
    let at = |i: usize, j: usize, k: usize| (i * sy + j) * sx + k;
    let ok = verify(
        ctx,
        m,
        got,
        || {
            let grid = |f: &dyn Fn(usize, usize, usize) -> f64| {
                (0..shape.iter().product::<usize>())
                    .map(|q| f(q / (sy * sx), (q / sx) % sy, q % sx))
                    .collect::<Vec<f64>>()
            };
            (grid(&fex), grid(&fey), grid(&fhz), grid(&fbz))
        },
        |(ex, ey, mut hz, mut bza)| {
            for _ in 0..sweeps {
                for iz in 0..cz {
                    for iy in 0..cym {
                        for ix in 0..cxm {
                            let b = bza[at(iz, iy, ix)];
                            let tmp = co.tmp(
                                iy,
                                b,
                                ex[at(iz, iy, ix)],
                                ex[at(iz, iy + 1, ix)],
                                ey[at(iz, iy, ix + 1)],
                                ey[at(iz, iy, ix)],
                            );
                            hz[at(iz, iy, ix)] = co.hz(iz, ix, hz[at(iz, iy, ix)], tmp, b);
                            bza[at(iz, iy, ix)] = tmp;
                        }
                    }
                }
            }
            hz.extend(bza);
            hz
        },
        TOL,
    )?;
    Ok(Outcome { ok, n: shape.iter().product::<usize>() as u64, size: format!("{cz}x{cym}x{cxm}") })
}

/// jacobi1D (`n`, `T` steps): `B[1..n-1] = (A[0..n-2] + A[1..n-1] + A[2..n]) / 3` (leader the
/// written interior, followers the left, centre and right views), then the arrays swap roles
/// (PolyBench copies `B` back into `A`; `B` starts with `A`'s boundary, so swapping gives the
/// same `A` with one loop per step instead of two; the reference swaps too).
pub fn jacobi_1d<X: Dists>(ctx: &Ctx, x: &X, p: &Params, m: &mut Meter) -> Result<Outcome> {
    let n = p.d1(10_000, 8);
    let t_max = p.steps(100);
    let fa = move |i: usize| (i as f64 + 2.0) / n as f64;
    let fb = move |i: usize| (i as f64 + 3.0) / n as f64;
    let mut a = DistArray::<f64, 1, X::M<1>>::from_fn(ctx, x.make(ctx, [n])?, |[i]| fa(i as usize))?;
    let fb = move |i: usize| if i == 0 || i == n - 1 { fa(i) } else { fb(i) };
    let mut b = DistArray::<f64, 1, X::M<1>>::from_fn(ctx, x.make(ctx, [n])?, |[i]| fb(i as usize))?;
    let n1 = n as i64;
    m.measure(ctx, || {
        for _ in 0..t_max {
            b.slice_mut(1..n1 - 1)?
                .zip_apply((a.slice(0..n1 - 2)?, a.slice(1..n1 - 1)?, a.slice(2..n1)?), |v, (l, c, r)| {
                    *v = 0.33333 * (l + c + r)
                })?;
            std::mem::swap(&mut a, &mut b);
        }
        Ok(())
    })?;
    let ok = verify(
        ctx,
        m,
        a.gather(0)?,
        || ((0..n).map(fa).collect::<Vec<f64>>(), (0..n).map(fb).collect::<Vec<f64>>()),
        |(mut a, mut b)| {
            for _ in 0..t_max {
                for i in 1..n - 1 {
                    b[i] = 0.33333 * (a[i - 1] + a[i] + a[i + 1]);
                }
                std::mem::swap(&mut a, &mut b);
            }
            a
        },
        TOL,
    )?;
    Ok(Outcome { ok, n: n as u64, size: format!("{n} t={t_max}") })
}

/// jacobi2D (`n x n`, `T` steps): the 5-point average of the interior as one zippered loop
/// (centre aligned, four shifted followers), then the arrays swap roles (as jacobi1D; `B`
/// starts as a copy of `A`, so its boundary is `A`'s).
pub fn jacobi_2d<X: Dists>(ctx: &Ctx, x: &X, p: &Params, m: &mut Meter) -> Result<Outcome> {
    let n = p.d2(400, 4);
    let t_max = p.steps(20);
    let fa = move |i: usize, j: usize| (i * (j + 2) + 2) as f64 / n as f64;
    let fb = move |i: usize, j: usize| (i * (j + 3) + 3) as f64 / n as f64;
    let mut a = DistArray::<f64, 2, X::M<2>>::from_fn(ctx, x.make(ctx, [n, n])?, |[i, j]| fa(i as usize, j as usize))?;
    let fb = move |i: usize, j: usize| if i == 0 || j == 0 || i == n - 1 || j == n - 1 { fa(i, j) } else { fb(i, j) };
    let mut b = DistArray::<f64, 2, X::M<2>>::from_fn(ctx, x.make(ctx, [n, n])?, |[i, j]| fb(i as usize, j as usize))?;
    let inner = r(1, n - 1);
    m.measure(ctx, || {
        for _ in 0..t_max {
            b.slice_mut([inner.clone(), inner.clone()])?.zip_apply(
                (
                    a.slice([inner.clone(), inner.clone()])?,
                    a.slice([inner.clone(), r(0, n - 2)])?,
                    a.slice([inner.clone(), r(2, n)])?,
                    a.slice([r(2, n), inner.clone()])?,
                    a.slice([r(0, n - 2), inner.clone()])?,
                ),
                |v, (c, w, e, s, nn)| *v = 0.2 * (c + w + e + s + nn),
            )?;
            std::mem::swap(&mut a, &mut b);
        }
        Ok(())
    })?;
    let ok = verify(
        ctx,
        m,
        a.gather(0)?,
        || {
            (
                (0..n * n).map(|q| fa(q / n, q % n)).collect::<Vec<f64>>(),
                (0..n * n).map(|q| fb(q / n, q % n)).collect::<Vec<f64>>(),
            )
        },
        |(mut a, mut b)| {
            for _ in 0..t_max {
                for i in 1..n - 1 {
                    for j in 1..n - 1 {
                        b[i * n + j] = 0.2
                            * (a[i * n + j]
                                + a[i * n + j - 1]
                                + a[i * n + j + 1]
                                + a[(i + 1) * n + j]
                                + a[(i - 1) * n + j]);
                    }
                }
                std::mem::swap(&mut a, &mut b);
            }
            a
        },
        TOL,
    )?;
    Ok(Outcome { ok, n: (n * n) as u64, size: format!("{n}x{n} t={t_max}") })
}

/// stencil9 (`n x n`, `T` steps): the average of the 3x3 neighbourhood of each interior point
/// as one zippered loop over nine views (eight shifted), then the arrays swap roles (as
/// jacobi1D).
pub fn stencil9<X: Dists>(ctx: &Ctx, x: &X, p: &Params, m: &mut Meter) -> Result<Outcome> {
    let n = p.d2(400, 4);
    let t_max = p.steps(10);
    let fa = move |i: usize, j: usize| ((i * 31 + j * 17) % 101) as f64;
    let mut a = DistArray::<f64, 2, X::M<2>>::from_fn(ctx, x.make(ctx, [n, n])?, |[i, j]| fa(i as usize, j as usize))?;
    let mut b = DistArray::<f64, 2, X::M<2>>::from_fn(ctx, x.make(ctx, [n, n])?, |[i, j]| fa(i as usize, j as usize))?;
    let inner = r(1, n - 1);
    let rows = [r(0, n - 2), r(1, n - 1), r(2, n)];
    m.measure(ctx, || {
        for _ in 0..t_max {
            let s = |di: usize, dj: usize| a.slice([rows[di].clone(), rows[dj].clone()]);
            b.slice_mut([inner.clone(), inner.clone()])?.zip_apply(
                ((s(0, 0)?, s(0, 1)?, s(0, 2)?), (s(1, 0)?, s(1, 1)?, s(1, 2)?), (s(2, 0)?, s(2, 1)?, s(2, 2)?)),
                |v, ((a0, a1, a2), (b0, b1, b2), (c0, c1, c2))| *v = (a0 + a1 + a2 + b0 + b1 + b2 + c0 + c1 + c2) / 9.0,
            )?;
            std::mem::swap(&mut a, &mut b);
        }
        Ok(())
    })?;
    let ok = verify(
        ctx,
        m,
        a.gather(0)?,
        || {
            let a: Vec<f64> = (0..n * n).map(|q| fa(q / n, q % n)).collect();
            (a.clone(), a)
        },
        |(mut a, mut b)| {
            for _ in 0..t_max {
                for i in 1..n - 1 {
                    for j in 1..n - 1 {
                        let mut s = 0.0;
                        for di in 0..3 {
                            for dj in 0..3 {
                                s += a[(i + di - 1) * n + j + dj - 1];
                            }
                        }
                        b[i * n + j] = s / 9.0;
                    }
                }
                std::mem::swap(&mut a, &mut b);
            }
            a
        },
        TOL,
    )?;
    Ok(Outcome { ok, n: (n * n) as u64, size: format!("{n}x{n} t={t_max}") })
}
