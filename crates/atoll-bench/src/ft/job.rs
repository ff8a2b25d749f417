//! One distributed FT run on every locale: NPB's timed region (initial field, forward 3-D
//! transform, then per step: evolve, inverse transform, checksum) over Atoll arrays with
//! either transpose.

use super::class::Class;
use super::fft::{Dir, Plans};
use super::kernel::{checksum, plane_pass, z_pass, Evolve, Exec};
use super::random;
use super::transpose::{complex, complex_mut, Grid3, Slabs, Transpose};
use atoll::prelude::*;
use num_complex::Complex64;
use std::time::Instant;

/// What one timed run gives (the same on every locale).
pub struct JobOut {
    /// Seconds, the slowest locale's.
    pub seconds: f64,
    /// The checksum of each step.
    pub sums: Vec<Complex64>,
    /// Communication of the timed run, summed over locales.
    pub counts: CommCounts,
    /// This locale's traffic of the timed run (for the network model across hosts).
    pub traffic: crate::netmodel::Traffic,
}

/// The arrays of a run: `u` spatial (the initial field, then each step's result), `v` the
/// transformed field (frequency slabs), `w` each step's evolved field (frequency slabs).
pub struct Arrays {
    u: Grid3,
    v: Grid3,
    w: Grid3,
    s: Slabs,
}

impl Arrays {
    /// Allocates the three arrays. **Collective.**
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] unless the locales divide both `ny` and `nz` (NPB's slab
    /// layout needs as much).
    pub fn new(ctx: &Ctx, class: &Class) -> Result<Arrays> {
        let p = ctx.num_locales();
        if class.nz % p != 0 || class.ny % p != 0 {
            return Err(Error::InvalidArgument(format!(
                "ft: {p} locales do not divide class {}'s ny = {} and nz = {} (slabs need it)",
                class.name, class.ny, class.nz
            )));
        }
        let dom = Domain::from_shape([class.nz, class.ny, class.nx])?;
        let spatial = Block::new(dom, LocaleGrid::new(0..p, [p, 1, 1])?);
        let freq = Block::new(dom, LocaleGrid::new(0..p, [1, p, 1])?);
        let s = Slabs { nx: class.nx, ny: class.ny, nz: class.nz, p };
        // Each locale's parts are the slabs this module assumes: z-planes (resp. y-values) in
        // locale order.
        let (me, z0, y0) = (ctx.id(), ctx.id() * s.nzl(), ctx.id() * s.nyl());
        let (zd, yd) = (spatial.local_domain(me)?, freq.local_domain(me)?);
        ensure!(
            zd.dims()[0].first() == Some(z0 as i64)
                && zd.shape() == [s.nzl(), s.ny, s.nx]
                && yd.dims()[1].first() == Some(y0 as i64)
                && yd.shape() == [s.nz, s.nyl(), s.nx],
            Error::InvalidArgument(format!("ft: unexpected Block parts {zd} and {yd} on locale {me}"))
        );
        Ok(Arrays {
            u: DistArray::zeros(ctx, spatial.clone())?,
            v: DistArray::zeros(ctx, freq.clone())?,
            w: DistArray::zeros(ctx, freq)?,
            s,
        })
    }

    /// Frees the arrays. **Collective.**
    pub fn free(self) -> Result<()> {
        self.u.free()?;
        self.v.free()?;
        self.w.free()
    }
}

/// The initial field and its forward transform into `a.v`. **Collective.**
fn setup(ctx: &Ctx, plans: &Plans, a: &mut Arrays, tr: &mut Transpose) -> Result<()> {
    let s = a.s;
    let (me, plane) = (ctx.id(), s.ny * s.nx);
    let z0 = me * s.nzl();
    let ex = Exec::Locale(ctx);
    {
        let ul = complex_mut(a.u.local_mut());
        let d = atoll::util::Disjoint::new(ul);
        ex.chunks(s.nzl(), |r| {
            for zl in r {
                // SAFETY: plane zl is filled by this iteration alone.
                let p = unsafe { d.chunk(zl * plane..(zl + 1) * plane) };
                random::fill(p, ((z0 + zl) * plane) as u64);
            }
        });
        plane_pass(ex, plans, Dir::Forward, complex_mut(a.u.local_mut()), s.nzl(), s.ny, s.nx, None);
    }
    tr.towards_freq(ctx, s, &a.u, &mut a.v)?;
    z_pass(ex, plans, Dir::Forward, None, complex_mut(a.v.local_mut()), (s.nz, s.nyl(), s.nx), me * s.nyl(), None);
    Ok(())
}

/// One step `t`: evolve `v` into `w` within the z pass, transpose to `u`, transform the
/// planes back, checksum. **Collective.**
fn step(ctx: &Ctx, class: &Class, plans: &Plans, a: &mut Arrays, tr: &mut Transpose, t: usize) -> Result<Complex64> {
    let s = a.s;
    let me = ctx.id();
    let ex = Exec::Locale(ctx);
    let e = Evolve::new(class, t);
    z_pass(
        ex,
        plans,
        Dir::Inverse,
        Some(complex(a.v.local())),
        complex_mut(a.w.local_mut()),
        (s.nz, s.nyl(), s.nx),
        me * s.nyl(),
        Some(&e),
    );
    let load = tr.towards_space(ctx, s, &a.w, &mut a.u)?;
    plane_pass(ex, plans, Dir::Inverse, complex_mut(a.u.local_mut()), s.nzl(), s.ny, s.nx, load.as_deref());
    drop(load);
    let part = checksum(class, complex(a.u.local()), me * s.nzl(), s.nzl());
    let (re, im) = ctx.allreduce((part.re, part.im), |x, y| (x.0 + y.0, x.1 + y.1))?;
    Ok(Complex64::new(re, im))
}

/// One untimed warm-up (NPB runs the setup and forward transform once first, to touch all
/// data), then one timed run. **Collective.**
pub fn run_once(ctx: &Ctx, class: &Class, a: &mut Arrays, tr: &mut Transpose) -> Result<JobOut> {
    {
        let plans = Plans::new(class.nx, class.ny, class.nz);
        setup(ctx, &plans, a, tr)?;
    }
    ctx.barrier()?;
    ctx.reset_comm_diagnostics()?;
    ctx.start_comm_diagnostics()?;
    let before = crate::netmodel::snapshot(ctx);
    let t0 = Instant::now();
    let plans = Plans::new(class.nx, class.ny, class.nz);
    setup(ctx, &plans, a, tr)?;
    let mut sums = Vec::with_capacity(class.niter);
    for t in 1..=class.niter {
        sums.push(step(ctx, class, &plans, a, tr, t)?);
    }
    let seconds = ctx.allreduce(t0.elapsed().as_secs_f64(), f64::max)?;
    let traffic = crate::netmodel::Traffic::since(ctx, before);
    ctx.stop_comm_diagnostics()?;
    let counts = ctx.comm_diagnostics()?.iter().fold(CommCounts::default(), |acc, c| acc.add(c));
    Ok(JobOut { seconds, sums, counts, traffic })
}
