//! The paper's own kernels: pascal (rows of Pascal's triangle: a follower shifted by one) and
//! folding (sums of consecutive pairs: two followers strided by 2).

use super::{verify, Dists, Meter, Outcome, Params};
use atoll::array::DistArray;
use atoll::prelude::*;

/// Pascal's triangle is computed modulo this prime (the numbers stay exact integers).
const MODULUS: i64 = 1_000_000_007;

/// pascal: `T` rows of Pascal's triangle (modulo a prime) in arrays of two lengths (100000 and
/// 100003, so that the second is not a multiple of the block cycle), from the row `1, 0, 0, ...`:
/// `new[1..n] = old[0..n-1] + old[1..n]` (leader the written view, followers the old row and
/// the old row shifted by one), `new[0] = 1`; the two arrays swap roles each row.
pub fn pascal<X: Dists>(ctx: &Ctx, x: &X, p: &Params, m: &mut Meter) -> Result<Outcome> {
    let n0 = p.d1(100_000, 8);
    let sizes = [n0, n0 + 3];
    let rows = p.steps(20);
    let init = |i: i64| i64::from(i == 0);
    let mut ok = true;
    let mut arrays = Vec::new();
    for &n in &sizes {
        let a = DistArray::<i64, 1, X::M<1>>::from_fn(ctx, x.make(ctx, [n])?, |[i]| init(i))?;
        let b = DistArray::<i64, 1, X::M<1>>::from_fn(ctx, x.make(ctx, [n])?, |[i]| init(i))?;
        arrays.push((n, a, b));
    }
    m.measure(ctx, || {
        for (n, a, b) in arrays.iter_mut() {
            let n = *n as i64;
            for _ in 0..rows {
                b.slice_mut(1..n)?
                    .zip_apply((a.slice(0..n - 1)?, a.slice(1..n)?), |v, (l, c)| *v = (l + c) % MODULUS)?;
                std::mem::swap(a, b);
            }
        }
        Ok(())
    })?;
    for (n, a, _) in &arrays {
        let n = *n;
        let got = a.gather(0)?.map(|g| g.into_iter().map(|v| v as f64).collect());
        ok &= verify(
            ctx,
            m,
            got,
            || {
                let row: Vec<i64> = (0..n as i64).map(init).collect();
                (row.clone(), row)
            },
            |(mut row, mut next)| {
                for _ in 0..rows {
                    for i in 1..n {
                        next[i] = (row[i - 1] + row[i]) % MODULUS;
                    }
                    std::mem::swap(&mut row, &mut next);
                }
                row.into_iter().map(|v| v as f64).collect()
            },
            0.0,
        )?;
    }
    Ok(Outcome { ok, n: sizes.iter().sum::<usize>() as u64, size: format!("{}, {} t={rows}", sizes[0], sizes[1]) })
}

/// folding (`n` = 50400 = 2^5 * 1575): repeatedly folds an array in half,
/// `out[0..h] = in[0..2h by 2] + in[1..2h by 2]` (leader contiguous, two followers with stride
/// 2), while the length is even: 50400 -> 25200 -> ... -> 1575. The folds run `T` times, each
/// time from the input.
pub fn folding<X: Dists>(ctx: &Ctx, x: &X, p: &Params, m: &mut Meter) -> Result<Outcome> {
    // A multiple of 32 keeps five folds at every scale.
    let n = p.d1(50_400, 64).div_ceil(32) * 32;
    let reps = p.steps(10);
    let f = |i: usize| (i % 97) as f64;
    let input = DistArray::<f64, 1, X::M<1>>::from_fn(ctx, x.make(ctx, [n])?, |[i]| f(i as usize))?;
    let mut a = DistArray::<f64, 1, X::M<1>>::zeros(ctx, x.make(ctx, [n])?)?;
    let mut b = DistArray::<f64, 1, X::M<1>>::zeros(ctx, x.make(ctx, [n])?)?;
    let strided = |lo: i64, hi: i64| StridedRange::with_stride(lo, hi, 2);
    let mut len = n;
    m.measure(ctx, || {
        for _ in 0..reps {
            len = n / 2;
            let h = len as i64;
            a.slice_mut(0..h)?
                .zip_apply((input.slice(strided(0, 2 * h)?)?, input.slice(strided(1, 2 * h)?)?), |v, (e, o)| {
                    *v = e + o
                })?;
            while len % 2 == 0 {
                let h = (len / 2) as i64;
                b.slice_mut(0..h)?
                    .zip_apply((a.slice(strided(0, 2 * h)?)?, a.slice(strided(1, 2 * h)?)?), |v, (e, o)| *v = e + o)?;
                std::mem::swap(&mut a, &mut b);
                len /= 2;
            }
        }
        Ok(())
    })?;
    let got = a.slice(0..len as i64)?.gather(0)?;
    let ok = verify(
        ctx,
        m,
        got,
        || ((0..n).map(f).collect::<Vec<f64>>(), vec![0.0; n / 2]),
        |(input, mut v)| {
            // Repetitions as the distributed run makes them, in place after the first fold.
            let mut len = n;
            for _ in 0..reps {
                len = n / 2;
                for (o, c) in v.iter_mut().zip(input.chunks_exact(2)) {
                    *o = c[0] + c[1];
                }
                while len % 2 == 0 {
                    len /= 2;
                    for i in 0..len {
                        v[i] = v[2 * i] + v[2 * i + 1];
                    }
                }
            }
            v.truncate(len);
            v
        },
        0.0,
    )?;
    Ok(Outcome { ok, n: n as u64, size: format!("{n} x{reps}") })
}
