//! Strings as group keys: `ak.Categorical(strings)` and the keys of
//! `ak.GroupBy` over Strings mixed with pdarrays. Each string's code is its rank among the
//! distinct strings (sorted), so codes sort and compare as the strings do: a GroupBy by
//! `[strings, numbers]` groups by `[codes, numbers]` and reads the keys back at the segments.

use crate::commands::strings::{get, put, Strs};
use crate::handles::{next_ids, Array, Session};
use crate::registry::{Col, Registry};
use crate::types::DType;
use atoll::runtime::{Ctx, Handler};
use atoll::strings::Categorical;
use atoll::Result;
use serde::{Deserialize, Serialize};

/// The codes (a new array `codes`) and the categories (new strings `cats`) of strings `id`.
#[derive(Serialize, Deserialize)]
pub struct CategoricalCodes {
    /// The codes' new id.
    pub codes: u64,
    /// The categories' new id.
    pub cats: u64,
    /// The strings.
    pub id: u64,
}

/// The codes (into `codes`) and sorted distinct strings (into `cats`) of strings `id`;
/// returns the number of categories.
fn categorical(ctx: &Ctx, CategoricalCodes { codes, cats, id }: CategoricalCodes) -> Result<usize> {
    let c = Categorical::new(&*get(ctx, id)?)?;
    let k = c.categories.len();
    Registry::of(ctx).insert(codes, Col::I(c.codes));
    put(ctx, cats, c.categories);
    Ok(k)
}

commands! {
    static CATEGORICAL: Handler<CategoricalCodes, usize> = Handler::new("atoll-session::str_categorical", categorical);
}

/// `(codes, categories)` of `x`: an int64 array aligned with `x` (each string's rank among
/// the distinct strings) and the distinct strings, sorted by code point. **Collective.**
pub fn categorical_codes(s: &Session, x: &Strs) -> Result<(Array, Strs)> {
    let codes = next_ids(2);
    let k = s.exec(&CATEGORICAL, CategoricalCodes { codes, cats: codes + 1, id: x.id })?;
    let g = s.generation();
    Ok((
        Array { id: codes, dtype: DType::I64, len: x.len, generation: g },
        Strs { id: codes + 1, len: k, generation: g },
    ))
}
