//! Irregular access with index arrays: indexed read (`take`, Arkouda's gather) `a[idx]` and scatter `a[idx] = v` of 1-D
//! arrays, through the runtime's dynamic aggregators (the default), as one exchange per
//! destination and round, or with one get/put per element (the baseline).
//!
//! Every locale handles the indices it owns of `idx` (owner computes): it splits them into
//! one contiguous part per task, and each task looks up the owner and local offset of each
//! index in `a`'s distribution. Where every locale's part is directly addressable (the local
//! backend, MPI ranks of one host), each task then loads or stores every element where it
//! lives (`irregular/direct.rs`). Elsewhere:
//!
//! - [`Transfer::Aggregated`] (default): every element goes through one [`SrcAggregator`]
//!   (gather) or [`DstAggregator`] (scatter) per task, which sends one active message per full
//!   buffer and remote destination, and reads or writes this locale's own elements at flush
//!   time without a message (a tight loop whose cache misses overlap). A task whose part of
//!   `idx` names `k` elements of another locale sends `ceil(k / b)` messages to it, with
//!   buffers of `b` elements ([`IrregularOptions::buffer`]); its memory is the buffers,
//!   bounded whatever the array's size;
//! - [`Transfer::Exchange`]: the indices bound to each owner are packed together and sent in
//!   one transfer per destination and round, the owner serves them in one loop, and (gather)
//!   the values come back in one transfer (`irregular/exchange.rs`: its steps, memory, and why
//!   it is not the default). Per round of [`IrregularOptions::round`] indices and destination
//!   named `k > 0` times: gather one put (`8 k` bytes of offsets) and one get (`k` values),
//!   scatter two puts;
//! - [`Transfer::PerElement`]: each remote element is one get or put, and own elements are read
//!   or written directly.
//!
//! Messages are counted the same on every placement: where the loops load and store in place,
//! they count the messages the chosen transfer would have sent
//! ([`CommCounts`](atoll_runtime::CommCounts)). Part `p` of `t` covers the local positions
//! `p * L / t .. (p + 1) * L / t` of a locale's `L` indices (in its local order; for an
//! exchange, of each round's); `t` is [`IrregularOptions::tasks`], else the locale's task-pool
//! threads.

use crate::array::DistArray;
use crate::elem::Elem;
use atoll_dist::Distribution;
use atoll_error::{Error, Result};
use atoll_runtime::phase_profile::mark;
use atoll_runtime::{Ctx, DstAggregator, SrcAggregator};
use atoll_util::sync::{into_inner, lock};
use atoll_util::Disjoint;
use direct::Counting;
use std::any::Any;
use std::sync::Mutex;

mod direct;
mod exchange;
mod into;

/// How gather and scatter move the elements of other locales.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Transfer {
    /// Through one aggregator per task: one message per buffer of
    /// [`IrregularOptions::buffer`] elements per destination (the default).
    #[default]
    Aggregated,
    /// One transfer per destination and round of [`IrregularOptions::round`] indices per
    /// locale (gather: and one back).
    Exchange,
    /// One get (gather) or put (scatter) per remote element: the unaggregated baseline.
    PerElement,
}

/// Options of [`DistArray::take_with`] and [`DistArray::scatter_at_with`].
///
/// ```
/// use atoll_array::{IrregularOptions, Transfer};
/// let o = IrregularOptions::default().with_buffer(1024).with_tasks(2);
/// assert_eq!((o.transfer, o.buffer, o.tasks), (Transfer::Aggregated, Some(1024), Some(2)));
/// let x = IrregularOptions::exchanged().with_round(1 << 16);
/// assert_eq!((x.transfer, x.round), (Transfer::Exchange, Some(1 << 16)));
/// assert_eq!(IrregularOptions::per_element().transfer, Transfer::PerElement);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct IrregularOptions {
    /// Aggregated (default), exchanged, or one message per element.
    pub transfer: Transfer,
    /// Aggregated: elements per destination buffer; `None`: `ATOLL_AGG_BUFFER`
    /// ([`Config::agg_buffer`](atoll_runtime::Config::agg_buffer), default 8192).
    pub buffer: Option<usize>,
    /// Exchanged: indices per locale and round; `None`: `2^22 / locales`, at least 2^16.
    pub round: Option<usize>,
    /// Tasks (parts of the local indices, one aggregator each) per locale; `None`: the
    /// locale's task-pool threads.
    pub tasks: Option<usize>,
}

