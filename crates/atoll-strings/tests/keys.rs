//! Strings as keys (argsort, unique, groupby, in1d, Categorical), creation from files and
//! random strings, on 1-4 locales, against sequential references.

mod common;

use atoll_runtime::{run, Config};
use atoll_strings::{random_strings_lognormal, random_strings_uniform, Categorical, Charset, DistStrings};
use common::{sample, LOCALES};
use std::collections::{BTreeMap, HashSet};

fn stable_argsort(v: &[String]) -> Vec<i64> {
    let mut p: Vec<i64> = (0..v.len() as i64).collect();
    p.sort_by(|&a, &b| v[a as usize].as_bytes().cmp(v[b as usize].as_bytes()));
    p
}

#[test]
fn argsort_is_stable_and_sorted_on_any_locale_count() {
    // Many repeats (8-character strings over a small alphabet), a long shared prefix, NULs.
    let mut v = sample(3000, 1);
    v.extend((0..300).map(|i| format!("{}{}", "commonprefix_", i % 17)));
    v.extend(["a".to_string(), "a\u{0}".into(), "a\u{0}\u{0}".into(), "".into(), "".into()]);
    let want = stable_argsort(&v);
    for n in LOCALES {
        run(Config::local(n), |ctx| {
            let s = DistStrings::from_vec(ctx, &v)?;
            assert_eq!(s.argsort()?.to_vec()?, want, "{n} locales");
            // Every string equal: balanced by index, still stable.
            let same = DistStrings::from_vec(ctx, &vec!["x"; 1000])?;
            assert_eq!(same.argsort()?.to_vec()?, (0..1000).collect::<Vec<i64>>());
            let empty = DistStrings::from_vec::<&str>(ctx, &[])?;
            assert!(empty.argsort()?.to_vec()?.is_empty());
            Ok(())
        })
        .unwrap();
    }
}

#[test]
fn unique_groupby_in1d_and_categorical_match_references() {
    let v = sample(2500, 7);
    let mut counts: BTreeMap<&[u8], i64> = BTreeMap::new();
    for x in &v {
        *counts.entry(x.as_bytes()).or_default() += 1;
    }
    let uniq: Vec<String> = counts.keys().map(|k| String::from_utf8(k.to_vec()).unwrap()).collect();
    let cnt: Vec<i64> = counts.values().copied().collect();
    let perm = stable_argsort(&v);
    let nums: Vec<i64> = (0..v.len() as i64).map(|i| (i * 7919) % 3 - 1).collect();
    let mut pairs: BTreeMap<(&[u8], i64), i64> = BTreeMap::new();
    for (x, &k) in v.iter().zip(&nums) {
        *pairs.entry((x.as_bytes(), k)).or_default() += 1;
    }
    let other = sample(800, 99);
    let set: HashSet<&String> = other.iter().collect();
    for n in LOCALES {
        run(Config::local(n), |ctx| {
            let s = DistStrings::from_vec(ctx, &v)?;
            let (u, c) = s.unique_counts()?;
            assert_eq!(u.to_vec()?, uniq);
            assert_eq!(c.to_vec()?, cnt);
            let g = s.groupby()?;
            assert_eq!(g.permutation.to_vec()?, perm);
            assert_eq!(g.unique_keys.to_vec()?, uniq);
            assert_eq!(g.counts.to_vec()?, cnt);
            let segs = g.segments.to_vec()?;
            let mut acc = 0;
            for (k, &c) in cnt.iter().enumerate() {
                assert_eq!(segs[k], acc);
                acc += c;
            }
            // By (strings, numbers).
            let a = atoll_array::DistArray::from_fn(ctx, s.dist().clone(), |[i]| nums[i as usize])?;
            let g2 = s.groupby_with(&a)?;
            assert_eq!(g2.counts.to_vec()?, pairs.values().copied().collect::<Vec<_>>());
            assert_eq!(
                g2.unique_keys.to_vec()?,
                pairs.keys().map(|k| String::from_utf8(k.0.to_vec()).unwrap()).collect::<Vec<_>>()
            );
            assert_eq!(
                g2.unique_numbers.as_ref().map(|x| x.to_vec()).transpose()?,
                Some(pairs.keys().map(|k| k.1).collect::<Vec<_>>())
            );
            // in1d.
            let o = DistStrings::from_vec(ctx, &other)?;
            assert_eq!(s.in1d(&o)?.to_vec()?, v.iter().map(|x| set.contains(x)).collect::<Vec<_>>());
            // Categorical.
            let cat = Categorical::new(&s)?;
            assert_eq!(cat.categories.to_vec()?, uniq);
            let codes = cat.codes.to_vec()?;
            for (i, x) in v.iter().enumerate() {
                assert_eq!(&uniq[codes[i] as usize], x);
            }
            assert_eq!(cat.to_strings()?.to_vec()?, v);
            assert_eq!(cat.counts()?.to_vec()?, cnt);
            assert_eq!(cat.eq_str(&v[3])?.to_vec()?, v.iter().map(|x| *x == v[3]).collect::<Vec<_>>());
            assert!(cat.eq_str("not there at all")?.to_vec()?.iter().all(|&b| !b));
            // take with an out-of-range index fails everywhere, nothing moves.
            let bad = atoll_array::DistArray::from_fn(ctx, atoll_array::dist::block(ctx, [3])?, |[i]| {
                if i == 2 {
                    1 << 40
                } else {
                    i
                }
            })?;
            assert!(matches!(s.take(&bad), Err(atoll_error::Error::IndexOutOfBounds { .. })));
            Ok(())
        })
        .unwrap();
    }
}

