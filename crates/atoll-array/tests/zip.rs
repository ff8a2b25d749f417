//! Zippered `forall` (`zip_apply`, `zip_apply_indexed`) led by a random (nested, strided) view
//! of any distribution, with 1-3 followers of different distributions, element types and views
//! of the same shape (aligned with the leader or not), against a sequential reference.

mod common;

use atoll_array::{Block, BlockCyclic, Cyclic, DistArray, Distribution, ExprExt};
use atoll_runtime::{run, Config, Ctx, Result};
use common::*;
use proptest::prelude::*;

/// What the indexed loop adds for index `idx`.
fn idx_term<const D: usize>(idx: [i64; D]) -> i64 {
    idx.iter().enumerate().map(|(d, &i)| i * 100 * (d as i64 + 1)).sum()
}

fn body<const D: usize, M: Distribution<D> + 'static>(
    ctx: &Ctx,
    dist: M,
    c: &ZipCase<D>,
    k: usize,
    indexed: bool,
    root: usize,
) -> Result<()> {
    let root = root % ctx.num_locales();
    let (l, [f0, f1, f2]) = (&c.leader, &c.followers);
    let mut a = DistArray::<i64, D, M>::from_fn(ctx, dist, |i| val(i, l.salt))?;
    let b = DistArray::<i64, D, Block<D>>::from_fn(ctx, f0.build().block(), |i| val(i, f0.salt))?;
    let cc = DistArray::<f64, D, Cyclic<D>>::from_fn(ctx, f1.build().cyclic(), |i| val(i, f1.salt) as f64)?;
    let e = DistArray::<i32, D, BlockCyclic<D>>::from_fn(ctx, f2.build().block_cyclic(), |i| val(i, f2.salt) as i32)?;
    let (vb, vc, ve) = (nested(&b, &f0.views)?, nested(&cc, &f1.views)?, nested(&e, &f2.views)?);

    // The reference.
    let mut want = reference(&l.dom, |i| val(i, l.salt));
    let (db, dc, de) = (f0.view_dom(), f1.view_dom(), f2.view_dom());
    let (ib, ic, ie): (Vec<_>, Vec<_>, Vec<_>) = (db.iter().collect(), dc.iter().collect(), de.iter().collect());
    for (p, i) in l.view_dom().iter().enumerate() {
        let x = &mut want[pos(&l.dom, i)];
        let (bv, cv, ev) = (val(ib[p], f0.salt), val(ic[p], f1.salt), val(ie[p], f2.salt));
        *x = match k {
            1 => *x * 3 + bv,
            2 => *x * 3 + bv - 2 * cv,
            _ => *x * 3 + bv - 2 * cv + 5 * ev,
        };
        if indexed {
            *x += idx_term(i);
        }
    }

    nested_mut(&mut a.view_mut(), &l.views, &mut |w| match (k, indexed) {
        (1, false) => w.zip_apply(vb, |x, bv| *x = *x * 3 + bv),
        (2, false) => w.zip_apply((vb, vc), |x, (bv, cv)| *x = *x * 3 + bv - 2 * cv as i64),
        (_, false) => {
            w.zip_apply((vb, vc, ve.map(|v| v as i64 * 5)), |x, (bv, cv, ev)| *x = *x * 3 + bv - 2 * cv as i64 + ev)
        }
        (1, true) => w.zip_apply_indexed(vb, |i, x, bv| *x = *x * 3 + bv + idx_term(i)),
        (2, true) => w.zip_apply_indexed((vb, vc), |i, x, (bv, cv)| *x = *x * 3 + bv - 2 * cv as i64 + idx_term(i)),
        (_, true) => w.zip_apply_indexed((vb, vc, ve), |i, x, (bv, cv, ev)| {
            *x = *x * 3 + bv - 2 * cv as i64 + 5 * ev as i64 + idx_term(i)
        }),
    })?;
    if let Some(g) = a.gather(root)? {
        check(g == want, || format!("after the zip: {g:?}\n want {want:?}"))?;
    }
    // The followers are unchanged.
    if let Some(g) = b.gather(root)? {
        check(g == reference(&f0.dom, |i| val(i, f0.salt)), || "follower changed".into())?;
    }
    Ok(())
}

fn case<const D: usize>(c: ZipCase<D>, k: usize, indexed: bool, root: usize) -> std::result::Result<(), TestCaseError> {
    let r = run(Config::local(c.n), |ctx| with_dist!(c.leader.build(), dist => body(ctx, dist, &c, k, indexed, root)));
    prop_assert!(r.is_ok(), "{:?}", r.unwrap_err());
    Ok(())
}

macro_rules! rank_tests {
    ($($name:ident: $d:literal),*) => {$(
        proptest! {
            #![proptest_config(config(192))]
            #[test]
            fn $name(c in zip_case_strategy::<$d>(), k in 1usize..=3, indexed in any::<bool>(), root in 0usize..5) {
                case::<$d>(c, k, indexed, root)?;
            }
        }
    )*};
}

rank_tests!(
    zip_apply_with_followers_matches_reference_1d: 1,
    zip_apply_with_followers_matches_reference_2d: 2,
    zip_apply_with_followers_matches_reference_3d: 3
);
