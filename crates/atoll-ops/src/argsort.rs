//! [`argsort`] and [`sort`]: one key array, any distribution.

use crate::column::block_keys;
use crate::key::SortKey;
use crate::layout::Layout;
use crate::radix;
use atoll_array::{DistArray, Distribution, View};
use atoll_error::Result;

/// The permutation that sorts `keys`, stably, as **indices**: element `j` of the result is the
/// index (in `keys`' index space, the array's indices that the view covers) of the `j`-th
/// smallest key, equal keys in index order. So `a.take(&argsort(&a.view())?)` is `a` sorted,
/// whatever `a`'s domain (offset, strided) and `a.take(&argsort(&v)?)` the keys of a view `v`
/// sorted. The result is over ranks `0..len`, Block-distributed over all locales.
/// [`argsort_positions`] gives positions `0..len` in the view instead (the same numbers when
/// the view's domain is `0..len`). **Collective.**
///
/// Keys compare in [`SortKey`]'s total order (for `f64`: `-inf < ... < -0.0 < +0.0 < ... <
/// +inf < NaN`). `keys` may be a view of an array of any distribution; when it is not laid out
/// as the Block distribution of its length, it is first copied into one (one bulk assignment).
///
/// The sort is a distributed LSD radix sort with 16-bit digits (see the crate's README): one
/// pass per digit that varies among the keys, each with one allgather of per-locale
/// histograms, puts of contiguous runs and one barrier.
///
/// ```
/// use atoll_array::{dist, DistArray};
/// use atoll_runtime::{run, Config};
/// run(Config::local(3), |ctx| {
///     let keys = [5i64, -3, 7, -3, 0, i64::MIN, 7, 2];
///     let a = DistArray::from_fn(ctx, dist::cyclic(ctx, [8])?, |[i]| keys[i as usize])?;
///     let perm = atoll_ops::argsort(&a.view())?;
///     if let Some(p) = perm.gather(0)? {               // on locale 0
///         assert_eq!(p, vec![5, 1, 3, 4, 7, 0, 2, 6]);  // the two 7s and -3s keep their order
///     }
///     // A view over the indices 2, 4, 6 (keys 7, 0, 7): indices of the array, and positions.
///     let v = a.slice(atoll_array::StridedRange::with_stride(2, 8, 2)?)?;
///     assert_eq!(atoll_ops::argsort(&v)?.to_vec()?, vec![4, 2, 6]);
///     assert_eq!(atoll_ops::argsort_positions(&v)?.to_vec()?, vec![1, 0, 2]);
///     assert_eq!(a.take(&atoll_ops::argsort(&v)?)?.to_vec()?, vec![0, 7, 7]);
///     Ok(())
/// }).unwrap();
/// ```
///
/// # Collective
/// Every locale calls it with its handle of the same view, at the same point of the program.
///
/// # Errors
/// [`atoll_error::Error::OutOfMemory`] (on every locale, before the sort starts allocating its
/// buffers) when the buffers do not fit in a locale's budget: about `48 * len / locales` bytes
/// per locale besides the input and the result; a communication error.
pub fn argsort<K: SortKey, M: Distribution<1> + 'static>(keys: &View<'_, K, 1, M>) -> Result<DistArray<i64, 1>> {
    let mut perm = argsort_positions(keys)?;
    crate::indices::positions_to_indices(&mut perm, &keys.domain().dims()[0])?;
    Ok(perm)
}

/// The permutation that sorts `keys`, stably, as **positions**: element `j` of the result is
/// the position (`0..len`, in the view's order) of the `j`-th smallest key. Use it to index
/// arrays laid out like the view's positions (an array over `0..len`, such as the result of
/// [`sort`]); [`argsort`] gives indices of `keys`' array instead. Block-distributed over all
/// locales. **Collective.**
///
/// # Collective
/// As [`argsort`].
///
/// # Errors
/// As [`argsort`].
pub fn argsort_positions<K: SortKey, M: Distribution<1> + 'static>(
    keys: &View<'_, K, 1, M>,
) -> Result<DistArray<i64, 1>> {
    let ctx = keys.ctx();
    crate::profile::start();
    let n = keys.len();
    let layout = Layout::new(ctx, n)?;
    let local = block_keys(keys, &layout)?;
    let ks = local.as_slice();
    let m = ks.len();
    crate::profile::mark(|| "block_keys".into());
    // The key bounds, and in the same read the histograms of the keys' low 16 bits: the first
    // pass's digit whenever the lowest bit varies (and the sort uses 16-bit digits).
    let image = |i: usize| ks[i].to_ordered();
    let (varying, low) = radix::varying_and_low_digits(ctx, m, &image)?;
    crate::profile::mark(|| "bounds_and_first_hist".into());
    let out = argsort_images(ctx, &layout, n, "atoll_ops::argsort", &image, varying, Some(low))?;
    crate::profile::report("argsort", ctx.id());
    Ok(out)
}

