//! File names of per-locale files, as Arkouda names them.

use std::path::{Path, PathBuf};

/// The file that locale `locale` writes for `prefix`: `<prefix>_LOCALE0000.parquet`.
///
/// As in Arkouda, an extension of the prefix's last component moves to the end
/// (`data/x.parquet` gives `data/x_LOCALE0003.parquet`); a prefix without one gets `.parquet`.
///
/// ```
/// use atoll_io::locale_filename;
/// use std::path::PathBuf;
/// assert_eq!(locale_filename("out/t", 3), PathBuf::from("out/t_LOCALE0003.parquet"));
/// assert_eq!(locale_filename("out/t.pq", 12), PathBuf::from("out/t_LOCALE0012.pq"));
/// ```
pub fn locale_filename(prefix: impl AsRef<Path>, locale: usize) -> PathBuf {
    let p = prefix.as_ref();
    let (stem, ext) = match (p.file_stem(), p.extension()) {
        (Some(stem), Some(ext)) => (p.with_file_name(stem), ext.to_string_lossy().into_owned()),
        _ => (p.to_path_buf(), "parquet".to_string()),
    };
    let mut name = stem.into_os_string();
    name.push(format!("_LOCALE{locale:04}.{ext}"));
    PathBuf::from(name)
}
