//! The two versions of FT's transpose between the spatial slabs (z Block-distributed, whole
//! z-planes local) and the frequency slabs (y Block-distributed, whole z-pencils local).
//!
//! - **Global view**: one array assignment between the two differently distributed arrays,
//!   `v.assign(&u.view())`, what a user of Atoll writes; the library pulls each locale's part
//!   from its owners (one strided get per pair of locales).
//! - **Explicit**: the all-to-all written by hand: each locale packs the block every other
//!   locale needs and puts it, in one message per destination, into the destination's receive
//!   buffer (registered memory); a barrier; the destination unpacks its blocks. Towards the
//!   spatial slabs the blocks need no packing (a frequency slab's rows for one destination's
//!   z-planes are contiguous) and the unpacking is a plane loader: the plane pass copies each
//!   z-plane's blocks into place just before transforming it.
//!
//! Both leave the same data in the same arrays, so the kernel around them is one.

use super::kernel::PlaneFill;
use atoll::prelude::*;
use atoll::runtime::bytemuck;
use num_complex::Complex64;

/// The 3-D complex arrays of FT.
pub type Grid3 = DistArray<[f64; 2], 3, Block<3>>;

/// A plane loader: fills z-plane `zl` of this locale's spatial slab.
pub type Loader<'a> = Box<PlaneFill<'a>>;

/// Which transpose, with its state.
pub enum Transpose {
    /// Array assignments.
    GlobalView,
    /// Packed blocks, one put per destination.
    Explicit {
        /// This locale's receive buffer: one block per source locale.
        recv: Symmetric<Complex64>,
        /// The outgoing block of the transform to the frequency slabs.
        send: Vec<Complex64>,
    },
}

/// The extents of the slabs on `p` locales.
#[derive(Clone, Copy)]
pub struct Slabs {
    /// Grid extents.
    pub nx: usize,
    /// Grid extent in y.
    pub ny: usize,
    /// Grid extent in z.
    pub nz: usize,
    /// Locales.
    pub p: usize,
}

impl Slabs {
    /// z-planes per spatial slab.
    pub fn nzl(&self) -> usize {
        self.nz / self.p
    }

    /// y-values per frequency slab.
    pub fn nyl(&self) -> usize {
        self.ny / self.p
    }

    /// Elements of the block one locale sends another.
    pub fn block(&self) -> usize {
        self.nzl() * self.nyl() * self.nx
    }
}

/// Casts an array's local part to complex numbers (`[f64; 2]` is their layout).
pub fn complex(a: &[[f64; 2]]) -> &[Complex64] {
    bytemuck::cast_slice(a)
}

/// Casts an array's local part to complex numbers, writable.
pub fn complex_mut(a: &mut [[f64; 2]]) -> &mut [Complex64] {
    bytemuck::cast_slice_mut(a)
}

impl Transpose {
    /// The global-view transpose, or the explicit one with its buffers (**Collective**: the
    /// receive buffer is registered on every locale).
    pub fn new(ctx: &Ctx, explicit: bool, s: Slabs) -> Result<Transpose> {
        if !explicit {
            return Ok(Transpose::GlobalView);
        }
        let recv = ctx.alloc_symmetric_for::<Complex64>("ft receive buffer", s.p * s.block())?;
        Ok(Transpose::Explicit { recv, send: vec![Complex64::new(0.0, 0.0); s.block()] })
    }

    /// Spatial slabs `u` to frequency slabs `v`. **Collective.**
    pub fn towards_freq(&mut self, ctx: &Ctx, s: Slabs, u: &Grid3, v: &mut Grid3) -> Result<()> {
        match self {
            Transpose::GlobalView => v.assign(&u.view()),
            Transpose::Explicit { recv, send } => {
                let (me, nyl, nx) = (ctx.id(), s.nyl(), s.nx);
                let ul = complex(u.local());
                ctx.barrier()?; // every locale is done reading its receive buffer
                for step in 1..=s.p {
                    let d = (me + step) % s.p; // the own block last; the others spread
                    for zl in 0..s.nzl() {
                        let from = (zl * s.ny + d * nyl) * nx;
                        send[zl * nyl * nx..(zl + 1) * nyl * nx].copy_from_slice(&ul[from..from + nyl * nx]);
                    }
                    ctx.put(recv.ptr(d).add(me * s.block()), send)?;
                }
                ctx.barrier()?;
                // The blocks arrive in the frequency slab's order: source s holds z-planes
                // s * nzl.. of every y of this slab.
                complex_mut(v.local_mut()).copy_from_slice(recv.local());
                Ok(())
            }
        }
    }

    /// Frequency slabs `w` to spatial slabs `u`: done for the global view; for the explicit
    /// one, the other locales' blocks are in this locale's receive buffer, its own block is
    /// still in `w` (it is not copied to itself), and the returned loader unpacks each z-plane
    /// from both (the plane pass calls it). **Collective.**
    pub fn towards_space<'a>(
        &'a mut self,
        ctx: &Ctx,
        s: Slabs,
        w: &'a Grid3,
        u: &mut Grid3,
    ) -> Result<Option<Loader<'a>>> {
        match self {
            Transpose::GlobalView => u.assign(&w.view()).map(|()| None),
            Transpose::Explicit { recv, .. } => {
                let (me, blk) = (ctx.id(), s.block());
                let wl = complex(w.local());
                ctx.barrier()?; // every locale is done with its receive buffer
                for step in 1..s.p {
                    let d = (me + step) % s.p;
                    // The rows of destination d's z-planes: contiguous in the frequency slab.
                    ctx.put(recv.ptr(d).add(me * blk), &wl[d * blk..(d + 1) * blk])?;
                }
                ctx.barrier()?;
                let r: &'a [Complex64] = recv.local();
                let (p, run) = (s.p, s.nyl() * s.nx);
                Ok(Some(Box::new(move |zl, plane: &mut [Complex64]| {
                    for src in 0..p {
                        // Block `src` sits at the same offset in the receive buffer as this
                        // locale's own block (`src == me`) in the frequency slab.
                        let at = src * blk + zl * run;
                        let from = if src == me { &wl[at..at + run] } else { &r[at..at + run] };
                        plane[src * run..(src + 1) * run].copy_from_slice(from);
                    }
                })))
            }
        }
    }

    /// Frees the explicit version's receive buffer. **Collective.**
    pub fn free(self) -> Result<()> {
        match self {
            Transpose::GlobalView => Ok(()),
            Transpose::Explicit { recv, .. } => recv.free(),
        }
    }
}
