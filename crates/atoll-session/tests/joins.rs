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

#[test]
fn gather_many_equals_one_gather_per_column() {
    use atoll_session::commands as cmd;
    use common::{bools, f64s, put_bool, put_f64};
    let n = 301;
    let ints: Vec<i64> = data(5, n, 1 << 40);
    let floats: Vec<f64> = data(6, n, 1000).into_iter().map(|v| v as f64 * 0.25 - 7.0).collect();
    let flags: Vec<bool> = data(7, n, 2).into_iter().map(|v| v == 1).collect();
    // Positions with repeats, in any order, more of them than rows (every locale asks every
    // other one), and none at all.
    for (idx, exchange) in [
        (data(8, 700, n as u64), false),
        (data(8, 700, n as u64), true),
        (data(9, 13, n as u64), true),
        (Vec::new(), false),
        (Vec::new(), true),
    ] {
        on_1_to_4_locales(|s| {
            let a = put_i64(s, &ints);
            let b = put_f64(s, &floats);
            let c = put_bool(s, &flags);
            let pos = put_i64(s, &idx);
            let got = jn::gather_many_with(s, &[a, b, c, a], &leaf(&pos), idx.len(), exchange).unwrap();
            assert_eq!(got.len(), 4);
            let one = |x| cmd::gather(s, x, &leaf(&pos), idx.len()).unwrap();
            assert_eq!(i64s(s, &got[0]), i64s(s, &one(&a)));
            assert_eq!(f64s(s, &got[1]), f64s(s, &one(&b)));
            assert_eq!(bools(s, &got[2]), bools(s, &one(&c)));
            assert_eq!(i64s(s, &got[3]), idx.iter().map(|&i| ints[i as usize]).collect::<Vec<_>>());
            assert!(jn::gather_many(s, &[], &leaf(&pos), idx.len()).unwrap().is_empty());
        });
    }
    on_1_to_4_locales(|s| {
        let a = put_i64(s, &ints);
        let b = put_f64(s, &floats);
        // A position out of range on any locale is an error on every locale.
        let bad = put_i64(s, &[0, n as i64]);
        assert!(jn::gather_many(s, &[a, b], &leaf(&bad), 2).is_err());
        let neg = put_i64(s, &[-1]);
        assert!(jn::gather_many(s, &[a], &leaf(&neg), 1).is_err());
        // Columns of different lengths, positions that are not int64.
        let short = put_i64(s, &[1, 2]);
        let zero = put_i64(s, &[0]);
        assert!(jn::gather_many(s, &[a, short], &leaf(&zero), 1).is_err());
        assert!(jn::gather_many(s, &[a], &leaf(&b), n).is_err());
        // The positions may be one of the columns gathered.
        let p = put_i64(s, &[2, 0, 1]);
        for exchange in [false, true] {
            let got = jn::gather_many_with(s, &[p, p], &leaf(&p), 3, exchange).unwrap();
            assert_eq!(i64s(s, &got[1]), vec![1, 2, 0]);
            assert!(jn::gather_many_with(s, &[a], &leaf(&bad), 2, exchange).is_err());
        }
    });
}
