//! [`coargsort`]: several key arrays, lexicographic.

use crate::column::SortColumn;
use crate::layout::Layout;
use crate::radix;
use atoll_array::DistArray;
use atoll_error::{invalid_arg, Error, Result};

/// The most key arrays [`coargsort`] takes.
pub const MAX_COARGSORT_KEYS: usize = 8;

/// The permutation that sorts the rows `(keys[0][i], keys[1][i], ...)` lexicographically, the
/// first array most significant, stably (equal rows in order of position), as **indices** of
/// the first key column (its index space, as [`argsort`](crate::argsort)): `a.take(&perm)`
/// reads the rows in order when `a` is that column's array. The key arrays may have different
/// key types (`i64`, `u64`, `f64`), distributions and domains, but the same length (row `i`
/// is position `i` of each); [`coargsort_positions`] gives positions `0..len`. The result is
/// Block-distributed over all locales. **Collective.**
///
/// Each locale packs its Block part of the rows into records of the keys' order-preserving
/// images and the position, then the distributed radix passes of [`argsort`](crate::argsort)
/// run over the last array's varying digits first, the first array's last.
///
/// ```
/// use atoll_array::{dist, DistArray};
/// use atoll_ops::{coargsort, SortColumn};
/// use atoll_runtime::{run, Config};
/// run(Config::local(2), |ctx| {
///     let g = [1u64, 0, 1, 0, 1];
///     let x = [0.5, 2.0, -1.0, 2.0, 0.5];
///     let a = DistArray::from_fn(ctx, dist::block(ctx, [5])?, |[i]| g[i as usize])?;
///     let b = DistArray::from_fn(ctx, dist::cyclic(ctx, [5])?, |[i]| x[i as usize])?;
///     let perm = coargsort(&[&a as &dyn SortColumn, &b])?;
///     if let Some(p) = perm.gather(0)? {
///         assert_eq!(p, vec![1, 3, 2, 0, 4]);
///     }
///     Ok(())
/// }).unwrap();
/// ```
///
/// # Collective
/// Every locale calls it with its handles of the same arrays, in the same order.
///
/// # Errors
/// On every locale: [`Error::InvalidArgument`] for no key array or more than
/// [`MAX_COARGSORT_KEYS`]; [`Error::ShapeMismatch`] naming the lengths when two arrays differ
/// in length; [`Error::OutOfMemory`] when the buffers (about `(k + 1) * 32 * len / locales`
/// bytes per locale for `k` arrays) do not fit a locale's budget.
pub fn coargsort(keys: &[&dyn SortColumn]) -> Result<DistArray<i64, 1>> {
    let mut perm = coargsort_positions(keys)?;
    if let Some(first) = keys.first() {
        crate::indices::positions_to_indices(&mut perm, &first.index_range())?;
    }
    Ok(perm)
}

/// [`coargsort`] as **positions** `0..len` (row numbers) instead of indices of the first
/// column. **Collective.**
///
/// # Errors
/// As [`coargsort`].
pub fn coargsort_positions(keys: &[&dyn SortColumn]) -> Result<DistArray<i64, 1>> {
    let Some(first) = keys.first() else {
        return Err(invalid_arg!("coargsort: no key array"));
    };
    if keys.len() > MAX_COARGSORT_KEYS {
        return Err(invalid_arg!("coargsort: {} key arrays, at most {MAX_COARGSORT_KEYS} are supported", keys.len()));
    }
    let n = first.len();
    if let Some((j, k)) = keys.iter().enumerate().find(|(_, k)| k.len() != n) {
        return Err(Error::ShapeMismatch {
            context: "coargsort".into(),
            left: format!("key array 0 ({}) of length {n}", first.key_name()),
            right: format!("key array {j} ({}) of length {}", k.key_name(), k.len()),
        });
    }
    macro_rules! by_width {
        ($($k:literal => $w:literal),*) => {
            match keys.len() {
                $($k => with_width::<$w>(keys, n),)*
                _ => unreachable!("the number of keys was checked"),
            }
        };
    }
    by_width!(1 => 2, 2 => 3, 3 => 4, 4 => 5, 5 => 6, 6 => 7, 7 => 8, 8 => 9)
}

