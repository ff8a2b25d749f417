//! Atoll's single error type.
//!
//! Every fallible operation in Atoll returns [`Result<T>`], whose error is the one [`Error`]
//! enum below. Errors are plain values: they can be cloned, compared, and serialized, so an
//! error raised on one locale travels unchanged to the locale that asked (for example the reply
//! of an active message, or the failure that ends a job).
//!
//! The [`bail!`] and [`ensure!`] macros return early with an error:
//!
//! ```
//! use atoll_error::{bail, ensure, Error, Result};
//!
//! fn check_locale(locale: usize, num_locales: usize) -> Result<usize> {
//!     ensure!(num_locales > 0, Error::ZeroLocales);
//!     if locale >= num_locales {
//!         bail!(Error::InvalidLocale { locale, num_locales });
//!     }
//!     Ok(locale)
//! }
//!
//! assert_eq!(check_locale(1, 4), Ok(1));
//! assert_eq!(check_locale(4, 4), Err(Error::InvalidLocale { locale: 4, num_locales: 4 }));
//! assert!(check_locale(0, 0).unwrap_err().to_string().contains("zero locales"));
//! ```

use serde::{Deserialize, Serialize};

/// The result type of every fallible Atoll operation.
pub type Result<T, E = Error> = std::result::Result<T, E>;

/// Everything that can go wrong in Atoll.
///
/// Variants carry the values a user needs to fix the call (the bad index and the bounds, the
/// request and the limit), and their `Display` text says what happened in one sentence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, thiserror::Error)]
#[non_exhaustive]
pub enum Error {
    /// A job was asked to run on zero locales.
    #[error("a job needs at least one locale, but zero locales were requested")]
    ZeroLocales,

    /// A locale id outside `0..num_locales`.
    #[error("locale {locale} does not exist: valid locale ids are 0..{num_locales}")]
    InvalidLocale {
        /// The id that was asked for.
        locale: usize,
        /// How many locales the job has.
        num_locales: usize,
    },

    /// A sublocale index outside `0..count` of its locale.
    #[error("sublocale {sublocale} of locale {locale} does not exist: it has {count} sublocales")]
    InvalidSublocale {
        /// The locale whose child was asked for.
        locale: usize,
        /// The index that was asked for.
        sublocale: usize,
        /// How many sublocales that locale has.
        count: usize,
    },

    /// A configuration value (an `ATOLL_*` variable or a `Config` field) is invalid.
    #[error("invalid configuration {key}={value:?}: {reason}")]
    Config {
        /// The variable or field name.
        key: String,
        /// The value given.
        value: String,
        /// What is wrong with it and what is accepted.
        reason: String,
    },

    /// The requested communication backend is not available in this build or environment.
    #[error("backend '{backend}' is unavailable: {reason}")]
    BackendUnavailable {
        /// The backend asked for.
        backend: String,
        /// Why it cannot be used.
        reason: String,
    },

