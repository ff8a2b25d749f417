//! Settings: the tracking mode, the threshold, and the report switches, from `ATOLL_MEM_*`.
//!
//! The parsers here work on byte slices and never allocate, because the allocator parses its
//! settings on its first call, when it cannot allocate. [`Settings::from_env`] runs the same
//! parsers and turns a failure into a typed [`Error::Config`].

use std::ffi::{CStr, OsString};
use std::fmt;
use std::str::FromStr;

use atoll_error::{Error, Result};
use serde::{Deserialize, Serialize};

/// `ATOLL_MEM_TRACK`: `off`, `count` (the default) or `full`.
pub const ENV_TRACK: &str = "ATOLL_MEM_TRACK";
/// `ATOLL_MEM_THRESHOLD`: blocks smaller than this many bytes are not tracked (default 0).
pub const ENV_THRESHOLD: &str = "ATOLL_MEM_THRESHOLD";
/// `ATOLL_MEM_TRACK_SITES`: `1` records the allocation site of each block in `full` mode.
pub const ENV_TRACK_SITES: &str = "ATOLL_MEM_TRACK_SITES";
/// `ATOLL_MEM_STATS`: `1` prints the statistics table at exit.
pub const ENV_STATS: &str = "ATOLL_MEM_STATS";
/// `ATOLL_MEM_LEAKS`: `1` prints the leak report at exit (needs `full` mode).
pub const ENV_LEAKS: &str = "ATOLL_MEM_LEAKS";
/// `ATOLL_MEM_MAX`: the per-locale memory limit, in bytes or as a percentage of physical memory.
pub const ENV_MAX: &str = "ATOLL_MEM_MAX";

/// How much the tracking allocator records.
///
/// ```
/// use atoll_mem::Mode;
/// assert_eq!("full".parse::<Mode>().unwrap(), Mode::Full);
/// assert_eq!(Mode::Count.to_string(), "count");
/// assert!("everything".parse::<Mode>().is_err());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    /// Nothing is recorded; the allocator costs one predictable branch over the system's.
    Off,
    /// Bytes in use, allocations and frees are counted in per-thread counter shards.
    #[default]
    Count,
    /// As `Count`, and every live block is recorded (size, locale, optionally its site) in a
    /// sharded table, for exact per-locale figures and leak reports.
    Full,
}

impl Mode {
    /// The lower-case name used by `ATOLL_MEM_TRACK`.
    pub fn as_str(self) -> &'static str {
        match self {
            Mode::Off => "off",
            Mode::Count => "count",
            Mode::Full => "full",
        }
    }
}

impl fmt::Display for Mode {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Mode {
    type Err = Error;

    fn from_str(s: &str) -> Result<Mode> {
        parse_mode(s.as_bytes()).map_err(|fail| fail.into_error(ENV_TRACK, s))
    }
}

/// Why a value did not parse. A plain enum so that the allocator can record it without
/// allocating; [`ParseFail::reason`] gives the text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[repr(u8)]
pub(crate) enum ParseFail {
    /// Not `off`, `count` or `full`.
    Mode = 1,
    /// Not a byte count.
    Bytes = 2,
    /// A byte count that does not fit in 64 bits.
    Overflow = 3,
    /// Not a boolean flag.
    Flag = 4,
    /// Not a byte count nor a percentage.
    Limit = 5,
    /// A percentage outside (0, 100].
    Percent = 6,
    /// A memory limit of zero bytes.
    ZeroLimit = 7,
}

impl ParseFail {
    /// The reason, as shown in [`Error::Config`].
    pub(crate) fn reason(self) -> &'static str {
        match self {
            ParseFail::Mode => "expected one of off, count, full",
            ParseFail::Bytes => {
                "expected a byte count such as 4096, 64K, 512MiB or 2G (suffixes are binary: K = KiB = 1024)"
            }
            ParseFail::Overflow => "the byte count does not fit in 64 bits",
            ParseFail::Flag => "expected 1 or 0 (also true/false, yes/no, on/off)",
            ParseFail::Limit => {
                "expected a byte count such as 8G, 512MiB or 1073741824, or a percentage of physical memory such as 90%"
            }
            ParseFail::Percent => "a percentage of physical memory must be greater than 0 and at most 100",
            ParseFail::ZeroLimit => "a limit of 0 bytes would refuse every allocation; give a positive size",
        }
    }