impl IrregularOptions {
    /// Aggregated transfers with the default buffer and tasks (the default).
    pub fn aggregated() -> Self {
        IrregularOptions::default()
    }

    /// Exchanged transfers with the default round and tasks.
    pub fn exchanged() -> Self {
        IrregularOptions { transfer: Transfer::Exchange, ..IrregularOptions::default() }
    }

    /// One get or put per remote element.
    pub fn per_element() -> Self {
        IrregularOptions { transfer: Transfer::PerElement, ..IrregularOptions::default() }
    }

    /// Sets the elements per destination buffer.
    pub fn with_buffer(mut self, elems: usize) -> Self {
        self.buffer = Some(elems);
        self
    }

    /// Sets the tasks per locale.
    pub fn with_tasks(mut self, tasks: usize) -> Self {
        self.tasks = Some(tasks);
        self
    }

    /// Sets the indices per locale and round of an exchange.
    pub fn with_round(mut self, indices: usize) -> Self {
        self.round = Some(indices);
        self
    }
}

/// Element types of index arrays: the integer [`Elem`]s. An index is an index of the indexed
/// array's domain (for `0..n`, a position); values outside it are errors.
pub trait IndexElem: Elem {
    /// The index as `i64`, `None` when it does not fit (then it is out of bounds).
    fn to_index(self) -> Option<i64>;
}

macro_rules! index_elem {
    ($($t:ty),*) => {$(
        impl IndexElem for $t {
            #[inline]
            fn to_index(self) -> Option<i64> {
                i64::try_from(self).ok()
            }
        }
    )*};
}
index_elem!(i8, i16, i32, i64, u8, u16, u32, u64);

/// Owner and local offset of indices of a 1-D distribution, computed without the general
/// formulas' divisions where the kind is known: Block by a binary search over the parts'
/// first positions (no division at all for a dense domain), Cyclic and BlockCyclic by one or
/// two divisions. Checked against [`Distribution::locate`] when built (every part's bounds and
/// a spread of positions); on any disagreement, or an unknown layout, it defers to `locate`.
struct Locator<'d, M: Distribution<1>> {
    dist: &'d M,
    first: i64,
    stride: u64,
    fast: Option<Fast>,
}

/// The formula of a known layout, over positions of the domain.
enum Fast {
    /// Non-empty parts: (first position, target), ascending.
    Block(Vec<(u64, usize)>),
    /// Part `pos % parts`, offset `pos / parts`; `targets[part]`.
    Cyclic(Vec<usize>),
    /// Blocks of `block` positions dealt round-robin to `targets`.
    BlockCyclic(u64, Vec<usize>),
}

impl<'d, M: Distribution<1>> Locator<'d, M> {
    fn new(dist: &'d M) -> Self {
        use atoll_dist::{DimMap, DistKind};
        let range = dist.domain().dims()[0];
        let map = &dist.dim_maps()[0];
        let parts = map.parts();
        // A 1-D grid lists its targets in part order (checked below with everything else).
        let targets: Vec<usize> = dist.grid().targets().to_vec();
        let fast = match dist.kind() {
            _ if targets.len() != parts || parts == 0 => None,
            DistKind::Block => Some(Fast::Block(
                (0..parts)
                    .filter(|&p| map.local_len(p) > 0)
                    .filter_map(|p| Some((map.global_pos(p, 0)? as u64, targets[p])))
                    .collect(),
            )),
            DistKind::Cyclic => Some(Fast::Cyclic(targets)),
            DistKind::BlockCyclic => {
                // The block size: the first position that leaves part 0 (all of them if none).
                let b = (1..range.len()).find(|&pos| map.part_of(pos) != 0).unwrap_or(range.len()).max(1);
                Some(Fast::BlockCyclic(b as u64, targets))
            }
            _ => None,
        };
        let mut me = Locator { dist, first: range.lo(), stride: range.stride().max(1), fast };
        if !me.agrees(&range, map) {
            me.fast = None;
        }
        me
    }

