//! Strings and categoricals as `atoll_ops::SortColumn` key columns (strings and numbers in one
//! coargsort / GroupBy), and the sort's temporaries charged to the memory budget, against
//! sequential references on 1-4 locales.

mod common;

use atoll_array::{dist, DistArray};
use atoll_error::Error;
use atoll_ops::{coargsort, GroupBy, SortColumn};
use atoll_runtime::{run, Config};
use atoll_strings::{random_strings_uniform, Categorical, Charset, DistStrings};
use common::{sample, LOCALES};

/// The stable order of the rows `(v[i], x[i])`, and where each group of equal rows starts.
fn reference(v: &[String], x: &[i64]) -> (Vec<i64>, Vec<i64>) {
    let mut p: Vec<i64> = (0..v.len() as i64).collect();
    p.sort_by(|&a, &b| (v[a as usize].as_bytes(), x[a as usize]).cmp(&(v[b as usize].as_bytes(), x[b as usize])));
    let segs = (0..p.len())
        .filter(|&r| {
            r == 0
                || (v[p[r] as usize].as_str(), x[p[r] as usize])
                    != (v[p[r - 1] as usize].as_str(), x[p[r - 1] as usize])
        })
        .map(|r| r as i64)
        .collect();
    (p, segs)
}

#[test]
fn strings_and_numbers_sort_together_in_one_coargsort() {
    // Empty strings, non-ASCII, NULs and heavy repeats, and a numeric key of three values.
    let mut v = sample(1500, 11);
    v.extend(std::iter::repeat_n("same".to_string(), 300));
    let x: Vec<i64> = (0..v.len() as i64).map(|i| (i * 7919) % 3 - 1).collect();
    let (want, want_segs) = reference(&v, &x);
    let (want_s, want_s_segs) = reference(&v, &vec![0; v.len()]);
    for n in LOCALES {
        run(Config::local(n), |ctx| {
            let s = DistStrings::from_vec(ctx, &v)?;
            // The numbers on a Cyclic array: the columns need not share a distribution.
            let nums = DistArray::from_fn(ctx, dist::cyclic(ctx, [v.len()])?, |[i]| x[i as usize])?;
            assert_eq!(coargsort(&[&s as &dyn SortColumn, &nums])?.to_vec()?, want, "{n} locales");
            let g = GroupBy::new(&[&s as &dyn SortColumn, &nums])?;
            assert_eq!(g.permutation().to_vec()?, want, "{n} locales");
            assert_eq!(g.segments().to_vec()?, want_segs, "{n} locales");
            // A Categorical is the same key as its strings, without a sort per use.
            let c = Categorical::new(&s)?;
            let gc = GroupBy::new(&[&c as &dyn SortColumn, &nums])?;
            assert_eq!(gc.permutation().to_vec()?, want);
            assert_eq!(gc.segments().to_vec()?, want_segs);
            let g1 = GroupBy::new(&[&s as &dyn SortColumn])?;
            assert_eq!(g1.permutation().to_vec()?, want_s);
            assert_eq!(g1.segments().to_vec()?, want_s_segs);
            assert_eq!(s.key_name(), "str");
            // Numbers first: a different order, the strings as the second key.
            let p2 = coargsort(&[&nums as &dyn SortColumn, &s])?.to_vec()?;
            let mut w2: Vec<i64> = (0..v.len() as i64).collect();
            w2.sort_by(|&a, &b| {
                (x[a as usize], v[a as usize].as_bytes()).cmp(&(x[b as usize], v[b as usize].as_bytes()))
            });
            assert_eq!(p2, w2);
            // Lengths must agree, on every locale.
            let short = DistStrings::from_vec(ctx, &v[..10])?;
            let e = coargsort(&[&short as &dyn SortColumn, &nums]).unwrap_err();
            assert!(matches!(e, Error::ShapeMismatch { .. }), "{e}");
            Ok(())
        })
        .unwrap();
    }
}

#[test]
fn a_sort_over_the_budget_is_refused_before_it_allocates() {
    for n in [1, 2, 3] {
        run(Config::local(n).with_mem_max(format!("{}MiB", 4 * n)), |ctx| {
            // About 1.3 MB of strings per locale fit; the sort's temporaries (several times
            // that) do not.
            let s = random_strings_uniform(ctx, 1, 33, 100_000 * n, Charset::Letters, 3)?;
            let (reserved, committed) = (ctx.budget().reserved(), ctx.budget().committed());
            let e = s.argsort().unwrap_err();
            assert!(
                matches!(e, Error::OutOfMemory { ref operation, .. } if operation.contains("DistStrings sort")),
                "{e}"
            );
            let e = s.groupby().unwrap_err();
            assert!(matches!(e, Error::OutOfMemory { .. }), "{e}");
            // Nothing stays reserved, and the job goes on: a smaller sort fits and is right.
            assert_eq!((ctx.budget().reserved(), ctx.budget().committed()), (reserved, committed));
            let small = random_strings_uniform(ctx, 1, 9, 5000, Charset::Letters, 4)?;
            let v = small.to_vec()?;
            let mut want: Vec<i64> = (0..v.len() as i64).collect();
            want.sort_by(|&a, &b| v[a as usize].cmp(&v[b as usize]));
            assert_eq!(small.argsort()?.to_vec()?, want);
            // The budget held by a sort is given back when its results are done.
            let before = ctx.budget().committed();
            let g = small.groupby()?;
            drop(g);
            assert_eq!(ctx.budget().committed(), before);
            Ok(())
        })
        .unwrap();
    }
}
