//! Shifted followers read in the leader's storage order: a 1-D view of the leader's
//! distribution whose positions are the leader's shifted by a constant `s` (a stencil's
//! `A[i - 1]`, `A[i + 1]`). For a flat segment of a local-order plan (`zip/local_order.rs`)
//! its row is assembled from the strided copies that [`DimMap::shifted_moves`] describes: on
//! BlockCyclic data one copy of the locale's own storage at `l + s` and, for each block offset
//! that `s` moves out of its block, one progression at the block's stride in a neighbour's
//! buffer (the halo: one element per block edge for `s = +-1`).
//!
//! Remote progressions travel as the aggregation mode says, as in `follow/mod.rs`: `off` one get
//! per element, `static` one strided get per progression, `auto` by the calibrated threshold;
//! read in place where the owner's memory is addressable, counted as the transfers they
//! replace, so counts are the same on every backend.

use crate::array::Inner;
use crate::elem::Elem;
use crate::follow::{Follow, FollowBuf};
use crate::zip::strided_row::StridedRow;
use crate::zip::{Plan, Seg};
use atoll_dist::{DimMap, Distribution, Domain, ShiftMove};
use atoll_error::{invalid_arg, Result};

/// The bytes of one piece of the row's copy of the own storage (see `fetch_shifted`).
const COPY_PIECE: usize = 2048;

/// `Some(s)` when a follower over `dom` of an array distributed by `dist` reads, for the
/// leader's element at position `p` of the dimension, position `p + s`: a 1-D view with the
/// leader's distribution, the dimension's stride and the leader's length, over a map that
/// describes shifted reads ([`DimMap::shifted_moves`]).
pub(crate) fn shift_of<M: Distribution<D> + 'static, const D: usize>(
    plan: &Plan<'_, D>,
    dist: &M,
    dom: &Domain<D>,
) -> Option<i64> {
    if D != 1 || plan.leader_dist::<M>() != Some(dist) {
        return None;
    }
    let map = &dist.dim_maps()[0];
    if !map.shifted_moves(0, 0, 0, 0, &mut Vec::new()) {
        return None;
    }
    let (range, f, l) = (map.range(), &dom.dims()[0], &plan.dom.dims()[0]);
    if f.len() != l.len()
        || f.is_empty()
        || (f.len() > 1 && (f.stride() != range.stride() || l.stride() != range.stride()))
    {
        return None;
    }
    let (pf, pl) = (range.position(f.lo())?, range.position(l.lo())?);
    Some(i64::try_from(pf).ok()? - i64::try_from(pl).ok()?)
}

