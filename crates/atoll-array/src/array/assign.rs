//! Bulk assignment between views: each locale pulls the elements of its part of the destination
//! from their owners with strided gets.

use crate::array::{write_row, Inner, View};
use crate::elem::Elem;
use crate::expr::{Bound, Expr};
use crate::util::for_each_offset;
use crate::zip::Row;
use atoll_dist::{Distribution, Domain};
use atoll_error::{Error, Result};

/// The largest temporary buffer of one transfer, in elements (larger patches are split along
/// their first dimension).
const MAX_BUF: usize = 1 << 20;

/// `dst[dom] = src`. **Collective.**
pub(crate) fn assign<T: Elem, const D: usize, M: Distribution<D> + 'static, M2: Distribution<D> + 'static>(
    dst: &Inner<T, D, M>,
    dom: &Domain<D>,
    src: &View<'_, T, D, M2>,
) -> Result<()> {
    let ctx = &dst.ctx;
    if dom.shape() != src.shape() {
        return Err(Error::ShapeMismatch {
            context: format!("assigning a view over {} to a view over {}", src.domain(), dom),
            left: format!("{:?}", dom.shape()),
            right: format!("{:?}", src.shape()),
        });
    }
    // Same distribution and indices: a purely local copy, no leading barrier (`zip/local_only.rs`).
    let local =
        src.domain() == dom && (src.dist() as &dyn std::any::Any).downcast_ref::<M>().is_some_and(|m| *m == dst.dist);
    crate::zip::local_only::fenced_unless(ctx, local, || pull(dst, dom, src))
}

fn pull<T: Elem, const D: usize, M: Distribution<D> + 'static, M2: Distribution<D> + 'static>(
    dst: &Inner<T, D, M>,
    dom: &Domain<D>,
    src: &View<'_, T, D, M2>,
) -> Result<()> {
    let ctx = &dst.ctx;
    let me = ctx.id();
    let mut plan = crate::array::sublocales::plan(dst, *dom)?;
    if plan.is_aligned(src.dist(), src.domain()) {
        // Same distribution and indices: a local copy of each owned run.
        plan.flatten();
        let bound = src.bind(&plan)?;
        return plan.for_each(|seg, scratch| {
            let row = bound.row(seg, scratch)?;
            crate::zip::unit_versioned!(row, |row| write_row(&dst.store, seg, |j| row.at(j)));
            Ok(())
        });
    }
    if !dst.dist.grid().contains(me) || dom.is_empty() {
        return Ok(());
    }
    let (sarr, sdom) = (src.inner(), src.domain());
    let mut buf: Vec<T> = Vec::new();
    for p in dst.dist.runs(me, dom)?.patches() {
        // The source indices matching this patch of the destination.
        let pos = dom.positions_of(&p.global)?;
        let s_box = sdom.slice_positions(&pos)?;
        let s_strides = s_box.row_major_strides();
        for &t in sarr.dist.grid().targets() {
            for q in sarr.dist.runs(t, &s_box)?.patches() {
                // Where q's elements go: position m0 + u * step in s_box (per dimension), so
                // local offset p.local_offset + sum((m0 + u step) * p.local_strides).
                let mut rest = q.sub_offset;
                let mut dst_off = p.local_offset;
                let mut dst_strides = [0usize; D];
                for d in 0..D {
                    let m0 = rest / s_strides[d];
                    rest %= s_strides[d];
                    dst_off += m0 * p.local_strides[d];
                    dst_strides[d] = (q.sub_strides[d] / s_strides[d].max(1)) * p.local_strides[d];
                }
                let shape = q.global.shape();
                if t == me && !std::ptr::eq(sarr.store.local().as_ptr(), dst.store.local().as_ptr()) {
                    // SAFETY: the source box is this locale's own part of another array (offsets
                    // from its runs, in bounds), read-only during the assignment; the destination
                    // elements are this locale's own, written by this task only.
                    unsafe {
                        copy_box(
                            dst,
                            sarr.store.local().as_ptr(),
                            q.local_offset,
                            &q.local_strides,
                            &shape,
                            dst_off,
                            &dst_strides,
                        )
                    };
                    continue;
                }
                if t == me {
                    // Within one array (views that may overlap): element by element, in order.
                    for_each_offset(q.local_offset, &q.local_strides, &shape, |k, o| {
                        let mut to = dst_off;
                        let mut kk = k;
                        for d in (0..D).rev() {
                            to += (kk % shape[d]) * dst_strides[d];
                            kk /= shape[d];
                        }
                        // SAFETY: both offsets come from runs of this locale (in bounds); the
                        // destination elements are this locale's own, written by this task only.
                        unsafe { dst.store.write(to, sarr.store.read(o)) };
                    });
                    continue;
                }
                transfer(dst, sarr, t, &q.local_offset, &q.local_strides, &shape, dst_off, &dst_strides, &mut buf)?;
            }
        }
    }
    Ok(())
}

