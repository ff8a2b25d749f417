//! Sorting strings: a distributed sample sort on the bytes, stable (ties in index order).
//!
//! 1. Each locale draws `32 * locales` evenly spaced strings of its block as samples (with
//!    their indices and secondary keys); the samples are allgathered and every locale picks
//!    the same `locales - 1` splitters from their sorted list. Keys `(bytes, secondary,
//!    index)` are unique, so the splitters balance the parts even when every string is equal.
//! 2. Each locale sends every string to the locale whose splitter range holds its key
//!    (three `alltoallv`: indices and secondary keys, lengths, bytes).
//! 3. Each locale sorts what it received: records `(first 8 bytes big-endian, position)` are
//!    bucketed by their first two bytes (a counting pass and a scatter), and the locale's
//!    tasks sort the buckets, comparing the 8-byte prefixes first and the whole strings only
//!    when those are equal.
//!
//! After it, locale `l` holds the `l`-th part of the sorted order; `argsort` moves the indices
//! to the Block layout (one more `alltoallv`), group-by and unique work on the parts.
//!
//! **Memory.** The sort's temporaries are reserved in the locales' budgets before they are
//! allocated, in two collective steps: the send buffers (before step 2), then, once each
//! locale knows what it will receive (one small `alltoallv` of counts), the received strings
//! and the local sort's records (held by the [`SortedPart`] until it is dropped). A sort that
//! does not fit gives [`Error::OutOfMemory`](atoll_error::Error::OutOfMemory) on every locale
//! before that step allocates anything.

use crate::local::LocalStrings;
use crate::strings::DistStrings;
use atoll_array::DistArray;
use atoll_error::Result;
use atoll_runtime::{Commitment, Ctx, Pod};
use atoll_util::sync::lock;
use std::cmp::Ordering;
use std::sync::Mutex;

/// This locale's part of the sorted order.
pub(crate) struct SortedPart {
    /// The strings it received, in arrival order.
    pub(crate) strings: LocalStrings,
    /// Their global indices, in arrival order.
    pub(crate) idx: Vec<u64>,
    /// Their secondary keys (order-preserving images), in arrival order, when sorting by one.
    pub(crate) extra: Option<Vec<u64>>,
    /// Arrival positions in sorted order.
    pub(crate) order: Vec<u32>,
    /// The budget held for the part and the local sort's temporaries.
    _held: Commitment,
}

impl SortedPart {
    /// The `k`-th smallest key of the part: its bytes and secondary key.
    pub(crate) fn key(&self, k: usize) -> (&[u8], u64) {
        let j = self.order[k] as usize;
        (self.strings.get(j), self.extra.as_ref().map_or(0, |e| e[j]))
    }

    /// The number of strings in the part.
    pub(crate) fn len(&self) -> usize {
        self.order.len()
    }
}

#[inline(always)]
fn prefix(s: &[u8]) -> u64 {
    let mut t = [0u8; 8];
    let k = s.len().min(8);
    t[..k].copy_from_slice(&s[..k]);
    u64::from_be_bytes(t)
}

type Sample = (Vec<u8>, u64, u64);

/// Bytes of the local sort of `m` strings of `bytes` bytes in all (with a secondary key when
/// `extra`), as `local_sort` and its callers allocate them: the strings (bytes and offsets),
/// the indices and secondary keys (twice: as received, then split), the records and their
/// sorted copy, the order, the bucket counters and the permutation built from the part.
fn local_sort_bytes(m: usize, bytes: usize, extra: bool) -> u64 {
    let w = if extra { 16 } else { 8 };
    let per = 8 /* offset */ + 2 * w + 8 /* length */ + 2 * 16 /* records */ + 4 /* order */ + 8 /* result */;
    (m as u64 + 1) * per + bytes as u64 + 2 * 8 * (1 << 16) + 8
}

/// Bytes of the send side of the exchange of `m` strings of `bytes` bytes: destinations,
/// per-task buffers and their per-destination copies (indices, lengths, bytes).
fn send_bytes(m: usize, bytes: usize, extra: bool) -> u64 {
    let w: u64 = if extra { 16 } else { 8 };
    4 * m as u64 + 2 * ((w + 8) * m as u64 + bytes as u64)
}

fn cmp_key(a: (&[u8], u64, u64), b: (&[u8], u64, u64)) -> Ordering {
    a.0.cmp(b.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2))
}

