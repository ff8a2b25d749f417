//! Moving strings between layouts and reading strings by index: the operations that
//! communicate (each one `alltoallv` of lengths and one of bytes).

use crate::layout::owner;
use crate::local::LocalStrings;
use atoll_error::{Error, Result};
use atoll_runtime::Ctx;

/// This locale's block of the strings laid out by `from` (locale `l` holds
/// `from[l]..from[l + 1]`), moved to the layout `to`: returns this locale's part of `to`.
/// **Collective** (two `alltoallv`).
pub(crate) fn redistribute(ctx: &Ctx, local: &LocalStrings, from: &[usize], to: &[usize]) -> Result<LocalStrings> {
    let p = ctx.num_locales();
    let me = ctx.id();
    let (lo, hi) = (from[me], from[me + 1]);
    if local.len() != hi - lo {
        return Err(Error::ShapeMismatch {
            context: "strings redistribute".into(),
            left: format!("{} local strings", local.len()),
            right: format!("{} in the layout", hi - lo),
        });
    }
    let mut lens = Vec::with_capacity(p);
    let mut bytes = Vec::with_capacity(p);
    let mut keep = 0..0;
    for d in 0..p {
        let (a, b) = (lo.max(to[d]), hi.min(to[d + 1]));
        let r = if a < b { a - lo..b - lo } else { 0..0 };
        if d == me {
            // This locale's own strings stay: no trip through the exchange.
            keep = r;
            lens.push(Vec::new());
            bytes.push(Vec::new());
            continue;
        }
        lens.push(local.lengths(r.clone()));
        bytes.push(local.range_bytes(r).to_vec());
    }
    let lens = ctx.alltoallv(lens)?;
    let bytes = ctx.alltoallv(bytes)?;
    // In locale order: the strings from locales before this one, its own, then the others.
    let mut parts = Vec::with_capacity(p);
    for (d, (l, b)) in lens.into_iter().zip(bytes).enumerate() {
        if d == me {
            parts.push(local.sub(keep.clone()));
        } else if !l.is_empty() {
            parts.push(LocalStrings::from_lengths(b, &l)?);
        }
    }
    Ok(LocalStrings::concat(parts))
}

/// The strings at global indices `idx` (each `< n`) of the strings laid out by `bounds`, in
/// the order of `idx`: requests go to the owners, which answer with lengths and bytes.
/// **Collective** (three `alltoallv`).
///
/// # Errors
/// [`Error::IndexOutOfBounds`] on every locale when an index is out of range (nothing moves).
pub(crate) fn take_indices(ctx: &Ctx, local: &LocalStrings, bounds: &[usize], idx: &[u64]) -> Result<LocalStrings> {
    let p = ctx.num_locales();
    let me = ctx.id();
    let n = bounds[p];
    let mut req: Vec<Vec<u64>> = vec![Vec::new(); p];
    let mut dest = Vec::with_capacity(idx.len());
    let bad = idx.iter().find(|&&i| i as usize >= n);
    let check = match bad {
        Some(&i) => Err(Error::IndexOutOfBounds { index: i.to_string(), bounds: format!("0..{n} (strings)") }),
        None => Ok(()),
    };
    ctx.agree(check)?;
    for &i in idx {
        let d = owner(bounds, i as usize);
        dest.push(d as u32);
        req[d].push(i);
    }
    let got = ctx.alltoallv(req)?;
    let mut lens = Vec::with_capacity(p);
    let mut bytes = Vec::with_capacity(p);
    for want in &got {
        let mut l = Vec::with_capacity(want.len());
        let mut b = Vec::new();
        for &i in want {
            let s = local.get(i as usize - bounds[me]);
            l.push(s.len() as u64);
            b.extend_from_slice(s);
        }
        lens.push(l);
        bytes.push(b);
    }
    let lens = ctx.alltoallv(lens)?;
    let bytes = ctx.alltoallv(bytes)?;
    // Reassemble in the order of idx: the k-th request to d is the k-th answer from d.
    let mut next = vec![(0usize, 0usize); p];
    let mut out = LocalStrings::with_capacity(idx.len(), bytes.iter().map(Vec::len).sum());
    for &d in &dest {
        let d = d as usize;
        let (k, o) = next[d];
        let l = lens[d][k] as usize;
        out.push_bytes_unchecked_utf8(&bytes[d][o..o + l]);
        next[d] = (k + 1, o + l);
    }
    Ok(out)
}
