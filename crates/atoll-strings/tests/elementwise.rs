//! Element-wise operations on 1-4 locales against sequential Rust references.
// The references compile their regular expressions once per run of a locale count.
#![allow(clippy::regex_creation_in_loops)]

mod common;

use atoll_runtime::{run, Config};
use atoll_strings::{DistStrings, RegexFlags};
use common::{sample, LOCALES};

fn title(s: &str) -> String {
    let mut out = String::new();
    let mut prev = false;
    for c in s.chars() {
        let cased = c.is_lowercase() || c.is_uppercase();
        if prev {
            out.extend(c.to_lowercase());
        } else {
            out.extend(c.to_uppercase());
        }
        prev = cased;
    }
    out
}

#[test]
fn creation_layout_and_gather() {
    for n in LOCALES {
        let v = sample(1001, 3);
        run(Config::local(n), |ctx| {
            let s = DistStrings::from_vec(ctx, &v)?;
            assert_eq!(s.len(), v.len());
            assert_eq!(s.to_vec()?, v);
            // The block is the Block distribution's part.
            let lens = s.byte_lengths()?;
            assert_eq!(lens.local().len(), s.local().len());
            let g = s.gather(n - 1)?;
            assert_eq!(g.is_some(), ctx.id() == n - 1);
            if let Some(g) = g {
                assert_eq!(g, v);
            }
            let r = DistStrings::from_root(ctx, 0, (ctx.id() == 0).then_some(&v[..]))?;
            assert_eq!(r.to_vec()?, v);
            assert!(r.eq(&s)?.to_vec()?.iter().all(|&b| b));
            // Made of uneven parts: locale l contributes l * 7 strings.
            let mine: Vec<String> = (0..ctx.id() * 7).map(|k| format!("{}-{k}", ctx.id())).collect();
            let u = DistStrings::from_local_parts(ctx, atoll_strings::LocalStrings::from_strs(&mine), "test")?;
            let want: Vec<String> = (0..n).flat_map(|l| (0..l * 7).map(move |k| format!("{l}-{k}"))).collect();
            assert_eq!(u.to_vec()?, want);
            Ok(())
        })
        .unwrap();
    }
}

#[test]
fn element_wise_ops_match_sequential_references() {
    let v = sample(777, 11);
    for n in LOCALES {
        run(Config::local(n), |ctx| {
            let s = DistStrings::from_vec(ctx, &v)?;
            let lens: Vec<i64> = v.iter().map(|x| x.chars().count() as i64).collect();
            assert_eq!(s.lengths()?.to_vec()?, lens);
            assert_eq!(s.byte_lengths()?.to_vec()?, v.iter().map(|x| x.len() as i64).collect::<Vec<_>>());
            assert_eq!(s.lower()?.to_vec()?, v.iter().map(|x| x.to_lowercase()).collect::<Vec<_>>());
            assert_eq!(s.upper()?.to_vec()?, v.iter().map(|x| x.to_uppercase()).collect::<Vec<_>>());
            assert_eq!(s.title()?.to_vec()?, v.iter().map(|x| title(x)).collect::<Vec<_>>());
            assert_eq!(s.strip(None)?.to_vec()?, v.iter().map(|x| x.trim().to_string()).collect::<Vec<_>>());
            assert_eq!(
                s.strip(Some("a.é"))?.to_vec()?,
                v.iter().map(|x| x.trim_matches(|c| "a.é".contains(c)).to_string()).collect::<Vec<_>>()
            );
            assert_eq!(s.eq_str("ab")?.to_vec()?, v.iter().map(|x| x == "ab").collect::<Vec<_>>());
            assert_eq!(s.ne_str("")?.to_vec()?, v.iter().map(|x| !x.is_empty()).collect::<Vec<_>>());
            assert_eq!(s.startswith("a")?.to_vec()?, v.iter().map(|x| x.starts_with('a')).collect::<Vec<_>>());
            assert_eq!(s.endswith("é")?.to_vec()?, v.iter().map(|x| x.ends_with('é')).collect::<Vec<_>>());
            assert_eq!(s.contains("b日")?.to_vec()?, v.iter().map(|x| x.contains("b日")).collect::<Vec<_>>());
            let up = s.upper()?;
            assert_eq!(s.eq(&up)?.to_vec()?, v.iter().map(|x| *x == x.to_uppercase()).collect::<Vec<_>>());
            assert_eq!(s.ne(&up)?.to_vec()?, v.iter().map(|x| *x != x.to_uppercase()).collect::<Vec<_>>());
            // Hash: equal strings, equal hashes; the values are those of hash128.
            let (h1, h2) = s.hash()?;
            let (h1, h2) = (h1.to_vec()?, h2.to_vec()?);
            for (i, x) in v.iter().enumerate() {
                assert_eq!((h1[i], h2[i]), atoll_strings::hash128(x.as_bytes()));
            }
            // stick / lstick / concatenate.
            assert_eq!(
                s.stick(&up, "|")?.to_vec()?,
                v.iter().map(|x| format!("{x}|{}", x.to_uppercase())).collect::<Vec<_>>()
            );
            assert_eq!(
                s.lstick(&up, "")?.to_vec()?,
                v.iter().map(|x| format!("{}{x}", x.to_uppercase())).collect::<Vec<_>>()
            );
            let short = DistStrings::from_vec(ctx, &v[..5])?;
            let c = DistStrings::concatenate(&[&s, &short, &up])?;
            let mut want = v.clone();
            want.extend_from_slice(&v[..5]);
            want.extend(v.iter().map(|x| x.to_uppercase()));
            assert_eq!(c.to_vec()?, want);
            assert!(matches!(s.stick(&short, ""), Err(atoll_error::Error::ShapeMismatch { .. })));
            Ok(())
        })
        .unwrap();
    }
}

