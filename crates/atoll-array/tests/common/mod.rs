//! Strategies, distribution builders and sequential references shared by the integration
//! tests. The reference of every array is a plain `Vec` in row-major order of its domain.
#![allow(dead_code)]

pub mod scenarios;
pub mod sublocale_checks;

use atoll_array::{Block, BlockCyclic, Cyclic, Distribution, Domain, LocaleGrid, StridedRange};
use proptest::prelude::*;

/// Cases per property: `cases`, or `PROPTEST_CASES` when set (for deeper runs).
pub fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(cases);
    ProptestConfig { cases, max_shrink_iters: 200, ..ProptestConfig::default() }
}

// ----- distributions ------------------------------------------------------------------------

/// Which distribution, over which grid (and block sizes for BlockCyclic).
#[derive(Clone, Debug)]
pub enum DistSpec<const D: usize> {
    /// Block over the grid.
    Block(LocaleGrid<D>),
    /// Cyclic over the grid.
    Cyclic(LocaleGrid<D>),
    /// BlockCyclic over the grid with these block sizes.
    BlockCyclic(LocaleGrid<D>, [usize; D]),
}

/// A built distribution of any kind (see [`with_dist!`]).
pub enum AnyDist<const D: usize> {
    /// Block.
    Block(Block<D>),
    /// Cyclic.
    Cyclic(Cyclic<D>),
    /// BlockCyclic.
    BlockCyclic(BlockCyclic<D>),
}

impl<const D: usize> DistSpec<D> {
    /// The distribution of `dom`.
    pub fn build(&self, dom: Domain<D>) -> AnyDist<D> {
        match self {
            DistSpec::Block(g) => AnyDist::Block(Block::new(dom, g.clone())),
            DistSpec::Cyclic(g) => AnyDist::Cyclic(Cyclic::new(dom, g.clone())),
            DistSpec::BlockCyclic(g, b) => AnyDist::BlockCyclic(BlockCyclic::new(dom, g.clone(), *b).unwrap()),
        }
    }

    /// The grid.
    pub fn grid(&self) -> &LocaleGrid<D> {
        match self {
            DistSpec::Block(g) | DistSpec::Cyclic(g) | DistSpec::BlockCyclic(g, _) => g,
        }
    }
}

/// Runs `$body` with `$d` bound to the concrete distribution of an [`AnyDist`].
#[macro_export]
macro_rules! with_dist {
    ($any:expr, $d:ident => $body:expr) => {
        match $any {
            $crate::common::AnyDist::Block($d) => $body,
            $crate::common::AnyDist::Cyclic($d) => $body,
            $crate::common::AnyDist::BlockCyclic($d) => $body,
        }
    };
}

/// Every ordered factorization of `n` into `D` factors.
pub fn factorizations<const D: usize>(n: usize) -> Vec<[usize; D]> {
    fn rec(n: usize, k: usize, prefix: &mut Vec<usize>, out: &mut Vec<Vec<usize>>) {
        if k == 1 {
            prefix.push(n);
            out.push(prefix.clone());
            prefix.pop();
            return;
        }
        for f in (1..=n).filter(|f| n % f == 0) {
            prefix.push(f);
            rec(n / f, k - 1, prefix, out);
            prefix.pop();
        }
    }
    let mut out = Vec::new();
    rec(n, D, &mut Vec::new(), &mut out);
    out.into_iter().map(|v| v.try_into().unwrap()).collect()
}

/// A grid over the locales `0..n`: usually all of them in their order, sometimes shuffled,
/// sometimes a subset (so some locales own nothing), in any shape.
pub fn grid_strategy<const D: usize>(n: usize) -> impl Strategy<Value = LocaleGrid<D>> {
    let all: Vec<usize> = (0..n).collect();
    (Just(all).prop_shuffle(), prop_oneof![3 => Just(n), 1 => 1..=n], any::<bool>())
        .prop_flat_map(|(perm, k, keep_order)| {
            let mut targets: Vec<usize> = perm[..k].to_vec();
            if keep_order {
                targets.sort_unstable();
            }
            (Just(targets), proptest::sample::select(factorizations::<D>(k)))
        })
        .prop_map(|(targets, shape)| LocaleGrid::new(targets, shape).unwrap())
}

/// Any of the three distributions over a grid of `n` locales, block sizes 1-7.
pub fn dist_strategy<const D: usize>(n: usize) -> impl Strategy<Value = DistSpec<D>> {
    (0..3u8, grid_strategy::<D>(n), proptest::collection::vec(1usize..=7, D)).prop_map(|(k, g, b)| match k {
        0 => DistSpec::Block(g),
        1 => DistSpec::Cyclic(g),
        _ => DistSpec::BlockCyclic(g, b.try_into().unwrap()),
    })
}