    /// Whether the formula gives `locate`'s answers at every part's bounds and a spread of
    /// positions.
    fn agrees<Dm: atoll_dist::DimMap>(&self, range: &atoll_dist::StridedRange, map: &Dm) -> bool {
        let n = range.len();
        if n == 0 {
            return true;
        }
        let mut probes: Vec<usize> = (0..map.parts())
            .filter_map(|p| map.global_pos(p, 0).map(|s| [s, s + map.local_len(p).saturating_sub(1)]))
            .flatten()
            .collect();
        probes.extend((0..=256usize).map(|k| ((n - 1) as u128 * k as u128 / 256) as usize));
        probes.extend([1, 2, 3, n / 2 + 1].into_iter().filter(|&p| p < n));
        probes.into_iter().filter(|&p| p < n).all(|p| {
            let i = range.lo() + (p as u64 * range.stride()) as i64;
            self.locate(i) == self.dist.locate([i])
        })
    }

    /// The owner and local offset of index `i` (an index of the domain). Inlined into the
    /// batched address loops (`direct.rs`); the general formula stays out of line.
    #[inline(always)]
    fn locate(&self, i: i64) -> (usize, usize) {
        let Some(fast) = &self.fast else { return self.locate_general(i) };
        let off = i.wrapping_sub(self.first) as u64;
        let pos = if self.stride == 1 { off } else { off / self.stride };
        match fast {
            Fast::Block(starts) => {
                // Few parts: count the later parts' starts at or below `pos`, with no branch
                // (a binary search mispredicts every other comparison on random indices).
                let k = if starts.len() <= 8 {
                    starts.iter().skip(1).map(|&(s, _)| usize::from(s <= pos)).sum()
                } else {
                    starts.partition_point(|&(s, _)| s <= pos).saturating_sub(1)
                };
                match starts.get(k) {
                    Some(&(s, t)) => (t, (pos - s) as usize),
                    None => self.locate_general(i),
                }
            }
            Fast::Cyclic(targets) => {
                let p = targets.len() as u64;
                (targets[(pos % p) as usize], (pos / p) as usize)
            }
            Fast::BlockCyclic(b, targets) => {
                let p = targets.len() as u64;
                let blk = pos / b;
                (targets[(blk % p) as usize], ((blk / p) * b + pos % b) as usize)
            }
        }
    }

    /// [`Distribution::locate`], out of line (the fallback of [`Locator::locate`]).
    #[cold]
    #[inline(never)]
    fn locate_general(&self, i: i64) -> (usize, usize) {
        self.dist.locate([i])
    }
}

/// `T` as its registered storage type (the same bytes).
#[inline]
fn to_store<T: Elem>(v: T) -> T::Store {
    const { assert!(size_of::<T>() == size_of::<T::Store>() && align_of::<T>() == align_of::<T::Store>()) };
    // SAFETY: same size (checked above at compile time); `Store` is plain old data, valid for
    // every bit pattern, and every `Elem` is a primitive without padding bytes.
    unsafe { std::mem::transmute_copy::<T, T::Store>(&v) }
}

/// A slice of elements seen as their storage type.
///
/// # Safety
/// Only byte images of valid `T` values may be written through the result (values read from
/// the storage of an array of `T`): any pattern for numbers, 0 or 1 for `bool`.
unsafe fn as_store_mut<T: Elem>(s: &mut [T]) -> &mut [T::Store] {
    const { assert!(size_of::<T>() == size_of::<T::Store>() && align_of::<T>() == align_of::<T::Store>()) };
    // SAFETY: same size and alignment (checked at compile time), the same memory and lifetime;
    // the caller keeps every element a valid `T`.
    unsafe { std::slice::from_raw_parts_mut(s.as_mut_ptr().cast::<T::Store>(), s.len()) }
}

/// The contiguous parts of `0..len` for `tasks` tasks.
fn parts(len: usize, tasks: usize) -> Vec<std::ops::Range<usize>> {
    (0..tasks).map(|p| p * len / tasks..(p + 1) * len / tasks).collect()
}

/// Checks every locale's indices against `domain`: the first bad one (lowest locale, then
/// local order) becomes the same [`Error::IndexOutOfBounds`] on every locale. **Collective.**
fn check_indices<I: IndexElem, MI: Distribution<1>>(
    ctx: &Ctx,
    idx: &DistArray<I, 1, MI>,
    domain: &atoll_dist::Domain<1>,
    what: &str,
) -> Result<()> {
    let local = idx.local();
    let bad = ctx.forall_reduce(
        0..local.len(),
        None,
        |acc: Option<usize>, k| {
            acc.or_else(|| (!local[k].to_index().is_some_and(|i| domain.contains([i]))).then_some(k))
        },
        |a, b| a.or(b),
    );
    let mine = bad.map(|k| {
        let at = idx.dist().global_index(ctx.id(), k).map(|[g]| g.to_string()).unwrap_or_else(|_| format!("local {k}"));
        Error::IndexOutOfBounds {
            index: format!("{:?} (element {at} of the index array of {what})", local[k]),
            bounds: format!("{domain} (the domain of the indexed array)"),
        }
    });
    ctx.agree(mine.map_or(Ok(()), Err))
}

