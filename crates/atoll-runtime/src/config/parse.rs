//! The parsers of the settings' values: `fn(variable, value) -> Result<T>`, each error an
//! [`Error::Config`] that names the variable and the value (or [`Error::ZeroLocales`]). The
//! value is never empty: an empty variable counts as unset before a parser sees it.

use super::{BackendKind, SublocaleMode};
use crate::Aggregation;
use atoll_error::{Error, Result};
use std::time::Duration;

pub(crate) fn config_err(key: &str, value: &str, reason: &str) -> Error {
    Error::Config { key: key.into(), value: value.into(), reason: reason.into() }
}

/// A boolean: `1`/`true`/`yes`/`on` or `0`/`false`/`no`/`off`, any case (what
/// [`Config::env_flag`](super::Config::env_flag) gives the layers above).
///
/// # Errors
/// [`Error::Config`] naming `key` and `value` for anything else.
pub(crate) fn parse_bool(key: &str, value: &str) -> Result<bool> {
    match value.trim().to_ascii_lowercase().as_str() {
        "1" | "true" | "yes" | "on" => Ok(true),
        "0" | "false" | "no" | "off" | "" => Ok(false),
        _ => Err(config_err(key, value, "expected 0 or 1")),
    }
}

fn parse_usize(key: &str, v: &str) -> Result<usize> {
    v.trim().parse::<usize>().map_err(|_| config_err(key, v, "expected a non-negative integer"))
}

pub(super) fn backend(key: &str, v: &str) -> Result<BackendKind> {
    match v.trim().to_ascii_lowercase().as_str() {
        "local" => Ok(BackendKind::Local),
        "mpi" => Ok(BackendKind::Mpi),
        _ => Err(config_err(key, v, "expected local or mpi")),
    }
}

pub(super) fn locales(key: &str, v: &str) -> Result<usize> {
    match parse_usize(key, v)? {
        0 => Err(Error::ZeroLocales),
        n => Ok(n),
    }
}

pub(super) fn sublocales(key: &str, v: &str) -> Result<SublocaleMode> {
    match v.trim().to_ascii_lowercase().as_str() {
        "numa" => Ok(SublocaleMode::Numa),
        "core" => Ok(SublocaleMode::Core),
        "none" => Ok(SublocaleMode::None),
        _ => Err(config_err(key, v, "expected numa, core or none")),
    }
}

pub(super) fn threads(key: &str, v: &str) -> Result<Option<usize>> {
    match parse_usize(key, v)? {
        0 => Err(config_err(key, v, "must be at least 1")),
        t => Ok(Some(t)),
    }
}

pub(super) fn millis(key: &str, v: &str) -> Result<u64> {
    v.trim().parse::<u64>().map_err(|_| config_err(key, v, "expected a non-negative integer"))
}

/// A memory limit, kept as written once `atoll_mem::MemoryLimit::parse` accepts it.
pub(super) fn mem_max(_key: &str, v: &str) -> Result<Option<String>> {
    atoll_mem::MemoryLimit::parse(v)?;
    Ok(Some(v.to_string()))
}

/// A positive number of elements.
pub(super) fn agg_buffer(key: &str, v: &str) -> Result<usize> {
    match v.trim().parse::<usize>() {
        Ok(0) => Err(config_err(key, v, "the aggregation buffer needs at least 1 element")),
        Ok(n) => Ok(n),
        Err(_) => Err(config_err(key, v, "expected a positive number of elements (default 8192)")),
    }
}

pub(super) fn aggregation(key: &str, v: &str) -> Result<Aggregation> {
    v.parse().map_err(|_| config_err(key, v, "expected off, static or auto (default auto)"))
}

pub(super) fn agg_threshold(key: &str, v: &str) -> Result<Option<usize>> {
    v.trim()
        .parse::<usize>()
        .map(Some)
        .map_err(|_| config_err(key, v, "expected a number of elements (unset: the calibrated threshold)"))
}

/// Bytes (`12345`, `512MiB`, `2G`).
pub(super) fn bytes(key: &str, v: &str) -> Result<u64> {
    atoll_mem::parse_byte_size(key, v)
}

pub(super) fn some_bytes(key: &str, v: &str) -> Result<Option<u64>> {
    bytes(key, v).map(Some)
}

/// Whole seconds, at least 1.
pub(super) fn seconds(key: &str, v: &str) -> Result<Duration> {
    match v.trim().parse::<u64>() {
        Ok(s) if s >= 1 => Ok(Duration::from_secs(s)),
        _ => Err(config_err(key, v, "expected whole seconds, at least 1 (default 60)")),
    }
}
