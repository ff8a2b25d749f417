//! The sort part of the `make demo` tour: `atoll::ops::argsort` of a few million random keys
//! on a Cyclic array (Arkouda's argsort, with its GiB/s), checked on locale 0 against the
//! definition (a permutation along which keys never decrease, equal keys in position order),
//! then a two-key `coargsort` of mixed types.

use crate::check;
use atoll::array::{dist, Cyclic, DistArray};
use atoll::ops::{argsort, coargsort, SortColumn};
use atoll::prelude::*;
use atoll::util::mix;
use std::time::Instant;

/// The tour step (collective).
pub fn sort_tour(ctx: &Ctx) -> Result<()> {
    let n = 1usize << 22;
    let keys =
        DistArray::<i64, 1, Cyclic<1>>::from_fn(ctx, dist::cyclic(ctx, [n])?, |[i]| (mix(i as u64) >> 32) as i64)?;
    ctx.reset_comm_diagnostics()?;
    ctx.start_comm_diagnostics()?;
    ctx.barrier()?;
    let t = Instant::now();
    let perm = argsort(&keys.view())?;
    let secs = ctx.allreduce(t.elapsed().as_secs_f64(), f64::max)?;
    ctx.stop_comm_diagnostics()?;
    let puts: u64 = ctx.comm_diagnostics()?.iter().map(|c| c.puts).sum();
    let (k, p) = (keys.gather(0)?, perm.gather(0)?);
    if let (Some(k), Some(p)) = (k, p) {
        let mut seen = vec![false; n];
        let perm_ok = p.iter().all(|&i| i >= 0 && (i as usize) < n && !std::mem::replace(&mut seen[i as usize], true));
        let sorted = p.windows(2).all(|w| {
            let (a, b) = (k[w[0] as usize], k[w[1] as usize]);
            a < b || (a == b && w[0] < w[1])
        });
        check(perm_ok && sorted, "argsort")?;
        println!(
            "\n== Sorts: argsort of {n} random i64 keys (Cyclic in, Block out) in {:.0} ms = {:.2} GiB/s (Arkouda's 8 bytes per key), {puts} puts in all; checked",
            secs * 1e3,
            8.0 * n as f64 / secs / (1u64 << 30) as f64
        );
    }
    // Two keys of different types: group (u64) first, then value (f64, NaN last).
    let m = 12;
    let group = DistArray::from_fn(ctx, dist::block(ctx, [m])?, |[i]| (i % 3) as u64)?;
    let value =
        DistArray::from_fn(
            ctx,
            dist::block(ctx, [m])?,
            |[i]| if i == 4 { f64::NAN } else { (i * 7 % 5) as f64 - 2.0 },
        )?;
    let p = coargsort(&[&group as &dyn SortColumn, &value])?;
    if let (Some(p), Some(g), Some(v)) = (p.gather(0)?, group.gather(0)?, value.gather(0)?) {
        let rows: Vec<String> = p.iter().map(|&i| format!("({}, {})", g[i as usize], v[i as usize])).collect();
        let ok = p.windows(2).all(|w| {
            let (a, b) = (w[0] as usize, w[1] as usize);
            g[a] < g[b] || (g[a] == g[b] && (v[a] < v[b] || v[b].is_nan() || (v[a] == v[b] && a < b)))
        });
        check(ok, "coargsort")?;
        println!("   coargsort of (group: u64, value: f64): {}", rows.join(" "));
    }
    Ok(())
}
