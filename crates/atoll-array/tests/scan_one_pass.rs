//! The one-pass scans of a Block array into a Block array over the same indices
//! (`scan/one_pass.rs`, and `scan/wavefront.rs` from 2^20 elements): inclusive and exclusive,
//! sizes around the chunk size (16,384 u64) and over 2^20, 1-3 locales and 1-3 threads per locale, against a sequential loop; f64 results do not depend
//! on the thread count (the chained look-back fixes the combination order). Streaming stores
//! on and off.

use atoll_array::{dist, DistArray};
use atoll_runtime::{run, Config};

fn val(i: u64) -> u64 {
    i.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 40
}

#[test]
fn block_scans_match_the_sequential_loop() {
    // Streaming stores always (rows of at least 256 bytes), then never: the same results.
    for threshold in [0, usize::MAX] {
        atoll_array::stream_store::set_streaming_store_threshold(threshold);
        scans_match(threshold);
    }
}

fn scans_match(threshold: usize) {
    for locales in 1..=3 {
        for threads in 1..=3 {
            for n in [0usize, 1, 5, 16_383, 16_384, 16_385, 100_003, (1 << 20) + 16_387] {
                run(Config::local(locales).with_threads_per_locale(threads), |ctx| {
                    let a = DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[i]| val(i as u64))?;
                    let inc = a.view().cumsum()?.gather(0)?;
                    let exc = a.view().scan(|x, y| x.wrapping_add(y), 0, false)?.gather(0)?;
                    let mut pre = DistArray::<u64, 1>::zeros(ctx, dist::block(ctx, [n])?)?;
                    a.view().scan_into(&mut pre, u64::max, 0, true)?;
                    let mx = pre.gather(0)?;
                    if let (Some(inc), Some(exc), Some(mx)) = (inc, exc, mx) {
                        let (mut s, mut m) = (0u64, 0u64);
                        for i in 0..n {
                            assert_eq!(exc[i], s, "exclusive at {i}, n {n}, {locales} locales, {threads} threads");
                            s = s.wrapping_add(val(i as u64));
                            m = m.max(val(i as u64));
                            assert_eq!(inc[i], s, "inclusive at {i}, n {n}, {locales} locales, {threads} threads, streaming threshold {threshold}");
                            assert_eq!(mx[i], m, "max at {i}");
                        }
                    }
                    Ok(())
                })
                .unwrap();
            }
        }
    }
}

#[test]
fn float_scans_do_not_depend_on_the_thread_count() {
    let n = 70_001;
    for locales in 1..=2 {
        let once = |threads| {
            run(Config::local(locales).with_threads_per_locale(threads), |ctx| {
                let a = DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[i]| 1.0 / (1.0 + i as f64))?;
                a.view().cumsum()?.gather(0)
            })
            .unwrap()
            .unwrap()
        };
        let one = once(1);
        let seq: Vec<f64> = (0..n)
            .scan(0.0, |s, i| {
                *s += 1.0 / (1.0 + i as f64);
                Some(*s)
            })
            .collect();
        assert!(one.iter().zip(&seq).all(|(x, y)| (x - y).abs() <= 1e-9 * y), "{locales} locales vs the loop");
        for threads in 2..=3 {
            let got = once(threads);
            assert!(
                got.iter().zip(&one).all(|(x, y)| x.to_bits() == y.to_bits()),
                "{locales} locales, {threads} threads"
            );
        }
    }
}

/// Large arrays are scanned in one pass across locales (`scan/wavefront.rs`: chunks in global
/// order dealt to the locales, each read and written in place): the same results as the loop,
/// floats independent of the thread count, and the in-place reads of other locales' parts are
/// counted as gets.
#[test]
fn large_scans_across_locales_match_the_sequential_loop() {
    let n = (1usize << 21) + 12_345;
    let seq: Vec<u64> = (0..n as u64)
        .scan(0u64, |s, i| {
            *s = s.wrapping_add(val(i));
            Some(*s)
        })
        .collect();
    for locales in 2..=4 {
        let mut floats: Option<Vec<f64>> = None;
        for threads in 1..=2 {
            let (inc, exc, fl, gets) = run(Config::local(locales).with_threads_per_locale(threads), |ctx| {
                let a = DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[i]| val(i as u64))?;
                ctx.start_comm_diagnostics()?;
                ctx.reset_comm_diagnostics()?;
                let inc = a.view().cumsum()?;
                let gets: u64 = ctx.comm_diagnostics()?.iter().map(|c| c.gets).sum();
                ctx.stop_comm_diagnostics()?;
                let exc = a.view().scan(|x, y| x.wrapping_add(y), 0, false)?.gather(0)?;
                let f = DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[i]| 1.0 / (1.0 + (i % 1000) as f64))?;
                let fl = f.view().cumsum()?.gather(0)?;
                Ok((inc.gather(0)?, exc, fl, gets))
            })
            .unwrap();
            let (inc, exc, fl) = (inc.unwrap(), exc.unwrap(), fl.unwrap());
            assert!(gets > 0, "{locales} locales: the in-place reads of other parts are counted");
            for i in [0, 1, n / 3, n / 2, n - 2, n - 1] {
                assert_eq!(inc[i], seq[i], "inclusive at {i}, {locales} locales, {threads} threads");
                assert_eq!(exc[i], if i == 0 { 0 } else { seq[i - 1] }, "exclusive at {i}");
            }
            assert!(inc == seq, "{locales} locales, {threads} threads");
            match &floats {
                None => floats = Some(fl),
                Some(one) => assert!(
                    one.iter().zip(&fl).all(|(x, y)| x.to_bits() == y.to_bits()),
                    "{locales} locales: floats independent of threads"
                ),
            }
        }
    }
}