    /// Locales reached different collective operations at the same point of the program.
    #[error(
        "collective mismatch at collective #{seq}: locale {locale} called {found} while locale 0 called {expected}"
    )]
    CollectiveMismatch {
        /// The first locale found to disagree with locale 0.
        locale: usize,
        /// The sequence number of the collective (0 for the first one of the job).
        seq: u64,
        /// What locale 0 called.
        expected: String,
        /// What `locale` called.
        found: String,
    },

    /// An active message named a handler that the target locale has not registered.
    #[error("handler '{name}' (id {id:#018x}) is not registered on locale {locale}")]
    HandlerNotRegistered {
        /// The handler's name, as the caller knows it.
        name: String,
        /// Its stable id.
        id: u64,
        /// The locale that lacks it.
        locale: usize,
    },

    /// A remote access named memory that is not registered on the target locale.
    #[error(
        "locale {locale} has no registered memory at {addr:#x}..{end:#x} ({len} bytes): register it (or allocate it collectively) before remote access",
        end = addr.saturating_add(*len as u64)
    )]
    NotRegistered {
        /// The target locale.
        locale: usize,
        /// The start address on the target.
        addr: u64,
        /// The length of the access in bytes.
        len: usize,
    },

    /// A registration would partly overlap an existing registered region.
    #[error(
        "cannot register {addr:#x} ({len} bytes) on locale {locale}: it partly overlaps the registered region at {existing:#x} ({existing_len} bytes)"
    )]
    RegistrationOverlap {
        /// The locale registering.
        locale: usize,
        /// The start of the new region.
        addr: u64,
        /// Its length in bytes.
        len: usize,
        /// The start of the region it overlaps.
        existing: u64,
        /// That region's length.
        existing_len: usize,
    },

    /// A remote atomic named an address that is not 8-byte aligned.
    #[error("remote atomic on locale {locale} at {addr:#x}: the address must be 8-byte aligned")]
    Misaligned {
        /// The target locale.
        locale: usize,
        /// The address given.
        addr: u64,
    },

    /// A locale failed (returned an error or panicked), which ended the whole job.
    #[error("locale {locale} failed: {message}")]
    LocaleFailed {
        /// The locale that failed first.
        locale: usize,
        /// Its error or panic message.
        message: String,
    },

    /// A handler (an active message, a driver command, or a call of one on the caller's own
    /// locale) panicked. The panic was caught: the locale and the job go on.
    #[error("handler '{handler}' panicked on locale {locale}: {message}")]
    HandlerPanicked {
        /// The locale the handler ran on.
        locale: usize,
        /// The handler's name.
        handler: String,
        /// The panic message.
        message: String,
    },

    /// A driver command was abandoned because one of its locales failed (its handler panicked
    /// or returned an error): what a locale waiting in a collective of that command gets
    /// instead of the collective's result. The job goes on with the next command.
    #[error("the command was abandoned: locale {locale} failed in it ({message})")]
    CommandFailed {
        /// The locale whose failure abandoned the command.
        locale: usize,
        /// Its error or panic message.
        message: String,
    },

    /// An operation would exceed a locale's memory limit; nothing was allocated.
    #[error(
        "out of memory in {operation}: locale {locale} needs {requested} more bytes with {in_use} in use, over its limit of {limit} bytes (nothing was allocated)"
    )]
    OutOfMemory {
        /// The operation that was refused.
        operation: String,
        /// The locale that would have exceeded its limit.
        locale: usize,
        /// The bytes the operation asked for on that locale.
        requested: u64,
        /// The bytes already in use or reserved there.
        in_use: u64,
        /// That locale's limit.
        limit: u64,
    },

    /// Operands whose shapes must agree do not.
    #[error("shape mismatch in {context}: {left} vs {right}")]
    ShapeMismatch {
        /// The operation.
        context: String,
        /// The first shape.
        left: String,
        /// The second shape.
        right: String,
    },

    /// An index outside the bounds it must lie in.
    #[error("index {index} is out of bounds {bounds}")]
    IndexOutOfBounds {
        /// The index, printed.
        index: String,
        /// The bounds, printed.
        bounds: String,
    },

    /// An argument is invalid for a reason that no other variant names.
    #[error("invalid argument: {0}")]
    InvalidArgument(String),

    /// A value could not be serialized or deserialized.
    #[error("serialization failed: {0}")]
    Serialization(String),

    /// The communication layer (MPI) reported a failure.
    #[error("communication failed on locale {locale}: {message}")]
    Comm {
        /// The locale that saw the failure.
        locale: usize,
        /// The library's message.
        message: String,
    },

    /// An operating-system call failed (threads, affinity, files).
    #[error("system error: {0}")]
    Io(String),

    /// A shared array's file (`atoll-share`) is missing, truncated, foreign or corrupt, or
    /// does not match what the caller asked for.
    #[error("shared array file {path}: {reason}")]
    SharedFile {
        /// The file.
        path: String,
        /// What is wrong with it.
        reason: String,
    },

    /// A wait (a shared-memory signal) ended without the event: the peer may be gone.
    #[error("timed out after {waited_ms} ms waiting for {what}")]
    Timeout {
        /// What was waited for.
        what: String,
        /// How long.
        waited_ms: u64,
    },

    /// A text input (a Matrix Market file) is malformed; `line` is 1-based.
    #[error("{source_name}:{line}: {message}")]
    Parse {
        /// The input's name (a path).
        source_name: String,
        /// The line that is wrong (1-based; one past the last line for a truncated input).
        line: u64,
        /// What is wrong.
        message: String,
    },
    /// A data file is missing, corrupt or unwritable, or lacks the requested data (file IO).
    #[error("{kind}: {path}: {message}")]
    File {
        /// What went wrong.
        kind: FileErrorKind,
        /// The file (or prefix, or pattern) concerned.
        path: String,
        /// The details.
        message: String,
    },
}

