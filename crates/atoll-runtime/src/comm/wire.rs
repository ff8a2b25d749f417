//! The wire format of active messages, shared by the backends and the layers above: the
//! stable id of a handler name, and the serialization of arguments and replies.

use atoll_error::{Error, Result};
use serde::{de::DeserializeOwned, Serialize};

/// FNV-1a, 64 bits: the stable id of a handler name.
pub const fn handler_id(name: &str) -> u64 {
    let b = name.as_bytes();
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut i = 0;
    while i < b.len() {
        h ^= b[i] as u64;
        h = h.wrapping_mul(0x0100_0000_01b3);
        i += 1;
    }
    h
}

/// Serializes a value for the wire.
pub(crate) fn encode<T: Serialize + ?Sized>(v: &T) -> Result<Vec<u8>> {
    postcard::to_allocvec(v).map_err(|e| Error::Serialization(e.to_string()))
}

/// Deserializes a value from the wire.
pub(crate) fn decode<T: DeserializeOwned>(b: &[u8]) -> Result<T> {
    postcard::from_bytes(b).map_err(|e| Error::Serialization(e.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_stable_hashes() {
        assert_eq!(handler_id(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(handler_id("a"), 0xaf63_dc4c_8601_ec8c);
        assert_ne!(handler_id("x::a"), handler_id("x::b"));
    }
}
