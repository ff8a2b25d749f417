//! Static aggregation (`follow/aggregation.rs`, `follow/mod.rs`): zippered loops with shifted and strided
//! followers on Block, Cyclic and BlockCyclic arrays of 1-3 dimensions, a written follower and
//! the owning expression, in the three modes, against sequential references (tiles of several
//! groups of rows included); `static` never makes more messages than `off`, and `auto` never
//! more than `off`.

use atoll_array::{
    aggregation, dist, follower_stats, reset_follower_stats, set_aggregation, Aggregation, Block, BlockCyclic, Cyclic,
    DistArray, Distribution, Domain, StridedRange,
};
use atoll_runtime::{run, CommCounts, Config, Ctx, Error, Result};
use proptest::prelude::*;

fn check(cond: bool, what: impl FnOnce() -> String) -> Result<()> {
    if cond {
        Ok(())
    } else {
        Err(Error::InvalidArgument(format!("check failed: {}", what())))
    }
}

fn measure<R>(ctx: &Ctx, f: impl FnOnce() -> Result<R>) -> Result<(R, u64)> {
    ctx.reset_comm_diagnostics()?;
    ctx.start_comm_diagnostics()?;
    let r = f();
    ctx.stop_comm_diagnostics()?;
    let r = r?;
    let total = ctx.comm_diagnostics()?.iter().map(CommCounts::total_ops).sum();
    Ok((r, total))
}

fn val<const D: usize>(i: [i64; D], salt: i64) -> i64 {
    i.iter().fold(salt, |h, &x| h.wrapping_mul(1_000_003).wrapping_add(x * 7 + 1))
}

/// The index of `idx` in the row-major order of the full `shape`.
fn flat<const D: usize>(idx: [i64; D], shape: [usize; D]) -> usize {
    (0..D).fold(0usize, |f, d| f * shape[d] + idx[d] as usize)
}

/// In each mode: `a[ld] = 3 a[ld] + b[fd]` (read follower), `a[ld] += 1; c[fd] = a + b` (written
/// follower), and `a[fd] = 2 b[ld] + b[ld]` (owning expression), against references; returns the
/// messages per mode.
fn scenario<const D: usize, ML, MF>(ctx: &Ctx, ldist: ML, fdist: MF, ld: Domain<D>, fd: Domain<D>) -> Result<Vec<u64>>
where
    ML: Distribution<D> + Clone + 'static,
    MF: Distribution<D> + Clone + 'static,
{
    let shape = ldist.domain().shape();
    let pairs: Vec<([i64; D], [i64; D])> = ld.iter().zip(fd.iter()).collect();
    let mut msgs = Vec::new();
    for mode in [Aggregation::Off, Aggregation::Static, Aggregation::Auto] {
        set_aggregation(ctx, mode);
        check(aggregation(ctx)? == mode, || "mode set".into())?;
        reset_follower_stats(ctx);
        let mut a = DistArray::<i64, D, ML>::from_fn(ctx, ldist.clone(), |i| val(i, 1))?;
        let b = DistArray::<i64, D, MF>::from_fn(ctx, fdist.clone(), |i| val(i, 2))?;
        let mut c = DistArray::<i64, D, MF>::zeros(ctx, fdist.clone())?;
        let bl = DistArray::<i64, D, ML>::from_fn(ctx, ldist.clone(), |i| val(i, 3))?;
        let mut total = 0;
        let ((), m) =
            measure(ctx, || a.slice_mut(ld)?.zip_apply(b.slice(fd)?, |x, y| *x = x.wrapping_mul(3).wrapping_add(y)))?;
        total += m;
        let ((), m) = measure(ctx, || {
            a.slice_mut(ld)?.zip_apply_with_mut(&mut c.slice_mut(fd)?, b.slice(fd)?, |x, y, v| {
                *x = x.wrapping_add(1);
                *y = x.wrapping_add(v);
            })
        })?;
        total += m;
        let mut e = DistArray::<i64, D, MF>::zeros(ctx, fdist.clone())?;
        let ((), m) = measure(ctx, || e.slice_mut(fd)?.assign_expr_owning(bl.slice(ld)? * 2i64 + bl.slice(ld)?))?;
        total += m;
        msgs.push(total);
        let stats = follower_stats(ctx);
        check(stats.max_chunk_elems as usize <= atoll_array::GROUP, || format!("chunk {stats:?}"))?;
        let (ga, gc, ge) = (a.gather(0)?, c.gather(0)?, e.gather(0)?);
        if let (Some(ga), Some(gc), Some(ge)) = (ga, gc, ge) {
            let mut wa: Vec<i64> = ldist.domain().iter().map(|i| val(i, 1)).collect();
            let mut wc = vec![0i64; gc.len()];
            let mut we = vec![0i64; ge.len()];
            for &(i, j) in &pairs {
                let x = &mut wa[flat(i, shape)];
                *x = x.wrapping_mul(3).wrapping_add(val(j, 2)).wrapping_add(1);
                wc[flat(j, fdist.domain().shape())] = x.wrapping_add(val(j, 2));
                we[flat(j, fdist.domain().shape())] = val(i, 3).wrapping_mul(3);
            }
            check(ga == wa, || format!("{mode}: leader values"))?;
            check(gc == wc, || format!("{mode}: written follower values"))?;
            check(ge == we, || format!("{mode}: owning expression values"))?;
        }
    }
    set_aggregation(ctx, Aggregation::Auto);
    check(msgs[1] <= msgs[0] && msgs[2] <= msgs[0], || format!("messages off/static/auto {msgs:?}"))?;
    Ok(msgs)
}

