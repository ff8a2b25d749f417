//! Local matrix products: `C = A B` of row-major blocks, the kernel under the distributed
//! `matmul` of N-d pdarrays. float64 goes through `matrixmultiply`'s packed, cache-blocked
//! dgemm (FMA/AVX kernels chosen at run time); int64 through an i-k-j loop with NumPy's
//! wrapping arithmetic.

use atoll_error::{Error, Result};

fn check(n: usize, k: usize, m: usize, a: usize, b: usize, c: usize) -> Result<()> {
    let want = (n.checked_mul(k), k.checked_mul(m), n.checked_mul(m));
    if want != (Some(a), Some(b), Some(c)) {
        return Err(Error::InvalidArgument(format!(
            "gemm: blocks of {a}, {b} and {c} elements for an ({n} x {k}) by ({k} x {m}) product"
        )));
    }
    Ok(())
}

/// `c = a b` for the row-major `a` (`n` x `k`), `b` (`k` x `m`) and `c` (`n` x `m`).
pub fn gemm_f64(n: usize, k: usize, m: usize, a: &[f64], b: &[f64], c: &mut [f64]) -> Result<()> {
    check(n, k, m, a.len(), b.len(), c.len())?;
    if n == 0 || m == 0 {
        return Ok(());
    }
    if k == 0 {
        c.fill(0.0);
        return Ok(());
    }
    let (k_i, m_i) = (k as isize, m as isize);
    // SAFETY: the lengths were checked above: `a` holds n*k, `b` k*m and `c` n*m elements,
    // so every element dgemm reads (a[i*k + l], b[l*m + j]) or writes (c[i*m + j]) for
    // i < n, l < k, j < m is in bounds; `c` is a unique borrow, so it aliases neither input,
    // and its strides (m, 1) make distinct elements; beta = 0 means `c` is only written.
    unsafe {
        matrixmultiply::dgemm(n, k, m, 1.0, a.as_ptr(), k_i, 1, b.as_ptr(), m_i, 1, 0.0, c.as_mut_ptr(), m_i, 1);
    }
    Ok(())
}

/// `c = a b` for row-major int64 blocks, each product and sum wrapping as NumPy's.
pub fn gemm_i64(n: usize, k: usize, m: usize, a: &[i64], b: &[i64], c: &mut [i64]) -> Result<()> {
    check(n, k, m, a.len(), b.len(), c.len())?;
    c.fill(0);
    if m == 0 {
        return Ok(());
    }
    for (ci, ai) in c.chunks_exact_mut(m).zip(a.chunks_exact(k.max(1))) {
        for (l, &x) in ai.iter().enumerate().take(k) {
            if x == 0 {
                continue;
            }
            for (o, &y) in ci.iter_mut().zip(&b[l * m..(l + 1) * m]) {
                *o = o.wrapping_add(x.wrapping_mul(y));
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn naive(n: usize, k: usize, m: usize, a: &[f64], b: &[f64]) -> Vec<f64> {
        let mut c = vec![0.0; n * m];
        for i in 0..n {
            for j in 0..m {
                c[i * m + j] = (0..k).map(|l| a[i * k + l] * b[l * m + j]).sum();
            }
        }
        c
    }

    #[test]
    fn products_equal_the_naive_loop() {
        for (n, k, m) in [(1, 1, 1), (3, 5, 2), (17, 9, 33), (64, 70, 65), (4, 0, 3), (0, 3, 4)] {
            let a: Vec<f64> = (0..n * k).map(|i| (i % 7) as f64 - 3.0).collect();
            let b: Vec<f64> = (0..k * m).map(|i| (i % 5) as f64 * 0.5).collect();
            let mut c = vec![f64::NAN; n * m];
            gemm_f64(n, k, m, &a, &b, &mut c).unwrap();
            assert_eq!(c, naive(n, k, m, &a, &b), "{n}x{k}x{m}");
            let ai: Vec<i64> = a.iter().map(|&x| x as i64).collect();
            let bi: Vec<i64> = (0..k * m).map(|i| (i % 5) as i64).collect();
            let bf: Vec<f64> = bi.iter().map(|&x| x as f64).collect();
            let mut ci = vec![7i64; n * m];
            gemm_i64(n, k, m, &ai, &bi, &mut ci).unwrap();
            let want: Vec<i64> = naive(n, k, m, &a, &bf).into_iter().map(|x| x as i64).collect();
            assert_eq!(ci, want);
        }
    }

    #[test]
    fn int_products_wrap_and_bad_blocks_are_refused() {
        let mut c = vec![0i64; 1];
        gemm_i64(1, 2, 1, &[i64::MAX, 1], &[2, 1], &mut c).unwrap();
        assert_eq!(c[0], i64::MAX.wrapping_mul(2).wrapping_add(1));
        assert!(gemm_f64(2, 2, 2, &[0.0; 3], &[0.0; 4], &mut [0.0; 4]).is_err());
        assert!(gemm_i64(2, 2, 2, &[0; 4], &[0; 4], &mut [0; 3]).is_err());
    }
}
