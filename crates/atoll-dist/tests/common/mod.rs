//! Strategies and brute-force checkers shared by the integration tests.
#![allow(dead_code)]

use std::collections::HashMap;

use atoll_dist::{DimMap, Distribution, Domain, LocaleGrid, StridedRange};
use proptest::prelude::*;
use proptest::test_runner::TestCaseError;

/// Cases per property: `cases` (small enough for the whole crate's tests to run in
/// seconds), or `PROPTEST_CASES` when set, for deeper runs.
pub fn config(cases: u32) -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(cases);
    ProptestConfig { cases, max_shrink_iters: 2000, ..ProptestConfig::default() }
}

/// A strided range with a base in `-30..30`, a stride in `1..=5` and up to `max_len`
/// indices, built from `lo..hi by stride` (empty one time in nine, sometimes with `hi`
/// below `lo`).
pub fn range_strategy(max_len: usize) -> impl Strategy<Value = StridedRange> {
    let n = prop_oneof![1 => -2i64..=0, 8 => 1..=max_len as i64];
    (-30i64..30, 1u64..=5, n).prop_map(|(lo, stride, n)| {
        // n indices (none when n <= 0): hi is anywhere in the last stride.
        let hi = if n <= 0 { lo + n } else { lo + (n - 1) * stride as i64 + 1 };
        StridedRange::with_stride(lo, hi, stride).unwrap()
    })
}

/// A domain of rank `D` with up to `max_len` indices per dimension.
pub fn domain_strategy<const D: usize>(max_len: usize) -> impl Strategy<Value = Domain<D>> {
    proptest::collection::vec(range_strategy(max_len), D).prop_map(|v| Domain::new(v.try_into().unwrap()).unwrap())
}

