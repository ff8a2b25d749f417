//! The 1-D FFTs of FT through `rustfft`: one plan per axis and direction, made once per run,
//! and the two shapes of pass over a 3-D grid. Along a contiguous axis, a run of rows is one
//! call (rustfft batches them). Along a strided axis, [`column_block`] copies a block of
//! [`WIDTH`] neighbouring columns into a contiguous buffer (each column one pencil), transforms
//! the pencils in one call, and copies them back: every memory access then touches whole cache
//! lines, and the pencils stay in cache while they are transformed.
//!
//! NPB's forward transform uses `exp(+2 pi i jk/n)` (rustfft's `Inverse`), its inverse
//! `exp(-2 pi i jk/n)` (rustfft's `Forward`); neither is scaled (the checksum divides by the
//! grid size).

use num_complex::Complex64;
use rustfft::{Fft, FftDirection, FftPlanner};
use std::cell::RefCell;
use std::sync::Arc;

/// Columns per block of a strided pass (16 complex numbers: four cache lines per row).
pub const WIDTH: usize = 16;

/// NPB's direction of a transform.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Dir {
    /// `exp(+i ...)`: the initial transform.
    Forward,
    /// `exp(-i ...)`: the transform back at every step.
    Inverse,
}

/// Plans for the three axes, both directions.
pub struct Plans {
    x: [Arc<dyn Fft<f64>>; 2],
    y: [Arc<dyn Fft<f64>>; 2],
    z: [Arc<dyn Fft<f64>>; 2],
}

impl Plans {
    /// Plans for a grid of `nx x ny x nz`.
    pub fn new(nx: usize, ny: usize, nz: usize) -> Plans {
        let mut p = FftPlanner::new();
        let mut both = |n| [p.plan_fft(n, FftDirection::Inverse), p.plan_fft(n, FftDirection::Forward)];
        Plans { x: both(nx), y: both(ny), z: both(nz) }
    }

    fn pick(pair: &[Arc<dyn Fft<f64>>; 2], dir: Dir) -> &dyn Fft<f64> {
        match dir {
            Dir::Forward => &*pair[0],
            Dir::Inverse => &*pair[1],
        }
    }

    /// The plan along x.
    pub fn x(&self, dir: Dir) -> &dyn Fft<f64> {
        Self::pick(&self.x, dir)
    }

    /// The plan along y.
    pub fn y(&self, dir: Dir) -> &dyn Fft<f64> {
        Self::pick(&self.y, dir)
    }

    /// The plan along z.
    pub fn z(&self, dir: Dir) -> &dyn Fft<f64> {
        Self::pick(&self.z, dir)
    }
}

/// Per-thread buffers of the passes: a block of pencils, one row of a block, the FFT scratch.
#[derive(Default)]
struct Bufs {
    pencils: Vec<Complex64>,
    row: Vec<Complex64>,
    scratch: Vec<Complex64>,
}

thread_local! {
    static BUFS: RefCell<Bufs> = RefCell::new(Bufs::default());
}

fn grow(v: &mut Vec<Complex64>, len: usize) {
    if v.len() < len {
        v.resize(len, Complex64::new(0.0, 0.0));
    }
}

/// Transforms consecutive rows of `plan.len()` elements in place (`data.len()` a multiple).
pub fn rows(plan: &dyn Fft<f64>, data: &mut [Complex64]) {
    BUFS.with(|b| {
        let b = &mut *b.borrow_mut();
        let need = plan.get_inplace_scratch_len();
        grow(&mut b.scratch, need);
        plan.process_with_scratch(data, &mut b.scratch[..need]);
    });
}

