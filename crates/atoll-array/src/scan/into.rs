//! Scans into a preallocated output: [`View::scan_into`] and [`View::cumsum_into`], the
//! non-allocating forms of [`View::scan`] and [`View::cumsum`] (same passes, the output given:
//! a benchmark or a loop that scans repeatedly pays no allocation).

use crate::array::{DistArray, View};
use crate::elem::Elem;
use atoll_dist::{Block, Distribution};
use atoll_error::{Error, Result};
use atoll_util::sync::{into_inner, lock};

impl<T: Elem, M: Distribution<1> + 'static> View<'_, T, 1, M> {
    /// [`scan`](View::scan) into `out`, a Block array over the view's indices on every locale
    /// (as `scan` returns, which is this call on a fresh output). **Collective.**
    ///
    /// ```
    /// use atoll_array::{dist, DistArray};
    /// use atoll_runtime::{run, Config};
    /// run(Config::local(2), |ctx| {
    ///     let a = DistArray::from_fn(ctx, dist::cyclic(ctx, [10])?, |[i]| i as u64)?;
    ///     let mut s = DistArray::<u64, 1>::zeros(ctx, dist::block(ctx, [10])?)?;
    ///     a.view().cumsum_into(&mut s)?;
    ///     assert_eq!(s.get([9])?, 45);
    ///     Ok(())
    /// }).unwrap();
    /// ```
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] when `out` is not the Block array over the view's indices on
    /// every locale (the same on every locale); as assignment otherwise.
    pub fn scan_into(
        &self,
        out: &mut DistArray<T, 1, Block<1>>,
        op: impl Fn(T, T) -> T + Sync + Copy,
        identity: T,
        inclusive: bool,
    ) -> Result<()> {
        let ctx = self.ctx();
        let want = Block::new(*self.domain(), atoll_dist::LocaleGrid::auto(0..ctx.num_locales())?);
        if *out.dist() != want {
            return Err(Error::ShapeMismatch {
                context: "View::scan_into (output)".into(),
                left: format!("an output over {}", out.domain()),
                right: format!("the Block array over {} on all {} locales", self.domain(), ctx.num_locales()),
            });
        }
        // A view of a Block array over the output's indices has the output's layout: scanned
        // in place of its storage, in one pass over memory (`scan/one_pass.rs`).
        if (&self.arr.dist as &dyn std::any::Any).downcast_ref::<Block<1>>() == Some(&want) {
            // Large and directly addressable everywhere: one pass across locales
            // (`scan/wavefront.rs`); else the locales' bases first.
            let done = {
                let o = out.view();
                crate::scan::wavefront::scan(
                    ctx,
                    &self.arr.store,
                    &self.arr.dist,
                    &o.inner().store,
                    op,
                    identity,
                    inclusive,
                )?
            };
            if done {
                return ctx.barrier();
            }
            crate::scan::one_pass::scan_aligned(
                ctx,
                &self.arr.store,
                &self.arr.dist,
                out.local_mut(),
                op,
                identity,
                inclusive,
            )?;
            return ctx.barrier();
        }
        // Bring the values into the output's Block layout, then the two passes of `scan`.
        out.assign(self)?;
        // Chunks of a fixed length, numbered alike in both passes.
        const CHUNK: usize = 1 << 16;
        let local = out.local_mut();
        let totals = std::sync::Mutex::new(vec![identity; local.len().div_ceil(CHUNK)]);
        ctx.forall_chunks_mut_with(local, CHUNK, |r, part| {
            let t = part.iter().fold(identity, |a, &x| op(a, x));
            lock(&totals)[r.start / CHUNK] = t;
        });
        let totals = into_inner(totals);
        let mine = totals.iter().fold(identity, |a, &x| op(a, x));
        let before = ctx.exscan(mine, identity, op)?;
        let mut starts = Vec::with_capacity(totals.len());
        let mut acc = before;
        for &t in &totals {
            starts.push(acc);
            acc = op(acc, t);
        }
        ctx.forall_chunks_mut_with(local, CHUNK, |r, part| {
            let mut acc = starts[r.start / CHUNK];
            for x in part.iter_mut() {
                let v = *x;
                if inclusive {
                    acc = op(acc, v);
                    *x = acc;
                } else {
                    *x = acc;
                    acc = op(acc, v);
                }
            }
        });
        ctx.barrier()
    }

    /// [`cumsum`](View::cumsum) into `out` (see [`scan_into`](View::scan_into)). **Collective.**
    ///
    /// # Errors
    /// As [`scan_into`](View::scan_into).
    pub fn cumsum_into(&self, out: &mut DistArray<T, 1, Block<1>>) -> Result<()>
    where
        T: std::ops::Add<Output = T>,
    {
        self.scan_into(out, |a, b| a + b, T::default(), true)
    }
}