/// Reserves, collectively, the most that the aggregators of one operation can charge, so
/// that every locale refuses alike before anything is written; released at once (each buffer
/// is then charged when allocated). **Collective.**
fn admit(ctx: &Ctx, operation: &str, len: usize, tasks: usize, cap: usize, per_elem: usize) -> Result<()> {
    let dests = ctx.num_locales();
    let worst: u64 = parts(len, tasks)
        .iter()
        .map(|r| {
            let k = r.len();
            // A buffer per destination used, plus the messages that may be in flight.
            let bufs = (dests.min(k) + if dests > 1 && k > 0 { 4 } else { 0 }) as u64;
            bufs * (4 + cap.min(k.max(1)) * per_elem) as u64
        })
        .sum();
    ctx.reserve(operation, worst).map(drop)
}

/// `s` as a reference to `M2` if it is one (distributions of the same type).
fn same_dist<M1: Any, M2: Any>(s: &M1) -> Option<&M2> {
    (s as &dyn Any).downcast_ref::<M2>()
}

/// Runs `work(part)` for every part on the locale's task pool; the first error.
fn run_parts(ctx: &Ctx, n: usize, work: impl Fn(usize) -> Result<()> + Sync) -> Option<Error> {
    let failure: Mutex<Option<Error>> = Mutex::new(None);
    ctx.forall_chunks_with(0..n, 1, |r| {
        for p in r {
            if let Err(e) = work(p) {
                lock(&failure).get_or_insert(e);
            }
        }
    });
    into_inner(failure)
}