/// A distribution of the given kind (0 Block, 1 Cyclic, 2 BlockCyclic) over a grid of `n`.
pub fn dist_of_kind<const D: usize>(kind: u8, n: usize) -> impl Strategy<Value = DistSpec<D>> {
    (grid_strategy::<D>(n), proptest::collection::vec(1usize..=7, D)).prop_map(move |(g, b)| match kind {
        0 => DistSpec::Block(g),
        1 => DistSpec::Cyclic(g),
        _ => DistSpec::BlockCyclic(g, b.try_into().unwrap()),
    })
}

// ----- arrays and views of a given shape ----------------------------------------------------

/// One level of slicing, per dimension: positions `off, off + step, ...` (`n` of them, the
/// shape of the level) of the enclosing domain, which has `extra` positions more than needed.
#[derive(Clone, Copy, Debug)]
pub struct Level {
    pub off: usize,
    pub step: usize,
    pub extra: usize,
}

/// An operand: an array over `dom` (any base and stride) distributed by `dist`, and a chain of
/// views of it (views of views) whose innermost one has the requested shape.
#[derive(Clone, Debug)]
pub struct Operand<const D: usize> {
    /// The array's domain.
    pub dom: Domain<D>,
    /// Its distribution.
    pub dist: DistSpec<D>,
    /// The view chain, outermost first, each as index sub-domains of the array.
    pub views: Vec<Domain<D>>,
    /// A salt for the array's values.
    pub salt: i64,
}

impl<const D: usize> Operand<D> {
    /// The innermost view's indices (the array's domain without views).
    pub fn view_dom(&self) -> Domain<D> {
        self.views.last().copied().unwrap_or(self.dom)
    }

    /// The distribution of the array.
    pub fn build(&self) -> AnyDist<D> {
        self.dist.build(self.dom)
    }
}

/// Builds the domains of a view chain from per-dimension levels (innermost last) so that the
/// innermost view has `shape`; returns the array's lengths and the position domains.
fn chain<const D: usize>(shape: [usize; D], levels: &[[Level; D]]) -> ([usize; D], Vec<Domain<D>>) {
    let mut len = shape;
    let mut pos = Vec::new();
    for lv in levels.iter().rev() {
        let mut dims = [StridedRange::empty(); D];
        for d in 0..D {
            let l = lv[d];
            dims[d] = StridedRange::from_parts(l.off as i64, l.step as u64, len[d]).unwrap();
            len[d] = if len[d] == 0 { l.off + l.extra } else { l.off + (len[d] - 1) * l.step + 1 + l.extra };
        }
        pos.push(Domain::new(dims).unwrap());
    }
    pos.reverse();
    (len, pos)
}

fn level_strategy<const D: usize>() -> impl Strategy<Value = [Level; D]> {
    proptest::collection::vec(
        (0usize..=3, 1usize..=3, 0usize..=3).prop_map(|(off, step, extra)| Level { off, step, extra }),
        D,
    )
    .prop_map(|v| v.try_into().unwrap())
}

/// An operand whose innermost view has `shape`, with 0-2 levels of views, an array base in
/// `-20..20` and stride 1-3, distributed by `dist`.
pub fn operand_strategy<const D: usize>(
    shape: [usize; D],
    dist: impl Strategy<Value = DistSpec<D>>,
) -> impl Strategy<Value = Operand<D>> {
    (
        proptest::collection::vec(level_strategy::<D>(), 0..=2),
        proptest::collection::vec((-20i64..20, 1u64..=3), D),
        dist,
        -1000i64..1000,
    )
        .prop_map(move |(levels, bases, dist, salt)| {
            let (len, pos) = chain(shape, &levels);
            let dims: [StridedRange; D] =
                std::array::from_fn(|d| StridedRange::from_parts(bases[d].0, bases[d].1, len[d]).unwrap());
            let dom = Domain::new(dims).unwrap();
            let mut views = Vec::new();
            let mut cur = dom;
            for p in &pos {
                cur = cur.slice_positions(p).unwrap();
                views.push(cur);
            }
            Operand { dom, dist, views, salt }
        })
}

/// A shape of rank `D`: each extent in `0..=max` (0 about one time in twelve).
pub fn shape_strategy<const D: usize>(max: usize) -> impl Strategy<Value = [usize; D]> {
    proptest::collection::vec(prop_oneof![1 => Just(0usize), 11 => 1..=max], D).prop_map(|v| v.try_into().unwrap())
}

/// The largest extent per dimension for rank `D` (keeps 3-D arrays small).
pub const fn max_extent(d: usize) -> usize {
    match d {
        1 => 40,
        2 => 9,
        _ => 5,
    }
}

// ----- values and references ----------------------------------------------------------------

/// A deterministic small value for index `idx` of an array salted `salt` (in -50..50, with
/// repeats, so min/max/arg ties happen).
pub fn val<const D: usize>(idx: [i64; D], salt: i64) -> i64 {
    let mut h: u64 = 0x9e37_79b9_7f4a_7c15 ^ salt as u64;
    for &i in &idx {
        h ^= i as u64;
        h = h.wrapping_mul(0x0100_0000_01b3).rotate_left(17);
    }
    (h % 100) as i64 - 50
}