    /// Decodes the `repr(u8)` value.
    pub(crate) fn from_u8(v: u8) -> Option<ParseFail> {
        Some(match v {
            1 => ParseFail::Mode,
            2 => ParseFail::Bytes,
            3 => ParseFail::Overflow,
            4 => ParseFail::Flag,
            5 => ParseFail::Limit,
            6 => ParseFail::Percent,
            7 => ParseFail::ZeroLimit,
            _ => return None,
        })
    }

    /// The typed error for `key=value`.
    pub(crate) fn into_error(self, key: &str, value: &str) -> Error {
        Error::Config { key: key.to_string(), value: value.to_string(), reason: self.reason().to_string() }
    }
}

/// Trims ASCII whitespace from both ends.
pub(crate) fn trim(b: &[u8]) -> &[u8] {
    let start = b.iter().position(|c| !c.is_ascii_whitespace()).unwrap_or(b.len());
    let end = b.iter().rposition(|c| !c.is_ascii_whitespace()).map_or(start, |e| e + 1);
    &b[start..end]
}

/// Parses `off`, `count` or `full` (ASCII case-insensitive, surrounding blanks ignored).
pub(crate) fn parse_mode(b: &[u8]) -> std::result::Result<Mode, ParseFail> {
    let b = trim(b);
    if b.eq_ignore_ascii_case(b"off") {
        Ok(Mode::Off)
    } else if b.eq_ignore_ascii_case(b"count") {
        Ok(Mode::Count)
    } else if b.eq_ignore_ascii_case(b"full") {
        Ok(Mode::Full)
    } else {
        Err(ParseFail::Mode)
    }
}

/// Parses a boolean flag: `1/true/yes/on` or `0/false/no/off`.
pub(crate) fn parse_flag(b: &[u8]) -> std::result::Result<bool, ParseFail> {
    let b = trim(b);
    const TRUE: [&[u8]; 4] = [b"1", b"true", b"yes", b"on"];
    const FALSE: [&[u8]; 4] = [b"0", b"false", b"no", b"off"];
    if TRUE.iter().any(|t| b.eq_ignore_ascii_case(t)) {
        Ok(true)
    } else if FALSE.iter().any(|t| b.eq_ignore_ascii_case(t)) {
        Ok(false)
    } else {
        Err(ParseFail::Flag)
    }
}

/// The multiplier of a size suffix (ASCII case-insensitive); all suffixes are binary.
fn suffix_multiplier(s: &[u8]) -> Option<u64> {
    const TABLE: [(&[u8], u64); 15] = [
        (b"", 1),
        (b"b", 1),
        (b"k", 1 << 10),
        (b"kb", 1 << 10),
        (b"kib", 1 << 10),
        (b"m", 1 << 20),
        (b"mb", 1 << 20),
        (b"mib", 1 << 20),
        (b"g", 1 << 30),
        (b"gb", 1 << 30),
        (b"gib", 1 << 30),
        (b"t", 1 << 40),
        (b"tb", 1 << 40),
        (b"tib", 1 << 40),
        (b"p", 1 << 50),
    ];
    TABLE.iter().find(|(name, _)| s.eq_ignore_ascii_case(name)).map(|&(_, m)| m)
}

/// Parses a decimal number with an optional fraction: `(integer, fraction digits, fraction
/// length)` and the rest of the input.
fn split_number(b: &[u8]) -> Option<(&[u8], &[u8], &[u8])> {
    let int_len = b.iter().position(|c| !c.is_ascii_digit()).unwrap_or(b.len());
    let (int, rest) = b.split_at(int_len);
    let (frac, rest) = match rest.split_first() {
        Some((b'.', after)) => {
            let n = after.iter().position(|c| !c.is_ascii_digit()).unwrap_or(after.len());
            after.split_at(n)
        }
        _ => (&rest[..0], rest),
    };
    if int.is_empty() && frac.is_empty() {
        return None;
    }
    Some((int, frac, rest))
}