impl<T: Elem, M: Distribution<1> + 'static> DistArray<T, 1, M> {
    /// Indexed read (NumPy's `take`, Arkouda's gather): `a[idx]`, a new array distributed
    /// like `idx` whose element `j` is `self[idx[j]]`, `idx` holding indices of `self`'s
    /// domain (its index space, as views use: not positions `0..len` unless the domain is
    /// `0..len`). Each locale reads, for the indices it owns, the values from their owners
    /// through one source aggregator per task (see [`take_with`](Self::take_with)).
    /// **Collective.**
    ///
    /// Not to be confused with the two collections of a whole array:
    /// [`gather(root)`](Self::gather) (every element, in order, on one locale) and
    /// [`to_vec`](Self::to_vec) (every element on every locale).
    ///
    /// ```
    /// use atoll_array::{dist, DistArray};
    /// use atoll_runtime::{run, Config};
    /// run(Config::local(3), |ctx| {
    ///     let n = 1000;
    ///     let a = DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[i]| i as f64 * 0.5)?;
    ///     // Reversed indices, cyclic: every locale reads from every locale.
    ///     let idx = DistArray::from_fn(ctx, dist::cyclic(ctx, [n])?, |[j]| n as i64 - 1 - j)?;
    ///     let b = a.take(&idx)?;                       // b[j] = a[n - 1 - j], distributed like idx
    ///     assert_eq!(b.get([10])?, (n - 11) as f64 * 0.5);
    ///     Ok(())
    /// }).unwrap();
    /// ```
    ///
    /// # Errors
    /// As [`take_with`](Self::take_with).
    pub fn take<I: IndexElem, MI: Distribution<1> + 'static>(
        &self,
        idx: &DistArray<I, 1, MI>,
    ) -> Result<DistArray<T, 1, MI>> {
        self.take_with(idx, &IrregularOptions::default())
    }

    /// The former name of [`take`](Self::take). **Collective.**
    ///
    /// # Errors
    /// As [`take`](Self::take).
    #[deprecated(note = "renamed `take` (an indexed read; `gather(root)` and `to_vec()` collect whole arrays)")]
    pub fn gather_at<I: IndexElem, MI: Distribution<1> + 'static>(
        &self,
        idx: &DistArray<I, 1, MI>,
    ) -> Result<DistArray<T, 1, MI>> {
        self.take(idx)
    }

    /// The former name of [`take_with`](Self::take_with). **Collective.**
    ///
    /// # Errors
    /// As [`take_with`](Self::take_with).
    #[deprecated(note = "renamed `take_with`")]
    pub fn gather_at_with<I: IndexElem, MI: Distribution<1> + 'static>(
        &self,
        idx: &DistArray<I, 1, MI>,
        opts: &IrregularOptions,
    ) -> Result<DistArray<T, 1, MI>> {
        self.take_with(idx, opts)
    }

    /// Indexed read ([`take`](Self::take)) with options: aggregated (buffer size, tasks) or
    /// one get per remote element. **Collective.**
    ///
    /// Values written to `self` before the call are read (it starts like a collective loop);
    /// the result's elements are all in place when it returns on every locale.
    ///
    /// # Errors
    /// On every locale alike, before anything is read or allocated:
    /// [`Error::IndexOutOfBounds`] naming the first index (lowest locale, then local order)
    /// outside `self`'s domain and where it is in `idx`; [`Error::InvalidArgument`] for a
    /// buffer or task count of 0; [`Error::OutOfMemory`] when the result or the aggregation
    /// buffers do not fit a locale's budget. Communication errors of any locale are returned
    /// on every locale.
    pub fn take_with<I: IndexElem, MI: Distribution<1> + 'static>(
        &self,
        idx: &DistArray<I, 1, MI>,
        opts: &IrregularOptions,
    ) -> Result<DistArray<T, 1, MI>> {
        let ctx = self.ctx();
        atoll_runtime::phase_profile::start();
        let res = resolve(ctx, opts)?;
        check_indices(ctx, idx, self.domain(), "a gather")?;
        mark(|| "check".into());
        // Every element is read from `self` below (its pages first touched by those writes).
        let mut out = DistArray::<T, 1, MI>::for_overwrite(ctx, idx.dist().clone())?;
        mark(|| "alloc".into());
        self.take_checked(idx, &mut out, opts, res, "DistArray::take (exchange or aggregation buffers)")?;
        Ok(out)
    }

    /// The reads of [`take_with`](Self::take_with) into `out` (distributed like `idx`), once
    /// `idx` is checked and `(cap, tasks)` resolved. **Collective.**
    pub(crate) fn take_checked<I: IndexElem, MI: Distribution<1> + 'static>(
        &self,
        idx: &DistArray<I, 1, MI>,
        out: &mut DistArray<T, 1, MI>,
        opts: &IrregularOptions,
        res: Resolved,
        operation: &str,
    ) -> Result<()> {
        let ctx = self.ctx();
        let Resolved { cap, tasks, round } = res;
        let len = idx.local().len();
        if opts.transfer == Transfer::Aggregated {
            admit(ctx, operation, len, tasks, cap, 16 + size_of::<T>())?;
        }
        // The values of `self` written before the call are complete everywhere, and every
        // locale is done reading `out` before anyone writes it.
        ctx.barrier()?;
        mark(|| "barrier".into());
        let view = self.view();
        let src = view.inner();
        let loc = Locator::new(&src.dist);
        let me = ctx.id();
        let bases: Vec<u64> = (0..ctx.num_locales()).map(|l| src.store.base_addr(l)).collect();
        let es = size_of::<T>() as u64;
        let ranges = parts(len, tasks);
        let indices = idx.local();
        // SAFETY: only values read from `self`'s storage of `T` are written through it.
        let out_store = unsafe { as_store_mut(out.local_mut()) };
        let direct = if opts.transfer != Transfer::PerElement {
            direct::agreed(ctx, direct::parts(ctx, &src.store, &src.dist)?)?
        } else {
            None
        };
        if let Some(ptrs) = direct {
            let chunks = Disjoint::new(out_store);
            let counting = match opts.transfer {
                Transfer::Exchange => Counting::Exchanged { round, op: exchange::Op::Gather },
                _ => Counting::Aggregated { cap, bytes: SrcAggregator::<T::Store>::message_bytes },
            };
            direct::run_counted::<T::Store>(ctx, len, tasks, counting, |r, per_dest| {
                // SAFETY: `run_counted` hands out each position once (disjoint ranges).
                let guard = unsafe { chunks.chunk(r.clone()) };
                const { assert!(size_of::<T>() == size_of::<T::Store>() && align_of::<T>() == align_of::<T::Store>()) };
                // SAFETY: `ptrs` addresses every locale's whole registered part of `self`
                // (checked by `direct_ptr`), the indices are of `self`'s domain (checked), and
                // `self` is not written during the call (the PGAS contract, as for a get). The
                // slots are `T::Store` images of `T` (same size and alignment), written only
                // with values read from `self`.
                unsafe {
                    let slots = std::slice::from_raw_parts_mut(guard.as_mut_ptr().cast::<T>(), guard.len());
                    direct::gather_part(&loc, &ptrs, &indices[r], slots, per_dest);
                }
            });
            return ctx.barrier();
        }
        if opts.transfer == Transfer::Exchange {
            let x = exchange::Exchange::new(ctx, &loc, &src.store, &src.dist, tasks, round, operation)?;
            x.gather(indices, out_store)?;
            return ctx.barrier();
        }
        let chunks = Disjoint::new(out_store);
        let failure = run_parts(ctx, tasks, |p| {
            // SAFETY: `run_parts` runs part `p` once, and the parts' ranges are disjoint.
            let slots: &mut [T::Store] = unsafe { chunks.chunk(ranges[p].clone()) };
            let ids = &indices[ranges[p].clone()];
            match opts.transfer {
                Transfer::Aggregated => {
                    // A part of k indices never fills more than k places of a buffer: same
                    // messages, smaller charge.
                    let mut agg = SrcAggregator::<T::Store>::with_capacity(ctx, cap.min(ids.len().max(1)))?;
                    // This locale's elements go through the aggregator too (no message: they are
                    // read at flush time in one tight loop, which overlaps the cache misses
                    // that an unpredictable local/remote branch per element would serialize).
                    for (slot, &i) in slots.iter_mut().zip(ids) {
                        let (owner, off) = loc.locate(i.to_index().unwrap_or_default());
                        agg.get_at(owner, bases[owner] + off as u64 * es, slot)?;
                    }
                    agg.finish()
                }
                Transfer::Exchange | Transfer::PerElement => {
                    for (k, &i) in ids.iter().enumerate() {
                        let (owner, off) = loc.locate(i.to_index().unwrap_or_default());
                        let v = if owner == me {
                            // SAFETY: `off` is the local offset of an index of the domain
                            // (checked), so it is below the local length.
                            unsafe { src.store.read(off) }
                        } else {
                            let mut one = [T::default()];
                            src.store.get(ctx, owner, off, &mut one)?;
                            one[0]
                        };
                        slots[k] = to_store(v);
                    }
                    Ok(())
                }
            }
        });
        mark(|| "loop".into());
        ctx.agree(failure.map_or(Ok(()), Err))?;
        mark(|| "agree".into());
        ctx.barrier()?;
        mark(|| "barrier".into());
        atoll_runtime::phase_profile::report("gather (aggregated)", me);
        Ok(())
    }

    /// Scatter: `self[idx[j]] = v[j]` for every `j`. Each locale writes the pairs it owns of
    /// `idx` (and `v`) to their owners through one destination aggregator per task (see
    /// [`scatter_at_with`](Self::scatter_at_with)). **Collective.**
    ///
    /// Duplicate indices: one of the values written there remains, which one is unspecified.
    ///
    /// ```
    /// use atoll_array::{dist, DistArray};
    /// use atoll_runtime::{run, Config};
    /// run(Config::local(2), |ctx| {
    ///     let n = 100;
    ///     let mut a = DistArray::<u64, 1>::zeros(ctx, dist::block(ctx, [n])?)?;
    ///     let idx = DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[j]| (j * 37) % n as i64)?;
    ///     let v = DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[j]| j as u64)?;
    ///     a.scatter_at(&idx, &v)?;                     // a[(j * 37) % n] = j
    ///     assert_eq!(a.get([37])?, 1);
    ///     assert_eq!(a.get([74])?, 2);
    ///     Ok(())
    /// }).unwrap();
    /// ```
    ///
    /// # Errors
    /// As [`scatter_at_with`](Self::scatter_at_with).
    pub fn scatter_at<I: IndexElem, MI: Distribution<1> + 'static, MV: Distribution<1> + 'static>(
        &mut self,
        idx: &DistArray<I, 1, MI>,
        v: &DistArray<T, 1, MV>,
    ) -> Result<()> {
        self.scatter_at_with(idx, v, &IrregularOptions::default())
    }

    /// Scatter with options: aggregated (buffer size, tasks) or one put per remote element.
    /// **Collective.**
    ///
    /// `v` has `idx`'s shape; when it is not distributed like `idx`, it is first copied into an
    /// array that is (a bulk assignment). Every write has landed when the call returns on every
    /// locale. Duplicate indices: one of the values written there remains, which one is
    /// unspecified (different tasks and locales write them concurrently).
    ///
    /// # Errors
    /// On every locale alike, before anything is written: [`Error::ShapeMismatch`] when `v`
    /// and `idx` differ in length; [`Error::IndexOutOfBounds`] naming the first index (lowest
    /// locale, then local order) outside `self`'s domain; [`Error::InvalidArgument`] for a
    /// buffer or task count of 0; [`Error::OutOfMemory`] when the aggregation buffers do not
    /// fit a locale's budget. Communication errors of any locale are returned on every locale.
    pub fn scatter_at_with<I: IndexElem, MI: Distribution<1> + 'static, MV: Distribution<1> + 'static>(
        &mut self,
        idx: &DistArray<I, 1, MI>,
        v: &DistArray<T, 1, MV>,
        opts: &IrregularOptions,
    ) -> Result<()> {
        let ctx = self.ctx().clone();
        let ctx = &ctx;
        atoll_runtime::phase_profile::start();
        if v.len() != idx.len() {
            return Err(Error::ShapeMismatch {
                context: "DistArray::scatter_at (values and indices)".into(),
                left: format!("{} values over {}", v.len(), v.domain()),
                right: format!("{} indices over {}", idx.len(), idx.domain()),
            });
        }
        let Resolved { cap, tasks, round } = resolve(ctx, opts)?;
        check_indices(ctx, idx, self.domain(), "a scatter")?;
        // The values, distributed like the indices (a copy only when they are not).
        let copy;
        let values: &[T] = match same_dist::<MV, MI>(v.dist()) {
            Some(d) if d == idx.dist() && v.domain() == idx.domain() => v.local(),
            _ => {
                let mut c = DistArray::<T, 1, MI>::for_overwrite(ctx, idx.dist().clone())?;
                c.assign(&v.view())?;
                copy = c;
                copy.local()
            }
        };
        let len = idx.local().len();
        if opts.transfer == Transfer::Aggregated {
            admit(ctx, "DistArray::scatter_at (aggregation buffers)", len, tasks, cap, 8 + size_of::<T>())?;
        }
        mark(|| "check".into());
        // Every locale is done reading `self` before anyone writes it.
        ctx.barrier()?;
        mark(|| "barrier".into());
        let view = self.view();
        let dst = view.inner();
        let loc = Locator::new(&dst.dist);
        let me = ctx.id();
        let bases: Vec<u64> = (0..ctx.num_locales()).map(|l| dst.store.base_addr(l)).collect();
        let es = size_of::<T>() as u64;
        let ranges = parts(len, tasks);
        let indices = idx.local();
        let direct = if opts.transfer != Transfer::PerElement {
            direct::agreed(ctx, direct::parts(ctx, &dst.store, &dst.dist)?)?
        } else {
            None
        };
        if let Some(ptrs) = direct {
            let counting = match opts.transfer {
                Transfer::Exchange => Counting::Exchanged { round, op: exchange::Op::Scatter },
                _ => Counting::Aggregated { cap, bytes: DstAggregator::<T::Store>::message_bytes },
            };
            direct::run_counted::<T::Store>(ctx, len, tasks, counting, |r, per_dest| {
                // SAFETY: `ptrs` addresses every locale's whole registered part of `self`
                // (checked by `direct_ptr`), the indices are of `self`'s domain (checked), and
                // nobody reads `self` until the closing barrier. Duplicate indices written by
                // different tasks: an unspecified last writer (the PGAS contract of
                // storage/mod.rs), as with puts.
                unsafe { direct::scatter_part(&loc, &ptrs, &indices[r.clone()], &values[r], per_dest) };
            });
            return ctx.barrier();
        }
        if opts.transfer == Transfer::Exchange {
            let operation = "DistArray::scatter_at (exchange buffers)";
            let x = exchange::Exchange::new(ctx, &loc, &dst.store, &dst.dist, tasks, round, operation)?;
            x.scatter(indices, values)?;
            return ctx.barrier();
        }
        let failure = run_parts(ctx, tasks, |p| {
            let r = ranges[p].clone();
            let (ids, vals) = (&indices[r.clone()], &values[r]);
            match opts.transfer {
                Transfer::Aggregated => {
                    // A part of k indices never fills more than k places of a buffer: same
                    // messages, smaller charge.
                    let mut agg = DstAggregator::<T::Store>::with_capacity(ctx, cap.min(ids.len().max(1)))?;
                    // This locale's elements too: written at flush time in one tight loop (see
                    // gather). Duplicate indices written by different tasks: an unspecified
                    // last writer (the PGAS contract of storage/mod.rs).
                    for (&i, &x) in ids.iter().zip(vals) {
                        let (owner, off) = loc.locate(i.to_index().unwrap_or_default());
                        agg.put_at(owner, bases[owner] + off as u64 * es, to_store(x))?;
                    }
                    agg.finish()
                }
                Transfer::Exchange | Transfer::PerElement => {
                    for (&i, &x) in ids.iter().zip(vals) {
                        let (owner, off) = loc.locate(i.to_index().unwrap_or_default());
                        if owner == me {
                            // SAFETY: `off` is the local offset of an index of the domain
                            // (checked). Another task may write the same element (duplicate
                            // indices): the PGAS contract of storage/mod.rs, documented as an
                            // unspecified last writer.
                            unsafe { dst.store.write(off, x) };
                        } else {
                            dst.store.put(ctx, owner, off, &[x])?;
                        }
                    }
                    Ok(())
                }
            }
        });
        mark(|| "loop".into());
        ctx.agree(failure.map_or(Ok(()), Err))?;
        mark(|| "agree".into());
        ctx.barrier()?;
        mark(|| "barrier".into());
        atoll_runtime::phase_profile::report("scatter (aggregated)", me);
        Ok(())
    }
}

