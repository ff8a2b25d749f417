//! Every raw-pointer access of the sorts, in one place: disjoint concurrent writes by the
//! locale's tasks into shared buffers (the scatter of a pass, strided column writes).
//!
//! The contract everywhere: each destination slot is written by exactly one task, the buffers
//! outlive the parallel region that writes them, and nothing reads them until that region has
//! ended (the pool's `forall_chunks` returns after every task finished).

use atoll_array::stream_store::{store_fence, stream_line};
use atoll_error::{invalid_arg, Result};

/// Bits per digit of the radix sort (`radix.rs`).
pub(crate) const DIGIT_BITS: u32 = 16;
/// Distinct digits (the size of the per-task tables, here and in `radix.rs`).
pub(crate) const DIGITS: usize = 1 << DIGIT_BITS;

// A pointer that the locale's tasks share to write disjoint slots (the contract above).
pub(crate) use atoll_util::SyncPtr;

/// A `u64` buffer written at `j * stride + offset` by many tasks (one column of records).
pub(crate) struct ChunksStrided {
    ptr: SyncPtr<u64>,
    len: usize,
    stride: usize,
}

impl ChunksStrided {
    /// Shares `out` (records of `stride` words) for writing.
    pub(crate) fn new(out: &mut [u64], stride: usize) -> Self {
        ChunksStrided { ptr: SyncPtr(out.as_mut_ptr()), len: out.len(), stride }
    }

    /// Checks that `count` records of `stride` words fit and `offset < stride`.
    pub(crate) fn check(&self, count: usize, offset: usize) -> Result<()> {
        match count.checked_mul(self.stride) {
            Some(need) if need <= self.len && offset < self.stride => Ok(()),
            _ => Err(invalid_arg!(
                "column write: {count} records of {} words at word {offset} in {} words",
                self.stride,
                self.len
            )),
        }
    }

    /// Writes word `offset` of record `j`.
    ///
    /// # Safety
    /// [`check`](Self::check) passed for a count above `j` and this `offset`; no other task
    /// writes the same slot, and the buffer is not read until the writers are done.
    #[inline(always)]
    pub(crate) unsafe fn write(&self, j: usize, offset: usize, v: u64) {
        debug_assert!(j * self.stride + offset < self.len);
        // SAFETY: in bounds and unshared by the caller's contract.
        unsafe { self.ptr.0.add(j * self.stride + offset).write(v) }
    }
}

/// One write cursor per digit: where the next record with that digit goes, or null for the
/// digits whose records take the slow path (their run crosses a boundary between the staging
/// buffer and local storage) or that this task never sees.
pub(crate) struct Cursors<O>(pub(crate) Box<[*mut O; DIGITS]>);

// SAFETY: the cursors are plain addresses handed from the thread that computed them to the
// one task that scatters with them; see `scatter`.
unsafe impl<O> Send for Cursors<O> {}

impl<O> Cursors<O> {
    /// All null.
    pub(crate) fn new() -> Self {
        let v: Vec<*mut O> = vec![std::ptr::null_mut(); DIGITS];
        let b: Box<[*mut O]> = v.into_boxed_slice();
        // The length is DIGITS by construction.
        Cursors(b.try_into().unwrap_or_else(|_| unreachable!("a boxed slice of DIGITS cursors")))
    }
}

/// Where the records of a pass go besides the cursors' runs.
pub(crate) enum Places<'p, O> {
    /// Records bound to other locales wait in a staging buffer for their puts.
    Staged {
        /// Staging buffer (records bound elsewhere, compacted: positions `< a` stay, positions
        /// `>= b` move down by `b - a`).
        staging: SyncPtr<O>,
        /// Local storage of the destination (this locale's positions `lo..`).
        local: SyncPtr<O>,
        /// Positions in this locale's digit order `a..b` land here.
        a: usize,
        /// See `a`.
        b: usize,
        /// This locale's first global position.
        lo: usize,
    },
    /// Every locale's part is addressable from here (locales sharing the process): a record
    /// goes straight to its global position.
    Direct {
        /// Locale `t`'s part, holding the global positions `bounds[t]..bounds[t + 1]`.
        parts: &'p [SyncPtr<O>],
        /// `locales + 1` increasing positions.
        bounds: &'p [usize],
    },
}

/// The records whose digit run crosses a boundary between destinations (at most two digits
/// per locale and pass with a staging buffer, one per locale boundary with direct stores):
/// each record's place is computed from its position in this locale's digit order.
pub(crate) struct SplitRuns<'p, O> {
    /// (digit, next position in this locale's digit order, global position minus that one).
    pub(crate) runs: Vec<(usize, usize, usize)>,
    /// Where the positions are.
    pub(crate) places: &'p Places<'p, O>,
}

