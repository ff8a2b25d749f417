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

/// Appends a handler's result to `out` as the wire carries replies: postcard's encoding of a
/// `Result<Vec<u8>>` (the variant, 0 or 1; then the bytes after their varint length, or the
/// error), with the bytes copied at once rather than through serde's loop over a sequence
/// (which took a fifth of a gather's time across hosts).
#[cfg_attr(not(feature = "mpi"), allow(dead_code))] // used by the MPI backend and the tests
pub(crate) fn encode_result_into(out: &mut Vec<u8>, r: &Result<Vec<u8>>) -> Result<()> {
    match r {
        Ok(b) => {
            out.reserve(1 + 10 + b.len());
            out.push(0);
            let mut n = b.len() as u64;
            while n >= 0x80 {
                out.push((n as u8) | 0x80);
                n >>= 7;
            }
            out.push(n as u8);
            out.extend_from_slice(b);
        }
        Err(e) => {
            out.push(1);
            out.extend_from_slice(&encode(e)?);
        }
    }
    Ok(())
}

/// Reads a reply written by [`encode_result_into`] (or by postcard from a `Result<Vec<u8>>`):
/// the handler's bytes or its error; [`Error::Serialization`] for anything else.
#[cfg_attr(not(feature = "mpi"), allow(dead_code))] // used by the MPI backend and the tests
pub(crate) fn decode_result(b: &[u8]) -> Result<Result<Vec<u8>>> {
    let torn = |what: &str| Error::Serialization(format!("a reply {what}"));
    match b.first() {
        Some(0) => {
            let (mut len, mut shift, mut at) = (0u64, 0u32, 1usize);
            loop {
                let byte = *b.get(at).ok_or_else(|| torn("cut in its length"))?;
                at += 1;
                if shift > 63 || (shift == 63 && byte > 1) {
                    return Err(torn("with a length over 64 bits"));
                }
                len |= u64::from(byte & 0x7f) << shift;
                if byte < 0x80 {
                    break;
                }
                shift += 7;
            }
            let body = usize::try_from(len).ok().and_then(|l| b.get(at..at.checked_add(l)?));
            Ok(Ok(body.ok_or_else(|| torn(&format!("of {} bytes announcing {len}", b.len() - at)))?.to_vec()))
        }
        Some(1) => Ok(Err(decode::<Error>(&b[1..])?)),
        Some(v) => Err(torn(&format!("with variant {v}"))),
        None => Err(torn("without a byte")),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn replies_are_postcards_of_results() {
        for len in [0usize, 1, 127, 128, 300, 16_383, 16_384, 70_000] {
            let bytes: Vec<u8> = (0..len).map(|i| (i * 7 % 251) as u8).collect();
            let r: Result<Vec<u8>> = Ok(bytes.clone());
            let mut ours = vec![9u8];
            encode_result_into(&mut ours, &r).unwrap();
            assert_eq!(&ours[1..], &encode(&r).unwrap()[..], "length {len}");
            assert_eq!(decode_result(&ours[1..]).unwrap().unwrap(), bytes);
            // A reply cut short is an error, not a shorter value.
            if len > 0 {
                assert!(matches!(decode_result(&ours[1..ours.len() - 1]), Err(Error::Serialization(_))));
            }
        }
        let r: Result<Vec<u8>> = Err(Error::NotRegistered { locale: 3, addr: 64, len: 8 });
        let mut ours = Vec::new();
        encode_result_into(&mut ours, &r).unwrap();
        assert_eq!(ours, encode(&r).unwrap());
        assert!(matches!(decode_result(&ours).unwrap(), Err(Error::NotRegistered { locale: 3, addr: 64, len: 8 })));
        for bad in [
            &[][..],
            &[2u8][..],
            &[0u8, 0x80][..],
            &[0u8, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x7f][..],
        ] {
            assert!(matches!(decode_result(bad), Err(Error::Serialization(_))), "{bad:?}");
        }
    }

    #[test]
    fn ids_are_stable_hashes() {
        assert_eq!(handler_id(""), 0xcbf2_9ce4_8422_2325);
        assert_eq!(handler_id("a"), 0xaf63_dc4c_8601_ec8c);
        assert_ne!(handler_id("x::a"), handler_id("x::b"));
    }
}
