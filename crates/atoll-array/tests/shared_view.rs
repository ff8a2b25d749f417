//! Views travel: a view sent with `ctx.on` / `on_async` / `coforall_locales` to a handler that
//! takes a `SharedView`, pins it and reads it there (elements, including remote ones, and a
//! reduction of them), over random distributions, nested strided views and locale counts; and
//! the typed errors when the array is gone.

mod common;

use atoll_array::{Block, BlockCyclic, Cyclic, DistArray, Distribution, SharedView};
use atoll_runtime::{run, Config, Ctx, Error, Handler, Result};
use common::*;
use proptest::prelude::*;

/// What the handler returns: where it ran, the view's domain as text, the sum, the elements.
type Reply = (usize, String, i64, Vec<i64>);

/// Pins the view, reads every element with `get` (on this locale: some local, some remote) and
/// returns (where it ran, the view's domain as text, the sum, the elements in row-major order).
fn read_all<const D: usize, M: Distribution<D> + 'static>(ctx: &Ctx, v: SharedView<i64, D, M>) -> Result<Reply> {
    let pinned = v.pin()?;
    let view = pinned.view();
    check(view.ctx().id() == ctx.id(), || "the view arrived on the target".into())?;
    let elems = view.domain().iter().map(|i| view.get(i)).collect::<Result<Vec<i64>>>()?;
    Ok((ctx.id(), view.domain().to_string(), elems.iter().sum(), elems))
}

macro_rules! handlers {
    ($($h:ident: $d:literal, $m:ty;)*) => {
        $(static $h: Handler<SharedView<i64, $d, $m>, Reply> =
            Handler::new(concat!("atoll_array_tests::read_all_", stringify!($h)), read_all::<$d, $m>);)*
        fn register() {
            $($h.register();)*
        }
    };
}
handlers!(
    B1: 1, Block<1>; C1: 1, Cyclic<1>; BC1: 1, BlockCyclic<1>;
    B2: 2, Block<2>; C2: 2, Cyclic<2>; BC2: 2, BlockCyclic<2>;
    B3: 3, Block<3>; C3: 3, Cyclic<3>; BC3: 3, BlockCyclic<3>;
);

/// The handler for rank `D` and distribution `M`.
trait Pick<const D: usize>: Distribution<D> + 'static + Sized {
    fn handler() -> &'static Handler<SharedView<i64, D, Self>, Reply>;
}
macro_rules! pick {
    ($($h:ident: $d:literal, $m:ty;)*) => {$(
        impl Pick<$d> for $m {
            fn handler() -> &'static Handler<SharedView<i64, $d, $m>, Reply> {
                &$h
            }
        }
    )*};
}
pick!(
    B1: 1, Block<1>; C1: 1, Cyclic<1>; BC1: 1, BlockCyclic<1>;
    B2: 2, Block<2>; C2: 2, Cyclic<2>; BC2: 2, BlockCyclic<2>;
    B3: 3, Block<3>; C3: 3, Cyclic<3>; BC3: 3, BlockCyclic<3>;
);

fn body<const D: usize, M: Pick<D>>(ctx: &Ctx, dist: M, op: &Operand<D>, hop: usize) -> Result<()> {
    let (me, n) = (ctx.id(), ctx.num_locales());
    let a = DistArray::<i64, D, M>::from_fn(ctx, dist, |i| val(i, op.salt))?;
    let v = nested(&a, &op.views)?;
    let want: Vec<i64> = op.view_dom().iter().map(|i| val(i, op.salt)).collect();
    let target = (me + hop) % n;

    // Blocking `on` (to this locale itself when hop % n == 0: a direct call, no serialization).
    let (ran_on, dom, sum, elems) = ctx.on(target, M::handler(), v.share())?;
    check(ran_on == target, || format!("ran on {ran_on}, not {target}"))?;
    check(dom == op.view_dom().to_string(), || format!("domain {dom}"))?;
    check(elems == want && sum == want.iter().sum::<i64>(), || format!("read {elems:?}, want {want:?}"))?;

    // Asynchronous, and to every locale at once (the view is cloned for each).
    let p = ctx.on_async((me + 1) % n, M::handler(), v.share())?;
    let all = ctx.coforall_locales(M::handler(), v.share())?;
    check(p.wait()?.3 == want, || "on_async".into())?;
    check(all.len() == n, || "coforall_locales".into())?;
    for (l, (ran_on, _, s, e)) in all.into_iter().enumerate() {
        check(ran_on == l && s == want.iter().sum::<i64>() && e == want, || format!("coforall on {l}"))?;
    }
    ctx.barrier()?;
    Ok(())
}

