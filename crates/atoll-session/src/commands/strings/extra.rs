//! More of Arkouda's `Strings` methods, on `atoll-strings`' per-locale layout: character
//! class tests (`isalpha`, `isdigit`, ...), `capitalize`, `swapcase`, and log-normal random
//! strings. Each locale works on its own strings; no communication but the result's
//! bookkeeping.

use crate::commands::strings::{get, put, Strs};
use crate::handles::{next_ids, Array, Session};
use crate::registry::{Col, Registry};
use crate::types::DType;
use atoll::array::{dist, DistArray};
use atoll::runtime::{Ctx, Handler};
use atoll::strings::{random_strings_lognormal, Charset};
use atoll::{Error, Result};
use serde::{Deserialize, Serialize};

/// A test of every character of a string (Python's `str.isalpha` and the others).
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum StrTest {
    /// `str.isalpha`
    Alpha,
    /// `str.isdigit`
    Digit,
    /// `str.isdecimal`
    Decimal,
    /// `str.isnumeric`
    Numeric,
    /// `str.isalnum`
    Alnum,
    /// `str.isspace`
    Space,
    /// `str.islower`
    Lower,
    /// `str.isupper`
    Upper,
    /// `str.istitle`
    Title,
    /// `s == ""`
    Empty,
}

impl StrTest {
    /// The test of a name (`isalpha`, `isdigit`, ...).
    pub fn parse(s: &str) -> Option<StrTest> {
        use StrTest::*;
        Some(match s {
            "isalpha" => Alpha,
            "isdigit" => Digit,
            "isdecimal" => Decimal,
            "isnumeric" => Numeric,
            "isalnum" => Alnum,
            "isspace" => Space,
            "islower" => Lower,
            "isupper" => Upper,
            "istitle" => Title,
            "isempty" => Empty,
            _ => return None,
        })
    }

    /// The test of one string, as Python's `str` methods (Unicode's categories as Rust's
    /// `char` methods give them).
    fn test(self, s: &str) -> bool {
        use StrTest::*;
        let nonempty = !s.is_empty();
        match self {
            Alpha => nonempty && s.chars().all(char::is_alphabetic),
            Digit | Decimal => {
                // ASCII digits only: std has no Unicode decimal-digit class (Python's
                // `isdigit` also accepts other scripts' digits).
                nonempty && s.chars().all(|c| c.is_ascii_digit())
            }
            Numeric => nonempty && s.chars().all(char::is_numeric),
            Alnum => nonempty && s.chars().all(char::is_alphanumeric),
            Space => nonempty && s.chars().all(char::is_whitespace),
            Lower => s.chars().any(|c| c.is_lowercase()) && !s.chars().any(|c| c.is_uppercase()),
            Upper => s.chars().any(|c| c.is_uppercase()) && !s.chars().any(|c| c.is_lowercase()),
            Title => {
                // Upper case letters only after uncased characters, lower case only after cased.
                let (mut prev_cased, mut any) = (false, false);
                for c in s.chars() {
                    if c.is_uppercase() {
                        if prev_cased {
                            return false;
                        }
                        prev_cased = true;
                        any = true;
                    } else if c.is_lowercase() {
                        if !prev_cased {
                            return false;
                        }
                        prev_cased = true;
                    } else {
                        prev_cased = false;
                    }
                }
                any
            }
            Empty => s.is_empty(),
        }
    }
}

/// Whether each of strings `id` passes `t`, as a new bool array `out`.
#[derive(Serialize, Deserialize)]
pub struct CharTest {
    /// The new array's id.
    pub out: u64,
    /// The strings read.
    pub id: u64,
    /// The test.
    pub t: StrTest,
}

fn test_cmd(ctx: &Ctx, CharTest { out, id, t }: CharTest) -> Result<()> {
    let s = get(ctx, id)?;
    let local = s.local();
    let mut a = DistArray::<bool, 1>::zeros_lazy(ctx, dist::block(ctx, [s.len()])?)?;
    if a.local().len() != local.len() {
        a.free()?;
        return Err(Error::InvalidArgument("internal: strings and arrays are laid out differently".into()));
    }
    for (i, o) in a.local_mut().iter_mut().enumerate() {
        *o = t.test(local.get_str(i));
    }
    Registry::of(ctx).insert(out, Col::B(a));
    Ok(())
}

/// A string-to-string map (`capitalize`, `swapcase`).
#[derive(Serialize, Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
pub enum StrMap {
    /// `str.capitalize`: the first character in title case, the rest in lower case.
    Capitalize,
    /// `str.swapcase`
    Swapcase,
}

/// New strings `out` made from strings `id` by `m`.
#[derive(Serialize, Deserialize)]
pub struct MapStrings {
    /// The new strings' id.
    pub out: u64,
    /// The strings read.
    pub id: u64,
    /// The map.
    pub m: StrMap,
}

fn map_cmd(ctx: &Ctx, MapStrings { out, id, m }: MapStrings) -> Result<()> {
    let s = get(ctx, id)?;
    let r = match m {
        StrMap::Capitalize => s.capitalize()?,
        StrMap::Swapcase => s.swapcase()?,
    };
    put(ctx, out, r);
    Ok(())
}

/// `n` random strings `id` of log-normal lengths over `chars`, from `seed`.
#[derive(Serialize, Deserialize)]
pub struct RandomLognormal {
    /// The new strings' id.
    pub id: u64,
    /// The mean of the lengths' logarithm.
    pub logmean: f64,
    /// Its standard deviation.
    pub logstd: f64,
    /// The number of strings.
    pub n: usize,
    /// The characters drawn from.
    pub chars: String,
    /// The seed.
    pub seed: u64,
}

fn lognormal_cmd(ctx: &Ctx, RandomLognormal { id, logmean, logstd, n, chars, seed }: RandomLognormal) -> Result<()> {
    let s = random_strings_lognormal(ctx, logmean, logstd, n, Charset::from_name(&chars)?, seed)?;
    put(ctx, id, s);
    Ok(())
}

/// A bool array: `test` of each string. **Collective.**
pub fn test(s: &Session, x: &Strs, t: StrTest) -> Result<Array> {
    s.new_array(DType::Bool, x.len, |id| s.exec(&TEST, CharTest { out: id, id: x.id, t }))
}

/// New strings: `m` of each string. **Collective.**
pub fn map(s: &Session, x: &Strs, m: StrMap) -> Result<Strs> {
    let id = next_ids(1);
    s.exec(&MAP, MapStrings { out: id, id: x.id, m })?;
    Ok(Strs { id, len: x.len, generation: s.generation() })
}

/// `n` random strings of log-normal lengths (`random_strings_lognormal`). **Collective.**
pub fn random_lognormal(s: &Session, logmean: f64, logstd: f64, n: usize, characters: &str, seed: u64) -> Result<Strs> {
    let id = next_ids(1);
    s.exec(&LOGNORMAL, RandomLognormal { id, logmean, logstd, n, chars: characters.to_string(), seed })?;
    Ok(Strs { id, len: n, generation: s.generation() })
}

commands! {
    static TEST: Handler<CharTest, ()> = Handler::new("atoll-session::str_test", test_cmd);

    static MAP: Handler<MapStrings, ()> = Handler::new("atoll-session::str_map", map_cmd);

    static LOGNORMAL: Handler<RandomLognormal, ()> =
        Handler::new("atoll-session::str_random_lognormal", lognormal_cmd);
}
