//! `take_into` and `cumsum_into`/`scan_into` (preallocated outputs) against sequential
//! references, on 1-4 locales, with an output reused (stale values overwritten), and their
//! errors for an output of the wrong shape.

use atoll_array::{dist, DistArray};
use atoll_runtime::{run, Config, Error, Result};

fn check(ok: bool, what: impl FnOnce() -> String) -> Result<()> {
    if ok {
        Ok(())
    } else {
        Err(Error::InvalidArgument(what()))
    }
}

#[test]
fn preallocated_outputs_equal_the_references() {
    for locales in 1..=4 {
        run(Config::local(locales), |ctx| {
            let n = 4099usize;
            let a = DistArray::from_fn(ctx, dist::cyclic(ctx, [n])?, |[i]| (i as u64 * 7919) % 1000)?;
            let host: Vec<u64> = (0..n as u64).map(|i| (i * 7919) % 1000).collect();
            // Gather with random-looking indices (duplicates included), twice into one output.
            let m = 3001usize;
            let idx =
                DistArray::from_fn(ctx, dist::block(ctx, [m])?, |[j]| ((j as u64 * 2_654_435_761) % n as u64) as i64)?;
            let mut out = DistArray::<u64, 1>::filled(ctx, dist::block(ctx, [m])?, 77)?;
            for _ in 0..2 {
                a.take_into(&idx, &mut out)?;
                let want: Vec<u64> = (0..m as u64).map(|j| host[((j * 2_654_435_761) % n as u64) as usize]).collect();
                check(out.gather(0)?.is_none_or(|g| g == want), || format!("take_into on {locales} locales"))?;
            }
            check(out.gather(0)? == a.take(&idx)?.gather(0)?, || "take_into vs gather_at".into())?;
            // Scans.
            let mut s = DistArray::<u64, 1>::filled(ctx, dist::block(ctx, [n])?, 5)?;
            a.view().cumsum_into(&mut s)?;
            let mut acc = 0;
            let want: Vec<u64> = host
                .iter()
                .map(|&x| {
                    acc += x;
                    acc
                })
                .collect();
            check(s.gather(0)?.is_none_or(|g| g == want), || format!("cumsum_into on {locales} locales"))?;
            a.view().scan_into(&mut s, u64::max, 0, false)?;
            let mut m_ = 0;
            let want: Vec<u64> = host
                .iter()
                .map(|&x| {
                    let r = m_;
                    m_ = m_.max(x);
                    r
                })
                .collect();
            check(s.gather(0)?.is_none_or(|g| g == want), || "exclusive max scan_into".into())?;
            // Wrong outputs: the same typed error on every locale.
            let mut short = DistArray::<u64, 1>::zeros(ctx, dist::block(ctx, [n - 1])?)?;
            check(matches!(a.view().cumsum_into(&mut short), Err(Error::ShapeMismatch { .. })), || {
                "short scan output".into()
            })?;
            let mut cyc = DistArray::<u64, 1>::zeros(ctx, dist::block(ctx, [m + 1])?)?;
            check(matches!(a.take_into(&idx, &mut cyc), Err(Error::ShapeMismatch { .. })), || {
                "gather output not like idx".into()
            })?;
            Ok(())
        })
        .unwrap();
    }
}

/// A scan into a Block output from a Cyclic array takes the two-pass form, whose chunks (64 Ki
/// elements) are numbered alike in both passes: several chunks per locale, the last one short.
#[test]
fn two_pass_scans_over_many_chunks_equal_the_reference() {
    for locales in [1, 3] {
        run(Config::local(locales), |ctx| {
            let n = 5 * 65_536 + 123;
            let a = DistArray::from_fn(ctx, dist::cyclic(ctx, [n])?, |[i]| (i as u64 * 31) % 101)?;
            let mut s = DistArray::<u64, 1>::filled(ctx, dist::block(ctx, [n])?, 9)?;
            a.view().cumsum_into(&mut s)?;
            let mut acc = 0;
            let want: Vec<u64> = (0..n as u64)
                .map(|i| {
                    acc += (i * 31) % 101;
                    acc
                })
                .collect();
            check(s.gather(0)?.is_none_or(|g| g == want), || format!("cumsum_into of {n} on {locales} locales"))
        })
        .unwrap();
    }
}
