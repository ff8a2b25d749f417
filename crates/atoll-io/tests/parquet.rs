//! Parquet IO: round trips on 1-4 locales (written by one locale count, read by another),
//! files written by another writer (the `parquet` crate directly: int32/uint32/float32 widened,
//! nulls, odd row groups, several files, a row group larger than a task), and every error a
//! user can meet, checked to be the same typed error on every locale with nothing lost.

use atoll_array::{dist, DistArray};
use atoll_error::{Error, FileErrorKind};
use atoll_io::{
    locale_filename, parquet_datasets, read_parquet, write_parquet, Col, Column, ColumnRef, Compression, DType,
    IoDType, WriteOptions,
};
use atoll_runtime::{run, Config, Ctx, Result};
use atoll_util::mix;
use parquet::data_type::{BoolType, ByteArray, ByteArrayType, DoubleType, FloatType, Int32Type, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use std::path::{Path, PathBuf};
use std::sync::Arc;

/// A fresh directory for one test, under the target directory (`CARGO_TARGET_TMPDIR`), not `/tmp`.
fn tmpdir(name: &str) -> PathBuf {
    let d = std::path::Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("atoll-io-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}
/// The whole column on every locale.
fn all<T: atoll_array::Elem + serde::Serialize + serde::de::DeserializeOwned>(
    ctx: &Ctx,
    a: &DistArray<T, 1>,
) -> Result<Vec<T>> {
    let v = a.gather(0)?;
    ctx.broadcast(0, v)
}

fn ints(c: &Column) -> &DistArray<i64, 1> {
    match c {
        Column::Num(Col::I(a)) => a,
        _ => panic!("expected int64, got {:?}", c.dtype()),
    }
}
fn uints(c: &Column) -> &DistArray<u64, 1> {
    match c {
        Column::Num(Col::U(a)) => a,
        _ => panic!("expected uint64, got {:?}", c.dtype()),
    }
}
fn floats(c: &Column) -> &DistArray<f64, 1> {
    match c {
        Column::Num(Col::F(a)) => a,
        _ => panic!("expected float64, got {:?}", c.dtype()),
    }
}
fn bools(c: &Column) -> &DistArray<bool, 1> {
    match c {
        Column::Num(Col::B(a)) => a,
        _ => panic!("expected bool, got {:?}", c.dtype()),
    }
}

fn free_all(cols: Vec<(String, Column)>) -> Result<()> {
    for (_, c) in cols {
        c.free()?;
    }
    Ok(())
}

/// The files `<prefix>_LOCALE*` written by `n` locales, in order.
fn files(prefix: &Path, n: usize) -> Vec<PathBuf> {
    (0..n).map(|l| locale_filename(prefix, l)).collect()
}

/// Writes four columns of `n` rows with `w` locales; reads them back with 1-4 locales.
fn round_trip(n: usize, w: usize, codec: Compression, tag: &str) {
    let dir = tmpdir(tag);
    let prefix = dir.join("t");
    let iv: Vec<i64> = (0..n as u64).map(|i| mix(i) as i64).collect();
    let uv: Vec<u64> = (0..n as u64).map(|i| mix(i + 7)).collect();
    let fv: Vec<f64> =
        (0..n as u64).map(|i| if i % 17 == 3 { f64::NAN } else { (mix(i + 9) >> 11) as f64 * 1e-3 - 4e12 }).collect();
    let bv: Vec<bool> = (0..n as u64).map(|i| mix(i + 11) % 3 == 0).collect();
    let (i2, u2, f2, b2) = (iv.clone(), uv.clone(), fv.clone(), bv.clone());
    let p = prefix.clone();
    run(Config::local(w), move |ctx| {
        let d = dist::block(ctx, [n])?;
        let a = Col::from(DistArray::from_fn(ctx, d.clone(), |[k]| i2[k as usize])?);
        let b = Col::from(DistArray::from_fn(ctx, d.clone(), |[k]| u2[k as usize])?);
        let c = Col::from(DistArray::from_fn(ctx, d.clone(), |[k]| f2[k as usize])?);
        let e = Col::from(DistArray::from_fn(ctx, d, |[k]| b2[k as usize])?);
        let cols = [
            ("i", ColumnRef::Num(&a)),
            ("u", ColumnRef::Num(&b)),
            ("f", ColumnRef::Num(&c)),
            ("b", ColumnRef::Num(&e)),
        ];
        let mine = write_parquet(ctx, &p, &cols, &WriteOptions { compression: codec, row_group_size: 3000 })?;
        assert_eq!(mine, locale_filename(&p, ctx.id()));
        a.free()?;
        b.free()?;
        c.free()?;
        e.free()?;
        Ok(())
    })
    .unwrap();
    let infos = parquet_datasets(locale_filename(&prefix, 0)).unwrap();
    let dts: Vec<_> = infos.iter().map(|i| (i.name.as_str(), i.dtype)).collect();
    assert_eq!(
        dts,
        [
            ("i", Some(IoDType::Num(DType::I64))),
            ("u", Some(IoDType::Num(DType::U64))),
            ("f", Some(IoDType::Num(DType::F64))),
            ("b", Some(IoDType::Num(DType::Bool)))
        ]
    );
    let paths = files(&prefix, w);
    for r in 1..=4 {
        let (iv, uv, fv, bv, paths) = (iv.clone(), uv.clone(), fv.clone(), bv.clone(), paths.clone());
        run(Config::local(r), move |ctx| {
            let cols = read_parquet(ctx, &paths, None)?;
            let names: Vec<&str> = cols.iter().map(|c| c.0.as_str()).collect();
            assert_eq!(names, ["i", "u", "f", "b"]);
            assert_eq!(all(ctx, ints(&cols[0].1))?, iv, "int64, {n} rows, written by {w}, read by {r}");
            assert_eq!(all(ctx, uints(&cols[1].1))?, uv);
            let got = all(ctx, floats(&cols[2].1))?;
            assert!(got.iter().zip(&fv).all(|(a, b)| a.to_bits() == b.to_bits()), "float64 bits");
            assert_eq!(all(ctx, bools(&cols[3].1))?, bv);
            free_all(cols)?;
            // One dataset, named.
            let one = read_parquet(ctx, &paths, Some(&["u".to_string()]))?;
            assert_eq!(all(ctx, uints(&one[0].1))?, uv);
            free_all(one)
        })
        .unwrap();
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn round_trips_on_1_to_4_locales_including_empty_and_short_arrays() {
    for (n, w) in [(0, 1), (0, 3), (1, 2), (2, 4), (1000, 1), (1000, 3), (4099, 4)] {
        round_trip(n, w, Compression::None, &format!("rt-{n}-{w}"));
    }
}

#[test]
fn round_trips_with_snappy_and_zstd_and_several_row_groups() {
    round_trip(5000, 2, Compression::Snappy, "rt-snappy");
    round_trip(5000, 3, Compression::Zstd, "rt-zstd");
    // Several row groups per file.
    round_trip(20_000, 1, Compression::None, "rt-groups");
    round_trip(20_000, 3, Compression::Snappy, "rt-groups3");
}

/// A column of a file written directly with the `parquet` crate (`None` marks a null).
enum Data {
    I32(Vec<Option<i32>>),
    I64(Vec<Option<i64>>),
    F32(Vec<Option<f32>>),
    F64(Vec<Option<f64>>),
    B(Vec<Option<bool>>),
    S(Vec<Option<&'static str>>),
}

fn split<T: Clone>(v: &[Option<T>]) -> (Vec<T>, Vec<i16>) {
    (v.iter().flatten().cloned().collect(), v.iter().map(|x| x.is_some() as i16).collect())
}

/// Writes `groups` (row groups, each a list of columns) under the schema `message`.
fn write_foreign(path: &Path, message: &str, groups: &[Vec<Data>]) {
    let schema = Arc::new(parse_message_type(message).unwrap());
    let props = Arc::new(WriterProperties::builder().set_compression(parquet::basic::Compression::SNAPPY).build());
    let mut w = SerializedFileWriter::new(std::fs::File::create(path).unwrap(), schema.clone(), props).unwrap();
    for g in groups {
        let mut rg = w.next_row_group().unwrap();
        for (k, d) in g.iter().enumerate() {
            let optional = schema.get_fields()[k].is_optional();
            let mut col = rg.next_column().unwrap().unwrap();
            macro_rules! put {
                ($t:ty, $v:expr) => {{
                    let (vals, defs) = split($v);
                    col.typed::<$t>().write_batch(&vals, optional.then_some(&defs[..]), None).unwrap();
                }};
            }
            match d {
                Data::I32(v) => put!(Int32Type, v),
                Data::I64(v) => put!(Int64Type, v),
                Data::F32(v) => put!(FloatType, v),
                Data::F64(v) => put!(DoubleType, v),
                Data::B(v) => put!(BoolType, v),
                Data::S(v) => {
                    let v: Vec<Option<ByteArray>> = v.iter().map(|s| s.map(ByteArray::from)).collect();
                    put!(ByteArrayType, &v)
                }
            }
            col.close().unwrap();
        }
        rg.close().unwrap();
    }
    w.close().unwrap();
}

const FOREIGN: &str = "message m { REQUIRED INT32 a; REQUIRED INT32 b (INTEGER(32,false)); OPTIONAL FLOAT c; OPTIONAL DOUBLE d; REQUIRED INT64 e (INTEGER(64,false)); OPTIONAL BOOLEAN f; OPTIONAL BYTE_ARRAY s (UTF8); OPTIONAL INT64 g; }";

/// Rows `lo..hi` of the foreign data set, as its columns, and the expected values.
fn foreign_group(lo: usize, hi: usize) -> Vec<Data> {
    let r = lo as u64..hi as u64;
    vec![
        Data::I32(r.clone().map(|i| Some(mix(i) as i32)).collect()),
        Data::I32(r.clone().map(|i| Some(mix(i + 1) as u32 as i32)).collect()),
        Data::F32(r.clone().map(|i| (i % 5 != 2).then(|| (mix(i + 2) % 1000) as f32 * 0.25)).collect()),
        Data::F64(r.clone().map(|i| (i % 7 != 0).then(|| (mix(i + 3) % 100_000) as f64 / 7.0)).collect()),
        Data::I64(r.clone().map(|i| Some(mix(i + 4) as i64)).collect()),
        Data::B(r.clone().map(|i| Some(mix(i + 5) & 1 == 1)).collect()),
        Data::S(r.clone().map(|i| Some(if i % 2 == 0 { "x" } else { "yy" })).collect()),
        Data::I64(r.map(|i| (i % 11 != 10).then_some(i as i64)).collect()),
    ]
}

/// Writes the foreign data set as files of the given row-group sizes; returns the paths and
/// the total.
fn write_foreign_files(dir: &Path, layout: &[&[usize]]) -> (Vec<PathBuf>, usize) {
    let mut at = 0;
    let mut paths = Vec::new();
    for (f, groups) in layout.iter().enumerate() {
        let p = dir.join(format!("part{f}.parquet"));
        let gs: Vec<Vec<Data>> = groups
            .iter()
            .map(|&g| {
                let d = foreign_group(at, at + g);
                at += g;
                d
            })
            .collect();
        write_foreign(&p, FOREIGN, &gs);
        paths.push(p);
    }
    (paths, at)
}

#[test]
fn reads_files_of_another_writer_widening_int32_uint32_float32_and_nulls_as_nan() {
    let dir = tmpdir("foreign");
    // Odd row groups (an empty one, one row, groups that straddle the locales' parts), over
    // three files, one of them with no row group at all.
    let (paths, n) = write_foreign_files(&dir, &[&[7, 1, 0, 13], &[], &[29, 3, 100]]);
    let infos = parquet_datasets(&paths[0]).unwrap();
    assert_eq!(infos[6].name, "s");
    assert_eq!(infos[6].dtype, Some(IoDType::Str), "UTF8 byte arrays read as strings");
    let want_a: Vec<i64> = (0..n as u64).map(|i| mix(i) as i32 as i64).collect();
    let want_b: Vec<u64> = (0..n as u64).map(|i| mix(i + 1) as u32 as u64).collect();
    let want_c: Vec<f64> =
        (0..n as u64).map(|i| if i % 5 != 2 { (mix(i + 2) % 1000) as f32 as f64 * 0.25 } else { f64::NAN }).collect();
    let want_d: Vec<f64> =
        (0..n as u64).map(|i| if i % 7 != 0 { (mix(i + 3) % 100_000) as f64 / 7.0 } else { f64::NAN }).collect();
    let want_e: Vec<u64> = (0..n as u64).map(|i| mix(i + 4)).collect();
    let want_f: Vec<bool> = (0..n as u64).map(|i| mix(i + 5) & 1 == 1).collect();
    let same = |a: &[f64], b: &[f64]| {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits() || (x.is_nan() && y.is_nan()))
    };
    for r in 1..=4 {
        let (paths, a, b, c, d, e, f) = (
            paths.clone(),
            want_a.clone(),
            want_b.clone(),
            want_c.clone(),
            want_d.clone(),
            want_e.clone(),
            want_f.clone(),
        );
        run(Config::local(r), move |ctx| {
            let names: Vec<String> = ["f", "a", "b", "c", "d", "e"].iter().map(|s| s.to_string()).collect();
            let cols = read_parquet(ctx, &paths, Some(&names))?;
            assert_eq!(cols.iter().map(|c| c.0.as_str()).collect::<Vec<_>>(), ["f", "a", "b", "c", "d", "e"]);
            assert_eq!(all(ctx, bools(&cols[0].1))?, f, "bool on {r} locales");
            assert_eq!(all(ctx, ints(&cols[1].1))?, a, "int32 widened on {r} locales");
            assert_eq!(all(ctx, uints(&cols[2].1))?, b, "uint32 widened");
            assert!(same(&all(ctx, floats(&cols[3].1))?, &c), "float32 widened, nulls as NaN");
            assert!(same(&all(ctx, floats(&cols[4].1))?, &d), "float64, nulls as NaN");
            assert_eq!(all(ctx, uints(&cols[5].1))?, e, "uint64");
            free_all(cols)
        })
        .unwrap();
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_row_group_larger_than_a_task_is_split_among_threads_and_locales() {
    let dir = tmpdir("big-group");
    let n = (1 << 20) * 2 + 1234;
    let (paths, total) = write_foreign_files(&dir, &[&[n]]);
    assert_eq!(total, n);
    let want: Vec<u64> = (0..n as u64).map(|i| mix(i + 4)).collect();
    for r in [1, 3] {
        let (paths, want) = (paths.clone(), want.clone());
        run(Config::local(r), move |ctx| {
            let cols = read_parquet(ctx, &paths, Some(&["e".to_string()]))?;
            assert_eq!(all(ctx, uints(&cols[0].1))?, want, "{r} locales");
            free_all(cols)
        })
        .unwrap();
    }
    std::fs::remove_dir_all(dir).unwrap();
}

/// Runs `f` on 1-3 locales; each gets the read's error, which must be the same on every
/// locale and of `kind`; an array made before survives intact and the job goes on.
fn expect_file_error(
    kind: FileErrorKind,
    what: &str,
    f: impl Fn(&Ctx) -> Result<Vec<(String, Column)>> + Sync + Clone + Send,
) {
    for r in 1..=3 {
        let f = f.clone();
        let msg = run(Config::local(r), move |ctx| {
            let keep = DistArray::from_fn(ctx, dist::block(ctx, [100])?, |[k]| k * 3)?;
            let e = match f(ctx) {
                Ok(cols) => {
                    free_all(cols)?;
                    panic!("{what}: the read succeeded on {r} locales")
                }
                Err(e) => e,
            };
            let Error::File { kind: k, ref message, .. } = e else { panic!("{what}: not a file error: {e}") };
            assert_eq!(k, kind, "{what}: {e}");
            assert!(!message.is_empty());
            let everyone = ctx.allgather(&e)?;
            assert!(everyone.iter().all(|x| *x == e), "{what}: the locales disagree: {everyone:?}");
            // Nothing lost, and the job goes on.
            assert_eq!(all(ctx, &keep)?, (0..100).map(|k| k * 3).collect::<Vec<i64>>());
            let again = DistArray::from_fn(ctx, dist::block(ctx, [10])?, |[k]| k)?;
            again.free()?;
            keep.free()?;
            Ok(e.to_string())
        })
        .unwrap();
        assert!(msg.contains(&kind.to_string()), "{msg}");
    }
}

#[test]
fn a_missing_file_is_not_found_on_every_locale() {
    let dir = tmpdir("missing");
    let (paths, _) = write_foreign_files(&dir, &[&[10], &[5]]);
    let mut p = paths.clone();
    p.insert(1, dir.join("nope.parquet"));
    expect_file_error(FileErrorKind::NotFound, "missing file", move |ctx| read_parquet(ctx, &p, Some(&["a".into()])));
    let q = vec![dir.join("nope.parquet")];
    expect_file_error(FileErrorKind::NotFound, "missing first file, all datasets", move |ctx| {
        read_parquet(ctx, &q, None)
    });
}

#[test]
fn a_missing_dataset_and_a_wrong_type_are_typed_errors() {
    let dir = tmpdir("types");
    let (paths, _) = write_foreign_files(&dir, &[&[10], &[5, 6]]);
    let p = paths.clone();
    expect_file_error(FileErrorKind::MissingDataset, "missing dataset", move |ctx| {
        read_parquet(ctx, &p, Some(&["a".into(), "zz".into()]))
    });
    let p = paths.clone();
    expect_file_error(FileErrorKind::WrongType, "all datasets include an int column with nulls", move |ctx| {
        read_parquet(ctx, &p, None)
    });
    let p = paths.clone();
    expect_file_error(FileErrorKind::WrongType, "nulls in an int column", move |ctx| {
        read_parquet(ctx, &p, Some(&["g".into()]))
    });
    // A dataset of another type in a second file.
    let other = dir.join("other.parquet");
    write_foreign(&other, "message m { REQUIRED DOUBLE a; }", &[vec![Data::F64(vec![Some(1.0); 4])]]);
    let p = vec![paths[0].clone(), other];
    expect_file_error(FileErrorKind::WrongType, "type differs between files", move |ctx| {
        read_parquet(ctx, &p, Some(&["a".into()]))
    });
}

#[test]
fn corrupt_truncated_and_non_parquet_files_are_corrupt_errors() {
    let dir = tmpdir("corrupt");
    let (paths, _) = write_foreign_files(&dir, &[&[50, 50]]);
    let bytes = std::fs::read(&paths[0]).unwrap();
    let cases: Vec<(&str, Vec<u8>)> = vec![
        ("truncated", bytes[..bytes.len() - 40].to_vec()),
        ("cut in half", bytes[..bytes.len() / 2].to_vec()),
        ("empty", vec![]),
        ("not parquet", b"col_a,col_b\n1,2\n3,4\n".repeat(10)),
        ("damaged page header", {
            let mut b = bytes.clone();
            for x in &mut b[4..24] {
                *x = 0xFF;
            }
            b
        }),
    ];
    for (what, data) in cases {
        let p = dir.join(format!("{}.parquet", what.replace(' ', "_")));
        std::fs::write(&p, data).unwrap();
        let ps = vec![paths[0].clone(), p];
        expect_file_error(FileErrorKind::Corrupt, what, move |ctx| {
            read_parquet(ctx, &ps, Some(&["a".into(), "e".into()]))
        });
    }
}

#[test]
fn a_failed_write_is_an_error_everywhere_and_keeps_the_files_that_were_there() {
    let dir = tmpdir("write-fail");
    let missing = dir.join("no-such-dir").join("t");
    let good = dir.join("t");
    for r in 1..=3 {
        let (missing, good) = (missing.clone(), good.clone());
        run(Config::local(r), move |ctx| {
            let a = Col::from(DistArray::from_fn(ctx, dist::block(ctx, [50])?, |[k]| k)?);
            write_parquet(ctx, &good, &[("a", ColumnRef::Num(&a))], &WriteOptions::default())?;
            let e = write_parquet(ctx, &missing, &[("a", ColumnRef::Num(&a))], &WriteOptions::default()).unwrap_err();
            assert!(matches!(e, Error::File { kind: FileErrorKind::Io, .. }), "{e}");
            // Bad arguments are errors too (no columns, lengths that differ, names twice).
            assert!(matches!(write_parquet(ctx, &good, &[], &WriteOptions::default()), Err(Error::InvalidArgument(_))));
            let b = Col::from(DistArray::from_fn(ctx, dist::block(ctx, [51])?, |[k]| k)?);
            let e = write_parquet(
                ctx,
                &good,
                &[("a", ColumnRef::Num(&a)), ("b", ColumnRef::Num(&b))],
                &WriteOptions::default(),
            )
            .unwrap_err();
            assert!(matches!(e, Error::ShapeMismatch { .. }), "{e}");
            let e = write_parquet(
                ctx,
                &good,
                &[("a", ColumnRef::Num(&a)), ("a", ColumnRef::Num(&a))],
                &WriteOptions::default(),
            )
            .unwrap_err();
            assert!(matches!(e, Error::InvalidArgument(_)), "{e}");
            // The files of the first write are intact, and no temporary is left.
            let back = read_parquet(ctx, &files(&good, ctx.num_locales()), None)?;
            assert_eq!(all(ctx, ints(&back[0].1))?, (0..50).collect::<Vec<i64>>());
            free_all(back)?;
            a.free()?;
            b.free()?;
            Ok(())
        })
        .unwrap();
        let left: Vec<_> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains("tmp"))
            .collect();
        assert!(left.is_empty(), "temporaries left: {left:?}");
    }
    assert!(Compression::parse(Some("lzma")).is_err());
    assert_eq!(Compression::parse(Some("gzip")).unwrap(), Compression::Gzip);
    assert_eq!(Compression::parse(Some("SNAPPY")).unwrap(), Compression::Snappy);
    std::fs::remove_dir_all(dir).unwrap();
}
