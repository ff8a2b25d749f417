//! The strings' commands on 1 to 4 locales, against the same computed here on the driver:
//! the round trip through the locales, case maps, regular-expression tests and splits,
//! sorting, grouping and categorical codes.

mod common;

use atoll_session::str_groupby::categorical_codes;
use atoll_session::strings::{self as st, StrOp, ValOp};
use common::{bools, data, i64s, on_1_to_4_locales, put_strs, strs};
use std::collections::BTreeMap;

/// Strings with repeats, empty strings, separators, digits and a few non-ASCII ones.
fn sample(n: usize) -> Vec<String> {
    let words = ["ab", "b", "xyz", "", "Ab,c", "a;b;c", "été", "ab12", "zz", "9", "ab,,d"];
    data(7, n, 1 << 20)
        .into_iter()
        .map(|k| {
            let w = words[(k % words.len() as i64) as usize];
            if k % 5 == 0 {
                format!("{w}{}", k % 13)
            } else {
                w.to_string()
            }
        })
        .collect()
}

fn refs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn round_trip_and_case_maps() {
    let v = sample(300);
    on_1_to_4_locales(|s| {
        let x = put_strs(s, &refs(&v));
        assert_eq!(strs(s, &x), v);
        let up = st::transform(s, &x, StrOp::Upper, x.len).unwrap();
        assert_eq!(strs(s, &up), v.iter().map(|w| w.to_uppercase()).collect::<Vec<_>>());
        let low = st::transform(s, &up, StrOp::Lower, x.len).unwrap();
        assert_eq!(strs(s, &low), v.iter().map(|w| w.to_uppercase().to_lowercase()).collect::<Vec<_>>());
        let both = st::concatenate(s, &[x, low]).unwrap();
        let mut want = v.clone();
        want.extend(v.iter().map(|w| w.to_uppercase().to_lowercase()));
        assert_eq!(strs(s, &both), want);
    });
}

#[test]
fn regular_expressions_and_splits() {
    let v = sample(300);
    on_1_to_4_locales(|s| {
        let x = put_strs(s, &refs(&v));
        let test = |op: ValOp| {
            let out = st::values(s, &x, op, atoll_session::DType::Bool, 1).unwrap();
            bools(s, &out[0])
        };
        let digit: Vec<bool> = v.iter().map(|w| w.chars().any(|c| c.is_ascii_digit())).collect();
        assert_eq!(test(ValOp::Contains("[0-9]".into(), true)), digit);
        let starts: Vec<bool> = v.iter().map(|w| w.starts_with("ab")).collect();
        assert_eq!(test(ValOp::Contains("^ab".into(), true)), starts);
        assert_eq!(test(ValOp::StartsWith("ab".into())), starts);
        // Not a regular expression: the dot is a dot.
        assert_eq!(test(ValOp::Contains(".".into(), false)), vec![false; v.len()]);
        let (pieces, segs) = st::split(s, &x, "[,;]", true, None, false).unwrap();
        let parts: Vec<Vec<&str>> = v.iter().map(|w| w.split([',', ';']).collect()).collect();
        let mut starts = Vec::new();
        let mut flat = Vec::new();
        for p in &parts {
            starts.push(flat.len() as i64);
            flat.extend(p.iter().map(|w| w.to_string()));
        }
        assert_eq!(strs(s, &pieces), flat);
        assert_eq!(i64s(s, &segs), starts);
    });
}

#[test]
fn sorting_grouping_and_codes() {
    let v = sample(500);
    let mut counts: BTreeMap<&str, i64> = BTreeMap::new();
    for w in &v {
        *counts.entry(w).or_default() += 1;
    }
    let distinct: Vec<String> = counts.keys().map(|w| w.to_string()).collect();
    on_1_to_4_locales(|s| {
        let x = put_strs(s, &refs(&v));
        let perm = st::values(s, &x, ValOp::Argsort, atoll_session::DType::I64, 1).unwrap();
        let sorted: Vec<&String> = i64s(s, &perm[0]).iter().map(|&i| &v[i as usize]).collect();
        let mut want: Vec<&String> = v.iter().collect();
        want.sort();
        assert_eq!(sorted, want);
        let (perm, segs, keys, cnt) = st::groupby(s, &x).unwrap();
        assert_eq!(strs(s, &keys), distinct);
        assert_eq!(i64s(s, &cnt), counts.values().copied().collect::<Vec<_>>());
        let p = i64s(s, &perm);
        let seg = i64s(s, &segs);
        for (g, key) in distinct.iter().enumerate() {
            assert_eq!(&v[p[seg[g] as usize] as usize], key);
        }
        let (codes, cats) = categorical_codes(s, &x).unwrap();
        assert_eq!(strs(s, &cats), distinct);
        let want: Vec<i64> = v.iter().map(|w| distinct.binary_search(w).unwrap() as i64).collect();
        assert_eq!(i64s(s, &codes), want);
    });
}