proptest! {
    #![proptest_config(config(96))]
    #[test]
    fn views_sent_with_on_arrive_and_read_the_same_elements_1d(
        (n, op) in (1usize..=5, shape_strategy::<1>(max_extent(1)))
            .prop_flat_map(|(n, s)| (Just(n), operand_strategy::<1>(s, dist_strategy::<1>(n)))),
        hop in 0usize..5,
    ) {
        register();
        let r = run(Config::local(n), |ctx| with_dist!(op.build(), dist => body(ctx, dist, &op, hop)));
        prop_assert!(r.is_ok(), "{:?}", r.unwrap_err());
    }

    #[test]
    fn views_sent_with_on_arrive_and_read_the_same_elements_2d(
        (n, op) in (1usize..=5, shape_strategy::<2>(max_extent(2)))
            .prop_flat_map(|(n, s)| (Just(n), operand_strategy::<2>(s, dist_strategy::<2>(n)))),
        hop in 0usize..5,
    ) {
        register();
        let r = run(Config::local(n), |ctx| with_dist!(op.build(), dist => body(ctx, dist, &op, hop)));
        prop_assert!(r.is_ok(), "{:?}", r.unwrap_err());
    }

    #[test]
    fn views_sent_with_on_arrive_and_read_the_same_elements_3d(
        (n, op) in (1usize..=5, shape_strategy::<3>(max_extent(3)))
            .prop_flat_map(|(n, s)| (Just(n), operand_strategy::<3>(s, dist_strategy::<3>(n)))),
        hop in 0usize..5,
    ) {
        register();
        let r = run(Config::local(n), |ctx| with_dist!(op.build(), dist => body(ctx, dist, &op, hop)));
        prop_assert!(r.is_ok(), "{:?}", r.unwrap_err());
    }
}

/// A view whose array was freed: `pin` is an `InvalidArgument` here, and sending it fails on
/// arrival (a serialization error), and the job goes on.
#[test]
fn a_view_of_a_freed_array_is_a_typed_error_and_the_job_continues() {
    register();
    run(Config::local(3), |ctx| {
        let a =
            DistArray::<i64, 2, Cyclic<2>>::from_fn(ctx, atoll_array::dist::cyclic(ctx, [6, 4])?, |[i, j]| i * 4 + j)?;
        let s = a.slice([1..5, 0..4])?.share();
        check(s.pin().is_ok(), || "pin of a live array".into())?;
        a.free()?;
        match s.pin() {
            Err(Error::InvalidArgument(m)) => check(m.contains("freed"), || m.clone())?,
            Err(e) => return Err(Error::InvalidArgument(format!("pin of a freed array: unexpected {e:?}"))),
            Ok(_) => return Err(Error::InvalidArgument("pin of a freed array succeeded".into())),
        }
        let next = (ctx.id() + 1) % ctx.num_locales();
        match ctx.on(next, &C2, s) {
            // (postcard drops the deserializer's message, "the array of a view ... no longer
            // exists on locale ...": the runtime's decode reports only the variant.)
            Err(Error::Serialization(_)) => {}
            other => return Err(Error::InvalidArgument(format!("sending a view of a freed array: {other:?}"))),
        }
        // The job goes on: a collective operation afterwards.
        let b = DistArray::<i64, 1>::filled(ctx, atoll_array::dist::block(ctx, [10])?, 2)?;
        check(atoll_array::ExprReduce::sum(b.view())? == 20, || "sum after the errors".into())?;
        Ok(())
    })
    .unwrap();
}
