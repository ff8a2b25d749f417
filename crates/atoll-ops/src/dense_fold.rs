//! The per-task fold of [`dense_aggregate`](crate::dense_aggregate): rows folded into a table
//! indexed by `key - lo` in one loop, each row's key checked against the table (one compare
//! and a branch that is not taken), the table moved or grown out of the loop when a key falls
//! outside it. (Measured on a 2-vCPU EPYC guest: a separate min/max or OR pass over
//! each block of 64-1024 keys before an unchecked fold is 20-30% *slower* than this fused
//! loop, since the two passes no longer overlap the key stream with the table's misses.)
//!
//! Two layouts (structure of arrays, so that a fold touches only what it needs):
//! - [`Table`] with `rows` (rows per key) and one accumulator per key: every fold, and
//!   `unique`/`size` (no accumulator);
//! - the **uncounted `f64` sum** ([`fold_sum_f64`]): one `f64` per key and nothing else
//!   (`GroupBy.sum` needs which keys have rows, not how many). The sums start at `-0.0` and
//!   every row adds `v + 0.0` (NaN rows `+0.0`), which is never `-0.0`: a sum is `-0.0`
//!   exactly when its key has no rows (`-0.0 + x == x`, `-0.0 + 0.0 == +0.0`, and `a + b`
//!   is `-0.0` only when both are), and the sums are those of the values (`-0.0` and `+0.0`
//!   add alike to anything but `-0.0`; a group's sum of `+-0.0` values is `+0.0`, as the sort
//!   path's).

/// The first table a task allocates (slots) at least.
const FIRST_TABLE: usize = 1 << 12;

/// `-0.0`, the empty sum of the uncounted `f64` sum.
pub(crate) const NEG_ZERO: f64 = -0.0;

/// Whether an uncounted sum has rows.
#[inline]
pub(crate) fn touched(x: &f64) -> bool {
    x.to_bits() != NEG_ZERO.to_bits()
}

/// Where a table's keys `lo..lo + cap` go when they must hold `kmin..=kmax` (the keys seen so
/// far and the new block's): `None` when those span more than `limit`. The table keeps its
/// size while the keys fill at most 3/4 of it (it only moves), else it grows to at least
/// twice its size and 3/2 of the keys' span, at most `limit`: O(log) moves for keys in any
/// order. The keys are centred (room on both sides).
fn placement(cap: usize, kmin: i64, kmax: i64, limit: usize) -> Option<(i64, usize)> {
    let span = kmax as i128 - kmin as i128 + 1;
    if span > limit as i128 {
        return None;
    }
    let cap = cap as i128;
    let cap2 = if 4 * span <= 3 * cap {
        cap
    } else {
        (span + span / 2).max(2 * cap).max(FIRST_TABLE as i128).min(limit as i128)
    };
    // The table's keys lo2..lo2 + cap2 stay inside i64: a key beyond i64::MAX would wrap to
    // i64::MIN's slot, where the folds' `key - lo` would find another key's counter.
    let lo2 = (kmin as i128 - (cap2 - span) / 2).max(i64::MIN as i128).min(i64::MAX as i128 - cap2 + 1);
    Some((lo2 as i64, cap2 as usize))
}

/// A task's table over keys `lo..lo + rows.len()` (or `acc.len()` without rows).
pub(crate) struct Table<A> {
    pub(crate) lo: i64,
    /// Rows per key (empty for the uncounted sum).
    pub(crate) rows: Vec<i64>,
    /// One accumulator per key (empty without values).
    pub(crate) acc: Vec<A>,
    /// The smallest and largest key read (known at the end of the fold).
    pub(crate) seen: Option<(i64, i64)>,
}

impl<A: Copy> Table<A> {
    fn new() -> Self {
        Table { lo: 0, rows: Vec::new(), acc: Vec::new(), seen: None }
    }

    fn cap(&self) -> usize {
        self.rows.len().max(self.acc.len())
    }

    /// The smallest and largest key of the slots that `touched` says have rows.
    fn span(&self, touched: impl Fn(usize) -> bool) -> Option<(i64, i64)> {
        let first = (0..self.cap()).find(|&j| touched(j))?;
        let last = (0..self.cap()).rev().find(|&j| touched(j))?;
        Some((self.lo.wrapping_add(first as i64), self.lo.wrapping_add(last as i64)))
    }

