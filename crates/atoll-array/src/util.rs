//! Small helpers: strided offset walks.

/// Calls `f(k, offset)` for every element `k` (row-major over `shape`) of the strided box at
/// `off + sum(t[d] * strides[d])`.
#[inline]
pub(crate) fn for_each_offset<const D: usize>(
    off: usize,
    strides: &[usize; D],
    shape: &[usize; D],
    mut f: impl FnMut(usize, usize),
) {
    if shape.contains(&0) {
        return;
    }
    let mut t = [0usize; D];
    let last = shape[D - 1];
    let mut k = 0;
    loop {
        let base: usize = off + (0..D - 1).map(|d| t[d] * strides[d]).sum::<usize>();
        for j in 0..last {
            f(k, base + j * strides[D - 1]);
            k += 1;
        }
        // Next row.
        let mut d = D - 1;
        loop {
            if d == 0 {
                return;
            }
            d -= 1;
            t[d] += 1;
            if t[d] < shape[d] {
                break;
            }
            t[d] = 0;
        }
    }
}

/// Writes `buf` (packed, row-major over `shape`) into `out` at `off + sum(t[d] * strides[d])`.
pub(crate) fn scatter<T: Copy, const D: usize>(
    out: &mut [T],
    off: usize,
    strides: &[usize; D],
    shape: &[usize; D],
    buf: &[T],
) {
    for_each_offset(off, strides, shape, |k, o| out[o] = buf[k]);
}
