//! String columns read as categoricals: files written by 1-3 locales (row groups of a few rows,
//! the files' distinct values differing) read by 1-4 locales give the codes and the sorted
//! categories (then "N/A") that a plain computation over the strings gives; a numeric column
//! is a typed error.

use atoll_array::{dist, DistArray};
use atoll_error::{Error, FileErrorKind};
use atoll_io::{locale_filename, read_parquet_categorical, write_parquet, Col, ColumnRef, Compression, WriteOptions};
use atoll_runtime::{run, Config};
use atoll_strings::DistStrings;
use atoll_util::mix;
use std::path::PathBuf;

fn tmpdir(name: &str) -> PathBuf {
    let d =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("atoll-io-cat-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// The reference: categories sorted by code point, then "N/A" unless present; each string's
/// index among them.
fn reference(all: &[String]) -> (Vec<String>, Vec<i64>) {
    let mut cats: Vec<String> = all.to_vec();
    cats.sort();
    cats.dedup();
    if !cats.iter().any(|c| c == "N/A") {
        cats.push("N/A".to_string());
    }
    let codes = all.iter().map(|s| cats.iter().position(|c| c == s).unwrap() as i64).collect();
    (cats, codes)
}

#[test]
fn files_of_several_writers_read_as_one_categorical_on_1_to_4_locales() {
    let dir = tmpdir("multi");
    let mut paths = Vec::new();
    let mut all: Vec<String> = Vec::new();
    for (w, n) in [(1usize, 37usize), (2, 250), (3, 101)] {
        // Each write draws from its own labels: the files' dictionaries differ.
        let sv: Vec<String> =
            (0..n as u64).map(|i| format!("k{:02}é", (mix(i + 1000 * w as u64) % 13) + 5 * w as u64)).collect();
        let prefix = dir.join(format!("w{w}"));
        let (s2, p) = (sv.clone(), prefix.clone());
        run(Config::local(w), move |ctx| {
            let s = DistStrings::from_vec(ctx, &s2)?;
            let a = Col::from(DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[k]| k)?);
            write_parquet(
                ctx,
                &p,
                &[("s", ColumnRef::Str(&s)), ("i", ColumnRef::Num(&a))],
                &WriteOptions { compression: Compression::Snappy, row_group_size: 16 },
            )?;
            a.free()
        })
        .unwrap();
        paths.extend((0..w).map(|l| locale_filename(&prefix, l)));
        all.extend(sv);
    }
    let (cats, codes) = reference(&all);
    for r in 1..=4 {
        let (paths, cats, codes) = (paths.clone(), cats.clone(), codes.clone());
        run(Config::local(r), move |ctx| {
            let mut got = read_parquet_categorical(ctx, &paths, &["s".to_string()], "N/A")?;
            let (name, c) = got.pop().unwrap();
            assert_eq!(name, "s");
            assert_eq!(c.categories.to_vec()?, cats, "categories, read by {r}");
            let v = c.codes.gather(0)?;
            let v = ctx.broadcast(0, v)?;
            assert_eq!(v, codes, "codes, read by {r}");
            let e = read_parquet_categorical(ctx, &paths, &["i".to_string()], "N/A").err();
            assert!(matches!(e, Some(Error::File { kind: FileErrorKind::WrongType, .. })), "{e:?}");
            c.codes.free()
        })
        .unwrap();
    }
}