/// Sorts the strings of `s` (by their bytes, then `extra` when given: this locale's secondary
/// keys, aligned with its strings, then index). **Collective.**
pub(crate) fn sample_sort(s: &DistStrings, extra: Option<&[u64]>) -> Result<SortedPart> {
    let ctx = s.ctx();
    let p = ctx.num_locales();
    let l = s.local();
    let m = l.len();
    let lo = s.lo() as u64;
    let ex = |i: usize| extra.map_or(0, |e| e[i]);
    if p == 1 {
        let held = ctx
            .reserve("DistStrings sort (local sort)", local_sort_bytes(m, l.bytes().len(), extra.is_some()))?
            .commit();
        return Ok(local_sort(ctx, l.clone(), (0..m as u64).collect(), extra.map(<[u64]>::to_vec), held));
    }
    let send = ctx.reserve("DistStrings sort (send buffers)", send_bytes(m, l.bytes().len(), extra.is_some()))?;
    // 1. Splitters.
    let k = m.min(32 * p);
    let mine: Vec<Sample> = (0..k).map(|j| m * j / k).map(|i| (l.get(i).to_vec(), ex(i), lo + i as u64)).collect();
    let mut all: Vec<Sample> = ctx.allgather(&mine)?.into_iter().flatten().collect();
    all.sort_by(|a, b| cmp_key((&a.0, a.1, a.2), (&b.0, b.1, b.2)));
    let splitters: Vec<Sample> = (1..p).filter_map(|d| all.get(all.len() * d / p).cloned()).collect();
    // 2. Destinations and the exchange.
    let mut dest = vec![0u32; m];
    crate::par::fill(ctx, &mut dest, |i| {
        let key = (l.get(i), ex(i), lo + i as u64);
        splitters.partition_point(|sp| cmp_key((&sp.0, sp.1, sp.2), key) != Ordering::Greater) as u32
    });
    type Out = (Vec<Vec<u64>>, Vec<Vec<u64>>, Vec<Vec<u8>>);
    let parts: Vec<Out> = crate::par::map_parts(ctx, m, |r| {
        let (mut ids, mut lens, mut bytes) = (vec![Vec::new(); p], vec![Vec::new(); p], vec![Vec::new(); p]);
        for i in r {
            let d = dest[i] as usize;
            ids[d].push(lo + i as u64);
            if extra.is_some() {
                ids[d].push(ex(i));
            }
            let b = l.get(i);
            lens[d].push(b.len() as u64);
            bytes[d].extend_from_slice(b);
        }
        (ids, lens, bytes)
    });
    let (ids, lens, bytes) =
        (gather_dest(&parts, p, |o| &o.0), gather_dest(&parts, p, |o| &o.1), gather_dest(&parts, p, |o| &o.2));
    drop(parts);
    // What each locale receives (strings, bytes), to reserve it before the exchange.
    let sizes: Vec<Vec<u64>> = (0..p).map(|d| vec![lens[d].len() as u64, bytes[d].len() as u64]).collect();
    let got = ctx.alltoallv(sizes)?.concat();
    let (rm, rb) = got.chunks_exact(2).fold((0u64, 0u64), |(a, b), c| (a + c[0], b + c[1]));
    let held = ctx
        .reserve(
            "DistStrings sort (received strings and local sort)",
            local_sort_bytes(rm as usize, rb as usize, extra.is_some()),
        )?
        .commit();
    let sending = send.commit();
    let ids = ctx.alltoallv(ids)?.concat();
    let lens = ctx.alltoallv(lens)?.concat();
    let bytes = ctx.alltoallv(bytes)?.concat();
    let strings = LocalStrings::from_lengths(bytes, &lens)?;
    let (idx, ext) = if extra.is_some() {
        (ids.chunks_exact(2).map(|c| c[0]).collect(), Some(ids.chunks_exact(2).map(|c| c[1]).collect()))
    } else {
        (ids, None)
    };
    drop(sending);
    // 3. The local sort.
    Ok(local_sort(ctx, strings, idx, ext, held))
}

fn gather_dest<T: Pod, O>(parts: &[O], p: usize, f: impl Fn(&O) -> &Vec<Vec<T>>) -> Vec<Vec<T>> {
    (0..p)
        .map(|d| {
            let mut v = Vec::with_capacity(parts.iter().map(|o| f(o)[d].len()).sum());
            for o in parts {
                v.extend_from_slice(&f(o)[d]);
            }
            v
        })
        .collect()
}