fn sub1(lo: i64, len: usize, stride: u64) -> Result<Domain<1>> {
    Domain::new([StridedRange::with_stride(lo, lo + (len as i64 - 1) * stride as i64 + 1, stride)?])
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    /// 1-D: a shifted, strided follower on every pair of distributions.
    #[test]
    fn one_dimension(locales in 1usize..=4, n in 8usize..300, shift in 0i64..5, stride in 1u64..4, block in 1usize..9, kinds in 0usize..9) {
        let len = ((n as i64 - shift - 1) / stride as i64 + 1) as usize;
        prop_assume!(len >= 1 && ((len - 1) * stride as usize + shift as usize) < n);
        let r = run(Config::local(locales), |ctx| {
            let ld = sub1(0, len, stride)?;
            let fd = sub1(shift, len, stride)?;
            let all = atoll_array::LocaleGrid::auto(0..ctx.num_locales())?;
            let dom = Domain::from_shape([n])?;
            let b = || Ok::<_, Error>(Block::new(dom, all.clone()));
            let c = || Ok::<_, Error>(Cyclic::new(dom, all.clone()));
            let bc = || BlockCyclic::new(dom, all.clone(), [block]);
            match kinds {
                0 => scenario(ctx, c()?, c()?, ld, fd),
                1 => scenario(ctx, bc()?, bc()?, ld, fd),
                2 => scenario(ctx, b()?, b()?, ld, fd),
                3 => scenario(ctx, b()?, c()?, ld, fd),
                4 => scenario(ctx, c()?, bc()?, ld, fd),
                5 => scenario(ctx, bc()?, c()?, ld, fd),
                6 => scenario(ctx, b()?, bc()?, ld, fd),
                7 => scenario(ctx, bc()?, b()?, ld, fd),
                _ => scenario(ctx, c()?, b()?, ld, fd),
            }
        });
        prop_assert!(r.is_ok(), "{:?}", r.err());
    }
}

/// 2-D and 3-D stencil-like shifts (halo rows and columns) on Cyclic, BlockCyclic and Block.
#[test]
fn two_and_three_dimensions() {
    for locales in [2, 3, 4] {
        run(Config::local(locales), |ctx| {
            let (n, m) = (23usize, 17usize);
            let ld = Domain::new([StridedRange::new(1, n as i64 - 1), StridedRange::new(1, m as i64 - 1)])?;
            for (di, dj) in [(-1i64, 0i64), (0, -1), (1, 1), (0, 1)] {
                let fd = Domain::new([
                    StridedRange::new(1 + di, n as i64 - 1 + di),
                    StridedRange::new(1 + dj, m as i64 - 1 + dj),
                ])?;
                let msgs = scenario(ctx, dist::cyclic(ctx, [n, m])?, dist::cyclic(ctx, [n, m])?, ld, fd)?;
                if msgs[0] > 0 {
                    check(msgs[1] < msgs[0], || format!("2-D Cyclic shift ({di},{dj}): static {msgs:?}"))?;
                }
                scenario(
                    ctx,
                    dist::block_cyclic(ctx, [n, m], [3, 2])?,
                    dist::block_cyclic(ctx, [n, m], [3, 2])?,
                    ld,
                    fd,
                )?;
                scenario(ctx, dist::block(ctx, [n, m])?, dist::block(ctx, [n, m])?, ld, fd)?;
            }
            let s = 9usize;
            let ld =
                Domain::new([StridedRange::new(1, 9), StridedRange::new(0, 8), StridedRange::with_stride(0, 8, 2)?])?;
            let fd =
                Domain::new([StridedRange::new(0, 8), StridedRange::new(1, 9), StridedRange::with_stride(1, 9, 2)?])?;
            scenario(
                ctx,
                dist::block_cyclic(ctx, [s, s, s], [2, 2, 2])?,
                dist::block_cyclic(ctx, [s, s, s], [2, 2, 2])?,
                ld,
                fd,
            )?;
            scenario(ctx, dist::cyclic(ctx, [s, s, s])?, dist::cyclic(ctx, [s, s, s])?, ld, fd)?;
            Ok(())
        })
        .unwrap();
    }
}

