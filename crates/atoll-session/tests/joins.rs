//! The joins' kernels on 1 to 4 locales, against the same computed here on the driver: string
//! columns gathered together, the counting sort of codes, the lookup of string keys.

mod common;

use atoll_session::pandas_ops::joins as jn;
use common::{data, i64s, leaf, on_1_to_4_locales, put_i64, put_strs, strs};

fn words(seed: u64, n: usize) -> Vec<String> {
    data(seed, n, 1000)
        .into_iter()
        .map(|k| match k % 4 {
            0 => String::new(),
            1 => format!("id{k}"),
            2 => format!("été{}", k % 17),
            _ => "x".repeat((k % 40) as usize),
        })
        .collect()
}

fn refs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn take_strings_gathers_every_column() {
    let a = words(1, 257);
    let b = words(2, 257);
    // Positions with repeats, in any order, more of them than rows.
    let idx: Vec<i64> = data(3, 600, 257);
    on_1_to_4_locales(|s| {
        let xa = put_strs(s, &refs(&a));
        let xb = put_strs(s, &refs(&b));
        let pos = put_i64(s, &idx);
        let got = jn::take_strings(s, &[xa, xb], &leaf(&pos), idx.len()).unwrap();
        assert_eq!(got.len(), 2);
        for (g, src) in got.iter().zip([&a, &b]) {
            let want: Vec<String> = idx.iter().map(|&i| src[i as usize].clone()).collect();
            assert_eq!(strs(s, g), want);
        }
        // No positions; a position out of range is an error on every locale.
        let none = put_i64(s, &[]);
        let got = jn::take_strings(s, &[xa], &leaf(&none), 0).unwrap();
        assert!(strs(s, &got[0]).is_empty());
        let bad = put_i64(s, &[0, 257]);
        assert!(jn::take_strings(s, &[xa, xb], &leaf(&bad), 2).is_err());
        let neg = put_i64(s, &[-1]);
        assert!(jn::take_strings(s, &[xa], &leaf(&neg), 1).is_err());
    });
}

#[test]
fn codes_argsort_is_a_stable_sort() {
    for (n, u) in [(0usize, 1usize), (1, 1), (500, 3), (1000, 70)] {
        let codes: Vec<i64> = data(4, n, u as u64);
        let mut want: Vec<i64> = (0..n as i64).collect();
        want.sort_by_key(|&i| codes[i as usize]);
        on_1_to_4_locales(|s| {
            let c = put_i64(s, &codes);
            let p = jn::codes_argsort(s, &leaf(&c), n, u).unwrap();
            assert_eq!(i64s(s, &p), want);
            if n > 0 {
                assert!(jn::codes_argsort(s, &leaf(&c), n, 0).is_err());
            }
        });
    }
}

#[test]
fn strings_lookup_finds_each_key() {
    let big = words(5, 400);
    let mut keys: Vec<String> = words(6, 50);
    keys.sort();
    keys.dedup();
    keys.push("not there".into());
    let want: Vec<i64> = big.iter().map(|w| keys.iter().position(|k| k == w).map_or(-1, |p| p as i64)).collect();
    on_1_to_4_locales(|s| {
        let x = put_strs(s, &refs(&big));
        let got = jn::strings_lookup(s, &x, keys.clone()).unwrap();
        assert_eq!(i64s(s, &got), want);
        assert!(jn::strings_lookup(s, &x, vec!["a".into(), "a".into()]).is_err());
    });
}
