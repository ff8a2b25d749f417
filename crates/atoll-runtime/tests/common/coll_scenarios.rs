//! Many small and large collectives in a row (MPI ranks of one node run them through
//! shared memory, `comm/mpi/shm_coll.rs`): payloads of every size around the shared slot's
//! 16 KiB (so rounds switch between shared memory and MPI), uneven sizes per locale, every
//! root, interleaved with MPI-only collectives (alltoallv). Every result is checked against
//! values computed here from the locale ids alone. Runs on every backend.
#![allow(dead_code)]

use atoll_runtime::{Ctx, Error, Result};

fn check(ok: bool, what: impl Into<String>) -> Result<()> {
    if ok {
        Ok(())
    } else {
        Err(Error::InvalidArgument(format!("coll scenario: {}", what.into())))
    }
}

/// The bytes locale `l` contributes in round `r` (length `len`).
fn bytes(l: usize, r: usize, len: usize) -> Vec<u8> {
    (0..len).map(|i| ((l * 31 + r * 7 + i) % 251) as u8).collect()
}

/// Payload lengths: empty, tiny, and around the 16 KiB shared slot (a serialized `Vec<u8>`
/// carries a 1-3 byte length prefix).
const LENS: &[usize] = &[0, 1, 7, 100, 4000, 16_378, 16_380, 16_381, 16_382, 16_383, 16_384, 16_385, 40_000];

/// Locale `l`'s payload length in round `r`: usually all alike, sometimes only one locale's
/// is large (every locale must still take the same path).
fn len_of(l: usize, r: usize) -> usize {
    if r % 3 == 2 {
        if l == r % 5 {
            LENS[r % LENS.len()]
        } else {
            3
        }
    } else {
        LENS[(r + l) % LENS.len()]
    }
}

/// `rounds` rounds of allgather, broadcast (every root in turn), gather, allreduce, exscan,
/// barrier and alltoallv, each checked.
pub fn node_collectives(ctx: &Ctx, rounds: usize) -> Result<()> {
    let (me, n) = (ctx.id(), ctx.num_locales());
    for r in 0..rounds {
        let all = ctx.allgather(&bytes(me, r, len_of(me, r)))?;
        check(all.len() == n, format!("round {r}: allgather length"))?;
        for (l, v) in all.iter().enumerate() {
            check(*v == bytes(l, r, len_of(l, r)), format!("round {r}: allgather from {l}"))?;
        }
        let root = r % n;
        let len = LENS[r % LENS.len()];
        let b = ctx.broadcast(root, (me == root).then(|| bytes(root, r, len)))?;
        check(b == bytes(root, r, len), format!("round {r}: broadcast from {root}"))?;
        let groot = (r + 1) % n;
        let g = ctx.gather(groot, &bytes(me, r + 1, len_of(me, r + 1)))?;
        if me == groot {
            check(g.len() == n, format!("round {r}: gather length"))?;
            for (l, v) in g.iter().enumerate() {
                check(*v == bytes(l, r + 1, len_of(l, r + 1)), format!("round {r}: gather from {l}"))?;
            }
        } else {
            check(g.is_empty(), format!("round {r}: gather elsewhere"))?;
        }
        let s = ctx.allreduce((me + r) as u64, |a, b| a + b)?;
        check(s == (0..n).map(|l| (l + r) as u64).sum::<u64>(), format!("round {r}: allreduce"))?;
        let e = ctx.exscan((me * r + 1) as u64, 0, |a, b| a + b)?;
        check(e == (0..me).map(|l| (l * r + 1) as u64).sum::<u64>(), format!("round {r}: exscan"))?;
        ctx.barrier()?;
        if r % 7 == 0 {
            let out: Vec<Vec<u64>> = (0..n).map(|d| vec![(me * 100 + d + r) as u64; (me + d + r) % 4]).collect();
            let got = ctx.alltoallv(out)?;
            for (src, v) in got.iter().enumerate() {
                check(
                    *v == vec![(src * 100 + me + r) as u64; (src + me + r) % 4],
                    format!("round {r}: alltoallv from {src}"),
                )?;
            }
        }
    }
    Ok(())
}