/// The buffer size, task count and round of options on a locale.
#[derive(Clone, Copy)]
pub(crate) struct Resolved {
    cap: usize,
    tasks: usize,
    round: usize,
}

/// The buffer size, task count and round of `opts` on `ctx`.
fn resolve(ctx: &Ctx, opts: &IrregularOptions) -> Result<Resolved> {
    let cap = opts.buffer.unwrap_or(ctx.config().agg_buffer);
    let tasks = opts.tasks.unwrap_or(ctx.here().num_threads());
    let round = opts.round.unwrap_or_else(|| exchange::default_round(ctx.num_locales()));
    if cap == 0 || tasks == 0 || round == 0 {
        return Err(Error::InvalidArgument(format!(
            "irregular access needs at least 1 element per buffer and per round and 1 task, got a buffer of {cap}, \
             a round of {round} and {tasks} tasks"
        )));
    }
    Ok(Resolved { cap, tasks, round })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parts_cover_the_range_in_order() {
        assert_eq!(parts(10, 3), vec![0..3, 3..6, 6..10]);
        assert_eq!(parts(2, 4), vec![0..0, 0..1, 1..1, 1..2]);
        assert_eq!(parts(0, 2), vec![0..0, 0..0]);
    }

    #[test]
    fn the_locator_agrees_with_locate_everywhere() {
        use atoll_dist::{Block, BlockCyclic, Cyclic, Domain, LocaleGrid, StridedRange};
        fn all<M: Distribution<1>>(d: M) {
            let l = Locator::new(&d);
            assert!(l.fast.is_some(), "{d:?}");
            for i in d.domain().dims()[0].iter() {
                assert_eq!(l.locate(i), d.locate([i]), "{d:?} at {i}");
            }
        }
        for parts in 1..=5usize {
            for n in [0usize, 1, 2, 3, 7, 64, 101, 1000] {
                let grid = || LocaleGrid::new((0..parts).rev(), [parts]).unwrap();
                let dom = Domain::from_shape([n]).unwrap();
                all(Block::new(dom, grid()));
                all(Cyclic::new(dom, grid()));
                for b in [1, 3, 8] {
                    all(BlockCyclic::new(dom, grid(), [b]).unwrap());
                }
                let strided = Domain::new([StridedRange::with_stride(-5, 5 + 3 * n as i64, 3).unwrap()]).unwrap();
                all(Block::new(strided, grid()));
                all(BlockCyclic::new(strided, grid(), [2]).unwrap());
            }
        }
    }

    #[test]
    fn index_elements_convert() {
        assert_eq!(5u8.to_index(), Some(5));
        assert_eq!((-1i32).to_index(), Some(-1));
        assert_eq!(u64::MAX.to_index(), None);
        assert_eq!(to_store(true), 1u8);
    }
}