    /// Makes the table hold `k` (with the keys seen so far, `seen`); `false` when they would
    /// span more than `limit`. `counted`/`valued`: which of `rows`/`acc` the table has.
    fn cover(&mut self, k: i64, seen: Option<(i64, i64)>, limit: usize, init: A, counted: bool, valued: bool) -> bool {
        let (a, b) = seen.map_or((k, k), |(a, b)| (a.min(k), b.max(k)));
        let Some((lo2, cap2)) = placement(self.cap(), a, b, limit) else { return false };
        fn moved<X: Copy>(old: &[X], lo: i64, lo2: i64, seen: Option<(i64, i64)>, cap2: usize, fill: X) -> Vec<X> {
            let mut v = vec![fill; cap2];
            if let Some((a, b)) = seen {
                let (from, to, at) =
                    (a.wrapping_sub(lo) as usize, b.wrapping_sub(lo) as usize + 1, a.wrapping_sub(lo2) as usize);
                v[at..at + (to - from)].copy_from_slice(&old[from..to]);
            }
            v
        }
        if counted {
            self.rows = moved(&self.rows, self.lo, lo2, seen, cap2, 0);
        }
        if valued {
            self.acc = moved(&self.acc, self.lo, lo2, seen, cap2, init);
        }
        self.lo = lo2;
        true
    }

    /// The slots of the keys seen, as offsets into the table.
    pub(crate) fn seen_slots(&self) -> Option<std::ops::Range<usize>> {
        self.seen.map(|(a, b)| a.wrapping_sub(self.lo) as usize..b.wrapping_sub(self.lo) as usize + 1)
    }
}

/// Folds the rows `r` with a per-row `step(slot, row)` into a table with rows (`counted`,
/// which the caller must ask for unless `valued`) and/or accumulators (`valued`); `None`
/// when the keys span more than `limit`.
pub(crate) fn fold_table<A: Copy>(
    ks: &[i64],
    r: std::ops::Range<usize>,
    limit: usize,
    init: A,
    counted: bool,
    valued: bool,
    mut step: impl FnMut(&mut A, usize),
) -> Option<Table<A>> {
    debug_assert!(counted);
    let mut t = Table::new();
    let mut i = r.start;
    while i < r.end {
        let lo = t.lo;
        if valued {
            let (rows, acc) = (&mut t.rows[..], &mut t.acc[..]);
            while i < r.end {
                let j = ks[i].wrapping_sub(lo) as usize;
                let (Some(n), Some(a)) = (rows.get_mut(j), acc.get_mut(j)) else { break };
                *n += 1;
                step(a, i);
                i += 1;
            }
        } else {
            let rows = &mut t.rows[..];
            while i < r.end {
                let Some(n) = rows.get_mut(ks[i].wrapping_sub(lo) as usize) else { break };
                *n += 1;
                i += 1;
            }
        }
        if i < r.end {
            let seen = t.span(|j| t.rows[j] > 0);
            if !t.cover(ks[i], seen, limit, init, true, valued) {
                return None;
            }
        }
    }
    t.seen = t.span(|j| t.rows[j] > 0);
    Some(t)
}

/// The uncounted `f64` sum of the rows `r` (module doc): a table without `rows`, a key
/// having rows when its sum is not `-0.0`; `None` when the keys span more than `limit`.
pub(crate) fn fold_sum_f64(ks: &[i64], vs: &[f64], r: std::ops::Range<usize>, limit: usize) -> Option<Table<f64>> {
    let mut t = Table::new();
    let mut i = r.start;
    while i < r.end {
        i = scatter_add(&mut t.acc, t.lo, ks, vs, i..r.end);
        if i < r.end {
            let seen = t.span(|j| touched(&t.acc[j]));
            if !t.cover(ks[i], seen, limit, NEG_ZERO, false, true) {
                return None;
            }
        }
    }
    t.seen = t.span(|j| touched(&t.acc[j]));
    Some(t)
}

