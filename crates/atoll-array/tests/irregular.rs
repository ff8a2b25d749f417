//! Gather `a[idx]` and scatter `a[idx] = v` (`atoll_array::irregular`) on the local backend
//! with 1 to 4 locales: every distribution pair, sizes not divisible by the locale count,
//! random indices with duplicates, permutations, small buffers (full-buffer flushes), exact
//! message counts, errors and empty arrays.

mod irregular_scenarios;

use atoll_array::{dist, DistArray, IrregularOptions};
use atoll_runtime::{run, Config, Error};
use irregular_scenarios as sc;

fn each_size(f: impl Fn(usize)) {
    for n in 1..=4 {
        f(n);
    }
}

#[test]
fn gather_and_scatter_scenarios_on_1_to_4_locales() {
    each_size(|n| {
        let r = run(Config::local(n), |ctx| sc::all(ctx).map(|r| sc::report(&r)))
            .unwrap_or_else(|e| panic!("{n} locales: {e}"));
        assert_eq!(r.lines().count(), 18, "{r}");
    });
}

#[test]
fn one_locale_sends_no_message() {
    let all = run(Config::local(1), sc::all).unwrap();
    for (name, counts) in all {
        assert!(counts.iter().all(|c| c.total_ops() == 0), "{name}: {counts:?}");
    }
}

#[test]
fn random_gathers_match_the_sequential_reference() {
    each_size(|nl| {
        for seed in 0..4u64 {
            let mut r = sc::Rng(seed);
            let (n, m) = (1 + r.below(300), r.below(500));
            let (cap, tasks) = (1 + r.below(20), 1 + r.below(4));
            run(Config::local(nl), |ctx| {
                sc::gather_case(
                    ctx,
                    dist::block_cyclic(ctx, [n], [1 + seed as usize])?,
                    dist::cyclic(ctx, [m])?,
                    cap,
                    tasks,
                    seed,
                )?;
                sc::scatter_case(ctx, dist::cyclic(ctx, [n])?, dist::block(ctx, [n])?, cap, tasks, seed).map(drop)
            })
            .unwrap_or_else(|e| panic!("{nl} locales, n {n}, m {m}, cap {cap}, tasks {tasks}: {e}"));
        }
    });
}

#[test]
fn the_default_buffer_is_atoll_agg_buffer() {
    // 2 locales, Block arrays, buffers of 3 from the configuration, 1 task.
    let counts = run(Config::local(2).with_agg_buffer(3), |ctx| {
        let n = 100;
        let a = DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[i]| i as u64)?;
        // Locale 0's indices all name locale 1's elements and vice versa: 50 each way.
        let idx = DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[j]| (j + 50) % n as i64)?;
        let (b, c) = sc::counted(ctx, || a.take_with(&idx, &IrregularOptions::aggregated().with_tasks(1)))?;
        assert_eq!(b.get([0])?, 50);
        Ok(c)
    })
    .unwrap();
    assert_eq!(counts.ams, 17); // ceil(50 / 3)
}

#[test]
fn errors_are_the_same_on_every_locale_and_nothing_is_written() {
    each_size(|n| {
        run(Config::local(n), |ctx| sc::out_of_bounds(ctx, 50)).unwrap_or_else(|e| panic!("{n} locales: {e}"))
    });
    each_size(|n| run(Config::local(n), sc::empty).unwrap_or_else(|e| panic!("{n} locales: {e}")));
}

#[test]
fn duplicates_and_other_types() {
    each_size(|n| {
        run(Config::local(n), |ctx| {
            sc::scatter_duplicates(ctx, 101, 1000, 4)?;
            sc::other_types(ctx, 203)
        })
        .unwrap_or_else(|e| panic!("{n} locales: {e}"))
    });
}

#[test]
fn aggregation_buffers_over_the_budget_fail_on_every_locale_before_writing() {
    run(Config::local(2).with_mem_max("4MiB"), |ctx| {
        let n = 1000;
        let mut a = DistArray::<u64, 1>::zeros(ctx, dist::block(ctx, [n])?)?;
        let idx = DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[j]| n as i64 - 1 - j)?;
        let v = DistArray::<u64, 1>::filled(ctx, dist::block(ctx, [n])?, 5)?;
        // Buffers of 2^20 elements (16 MiB each) cannot fit: but only 500 elements are used,
        // so the worst case is 4 + 500 * 16 bytes per buffer: it fits.
        a.scatter_at_with(&idx, &v, &IrregularOptions::aggregated().with_buffer(1 << 20))?;
        assert!(a.local().iter().all(|&x| x == 5));
        Ok(())
    })
    .unwrap();
    let e = run(Config::local(2).with_mem_max("2MiB"), |ctx| {
        let n = 1 << 16;
        let mut a = DistArray::<u64, 1>::zeros(ctx, dist::block(ctx, [n])?)?;
        let idx = DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[j]| n as i64 - 1 - j)?;
        let v = DistArray::<u64, 1>::filled(ctx, dist::block(ctx, [n])?, 5)?;
        // 2^15 elements per locale, one task: buffers of 2^15 x 16 bytes, 5 of them: 2.5 MiB.
        let r = a.scatter_at_with(&idx, &v, &IrregularOptions::aggregated().with_buffer(1 << 15).with_tasks(1));
        let all = ctx.allgather(&r.clone().err())?;
        assert!(all.iter().all(|x| *x == all[0]), "{all:?}");
        assert!(a.local().iter().all(|&x| x == 0), "nothing written");
        r
    })
    .unwrap_err();
    assert!(matches!(e, Error::OutOfMemory { .. }), "{e}");
}

#[test]
fn batched_direct_loops_cross_batch_boundaries() {
    // The direct gather and scatter work in batches of 1024 per task (`irregular/direct.rs`):
    // parts of several full batches and a partial one, on every distribution kind, against the
    // sequential reference of the scenarios (and their exact message counts).
    each_size(|nl| {
        for (seed, tasks) in [(1u64, 1usize), (2, 2), (3, 3)] {
            let (n, m) = (3001 + seed as usize * 17, 2 * 1024 * tasks + 37 * nl);
            run(Config::local(nl), |ctx| {
                sc::gather_case(ctx, dist::block(ctx, [n])?, dist::cyclic(ctx, [m])?, 8192, tasks, seed)?;
                sc::gather_case(ctx, dist::cyclic(ctx, [n])?, dist::block(ctx, [m])?, 100, tasks, seed)?;
                sc::gather_case(ctx, dist::block_cyclic(ctx, [n], [7])?, dist::block(ctx, [m])?, 1000, tasks, seed)?;
                sc::scatter_case(ctx, dist::block(ctx, [n])?, dist::cyclic(ctx, [n])?, 8192, tasks, seed)?;
                sc::scatter_case(ctx, dist::block_cyclic(ctx, [n], [5])?, dist::block(ctx, [n])?, 64, tasks, seed)
                    .map(drop)
            })
            .unwrap_or_else(|e| panic!("{nl} locales, n {n}, m {m}, tasks {tasks}: {e}"));
        }
    });
}