/// Parses a plain decimal number (`90`, `12.5`), nothing after it.
pub(crate) fn split_percent(b: &[u8]) -> Option<f64> {
    let (_, _, rest) = split_number(b)?;
    if !rest.is_empty() {
        return None;
    }
    std::str::from_utf8(b).ok()?.parse::<f64>().ok()
}

/// Parses a byte count: digits, an optional fraction, optional blanks and an optional binary
/// suffix (`B`, `K`/`KB`/`KiB`, `M`/`MB`/`MiB`, `G`/`GB`/`GiB`, `T`/`TB`/`TiB`, `P`), ASCII
/// case-insensitive. Fractions round down to whole bytes (`1.5K` is 1536).
pub(crate) fn parse_bytes(b: &[u8]) -> std::result::Result<u64, ParseFail> {
    let b = trim(b);
    let (int, frac, rest) = split_number(b).ok_or(ParseFail::Bytes)?;
    let mult = suffix_multiplier(trim(rest)).ok_or(ParseFail::Bytes)?;
    let mut value: u64 = 0;
    for &d in int {
        value = value.checked_mul(10).and_then(|v| v.checked_add(u64::from(d - b'0'))).ok_or(ParseFail::Overflow)?;
    }
    let mut total = value.checked_mul(mult).ok_or(ParseFail::Overflow)?;
    // The fraction: sum of digit * mult / 10^k, computed in u128 to stay exact.
    let mut num: u128 = 0;
    let mut den: u128 = 1;
    for &d in frac.iter().take(18) {
        num = num * 10 + u128::from(d - b'0');
        den *= 10;
    }
    let frac_bytes = num * u128::from(mult) / den;
    total =
        total.checked_add(u64::try_from(frac_bytes).map_err(|_| ParseFail::Overflow)?).ok_or(ParseFail::Overflow)?;
    Ok(total)
}

/// The tracking allocator's settings, from `ATOLL_MEM_*`.
///
/// | variable | values | default |
/// |---|---|---|
/// | `ATOLL_MEM_TRACK` | `off`, `count`, `full` | `count` |
/// | `ATOLL_MEM_THRESHOLD` | a byte count (`4096`, `1K`, `2MiB`) | `0` |
/// | `ATOLL_MEM_TRACK_SITES` | `1`/`0` | `0` |
/// | `ATOLL_MEM_STATS` | `1`/`0`: print the statistics table at exit | `0` |
/// | `ATOLL_MEM_LEAKS` | `1`/`0`: print the leak report at exit | `0` |
///
/// An empty value counts as unset.
///
/// ```
/// use atoll_mem::{Mode, Settings};
/// use std::ffi::OsString;
///
/// let s = Settings::from_lookup(|key| match key {
///     "ATOLL_MEM_TRACK" => Some(OsString::from("full")),
///     "ATOLL_MEM_THRESHOLD" => Some(OsString::from("1K")),
///     _ => None,
/// })
/// .unwrap();
/// assert_eq!((s.mode, s.threshold, s.track_sites), (Mode::Full, 1024, false));
///
/// let err = Settings::from_lookup(|key| {
///     (key == "ATOLL_MEM_THRESHOLD").then(|| OsString::from("lots"))
/// })
/// .unwrap_err();
/// assert!(matches!(err, atoll_error::Error::Config { ref key, .. } if key == "ATOLL_MEM_THRESHOLD"));
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Settings {
    /// What the allocator records.
    pub mode: Mode,
    /// Blocks smaller than this many bytes are neither counted nor recorded.
    pub threshold: usize,
    /// Record each block's allocation site (`full` mode only).
    pub track_sites: bool,
    /// Print the statistics table at exit.
    pub print_stats: bool,
    /// Print the leak report at exit.
    pub report_leaks: bool,
}

