//! Serde support for `[T; D]` with a const-generic `D` (serde implements arrays only for fixed
//! lengths): written as a sequence, read back with a length check. Use it with
//! `#[serde(with = "crate::serde_array")]`.

use serde::de::Error as _;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

pub(crate) fn serialize<S, T, const D: usize>(value: &[T; D], serializer: S) -> Result<S::Ok, S::Error>
where
    S: Serializer,
    T: Serialize,
{
    serializer.collect_seq(value.iter())
}

pub(crate) fn deserialize<'de, De, T, const D: usize>(deserializer: De) -> Result<[T; D], De::Error>
where
    De: Deserializer<'de>,
    T: Deserialize<'de>,
{
    let items = Vec::<T>::deserialize(deserializer)?;
    let len = items.len();
    items.try_into().map_err(|_| De::Error::custom(format!("expected {D} elements (one per dimension), found {len}")))
}
