//! Bulk assignment between views of different distributions (`ViewMut::assign`), fused
//! promoted expressions over arrays, views and scalars (`assign_expr`), and `fill`, against a
//! sequential reference over random shapes, nested strided views, grids and locale counts.

mod common;

use atoll_array::{Block, BlockCyclic, Cyclic, DistArray, Distribution, ExprExt};
use atoll_runtime::{run, Config, Ctx, Result};
use common::*;
use proptest::prelude::*;

/// What to do: `assign` from follower `j`, `assign_expr` of an expression, or `fill`.
#[derive(Clone, Copy, Debug)]
enum What {
    Assign(usize),
    Expr(u8),
    Fill,
}

fn body<const D: usize, M: Distribution<D> + 'static>(
    ctx: &Ctx,
    dist: M,
    c: &ZipCase<D>,
    what: What,
    root: usize,
) -> Result<()> {
    let root = root % ctx.num_locales();
    let (l, [f0, f1, f2]) = (&c.leader, &c.followers);
    let mut a = DistArray::<i64, D, M>::from_fn(ctx, dist, |i| val(i, l.salt))?;
    let b = DistArray::<i64, D, Block<D>>::from_fn(ctx, f0.build().block(), |i| val(i, f0.salt))?;
    let cc = DistArray::<i64, D, Cyclic<D>>::from_fn(ctx, f1.build().cyclic(), |i| val(i, f1.salt))?;
    let e = DistArray::<i64, D, BlockCyclic<D>>::from_fn(ctx, f2.build().block_cyclic(), |i| val(i, f2.salt))?;
    let ce = DistArray::<f64, D, Cyclic<D>>::from_fn(ctx, f1.build().cyclic(), |i| val(i, f1.salt) as f64 + 0.5)?;
    let (vb, vc, ve, vf) =
        (nested(&b, &f0.views)?, nested(&cc, &f1.views)?, nested(&e, &f2.views)?, nested(&ce, &f1.views)?);

    let mut want = reference(&l.dom, |i| val(i, l.salt));
    let fs = [f0, f1, f2];
    let idx: Vec<Vec<[i64; D]>> = fs.iter().map(|f| f.view_dom().iter().collect()).collect();
    for (p, i) in l.view_dom().iter().enumerate() {
        let (bv, cv, ev) = (val(idx[0][p], f0.salt), val(idx[1][p], f1.salt), val(idx[2][p], f2.salt));
        want[pos(&l.dom, i)] = match what {
            What::Assign(j) => [bv, cv, ev][j],
            What::Expr(0) => bv + 2 * cv - ev,
            What::Expr(1) => 7 - bv * 3 + (cv - ev) / 2 + cv % 7,
            What::Expr(2) => -bv + ((cv as f64 + 0.5) * 2.0) as i64 + 11,
            What::Expr(_) => 4,
            What::Fill => -9,
        };
    }

    nested_mut(&mut a.view_mut(), &l.views, &mut |w| match what {
        What::Assign(0) => w.assign(&vb),
        What::Assign(1) => w.assign(&vc),
        What::Assign(_) => w.assign(&ve),
        What::Expr(0) => w.assign_expr(vb + 2i64 * vc - ve),
        What::Expr(1) => w.assign_expr(7i64 - vb * 3i64 + (vc - ve) / 2i64 + vc % 7i64),
        What::Expr(2) => w.assign_expr(-vb + (vf * 2.0).map(|x: f64| x as i64) + 11i64),
        What::Expr(_) => w.assign_expr(4i64),
        What::Fill => w.fill(-9),
    })?;
    if let Some(g) = a.gather(root)? {
        check(g == want, || format!("{what:?}: {g:?}\n want {want:?}"))?;
    }
    Ok(())
}

fn case<const D: usize>(c: ZipCase<D>, what: What, root: usize) -> std::result::Result<(), TestCaseError> {
    let r = run(Config::local(c.n), |ctx| with_dist!(c.leader.build(), dist => body(ctx, dist, &c, what, root)));
    prop_assert!(r.is_ok(), "{:?}", r.unwrap_err());
    Ok(())
}

fn what_strategy() -> impl Strategy<Value = What> {
    prop_oneof![3 => (0usize..3).prop_map(What::Assign), 3 => (0u8..4).prop_map(What::Expr), 1 => Just(What::Fill)]
}

macro_rules! rank_tests {
    ($($name:ident: $d:literal),*) => {$(
        proptest! {
            #![proptest_config(config(192))]
            #[test]
            fn $name(c in zip_case_strategy::<$d>(), what in what_strategy(), root in 0usize..5) {
                case::<$d>(c, what, root)?;
            }
        }
    )*};
}

rank_tests!(
    assign_and_assign_expr_match_reference_1d: 1,
    assign_and_assign_expr_match_reference_2d: 2,
    assign_and_assign_expr_match_reference_3d: 3
);
