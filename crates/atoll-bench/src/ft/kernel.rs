//! FT's kernel over slabs, the same code for the distributed versions and the one-core one:
//! the plane pass (2-D transforms of z-planes), the z pass (1-D transforms down z, with the
//! time evolution folded into its loads), and the checksum.
//!
//! Layouts (x varies fastest everywhere): the *spatial* slab `[nz_l][ny][nx]` holds whole
//! z-planes; the *frequency* slab `[nz][ny_l][nx]` holds whole z-pencils of `ny_l` values of y.
//! One core holds the whole grid, which is both.

use super::class::Class;
use super::fft::{column_block, plane, Dir, Plans, WIDTH};
use atoll::prelude::*;
use atoll::util::Disjoint;
use num_complex::Complex64;
use std::ops::Range;

/// Who runs the loops of a pass: one thread, or a locale's task pool.
#[derive(Clone, Copy)]
pub enum Exec<'a> {
    /// The calling thread alone (the one-core baseline).
    One,
    /// `ctx.forall_chunks` on the locale's cores.
    Locale(&'a Ctx),
}

impl Exec<'_> {
    /// Runs `f` over chunks of `0..n`.
    pub fn chunks(&self, n: usize, f: impl Fn(Range<usize>) + Sync) {
        match self {
            Exec::One => f(0..n),
            Exec::Locale(ctx) => ctx.forall_chunks(0..n, f),
        }
    }
}

/// The evolution factors of step `t`: `exp(-4 alpha pi^2 t (kx^2 + ky^2 + kz^2))` with NPB's
/// wave numbers (index `i` of `n` is `k = (i + n/2) mod n - n/2`), kept per axis since the
/// factor is their product. NPB multiplies `u0` by the one-step factor at every step; raising
/// it to the power `t` once instead leaves `u0` unchanged and is the same to rounding.
pub struct Evolve {
    ex: Vec<f64>,
    ey: Vec<f64>,
    ez: Vec<f64>,
}

impl Evolve {
    /// The factors of step `t` for `class`.
    pub fn new(class: &Class, t: usize) -> Evolve {
        const ALPHA: f64 = 1.0e-6;
        let ap = -4.0 * ALPHA * std::f64::consts::PI * std::f64::consts::PI * t as f64;
        let axis = |n: usize| -> Vec<f64> {
            (0..n)
                .map(|i| {
                    let k = ((i + n / 2) % n) as f64 - (n / 2) as f64;
                    (ap * k * k).exp()
                })
                .collect()
        };
        Evolve { ex: axis(class.nx), ey: axis(class.ny), ez: axis(class.nz) }
    }
}

/// Fills z-plane `zl` of a spatial slab (an explicit transpose's unpacking).
pub type PlaneFill<'a> = dyn Fn(usize, &mut [Complex64]) + Sync + 'a;

/// 2-D transforms of the `planes` z-planes of `data` (`ny x nx` each), in place; with `load`,
/// each plane is first filled by `load(plane, dst)` (an explicit transpose's unpacking, done
/// where the plane is about to be transformed, while it is in cache).
#[allow(clippy::too_many_arguments)]
pub fn plane_pass(
    exec: Exec<'_>,
    plans: &Plans,
    dir: Dir,
    data: &mut [Complex64],
    planes: usize,
    ny: usize,
    nx: usize,
    load: Option<&PlaneFill<'_>>,
) {
    let size = ny * nx;
    let d = Disjoint::new(data);
    exec.chunks(planes, |r| {
        for z in r {
            // SAFETY: plane z is handled by this iteration alone.
            let p = unsafe { d.chunk(z * size..(z + 1) * size) };
            if let Some(load) = load {
                load(z, p);
            }
            plane(plans, dir, p, ny, nx);
        }
    });
}