/// The kinds of [`Error::File`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[non_exhaustive]
pub enum FileErrorKind {
    /// The file does not exist (or a pattern matched no file).
    NotFound,
    /// The file is not a valid file of its format (truncated, corrupt, another format).
    Corrupt,
    /// The file has no dataset (column) of the requested name.
    MissingDataset,
    /// The dataset's type is not one that can be read (or differs between files).
    WrongType,
    /// The file could not be read or written (permissions, disk full, a missing directory).
    Io,
}

impl std::fmt::Display for FileErrorKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            FileErrorKind::NotFound => "file not found",
            FileErrorKind::Corrupt => "corrupt or unreadable file",
            FileErrorKind::MissingDataset => "dataset not found",
            FileErrorKind::WrongType => "dataset of unsupported type",
            FileErrorKind::Io => "file input/output failed",
        })
    }
}

impl From<std::io::Error> for Error {
    fn from(e: std::io::Error) -> Self {
        Error::Io(e.to_string())
    }
}

/// Returns early from the enclosing function with the given error (converted with `Into`).
///
/// ```
/// use atoll_error::{bail, Error, Result};
/// fn f() -> Result<()> { bail!(Error::ZeroLocales) }
/// assert_eq!(f(), Err(Error::ZeroLocales));
/// ```
#[macro_export]
macro_rules! bail {
    ($err:expr $(,)?) => {
        return ::core::result::Result::Err(::core::convert::Into::into($err))
    };
}

/// Returns early with the given error unless the condition holds.
///
/// ```
/// use atoll_error::{ensure, Error, Result};
/// fn f(n: usize) -> Result<usize> { ensure!(n > 0, Error::ZeroLocales); Ok(n) }
/// assert_eq!(f(0), Err(Error::ZeroLocales));
/// assert_eq!(f(2), Ok(2));
/// ```
#[macro_export]
macro_rules! ensure {
    ($cond:expr, $err:expr $(,)?) => {
        if !$cond {
            $crate::bail!($err);
        }
    };
}

/// Shorthand for [`Error::InvalidArgument`] with a formatted message.
///
/// ```
/// use atoll_error::{invalid_arg, Error};
/// let e = invalid_arg!("block size must be positive, got {}", 0);
/// assert_eq!(e, Error::InvalidArgument("block size must be positive, got 0".into()));
/// ```
#[macro_export]
macro_rules! invalid_arg {
    ($($arg:tt)*) => {
        $crate::Error::InvalidArgument(::std::format!($($arg)*))
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_values() {
        let e = Error::OutOfMemory { operation: "zeros".into(), locale: 2, requested: 100, in_use: 50, limit: 120 };
        let s = e.to_string();
        assert!(s.contains("zeros") && s.contains("locale 2") && s.contains("120"), "{s}");
        let e = Error::NotRegistered { locale: 1, addr: 0x1000, len: 16 };
        assert!(e.to_string().contains("0x1000..0x1010"), "{e}");
    }

    #[test]
    fn io_errors_convert() {
        let e: Error = std::io::Error::other("boom").into();
        assert_eq!(e, Error::Io("boom".into()));
    }
}
