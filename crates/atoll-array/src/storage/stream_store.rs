//! Streaming (non-temporal) stores for large fused assignments (`assign_expr`).
//!
//! An assignment that writes more than the caches hold gains nothing from bringing each
//! destination line into the cache first (the read-for-ownership that a plain store costs):
//! on x86_64, `_mm_stream_si128` writes 16 bytes straight to memory, and STREAM's triad moves
//! a third fewer bytes. `assign_expr`'s loop (`array/view_mut.rs`, `apply_led`) uses such
//! stores for the contiguous rows of a destination of at least [`streaming_store_threshold`]
//! bytes on this locale; other targets, small destinations, short rows and strided rows use
//! plain stores.
//! The results are identical either way (tested for every element type, unaligned starts and
//! short rows).
//!
//! Engines that compute their values chunk by chunk into a small buffer (the Python front
//! end's fused expressions) stream each buffer out with [`Streamer::copy`], and engines that
//! compute values one by one write rows with [`Streamer::write`], inside one
//! [`with_streaming`] scope, which fences once at its end.
//!
//! `f64`, `i64` and `u64` rows go two values at a time from registers to a 16-byte streaming
//! store (`write_pairs`); other types through a small aligned buffer.
//!
//! Software write-combining (a scatter collecting each destination's values in a 64-byte line)
//! writes whole lines with [`stream_line`]. This module is Atoll's one place for streaming
//! stores: the sorts and the benchmarks' one-core references use it too.
//!
//! The only unsafe code is in [`Streamer::write`], `write_pairs`, [`Streamer::copy`],
//! [`stream_line`] and [`store_fence`] (x86_64 intrinsics).

use std::sync::atomic::{AtomicUsize, Ordering};

/// The default of [`streaming_store_threshold`]: 8 MiB of destination on a locale (more than
/// the last-level cache share per core of the 2-vCPU EPYC guest it was tuned on).
pub const DEFAULT_STREAMING_THRESHOLD: usize = 8 << 20;

/// Rows shorter than this (bytes) are written with plain stores.
const MIN_ROW_BYTES: usize = 256;

static THRESHOLD: AtomicUsize = AtomicUsize::new(DEFAULT_STREAMING_THRESHOLD);

/// The smallest destination, in bytes of this locale's iterations, for which `assign_expr`
/// uses streaming stores.
pub fn streaming_store_threshold() -> usize {
    THRESHOLD.load(Ordering::Relaxed)
}

/// Sets [`streaming_store_threshold`] for this process (`usize::MAX`: never stream; 0: always,
/// for rows of at least 256 bytes). Results do not depend on it; benchmarks and tests use it to
/// compare both paths.
pub fn set_streaming_store_threshold(bytes: usize) {
    THRESHOLD.store(bytes, Ordering::Relaxed);
}

/// Whether an assignment of `iterations` elements of `T` on this locale streams (at least
/// [`streaming_store_threshold`] bytes).
pub fn worth_it<T>(iterations: usize) -> bool {
    iterations.saturating_mul(size_of::<T>()) >= streaming_store_threshold()
}

/// `out[j] = f(j)` for every `j`, in order of `j`, with streaming stores for the 16-byte
/// aligned middle of rows of at least 256 bytes (x86_64), then a store fence, so the values are
/// visible to other threads like plain stores once this returns (and the caller's barrier is
/// passed). Plain stores on other targets and for the unaligned ends.
pub fn write_streaming<T: Copy + 'static>(out: &mut [T], f: impl FnMut(usize) -> T) {
    with_streaming(|s| s.write(out, f));
}

/// Whether `T` is `f64`, `i64` or `u64`: 8 bytes, no padding, and every bit pattern of them a
/// valid `f64` (the type [`write_pairs`] moves them as).
#[cfg(target_arch = "x86_64")]
fn plain8<T: 'static>() -> bool {
    use std::any::TypeId;
    let t = TypeId::of::<T>();
    t == TypeId::of::<f64>() || t == TypeId::of::<i64>() || t == TypeId::of::<u64>()
}

