//! Sizes past the engine's internal limits: zip segments (8,192 iterations), task-pool chunks
//! (65,536 elements, for `filled` and scans) and assignment buffers (2^20 elements, split
//! along the first dimension), against a sequential reference.

mod common;

use atoll_array::{dist, Block, Cyclic, DistArray, Domain, ExprReduce, LocaleGrid, StridedRange};
use atoll_runtime::{run, Config, SublocaleMode};
use common::check;

/// A strided destination view (not contiguous in local storage) whose remote source part is
/// larger than one assignment buffer: the transfer is split, and every element arrives.
#[test]
fn assign_of_more_than_one_buffer_to_a_strided_view() {
    run(Config::local(2), |ctx| {
        let n: i64 = 4_400_000;
        // The source's first half lives on locale 1, the destination's on locale 0.
        let src_dist = Block::new(Domain::from_shape([n as usize])?, LocaleGrid::new([1, 0], [2])?);
        let src = DistArray::<i32, 1>::from_fn(ctx, src_dist, |[i]| (i % 1_000_003) as i32)?;
        let mut dst = DistArray::<i32, 1>::filled(ctx, dist::block(ctx, [n as usize])?, -1)?;
        let even = Domain::new([StridedRange::with_stride(0, n, 2)?])?;
        let odd = Domain::new([StridedRange::with_stride(1, n, 2)?])?;
        ctx.reset_comm_diagnostics()?;
        ctx.start_comm_diagnostics()?;
        dst.slice_mut(even)?.assign(&src.slice(odd)?)?;
        ctx.stop_comm_diagnostics()?;
        let c = ctx.comm_counts();
        // Locale 0's 1.1 M destination elements all come from locale 1: two transfers of at
        // most 2^20 elements. Locale 1's come from locale 0 likewise.
        check(c.gets == 0 && c.strided_gets == 2, || format!("counts {c:?}"))?;
        for k in [0i64, 1, 2, 1 << 20, (1 << 21) + 2, n / 2, n / 2 + 1, n - 2, n - 1] {
            let want = if k % 2 == 0 { ((k + 1) % 1_000_003) as i32 } else { -1 };
            check(dst.get([k])? == want, || format!("dst[{k}]"))?;
        }
        if let Some(g) = dst.gather(0)? {
            let bad = (0..n).find(|&k| g[k as usize] != if k % 2 == 0 { ((k + 1) % 1_000_003) as i32 } else { -1 });
            check(bad.is_none(), || format!("first wrong element at {bad:?}"))?;
        }

        // 2-D: 1,100 rows of 1,000 of the 1,001 columns per locale, all remote: split by rows.
        let sd = Block::new(Domain::from_shape([2200, 1001])?, LocaleGrid::new([1, 0], [2, 1])?);
        let src = DistArray::<u8, 2>::from_fn(ctx, sd, |[i, j]| ((i * 3 + j) % 251) as u8)?;
        let mut dst = DistArray::<u8, 2>::zeros(ctx, dist::block(ctx, [2200, 1001])?)?;
        ctx.reset_comm_diagnostics()?;
        ctx.start_comm_diagnostics()?;
        dst.slice_mut([0..2200, 0..1000])?.assign(&src.slice([0..2200, 1..1001])?)?;
        ctx.stop_comm_diagnostics()?;
        let c = ctx.comm_counts();
        check(c.gets == 0 && c.strided_gets == 2, || format!("2-D counts {c:?}"))?;
        if let Some(g) = dst.gather(1)? {
            let bad = (0..2200i64 * 1001).find(|&k| {
                let (i, j) = (k / 1001, k % 1001);
                g[k as usize] != if j < 1000 { ((i * 3 + j + 1) % 251) as u8 } else { 0 }
            });
            check(bad.is_none(), || format!("2-D: first wrong element at {bad:?}"))?;
        }
        Ok(())
    })
    .unwrap();
}

/// Long rows: zips (aligned, misaligned, indexed), reductions and scans over more than one
/// segment per row and more than one task chunk per locale, with one or several sublocales and
/// threads per locale.
#[test]
fn long_rows_cross_segment_and_chunk_boundaries() {
    for config in [
        Config::local(3),
        Config::local(1).with_sublocales(SublocaleMode::Core).with_threads_per_locale(4),
        Config::local(2).with_sublocales(SublocaleMode::None).with_threads_per_locale(3),
    ] {
        long_rows(config);
    }
}

fn long_rows(config: Config) {
    run(config, |ctx| {
        let n = 200_000usize;
        let f = |i: i64| (i * 7919 % 10_007) - 5_000;
        let a = DistArray::<i64, 1>::from_fn(ctx, dist::block(ctx, [n])?, |[i]| f(i))?;
        let b = DistArray::<i64, 1, Cyclic<1>>::from_fn(ctx, dist::cyclic(ctx, [n])?, |[i]| i)?;
        let mut c = DistArray::<i64, 1>::filled(ctx, dist::block(ctx, [n])?, 1)?;
        check(c.view().sum()? == n as i64, || "filled".into())?;
        c.view_mut().zip_apply_indexed((a.view(), b.view()), |[i], x, (p, q)| *x += p + 2 * q + 3 * i)?;
        if let Some(g) = c.gather(0)? {
            let bad = (0..n as i64).find(|&i| g[i as usize] != f(i) + 5 * i + 1);
            check(bad.is_none(), || format!("zip_apply_indexed wrong at {bad:?}"))?;
        }
        let (mn, at) = a.view().argmin()?;
        let want_at = (0..n as i64).min_by_key(|&i| (f(i), i)).unwrap();
        check((mn, at) == (f(want_at), [want_at]), || format!("argmin {mn} at {at:?}, want {want_at}"))?;
        let big = a.slice(Domain::new([StridedRange::with_stride(3, n as i64, 3)?])?)?;
        let s = big.cumsum()?;
        let want: Vec<i64> = (3..n as i64)
            .step_by(3)
            .scan(0, |acc, i| {
                *acc += f(i);
                Some(*acc)
            })
            .collect();
        check(s.gather(ctx.num_locales() - 1)?.is_none_or(|g| g == want), || "cumsum of a long strided view".into())?;
        let e = b.view().scan(|x, y| x.max(y), i64::MIN, false)?;
        check(e.get([0])? == i64::MIN && e.get([n as i64 - 1])? == n as i64 - 2, || "exclusive max scan".into())?;
        // 2-D with rows longer than a segment, a misaligned view follower.
        let p = DistArray::<f64, 2, Cyclic<2>>::from_fn(ctx, dist::cyclic(ctx, [3, 20_000])?, |[i, j]| {
            (i * 20_000 + j) as f64
        })?;
        let mut q = DistArray::<f64, 2>::zeros(ctx, dist::block(ctx, [3, 20_000])?)?;
        q.slice_mut([0..3, 0..19_999])?.assign_expr(p.slice([0..3, 1..20_000])? * 0.5)?;
        let t = q.view().sum()?;
        let want_t: f64 = (0..3).flat_map(|i| (1..20_000).map(move |j| (i * 20_000 + j) as f64 * 0.5)).sum();
        check(t == want_t, || format!("2-D sum {t}, want {want_t}"))?;
        check(q.view().argmax()? == (59_999.0 * 0.5, [2, 19_998]), || "2-D argmax".into())?;
        Ok(())
    })
    .unwrap();
}
