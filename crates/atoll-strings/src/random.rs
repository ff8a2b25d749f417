//! Seeded random strings, as Arkouda's `random_strings_uniform` / `random_strings_lognormal`:
//! string `i` is drawn from its own stream, [`Stream::new(seed, i)`](Stream) (its length, then
//! its characters), so the result is the same on any number of locales and neighbouring
//! strings are independent.

use crate::local::LocalStrings;
use crate::strings::DistStrings;
use atoll_error::{invalid_arg, Result};
use atoll_runtime::Ctx;
use atoll_util::Stream;

/// The characters random strings are drawn from (Arkouda's `characters` argument).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Charset {
    /// `A-Z`.
    Uppercase,
    /// `a-z`.
    Lowercase,
    /// `A-Za-z`.
    Letters,
    /// `0-9`.
    Numeric,
    /// The 95 printable ASCII characters, space included.
    Printable,
}

impl Charset {
    fn chars(self) -> &'static [u8] {
        match self {
            Charset::Uppercase => b"ABCDEFGHIJKLMNOPQRSTUVWXYZ",
            Charset::Lowercase => b"abcdefghijklmnopqrstuvwxyz",
            Charset::Letters => b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz",
            Charset::Numeric => b"0123456789",
            Charset::Printable => {
                b" !\"#$%&'()*+,-./0123456789:;<=>?@ABCDEFGHIJKLMNOPQRSTUVWXYZ[\\]^_`abcdefghijklmnopqrstuvwxyz{|}~"
            }
        }
    }

    /// The charset of Arkouda's name (`"uppercase"`, `"lowercase"`, `"letters"`, `"numeric"`,
    /// `"printable"`).
    ///
    /// # Errors
    /// [`atoll_error::Error::InvalidArgument`] for another name.
    pub fn from_name(name: &str) -> Result<Charset> {
        Ok(match name {
            "uppercase" => Charset::Uppercase,
            "lowercase" => Charset::Lowercase,
            "letters" => Charset::Letters,
            "numeric" => Charset::Numeric,
            "printable" => Charset::Printable,
            _ => {
                return Err(invalid_arg!(
                    "unknown character set {name:?} (uppercase, lowercase, letters, numeric, printable)"
                ))
            }
        })
    }
}

fn generate(
    ctx: &Ctx,
    size: usize,
    seed: u64,
    charset: Charset,
    len_of: impl Fn(&mut Stream) -> usize + Sync,
    min_len: usize,
    op: &str,
) -> Result<DistStrings> {
    let (_, bounds) = crate::layout::block(ctx, size)?;
    let me = ctx.id();
    let lo = bounds[me];
    // What the part takes at least (an offset and `min_len` bytes per string), reserved before
    // anything is allocated: an impossible size is an agreed OutOfMemory, never an abort.
    let n_here = (bounds[me + 1] - lo) as u64;
    let least = n_here.saturating_mul(8u64.saturating_add(min_len as u64)).saturating_add(8);
    drop(ctx.reserve(op, least)?);
    let chars = charset.chars();
    let k = chars.len() as u64;
    let parts = crate::par::map_parts(ctx, bounds[me + 1] - lo, |r| {
        let mut s = LocalStrings::with_capacity(r.len(), r.len() * 16);
        let mut buf = Vec::new();
        for i in r {
            let mut g = Stream::new(seed, (lo + i) as u64);
            let len = len_of(&mut g);
            buf.clear();
            buf.extend((0..len).map(|_| chars[g.below(k) as usize]));
            s.push_bytes_unchecked_utf8(&buf);
        }
        s
    });
    DistStrings::from_block(ctx, size, LocalStrings::concat(parts), op)
}

/// `size` random strings of lengths uniform in `minlen..maxlen` (`maxlen` excluded, as
/// NumPy's `randint` and Arkouda), characters uniform in `charset`. Seeded: the same strings
/// on any number of locales. **Collective.**
///
/// # Errors
/// [`atoll_error::Error::InvalidArgument`] when `maxlen <= minlen`.
pub fn random_strings_uniform(
    ctx: &Ctx,
    minlen: usize,
    maxlen: usize,
    size: usize,
    charset: Charset,
    seed: u64,
) -> Result<DistStrings> {
    if maxlen <= minlen {
        return Err(invalid_arg!("random_strings_uniform: maxlen ({maxlen}) must exceed minlen ({minlen})"));
    }
    let span = (maxlen - minlen) as u64;
    generate(ctx, size, seed, charset, |g| minlen + g.below(span) as usize, minlen, "random_strings_uniform")
}

/// `size` random strings whose lengths are `1 + floor(exp(N(logmean, logstd)))` (log-normal,
/// at least one character; Arkouda draws them the same way), characters uniform in `charset`.
/// Seeded as [`random_strings_uniform`]. **Collective.**
///
/// # Errors
/// [`atoll_error::Error::InvalidArgument`] when `logstd` is negative or either is not finite,
/// or when the mean length `exp(logmean)` exceeds 2^20.
pub fn random_strings_lognormal(
    ctx: &Ctx,
    logmean: f64,
    logstd: f64,
    size: usize,
    charset: Charset,
    seed: u64,
) -> Result<DistStrings> {
    if !logmean.is_finite() || !logstd.is_finite() || logstd < 0.0 || logmean > 20.0 * std::f64::consts::LN_2 {
        return Err(invalid_arg!("random_strings_lognormal: logmean {logmean}, logstd {logstd} (need finite, logstd >= 0, exp(logmean) <= 2^20)"));
    }
    generate(
        ctx,
        size,
        seed,
        charset,
        |g| {
            let z = g.normal();
            1 + ((logmean + logstd * z).exp().floor().min((1u64 << 24) as f64)) as usize
        },
        1,
        "random_strings_lognormal",
    )
}