/// One strided get of the box `shape` at `src_off`/`src_strides` on locale `t`, written to this
/// locale at `dst_off`/`dst_strides`: straight into storage when the destination is one
/// contiguous run, through `buf` otherwise (split along the first dimension past `MAX_BUF`).
#[allow(clippy::too_many_arguments)]
fn transfer<T: Elem, const D: usize, M: Distribution<D>, M2: Distribution<D>>(
    dst: &Inner<T, D, M>,
    src: &Inner<T, D, M2>,
    t: usize,
    src_off: &usize,
    src_strides: &[usize; D],
    shape: &[usize; D],
    dst_off: usize,
    dst_strides: &[usize; D],
    buf: &mut Vec<T>,
) -> Result<()> {
    let ctx = &dst.ctx;
    let len: usize = shape.iter().product();
    let row: usize = shape[1..].iter().product::<usize>().max(1);
    let rows_per = (MAX_BUF / row).max(1);
    if len == 0 {
        return Ok(());
    }
    // Memory this process can address (the local backend, node peers under MPI) is read in
    // place, a row at a time, and counted as the strided gets it replaces.
    let extent = 1 + (0..D).map(|d| (shape[d] - 1) * src_strides[d]).sum::<usize>();
    if let Some(p) = src.store.direct(ctx, t, *src_off, extent)? {
        if contiguous(dst_strides, shape) {
            src.store.count_direct(ctx, t, *src_off, len, true);
        } else {
            for first in (0..shape[0]).step_by(rows_per) {
                let n0 = rows_per.min(shape[0] - first);
                src.store.count_direct(ctx, t, src_off + first * src_strides[0], n0 * row, true);
            }
        }
        // SAFETY: `p` addresses the `extent` elements of the box on locale t (checked by
        // `direct`), another locale's part, which nobody writes during a bulk assignment (it
        // is bracketed by barriers); the destination elements are this locale's own, written by
        // this task only.
        unsafe { copy_box(dst, p.cast_const(), 0, src_strides, shape, dst_off, dst_strides) };
        return Ok(());
    }
    if contiguous(dst_strides, shape) {
        // SAFETY: the destination run is this locale's own part (in bounds, from its runs),
        // written by this task only.
        let out = unsafe { dst.store.row_mut(dst_off, len) };
        return src.store.get_strided(ctx, t, *src_off, shape, src_strides, out);
    }
    let mut first = 0;
    while first < shape[0] {
        let n0 = rows_per.min(shape[0] - first);
        let mut part = *shape;
        part[0] = n0;
        buf.clear();
        buf.resize(n0 * row, T::default());
        src.store.get_strided(ctx, t, src_off + first * src_strides[0], &part, src_strides, buf)?;
        crate::array::scatter_local(&dst.store, dst_off + first * dst_strides[0], dst_strides, &part, buf);
        first += n0;
    }
    Ok(())
}

/// Copies the box `shape` at offsets `src_off + sum(i_d src_strides[d])` from `src` into this
/// locale's part at `dst_off`/`dst_strides`, a row of the last dimension at a time (one copy per
/// row when both rows are contiguous).
///
/// # Safety
/// Every source offset of the box is readable through `src` and nobody writes it during the
/// copy; the destination elements are in bounds of this locale's part, do not overlap the
/// source, and are written by this task only.
unsafe fn copy_box<T: Elem, const D: usize, M: Distribution<D>>(
    dst: &Inner<T, D, M>,
    src: *const T,
    src_off: usize,
    src_strides: &[usize; D],
    shape: &[usize; D],
    dst_off: usize,
    dst_strides: &[usize; D],
) {
    let last = shape[D - 1];
    let (ss, ds) = (src_strides[D - 1], dst_strides[D - 1]);
    let mut rows = *shape;
    rows[D - 1] = 1;
    for_each_offset(src_off, src_strides, &rows, |r, o| {
        let mut to = dst_off;
        let mut rr = r;
        for d in (0..D - 1).rev() {
            to += (rr % shape[d]) * dst_strides[d];
            rr /= shape[d];
        }
        if ss == 1 && ds == 1 {
            // SAFETY: by the caller's contract (both rows in bounds, disjoint, unshared).
            unsafe { dst.store.row_mut(to, last).copy_from_slice(std::slice::from_raw_parts(src.add(o), last)) };
        } else {
            for j in 0..last {
                // SAFETY: as above, element by element.
                unsafe { dst.store.write(to + j * ds, src.add(o + j * ss).read()) };
            }
        }
    });
}

/// Whether a strided box is one contiguous row-major run.
fn contiguous<const D: usize>(strides: &[usize; D], shape: &[usize; D]) -> bool {
    let mut expect = 1usize;
    for d in (0..D).rev() {
        if shape[d] > 1 && strides[d] != expect {
            return false;
        }
        expect = expect.saturating_mul(shape[d]);
    }
    true
}