/// Every ordered factorization of `n` into `D` factors.
pub fn ordered_factorizations<const D: usize>(n: usize) -> Vec<[usize; D]> {
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

/// A grid of 1 to 5 targets in any shape, with ids `0..n` or scattered "sublocale" ids
/// (`100 + 8k + 3`, shuffled).
pub fn grid_strategy<const D: usize>() -> impl Strategy<Value = LocaleGrid<D>> {
    (1usize..=5)
        .prop_flat_map(|n| {
            (
                proptest::sample::select(ordered_factorizations::<D>(n)),
                any::<bool>(),
                Just((0..n).collect::<Vec<usize>>()).prop_shuffle(),
            )
        })
        .prop_map(|(shape, sublocales, perm)| {
            let targets: Vec<usize> =
                if sublocales { perm.iter().map(|k| 100 + 8 * k + 3).collect() } else { (0..perm.len()).collect() };
            LocaleGrid::new(targets, shape).unwrap()
        })
}

/// A strided sub-domain around `dom`: per dimension a base within 6 of the domain's, a
/// stride in `1..=7` and up to 10 indices.
pub fn sub_strategy<const D: usize>(dom: Domain<D>) -> impl Strategy<Value = Domain<D>> {
    let dims: Vec<_> = dom
        .dims()
        .iter()
        .map(|r| {
            let base = r.lo();
            (-6i64..6, 1u64..=7, 0usize..=10)
                .prop_map(move |(off, s, len)| StridedRange::from_parts(base + off, s, len).unwrap())
        })
        .collect();
    dims.prop_map(|v| Domain::new(v.try_into().unwrap()).unwrap())
}

/// The positions (in `range`) of the indices of `sub` inside `range`, by brute force.
pub fn positions_in(range: &StridedRange, sub: &StridedRange) -> Vec<usize> {
    sub.iter().filter_map(|i| range.position(i)).collect()
}

/// Checks a distribution against the reference owner formula `part(dim, p, n, N)`, by
/// brute force over the whole domain:
/// - every index has exactly one owner, the reference one (and `owner_coords` agree);
/// - `local_index` numbers each target's indices 0, 1, 2, ... in row-major order (so it is a
///   bijection onto `0..local_len`, respecting the owned sub-grid's row-major order), and
///   equals `sum(dimension_map(d).local_pos * local_strides[d])`;
/// - `global_index` inverts it, `local_len`/`local_shape` agree, the lengths sum to the size;
/// - errors for indices outside the domain, for unknown targets, for bad local offsets.
pub fn check_distribution<M, const D: usize>(
    dist: &M,
    part: impl Fn(usize, usize, usize, usize) -> usize,
) -> Result<(), TestCaseError>
where
    M: Distribution<D>,
{
    let dom = dist.domain();
    let grid = dist.grid();
    let shape = dom.shape();
    let gshape = grid.shape();
    let mut next_local: HashMap<usize, usize> = HashMap::new();
    let mut strides_of: HashMap<usize, [usize; D]> = HashMap::new();
    for idx in dom.iter() {
        let pos = dom.positions(idx).unwrap();
        let coords: [usize; D] = std::array::from_fn(|d| part(d, pos[d], shape[d], gshape[d]));
        let want = grid.target(coords).unwrap();
        prop_assert_eq!(dist.owner(idx), want, "owner of {:?}", idx);
        prop_assert_eq!(dist.checked_owner(idx), Ok(want));
        prop_assert_eq!(dist.owner_coords(idx), coords);
        let local = next_local.entry(want).or_insert(0);
        prop_assert_eq!(dist.local_index(idx), *local, "local index of {:?}", idx);
        prop_assert_eq!(dist.checked_local_index(idx), Ok(*local));
        prop_assert_eq!(dist.locate(idx), (want, *local));
        prop_assert_eq!(dist.checked_locate(idx), Ok((want, *local)));
        prop_assert_eq!(dist.global_index(want, *local), Ok(idx));
        let strides = *strides_of.entry(want).or_insert_with(|| dist.local_strides(want).unwrap());
        let by_maps: usize = (0..D).map(|d| dist.dimension_map(d).unwrap().local_pos(pos[d]) * strides[d]).sum();
        prop_assert_eq!(by_maps, *local);
        *local += 1;
    }
    let mut total = 0;
    for (coords, t) in grid.iter() {
        let len = next_local.get(&t).copied().unwrap_or(0);
        prop_assert_eq!(dist.local_len(t), Ok(len), "local_len of target {}", t);
        let lshape = dist.local_shape(t).unwrap();
        for d in 0..D {
            let owned = (0..shape[d]).filter(|&p| part(d, p, shape[d], gshape[d]) == coords[d]).count();
            prop_assert_eq!(lshape[d], owned);
            prop_assert_eq!(dist.dim_maps()[d].local_len(coords[d]), owned);
        }
        prop_assert_eq!(lshape.iter().product::<usize>(), len);
        prop_assert!(dist.global_index(t, len).is_err());
        total += len;
    }
    prop_assert_eq!(total, dom.size());

    // Unknown targets and dimensions.
    let stranger = (0..).find(|t| !grid.contains(*t)).unwrap();
    prop_assert!(dist.local_len(stranger).is_err());
    prop_assert!(dist.local_shape(stranger).is_err());
    prop_assert!(dist.global_index(stranger, 0).is_err());
    prop_assert!(dist.runs(stranger, dom).is_err());
    prop_assert!(dist.count(stranger, dom).is_err());
    prop_assert!(dist.dimension_map(D).is_err());
    prop_assert!(dist.runs_1d(D, 0, &dom.dims()[0]).is_err());
    prop_assert!(dist.runs_1d(0, gshape[0], &dom.dims()[0]).is_err());

    // Indices outside the domain: an error when checked, some target of the grid otherwise.
    let inside = dom.iter().next().unwrap_or([0; D]);
    for d in 0..D {
        let r = dom.dims()[d];
        let mut outside = [
            r.lo().saturating_sub(1),
            r.hi().saturating_add(2),
            r.hi().saturating_add(1_000_000_000),
            i64::MIN,
            i64::MAX,
        ];
        if r.stride() > 1 && r.len() > 1 {
            outside[1] = r.lo() + 1; // off the stride
        }
        for o in outside {
            let mut idx = inside;
            idx[d] = o;
            if !r.contains(o) {
                prop_assert!(dist.checked_owner(idx).is_err());
                prop_assert!(dist.checked_local_index(idx).is_err());
            }
            prop_assert!(grid.contains(dist.owner(idx)));
            let (t, l) = dist.locate(idx);
            prop_assert!(grid.contains(t));
            if !dom.is_empty() {
                prop_assert!(l < dist.local_len(t).unwrap());
            }
        }
    }
    Ok(())
}

/// Checks `runs(target, sub)` for every target against brute force: exactly the owned
/// indices of `sub`, with their local offsets and their positions in `sub`; counts agree;
/// pieces are non-empty, sorted, consistent with `runs_1d`, and at most
/// `max_pieces(dim, m, q)` per dimension, where `m` is the number of indices of the
/// sub-range in the domain's range and `q` their position stride.
pub fn check_runs<M, const D: usize>(
    dist: &M,
    sub: &Domain<D>,
    max_pieces: impl Fn(usize, usize, usize) -> usize,
) -> Result<(), TestCaseError>
where
    M: Distribution<D>,
{
    let dom = dist.domain();
    let grid = dist.grid();
    let mut total = 0;
    for (coords, t) in grid.iter() {
        let runs = dist.runs(t, sub).unwrap();
        prop_assert_eq!(runs.target(), t);
        let mut got: Vec<([i64; D], usize, usize)> = runs.elements().collect();
        got.sort_unstable();
        let mut want: Vec<([i64; D], usize, usize)> = sub
            .iter()
            .enumerate()
            .filter(|(_, idx)| dom.contains(*idx) && dist.owner(*idx) == t)
            .map(|(k, idx)| (idx, dist.local_index(idx), k))
            .collect();
        want.sort_unstable();
        prop_assert_eq!(&got, &want, "runs of target {} in {}", t, sub);
        prop_assert_eq!(runs.count(), want.len());
        prop_assert_eq!(runs.is_empty(), want.is_empty());
        prop_assert_eq!(dist.count(t, sub), Ok(want.len()));
        prop_assert_eq!(runs.patches().map(|p| p.len()).sum::<usize>(), want.len());
        prop_assert_eq!(runs.patches().len(), runs.num_patches());
        prop_assert_eq!(runs.local_strides(), dist.local_strides(t).unwrap());
        total += want.len();
        for (d, &coord) in coords.iter().enumerate() {
            let pieces = &runs.pieces()[d];
            let pos = positions_in(&dom.dims()[d], &sub.dims()[d]);
            let q = if pos.len() >= 2 { pos[1] - pos[0] } else { 1 };
            prop_assert!(
                pieces.len() <= max_pieces(d, pos.len(), q),
                "{} pieces along dim {} for m = {}, q = {}: {:?}",
                pieces.len(),
                d,
                pos.len(),
                q,
                pieces
            );
            for w in pieces.windows(2) {
                prop_assert!(w[0].global.lo() < w[1].global.lo(), "unsorted pieces {:?}", pieces);
            }
            for p in pieces {
                prop_assert!(!p.is_empty());
                prop_assert_eq!(p.iter().len(), p.len());
                if p.len() == 1 {
                    prop_assert_eq!((p.local_stride, p.sub_stride, p.global.stride()), (1, 1, 1));
                }
            }
            if !runs.is_empty() {
                prop_assert_eq!(&dist.runs_1d(d, coord, &sub.dims()[d]).unwrap(), pieces);
            }
        }
    }
    let inside = sub.iter().filter(|idx| dom.contains(*idx)).count();
    prop_assert_eq!(total, inside);
    Ok(())
}

/// Checks that a value survives a JSON round trip.
pub fn check_serde<T>(value: &T) -> Result<(), TestCaseError>
where
    T: serde::Serialize + serde::de::DeserializeOwned + PartialEq + std::fmt::Debug,
{
    let text = serde_json::to_string(value).unwrap();
    let back: T = serde_json::from_str(&text).unwrap();
    prop_assert_eq!(&back, value);
    Ok(())
}

/// Owner formulas, written independently of the crate.
pub fn block_part(p: usize, n: usize, parts: usize) -> usize {
    (p as u128 * parts as u128 / n as u128) as usize
}

/// `p mod N`.
pub fn cyclic_part(p: usize, _n: usize, parts: usize) -> usize {
    p % parts
}

/// `floor(p / B) mod N`.
pub fn block_cyclic_part(p: usize, block: usize, parts: usize) -> usize {
    (p / block) % parts
}

/// `gcd`.
pub fn gcd(a: usize, b: usize) -> usize {
    if b == 0 {
        a
    } else {
        gcd(b, a % b)
    }
}

/// A domain (up to `max_len` indices per dimension), a grid, and three sub-domains around
/// the domain.
pub fn dist_case<const D: usize>(max_len: usize) -> impl Strategy<Value = (Domain<D>, LocaleGrid<D>, Vec<Domain<D>>)> {
    (domain_strategy::<D>(max_len), grid_strategy::<D>())
        .prop_flat_map(|(dom, grid)| (Just(dom), Just(grid), proptest::collection::vec(sub_strategy(dom), 3)))
}

/// At most one piece per dimension (Block and Cyclic).
pub fn one_piece(_dim: usize, m: usize, _q: usize) -> usize {
    m.min(1)
}