impl<O> SplitRuns<'_, O> {
    /// Writes `o`, the next record of digit `d` (a split digit of this task).
    ///
    /// # Safety
    /// `d` is in `runs`, and its next position was assigned to this task (as for `scatter`).
    #[inline(never)]
    unsafe fn write(&mut self, d: usize, o: O) {
        let Some(e) = self.runs.iter_mut().find(|e| e.0 == d) else {
            debug_assert!(false, "digit {d} is not a split digit");
            return;
        };
        let pos = e.1;
        e.1 += 1;
        let global = pos + e.2;
        // SAFETY: by the caller's contract the slot is this task's. Staged: the staging
        // buffer holds every position outside a..b, compacted, and local storage the global
        // positions lo..hi. Direct: the global position is inside the part of the locale whose
        // bounds enclose it.
        unsafe {
            match *self.places {
                Places::Staged { staging, local, a, b, lo } => {
                    if pos < a {
                        staging.0.add(pos).write(o);
                    } else if pos < b {
                        local.0.add(global - lo).write(o);
                    } else {
                        staging.0.add(pos - (b - a)).write(o);
                    }
                }
                Places::Direct { parts, bounds } => {
                    let t = bounds.partition_point(|&x| x <= global) - 1;
                    parts[t].0.add(global - bounds[t]).write(o);
                }
            }
        }
    }
}

/// Scatters the records `src(i)`, `i` in `range`, by their digit `(r[word] >> shift) & mask`:
/// each goes, as `proj(r)`, to its digit's cursor (which then advances), or through `split`
/// when the cursor is null.
///
/// # Safety
/// For every digit `d`, the records of `range` with digit `d` have, from `cur[d]` on (or from
/// their split position), as many writable slots as there are such records; those slots are
/// written by no other task while this runs, and their buffers outlive the call.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn scatter<const W: usize, O>(
    range: std::ops::Range<usize>,
    src: &impl Fn(usize) -> [u64; W],
    word: usize,
    shift: u32,
    mask: usize,
    cur: &mut Cursors<O>,
    proj: &impl Fn(&[u64; W]) -> O,
    split: &mut SplitRuns<'_, O>,
) {
    let cur = &mut *cur.0;
    for i in range {
        let r = src(i);
        let d = (r[word] >> shift) as usize & mask & (DIGITS - 1);
        let p = cur[d];
        let o = proj(&r);
        if p.is_null() {
            // SAFETY: a null cursor of a digit this task sees is a split digit (contract).
            unsafe { split.write(d, o) };
        } else {
            // SAFETY: the caller gave `cur[d]` enough unshared slots for this task's records.
            unsafe {
                p.write(o);
                cur[d] = p.add(1);
            }
        }
    }
}

/// Software write-combining for records of 8 bytes: one cache line of records per digit,
/// written to its destination in one piece when full (with non-temporal stores on x86-64, so
/// the line is not first read from memory), which keeps a 2^16-way scatter from thrashing the
/// caches and halves its memory traffic.
pub(crate) struct WriteCombine<O> {
    lines: Box<[[O; 8]]>,
    starts: Box<[*mut O]>,
}

// SAFETY: plain buffers and addresses, used by one task at a time (see `scatter_wc`).
unsafe impl<O: Send> Send for WriteCombine<O> {}

impl<O: atoll_runtime::Pod> WriteCombine<O> {
    /// Buffers for every digit.
    pub(crate) fn new() -> Self {
        WriteCombine {
            lines: vec![[O::zeroed(); 8]; DIGITS].into_boxed_slice(),
            starts: vec![std::ptr::null_mut(); DIGITS].into_boxed_slice(),
        }
    }
}