/// Transforms down z of a frequency slab `[nz][ny_l][nx]`, into `dst`: from `src` when given
/// (times the factors of `evolve`, `y0` being the slab's first y), else in place.
#[allow(clippy::too_many_arguments)]
pub fn z_pass(
    exec: Exec<'_>,
    plans: &Plans,
    dir: Dir,
    src: Option<&[Complex64]>,
    dst: &mut [Complex64],
    (nz, nyl, nx): (usize, usize, usize),
    y0: usize,
    evolve: Option<&Evolve>,
) {
    debug_assert_eq!(dst.len(), nz * nyl * nx);
    debug_assert_eq!(plans.z(dir).len(), nz);
    let stride = nyl * nx;
    let blocks_per_row = nx.div_ceil(WIDTH);
    let plan = plans.z(dir);
    let d = Disjoint::new(dst);
    exec.chunks(nyl * blocks_per_row, |r| {
        let mut fac = [0.0f64; WIDTH];
        for b in r {
            let (yl, x0) = (b / blocks_per_row, (b % blocks_per_row) * WIDTH);
            let w = WIDTH.min(nx - x0);
            let at = |k: usize| k * stride + yl * nx + x0;
            if let Some(e) = evolve {
                let ey = e.ey[y0 + yl];
                for (f, &ex) in fac.iter_mut().zip(&e.ex[x0..x0 + w]) {
                    *f = ey * ex;
                }
            }
            column_block(
                plan,
                w,
                |k, row| match src {
                    Some(s) => {
                        let s = &s[at(k)..at(k) + w];
                        match evolve {
                            Some(e) => {
                                let ez = e.ez[k];
                                for ((o, &v), &f) in row.iter_mut().zip(s).zip(&fac) {
                                    *o = v * (f * ez);
                                }
                            }
                            None => row.copy_from_slice(s),
                        }
                    }
                    // SAFETY: pencils (yl, x0..x0+w) belong to this block alone.
                    None => row.copy_from_slice(unsafe { d.chunk(at(k)..at(k) + w) }),
                },
                // SAFETY: as above.
                |k, row| unsafe { d.chunk(at(k)..at(k) + w) }.copy_from_slice(row),
            );
        }
    });
}

/// The positions NPB's checksum reads: `(x, y, z) = (j mod nx, 3j mod ny, 5j mod nz)` for
/// `j = 1..=1024`.
pub fn checksum_points(class: &Class) -> impl Iterator<Item = (usize, usize, usize)> + '_ {
    (1..=1024usize).map(|j| (j % class.nx, (3 * j) % class.ny, (5 * j) % class.nz))
}

/// This slab's part of the checksum: the sum of the checked elements of a spatial slab
/// holding z-planes `z0..z0 + planes`, divided by the grid size (the sum of the locales' parts
/// is NPB's checksum).
pub fn checksum(class: &Class, slab: &[Complex64], z0: usize, planes: usize) -> Complex64 {
    let mut s = Complex64::new(0.0, 0.0);
    for (x, y, z) in checksum_points(class) {
        if (z0..z0 + planes).contains(&z) {
            s += slab[((z - z0) * class.ny + y) * class.nx + x];
        }
    }
    s / class.ntotal() as f64
}

#[cfg(test)]
mod tests {
    use super::super::fft::rows;
    use super::*;

    #[test]
    fn the_z_pass_is_a_transform_down_z_with_the_factors() {
        let class = Class { name: 'U', nx: 20, ny: 3, nz: 8, niter: 1, sums: &[] };
        let plans = Plans::new(class.nx, class.ny, class.nz);
        let (nz, nyl, nx, y0) = (class.nz, 2, class.nx, 1);
        let src: Vec<Complex64> =
            (0..nz * nyl * nx).map(|i| Complex64::new((i % 17) as f64, (i % 5) as f64 - 2.0)).collect();
        let e = Evolve::new(&class, 3);
        let mut got = vec![Complex64::new(0.0, 0.0); src.len()];
        z_pass(Exec::One, &plans, Dir::Inverse, Some(&src), &mut got, (nz, nyl, nx), y0, Some(&e));
        let mut inplace: Vec<Complex64> = src.clone();
        z_pass(Exec::One, &plans, Dir::Inverse, None, &mut inplace, (nz, nyl, nx), y0, None);
        for yl in 0..nyl {
            for x in 0..nx {
                let idx = |z: usize| (z * nyl + yl) * nx + x;
                let f = |z: usize| e.ex[x] * e.ey[y0 + yl] * e.ez[z];
                let mut col: Vec<Complex64> = (0..nz).map(|z| src[idx(z)] * f(z)).collect();
                rows(plans.z(Dir::Inverse), &mut col);
                for z in 0..nz {
                    assert!((got[idx(z)] - col[z]).norm() < 1e-9, "({z}, {yl}, {x})");
                }
                let mut plain: Vec<Complex64> = (0..nz).map(|z| src[idx(z)]).collect();
                rows(plans.z(Dir::Inverse), &mut plain);
                for z in 0..nz {
                    assert!((inplace[idx(z)] - plain[z]).norm() < 1e-9, "in place ({z}, {yl}, {x})");
                }
            }
        }
    }

    #[test]
    fn evolve_factors_are_npbs_exponent() {
        let class = Class::parse("S").unwrap();
        let e = Evolve::new(&class, 2);
        // Index 63 of 64 is wave number -1, index 32 is -32.
        let ap = -4.0e-6 * std::f64::consts::PI * std::f64::consts::PI;
        assert!((e.ex[63] - (2.0 * ap).exp()).abs() < 1e-15);
        assert!((e.ez[32] - (2.0 * ap * 1024.0).exp()).abs() < 1e-15);
        assert_eq!(e.ey[0], 1.0);
    }
}
