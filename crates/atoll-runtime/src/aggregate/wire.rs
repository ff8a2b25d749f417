//! The bytes of aggregation messages: a byte-string wire type and the message layout.
//!
//! A message starts with a 4-byte header, the element size in bytes (little-endian `u32`),
//! then:
//!
//! - **put** (destination aggregator): records of an 8-byte little-endian target address
//!   followed by the element's bytes (`8 + size` bytes each);
//! - **get** (source aggregator): 8-byte little-endian target addresses; the reply is the
//!   elements' bytes, packed, in the same order.
//!
//! Addresses are the target's virtual addresses (as every remote address in Atoll), so the
//! handlers need no per-array state, and one handler serves every element type.

use atoll_error::{Error, Result};
use serde::de::{SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// Bytes of the header: the element size.
pub(crate) const HEADER: usize = 4;

/// Bytes of one address in a message.
pub(crate) const ADDR: usize = 8;

/// A byte string that serializes as one (postcard: a length and the bytes, one copy each way),
/// not as a sequence of `u8` values.
pub(crate) struct Bytes(pub(crate) Vec<u8>);

impl Serialize for Bytes {
    fn serialize<S: Serializer>(&self, s: S) -> std::result::Result<S::Ok, S::Error> {
        s.serialize_bytes(&self.0)
    }
}

impl<'de> Deserialize<'de> for Bytes {
    fn deserialize<D: Deserializer<'de>>(d: D) -> std::result::Result<Bytes, D::Error> {
        d.deserialize_byte_buf(BytesVisitor)
    }
}

struct BytesVisitor;

impl<'de> Visitor<'de> for BytesVisitor {
    type Value = Bytes;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a byte string")
    }

    fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> std::result::Result<Bytes, E> {
        Ok(Bytes(v.to_vec()))
    }

    fn visit_byte_buf<E: serde::de::Error>(self, v: Vec<u8>) -> std::result::Result<Bytes, E> {
        Ok(Bytes(v))
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Bytes, A::Error> {
        let mut v = Vec::with_capacity(seq.size_hint().unwrap_or(0));
        while let Some(b) = seq.next_element::<u8>()? {
            v.push(b);
        }
        Ok(Bytes(v))
    }
}

/// A new message for elements of `es` bytes, with room for `cap` entries of `entry` bytes.
pub(crate) fn new_message(es: usize, cap: usize, entry: usize) -> Vec<u8> {
    let mut m = Vec::with_capacity(HEADER + cap * entry);
    m.extend_from_slice(&(es as u32).to_le_bytes());
    m
}

/// The element size and the body of a message.
pub(crate) fn split(locale: usize, msg: &[u8]) -> Result<(usize, &[u8])> {
    if msg.len() < HEADER {
        return Err(torn(locale, "an aggregation message without its header"));
    }
    let (h, body) = msg.split_at(HEADER);
    let mut es = [0u8; HEADER];
    es.copy_from_slice(h);
    Ok((u32::from_le_bytes(es) as usize, body))
}

/// Bytes of `v` encoded as a postcard varint (the length of a byte string, a `u64`).
pub(crate) fn varint_len(v: usize) -> usize {
    let bits = usize::BITS - v.leading_zeros();
    (bits.max(1) as usize).div_ceil(7)
}

/// Bytes the diagnostics count for one message of `m` records of elements of `es` bytes:
/// `put` (a destination aggregator's message, whose reply is the record count) or not (a
/// source aggregator's, whose reply is the elements). Each message and reply travels
/// postcard-encoded: a byte string's varint length, then its bytes.
pub(crate) fn message_bytes(put: bool, m: usize, es: usize) -> usize {
    if put {
        let body = HEADER + m * (ADDR + es);
        varint_len(body) + body + varint_len(m)
    } else {
        let (body, reply) = (HEADER + m * ADDR, m * es);
        varint_len(body) + body + varint_len(reply) + reply
    }
}

/// The error of a message or reply that does not have the expected layout.
pub(crate) fn torn(locale: usize, what: &str) -> Error {
    Error::Comm { locale, message: format!("aggregation: {what}") }
}

/// The address at the start of `b` (at least 8 bytes).
#[inline]
pub(crate) fn addr_at(b: &[u8]) -> u64 {
    let mut a = [0u8; ADDR];
    a.copy_from_slice(&b[..ADDR]);
    u64::from_le_bytes(a)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bytes_travel_as_one_string() {
        let b = Bytes(vec![1, 2, 3, 250]);
        let enc = postcard::to_allocvec(&b).unwrap();
        assert_eq!(enc, vec![4, 1, 2, 3, 250]);
        let back: Bytes = postcard::from_bytes(&enc).unwrap();
        assert_eq!(back.0, vec![1, 2, 3, 250]);
    }

    #[test]
    fn counted_bytes_are_the_encoded_bytes() {
        for m in [0usize, 1, 15, 16, 2047, 2048, 300_000] {
            for es in [1usize, 8] {
                let put = postcard::to_allocvec(&Bytes(vec![0; HEADER + m * (ADDR + es)])).unwrap().len()
                    + postcard::to_allocvec(&(m as u64)).unwrap().len();
                assert_eq!(message_bytes(true, m, es), put, "put of {m} x {es}");
                let get = postcard::to_allocvec(&Bytes(vec![0; HEADER + m * ADDR])).unwrap().len()
                    + postcard::to_allocvec(&Bytes(vec![0; m * es])).unwrap().len();
                assert_eq!(message_bytes(false, m, es), get, "get of {m} x {es}");
            }
        }
    }

    #[test]
    fn headers_split_and_torn_messages_are_errors() {
        let mut m = new_message(8, 2, 16);
        m.extend_from_slice(&7u64.to_le_bytes());
        let (es, body) = split(0, &m).unwrap();
        assert_eq!((es, addr_at(body)), (8, 7));
        assert!(matches!(split(3, &[1, 2]), Err(Error::Comm { locale: 3, .. })));
    }
}
