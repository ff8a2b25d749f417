//! The STREAM triad with non-temporal stores, for the bandwidth limit (`baseline.rs`): on
//! x86_64, `a[i] = b[i] + alpha * c[i]` two doubles at a time with `_mm_stream_pd` (the
//! destination is not read into the cache first), then a store fence; plain stores elsewhere
//! and for the unaligned ends. The only unsafe code of the baseline.

/// `a[i] = b[i] + alpha * c[i]` with streaming stores where the CPU has them.
pub fn triad_nt(a: &mut [f64], b: &[f64], c: &[f64], alpha: f64) {
    let n = a.len().min(b.len()).min(c.len());
    let (a, b, c) = (&mut a[..n], &b[..n], &c[..n]);
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{_mm_add_pd, _mm_loadu_pd, _mm_mul_pd, _mm_set1_pd, _mm_sfence, _mm_stream_pd};
        // Elements before a's first 16-byte boundary (0 or 1: f64 is 8-byte aligned).
        let head = (((16 - a.as_ptr() as usize % 16) % 16) / 8).min(n);
        for i in 0..head {
            a[i] = b[i] + alpha * c[i];
        }
        let pairs = (n - head) / 2;
        let (pa, pb, pc) = (a.as_mut_ptr(), b.as_ptr(), c.as_ptr());
        // SAFETY: SSE2 is part of the x86_64 baseline. For every `k < pairs`, `i + 1 < n`, so
        // the two doubles read from `b` and `c` (unaligned loads) and written to `a` are inside
        // the slices; `pa + i` is 16-byte aligned (`head` reaches the boundary, `i - head` is
        // even); `a` is borrowed exclusively and does not overlap `b` or `c` (Rust borrows).
        unsafe {
            let va = _mm_set1_pd(alpha);
            for k in 0..pairs {
                let i = head + 2 * k;
                let v = _mm_add_pd(_mm_loadu_pd(pb.add(i)), _mm_mul_pd(va, _mm_loadu_pd(pc.add(i))));
                _mm_stream_pd(pa.add(i), v);
            }
            // Orders the streaming stores before the thread reports completion.
            _mm_sfence();
        }
        for i in head + 2 * pairs..n {
            a[i] = b[i] + alpha * c[i];
        }
        return;
    }
    #[allow(unreachable_code)]
    for ((x, &y), &z) in a.iter_mut().zip(b).zip(c) {
        *x = y + alpha * z;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn streaming_triad_equals_the_plain_one_at_every_offset_and_length() {
        for start in 0..3 {
            for n in [0, 1, 2, 3, 17, 1000] {
                let b: Vec<f64> = (0..n + start).map(|i| i as f64).collect();
                let c: Vec<f64> = (0..n + start).map(|i| 2.0 - i as f64).collect();
                let mut a = vec![-1.0; n + start];
                triad_nt(&mut a[start..], &b[start..], &c[start..], 3.0);
                for i in 0..n + start {
                    let want = if i < start { -1.0 } else { b[i] + 3.0 * c[i] };
                    assert_eq!(a[i], want, "start {start} n {n} i {i}");
                }
            }
        }
    }
}