/// [`Streamer::write`] for the 8-byte types of [`plain8`]: two values at a time go straight from
/// registers to one 16-byte streaming store. (The general path computes a block into an L1
/// buffer and streams it out with 16-byte loads that span two 8-byte stores, which cannot be
/// forwarded from the store queue: a standalone two-thread triad probe on a 2-vCPU EPYC guest
/// (2^26 float64 per thread) spent 0.071-0.095 s of CPU per thread this way against
/// 0.086-0.116 s with the buffer, in each of four interleaved runs.)
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn write_pairs<T: Copy + 'static>(out: &mut [T], mut f: impl FnMut(usize) -> T) {
    use std::arch::x86_64::{_mm_set_pd, _mm_stream_pd};
    debug_assert!(plain8::<T>());
    let addr = out.as_ptr() as usize;
    // Elements before the first 16-byte boundary (0 or 1: `addr` is 8-byte aligned).
    let head = ((16 - addr % 16) % 16 / 8).min(out.len());
    for (j, x) in out[..head].iter_mut().enumerate() {
        *x = f(j);
    }
    let pairs = (out.len() - head) / 2;
    let base = out.as_mut_ptr();
    for p in 0..pairs {
        let i = head + 2 * p;
        // SAFETY: `T` is f64, i64 or u64 (`plain8`, checked by the caller): 8 bytes without
        // padding, and any 8 bytes are a valid f64, so `transmute_copy` reads initialized bytes
        // into a valid value; `_mm_set_pd` only moves the bits (no arithmetic). SSE2 is part of
        // the x86_64 baseline. `base + i` is 16-byte aligned (`head` reaches the boundary, pairs
        // are 16 bytes) and `i + 2 <= out.len()` (`p < pairs`), so the 16 bytes written lie
        // inside `out`, borrowed exclusively here; they are the bytes of the two values `f`
        // returned (`f(i)` first, then `f(i + 1)`), i.e. valid `T`s.
        unsafe {
            let lo: f64 = std::mem::transmute_copy(&f(i));
            let hi: f64 = std::mem::transmute_copy(&f(i + 1));
            _mm_stream_pd(base.add(i).cast::<f64>(), _mm_set_pd(hi, lo));
        }
    }
    let tail = head + 2 * pairs;
    for (j, x) in out.iter_mut().enumerate().skip(tail) {
        *x = f(j);
    }
}

/// Orders this thread's streaming stores before its later stores (a no-op off x86_64). Every
/// writer that streams ends with one before the values it wrote are read elsewhere (the
/// [`with_streaming`] scope does it for its rows).
#[inline(always)]
pub fn store_fence() {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a store fence has no preconditions (SSE, x86_64 baseline).
    unsafe {
        std::arch::x86_64::_mm_sfence()
    };
}

/// Writes the 8 values of `line` to `dst..dst + 8`, a whole 64-byte line, with streaming stores
/// when the values are 8 bytes (x86_64): the line is not first read into the cache. Plain copies
/// for other sizes and targets. For software write-combining (a scatter that collects each
/// destination's values in a line and writes it whole: the radix sorts); call
/// [`store_fence`] after the last one.
///
/// # Safety
/// `dst` is valid for writes of 8 `T`s that nothing else reads or writes meanwhile, `line` does
/// not overlap them, and when `size_of::<T>() == 8`, `dst` is 64-byte aligned.
#[inline(always)]
pub unsafe fn stream_line<T: Copy>(dst: *mut T, line: &[T; 8]) {
    #[cfg(target_arch = "x86_64")]
    if size_of::<T>() == 8 {
        use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_stream_si128};
        let (d, s) = (dst.cast::<__m128i>(), line.as_ptr().cast::<__m128i>());
        for k in 0..4 {
            // SAFETY: SSE2 is part of x86_64. The 64 bytes of `line` are read (unaligned
            // loads); `d + k` is 16-byte aligned (`dst` is 64-byte aligned) and inside the 64
            // bytes the caller gave, which hold the byte images of `line`'s values afterwards.
            unsafe { _mm_stream_si128(d.add(k), _mm_loadu_si128(s.add(k))) };
        }
        return;
    }
    // SAFETY: valid for 8 elements and not overlapping `line`, by the caller's contract.
    unsafe { std::ptr::copy_nonoverlapping(line.as_ptr(), dst, 8) }
}

