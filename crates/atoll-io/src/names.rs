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

/// The locale index of `path` when it is a per-locale file of `prefix`
/// ([`locale_filename`]`(prefix, k)` for some `k`), else `None`.
pub(crate) fn locale_of(prefix: &Path, path: &Path) -> Option<usize> {
    let name = path.file_name()?.to_str()?;
    let probe = locale_filename(prefix, 0);
    let probe = probe.file_name()?.to_str()?;
    let (head, tail) = probe.split_once("_LOCALE0000")?;
    let digits = name.strip_prefix(head)?.strip_prefix("_LOCALE")?.strip_suffix(tail)?;
    if digits.len() < 4 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let k: usize = digits.parse().ok()?;
    (locale_filename(prefix, k).file_name()? == path.file_name()?).then_some(k)
}

/// The per-locale files of `prefix` for locales `n` and above (left by a write with more
/// locales), as this process sees the directory.
pub(crate) fn stale_locale_files(prefix: &Path, n: usize) -> std::io::Result<Vec<PathBuf>> {
    let probe = locale_filename(prefix, 0);
    let dir = match probe.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut out = Vec::new();
    for e in std::fs::read_dir(&dir)? {
        let p = dir.join(e?.file_name());
        if locale_of(prefix, &p).is_some_and(|k| k >= n) {
            out.push(p);
        }
    }
    out.sort();
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locale_files_are_recognised_by_name() {
        let pre = Path::new("out/t");
        assert_eq!(locale_of(pre, Path::new("out/t_LOCALE0003.parquet")), Some(3));
        assert_eq!(locale_of(pre, Path::new("out/t_LOCALE12345.parquet")), Some(12345));
        assert_eq!(locale_of(pre, Path::new("out/t_LOCALE0003.parquet.atoll-tmp")), None);
        assert_eq!(locale_of(pre, Path::new("out/tt_LOCALE0003.parquet")), None);
        assert_eq!(locale_of(pre, Path::new("out/t_LOCALE03.parquet")), None);
        assert_eq!(locale_of(Path::new("d/x.pq"), Path::new("d/x_LOCALE0001.pq")), Some(1));
    }
}
