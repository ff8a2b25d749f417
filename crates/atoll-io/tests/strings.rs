//! Parquet string columns: round trips of `DistStrings` (with a numeric column beside them) on
//! 1-4 locales, files of another writer (the `parquet` crate directly: OPTIONAL columns with
//! nulls, dictionary and plain pages, many row groups, several files), and the typed errors
//! (binary columns, bytes that are not UTF-8, a type that differs between files).

use atoll_array::{dist, DistArray};
use atoll_error::{Error, FileErrorKind};
use atoll_io::{
    locale_filename, parquet_datasets, read_parquet, write_parquet, Col, Column, ColumnRef, Compression, IoDType,
    WriteOptions,
};
use atoll_runtime::{run, Config, Ctx, Result};
use atoll_strings::DistStrings;
use atoll_util::mix;
use parquet::data_type::{ByteArray, ByteArrayType, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn tmpdir(name: &str) -> PathBuf {
    let d =
        std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("atoll-io-str-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

/// String `i` of the test data: 0-11 characters, some empty, with 2-, 3- and 4-byte UTF-8.
fn word(i: u64) -> String {
    const CH: [char; 8] = ['a', 'b', 'Z', ' ', 'é', '日', '🙂', ','];
    let h = mix(i);
    (0..(h % 12)).map(|k| CH[((h >> (8 + 3 * k)) & 7) as usize]).collect()
}

fn strs(c: &Column) -> &DistStrings {
    match c {
        Column::Str(s) => s,
        _ => panic!("expected strings, got {:?}", c.dtype()),
    }
}

fn ints(ctx: &Ctx, c: &Column) -> Result<Vec<i64>> {
    let Column::Num(Col::I(a)) = c else { panic!("expected int64, got {:?}", c.dtype()) };
    let v = a.gather(0)?;
    ctx.broadcast(0, v)
}

fn free_all(cols: Vec<(String, Column)>) -> Result<()> {
    for (_, c) in cols {
        c.free()?;
    }
    Ok(())
}

/// Writes `n` strings and an int column with `w` locales (row groups of `rg` rows); reads them
/// back with 1-4 locales, all datasets and the strings alone.
fn round_trip(n: usize, w: usize, rg: usize, codec: Compression, tag: &str) {
    let dir = tmpdir(tag);
    let prefix = dir.join("t");
    let sv: Vec<String> = (0..n as u64).map(word).collect();
    let iv: Vec<i64> = (0..n as i64).map(|i| i * 3 - 7).collect();
    let (s2, i2, p) = (sv.clone(), iv.clone(), prefix.clone());
    run(Config::local(w), move |ctx| {
        let s = DistStrings::from_vec(ctx, &s2)?;
        let a = Col::from(DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[k]| i2[k as usize])?);
        write_parquet(
            ctx,
            &p,
            &[("s", ColumnRef::Str(&s)), ("i", ColumnRef::Num(&a))],
            &WriteOptions { compression: codec, row_group_size: rg },
        )?;
        a.free()
    })
    .unwrap();
    let infos = parquet_datasets(locale_filename(&prefix, 0)).unwrap();
    assert_eq!(infos[0].dtype, Some(IoDType::Str), "{:?}", infos[0]);
    let paths: Vec<PathBuf> = (0..w).map(|l| locale_filename(&prefix, l)).collect();
    for r in 1..=4 {
        let (sv, iv, paths) = (sv.clone(), iv.clone(), paths.clone());
        run(Config::local(r), move |ctx| {
            let cols = read_parquet(ctx, &paths, None)?;
            assert_eq!(cols.iter().map(|c| c.0.as_str()).collect::<Vec<_>>(), ["s", "i"]);
            assert_eq!(cols[0].1.dtype(), IoDType::Str);
            assert_eq!(cols[0].1.len(), n);
            let s = strs(&cols[0].1);
            // Each locale holds its Block part, like the int column beside it.
            let Column::Num(Col::I(a)) = &cols[1].1 else { panic!() };
            assert_eq!(s.local().len(), a.local().len());
            assert!(s.to_vec()? == sv, "{n} strings written by {w}, read by {r}");
            assert!(ints(ctx, &cols[1].1)? == iv, "int column");
            free_all(cols)?;
            let one = read_parquet(ctx, &paths, Some(&["s".to_string()]))?;
            assert!(strs(&one[0].1).to_vec()? == sv, "strings alone");
            free_all(one)
        })
        .unwrap();
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn string_round_trips_on_1_to_4_locales_including_empty_and_short_columns() {
    for (n, w) in [(0, 1), (0, 3), (1, 2), (3, 4), (1000, 1), (1000, 3)] {
        round_trip(n, w, 1 << 20, Compression::None, &format!("rt-{n}-{w}"));
    }
}

#[test]
fn string_round_trips_with_codecs_and_many_row_groups() {
    round_trip(5000, 2, 333, Compression::Snappy, "rt-snappy");
    round_trip(5000, 3, 1000, Compression::Zstd, "rt-zstd");
    round_trip(20_000, 1, 97, Compression::None, "rt-groups");
}

/// Writes one file of OPTIONAL string column `s` (`None` = null) and REQUIRED int64 `k` in row
/// groups of the given sizes, with dictionary pages or plain ones and small data pages.
fn write_foreign(path: &Path, rows: &[Option<String>], groups: &[usize], dictionary: bool) {
    let schema =
        Arc::new(parse_message_type("message m { OPTIONAL BYTE_ARRAY s (STRING); REQUIRED INT64 k; }").unwrap());
    let props = Arc::new(
        WriterProperties::builder()
            .set_compression(parquet::basic::Compression::SNAPPY)
            .set_dictionary_enabled(dictionary)
            .set_data_page_size_limit(512)
            .set_write_batch_size(64)
            .build(),
    );
    let mut w = SerializedFileWriter::new(std::fs::File::create(path).unwrap(), schema, props).unwrap();
    let mut at = 0;
    for &g in groups {
        let part = &rows[at..at + g];
        let mut rg = w.next_row_group().unwrap();
        let mut col = rg.next_column().unwrap().unwrap();
        let vals: Vec<ByteArray> = part.iter().flatten().map(|s| ByteArray::from(s.as_str())).collect();
        let defs: Vec<i16> = part.iter().map(|s| s.is_some() as i16).collect();
        col.typed::<ByteArrayType>().write_batch(&vals, Some(&defs), None).unwrap();
        col.close().unwrap();
        let mut col = rg.next_column().unwrap().unwrap();
        let ks: Vec<i64> = (at as i64..(at + g) as i64).collect();
        col.typed::<Int64Type>().write_batch(&ks, None, None).unwrap();
        col.close().unwrap();
        rg.close().unwrap();
        at += g;
    }
    assert_eq!(at, rows.len());
    w.close().unwrap();
}

#[test]
fn reads_dictionary_and_plain_pages_of_another_writer_with_nulls_as_empty_strings() {
    let dir = tmpdir("foreign");
    // Few distinct values (dictionary pays) in the first file, many in the second; nulls.
    let a: Vec<Option<String>> = (0..3000u64).map(|i| (i % 13 != 5).then(|| word(i % 40))).collect();
    let b: Vec<Option<String>> = (3000..4500u64).map(|i| (i % 9 != 0).then(|| word(i))).collect();
    let (pa, pb, pc) = (dir.join("a.parquet"), dir.join("b.parquet"), dir.join("c.parquet"));
    write_foreign(&pa, &a, &[1000, 1, 0, 1999], true);
    write_foreign(&pb, &b, &[700, 800], false);
    write_foreign(&pc, &[], &[], true);
    let want: Vec<String> = a.iter().chain(&b).map(|s| s.clone().unwrap_or_default()).collect();
    let paths = vec![pa, pc, pb];
    for r in 1..=4 {
        let (paths, want) = (paths.clone(), want.clone());
        run(Config::local(r), move |ctx| {
            let cols = read_parquet(ctx, &paths, Some(&["k".to_string(), "s".to_string()]))?;
            // `k` counts the rows of each file (a then b; c is empty).
            assert!(ints(ctx, &cols[0].1)? == (0..3000).chain(0..1500).collect::<Vec<i64>>(), "k on {r} locales");
            assert!(strs(&cols[1].1).to_vec()? == want, "strings on {r} locales");
            free_all(cols)
        })
        .unwrap();
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_string_row_group_larger_than_a_task_is_split_among_threads_and_locales() {
    let dir = tmpdir("big");
    let n = (1 << 20) + 4321;
    let rows: Vec<Option<String>> = (0..n as u64).map(|i| (i % 1000 != 1).then(|| word(i))).collect();
    let p = dir.join("big.parquet");
    write_foreign(&p, &rows, &[n], true);
    let want: Vec<String> = rows.into_iter().map(Option::unwrap_or_default).collect();
    for r in [1, 3] {
        let (p, want) = (p.clone(), want.clone());
        run(Config::local(r), move |ctx| {
            let cols = read_parquet(ctx, std::slice::from_ref(&p), Some(&["s".to_string()]))?;
            assert!(strs(&cols[0].1).to_vec()? == want, "{r} locales");
            free_all(cols)
        })
        .unwrap();
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// The read's error on 1-3 locales: the same everywhere, of `kind`; the job goes on.
fn expect_file_error(
    kind: FileErrorKind,
    what: &str,
    f: impl Fn(&Ctx) -> Result<Vec<(String, Column)>> + Sync + Clone + Send,
) {
    for r in 1..=3 {
        let f = f.clone();
        run(Config::local(r), move |ctx| {
            let keep = DistStrings::from_vec(ctx, &["keep", "me", "é"])?;
            let e = match f(ctx) {
                Ok(cols) => {
                    free_all(cols)?;
                    panic!("{what}: the read succeeded on {r} locales")
                }
                Err(e) => e,
            };
            let Error::File { kind: k, .. } = e else { panic!("{what}: not a file error: {e}") };
            assert_eq!(k, kind, "{what}: {e}");
            let everyone = ctx.allgather(&e)?;
            assert!(everyone.iter().all(|x| *x == e), "{what}: the locales disagree: {everyone:?}");
            assert_eq!(keep.to_vec()?, ["keep", "me", "é"]);
            Ok(())
        })
        .unwrap();
    }
}

#[test]
fn binary_columns_bad_utf8_and_types_that_differ_are_typed_errors() {
    let dir = tmpdir("errors");
    // A BYTE_ARRAY column not annotated as text (binary).
    let bin = dir.join("bin.parquet");
    {
        let schema = Arc::new(parse_message_type("message m { REQUIRED BYTE_ARRAY b; }").unwrap());
        let mut w = SerializedFileWriter::new(
            std::fs::File::create(&bin).unwrap(),
            schema,
            Arc::new(WriterProperties::builder().build()),
        )
        .unwrap();
        let mut rg = w.next_row_group().unwrap();
        let mut col = rg.next_column().unwrap().unwrap();
        col.typed::<ByteArrayType>()
            .write_batch(&[ByteArray::from(vec![1u8, 2]), ByteArray::from(vec![0xFFu8])], None, None)
            .unwrap();
        col.close().unwrap();
        rg.close().unwrap();
        w.close().unwrap();
    }
    assert_eq!(parquet_datasets(&bin).unwrap()[0].dtype, None);
    let p = vec![bin.clone()];
    expect_file_error(FileErrorKind::WrongType, "binary column", move |ctx| read_parquet(ctx, &p, Some(&["b".into()])));
    let p = vec![bin];
    expect_file_error(FileErrorKind::WrongType, "binary column, all datasets", move |ctx| read_parquet(ctx, &p, None));
    // A column annotated as text holding bytes that are not UTF-8, in the second of two files
    // (the first locale's rows are fine: the error must reach every locale).
    let good = dir.join("good.parquet");
    write_foreign(&good, &(0..100u64).map(|i| Some(word(i))).collect::<Vec<_>>(), &[100], false);
    let bad = dir.join("bad.parquet");
    {
        let schema =
            Arc::new(parse_message_type("message m { OPTIONAL BYTE_ARRAY s (STRING); REQUIRED INT64 k; }").unwrap());
        let mut w = SerializedFileWriter::new(
            std::fs::File::create(&bad).unwrap(),
            schema,
            Arc::new(WriterProperties::builder().build()),
        )
        .unwrap();
        let mut rg = w.next_row_group().unwrap();
        let mut col = rg.next_column().unwrap().unwrap();
        let vals = [ByteArray::from("ok"), ByteArray::from(vec![b'a', 0xC3]), ByteArray::from("fine")];
        col.typed::<ByteArrayType>().write_batch(&vals, Some(&[1, 1, 1]), None).unwrap();
        col.close().unwrap();
        let mut col = rg.next_column().unwrap().unwrap();
        col.typed::<Int64Type>().write_batch(&[0, 1, 2], None, None).unwrap();
        col.close().unwrap();
        rg.close().unwrap();
        w.close().unwrap();
    }
    let p = vec![good.clone(), bad.clone()];
    expect_file_error(FileErrorKind::Corrupt, "bytes that are not UTF-8", move |ctx| {
        read_parquet(ctx, &p, Some(&["k".into(), "s".into()]))
    });
    // `k` is int64 in one file and a string in the other.
    let swapped = dir.join("swapped.parquet");
    {
        let schema = Arc::new(parse_message_type("message m { REQUIRED BYTE_ARRAY k (UTF8); }").unwrap());
        let mut w = SerializedFileWriter::new(
            std::fs::File::create(&swapped).unwrap(),
            schema,
            Arc::new(WriterProperties::builder().build()),
        )
        .unwrap();
        let mut rg = w.next_row_group().unwrap();
        let mut col = rg.next_column().unwrap().unwrap();
        col.typed::<ByteArrayType>().write_batch(&[ByteArray::from("x")], None, None).unwrap();
        col.close().unwrap();
        rg.close().unwrap();
        w.close().unwrap();
    }
    let p = vec![good.clone(), swapped];
    expect_file_error(FileErrorKind::WrongType, "string in one file, int64 in another", move |ctx| {
        read_parquet(ctx, &p, Some(&["k".into()]))
    });
    let p = vec![good, dir.join("missing.parquet")];
    expect_file_error(FileErrorKind::NotFound, "missing file", move |ctx| read_parquet(ctx, &p, Some(&["s".into()])));
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_failed_string_write_keeps_the_files_that_were_there() {
    let dir = tmpdir("write-fail");
    let good = dir.join("t");
    let missing = dir.join("no-such-dir").join("t");
    for r in 1..=3 {
        let (good, missing) = (good.clone(), missing.clone());
        run(Config::local(r), move |ctx| {
            let s = DistStrings::from_vec(ctx, &(0..50u64).map(word).collect::<Vec<_>>())?;
            write_parquet(ctx, &good, &[("s", ColumnRef::Str(&s))], &WriteOptions::default())?;
            let e = write_parquet(ctx, &missing, &[("s", ColumnRef::Str(&s))], &WriteOptions::default()).unwrap_err();
            assert!(matches!(e, Error::File { kind: FileErrorKind::Io, .. }), "{e}");
            let short = Col::from(DistArray::from_fn(ctx, dist::block(ctx, [49])?, |[k]| k)?);
            let e = write_parquet(
                ctx,
                &good,
                &[("s", ColumnRef::Str(&s)), ("k", ColumnRef::Num(&short))],
                &WriteOptions::default(),
            )
            .unwrap_err();
            assert!(matches!(e, Error::ShapeMismatch { .. }), "{e}");
            short.free()?;
            let paths: Vec<PathBuf> = (0..ctx.num_locales()).map(|l| locale_filename(&good, l)).collect();
            let back = read_parquet(ctx, &paths, None)?;
            assert_eq!(strs(&back[0].1).to_vec()?, s.to_vec()?);
            free_all(back)
        })
        .unwrap();
        let left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains("tmp"))
            .collect();
        assert!(left.is_empty(), "temporaries left: {left:?}");
    }
    std::fs::remove_dir_all(dir).unwrap();
}
