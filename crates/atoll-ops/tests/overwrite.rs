//! Results made in parts that are not zeroed first (`DistArray::for_overwrite`: cumsum and
//! scan, take, argsort and sort, their scratch buffers): every element is written before it
//! is read. Each case first frees an array of the same size filled with a sentinel, so its
//! parts (over the page pool's 4 MiB threshold on every locale) come back holding it, and
//! under `ATOLL_POISON_OVERWRITE` (as in `make test`) every new part is filled with a poison
//! byte; the results are checked against sequential computations. 1-3 locales.

use atoll_array::{dist, DistArray};
use atoll_runtime::{run, Config, Ctx, Error, Result};

/// Elements per array: 8 MiB of `u64` on each of up to 3 locales.
const N: usize = 3 << 20;
const SENTINEL: u64 = 0x5EE5_5EE5_5EE5_5EE5;

fn check(cond: bool, what: impl Into<String>) -> Result<()> {
    if cond {
        Ok(())
    } else {
        Err(Error::InvalidArgument(format!("check failed: {}", what.into())))
    }
}

/// Allocates and frees a lazily made array of `N` sentinels (its parts go to the pool).
fn leave_sentinels(ctx: &Ctx) -> Result<()> {
    let mut s = DistArray::<u64, 1>::zeros_lazy(ctx, dist::block(ctx, [N])?)?;
    s.local_mut().fill(SENTINEL);
    ctx.barrier()?;
    s.free()
}

fn key(i: u64) -> u64 {
    // A permutation-like spread with repeats (a multiplicative hash, 20 bits).
    (i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 44) & 0xF_FFFF
}

#[test]
fn results_in_reused_parts_are_fully_written() {
    for n in 1..=3 {
        run(Config::local(n), |ctx| {
            let a = DistArray::<u64, 1>::from_fn(ctx, dist::block(ctx, [N])?, |[i]| i as u64 % 1000)?;
            let keys = DistArray::<u64, 1>::from_fn(ctx, dist::block(ctx, [N])?, |[i]| key(i as u64))?;

            leave_sentinels(ctx)?;
            let c = a.view().cumsum()?;
            if let Some(v) = c.gather(0)? {
                let mut acc = 0u64;
                for (i, &x) in v.iter().enumerate() {
                    acc += i as u64 % 1000;
                    check(x == acc, format!("{n} locales: cumsum[{i}] = {x:#x}, want {acc}"))?;
                }
            }
            c.free()?;

            leave_sentinels(ctx)?;
            let e = a.view().scan(|x, y| x + y, 0, false)?;
            if let Some(v) = e.gather(0)? {
                let mut acc = 0u64;
                for (i, &x) in v.iter().enumerate() {
                    check(x == acc, format!("{n} locales: exclusive scan[{i}] = {x:#x}, want {acc}"))?;
                    acc += i as u64 % 1000;
                }
            }
            e.free()?;

            // Gather through a reversed index.
            let idx = DistArray::<i64, 1>::from_fn(ctx, dist::block(ctx, [N])?, |[i]| (N as i64 - 1) - i)?;
            leave_sentinels(ctx)?;
            let t = a.take(&idx)?;
            if let Some(v) = t.gather(0)? {
                for (i, &x) in v.iter().enumerate() {
                    let want = (N - 1 - i) as u64 % 1000;
                    check(x == want, format!("{n} locales: take[{i}] = {x:#x}, want {want}"))?;
                }
            }
            t.free()?;

            leave_sentinels(ctx)?;
            let p = atoll_ops::argsort(&keys.view())?;
            leave_sentinels(ctx)?;
            let s = atoll_ops::sort(&keys.view())?;
            if let (Some(pv), Some(sv)) = (p.gather(0)?, s.gather(0)?) {
                let mut want: Vec<u64> = (0..N as u64).collect();
                want.sort_by_key(|&i| (key(i), i));
                for (i, (&got, &w)) in pv.iter().zip(&want).enumerate() {
                    check(got as u64 == w, format!("{n} locales: argsort[{i}] = {got:#x}, want {w}"))?;
                    check(sv[i] == key(w), format!("{n} locales: sort[{i}] = {:#x}, want {}", sv[i], key(w)))?;
                }
            }
            Ok(())
        })
        .unwrap_or_else(|e| panic!("{e}"));
    }
}