/// Transforms `width` pencils of `n = plan.len()` elements: `load(k, row)` gives element `k` of
/// each pencil (`row[c]` for pencil `c`), `store(k, row)` takes the results back.
pub fn column_block(
    plan: &dyn Fft<f64>,
    width: usize,
    mut load: impl FnMut(usize, &mut [Complex64]),
    mut store: impl FnMut(usize, &[Complex64]),
) {
    let n = plan.len();
    BUFS.with(|b| {
        let b = &mut *b.borrow_mut();
        let need = plan.get_inplace_scratch_len();
        grow(&mut b.scratch, need);
        grow(&mut b.pencils, n * width);
        grow(&mut b.row, width);
        let (pencils, row) = (&mut b.pencils[..n * width], &mut b.row[..width]);
        for k in 0..n {
            load(k, row);
            for (c, &v) in row.iter().enumerate() {
                pencils[c * n + k] = v;
            }
        }
        plan.process_with_scratch(pencils, &mut b.scratch[..need]);
        for k in 0..n {
            for (c, r) in row.iter_mut().enumerate() {
                *r = pencils[c * n + k];
            }
            store(k, row);
        }
    });
}

/// The 2-D transform of one z-plane (`ny` rows of `nx`), in place: x then y forward, y then x
/// inverse (NPB's order).
pub fn plane(plans: &Plans, dir: Dir, p: &mut [Complex64], ny: usize, nx: usize) {
    debug_assert_eq!(p.len(), ny * nx);
    if dir == Dir::Forward {
        rows(plans.x(dir), p);
    }
    let yp = plans.y(dir);
    for x0 in (0..nx).step_by(WIDTH) {
        let w = WIDTH.min(nx - x0);
        // Both closures index the plane; the pencils are copied out, transformed, copied back.
        let cell = RefCell::new(&mut *p);
        column_block(
            yp,
            w,
            |k, row| row.copy_from_slice(&cell.borrow()[k * nx + x0..k * nx + x0 + w]),
            |k, row| cell.borrow_mut()[k * nx + x0..k * nx + x0 + w].copy_from_slice(row),
        );
    }
    if dir == Dir::Inverse {
        rows(plans.x(dir), p);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The unscaled DFT with exponent sign `s`.
    fn dft(x: &[Complex64], s: f64) -> Vec<Complex64> {
        let n = x.len();
        (0..n)
            .map(|k| {
                x.iter()
                    .enumerate()
                    .map(|(j, &v)| {
                        v * Complex64::from_polar(1.0, s * 2.0 * std::f64::consts::PI * (j * k) as f64 / n as f64)
                    })
                    .sum()
            })
            .collect()
    }

    fn close(a: &[Complex64], b: &[Complex64]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).norm() < 1e-9 * (1.0 + y.norm()))
    }

    fn field(n: usize) -> Vec<Complex64> {
        (0..n).map(|i| Complex64::new((i * 7 % 13) as f64 - 6.0, (i * 5 % 11) as f64 * 0.25)).collect()
    }

    #[test]
    fn directions_are_npbs() {
        let plans = Plans::new(8, 4, 2);
        let x = field(8);
        let mut f = x.clone();
        rows(plans.x(Dir::Forward), &mut f);
        assert!(close(&f, &dft(&x, 1.0)), "forward is exp(+i)");
        let mut i = x.clone();
        rows(plans.x(Dir::Inverse), &mut i);
        assert!(close(&i, &dft(&x, -1.0)), "inverse is exp(-i)");
    }

    #[test]
    fn a_plane_is_the_2d_dft() {
        let (ny, nx) = (8, 32); // nx spans two column blocks
        let plans = Plans::new(nx, ny, 2);
        let x = field(ny * nx);
        for (dir, s) in [(Dir::Forward, 1.0), (Dir::Inverse, -1.0)] {
            let mut got = x.clone();
            plane(&plans, dir, &mut got, ny, nx);
            // Rows, then columns, by the definition.
            let mut want: Vec<Complex64> = x.chunks(nx).flat_map(|r| dft(r, s)).collect();
            for c in 0..nx {
                let col: Vec<Complex64> = (0..ny).map(|k| want[k * nx + c]).collect();
                for (k, v) in dft(&col, s).into_iter().enumerate() {
                    want[k * nx + c] = v;
                }
            }
            assert!(close(&got, &want), "{dir:?}");
        }
    }
}
