//! The Distribution trait used generically, as array code will: owner-computes loops,
//! local offsets through dimension maps, strided transfers from runs.

use atoll_dist::{Block, BlockCyclic, Cyclic, DimMap, DistKind, Distribution, Domain, Error, LocaleGrid, StridedRange};

/// A "distributed array" of `D` dimensions: one dense buffer per target, filled through
/// the distribution with f(idx) at idx.
fn store<M: Distribution<D>, const D: usize>(dist: &M, f: impl Fn([i64; D]) -> i64) -> Vec<(usize, Vec<i64>)> {
    dist.grid()
        .targets()
        .iter()
        .map(|&t| {
            let mut buf = vec![i64::MIN; dist.local_len(t).unwrap()];
            // Owner computes: each target walks what it owns of the whole domain.
            for (idx, local, _) in dist.runs(t, dist.domain()).unwrap().elements() {
                buf[local] = f(idx);
            }
            (t, buf)
        })
        .collect()
}

/// Gathers a strided view, patch by patch, as aggregated strided gets would.
fn gather<M: Distribution<D>, const D: usize>(dist: &M, bufs: &[(usize, Vec<i64>)], view: &Domain<D>) -> Vec<i64> {
    let mut out = vec![i64::MIN; view.size()];
    for (t, buf) in bufs {
        for patch in dist.runs(*t, view).unwrap().patches() {
            // One strided copy: walk the patch with its local and view strides.
            for (_, local, pos) in patch.iter() {
                out[pos] = buf[local];
            }
        }
    }
    out
}

fn exercise<M: Distribution<2>>(dist: &M, kind: DistKind) {
    assert_eq!(dist.kind(), kind);
    let f = |[i, j]: [i64; 2]| i * 1000 + j;
    let bufs = store(dist, f);
    for (t, buf) in &bufs {
        assert!(buf.iter().all(|&x| x != i64::MIN), "target {t} fully written");
        // Local offsets from the dimension maps and the local strides.
        let strides = dist.local_strides(*t).unwrap();
        for (local, &x) in buf.iter().enumerate() {
            let idx = dist.global_index(*t, local).unwrap();
            assert_eq!(f(idx), x);
            let offset: usize = (0..2)
                .map(|d| {
                    let map = dist.dimension_map(d).unwrap();
                    map.locate_index(idx[d]).unwrap().1 * strides[d]
                })
                .sum();
            assert_eq!(offset, local);
        }
    }
    let view =
        Domain::new([StridedRange::with_stride(1, 17, 3).unwrap(), StridedRange::with_stride(-2, 30, 5).unwrap()])
            .unwrap()
            .intersect(dist.domain());
    let got = gather(dist, &bufs, &view);
    let want: Vec<i64> = view.iter().map(f).collect();
    assert_eq!(got, want);
}

#[test]
fn the_three_distributions_through_the_trait() -> Result<(), Error> {
    let dom = Domain::new([StridedRange::new(0, 16), StridedRange::with_stride(-3, 26, 2)?])?;
    exercise(&Block::new(dom, LocaleGrid::auto(0..6)?), DistKind::Block);
    exercise(&Cyclic::new(dom, LocaleGrid::auto(0..5)?), DistKind::Cyclic);
    exercise(&BlockCyclic::new(dom, LocaleGrid::auto([7, 3, 11, 2])?, [3, 2])?, DistKind::BlockCyclic);
    Ok(())
}

#[test]
fn kinds_display() {
    let names: Vec<String> =
        [DistKind::Block, DistKind::Cyclic, DistKind::BlockCyclic].iter().map(|k| k.to_string()).collect();
    assert_eq!(names, ["Block", "Cyclic", "BlockCyclic"]);
}

#[test]
fn values_are_send_sync_and_serializable() {
    fn check<T: Clone + std::fmt::Debug + PartialEq + Send + Sync + serde::Serialize + serde::de::DeserializeOwned>() {}
    check::<StridedRange>();
    check::<Domain<3>>();
    check::<LocaleGrid<2>>();
    check::<Block<1>>();
    check::<Cyclic<2>>();
    check::<BlockCyclic<3>>();
    check::<atoll_dist::Runs<2>>();
    check::<atoll_dist::Patch<2>>();
    check::<atoll_dist::Piece>();
    check::<atoll_dist::BlockCyclicDim>();
}

#[test]
fn runs_serialize() -> Result<(), Error> {
    let dist = BlockCyclic::new(Domain::from_shape([20, 20])?, LocaleGrid::auto(0..4)?, [3, 2])?;
    let runs = dist.runs(3, &Domain::new([StridedRange::with_stride(1, 20, 2)?, StridedRange::new(4, 15)])?)?;
    let text = serde_json::to_string(&runs).unwrap();
    let back: atoll_dist::Runs<2> = serde_json::from_str(&text).unwrap();
    assert_eq!(back, runs);
    let patch = runs.patches().next().unwrap();
    let text = serde_json::to_string(&patch).unwrap();
    assert_eq!(serde_json::from_str::<atoll_dist::Patch<2>>(&text).unwrap(), patch);
    Ok(())
}
