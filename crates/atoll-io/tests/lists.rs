//! Parquet list columns (Arkouda's SegArray) and decimals: round trips of lists of every
//! dtype written by 1-4 locales and read by 1-4 (empty lists, lists across row groups and
//! locales), files in pyarrow's layout (optional lists and elements: null lists read as empty
//! lists, null elements as NaN/0/""), and errors.

use atoll_array::{dist, DistArray};
use atoll_error::{Error, FileErrorKind};
use atoll_io::{
    locale_filename, parquet_datasets, read_parquet, write_parquet, Col, Column, ColumnRef, DType, IoDType, ValuesRef,
    WriteOptions,
};
use atoll_runtime::{run, Config, Ctx, Result};
use atoll_strings::DistStrings;
use atoll_util::mix;
use parquet::data_type::{ByteArray, ByteArrayType, FixedLenByteArray, FixedLenByteArrayType, Int64Type};
use parquet::file::properties::WriterProperties;
use parquet::file::writer::SerializedFileWriter;
use parquet::schema::parser::parse_message_type;
use std::path::{Path, PathBuf};
use std::sync::Arc;

fn tmpdir(name: &str) -> PathBuf {
    let d = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!("atoll-io-lists-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

fn all<T: atoll_array::Elem + serde::Serialize + serde::de::DeserializeOwned>(
    ctx: &Ctx,
    a: &DistArray<T, 1>,
) -> Result<Vec<T>> {
    let v = a.gather(0)?;
    ctx.broadcast(0, v)
}

/// The rows of `segments` over `nv` values, as ranges.
fn rows(segs: &[i64], nv: usize) -> Vec<std::ops::Range<usize>> {
    (0..segs.len()).map(|i| segs[i] as usize..segs.get(i + 1).map_or(nv, |&s| s as usize)).collect()
}

/// A list column's rows, every value formatted (floats by their bits), on every locale.
fn lists_of(ctx: &Ctx, c: &Column) -> Result<Vec<Vec<String>>> {
    let Column::List { segments, values } = c else { panic!("expected a list column, got {:?}", c.dtype()) };
    let segs = all(ctx, segments)?;
    let vals: Vec<String> = match &**values {
        Column::Num(Col::I(a)) => all(ctx, a)?.iter().map(|v| v.to_string()).collect(),
        Column::Num(Col::U(a)) => all(ctx, a)?.iter().map(|v| v.to_string()).collect(),
        Column::Num(Col::F(a)) => all(ctx, a)?.iter().map(|v| format!("{:x}", v.to_bits())).collect(),
        Column::Num(Col::B(a)) => all(ctx, a)?.iter().map(|v| v.to_string()).collect(),
        Column::Num(Col::U8(a)) => all(ctx, a)?.iter().map(|v| v.to_string()).collect(),
        Column::Str(s) => s.to_vec()?,
        Column::List { .. } => panic!("a list of lists"),
    };
    Ok(rows(&segs, vals.len()).into_iter().map(|r| vals[r].to_vec()).collect())
}

/// Row lengths with many empty rows, a long one, and empty rows at the ends.
fn lengths(n: usize) -> Vec<usize> {
    (0..n as u64)
        .map(|i| match mix(i + 3) % 7 {
            0..=2 => 0,
            3 => 17,
            k => k as usize - 3,
        })
        .collect()
}

/// Writes five list columns (int64, uint64, float64, bool, strings) and an int64 column of
/// `n` rows with `w` locales; reads them back with 1-4 locales.
fn round_trip(n: usize, w: usize, tag: &str) {
    let dir = tmpdir(tag);
    let prefix = dir.join("t");
    let lens = lengths(n);
    let nv: usize = lens.iter().sum();
    let mut segs = Vec::with_capacity(n);
    let mut at = 0i64;
    for l in &lens {
        segs.push(at);
        at += *l as i64;
    }
    let iv: Vec<i64> = (0..nv as u64).map(|i| mix(i) as i64).collect();
    let uv: Vec<u64> = (0..nv as u64).map(|i| mix(i + 1)).collect();
    let fv: Vec<f64> = (0..nv as u64).map(|i| if i % 5 == 1 { f64::NAN } else { mix(i + 2) as f64 * -1e-9 }).collect();
    let bv: Vec<bool> = (0..nv as u64).map(|i| mix(i + 3) % 2 == 0).collect();
    let sv: Vec<String> = (0..nv as u64).map(|i| "ab'\" é".chars().take((mix(i) % 6) as usize).collect()).collect();
    let want: Vec<Vec<Vec<String>>> = {
        let r = rows(&segs, nv);
        let f = |vals: Vec<String>| r.iter().map(|r| vals[r.clone()].to_vec()).collect::<Vec<_>>();
        vec![
            f(iv.iter().map(|v| v.to_string()).collect()),
            f(uv.iter().map(|v| v.to_string()).collect()),
            f(fv.iter().map(|v| format!("{:x}", v.to_bits())).collect()),
            f(bv.iter().map(|v| v.to_string()).collect()),
            f(sv.clone()),
        ]
    };
    let p = prefix.clone();
    let s2 = segs.clone();
    run(Config::local(w), move |ctx| {
        let seg = DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[k]| s2[k as usize])?;
        let seg_col = Col::from(DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[k]| s2[k as usize])?);
        let dv = dist::block(ctx, [nv])?;
        let a = Col::from(DistArray::from_fn(ctx, dv.clone(), |[k]| iv[k as usize])?);
        let b = Col::from(DistArray::from_fn(ctx, dv.clone(), |[k]| uv[k as usize])?);
        let c = Col::from(DistArray::from_fn(ctx, dv.clone(), |[k]| fv[k as usize])?);
        let e = Col::from(DistArray::from_fn(ctx, dv, |[k]| bv[k as usize])?);
        let s = DistStrings::from_vec(ctx, &sv)?;
        let cols = [
            ("i", ColumnRef::List { segments: &seg, values: ValuesRef::Num(&a) }),
            ("u", ColumnRef::List { segments: &seg, values: ValuesRef::Num(&b) }),
            ("f", ColumnRef::List { segments: &seg, values: ValuesRef::Num(&c) }),
            ("b", ColumnRef::List { segments: &seg, values: ValuesRef::Num(&e) }),
            ("s", ColumnRef::List { segments: &seg, values: ValuesRef::Str(&s) }),
            ("seg", ColumnRef::Num(&seg_col)),
        ];
        write_parquet(ctx, &p, &cols, &WriteOptions { row_group_size: 3, ..Default::default() })?;
        seg.free()?;
        seg_col.free()?;
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
            ("i", Some(IoDType::ListNum(DType::I64))),
            ("u", Some(IoDType::ListNum(DType::U64))),
            ("f", Some(IoDType::ListNum(DType::F64))),
            ("b", Some(IoDType::ListNum(DType::Bool))),
            ("s", Some(IoDType::ListStr)),
            ("seg", Some(IoDType::Num(DType::I64))),
        ]
    );
    let paths: Vec<PathBuf> = (0..w).map(|l| locale_filename(&prefix, l)).collect();
    for r in 1..=4 {
        let (paths, want, segs) = (paths.clone(), want.clone(), segs.clone());
        run(Config::local(r), move |ctx| {
            let cols = read_parquet(ctx, &paths, None)?;
            for (k, (name, c)) in cols.iter().take(5).enumerate() {
                assert_eq!(lists_of(ctx, c)?, want[k], "{name}: {n} rows written by {w}, read by {r}");
            }
            let Column::Num(Col::I(s)) = &cols[5].1 else { panic!("seg") };
            assert_eq!(all(ctx, s)?, segs);
            for (_, c) in cols {
                c.free()?;
            }
            // One list dataset, named.
            let one = read_parquet(ctx, &paths, Some(&["s".to_string()]))?;
            assert_eq!(lists_of(ctx, &one[0].1)?, want[4]);
            for (_, c) in one {
                c.free()?;
            }
            Ok(())
        })
        .unwrap();
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn list_columns_round_trip_between_1_to_4_locales() {
    for (n, w) in [(0, 1), (1, 3), (9, 2), (40, 4), (1000, 3)] {
        round_trip(n, w, &format!("rt{n}-{w}"));
    }
}

/// One row group of one leaf: values, definition levels, repetition levels.
type Levels<T> = (Vec<T>, Vec<i16>, Vec<i16>);

/// Writes `path` with `message` and, per row group, one leaf of values with levels.
fn write_levels<T: parquet::data_type::DataType>(path: &Path, message: &str, groups: &[Levels<T::T>]) {
    let schema = Arc::new(parse_message_type(message).unwrap());
    let props = Arc::new(WriterProperties::builder().set_dictionary_enabled(true).build());
    let mut w = SerializedFileWriter::new(std::fs::File::create(path).unwrap(), schema, props).unwrap();
    for (vals, defs, reps) in groups {
        let mut rg = w.next_row_group().unwrap();
        let mut c = rg.next_column().unwrap().unwrap();
        c.typed::<T>().write_batch(vals, Some(defs), Some(reps)).unwrap();
        c.close().unwrap();
        rg.close().unwrap();
    }
    w.close().unwrap();
}

#[test]
fn pyarrow_layout_lists_read_with_nulls_as_empty_lists_and_defaults() {
    let dir = tmpdir("foreign");
    let p = dir.join("a.parquet");
    // optional list (def 1 present), repeated (def 2 has an element), optional element (def 3).
    // Rows: [1, null, 3], null, [], [7] | [8, 9], [].
    write_levels::<Int64Type>(
        &p,
        "message m { OPTIONAL group l (LIST) { REPEATED group list { OPTIONAL INT64 element; } } }",
        &[(vec![1, 3, 7], vec![3, 2, 3, 0, 1, 3], vec![0, 1, 1, 0, 0, 0]), (vec![8, 9], vec![3, 3, 1], vec![0, 1, 0])],
    );
    let q = dir.join("b.parquet");
    write_levels::<ByteArrayType>(
        &q,
        "message m { REQUIRED group l (LIST) { REPEATED group list { OPTIONAL BYTE_ARRAY element (UTF8); } } }",
        &[(vec![ByteArray::from("x"), ByteArray::from("yz")], vec![2, 1, 0, 2], vec![0, 1, 0, 0])],
    );
    for r in 1..=4 {
        let (p, q) = (p.clone(), q.clone());
        run(Config::local(r), move |ctx| {
            let got = read_parquet(ctx, std::slice::from_ref(&p), None)?;
            let want: Vec<Vec<&str>> = vec![vec!["1", "0", "3"], vec![], vec![], vec!["7"], vec!["8", "9"], vec![]];
            assert_eq!(got[0].0, "l");
            assert_eq!(lists_of(ctx, &got[0].1)?, want, "read by {r}");
            got.into_iter().try_for_each(|(_, c)| c.free())?;
            let got = read_parquet(ctx, &[q.clone(), q.clone()], Some(&["l".to_string()]))?;
            let want: Vec<Vec<&str>> = vec![vec!["x", ""], vec![], vec!["yz"], vec!["x", ""], vec![], vec!["yz"]];
            assert_eq!(lists_of(ctx, &got[0].1)?, want);
            got.into_iter().try_for_each(|(_, c)| c.free())
        })
        .unwrap();
    }
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn a_list_of_lists_is_a_wrong_type_error_and_decimals_read_as_float64() {
    let dir = tmpdir("nested");
    let p = dir.join("n.parquet");
    write_levels::<Int64Type>(
        &p,
        "message m { REQUIRED group l (LIST) { REPEATED group list { REQUIRED group element (LIST) { \
         REPEATED group list { REQUIRED INT64 element; } } } } }",
        &[(vec![1, 2], vec![2, 2], vec![0, 2])],
    );
    let pp = p.clone();
    run(Config::local(2), move |ctx| {
        match read_parquet(ctx, std::slice::from_ref(&pp), Some(&["l".to_string()])) {
            Err(Error::File { kind: FileErrorKind::WrongType, message, .. }) => {
                assert!(message.contains("list of lists"), "{message}")
            }
            other => panic!("expected a WrongType error, got {:?}", other.map(|v| v.len())),
        }
        Ok(())
    })
    .unwrap();
    // decimal(20, 2) as 9-byte big-endian two's complement: 123.45, -0.07, 1e15.
    let d = dir.join("d.parquet");
    let enc = |v: i128| FixedLenByteArray::from(v.to_be_bytes()[7..].to_vec());
    let schema =
        Arc::new(parse_message_type("message m { REQUIRED FIXED_LEN_BYTE_ARRAY (9) d (DECIMAL(20,2)); }").unwrap());
    let mut w = SerializedFileWriter::new(std::fs::File::create(&d).unwrap(), schema, Default::default()).unwrap();
    let mut rg = w.next_row_group().unwrap();
    let mut c = rg.next_column().unwrap().unwrap();
    c.typed::<FixedLenByteArrayType>()
        .write_batch(&[enc(12345), enc(-7), enc(100_000_000_000_000_000)], None, None)
        .unwrap();
    c.close().unwrap();
    rg.close().unwrap();
    w.close().unwrap();
    run(Config::local(3), move |ctx| {
        let got = read_parquet(ctx, std::slice::from_ref(&d), None)?;
        let Column::Num(Col::F(a)) = &got[0].1 else { panic!("expected float64") };
        assert_eq!(all(ctx, a)?, vec![123.45, -0.07, 1e15]);
        got.into_iter().try_for_each(|(_, c)| c.free())
    })
    .unwrap();
    std::fs::remove_dir_all(dir).unwrap();
}

#[test]
fn segments_that_do_not_ascend_are_an_invalid_argument_everywhere() {
    let dir = tmpdir("bad");
    let p = dir.join("t");
    run(Config::local(3), move |ctx| {
        let seg = DistArray::from_fn(ctx, dist::block(ctx, [4])?, |[k]| [0i64, 3, 1, 5][k as usize])?;
        let v = Col::from(DistArray::from_fn(ctx, dist::block(ctx, [5])?, |[k]| k)?);
        let cols = [("l", ColumnRef::List { segments: &seg, values: ValuesRef::Num(&v) })];
        match write_parquet(ctx, &p, &cols, &WriteOptions::default()) {
            Err(Error::InvalidArgument(m)) => assert!(m.contains("ascend"), "{m}"),
            other => panic!("expected InvalidArgument, got {other:?}"),
        }
        seg.free()?;
        v.free()
    })
    .unwrap();
    std::fs::remove_dir_all(dir).unwrap();
}