/// A peel reference: (left, right) of Arkouda's peel with the semantics documented on
/// `DistStrings::peel`.
fn peel_ref(s: &str, d: &str, times: usize, incl: bool, keep: bool, right: bool) -> (String, String) {
    let at = if right { s.rmatch_indices(d).nth(times - 1) } else { s.match_indices(d).nth(times - 1) };
    match at {
        Some((j, _)) => {
            let (a, b) = (&s[..j], &s[j + d.len()..]);
            match (incl, right) {
                (false, _) => (a.into(), b.into()),
                (true, false) => (format!("{a}{d}"), b.into()),
                (true, true) => (a.into(), format!("{d}{b}")),
            }
        }
        None if keep != right => (s.into(), String::new()),
        None => (String::new(), s.into()),
    }
}

#[test]
fn split_peel_and_regex_ops() {
    let v: Vec<String> =
        sample(500, 5).into_iter().chain(["a.b.c".to_string(), "..".into(), "".into(), "é.日.x".into()]).collect();
    for n in LOCALES {
        run(Config::local(n), |ctx| {
            let s = DistStrings::from_vec(ctx, &v)?;
            // Literal split, with segments.
            let p = s.split(".", false, None)?;
            let (pieces, segs) = (p.pieces.to_vec()?, p.segments.to_vec()?);
            let mut want = Vec::new();
            for (i, x) in v.iter().enumerate() {
                assert_eq!(segs[i] as usize, want.len());
                want.extend(x.split('.').map(str::to_string));
            }
            assert_eq!(pieces, want);
            let p = s.split(".", false, Some(1))?.pieces.to_vec()?;
            assert_eq!(p, v.iter().flat_map(|x| x.splitn(2, '.').map(str::to_string)).collect::<Vec<_>>());
            // Regex split (a character class).
            let re = regex::Regex::new("[.\\- ]+").unwrap();
            let p = s.split("[.\\- ]+", true, None)?.pieces.to_vec()?;
            assert_eq!(
                p,
                v.iter().flat_map(|x| re.split(x).map(str::to_string).collect::<Vec<_>>()).collect::<Vec<_>>()
            );
            assert!(s.split("", false, None).is_err());
            // findall, sub.
            let re = regex::Regex::new("[ab]+|日").unwrap();
            let f = s.findall("[ab]+|日", RegexFlags::default())?;
            assert_eq!(
                f.pieces.to_vec()?,
                v.iter()
                    .flat_map(|x| re.find_iter(x).map(|m| m.as_str().to_string()).collect::<Vec<_>>())
                    .collect::<Vec<_>>()
            );
            assert_eq!(
                s.sub("[ab]+|日", "<$0>", 0)?.to_vec()?,
                v.iter().map(|x| re.replace_all(x, regex::NoExpand("<$0>")).into_owned()).collect::<Vec<_>>()
            );
            assert_eq!(
                s.sub("[ab]+", "", 1)?.to_vec()?,
                v.iter()
                    .map(|x| regex::Regex::new("[ab]+").unwrap().replacen(x, 1, "").into_owned())
                    .collect::<Vec<_>>()
            );
            // contains_regex / search / match / fullmatch (positions in characters).
            assert_eq!(
                s.contains_regex("^a|é$")?.to_vec()?,
                v.iter().map(|x| x.starts_with('a') || x.ends_with('é')).collect::<Vec<_>>()
            );
            let flags = RegexFlags { ignore_case: true, ..Default::default() };
            let m = s.search("b+", flags)?;
            let (mm, st, ln) = (m.matched.to_vec()?, m.starts.to_vec()?, m.lengths.to_vec()?);
            let re = regex::RegexBuilder::new("b+").case_insensitive(true).build().unwrap();
            for (i, x) in v.iter().enumerate() {
                match re.find(x) {
                    Some(f) => assert_eq!(
                        (mm[i], st[i], ln[i]),
                        (true, x[..f.start()].chars().count() as i64, f.as_str().chars().count() as i64)
                    ),
                    None => assert_eq!((mm[i], st[i], ln[i]), (false, -1, 0)),
                }
            }
            let m = s.match_("[ab]", RegexFlags::default())?.matched.to_vec()?;
            assert_eq!(m, v.iter().map(|x| x.starts_with(['a', 'b'])).collect::<Vec<_>>());
            let m = s.fullmatch("[abc]*", RegexFlags::default())?.matched.to_vec()?;
            assert_eq!(m, v.iter().map(|x| x.chars().all(|c| "abc".contains(c))).collect::<Vec<_>>());
            // peel / rpeel, every flag combination.
            for times in [1, 2] {
                for incl in [false, true] {
                    for keep in [false, true] {
                        let (l, r) = s.peel(".", times, incl, keep)?;
                        let (l2, r2) = s.rpeel(".", times, incl, keep)?;
                        let (l, r, l2, r2) = (l.to_vec()?, r.to_vec()?, l2.to_vec()?, r2.to_vec()?);
                        for (i, x) in v.iter().enumerate() {
                            assert_eq!(
                                (l[i].clone(), r[i].clone()),
                                peel_ref(x, ".", times, incl, keep, false),
                                "peel {x:?}"
                            );
                            assert_eq!(
                                (l2[i].clone(), r2[i].clone()),
                                peel_ref(x, ".", times, incl, keep, true),
                                "rpeel {x:?}"
                            );
                        }
                    }
                }
            }
            assert_eq!(DistStrings::from_vec(ctx, &["a.b.c"])?.peel(".", 1, false, false)?.1.to_vec()?, vec!["b.c"]);
            Ok(())
        })
        .unwrap();
    }
}