/// The reference of an array: `f(idx)` for every index of `dom`, row-major.
pub fn reference<const D: usize, T>(dom: &Domain<D>, f: impl Fn([i64; D]) -> T) -> Vec<T> {
    dom.iter().map(f).collect()
}

/// The row-major position of `idx` in `dom`.
pub fn pos<const D: usize>(dom: &Domain<D>, idx: [i64; D]) -> usize {
    dom.position(idx).unwrap()
}

/// Checks two float slices agree within a relative tolerance.
pub fn close(a: f64, b: f64) -> bool {
    (a - b).abs() <= 1e-9 * (1.0 + a.abs().max(b.abs()))
}

/// Runs `f` on the innermost of the writable views `views` (outermost first) of `w`.
pub fn nested_mut<T: atoll_array::Elem, const D: usize, M: Distribution<D> + 'static>(
    w: &mut atoll_array::ViewMut<'_, T, D, M>,
    views: &[Domain<D>],
    f: &mut dyn FnMut(&mut atoll_array::ViewMut<'_, T, D, M>) -> atoll_runtime::Result<()>,
) -> atoll_runtime::Result<()> {
    match views.split_first() {
        None => f(w),
        Some((s, rest)) => {
            let mut inner = w.slice_mut(*s)?;
            nested_mut(&mut inner, rest, f)
        }
    }
}

/// The innermost of the views `views` (outermost first) of `a`.
pub fn nested<'a, T: atoll_array::Elem, const D: usize, M: Distribution<D> + 'static>(
    a: &'a atoll_array::DistArray<T, D, M>,
    views: &[Domain<D>],
) -> atoll_runtime::Result<atoll_array::View<'a, T, D, M>> {
    let mut v = a.view();
    for s in views {
        v = v.slice(*s)?;
    }
    Ok(v)
}

impl<const D: usize> AnyDist<D> {
    /// The Block distribution (panics for another kind: test set-up only).
    pub fn block(self) -> Block<D> {
        match self {
            AnyDist::Block(d) => d,
            _ => panic!("not Block"),
        }
    }
    /// The Cyclic distribution (panics for another kind).
    pub fn cyclic(self) -> Cyclic<D> {
        match self {
            AnyDist::Cyclic(d) => d,
            _ => panic!("not Cyclic"),
        }
    }
    /// The BlockCyclic distribution (panics for another kind).
    pub fn block_cyclic(self) -> BlockCyclic<D> {
        match self {
            AnyDist::BlockCyclic(d) => d,
            _ => panic!("not BlockCyclic"),
        }
    }
}

impl<const D: usize> DistSpec<D> {
    /// 0 for Block, 1 for Cyclic, 2 for BlockCyclic.
    pub fn kind(&self) -> u8 {
        match self {
            DistSpec::Block(_) => 0,
            DistSpec::Cyclic(_) => 1,
            DistSpec::BlockCyclic(..) => 2,
        }
    }
}

/// An error (ending the job with `what`) unless `cond`.
pub fn check(cond: bool, what: impl FnOnce() -> String) -> atoll_runtime::Result<()> {
    if cond {
        Ok(())
    } else {
        Err(atoll_runtime::Error::InvalidArgument(what()))
    }
}

/// The leader operand and three followers (Block, Cyclic, BlockCyclic, in that order) whose
/// innermost views all have the same random shape; a follower whose kind is the leader's is,
/// when `aligned[kind]`, a copy of the leader's array layout and view (the aligned fast path).
#[derive(Clone, Debug)]
pub struct ZipCase<const D: usize> {
    pub n: usize,
    pub leader: Operand<D>,
    pub followers: [Operand<D>; 3],
}

pub fn zip_case_strategy<const D: usize>() -> impl Strategy<Value = ZipCase<D>> {
    (1usize..=5, shape_strategy::<D>(max_extent(D)))
        .prop_flat_map(|(n, s)| {
            (
                Just(n),
                operand_strategy::<D>(s, dist_strategy::<D>(n)),
                operand_strategy::<D>(s, dist_of_kind::<D>(0, n)),
                operand_strategy::<D>(s, dist_of_kind::<D>(1, n)),
                operand_strategy::<D>(s, dist_of_kind::<D>(2, n)),
                any::<[bool; 3]>(),
            )
        })
        .prop_map(|(n, leader, f0, f1, f2, aligned)| {
            let mut followers = [f0, f1, f2];
            let k = leader.dist.kind() as usize;
            if aligned[k] {
                let salt = followers[k].salt;
                followers[k] = Operand { salt, ..leader.clone() };
            }
            ZipCase { n, leader, followers }
        })
}
