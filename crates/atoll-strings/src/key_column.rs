//! Strings and categoricals as key columns of `atoll-ops` ([`SortColumn`]): one
//! [`coargsort`](atoll_ops::coargsort) or [`atoll_ops::GroupBy`] sorts strings and numbers
//! together.
//!
//! A string's image is its **rank** among the distinct strings (0 for the smallest, in UTF-8
//! byte order, which is code point order): ranks order and compare exactly as the strings do.
//! - [`DistStrings`] computes the ranks on each call of `write_images` (one sample sort of the
//!   strings, as [`Categorical::new`]); a GroupBy calls it twice (sort, then group flags).
//! - [`Categorical`] writes its codes, with no sort: make the categorical once
//!   (`Categorical::new`) and group by it when the strings are keys of several operations.
//!   Its codes order as its strings when its categories are sorted and distinct, as
//!   `Categorical::new` makes them.

use crate::groups::Categorical;
use crate::strings::DistStrings;
use atoll_array::{DistArray, StridedRange};
use atoll_error::{invalid_arg, Result};
use atoll_ops::SortColumn;
use atoll_runtime::Ctx;

/// Writes this locale's codes (Block over `0..layout_n`, aligned with `codes`) as images.
fn write_codes(
    codes: &DistArray<i64, 1>,
    what: &str,
    layout_n: usize,
    out: &mut [u64],
    stride: usize,
    offset: usize,
) -> Result<()> {
    // Both checks depend only on global lengths: every locale takes the same branch.
    if layout_n != codes.len() {
        return Err(invalid_arg!("{what} key column: {} rows, asked for the images of {layout_n}", codes.len()));
    }
    if stride == 0 || offset >= stride {
        return Err(invalid_arg!("{what} key column: offset {offset} is not inside a record of {stride} words"));
    }
    let c = codes.local();
    if out.len() < c.len() * stride {
        return Err(invalid_arg!("{what} key column: {} words for {} records of {stride} words", out.len(), c.len()));
    }
    for (row, &code) in out.chunks_exact_mut(stride).zip(c) {
        // Codes are ranks, 0 <= code: their order is the order of the u64 images.
        row[offset] = code as u64;
    }
    Ok(())
}

impl SortColumn for DistStrings {
    fn len(&self) -> usize {
        DistStrings::len(self)
    }
    fn ctx(&self) -> &Ctx {
        DistStrings::ctx(self)
    }
    fn key_name(&self) -> &'static str {
        "str"
    }
    fn index_range(&self) -> StridedRange {
        StridedRange::new(0, DistStrings::len(self) as i64)
    }
    /// The rank of each string among the distinct strings. **Collective** (a sample sort).
    fn write_images(&self, layout_n: usize, out: &mut [u64], stride: usize, offset: usize) -> Result<()> {
        if layout_n != DistStrings::len(self) {
            return Err(invalid_arg!(
                "strings key column: {} rows, asked for the images of {layout_n}",
                DistStrings::len(self)
            ));
        }
        let (codes, _categories) = self.codes_and_categories()?;
        write_codes(&codes, "strings", layout_n, out, stride, offset)
    }
}

impl SortColumn for Categorical {
    fn len(&self) -> usize {
        Categorical::len(self)
    }
    fn ctx(&self) -> &Ctx {
        self.codes.ctx()
    }
    fn key_name(&self) -> &'static str {
        "categorical"
    }
    fn index_range(&self) -> StridedRange {
        StridedRange::new(0, Categorical::len(self) as i64)
    }
    /// The codes, as an `i64` column (borrowed in place when Block, as `Categorical::new`
    /// makes them). **Collective.**
    fn write_images(&self, layout_n: usize, out: &mut [u64], stride: usize, offset: usize) -> Result<()> {
        self.codes.write_images(layout_n, out, stride, offset)
    }
}
