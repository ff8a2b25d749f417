//! Creation by formula: every locale fills its own part, no data moves.

use crate::handles::{Array, Session};
use crate::registry::{Col, Registry};
use crate::types::{DType, Scal};
use atoll::array::{dist, DistArray};
use atoll::runtime::{Ctx, Handler};
use atoll::util::{mix, GOLDEN_GAMMA};
use atoll::Result;
use serde::{Deserialize, Serialize};

/// Creation by formula.
#[derive(Serialize, Deserialize, Clone, Copy, Debug)]
pub enum Fill {
    /// Every element the scalar.
    Full(Scal),
    /// `start + i * step` (int64).
    Arange(i64, i64),
    /// `start + i * step`, the last element `stop` when `endpoint`.
    Linspace(f64, f64, f64, bool),
    /// Uniform integers in `[lo, hi)` from a seed.
    RandInt(i64, i64, u64),
    /// Uniform floats in `[lo, hi)` from a seed.
    Uniform(f64, f64, u64),
    /// Standard normal floats from a seed.
    Normal(u64),
}

/// Word `i` of the random stream of `seed`: splitmix64's output number `i + 1` from state
/// `seed`, computed from the index alone (counter-based, so every locale count gives the same
/// array).
pub fn random_word(seed: u64, i: u64) -> u64 {
    mix(seed.wrapping_add(i.wrapping_mul(GOLDEN_GAMMA)))
}

fn unit(w: u64) -> f64 {
    (w >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
}

fn create_cmd(ctx: &Ctx, (id, n, fill): (u64, usize, Fill)) -> Result<()> {
    let d = dist::block(ctx, [n])?;
    let last = n.saturating_sub(1) as i64;
    let col = match fill {
        Fill::Full(Scal::I(v)) => Col::I(DistArray::filled(ctx, d, v)?),
        Fill::Full(Scal::U(v)) => Col::U(DistArray::filled(ctx, d, v)?),
        Fill::Full(Scal::F(v)) => Col::F(DistArray::filled(ctx, d, v)?),
        Fill::Full(Scal::B(v)) => Col::B(DistArray::filled(ctx, d, v)?),
        Fill::Full(Scal::U8(v)) => Col::U8(DistArray::filled(ctx, d, v)?),
        Fill::Arange(s, st) => Col::I(DistArray::from_fn(ctx, d, move |[i]| s.wrapping_add(i.wrapping_mul(st)))?),
        Fill::Linspace(s, st, stop, end) => {
            Col::F(DistArray::from_fn(
                ctx,
                d,
                move |[i]| if end && i == last && last > 0 { stop } else { s + i as f64 * st },
            )?)
        }
        Fill::RandInt(lo, hi, seed) => {
            let span = hi.wrapping_sub(lo) as u64;
            Col::I(DistArray::from_fn(ctx, d, move |[i]| {
                lo.wrapping_add(((random_word(seed, i as u64) as u128 * span as u128) >> 64) as i64)
            })?)
        }
        Fill::Uniform(lo, hi, seed) => {
            Col::F(DistArray::from_fn(ctx, d, move |[i]| lo + (hi - lo) * unit(random_word(seed, i as u64)))?)
        }
        Fill::Normal(seed) => Col::F(DistArray::from_fn(ctx, d, move |[i]| {
            // Box-Muller on two independent words of index i.
            let u1 = 1.0 - unit(random_word(seed, 2 * i as u64));
            let u2 = unit(random_word(seed, 2 * i as u64 + 1));
            (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos()
        })?),
    };
    Registry::of(ctx).insert(id, col);
    Ok(())
}
/// A new array `id` of `n` elements by formula.
pub static CREATE: Handler<(u64, usize, Fill), ()> = Handler::new("atoll-session::create", create_cmd);

fn made(s: &Session, dtype: DType, n: usize, fill: Fill) -> Result<Array> {
    s.new_array(dtype, n, |id| s.exec(&CREATE, (id, n, fill)))
}

/// `n` elements equal to `v` (of `v`'s dtype). **Collective.**
pub fn full(s: &Session, n: usize, v: Scal) -> Result<Array> {
    made(s, v.dtype(), n, Fill::Full(v))
}

/// The int64 values `start + i * step`, `i < n` (wrapping). **Collective.**
pub fn arange(s: &Session, n: usize, start: i64, step: i64) -> Result<Array> {
    made(s, DType::I64, n, Fill::Arange(start, step))
}

/// `n` float64 values `start + i * step`, the last one `stop` when `endpoint`. **Collective.**
pub fn linspace(s: &Session, n: usize, start: f64, step: f64, stop: f64, endpoint: bool) -> Result<Array> {
    made(s, DType::F64, n, Fill::Linspace(start, step, stop, endpoint))
}

/// `n` uniform int64 values in `[lo, hi)` from `seed` (the same on any locale count).
/// **Collective.**
pub fn randint(s: &Session, n: usize, lo: i64, hi: i64, seed: u64) -> Result<Array> {
    made(s, DType::I64, n, Fill::RandInt(lo, hi, seed))
}

/// `n` uniform float64 values in `[lo, hi)` from `seed`. **Collective.**
pub fn uniform(s: &Session, n: usize, lo: f64, hi: f64, seed: u64) -> Result<Array> {
    made(s, DType::F64, n, Fill::Uniform(lo, hi, seed))
}

/// `n` standard normal float64 values from `seed`. **Collective.**
pub fn standard_normal(s: &Session, n: usize, seed: u64) -> Result<Array> {
    made(s, DType::F64, n, Fill::Normal(seed))
}

#[cfg(test)]
mod tests {
    use super::random_word;

    /// The stream as the Python reference (`atoll.numpy.random`) writes it: the state
    /// `seed + (i + 1) * gamma` through splitmix64's finalizer.
    fn reference(seed: u64, i: u64) -> u64 {
        let mut z = seed.wrapping_add(i.wrapping_add(1).wrapping_mul(0x9E37_79B9_7F4A_7C15));
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    #[test]
    fn the_stream_is_splitmix64_from_the_seed() {
        for seed in [0, 1, 42, u64::MAX, 0x1234_5678_9ABC_DEF0] {
            for i in (0..1000).chain([u64::MAX / 3, u64::MAX - 1]) {
                assert_eq!(random_word(seed, i), reference(seed, i), "seed {seed} word {i}");
            }
        }
    }
}
