//! `atoll-bench isx`: ISx, the integer sort benchmark of the OpenSHMEM community, on Atoll.
//!
//! Each locale draws `--keys-per-locale` keys uniformly in `0..max_key`, with `max_key =
//! bucket_width x locales` (ISx's weak-isobucket scaling: each locale's key range, and so its
//! counting-sort table, keeps its size as locales are added; `--bucket-width` defaults to the
//! keys per locale). One iteration, timed between barriers:
//!
//! 1. **bucketize**: count the keys per owner locale (`key / bucket_width`) and group them by
//!    owner in a send buffer (a counting sort over the locales);
//! 2. **exchange**: for each owner, one remote `fetch_add` on its receive counter reserves a
//!    range of its registered receive buffer, and one put writes the keys there (ISx's
//!    `shmem_atomic_fetch_add` + `shmem_putmem`); a barrier;
//! 3. **local sort**: a counting sort of the received keys over the locale's key range, then
//!    the sorted keys written out.
//!
//! One task per locale, like one ISx PE. After the iterations, the last result is verified:
//! every locale's keys are sorted and inside its range (so the concatenation is globally
//! sorted), and the keys are a permutation of those drawn (the same count and the same sum of
//! a 64-bit hash of every key, over all locales). Weak scaling: with `--sweep` the local
//! backend runs 1 to 4 locales.

use crate::report::Line;
use atoll::prelude::*;
use atoll::util::mix;
use std::time::Instant;

/// Options of `atoll-bench isx`.
#[derive(clap::Args)]
pub struct IsxArgs {
    #[command(flatten)]
    common: crate::Common,
    /// Keys per locale (weak scaling: fixed as locales are added).
    #[arg(long, default_value_t = 1 << 24)]
    keys_per_locale: usize,
    /// Each locale's key range (`max_key = bucket_width x locales`); default: the keys per locale.
    #[arg(long)]
    bucket_width: Option<u64>,
    /// Timed iterations (after one untimed burn-in); the mean is reported.
    #[arg(long, default_value_t = 3)]
    iters: usize,
    /// Runs 1, 2, 3 and 4 locales (local backend).
    #[arg(long)]
    sweep: bool,
}

const SEED: u64 = 0x15a_5eed_0000_0001;

/// The hash summed over all keys for the permutation check.
#[inline]
fn fingerprint(k: u32) -> u64 {
    mix(u64::from(k) ^ 0xf1f1_f1f1)
}