#[test]
fn invalid_patterns_fail_the_same_way_on_every_locale_and_change_nothing() {
    for n in LOCALES {
        let errs = run(Config::local(n), |ctx| {
            let s = DistStrings::from_vec(ctx, &["abc", "x"])?;
            let e1 = s.contains_regex("a(b").unwrap_err();
            let e2 = s.split("[z-a]", true, None).unwrap_err();
            let e3 = s.sub("*", "", 0).unwrap_err();
            let e4 = s.fullmatch("(?P<x", RegexFlags::default()).unwrap_err();
            // The job goes on and the strings are unchanged.
            assert_eq!(s.to_vec()?, vec!["abc", "x"]);
            for e in [&e1, &e2, &e3, &e4] {
                assert!(
                    matches!(e, atoll_error::Error::InvalidArgument(m) if m.contains("invalid regular expression")),
                    "{e}"
                );
            }
            ctx.allgather(&(e1.to_string(), e2.to_string(), e3.to_string(), e4.to_string()))
        })
        .unwrap();
        assert!(errs.windows(2).all(|w| w[0] == w[1]), "{errs:?}");
    }
}

#[test]
fn regex_matching_makes_no_remote_operation() {
    for n in [2, 3, 4] {
        run(Config::local(n), |ctx| {
            let s = atoll_strings::random_strings_uniform(ctx, 1, 33, 20_000, atoll_strings::Charset::Letters, 9)?;
            ctx.start_comm_diagnostics()?;
            // The counters are live: one read of another locale's element is one get.
            let probe = atoll_array::DistArray::<i64, 1>::zeros(ctx, atoll_array::dist::block(ctx, [n])?)?;
            let c0 = ctx.comm_counts();
            probe.get([((ctx.id() + 1) % n) as i64])?;
            assert_eq!(ctx.comm_counts().since(&c0).gets, 1);
            ctx.barrier()?;
            // The collectives of allocating one result array: the only ones a match may make.
            let k0 = ctx.collectives_started();
            let a = atoll_array::DistArray::<bool, 1>::zeros_lazy(ctx, s.dist().clone())?;
            ctx.barrier()?;
            let per_array = ctx.collectives_started() - k0;
            drop(a);
            let before = ctx.comm_counts();
            let k1 = ctx.collectives_started();
            let hits = s.contains_regex("[aeiou][A-Z]|xy|Qz")?;
            let k2 = ctx.collectives_started();
            let m = s.search("[0-9a-f]{3}", RegexFlags::default())?;
            let k3 = ctx.collectives_started();
            let after = ctx.comm_counts();
            ctx.stop_comm_diagnostics()?;
            assert_eq!(after.since(&before).total_ops(), 0, "{:?}", after.since(&before));
            assert_eq!(k2 - k1, per_array, "contains_regex: only the result's allocation is collective");
            assert_eq!(k3 - k2, 3 * per_array, "search: only its three results' allocations are collective");
            // And the results are right.
            let v = s.to_vec()?;
            let re = regex::Regex::new("[aeiou][A-Z]|xy|Qz").unwrap();
            assert_eq!(hits.to_vec()?, v.iter().map(|x| re.is_match(x)).collect::<Vec<_>>());
            let re = regex::Regex::new("[0-9a-f]{3}").unwrap();
            assert_eq!(m.matched.to_vec()?, v.iter().map(|x| re.is_match(x)).collect::<Vec<_>>());
            Ok(())
        })
        .unwrap();
    }
}