/// [`scatter`] through write-combining lines, for records `O` of 8 bytes (8-byte aligned
/// destinations). Each digit's records collect in its line, slotted by destination address;
/// a line whose slots all belong to this task's run is written whole, the partial lines at the
/// two ends of the run slot by slot (neighbouring slots belong to other runs or tasks).
///
/// # Safety
/// As for [`scatter`], and `size_of::<O>() == 8` with every cursor 8-byte aligned.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn scatter_wc<const W: usize, O: Copy>(
    range: std::ops::Range<usize>,
    src: &impl Fn(usize) -> [u64; W],
    word: usize,
    shift: u32,
    mask: usize,
    cur: &mut Cursors<O>,
    wc: &mut WriteCombine<O>,
    proj: &impl Fn(&[u64; W]) -> O,
    split: &mut SplitRuns<'_, O>,
) {
    debug_assert_eq!(std::mem::size_of::<O>(), 8);
    let cur = &mut *cur.0;
    let (lines, starts) = (&mut *wc.lines, &mut *wc.starts);
    let nd = mask + 1;
    starts[..nd].copy_from_slice(&cur[..nd]);
    let slot = |p: *mut O| (p as usize >> 3) & 7;
    for i in range {
        let r = src(i);
        let d = (r[word] >> shift) as usize & mask & (DIGITS - 1);
        let p = cur[d];
        let o = proj(&r);
        if p.is_null() {
            // SAFETY: as in `scatter`.
            unsafe { split.write(d, o) };
            continue;
        }
        let line = &mut lines[d];
        line[slot(p)] = o;
        let q = p.wrapping_add(1);
        cur[d] = q;
        if (q as usize) & 63 == 0 {
            let first = q.wrapping_sub(8);
            if first as usize >= starts[d] as usize {
                // SAFETY: the 8 slots before `q` are this task's run (they start at or after
                // its first slot), so valid and unshared; `first` is 64-byte aligned.
                unsafe { stream_line(first, line) };
            } else {
                let s = starts[d];
                for (k, &v) in line.iter().enumerate().skip(slot(s)) {
                    // SAFETY: the slots from the run's first one up to `q` are this task's.
                    unsafe { s.wrapping_add(k - slot(s)).write(v) };
                }
            }
        }
    }
    // The partial last line of every run.
    for d in 0..nd {
        let q = cur[d];
        if q.is_null() || (q as usize) & 63 == 0 {
            continue;
        }
        let line_start = q.wrapping_sub(slot(q));
        let from = if (starts[d] as usize) > (line_start as usize) { starts[d] } else { line_start };
        let mut p = from;
        while (p as usize) < (q as usize) {
            // SAFETY: slots from max(run start, line start) up to the cursor are this task's.
            unsafe { p.write(lines[d][slot(p)]) };
            p = p.wrapping_add(1);
        }
    }
    store_fence();
}

/// A buffer on every locale whose every element a pass writes before the next reads it (its
/// pages first touched when written; a reused part is not zeroed), registered for remote
/// access, with every locale's address: the destination of the sort's passes before the
/// last. A symmetric allocation (`Ctx::alloc_symmetric_for_overwrite`), so that where the
/// backend maps node peers' memory (MPI ranks of one host) every locale's part is
/// directly addressable and the passes store in place, as on the local backend. Its bytes are
/// reserved in the memory budget before anything is allocated. **Collective** to make and to
/// free.
pub(crate) struct Registered<T: atoll_runtime::Pod> {
    sym: Option<atoll_runtime::Symmetric<T>>,
}

impl<T: atoll_runtime::Pod + Send + Sync> Registered<T> {
    /// `len` values here (`len` may differ between locales), unspecified until written.
    /// **Collective.**
    pub(crate) fn new(ctx: &atoll_runtime::Ctx, operation: &str, len: usize) -> atoll_error::Result<Self> {
        len.checked_mul(std::mem::size_of::<T>()).ok_or_else(|| invalid_arg!("{operation}: {len} records overflow"))?;
        // Not written here: the passes write every record (fresh pages are first touched then).
        Ok(Registered { sym: Some(ctx.alloc_symmetric_for_overwrite(operation, len)?) })
    }

    fn sym(&self) -> &atoll_runtime::Symmetric<T> {
        self.sym.as_ref().unwrap_or_else(|| unreachable!("a Registered holds its allocation until freed"))
    }

    /// This locale's values.
    pub(crate) fn local(&self) -> &[T] {
        self.sym().local()
    }

    /// This locale's values, writable (remote puts may also write them: the sort separates
    /// both with barriers).
    pub(crate) fn local_mut(&mut self) -> &mut [T] {
        self.sym.as_mut().map_or(&mut [], |s| s.local_mut())
    }

    /// Locale `l`'s part.
    pub(crate) fn ptr(&self, l: usize) -> atoll_runtime::GlobalPtr<T> {
        self.sym().ptr(l)
    }

    /// Deregisters once every locale is done with it, then frees. **Collective.**
    pub(crate) fn free(mut self) -> atoll_error::Result<()> {
        self.sym.take().map_or(Ok(()), atoll_runtime::Symmetric::free)
    }
}