/// [`coargsort`] with records of `W` words (`W - 1` keys and the position).
fn with_width<const W: usize>(keys: &[&dyn SortColumn], n: usize) -> Result<DistArray<i64, 1>> {
    let ctx = keys[0].ctx();
    crate::profile::start();
    let layout = Layout::new(ctx, n)?;
    let m = layout.len_here();
    let nkeys = W - 1;
    let reservation = ctx.reserve("atoll_ops::coargsort (rows)", (m * W * 8) as u64)?;
    let mut rows = vec![[0u64; W]; m];
    let _held = reservation.commit();
    {
        let flat: &mut [u64] = atoll_runtime::bytemuck::cast_slice_mut(&mut rows);
        for (c, k) in keys.iter().enumerate() {
            k.write_images(n, flat, W, c)?;
        }
    }
    let lo = layout.lo() as u64;
    {
        let flat: &mut [u64] = atoll_runtime::bytemuck::cast_slice_mut(&mut rows);
        let w = crate::raw::ChunksStrided::new(flat, W);
        w.check(m, nkeys)?;
        ctx.forall_chunks(0..m, |r| {
            for i in r {
                // SAFETY: checked above; each i is written by one task.
                unsafe { w.write(i, nkeys, lo + i as u64) };
            }
        });
    }
    crate::profile::mark(|| "rows".into());
    let src = |i: usize| rows[i];
    let varying = radix::varying_bits(ctx, m, &src)?;
    crate::profile::mark(|| "bounds".into());
    if let Some(cat) = Concat::new(&varying[..nkeys]) {
        // The keys' varying bits fit in one word: sort that word as argsort does (one-word
        // records when the position fits beside it, else pairs), not W-word records.
        let image = |i: usize| cat.image(&rows[i]);
        let out = crate::argsort::argsort_images(
            ctx,
            &layout,
            n,
            "atoll_ops::coargsort",
            &image,
            cat.image(&varying[..nkeys]),
            None,
        )?;
        crate::profile::report("coargsort", ctx.id());
        return Ok(out);
    }
    let passes = radix::passes(ctx, n, &varying[..nkeys]);
    let mut out = DistArray::<i64, 1>::zeros_lazy(ctx, layout.dist.clone())?;
    crate::profile::mark(|| "out_alloc".into());
    radix::sort_records(
        ctx,
        &layout,
        "atoll_ops::coargsort",
        &src,
        &passes,
        &mut out,
        |r: &[u64; W]| r[nkeys] as i64,
        None,
    )?;
    crate::profile::report("coargsort", ctx.id());
    Ok(out)
}

/// The varying bits of several key words concatenated into one word, first key most
/// significant, when they fit in 64 bits: comparing the concatenations compares the rows
/// lexicographically, since every other bit is the same in every row.
#[derive(Clone, Copy)]
struct Concat {
    /// Per key word (the first `keys`): its lowest varying bit and the width of its span.
    spans: [(u32, u32); MAX_COARGSORT_KEYS],
    keys: usize,
}

impl Concat {
    /// `None` when the spans of `varying` (one mask per key word) need more than 64 bits.
    fn new(varying: &[u64]) -> Option<Concat> {
        let mut spans = [(0u32, 0u32); MAX_COARGSORT_KEYS];
        let mut total = 0u32;
        for (s, &v) in spans.iter_mut().zip(varying) {
            *s = if v == 0 { (0, 0) } else { (v.trailing_zeros(), 64 - v.leading_zeros() - v.trailing_zeros()) };
            total += s.1;
        }
        (varying.len() <= MAX_COARGSORT_KEYS && total <= 64).then_some(Concat { spans, keys: varying.len() })
    }

    /// The concatenated span bits of the key words `words[..keys]`.
    #[inline(always)]
    fn image(&self, words: &[u64]) -> u64 {
        let mut acc = 0u64;
        for (&(lo, span), &w) in self.spans[..self.keys].iter().zip(words) {
            if span > 0 {
                acc = shl(acc, span) | ((w >> lo) & low_mask(span));
            }
        }
        acc
    }
}

/// `x << s`, 0 for `s == 64`.
#[inline(always)]
fn shl(x: u64, s: u32) -> u64 {
    x.checked_shl(s).unwrap_or(0)
}

/// The low `span` bits set (`1..=64`).
#[inline(always)]
fn low_mask(span: u32) -> u64 {
    u64::MAX >> (64 - span)
}