/// Streams values computed elsewhere (in a small buffer) to their destination; made by
/// [`with_streaming`], which fences once when the scope ends.
pub struct Streamer {
    _scope: (),
}

/// Fences on drop, so a scope left by a panic still orders its streaming stores.
struct Fence;

impl Drop for Fence {
    fn drop(&mut self) {
        store_fence();
    }
}

/// Runs `f` with a [`Streamer`], then a store fence: the values written through it are visible
/// to other threads like plain stores once this returns (and the caller's barrier or join is
/// passed). One fence per scope, not per row: put a whole task's rows in one scope.
pub fn with_streaming<R>(f: impl FnOnce(&mut Streamer) -> R) -> R {
    let _fence = Fence;
    f(&mut Streamer { _scope: () })
}

impl Streamer {
    /// `out[j] = f(j)` for every `j`, in order of `j`: [`write_streaming`] without its fence
    /// (the scope's fence orders the stores), for engines that write many rows in one scope.
    pub fn write<T: Copy + 'static>(&mut self, out: &mut [T], mut f: impl FnMut(usize) -> T) {
        #[cfg(target_arch = "x86_64")]
        {
            if plain8::<T>() && size_of_val(out) >= MIN_ROW_BYTES {
                write_pairs(out, f);
                return;
            }
            use std::arch::x86_64::{__m128i, _mm_load_si128, _mm_stream_si128};
            #[repr(C, align(16))]
            struct Line([u8; 16]);
            /// Bytes computed at once before they are streamed out (a few cache lines, in L1).
            const BLOCK: usize = 1024;
            #[repr(C, align(64))]
            struct Block([u8; BLOCK]);

            let size = size_of::<T>();
            let addr = out.as_ptr() as usize;
            if size > 0 && 16 % size == 0 && addr % size == 0 && size_of_val(out) >= MIN_ROW_BYTES {
                let per = 16 / size;
                // Elements before the first 16-byte boundary (a whole number: `addr` is a multiple
                // of `size`, which divides 16).
                let head = (((16 - addr % 16) % 16) / size).min(out.len());
                for (j, x) in out[..head].iter_mut().enumerate() {
                    *x = f(j);
                }
                let base = out.as_mut_ptr();
                // Whole blocks first: the values of one block are computed by a tight loop into an
                // aligned buffer (which the compiler can vectorize), then streamed out 16 bytes at
                // a time; the lines left over go one by one below.
                let block_elems = BLOCK / size;
                let blocks = (out.len() - head) / block_elems;
                let mut buf = Block([0; BLOCK]);
                for b in 0..blocks {
                    let first = head + b * block_elems;
                    let dst = buf.0.as_mut_ptr().cast::<T>();
                    for k in 0..block_elems {
                        // SAFETY: `k < block_elems` and `block_elems * size == BLOCK`, so the write
                        // lies inside `buf`; unaligned writes are allowed for any `T: Copy`.
                        unsafe { dst.add(k).write_unaligned(f(first + k)) };
                    }
                    for l in 0..BLOCK / 16 {
                        // SAFETY: SSE2 is part of the x86_64 baseline. `buf` is 64-byte aligned and
                        // initialized, so line `l` (16 bytes at `16 * l < BLOCK`) is aligned and
                        // inside it. `base + first` is 16-byte aligned (`head` reaches the
                        // boundary, blocks are whole lines) and the block ends at
                        // `first + block_elems <= out.len()` (`b < blocks`), so the bytes written
                        // are inside `out`, borrowed exclusively here; they are the byte images of
                        // the values `f` returned, i.e. valid `T`s.
                        unsafe {
                            let v = _mm_load_si128(buf.0.as_ptr().add(16 * l).cast::<__m128i>());
                            _mm_stream_si128(base.add(first).cast::<u8>().add(16 * l).cast::<__m128i>(), v);
                        }
                    }
                }
                let head = head + blocks * block_elems;
                let lines = (out.len() - head) / per;
                let mut line = Line([0; 16]);
                for b in 0..lines {
                    let first = head + b * per;
                    for k in 0..per {
                        // SAFETY: `k < per` and `per * size == 16`, so the write lies inside the
                        // 16-byte `line`; unaligned writes are allowed for any `T: Copy`.
                        unsafe { line.0.as_mut_ptr().cast::<T>().add(k).write_unaligned(f(first + k)) };
                    }
                    // SAFETY: SSE2 is part of the x86_64 baseline. `line` is 16-byte aligned and
                    // initialized. `base + first` is 16-byte aligned (`head` reaches the boundary,
                    // `per` elements are 16 bytes) and `first + per <= out.len()` (`b < lines`),
                    // so the 16 bytes written are inside `out`, which is borrowed exclusively here;
                    // they are the byte images of the `per` values `f` returned, i.e. valid `T`s.
                    unsafe {
                        let v = _mm_load_si128(line.0.as_ptr().cast::<__m128i>());
                        _mm_stream_si128(base.add(first).cast::<__m128i>(), v);
                    }
                }
                let tail = head + lines * per;
                for (j, x) in out.iter_mut().enumerate().skip(tail) {
                    *x = f(j);
                }
                return;
            }
        }
        for (j, x) in out.iter_mut().enumerate() {
            *x = f(j);
        }
    }

    /// `out.copy_from_slice(src)` (same lengths, else it panics like `copy_from_slice`), with
    /// streaming stores for the 16-byte aligned middle of rows of at least 256 bytes (x86_64)
    /// and plain stores for the ends, other targets and short rows. Meant for a `src` that
    /// was just computed into a small (L1) buffer.
    pub fn copy<T: Copy>(&mut self, out: &mut [T], src: &[T]) {
        assert_eq!(out.len(), src.len(), "Streamer::copy: lengths differ");
        #[cfg(target_arch = "x86_64")]
        {
            use std::arch::x86_64::{__m128i, _mm_loadu_si128, _mm_stream_si128};
            let size = size_of::<T>();
            let addr = out.as_ptr() as usize;
            if size > 0 && 16 % size == 0 && addr % size == 0 && size_of_val(out) >= MIN_ROW_BYTES {
                let per = 16 / size;
                let head = (((16 - addr % 16) % 16) / size).min(out.len());
                out[..head].copy_from_slice(&src[..head]);
                let lines = (out.len() - head) / per;
                let (dst, from) = (out.as_mut_ptr(), src.as_ptr());
                for l in 0..lines {
                    let first = head + l * per;
                    // SAFETY: SSE2 is part of the x86_64 baseline. `first + per <= len` for
                    // `l < lines`, so the 16 bytes read from `src` (unaligned load) and written
                    // to `out` are inside both slices; `dst + first` is 16-byte aligned (`head`
                    // reaches the boundary, `per` elements are 16 bytes); `out` is borrowed
                    // exclusively and cannot overlap `src` (Rust borrows); the bytes written are
                    // those of valid `T`s read from `src`.
                    unsafe {
                        let v = _mm_loadu_si128(from.add(first).cast::<__m128i>());
                        _mm_stream_si128(dst.add(first).cast::<__m128i>(), v);
                    }
                }
                let tail = head + lines * per;
                out[tail..].copy_from_slice(&src[tail..]);
                return;
            }
        }
        out.copy_from_slice(src);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn same<T: Copy + PartialEq + std::fmt::Debug + 'static>(make: impl Fn(usize) -> T) {
        // Every start offset inside a 16-byte line, lengths around the row minimum and the line.
        for start in 0..16 {
            for len in [0, 1, 3, 15, 16, 17, 31, 63, 64, 255, 256, 257, 1000, 4099] {
                let mut buf: Vec<T> = (0..start + len + 3).map(|i| make(i + 7)).collect();
                let want: Vec<T> = (0..buf.len())
                    .map(|i| if i >= start && i < start + len { make(i * 31 + 1) } else { make(i + 7) })
                    .collect();
                write_streaming(&mut buf[start..start + len], |j| make((start + j) * 31 + 1));
                assert_eq!(buf, want, "start {start} len {len} {}", std::any::type_name::<T>());
            }
        }
    }

    fn same_copy<T: Copy + PartialEq + std::fmt::Debug>(make: impl Fn(usize) -> T) {
        for start in 0..16 {
            for len in [0, 1, 3, 15, 16, 17, 31, 63, 64, 255, 256, 257, 1000, 4099] {
                let mut buf: Vec<T> = (0..start + len + 3).map(|i| make(i + 7)).collect();
                let src: Vec<T> = (0..len).map(|j| make((start + j) * 31 + 1)).collect();
                let want: Vec<T> = (0..buf.len())
                    .map(|i| if i >= start && i < start + len { make(i * 31 + 1) } else { make(i + 7) })
                    .collect();
                with_streaming(|s| s.copy(&mut buf[start..start + len], &src));
                assert_eq!(buf, want, "start {start} len {len} {}", std::any::type_name::<T>());
            }
        }
    }

    #[test]
    fn streamed_copies_equal_plain_copies_for_every_type() {
        same_copy(|i| i as u8);
        same_copy(|i| (i as u16).wrapping_mul(7));
        same_copy(|i| (i as i32).wrapping_sub(500));
        same_copy(|i| (i as i64).wrapping_mul(-3));
        same_copy(|i| (i as u64) << 20 | 5);
        same_copy(|i| i as f32 * 0.5);
        same_copy(|i| i as f64 * 0.25 - 3.0);
        same_copy(|i| i % 3 == 0);
    }

    #[test]
    fn streamed_lines_equal_plain_lines() {
        #[repr(C, align(64))]
        struct Lines([u64; 24]);
        let mut buf = Lines([7; 24]);
        let line: [u64; 8] = std::array::from_fn(|k| k as u64 * 3 + 1);
        // SAFETY: words 8..16 of a 64-byte aligned buffer: one aligned line, not `line`.
        unsafe { stream_line(buf.0.as_mut_ptr().add(8), &line) };
        store_fence();
        assert_eq!(&buf.0[8..16], &line);
        assert!(buf.0[..8].iter().chain(&buf.0[16..]).all(|&x| x == 7));
        let mut small = [0u16; 8];
        // SAFETY: 8 elements, not overlapping the source (other sizes are plain copies).
        unsafe { stream_line(small.as_mut_ptr(), &[1, 2, 3, 4, 5, 6, 7, 8]) };
        assert_eq!(small, [1, 2, 3, 4, 5, 6, 7, 8]);
    }

    #[test]
    #[should_panic(expected = "lengths differ")]
    fn a_copy_of_another_length_panics() {
        let mut a = [0u64; 300];
        with_streaming(|s| s.copy(&mut a, &[1u64; 299]));
    }

    #[test]
    fn streaming_rows_equal_plain_rows_for_every_type() {
        same(|i| i as u8);
        same(|i| (i as i8).wrapping_mul(3));
        same(|i| (i as u16).wrapping_mul(7));
        same(|i| (i as i16).wrapping_neg());
        same(|i| (i as u32).wrapping_mul(11));
        same(|i| (i as i32).wrapping_sub(500));
        same(|i| (i as u64) << 20 | 5);
        same(|i| (i as i64).wrapping_mul(-3));
        same(|i| i as f32 * 0.5);
        same(|i| i as f64 * 0.25 - 3.0);
        same(|i| i % 3 == 0);
    }
}