/// The row of a shifted follower for the flat segment `seg` (the leader's local offsets
/// `seg.off..seg.off + seg.len`), assembled in `buf.row`.
pub(crate) fn fetch_shifted<'s, T: Elem, const D: usize, M: Distribution<D>>(
    arr: &'s Inner<T, D, M>,
    shift: i64,
    seg: &Seg<D>,
    follow: &Follow,
    buf: &'s mut FollowBuf<T>,
) -> Result<StridedRow<'s, T>> {
    buf.forget();
    let (ctx, dist, store) = (&arr.ctx, &arr.dist, &arr.store);
    let grid = dist.grid();
    let part = grid.coords(ctx.id())?[0];
    let FollowBuf { row, packed, moves, .. } = buf;
    if D != 1
        || !seg.flat
        || seg.off_step != 1
        || !dist.dim_maps()[0].shifted_moves(part, seg.off, seg.len, shift, moves)
    {
        return Err(invalid_arg!(
            "a shifted read by {shift} of local offsets {}..{} leaves the array",
            seg.off,
            seg.off + seg.len
        ));
    }
    let local = store.local();
    // The first copy is of the own storage (the offsets that stay in their block): copied
    // first, then only what it leaves uncovered is zero-filled before the other moves land.
    // It is copied in pieces of COPY_PIECE bytes: glibc copies larger blocks with `rep movsb`,
    // whose speed on a 2-vCPU AMD EPYC guest differed between processes by 2x or more (one
    // whole-row copy: jacobi1D BlockCyclic 0.92 ms in one process, 2.2 ms in a later one;
    // pieces: 1.1 ms in every run; the cause was not pinned down, docs/BENCHMARKS.md).
    row.clear();
    row.reserve(seg.len);
    let first_own =
        moves.first().filter(|m| m.part == part && m.src_step == 1 && m.dst_step == 1 && m.dst + m.len <= seg.len);
    let skip = match first_own {
        Some(m) => {
            row.resize(m.dst, T::default());
            for c in local
                .get(m.src..m.src + m.len)
                .ok_or_else(|| out_of_part(m))?
                .chunks((COPY_PIECE / std::mem::size_of::<T>().max(1)).max(1))
            {
                row.extend_from_slice(c);
            }
            row.resize(seg.len, T::default());
            1
        }
        None => {
            row.resize(seg.len, T::default());
            0
        }
    };
    let (mut remote, mut strided, mut element) = (0usize, 0u64, 0u64);
    for m in moves.iter().skip(skip) {
        if m.len == 0 {
            continue;
        }
        if m.len > 1 && (m.src_step == 0 || m.dst_step == 0) {
            return Err(out_of_part(m));
        }
        let last_dst = m.dst + (m.len - 1) * m.dst_step;
        if last_dst >= seg.len {
            return Err(out_of_part(m));
        }
        if m.part == part {
            let src = local.get(m.src..=m.src + (m.len - 1) * m.src_step).ok_or_else(|| out_of_part(m))?;
            for (d, v) in row[m.dst..].iter_mut().step_by(m.dst_step.max(1)).zip(src.iter().step_by(m.src_step.max(1)))
            {
                *d = *v;
            }
            continue;
        }
        let mut coords = [0usize; D];
        coords[0] = m.part;
        let t = grid.target(coords)?;
        let extent = (m.len - 1) * m.src_step + 1;
        let threshold = follow.threshold(arr, t);
        let aggregated = m.len >= threshold && m.len >= 2;
        remote += m.len;
        if let Some(base) = store.direct(ctx, t, m.src, extent)? {
            if aggregated {
                store.count_direct(ctx, t, m.src, m.len, true);
                strided += 1;
            } else {
                for k in 0..m.len {
                    store.count_direct(ctx, t, m.src + k * m.src_step, 1, false);
                }
                element += m.len as u64;
            }
            for (k, d) in row[m.dst..].iter_mut().step_by(m.dst_step.max(1)).take(m.len).enumerate() {
                // SAFETY: `base` addresses `t`'s part from local offset `m.src` for `extent`
                // elements (checked registered by `direct_ptr`), and `k * m.src_step <
                // extent` (`k < m.len`); followers are read-only during the loop, whose leading
                // barrier orders these loads after earlier writes (the PGAS contract of
                // `storage/mod.rs`).
                *d = unsafe { base.cast_const().add(k * m.src_step).read() };
            }
        } else if aggregated {
            packed.clear();
            packed.resize(m.len, T::default());
            store.get_strided(ctx, t, m.src, &[m.len], &[m.src_step], packed)?;
            strided += 1;
            for (d, v) in row[m.dst..].iter_mut().step_by(m.dst_step.max(1)).zip(packed.iter()) {
                *d = *v;
            }
        } else {
            for k in 0..m.len {
                let d = m.dst + k * m.dst_step;
                store.get(ctx, t, m.src + k * m.src_step, &mut row[d..d + 1])?;
            }
            element += m.len as u64;
        }
    }
    if remote > 0 {
        follow.record(remote, strided, element);
    }
    Ok(StridedRow::from_slice(&row[..seg.len]))
}

fn out_of_part(m: &ShiftMove) -> atoll_error::Error {
    invalid_arg!(
        "a shifted read of {} elements at local offset {} (step {}) of part {} leaves its buffer",
        m.len,
        m.src,
        m.src_step,
        m.part
    )
}