/// `acc[k - lo] += v + 0.0` (NaN rows adding `+0.0`: a select, not a branch) for the rows
/// `r` up to the first whose key lies outside `lo..lo + acc.len()`; returns that row (or
/// `r.end`).
#[inline]
fn scatter_add(acc: &mut [f64], lo: i64, ks: &[i64], vs: &[f64], r: std::ops::Range<usize>) -> usize {
    let (ks, vs) = (&ks[r.clone()], &vs[r.clone()]);
    for (i, (&k, &v)) in ks.iter().zip(vs).enumerate() {
        let Some(a) = acc.get_mut(k.wrapping_sub(lo) as usize) else { return r.start + i };
        let x = v + 0.0;
        *a += if x.is_nan() { 0.0 } else { x };
    }
    r.end
}

/// A task's presence bitmap for [`dense_unique`](crate::dense_unique): bit `j` of `words`
/// says whether key `lo + j` has a row. `lo` is a multiple of 64, so the bitmap moves and
/// grows by whole words. (One bit per key: 128 KiB for 2^20 keys stays in a core's L2, where
/// a table of row counts, 8 MiB, is read and written at random in L3.)
pub(crate) struct Presence {
    pub(crate) lo: i64,
    pub(crate) words: Vec<u64>,
    /// The smallest and largest key read (known at the end of the fold).
    pub(crate) seen: Option<(i64, i64)>,
}

impl Presence {
    fn cap(&self) -> usize {
        self.words.len() * 64
    }

    /// The smallest and largest key with a row.
    fn span(&self) -> Option<(i64, i64)> {
        let first = self.words.iter().position(|&w| w != 0)?;
        let last = self.words.iter().rposition(|&w| w != 0)?;
        let a = first * 64 + self.words[first].trailing_zeros() as usize;
        let b = last * 64 + 63 - self.words[last].leading_zeros() as usize;
        Some((self.lo.wrapping_add(a as i64), self.lo.wrapping_add(b as i64)))
    }

    /// Makes the bitmap hold `k` (with the keys seen so far, `seen`); `false` when they would
    /// span more than `limit`.
    fn cover(&mut self, k: i64, seen: Option<(i64, i64)>, limit: usize) -> bool {
        let (a, b) = seen.map_or((k, k), |(a, b)| (a.min(k), b.max(k)));
        let Some((lo2, cap2)) = placement(self.cap(), a, b, limit) else { return false };
        // Word-aligned: `lo` down to a multiple of 64 (i64::MIN is one), the end up.
        let lo2 = (lo2 as i128).div_euclid(64) * 64;
        let need = (b as i128 - lo2 + 1).max(cap2 as i128);
        // Whole words up to i64::MAX at most (2^63 - lo2 is a multiple of 64): no bit stands
        // for a key past it (see `placement`).
        let words2 = ((need + 63) / 64).min(((i64::MAX as i128 + 1) - lo2) / 64) as usize;
        let mut w = vec![0u64; words2];
        if let Some((sa, sb)) = seen {
            let (from, to) = ((sa.wrapping_sub(self.lo) as usize) / 64, (sb.wrapping_sub(self.lo) as usize) / 64 + 1);
            // The seen keys lie in the new bitmap, so this word index is not negative.
            let at = ((self.lo as i128 - lo2) / 64 + from as i128) as usize;
            w[at..at + (to - from)].copy_from_slice(&self.words[from..to]);
        }
        self.words = w;
        self.lo = lo2 as i64;
        true
    }

    /// Calls `f(key)` for every key with a row, in increasing order.
    pub(crate) fn for_each_key(&self, mut f: impl FnMut(i64)) {
        for (i, &w) in self.words.iter().enumerate() {
            let mut w = w;
            while w != 0 {
                let j = i * 64 + w.trailing_zeros() as usize;
                f(self.lo.wrapping_add(j as i64));
                w &= w - 1;
            }
        }
    }
}

