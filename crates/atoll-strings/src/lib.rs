//! Atoll's distributed strings: [`DistStrings`] keeps, on each locale, a block of
//! whole strings in the Arrow layout (UTF-8 bytes and `u64` offsets, [`LocalStrings`]),
//! Block-distributed by string index like a [`DistArray`](atoll_array::DistArray) of the same
//! length, and counted by the memory budget.
//!
//! - Creation: from a `Vec` ([`DistStrings::from_vec`], [`DistStrings::from_root`]), from the
//!   lines of text files read in parallel ([`DistStrings::from_lines`]), seeded random strings
//!   ([`random_strings_uniform`], [`random_strings_lognormal`]).
//! - Element-wise operations, each locale on its own strings with its tasks and **no
//!   communication**: lengths, comparisons, case, `strip`, `startswith`/`endswith`/`contains`,
//!   regular expressions (`contains_regex`, `search`, `match_`, `fullmatch`, `findall`, `sub`,
//!   `split`), `peel`/`rpeel`, `stick`/`lstick`, `hash`.
//! - Regular expressions use the `regex` crate; a pattern is compiled once per locale when the
//!   operation starts, shared by the locale's tasks (`pattern.rs`). An invalid pattern fails
//!   with the same [`Error::InvalidArgument`](atoll_error::Error::InvalidArgument) on every
//!   locale, before anything is computed.
//! - Strings as keys: [`DistStrings::argsort`] (a stable distributed sample sort on the bytes),
//!   [`DistStrings::unique`], [`DistStrings::in1d`], [`GroupBy`] (by strings, or by strings and
//!   numbers), [`Categorical`].
//!
//! Every operation is **collective**: each locale calls it with its handle.
//!
//! ```
//! use atoll_runtime::{run, Config};
//! use atoll_strings::{random_strings_uniform, Charset, DistStrings};
//! run(Config::local(2), |ctx| {
//!     let s = random_strings_uniform(ctx, 1, 5, 1000, Charset::Lowercase, 7)?;
//!     let g = s.groupby()?;
//!     assert_eq!(g.counts.to_vec()?.iter().sum::<i64>(), 1000);
//!     let perm = s.argsort()?;
//!     let sorted = s.take(&perm)?.to_vec()?;
//!     assert!(sorted.windows(2).all(|w| w[0] <= w[1]));
//!     assert!(s.contains_regex("[").is_err());
//!     Ok(())
//! }).unwrap();
//! ```

mod compare;
mod exchange;
mod files;
mod groups;
mod hash;
mod in1d;
mod key_column;
mod layout;
mod local;
mod map;
mod par;
mod pattern;
mod pieces;
mod random;
mod regex_ops;
mod sort;
mod strings;

pub use groups::{Categorical, GroupBy};
pub use hash::hash128;
pub use local::LocalStrings;
pub use pattern::RegexFlags;
pub use pieces::Pieces;
pub use random::{random_strings_lognormal, random_strings_uniform, Charset};
pub use regex_ops::Matches;
pub use strings::DistStrings;
