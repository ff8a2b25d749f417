//! The static aggregation mode of the array layer's loops (`ATOLL_AGGREGATION`), a field of
//! [`crate::Config`] so that it is validated when a job starts, like every other variable.
//! `atoll-array` (which uses it) re-exports it as `atoll_array::Aggregation`.

use atoll_error::{Error, Result};

/// How the followers of a zippered loop fetch remote elements (see `atoll_array::aggregation`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Aggregation {
    /// One get (or put) per remote element: the baseline.
    Off,
    /// One strided get (or put) per remote piece of a chunk, always.
    Static,
    /// Strided transfers for pieces of at least the calibrated threshold of elements, element
    /// gets below (the default).
    #[default]
    Auto,
}

impl Aggregation {
    /// The name used by `ATOLL_AGGREGATION` and the benchmarks.
    pub fn name(self) -> &'static str {
        match self {
            Aggregation::Off => "off",
            Aggregation::Static => "static",
            Aggregation::Auto => "auto",
        }
    }
}

impl std::fmt::Display for Aggregation {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for Aggregation {
    type Err = Error;
    /// `off`, `static` or `auto` (any case); anything else is [`Error::InvalidArgument`].
    fn from_str(s: &str) -> Result<Self> {
        match s.trim().to_ascii_lowercase().as_str() {
            "off" => Ok(Aggregation::Off),
            "static" => Ok(Aggregation::Static),
            "auto" => Ok(Aggregation::Auto),
            other => Err(Error::InvalidArgument(format!("aggregation mode {other:?}: expected off, static or auto"))),
        }
    }
}