impl Default for Settings {
    fn default() -> Self {
        Settings { mode: Mode::Count, threshold: 0, track_sites: false, print_stats: false, report_leaks: false }
    }
}

/// The variables [`Settings`] reads, in the order they are checked.
pub(crate) const SETTING_KEYS: [&str; 5] = [ENV_TRACK, ENV_THRESHOLD, ENV_TRACK_SITES, ENV_STATS, ENV_LEAKS];
/// The same names, NUL-terminated for `getenv`.
pub(crate) const SETTING_KEYS_C: [&CStr; 5] =
    [c"ATOLL_MEM_TRACK", c"ATOLL_MEM_THRESHOLD", c"ATOLL_MEM_TRACK_SITES", c"ATOLL_MEM_STATS", c"ATOLL_MEM_LEAKS"];

impl Settings {
    /// Reads the settings from the process environment.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming the first variable whose value is invalid.
    pub fn from_env() -> Result<Settings> {
        Settings::from_lookup(|key| std::env::var_os(key))
    }

    /// Reads the settings through `lookup` (a variable name to its value), for tests and for
    /// configurations that do not come from the environment.
    ///
    /// # Errors
    ///
    /// [`Error::Config`] naming the first variable whose value is invalid.
    pub fn from_lookup(mut lookup: impl FnMut(&str) -> Option<OsString>) -> Result<Settings> {
        let mut values: [Option<OsString>; 5] = Default::default();
        for (slot, key) in values.iter_mut().zip(SETTING_KEYS) {
            *slot = lookup(key);
        }
        let mut settings = Settings::default();
        for (index, value) in values.iter().enumerate() {
            let Some(value) = value else { continue };
            if let Err(fail) = settings.apply(index, &os_bytes(value)) {
                return Err(fail.into_error(SETTING_KEYS[index], &value.to_string_lossy()));
            }
        }
        Ok(settings)
    }

    /// Sets the field read from `SETTING_KEYS[index]` to `value` (blank values are ignored).
    /// Does not allocate; on failure the field keeps its value. This is the core shared by the
    /// allocator's start-up parse and [`Settings::from_env`].
    pub(crate) fn apply(&mut self, index: usize, value: &[u8]) -> std::result::Result<(), ParseFail> {
        if trim(value).is_empty() {
            return Ok(());
        }
        match index {
            0 => self.mode = parse_mode(value)?,
            1 => self.threshold = usize::try_from(parse_bytes(value)?).unwrap_or(usize::MAX),
            2 => self.track_sites = parse_flag(value)?,
            3 => self.print_stats = parse_flag(value)?,
            _ => self.report_leaks = parse_flag(value)?,
        }
        Ok(())
    }
}

/// The bytes of an OS string (lossily converted where the platform's strings are not bytes).
fn os_bytes(v: &OsString) -> std::borrow::Cow<'_, [u8]> {
    #[cfg(unix)]
    {
        use std::os::unix::ffi::OsStrExt;
        std::borrow::Cow::Borrowed(v.as_os_str().as_bytes())
    }
    #[cfg(not(unix))]
    {
        match v.to_string_lossy() {
            std::borrow::Cow::Borrowed(s) => std::borrow::Cow::Borrowed(s.as_bytes()),
            std::borrow::Cow::Owned(s) => std::borrow::Cow::Owned(s.into_bytes()),
        }
    }
}