/// The positions that sort the `n` images `image(i)` of this locale (`i` in `0..len_here`, the
/// Block layout's local part) stably, over all locales: the radix sort of [`argsort`].
/// `varying` holds the bits in which images differ over all locales (see
/// `radix::varying_bits`); `low`, when given, each task's histogram of the images' low 16
/// bits (`radix::varying_and_low_digits`), used as the first pass's when that digit is the
/// first. **Collective.**
pub(crate) fn argsort_images(
    ctx: &atoll_runtime::Ctx,
    layout: &Layout,
    n: usize,
    op: &str,
    image: &(impl Fn(usize) -> u64 + Sync),
    varying: u64,
    low: Option<radix::Hists>,
) -> Result<DistArray<i64, 1>> {
    let base = layout.lo() as u64;
    let low_first = |first: Option<&radix::Pass>, span_ok: bool| {
        first.is_some_and(|f| f.bits == radix::DIGIT_BITS) && varying & 1 == 1 && span_ok
    };
    // The sort's last pass writes every position.
    let mut out = DistArray::<i64, 1>::for_overwrite(ctx, layout.dist.clone())?;
    crate::profile::mark(|| "out_alloc".into());
    match Packing::new(n, varying) {
        Some(p) => {
            // One word per record: the varying key bits above the position.
            let src = |i: usize| [p.pack(image(i), base + i as u64)];
            let passes = radix::passes(ctx, n, &[p.varying()]);
            let mask = p.index_mask();
            // The first digit is the key's low 16 bits when the key part is that wide.
            let counted = low.filter(|_| low_first(passes.first(), p.span_mask >= 0xFFFF));
            radix::sort_records(
                ctx,
                layout,
                op,
                &src,
                &passes,
                &mut out,
                |r: &[u64; 1]| (r[0] & mask) as i64,
                counted,
            )?;
        }
        None => {
            let src = |i: usize| [image(i), base + i as u64];
            let passes = radix::passes(ctx, n, &[varying]);
            let counted = low.filter(|_| low_first(passes.first(), true));
            radix::sort_records(ctx, layout, op, &src, &passes, &mut out, |r: &[u64; 2]| r[1] as i64, counted)?;
        }
    }
    Ok(out)
}

/// Records of one word: when the bits in which the keys differ (`lo..lo + span`) and the
/// bits of a position fit in 64, `(key bits << index bits) | position` sorts like (key,
/// position) and moves half the bytes of a pair.
#[derive(Clone, Copy)]
struct Packing {
    lo: u32,
    span_mask: u64,
    index_bits: u32,
    varying: u64,
}

impl Packing {
    fn new(n: usize, varying: u64) -> Option<Packing> {
        if n <= 1 || varying == 0 {
            return Some(Packing { lo: 0, span_mask: 0, index_bits: 64, varying: 0 });
        }
        let lo = varying.trailing_zeros();
        let span = 64 - varying.leading_zeros() - lo;
        let index_bits = 64 - (n as u64 - 1).leading_zeros();
        (span + index_bits <= 64).then(|| {
            let span_mask = if span == 64 { u64::MAX } else { (1u64 << span) - 1 };
            Packing { lo, span_mask, index_bits, varying: ((varying >> lo) & span_mask) << index_bits }
        })
    }

    #[inline(always)]
    fn pack(&self, image: u64, position: u64) -> u64 {
        if self.index_bits == 64 {
            return position;
        }
        (((image >> self.lo) & self.span_mask) << self.index_bits) | position
    }

    fn varying(&self) -> u64 {
        self.varying
    }

    fn index_mask(&self) -> u64 {
        if self.index_bits == 64 {
            u64::MAX
        } else {
            (1u64 << self.index_bits) - 1
        }
    }
}

/// The keys of `keys` in increasing order ([`SortKey`]'s total order; every NaN comes out as
/// `f64::NAN`, last), over ranks `0..len` (element `j` is the `j`-th smallest key, whatever
/// `keys`' index space), Block-distributed over all locales. **Collective.**
///
/// The same distributed radix sort as [`argsort`], carrying the keys instead of their
/// positions to the end.
///
/// ```
/// use atoll_array::{dist, DistArray};
/// use atoll_runtime::{run, Config};
/// run(Config::local(2), |ctx| {
///     let xs = [2.5, f64::NAN, -0.0, 0.0, f64::NEG_INFINITY, -1.0];
///     let a = DistArray::from_fn(ctx, dist::block(ctx, [6])?, |[i]| xs[i as usize])?;
///     let s = atoll_ops::sort(&a.view())?;
///     if let Some(v) = s.gather(0)? {
///         assert_eq!(&v[..5], &[f64::NEG_INFINITY, -1.0, -0.0, 0.0, 2.5]);
///         assert!(v[3].is_sign_positive() && v[2].is_sign_negative() && v[5].is_nan());
///     }
///     Ok(())
/// }).unwrap();
/// ```
///
/// # Collective
/// As [`argsort`].
///
/// # Errors
/// As [`argsort`].
pub fn sort<K: SortKey, M: Distribution<1> + 'static>(keys: &View<'_, K, 1, M>) -> Result<DistArray<K, 1>> {
    let ctx = keys.ctx();
    let n = keys.len();
    let layout = Layout::new(ctx, n)?;
    let local = block_keys(keys, &layout)?;
    let ks = local.as_slice();
    // Equal keys are indistinguishable in the result: no index to carry.
    let src = |i: usize| [ks[i].to_ordered()];
    let passes = radix::passes(ctx, n, &radix::varying_bits(ctx, ks.len(), &src)?);
    let mut out = DistArray::<K, 1>::for_overwrite(ctx, layout.dist.clone())?;
    radix::sort_records(
        ctx,
        &layout,
        "atoll_ops::sort",
        &src,
        &passes,
        &mut out,
        |r: &[u64; 1]| K::from_ordered(r[0]),
        None,
    )?;
    Ok(out)
}
