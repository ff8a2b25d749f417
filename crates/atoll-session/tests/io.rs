//! Files on 1 to 4 locales, in a temporary folder: Parquet and HDF5 written by the session and
//! read back (arrays of each dtype and strings), the values compared with what was written,
//! whatever locale count wrote and reads. CSV is the Python layer's (`python/atoll/csv.py`):
//! no session command reads or writes it.

mod common;

use atoll_session::hdf5_io as h5;
use atoll_session::io::{self as sio, Dataset};
use atoll_session::{Array, DType, Session};
use common::{bools, data, f64s, i64s, on_1_to_4_locales, put_bool, put_f64, put_i64, put_strs, strs};
use std::path::Path;

struct Columns {
    ints: Vec<i64>,
    floats: Vec<f64>,
    flags: Vec<bool>,
    words: Vec<String>,
}

fn columns(n: usize) -> Columns {
    let ints: Vec<i64> = data(11, n, 1 << 40).into_iter().map(|v| v - (1 << 39)).collect();
    let floats = ints.iter().map(|&v| v as f64 / 3.0).collect();
    let flags = ints.iter().map(|&v| v % 3 == 0).collect();
    let words = ints.iter().map(|&v| if v % 4 == 0 { String::new() } else { format!("w{}é", v % 1000) }).collect();
    Columns { ints, floats, flags, words }
}

fn array(d: &Dataset) -> Array {
    match d {
        Dataset::Array(a) => *a,
        _ => panic!("expected an array"),
    }
}

fn check(s: &Session, c: &Columns, got: &[Dataset]) {
    let (i, f, b) = (array(&got[0]), array(&got[1]), array(&got[2]));
    assert_eq!((i.dtype, f.dtype, b.dtype), (DType::I64, DType::F64, DType::Bool));
    assert_eq!(i64s(s, &i), c.ints);
    assert_eq!(f64s(s, &f), c.floats);
    assert_eq!(bools(s, &b), c.flags);
    match &got[3] {
        Dataset::Strings(x) => assert_eq!(strs(s, x), c.words),
        _ => panic!("expected strings"),
    }
}

fn write_all(s: &Session, c: &Columns) -> Vec<Dataset> {
    let words: Vec<&str> = c.words.iter().map(String::as_str).collect();
    vec![
        Dataset::Array(put_i64(s, &c.ints)),
        Dataset::Array(put_f64(s, &c.floats)),
        Dataset::Array(put_bool(s, &c.flags)),
        Dataset::Strings(put_strs(s, &words)),
    ]
}

const NAMES: [&str; 4] = ["ints", "floats", "flags", "words"];

fn names() -> Vec<String> {
    NAMES.iter().map(|x| x.to_string()).collect()
}

/// The files whose names start with `prefix`, sorted (the locales' files in locale order).
fn files_of(dir: &Path, prefix: &str) -> Vec<String> {
    let mut v: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with(prefix))
        .map(|p| p.to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn parquet_round_trip() {
    let c = columns(777);
    let dir = tempfile::tempdir().unwrap();
    let prefix = dir.path().join("table").to_string_lossy().into_owned();
    on_1_to_4_locales(|s| {
        let cols = write_all(s, &c);
        sio::write_parquet(s, &cols, names(), prefix.clone(), None).unwrap();
        let files = files_of(dir.path(), "table");
        assert_eq!(files.len(), s.num_locales(), "one file per locale: {files:?}");
        let got = sio::read_parquet(s, files, names()).unwrap();
        check(s, &c, &got);
        // Fewer columns, in another order.
        let got = sio::read_parquet(s, files_of(dir.path(), "table"), vec!["words".into(), "ints".into()]).unwrap();
        assert!(matches!(&got[0], Dataset::Strings(x) if strs(s, x) == c.words));
        assert_eq!(i64s(s, &array(&got[1])), c.ints);
    });
}

#[test]
fn hdf5_round_trip() {
    let c = columns(555);
    let dir = tempfile::tempdir().unwrap();
    on_1_to_4_locales(|s| {
        // One file, then one file per locale.
        let single = vec![dir.path().join("single.h5").to_string_lossy().into_owned()];
        let per_locale: Vec<String> = (0..s.num_locales())
            .map(|k| dir.path().join(format!("part_LOCALE{k:04}.h5")).to_string_lossy().into_owned())
            .collect();
        for files in [single, per_locale] {
            h5::create(s, files.clone(), true).unwrap();
            for (name, d) in NAMES.iter().zip(write_all(s, &c)) {
                h5::write(s, files.clone(), name.to_string(), d, vec![], true).unwrap();
            }
            let mut got: Vec<Dataset> = NAMES[..3]
                .iter()
                .map(|n| Dataset::Array(h5::read(s, files.clone(), n.to_string(), true).unwrap()))
                .collect();
            got.push(Dataset::Strings(h5::read_strings(s, files.clone(), "words".into(), false).unwrap()));
            check(s, &c, &got);
        }
    });
}
