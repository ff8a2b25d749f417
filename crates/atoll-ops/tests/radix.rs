//! The radix passes: 16-bit digits on large parts, skipped constant digits, an exchange per
//! locale whatever the number of tasks, and buffers charged to the memory budget.

mod common;

use atoll_array::{dist, DistArray};
use atoll_runtime::{run, Config, Error};
use atoll_util::mix;
use common::reference;

#[test]
fn sixteen_bit_passes_with_one_or_two_tasks_move_the_same_messages() {
    // 2^17 keys per locale and more: 16-bit digits, two tasks per locale in the second job.
    let n = (1usize << 18) + 5;
    let keys: Vec<u64> = (0..n as u64).map(mix).collect();
    let want = reference(&keys);
    let mut seen = Vec::new();
    for threads in [1, 2] {
        let (counts, colls) = run(Config::local(2).with_threads_per_locale(threads), |ctx| {
            let a = DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[i]| keys[i as usize])?;
            ctx.reset_comm_diagnostics()?;
            ctx.start_comm_diagnostics()?;
            let c0 = ctx.collectives_started();
            let p = atoll_ops::argsort(&a.view())?;
            let colls = ctx.collectives_started() - c0;
            ctx.stop_comm_diagnostics()?;
            if let Some(v) = p.gather(0)? {
                assert!(v == want, "{threads} tasks per locale: not the reference permutation");
            }
            Ok((ctx.comm_counts(), colls))
        })
        .unwrap();
        // Full-range keys: four 16-bit passes, each at most 2^16 + 2 puts per locale.
        assert!(counts.puts > 0 && counts.puts <= 4 * ((1 << 16) + 2), "{counts:?}");
        seen.push((counts.puts, counts.bytes, colls));
    }
    assert_eq!(seen[0], seen[1], "(puts, bytes, collectives) with 1 and 2 tasks per locale");
}

#[test]
fn sixteen_bit_packed_records_and_sort_match_the_reference() {
    // Keys of 30 bits and 19 index bits pack into one word: every pass writes through the
    // write-combining lines. Three locales: runs split between staging and local storage.
    let n = (1usize << 18) + 77;
    let keys: Vec<i64> = (0..n as u64).map(|i| (mix(i) % (1 << 30)) as i64 - (1 << 29)).collect();
    let want = reference(&keys);
    let mut sorted = keys.clone();
    sorted.sort_unstable();
    for (locales, threads) in [(2, 2), (3, 1)] {
        run(Config::local(locales).with_threads_per_locale(threads), |ctx| {
            let a = DistArray::from_fn(ctx, dist::block_cyclic(ctx, [n], [1000])?, |[i]| keys[i as usize])?;
            let p = atoll_ops::argsort(&a.view())?;
            let s = atoll_ops::sort(&a.view())?;
            if let (Some(p), Some(s)) = (p.gather(0)?, s.gather(0)?) {
                assert!(p == want, "{locales} locales: not the reference permutation");
                assert!(s == sorted, "{locales} locales: not sorted");
            }
            Ok(())
        })
        .unwrap();
    }
}

#[test]
fn constant_digits_cost_no_pass() {
    run(Config::local(3), |ctx| {
        let n = 500;
        let collectives = |keys: &(dyn Fn(i64) -> u64 + Sync)| -> atoll_runtime::Result<u64> {
            let a = DistArray::from_fn(ctx, dist::cyclic(ctx, [n])?, |[i]| keys(i))?;
            let c0 = ctx.collectives_started();
            let p = atoll_ops::argsort(&a.view())?;
            let c = ctx.collectives_started() - c0;
            let k: Vec<u64> = (0..n as i64).map(keys).collect();
            if let Some(v) = p.gather(0)? {
                assert_eq!(v, reference(&k));
            }
            Ok(c)
        };
        // Small parts use 8-bit digits: one varying digit, three, four.
        let one = collectives(&|i| ((i as u64 * 7) % 256) << 40 | 0xAB)?;
        let three = collectives(&|i| mix(i as u64) % (1 << 24))?;
        let four = collectives(&|i| mix(i as u64) % (1 << 32))?;
        let none = collectives(&|_| 12345)?;
        // Each pass is one allgather and one barrier (three passes or more use the same two
        // buffers); without a pass, no buffer either.
        assert_eq!(four, three + 2);
        assert!(none < one && one < three, "{none} collectives without a pass, {one} with one, {three} with three");
        Ok(())
    })
    .unwrap();
}

#[test]
fn buffers_over_the_budget_fail_on_every_locale_and_the_job_goes_on() {
    let r = run(Config::local(2).with_mem_max("1MiB"), |ctx| {
        let n = 100_000; // 16-byte records: 1.6 MB per locale in two buffers
        let a = DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[i]| mix(i as u64) as i64)?;
        match atoll_ops::argsort(&a.view()) {
            Err(Error::OutOfMemory { operation, .. }) => assert!(operation.contains("argsort"), "{operation}"),
            other => panic!("locale {}: expected OutOfMemory, got {:?}", ctx.id(), other.map(|_| ())),
        }
        assert_eq!(ctx.budget().reserved(), 0);
        let small = a.slice(0..1000)?;
        let p = atoll_ops::argsort(&small)?;
        Ok(p.len())
    })
    .unwrap();
    assert_eq!(r, 1000);
}