#[test]
fn random_strings_are_the_same_on_any_locale_count() {
    let reference = run(Config::local(1), |ctx| {
        Ok((
            random_strings_uniform(ctx, 1, 33, 5000, Charset::Printable, 42)?.to_vec()?,
            random_strings_lognormal(ctx, 2.0, 0.5, 3000, Charset::Letters, 42)?.to_vec()?,
        ))
    })
    .unwrap();
    let (u, l) = &reference;
    assert!(u.iter().all(|x| (1..33).contains(&x.len()) && x.bytes().all(|b| (0x20..0x7f).contains(&b))));
    assert!(u.iter().any(|x| x.len() == 1) && u.iter().any(|x| x.len() == 32));
    assert!(l.iter().all(|x| !x.is_empty() && x.bytes().all(|b| b.is_ascii_alphabetic())));
    let mean = l.iter().map(|x| x.len() as f64).sum::<f64>() / l.len() as f64;
    assert!((7.0..10.5).contains(&mean), "lognormal(2, 0.5) lengths average {mean}"); // 1 + E[floor(e^N)] ~ 8.6
    for n in [2, 3, 4] {
        run(Config::local(n), |ctx| {
            assert_eq!(&random_strings_uniform(ctx, 1, 33, 5000, Charset::Printable, 42)?.to_vec()?, u);
            assert_eq!(&random_strings_lognormal(ctx, 2.0, 0.5, 3000, Charset::Letters, 42)?.to_vec()?, l);
            assert!(random_strings_uniform(ctx, 5, 5, 10, Charset::Numeric, 1).is_err());
            Ok(())
        })
        .unwrap();
    }
}

#[test]
fn lines_of_files_read_in_parallel() {
    let dir = std::env::temp_dir().join(format!("atoll-strings-lines-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let texts = ["first\nsecond line\r\n\nfourth é日\n", "", "no newline at end", "\n\n", "x\ny\n"];
    let mut paths = Vec::new();
    let mut want: Vec<String> = Vec::new();
    for (k, t) in texts.iter().enumerate() {
        let p = dir.join(format!("f{k}.txt"));
        std::fs::write(&p, t).unwrap();
        paths.push(p);
        want.extend(t.lines().map(str::to_string));
    }
    // One bigger file whose lines cross every locale's share.
    let big: Vec<String> = sample(2000, 4).into_iter().map(|x| x.replace('\u{0}', "0")).collect();
    let p = dir.join("big.txt");
    std::fs::write(&p, big.join("\n")).unwrap();
    paths.push(p);
    want.extend(big.iter().cloned());
    for n in LOCALES {
        run(Config::local(n), |ctx| {
            let s = DistStrings::from_lines(ctx, &paths)?;
            assert_eq!(s.to_vec()?, want, "{n} locales");
            let e = DistStrings::from_lines(ctx, &[dir.join("missing.txt")]).unwrap_err();
            assert!(matches!(e, atoll_error::Error::Io(ref m) if m.contains("missing.txt")), "{e}");
            Ok(())
        })
        .unwrap();
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn the_strings_bytes_are_charged_to_the_budget() {
    run(Config::local(2).with_mem_max("8MiB"), |ctx| {
        let before = ctx.budget().committed();
        let s = random_strings_uniform(ctx, 1, 33, 100_000, Charset::Letters, 1)?;
        let held = ctx.budget().committed() - before;
        assert_eq!(held, s.local().footprint());
        drop(s);
        assert_eq!(ctx.budget().committed(), before);
        // More than the budget: OutOfMemory on every locale, and the job goes on.
        let e = random_strings_uniform(ctx, 100, 101, 200_000, Charset::Letters, 1).unwrap_err();
        assert!(matches!(e, atoll_error::Error::OutOfMemory { .. }), "{e}");
        Ok(())
    })
    .unwrap();
}
