//! Shifted reads in local order: where the positions `p + s` are stored, for the positions `p`
//! of a run of one part's local positions (a stencil's neighbour `A[i + s]` read by the owner
//! of `i`, over its own storage order).
//!
//! A BlockCyclic part stores its blocks one after the other, so a run of its local positions
//! is a run of whole blocks (cut at both ends): most of `p + s` lies in the same block (local
//! position `l + s`), and the offsets of a block that `s` moves out of it read the same offset
//! of every neighbour block, a progression at the block's stride in the neighbour's buffer
//! (one halo element per block edge for `s = +-1`).

use crate::math::div_ceil;

/// One strided copy of a shifted read: the `len` elements of part `part` at local positions
/// `src + k * src_step` go to the row positions `dst + k * dst_step` (`k < len`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShiftMove {
    /// The part (grid coordinate along the dimension) whose buffer is read.
    pub part: usize,
    /// The first local position read.
    pub src: usize,
    /// The step of the local positions read.
    pub src_step: usize,
    /// The first row position written.
    pub dst: usize,
    /// The step of the row positions written.
    pub dst_step: usize,
    /// The number of elements.
    pub len: usize,
}

/// [`DimMap::shifted_moves`](crate::DimMap::shifted_moves) of a BlockCyclic dimension with
/// block `b` over `parts` parts and `n` positions, for part `part`.
#[allow(clippy::too_many_arguments)]
pub(crate) fn block_cyclic_moves(
    n: usize,
    parts: usize,
    b: usize,
    part: usize,
    local_len: usize,
    start: usize,
    len: usize,
    shift: i64,
    out: &mut Vec<ShiftMove>,
) -> bool {
    out.clear();
    if len == 0 {
        return true;
    }
    if b == 0 || parts == 0 || part >= parts || start.checked_add(len).is_none_or(|e| e > local_len) {
        return false;
    }
    // Every shifted position must be a position of the dimension: check both ends (positions
    // grow with local positions within one part).
    let pos = |l: usize| (l / b) as i128 * (b as i128 * parts as i128) + part as i128 * b as i128 + (l % b) as i128;
    let (first, last) = (pos(start) + shift as i128, pos(start + len - 1) + shift as i128);
    if first < 0 || last >= n as i128 {
        return false;
    }
    // The offsets that stay in their block: one contiguous copy of `start + s ..` (the other
    // offsets read there too, in range of the buffer, and are overwritten below).
    let (lo, hi) = (start as i128 + shift as i128, (start + len) as i128 + shift as i128);
    let (clo, chi) = (lo.max(0), hi.min(local_len as i128));
    if chi > clo {
        out.push(ShiftMove {
            part,
            src: clo as usize,
            src_step: 1,
            dst: (clo - lo) as usize,
            dst_step: 1,
            len: (chi - clo) as usize,
        });
    }
    // Each offset `o` that `s` moves out of its block: the blocks `db = floor((o + s) / b)`
    // away, owned by part `part + db (mod parts)`, `floor((part + db) / parts)` local blocks
    // further on there, at offset `(o + s) mod b`.
    let bi = b as i128;
    for o in 0..b {
        let t = o as i128 + shift as i128;
        let db = t.div_euclid(bi);
        if db == 0 {
            continue;
        }
        // Local blocks k with start <= k*b + o < start + len.
        let k0 = div_ceil(start.saturating_sub(o) as u128, b as u128) as usize;
        let end = start + len;
        if k0 * b + o >= end {
            continue;
        }
        let cnt = (end - 1 - o) / b - k0 + 1;
        let owner = (part as i128 + db).rem_euclid(parts as i128) as usize;
        let kshift = (part as i128 + db).div_euclid(parts as i128);
        let src = (k0 as i128 + kshift) * bi + t.rem_euclid(bi);
        if src < 0 {
            return false;
        }
        out.push(ShiftMove {
            part: owner,
            src: src as usize,
            src_step: b,
            dst: k0 * b + o - start,
            dst_step: b,
            len: cnt,
        });
    }
    true
}