/// Parses a byte count such as `4096`, `64K`, `1.5GiB` (all suffixes binary, case-insensitive).
///
/// `key` names the setting for the error.
///
/// ```
/// use atoll_mem::parse_byte_size;
/// assert_eq!(parse_byte_size("ATOLL_MEM_THRESHOLD", "64K").unwrap(), 65536);
/// assert_eq!(parse_byte_size("x", " 2 MiB ").unwrap(), 2 << 20);
/// assert_eq!(parse_byte_size("x", "1.5k").unwrap(), 1536);
/// assert!(parse_byte_size("x", "12 apples").is_err());
/// ```
///
/// # Errors
///
/// [`Error::Config`] for anything else, or for a count that does not fit in 64 bits.
pub fn parse_byte_size(key: &str, value: &str) -> Result<u64> {
    parse_bytes(value.as_bytes()).map_err(|fail| fail.into_error(key, value))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes() {
        assert_eq!(parse_bytes(b"0"), Ok(0));
        assert_eq!(parse_bytes(b"12345"), Ok(12345));
        assert_eq!(parse_bytes(b"1k"), Ok(1024));
        assert_eq!(parse_bytes(b"1KiB"), Ok(1024));
        assert_eq!(parse_bytes(b"3 MB"), Ok(3 << 20));
        assert_eq!(parse_bytes(b"2G"), Ok(2 << 30));
        assert_eq!(parse_bytes(b"2gib"), Ok(2 << 30));
        assert_eq!(parse_bytes(b"1T"), Ok(1 << 40));
        assert_eq!(parse_bytes(b"0.5K"), Ok(512));
        assert_eq!(parse_bytes(b".5K"), Ok(512));
        assert_eq!(parse_bytes(b"7B"), Ok(7));
        assert_eq!(parse_bytes(b""), Err(ParseFail::Bytes));
        assert_eq!(parse_bytes(b"K"), Err(ParseFail::Bytes));
        assert_eq!(parse_bytes(b"-1"), Err(ParseFail::Bytes));
        assert_eq!(parse_bytes(b"10 Q"), Err(ParseFail::Bytes));
        assert_eq!(parse_bytes(b"1.2.3"), Err(ParseFail::Bytes));
        assert_eq!(parse_bytes(b"18446744073709551615"), Ok(u64::MAX));
        assert_eq!(parse_bytes(b"18446744073709551616"), Err(ParseFail::Overflow));
        assert_eq!(parse_bytes(b"17179869184G"), Err(ParseFail::Overflow));
    }

    #[test]
    fn modes_and_flags() {
        assert_eq!(parse_mode(b" OFF "), Ok(Mode::Off));
        assert_eq!(parse_mode(b"Count"), Ok(Mode::Count));
        assert_eq!(parse_mode(b"full"), Ok(Mode::Full));
        assert_eq!(parse_mode(b"fulll"), Err(ParseFail::Mode));
        assert_eq!(parse_flag(b"1"), Ok(true));
        assert_eq!(parse_flag(b"Yes"), Ok(true));
        assert_eq!(parse_flag(b"off"), Ok(false));
        assert_eq!(parse_flag(b"2"), Err(ParseFail::Flag));
    }

    #[test]
    fn settings_fall_back_per_variable() {
        let vals: [&[u8]; 5] = [b"loud", b"4K", b"maybe", b"1", b""];
        let mut s = Settings::default();
        let fails: Vec<_> = (0..5).filter_map(|i| s.apply(i, vals[i]).err().map(|f| (i, f))).collect();
        assert_eq!(s.mode, Mode::Count);
        assert_eq!(s.threshold, 4096);
        assert!(!s.track_sites);
        assert!(s.print_stats);
        assert!(!s.report_leaks);
        assert_eq!(fails, vec![(0, ParseFail::Mode), (2, ParseFail::Flag)]);
    }

    #[test]
    fn empty_values_are_unset() {
        let s = Settings::from_lookup(|_| Some(OsString::from("  "))).unwrap();
        assert_eq!(s, Settings::default());
    }

    #[test]
    fn fail_codes_round_trip() {
        for f in [
            ParseFail::Mode,
            ParseFail::Bytes,
            ParseFail::Overflow,
            ParseFail::Flag,
            ParseFail::Limit,
            ParseFail::Percent,
            ParseFail::ZeroLimit,
        ] {
            assert_eq!(ParseFail::from_u8(f as u8), Some(f));
        }
        assert_eq!(ParseFail::from_u8(0), None);
    }
}
