//! GroupBy on 1 to 4 locales against a sequential grouping (a `BTreeMap` from key to the
//! rows' values): the sorted path (grouping, then segmented sum, min and count) on int64
//! keys, on two keys, and on string keys through their categorical codes; and the dense path
//! of small int64 key ranges.

mod common;

use atoll::ops::Agg;
use atoll_session::analytics as an;
use atoll_session::commands as cmd;
use atoll_session::dense_agg as da;
use atoll_session::str_groupby::categorical_codes;
use atoll_session::{Array, Node, Session};
use common::{data, f64s, i64s, leaf, on_1_to_4_locales, put_f64, put_i64, put_strs, strs};
use std::collections::BTreeMap;

/// Sum, min and count of each group, keys in order.
type Want = BTreeMap<Vec<i64>, (i64, i64, i64)>;

fn reference(keys: &[Vec<i64>], vals: &[i64]) -> Want {
    let mut m = Want::new();
    for (i, &v) in vals.iter().enumerate() {
        let k: Vec<i64> = keys.iter().map(|c| c[i]).collect();
        let e = m.entry(k).or_insert((0, i64::MAX, 0));
        e.0 += v;
        e.1 = e.1.min(v);
        e.2 += 1;
    }
    m
}

/// Groups `vals` by the key arrays through the session's sorted path and checks every key
/// column, the sums, minima and counts against `want`.
fn check_sorted_path(s: &Session, keys: &[Array], vals: &Array, want: &Want) {
    let n = vals.len;
    let nodes: Vec<Node> = keys.iter().map(leaf).collect();
    let (perm, flags, segs) = an::groupby(s, &nodes, n).unwrap();
    let groups = segs.len;
    assert_eq!(groups, want.len());
    // The first row of each group gives its key; the values go in the sorted rows' order.
    let firsts = cmd::gather(s, &perm, &leaf(&segs), groups).unwrap();
    for (c, k) in keys.iter().enumerate() {
        let got = i64s(s, &cmd::gather(s, k, &leaf(&firsts), groups).unwrap());
        assert_eq!(got, want.keys().map(|k| k[c]).collect::<Vec<_>>(), "key column {c}");
    }
    let sorted = cmd::gather(s, vals, &leaf(&perm), n).unwrap();
    let agg = |a| i64s(s, &an::aggregate(s, &leaf(&sorted), &flags, n, groups, a).unwrap());
    assert_eq!(agg(Agg::Sum), want.values().map(|w| w.0).collect::<Vec<_>>());
    assert_eq!(agg(Agg::Min), want.values().map(|w| w.1).collect::<Vec<_>>());
    assert_eq!(agg(Agg::Count), want.values().map(|w| w.2).collect::<Vec<_>>());
}

#[test]
fn int64_keys() {
    let n = 2000;
    let k1: Vec<i64> = data(1, n, 37).into_iter().map(|k| k - 10).collect();
    let k2: Vec<i64> = data(2, n, 3);
    let vals: Vec<i64> = data(3, n, 1000).into_iter().map(|v| v - 500).collect();
    let one = reference(std::slice::from_ref(&k1), &vals);
    let two = reference(&[k1.clone(), k2.clone()], &vals);
    on_1_to_4_locales(|s| {
        let (a, b, v) = (put_i64(s, &k1), put_i64(s, &k2), put_i64(s, &vals));
        check_sorted_path(s, &[a], &v, &one);
        check_sorted_path(s, &[a, b], &v, &two);
    });
}

#[test]
fn string_keys() {
    let words = ["pear", "apple", "fig", "", "apple pie", "Fig", "été"];
    let n = 1500;
    let keys: Vec<&str> = data(4, n, words.len() as u64).into_iter().map(|k| words[k as usize]).collect();
    let vals: Vec<i64> = data(5, n, 100);
    let mut distinct: Vec<&str> = words.to_vec();
    distinct.sort();
    let codes: Vec<i64> = keys.iter().map(|k| distinct.binary_search(k).unwrap() as i64).collect();
    let want = reference(std::slice::from_ref(&codes), &vals);
    on_1_to_4_locales(|s| {
        let x = put_strs(s, &keys);
        let (c, cats) = categorical_codes(s, &x).unwrap();
        assert_eq!(strs(s, &cats), distinct);
        let v = put_i64(s, &vals);
        check_sorted_path(s, &[c], &v, &want);
    });
}

#[test]
fn dense_keys() {
    let n = 3000;
    let keys: Vec<i64> = data(6, n, 50).into_iter().map(|k| k * 2 + 100).collect();
    let ints: Vec<i64> = data(7, n, 1000);
    let floats: Vec<f64> = ints.iter().map(|&v| v as f64 / 8.0).collect();
    let want = reference(std::slice::from_ref(&keys), &ints);
    on_1_to_4_locales(|s| {
        let (k, v, f) = (put_i64(s, &keys), put_i64(s, &ints), put_f64(s, &floats));
        for (op, pick) in [("sum", 0), ("min", 1)] {
            let (uk, rows, out) = da::dense_aggregate(s, &leaf(&k), n, 1 << 16, Some(&leaf(&v)), op, true)
                .unwrap()
                .expect("a small key range takes the dense path");
            assert_eq!(i64s(s, &uk), want.keys().map(|k| k[0]).collect::<Vec<_>>());
            assert_eq!(i64s(s, &rows.unwrap()), want.values().map(|w| w.2).collect::<Vec<_>>());
            let w: Vec<i64> = want.values().map(|w| if pick == 0 { w.0 } else { w.1 }).collect();
            assert_eq!(i64s(s, &out.unwrap()), w, "{op}");
        }
        // Float sums of eighths are exact in any order.
        let (_, _, out) =
            da::dense_aggregate(s, &leaf(&k), n, 1 << 16, Some(&leaf(&f)), "sum", false).unwrap().unwrap();
        assert_eq!(f64s(s, &out.unwrap()), want.values().map(|w| w.0 as f64 / 8.0).collect::<Vec<_>>());
        // A range wider than the limit is left to the sort.
        assert!(da::dense_aggregate(s, &leaf(&k), n, 10, Some(&leaf(&v)), "sum", true).unwrap().is_none());
    });
}