/// One locale's result: (mean seconds, ok).
fn isx_job(ctx: &Ctx, kpl: usize, width: u64, iters: usize) -> Result<(f64, bool)> {
    let (me, nl) = (ctx.id(), ctx.num_locales());
    let max_key = width.checked_mul(nl as u64).filter(|&m| m <= 1 << 32).ok_or_else(|| {
        Error::InvalidArgument(format!("isx: bucket width {width} x {nl} locales exceeds the 32-bit keys"))
    })?;
    if width == 0 {
        return Err(Error::InvalidArgument("isx: the bucket width must be at least 1".into()));
    }
    // Keys drawn once (untimed), as ISx does.
    let keys: Vec<u32> = (0..kpl as u64).map(|j| (mix(SEED ^ (me as u64 * kpl as u64 + j)) % max_key) as u32).collect();
    let drawn = keys.iter().map(|&k| fingerprint(k)).fold(0u64, u64::wrapping_add);
    // Receive buffer: the expected count plus a wide margin (uniform keys: the standard
    // deviation is about sqrt(keys per locale)).
    let cap = kpl + kpl / 4 + 4096;
    let recv = ctx.alloc_symmetric_for::<u32>("isx receive buffer", cap)?;
    let mut counter = ctx.alloc_symmetric_for::<u64>("isx receive counter", 1)?;
    let mut send = vec![0u32; kpl];
    let mut counts = vec![0u32; width as usize];
    let mut sorted: Vec<u32> = Vec::with_capacity(cap);
    let my_lo = me as u64 * width;
    let mut total = 0.0;
    let mut received = 0usize;
    for it in 0..=iters.max(1) {
        counter.local_mut()[0] = 0;
        ctx.barrier()?;
        let t = Instant::now();
        // 1. Bucketize by owner.
        let mut per = vec![0usize; nl];
        for &k in &keys {
            per[(u64::from(k) / width) as usize] += 1;
        }
        let mut off = vec![0usize; nl + 1];
        for l in 0..nl {
            off[l + 1] = off[l] + per[l];
        }
        let mut next = off.clone();
        for &k in &keys {
            let l = (u64::from(k) / width) as usize;
            send[next[l]] = k;
            next[l] += 1;
        }
        // 2. Exchange: reserve a range at each owner, put the keys there.
        for step in 0..nl {
            let l = (me + step) % nl; // start with the next locale: spread the traffic
            let c = per[l];
            if c == 0 {
                continue;
            }
            let at = ctx.fetch_add(counter.ptr(l), c as u64)? as usize;
            if at + c > cap {
                return Err(Error::InvalidArgument(format!(
                    "isx: locale {l}'s receive buffer ({cap} keys) overflowed"
                )));
            }
            ctx.put(recv.ptr(l).add(at), &send[off[l]..off[l] + c])?;
        }
        ctx.barrier()?;
        // 3. Local counting sort over this locale's key range.
        received = counter.local()[0] as usize;
        counts.fill(0);
        let got = &recv.local()[..received];
        let mut inside = true;
        for &k in got {
            let r = u64::from(k).wrapping_sub(my_lo);
            if r < width {
                counts[r as usize] += 1;
            } else {
                inside = false;
            }
        }
        sorted.clear();
        for (r, &c) in counts.iter().enumerate() {
            sorted.extend(std::iter::repeat_n((my_lo + r as u64) as u32, c as usize));
        }
        let dt = ctx.allreduce(t.elapsed().as_secs_f64(), f64::max)?;
        if it > 0 {
            total += dt;
        }
        if !inside {
            return Err(Error::InvalidArgument(format!("isx: locale {me} received a key outside its range")));
        }
    }
    // Verification of the last iteration.
    let local_ok = sorted.len() == received
        && sorted.windows(2).all(|w| w[0] <= w[1])
        && sorted.iter().all(|&k| u64::from(k) >= my_lo && u64::from(k) < my_lo + width);
    let got = sorted.iter().map(|&k| fingerprint(k)).fold(0u64, u64::wrapping_add);
    let sums = ctx.allreduce((drawn, got, received as u64, u64::from(local_ok)), |a, b| {
        (a.0.wrapping_add(b.0), a.1.wrapping_add(b.1), a.2 + b.2, a.3.min(b.3))
    })?;
    let ok = sums.0 == sums.1 && sums.2 == (kpl * nl) as u64 && sums.3 == 1;
    recv.free()?;
    counter.free()?;
    Ok((total / iters.max(1) as f64, ok))
}

/// Runs ISx once, or over 1-4 locales with `--sweep`; locale 0 prints one line per job.
pub fn isx(args: &IsxArgs) -> Result<()> {
    let base = crate::config(&args.common)?;
    let kpl = args.keys_per_locale;
    let width = args.bucket_width.unwrap_or(kpl as u64);
    let jobs: Vec<Config> = if args.sweep {
        if base.backend != BackendKind::Local {
            return Err(Error::InvalidArgument("isx --sweep runs the local backend".into()));
        }
        (1..=4).map(|l| base.clone().with_locales(l)).collect()
    } else {
        vec![base]
    };
    for cfg in jobs {
        let out = run(cfg, |ctx| {
            if !args.sweep {
                crate::check_locales(ctx, &args.common)?;
            }
            let (s, ok) = isx_job(ctx, kpl, width, args.iters)?;
            Ok((ctx.id(), ctx.num_locales(), ctx.backend_name(), s, ok))
        })?;
        let (id, locales, backend, s, ok) = out;
        if id == 0 {
            Line::bare("isx")
                .with("locales", locales)
                .with("backend", backend)
                .with("keys_per_locale", kpl as u64)
                .with("seconds", s)
                .with("keys_per_sec_per_locale", kpl as f64 / s)
                .with("ok", ok)
                .with("iters", args.iters.max(1) as u64)
                .with("max_key", width * locales as u64)
                .print(args.common.json);
        }
    }
    Ok(())
}