/// Sorts one locale's strings: bucket by the first two bytes, then sort each bucket on the
/// locale's tasks.
fn local_sort(
    ctx: &Ctx,
    strings: LocalStrings,
    idx: Vec<u64>,
    extra: Option<Vec<u64>>,
    held: Commitment,
) -> SortedPart {
    let m = strings.len();
    const B: usize = 1 << 16;
    let mut recs: Vec<(u64, u32)> = vec![(0, 0); m];
    crate::par::fill(ctx, &mut recs, |j| (prefix(strings.get(j)), j as u32));
    // Counting sort by the top 16 bits (stable: arrival order kept inside a bucket).
    let mut starts = vec![0usize; B + 1];
    for r in &recs {
        starts[(r.0 >> 48) as usize + 1] += 1;
    }
    for b in 0..B {
        starts[b + 1] += starts[b];
    }
    let mut cur = starts.clone();
    let mut sorted = vec![(0u64, 0u32); m];
    for r in &recs {
        let b = (r.0 >> 48) as usize;
        sorted[cur[b]] = *r;
        cur[b] += 1;
    }
    drop(recs);
    // Sort the buckets on the tasks; the buckets are split among the tasks by size.
    let cmp = |a: &(u64, u32), b: &(u64, u32)| {
        a.0.cmp(&b.0).then_with(|| {
            let (i, j) = (a.1 as usize, b.1 as usize);
            strings
                .get(i)
                .cmp(strings.get(j))
                .then_with(|| extra.as_ref().map_or(Ordering::Equal, |e| e[i].cmp(&e[j])))
                .then(idx[i].cmp(&idx[j]))
        })
    };
    {
        let mut slices: Vec<Mutex<&mut [(u64, u32)]>> = Vec::new();
        let mut rest = &mut sorted[..];
        for b in 0..B {
            let len = starts[b + 1] - starts[b];
            let (a, r) = rest.split_at_mut(len);
            rest = r;
            if len > 1 {
                slices.push(Mutex::new(a));
            }
        }
        ctx.forall_chunks(0..slices.len(), |r| {
            for c in r {
                let mut g = lock(&slices[c]);
                g.sort_unstable_by(cmp);
            }
        });
    }
    let order = sorted.iter().map(|r| r.1).collect();
    SortedPart { strings, idx, extra, order, _held: held }
}

/// Values that each locale holds (in locale order, as one sequence), moved to the Block layout
/// of their total length. **Collective** (one allgather, one `alltoallv`).
pub(crate) fn values_to_block<T: atoll_array::Elem + Pod + Send + Copy>(
    ctx: &Ctx,
    vals: Vec<T>,
) -> Result<DistArray<T, 1>> {
    let counts: Vec<usize> = ctx.allgather(&vals.len())?;
    let me = ctx.id();
    let lo: usize = counts[..me].iter().sum();
    let n: usize = counts.iter().sum();
    let (dist, to) = crate::layout::block(ctx, n)?;
    let out: Vec<Vec<T>> = (0..ctx.num_locales())
        .map(|d| {
            let (a, b) = (lo.max(to[d]), (lo + vals.len()).min(to[d + 1]));
            if a < b {
                vals[a - lo..b - lo].to_vec()
            } else {
                Vec::new()
            }
        })
        .collect();
    let got = ctx.alltoallv(out)?.concat();
    crate::strings::array_from_local(ctx, &dist, &got)
}

impl DistStrings {
    /// The permutation that sorts the strings by their UTF-8 bytes (the order of Python's
    /// `sorted` for `str`: code point order), stably: element `j` is the index of the `j`-th
    /// smallest string, equal strings in index order. Block-distributed over `0..len`.
    /// **Collective.**
    ///
    /// A distributed sample sort (see this module): three `alltoallv` of the strings, a local
    /// bucket and comparison sort, one `alltoallv` of the indices.
    pub fn argsort(&self) -> Result<DistArray<i64, 1>> {
        let part = sample_sort(self, None)?;
        let sorted: Vec<i64> = part.order.iter().map(|&j| part.idx[j as usize] as i64).collect();
        let perm = values_to_block(self.ctx(), sorted)?;
        // With one locale the indices were local positions; they are global (lo = 0) too.
        Ok(perm)
    }
}
