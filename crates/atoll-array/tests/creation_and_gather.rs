//! Creation (`from_fn`, `filled`, `zeros`, `from_vec`), `gather` of arrays and of (strided,
//! nested) views, the local part's layout, and single-element `get`/`set` (local and remote),
//! against a sequential reference, over random shapes, bases, strides, grids, distributions
//! and locale counts 1-5.

mod common;

use atoll_array::{DistArray, Distribution};
use atoll_runtime::{run, Config, Ctx, Result};
use common::*;
use proptest::prelude::*;

fn body<const D: usize, M: Distribution<D> + 'static>(
    ctx: &Ctx,
    dist: M,
    op: &Operand<D>,
    how: u8,
    root: usize,
) -> Result<()> {
    let (dom, salt, me) = (op.dom, op.salt, ctx.id());
    let root = root % ctx.num_locales();
    let expected: Vec<i64> = match how {
        0 => reference(&dom, |i| val(i, salt)),
        1 => vec![salt; dom.size()],
        2 => vec![0; dom.size()],
        _ => reference(&dom, |i| val(i, salt) * 3),
    };
    let mut a = match how {
        0 => DistArray::<i64, D, M>::from_fn(ctx, dist.clone(), |i| val(i, salt))?,
        1 => DistArray::<i64, D, M>::filled(ctx, dist.clone(), salt)?,
        2 => DistArray::<i64, D, M>::zeros(ctx, dist.clone())?,
        _ => DistArray::<i64, D, M>::from_vec(ctx, dist.clone(), root, (me == root).then(|| expected.clone()))?,
    };
    check(a.shape() == dom.shape() && a.len() == dom.size() && a.is_empty() == (dom.size() == 0), || "shape".into())?;
    // Creation is complete everywhere when it returns: read every element at once (remote
    // ones with a get), before any other collective operation.
    for (k, i) in dom.iter().enumerate() {
        let x = a.get(i)?;
        check(x == expected[k], || format!("right after creation ({how}), get {i:?} = {x}, want {}", expected[k]))?;
    }

    // The local part holds exactly the owned elements, in the distribution's local order.
    let owned = if dist.grid().contains(me) { dist.local_len(me)? } else { 0 };
    check(a.local().len() == owned, || format!("local length {} != {owned}", a.local().len()))?;
    for (off, &v) in a.local().iter().enumerate() {
        let idx = dist.global_index(me, off)?;
        check(v == expected[pos(&dom, idx)], || format!("local offset {off} (index {idx:?}) holds {v}"))?;
    }

    // Gather of the whole array and of the view chain.
    let g = a.gather(root)?;
    check(g.is_some() == (me == root), || "gather returns Some on the root only".into())?;
    if let Some(g) = g {
        check(g == expected, || format!("gather {g:?} != {expected:?}"))?;
    }
    let v = nested(&a, &op.views)?;
    let vdom = op.view_dom();
    check(*v.domain() == vdom && v.shape() == vdom.shape() && v.len() == vdom.size(), || "view domain".into())?;
    let want_v: Vec<i64> = vdom.iter().map(|i| expected[pos(&dom, i)]).collect();
    if let Some(gv) = v.gather(root)? {
        check(gv == want_v, || format!("view gather {gv:?} != {want_v:?} (view {vdom})"))?;
    }

    // Every locale reads every element of the view (remote ones with a get).
    for (k, i) in vdom.iter().enumerate() {
        let x = v.get(i)?;
        check(x == want_v[k], || format!("get {i:?} = {x}, want {}", want_v[k]))?;
        check(a.get(i)? == want_v[k], || "array get".into())?;
    }

    // Each locale sets a disjoint share of the view's elements (mostly remote ones).
    ctx.barrier()?;
    nested_mut(&mut a.view_mut(), &op.views, &mut |w| {
        for (k, i) in vdom.iter().enumerate() {
            if k % ctx.num_locales() == me {
                w.set(i, 10_000 + k as i64)?;
            }
        }
        Ok(())
    })?;
    ctx.barrier()?;
    let mut after = expected.clone();
    for (k, i) in vdom.iter().enumerate() {
        after[pos(&dom, i)] = 10_000 + k as i64;
    }
    if let Some(g) = a.gather(root)? {
        check(g == after, || format!("after set: {g:?} != {after:?}"))?;
    }
    // DistArray::set too, one index per locale, then read back from everywhere.
    if let Some(i) = dom.iter().nth(me) {
        a.set(i, -7)?;
    }
    ctx.barrier()?;
    for (k, i) in dom.iter().enumerate() {
        let want = if k < ctx.num_locales() { -7 } else { after[k] };
        check(a.get(i)? == want, || format!("after DistArray::set, {i:?}"))?;
    }
    ctx.barrier()?;
    a.free()
}

fn case<const D: usize>(n: usize, op: Operand<D>, how: u8, root: usize) -> std::result::Result<(), TestCaseError> {
    let r = run(Config::local(n), |ctx| with_dist!(op.build(), dist => body(ctx, dist, &op, how, root)));
    prop_assert!(r.is_ok(), "{:?}", r.unwrap_err());
    Ok(())
}

macro_rules! rank_tests {
    ($($name:ident: $d:literal),*) => {$(
        proptest! {
            #![proptest_config(config(160))]
            #[test]
            fn $name(
                (n, op) in (1usize..=5, shape_strategy::<$d>(max_extent($d)))
                    .prop_flat_map(|(n, s)| (Just(n), operand_strategy::<$d>(s, dist_strategy::<$d>(n)))),
                how in 0u8..4,
                root in 0usize..5,
            ) {
                case::<$d>(n, op, how, root)?;
            }
        }
    )*};
}

rank_tests!(
    create_gather_get_set_match_reference_1d: 1,
    create_gather_get_set_match_reference_2d: 2,
    create_gather_get_set_match_reference_3d: 3
);
