//! Huge pages for large arrays (`atoll_runtime::hugepages`): gather and scatter over arrays of
//! several MiB per locale give the same results, equal to the sequential reference, with the
//! advice on and off; the advice is set on large arrays' memory when on; the memory budget
//! still refuses before allocating. One test function: the switch is process-wide.

use atoll_array::{dist, DistArray};
use atoll_runtime::{hugepages, run, Config, Error};
use atoll_util::mix;

/// Gather then scatter on `locales` locales over `n` elements: (gathered, scattered, the parts
/// found advised for huge pages when `check_advice`, over every locale).
fn gather_scatter(locales: usize, n: usize, check_advice: bool) -> (Vec<u64>, Vec<u64>, u64) {
    run(Config::local(locales), |ctx| {
        let a = DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[i]| i as u64 * 7 + 3)?;
        let idx = DistArray::from_fn(ctx, dist::cyclic(ctx, [n])?, |[j]| (mix(j as u64) % n as u64) as i64)?;
        let g = a.take(&idx)?;
        let mut s = DistArray::<u64, 1>::zeros_lazy(ctx, dist::block(ctx, [n])?)?;
        // A permutation: i -> (i * odd) mod n (n a power of two).
        let p = DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[j]| {
            ((j as u64).wrapping_mul(0x2545_f491) % n as u64) as i64
        })?;
        let v = DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[j]| j as u64 + 1)?;
        s.scatter_at(&p, &v)?;
        let mut advised = 0u64;
        for (what, local) in [("a", a.local()), ("take's output", g.local()), ("zeros_lazy", s.local())] {
            if !check_advice || size_of_val(local) < hugepages::THRESHOLD {
                continue;
            }
            // The middle of a part of >= 4 MiB is in its 2 MiB aligned interior.
            let mid = local[local.len() / 2..].as_ptr().cast::<u8>();
            if let Some(adv) = hugepages::is_advised(mid) {
                assert!(adv, "{what} on locale {} is not advised for huge pages", ctx.id());
                advised += 1;
            }
        }
        Ok((g.to_vec()?, s.to_vec()?, ctx.allreduce(advised, |x, y| x + y)?))
    })
    .unwrap()
}

#[test]
fn huge_pages_on_and_off_give_the_sequential_results() {
    let n = 1usize << 20; // 8 MiB of u64 per array: 2 to 8 MiB per locale.
    let want_g: Vec<u64> = (0..n as u64).map(|j| (mix(j) % n as u64) * 7 + 3).collect();
    let mut want_s = vec![0u64; n];
    for j in 0..n as u64 {
        want_s[(j.wrapping_mul(0x2545_f491) % n as u64) as usize] = j + 1;
    }
    for locales in [1, 2, 4] {
        hugepages::set_enabled(true);
        assert!(hugepages::enabled());
        let on = gather_scatter(locales, n, true);
        hugepages::set_enabled(false);
        let off = gather_scatter(locales, n, false);
        assert!(on.0 == want_g && on.1 == want_s, "{locales} locales, huge pages on");
        assert!(off.0 == want_g && off.1 == want_s, "{locales} locales, huge pages off");
        if cfg!(target_os = "linux") && locales <= 2 {
            assert_eq!(on.2, 3 * locales as u64, "{locales} locales: every part of >= 4 MiB checked");
        }
    }
    hugepages::set_enabled(true);
    // The budget still refuses a large array before anything is allocated.
    let e = run(Config::local(2).with_mem_max("8MiB"), |ctx| {
        DistArray::<u64, 1>::zeros(ctx, dist::block(ctx, [n * 8])?).map(drop)
    })
    .unwrap_err();
    assert!(matches!(e, Error::OutOfMemory { .. }), "{e}");
}
