//! The one-core baseline: the same algorithm on one thread, no runtime. The whole grid is one
//! slab, both spatial and frequency, so no transpose: the forward transform runs the plane
//! pass then the z pass in place, and each step the z pass (with the evolution factors) from
//! the transformed field into a second buffer, then the plane pass there. Its buffers are on
//! the same pages as Atoll's arrays (`hugevec`), allocated and touched before timing.

use super::class::Class;
use super::fft::{Dir, Plans};
use super::kernel::{checksum, plane_pass, z_pass, Evolve, Exec};
use super::random;
use crate::hugevec;
use num_complex::Complex64;
use std::time::Instant;

/// One timed run: (seconds, the checksum of each step).
fn timed(class: &Class, u0: &mut [Complex64], w: &mut [Complex64]) -> (f64, Vec<Complex64>) {
    let (nx, ny, nz) = (class.nx, class.ny, class.nz);
    let t0 = Instant::now();
    let plans = Plans::new(nx, ny, nz);
    random::fill(u0, 0);
    plane_pass(Exec::One, &plans, Dir::Forward, u0, nz, ny, nx, None);
    z_pass(Exec::One, &plans, Dir::Forward, None, u0, (nz, ny, nx), 0, None);
    let mut sums = Vec::with_capacity(class.niter);
    for t in 1..=class.niter {
        let e = Evolve::new(class, t);
        z_pass(Exec::One, &plans, Dir::Inverse, Some(u0), w, (nz, ny, nx), 0, Some(&e));
        plane_pass(Exec::One, &plans, Dir::Inverse, w, nz, ny, nx, None);
        sums.push(checksum(class, w, 0, nz));
    }
    (t0.elapsed().as_secs_f64(), sums)
}

/// The best of `reps` timed runs (after an untimed one, as NPB warms up): (seconds, checksums
/// of the last run).
pub fn one_core(class: &Class, reps: usize) -> (f64, Vec<Complex64>) {
    let n = class.ntotal();
    let mut u0: Vec<Complex64> = hugevec::zeroed(n, true);
    let mut w: Vec<Complex64> = hugevec::zeroed(n, true);
    let _ = timed(class, &mut u0, &mut w);
    let mut best = f64::INFINITY;
    let mut sums = Vec::new();
    for _ in 0..reps.max(1) {
        let (s, c) = timed(class, &mut u0, &mut w);
        best = best.min(s);
        sums = c;
    }
    (best, sums)
}