/// Marks the keys of the rows `r` in a presence bitmap (no counts); `None` when they span
/// more than `limit`.
pub(crate) fn fold_presence(ks: &[i64], r: std::ops::Range<usize>, limit: usize) -> Option<Presence> {
    let mut t = Presence { lo: 0, words: Vec::new(), seen: None };
    let mut i = r.start;
    while i < r.end {
        let (lo, words) = (t.lo, &mut t.words[..]);
        while i < r.end {
            let j = ks[i].wrapping_sub(lo) as u64;
            let Some(w) = words.get_mut((j / 64) as usize) else { break };
            *w |= 1u64 << (j % 64);
            i += 1;
        }
        if i < r.end {
            let seen = t.span();
            if !t.cover(ks[i], seen, limit) {
                return None;
            }
        }
    }
    t.seen = t.span();
    Some(t)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn placement_grows_and_centres() {
        let (lo, cap) = placement(0, 10, 10, 1 << 20).unwrap();
        assert!(lo <= 10 && 10 < lo + cap as i64 && cap >= FIRST_TABLE);
        assert!(placement(0, 0, 99, 100).is_some());
        assert!(placement(0, 0, 100, 100).is_none());
        assert!(placement(0, i64::MIN, i64::MAX, usize::MAX).is_none());
        let (lo, cap) = placement(FIRST_TABLE, i64::MAX - 5, i64::MAX, 1 << 20).unwrap();
        assert!(lo <= i64::MAX - 5 && cap >= 6);
    }

    #[test]
    fn presence_of_keys_at_the_ends_of_the_range() {
        let ks = [i64::MAX, i64::MIN, 0, i64::MAX];
        for r in [0..4, 0..1, 1..4, 2..4, 1..3, 3..4] {
            // Keys spanning the whole i64 range are too wide for a bitmap: no table, no panic.
            let t = fold_presence(&ks, r.clone(), 1 << 16);
            let span = ks[r.clone()].iter().min().zip(ks[r.clone()].iter().max());
            match (t, span) {
                (Some(t), Some((&a, &b))) => assert_eq!(t.seen, Some((a, b)), "{r:?}"),
                (None, Some((&a, &b))) => assert!(b as i128 - a as i128 >= 1 << 16, "{r:?}"),
                (t, s) => panic!("{r:?}: {:?} {s:?}", t.map(|t| t.seen)),
            }
        }
        let near = [i64::MAX - 3, i64::MAX, i64::MAX - 1000, i64::MIN + 5, i64::MIN];
        assert!(fold_presence(&near, 0..3, 1 << 16).is_some());
        assert!(fold_presence(&near, 3..5, 1 << 16).is_some());
    }

    #[test]
    fn sums_tell_the_keys_with_rows() {
        // NaN and -0.0 values still mark their keys; key 4 (no rows) stays -0.0.
        let ks = [3i64, 5, 3, 9, 9000, -9000];
        let vs = [1.0, f64::NAN, 2.0, -0.0, -0.0, 0.5];
        let t = fold_sum_f64(&ks, &vs, 0..6, 1 << 16).unwrap();
        assert_eq!(t.seen, Some((-9000, 9000)));
        let with_rows: Vec<i64> = (0..t.acc.len()).filter(|&j| touched(&t.acc[j])).map(|j| t.lo + j as i64).collect();
        assert_eq!(with_rows, vec![-9000, 3, 5, 9, 9000]);
        assert_eq!(t.acc[(3 - t.lo) as usize], 3.0);
        assert_eq!(t.acc[(9 - t.lo) as usize].to_bits(), 0.0f64.to_bits());
        assert!(fold_sum_f64(&ks, &vs, 0..6, 18_000).is_none());
    }

    #[test]
    fn presence_grows_both_ways_and_lists_its_keys() {
        // Keys that move the bitmap down, then up past its end, then to the ends of i64.
        let ks = [100i64, 99, -5000, 7, 70_000, -5000, 64, 63];
        let t = fold_presence(&ks, 0..ks.len(), 1 << 20).unwrap();
        assert_eq!(t.lo % 64, 0);
        assert_eq!(t.seen, Some((-5000, 70_000)));
        let mut got = Vec::new();
        t.for_each_key(|k| got.push(k));
        let mut want: Vec<i64> = ks.to_vec();
        want.sort_unstable();
        want.dedup();
        assert_eq!(got, want);
        assert!(fold_presence(&ks, 0..ks.len(), 75_000).is_none());
        for ks in [[i64::MAX, i64::MAX - 70], [i64::MIN + 3, i64::MIN]] {
            let t = fold_presence(&ks, 0..2, 100).unwrap();
            let mut got = Vec::new();
            t.for_each_key(|k| got.push(k));
            assert_eq!(got, vec![ks[0].min(ks[1]), ks[0].max(ks[1])]);
        }
        assert!(fold_presence(&[], 0..0, 1).unwrap().seen.is_none());
    }
}