/// Groups of rows (`GROUP` iterations) in 3-D: tiles whose planes hold several groups, with a
/// plane shift on Cyclic data (whole groups remote) and a column halo on Block data split along
/// its last dimension (reads, a written follower and the owning expression, against references).
#[test]
fn three_dimensional_tiles_of_several_groups() {
    run(Config::local(2), |ctx| {
        let shape = [3usize, 1700, 80];
        let whole = Domain::from_shape(shape)?;
        let inner = |d: [i64; 3]| {
            Domain::new([
                StridedRange::new(d[0], 2 + d[0]),
                StridedRange::new(1 + d[1], 1699 + d[1]),
                StridedRange::new(1 + d[2], 79 + d[2]),
            ])
        };
        let (ld, planes, cols) = (inner([0, 0, 0])?, inner([1, 0, 0])?, inner([0, 0, -1])?);
        // A plane of a tile has 1698 rows of 39 (Block) or 78 (Cyclic) elements: several groups.
        check(1698 * 39 > atoll_array::GROUP, || "sizes make several groups per plane".into())?;
        let cyc = dist::cyclic(ctx, shape)?;
        let msgs = scenario(ctx, cyc.clone(), cyc, ld, planes)?;
        check(msgs[1] < msgs[0], || format!("Cyclic plane shift {msgs:?}"))?;
        let blk = Block::new(whole, atoll_array::LocaleGrid::new(0..2, [1, 1, 2])?);
        let msgs = scenario(ctx, blk.clone(), blk, ld, cols)?;
        check(msgs[1] < msgs[0], || format!("Block column halo {msgs:?}"))?;
        Ok(())
    })
    .unwrap();
}

/// A long Cyclic row: `static` fetches each chunk from the neighbour with one strided get, so
/// the messages are about chunks x remote owners, against one per element for `off`.
#[test]
fn cyclic_chunks_are_one_strided_get_each() {
    run(Config::local(2), |ctx| {
        let n = 100_000usize;
        let a = DistArray::<f64, 1, Cyclic<1>>::from_fn(ctx, dist::cyclic(ctx, [n])?, |[i]| i as f64)?;
        let mut b = DistArray::<f64, 1, Cyclic<1>>::zeros(ctx, dist::cyclic(ctx, [n])?)?;
        let mut msgs = Vec::new();
        for mode in [Aggregation::Off, Aggregation::Static] {
            set_aggregation(ctx, mode);
            let ((), m) = measure(ctx, || b.slice_mut(1..n as i64)?.assign_expr(a.slice(0..n as i64 - 1)? * 0.5))?;
            msgs.push(m);
            check(b.get([77])? == 38.0, || "values".into())?;
        }
        // Each locale owns n/2 leader elements, all of whose followers are on the other one.
        check(msgs[0] == (n - 1) as u64, || format!("off {msgs:?}"))?;
        let chunks = 2 * (n / 2).div_ceil(atoll_array::SEG) as u64;
        check(msgs[1] <= chunks, || format!("static {msgs:?}, chunks {chunks}"))?;
        Ok(())
    })
    .unwrap();
}

/// A bad `ATOLL_AGGREGATION` value is a typed error, and the parser names the choices.
#[test]
fn mode_names_parse() {
    assert_eq!("static".parse::<Aggregation>().unwrap(), Aggregation::Static);
    assert_eq!(" AUTO ".parse::<Aggregation>().unwrap(), Aggregation::Auto);
    let e = "sometimes".parse::<Aggregation>().unwrap_err();
    assert!(matches!(e, Error::InvalidArgument(ref m) if m.contains("off, static or auto")), "{e}");
}

/// The mode comes from the job's `Config` (`ATOLL_AGGREGATION` is checked when the job
/// starts); `set_aggregation` overrides it per locale.
#[test]
fn mode_comes_from_the_config() {
    for mode in [Aggregation::Off, Aggregation::Static, Aggregation::Auto] {
        atoll_runtime::run(atoll_runtime::Config::local(2).with_aggregation(mode), |ctx| {
            assert_eq!(aggregation(ctx)?, mode);
            set_aggregation(ctx, Aggregation::Off);
            assert_eq!(aggregation(ctx)?, Aggregation::Off);
            Ok(())
        })
        .unwrap();
    }
}
