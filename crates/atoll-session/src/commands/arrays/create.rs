//! Creation by formula: every locale fills its own part, no data moves.

use crate::handles::{Array, Session};
use crate::registry::{Col, Registry};
use crate::types::{DType, Scal};
use atoll::array::{dist, DistArray};
use atoll::runtime::{Ctx, Handler};
use atoll::util::Stream;
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

/// The first word of element `i`'s stream under `seed` ([`Stream`], the derivation every
/// seeded generator uses): a function of `(seed, i)` alone, so every locale count gives the
/// same array.
pub fn random_word(seed: u64, i: u64) -> u64 {
    Stream::new(seed, i).next_u64()
}

/// A new array `id` of `n` elements by formula.
#[derive(Serialize, Deserialize)]
pub struct Create {
    /// The new array's id.
    pub id: u64,
    /// The number of elements.
    pub n: usize,
    /// The formula.
    pub fill: Fill,
}

fn create_cmd(ctx: &Ctx, Create { id, n, fill }: Create) -> Result<()> {
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
                lo.wrapping_add(Stream::new(seed, i as u64).below(span) as i64)
            })?)
        }
        Fill::Uniform(lo, hi, seed) => {
            Col::F(DistArray::from_fn(ctx, d, move |[i]| lo + (hi - lo) * Stream::new(seed, i as u64).unit())?)
        }
        Fill::Normal(seed) => Col::F(DistArray::from_fn(ctx, d, move |[i]| Stream::new(seed, i as u64).normal())?),
    };
    Registry::of(ctx).insert(id, col);
    Ok(())
}

fn made(s: &Session, dtype: DType, n: usize, fill: Fill) -> Result<Array> {
    s.new_array(dtype, n, |id| s.exec(&CREATE, Create { id, n, fill }))
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

commands! {
    /// A new array `id` of `n` elements by formula.
    pub static CREATE: Handler<Create, ()> = Handler::new("atoll-session::create", create_cmd);
}

#[cfg(test)]
mod tests {
    use super::random_word;

    /// The derivation as its documentation states it, written out with splitmix64's and
    /// Murmur3's finalizers.
    fn reference(seed: u64, i: u64) -> u64 {
        const G: u64 = 0x9E37_79B9_7F4A_7C15;
        let fin = |mut z: u64| {
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        };
        let mix = |z: u64| fin(z.wrapping_add(G));
        let key = mix(mix(seed).wrapping_add(i.wrapping_mul(G)));
        let mut z = key ^ 0x6A09_E667_F3BC_C909;
        z = (z ^ (z >> 33)).wrapping_mul(0xFF51_AFD7_ED55_8CCD);
        z = (z ^ (z >> 33)).wrapping_mul(0xC4CE_B9FE_1A85_EC53);
        let mut step = (z ^ (z >> 33)) | 1;
        if (step ^ (step >> 1)).count_ones() < 24 {
            step ^= 0xAAAA_AAAA_AAAA_AAAA;
        }
        fin(key.wrapping_add(step))
    }

    #[test]
    fn the_first_word_follows_the_documented_derivation() {
        for seed in [0, 1, 42, u64::MAX, 0x1234_5678_9ABC_DEF0] {
            for i in (0..1000).chain([u64::MAX / 3, u64::MAX - 1]) {
                assert_eq!(random_word(seed, i), reference(seed, i), "seed {seed} word {i}");
            }
        }
    }
}
