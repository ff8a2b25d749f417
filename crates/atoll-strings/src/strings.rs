//! [`DistStrings`]: distributed strings, Block-distributed by string index.

use crate::exchange::redistribute;
use crate::layout;
use crate::local::LocalStrings;
use atoll_array::{Block, DistArray, Distribution, Elem};
use atoll_error::{Error, Result};
use atoll_runtime::{atoll_mem::Commitment, Ctx};
use std::sync::Arc;

/// Distributed strings: string `i` of `0..len` lives on the locale that owns `i` in the Block
/// distribution of `len` (the same as a `DistArray` of that length), and each locale holds its
/// block of whole strings in the Arrow layout ([`LocalStrings`]: UTF-8 bytes and `u64`
/// offsets). Its bytes and offsets are charged to the locale's memory budget while it lives.
///
/// Every constructor and operation is **collective**: each locale calls it with its handle.
/// Element-wise operations read only the locale's own strings (no communication) and return
/// arrays Block-distributed like the strings, so `s.lengths()?.local()[i]` belongs to
/// `s.local().get(i)`.
///
/// ```
/// use atoll_runtime::{run, Config};
/// use atoll_strings::DistStrings;
/// run(Config::local(3), |ctx| {
///     let s = DistStrings::from_vec(ctx, &["apple", "Banana", "", "cherry pie", "été"])?;
///     assert_eq!(s.len(), 5);
///     assert_eq!(s.upper()?.to_vec()?, vec!["APPLE", "BANANA", "", "CHERRY PIE", "ÉTÉ"]);
///     assert_eq!(s.contains_regex("an|ie$")?.to_vec()?, vec![false, true, false, true, false]);
///     Ok(())
/// }).unwrap();
/// ```
pub struct DistStrings {
    ctx: Ctx,
    n: usize,
    dist: Block<1>,
    bounds: Arc<[usize]>,
    local: LocalStrings,
    _held: Commitment,
}

impl std::fmt::Debug for DistStrings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "DistStrings({} strings, locale {} holds {})", self.n, self.ctx.id(), self.local.len())
    }
}

impl DistStrings {
    /// Strings whose block on this locale is `local`, which must be this locale's Block part
    /// of `n` strings; reserves their bytes in the budget (charged to `operation`).
    /// **Collective.**
    pub(crate) fn from_block(ctx: &Ctx, n: usize, local: LocalStrings, operation: &str) -> Result<Self> {
        let (dist, bounds) = layout::block(ctx, n)?;
        let me = ctx.id();
        let want = bounds[me + 1] - bounds[me];
        let shape = if local.len() == want {
            Ok(())
        } else {
            Err(Error::ShapeMismatch {
                context: operation.into(),
                left: format!("{} strings on locale {me}", local.len()),
                right: format!("its Block part of {n} ({want})"),
            })
        };
        ctx.agree(shape)?;
        let reservation = ctx.reserve(operation, local.footprint())?;
        Ok(DistStrings { ctx: ctx.clone(), n, dist, bounds: bounds.into(), local, _held: reservation.commit() })
    }

    /// Strings made of each locale's `local` block, in locale order (locale 0's strings first),
    /// moved to the Block layout. **Collective.**
    pub fn from_local_parts(ctx: &Ctx, local: LocalStrings, operation: &str) -> Result<Self> {
        let counts: Vec<usize> = ctx.allgather(&local.len())?;
        let mut from = vec![0usize];
        for c in &counts {
            from.push(from.last().unwrap_or(&0) + c);
        }
        let n = *from.last().unwrap_or(&0);
        let (_, to) = layout::block(ctx, n)?;
        let local = if from == to { local } else { redistribute(ctx, &local, &from, &to)? };
        Self::from_block(ctx, n, local, operation)
    }

    /// The strings of `all` (the same slice on every locale): each locale keeps its Block part,
    /// without communication besides the budget's reservation. **Collective.**
    pub fn from_vec<S: AsRef<str>>(ctx: &Ctx, all: &[S]) -> Result<Self> {
        let (_, bounds) = layout::block(ctx, all.len())?;
        let me = ctx.id();
        let local = LocalStrings::from_strs(&all[bounds[me]..bounds[me + 1]]);
        Self::from_block(ctx, all.len(), local, "DistStrings::from_vec")
    }

    /// The strings that locale `root` passes (`Some`; the others pass `None`), sent to their
    /// Block owners (Arkouda's `ak.array` of a list of `str`). **Collective.**
    ///
    /// # Errors
    /// [`Error::InvalidArgument`] on every locale when `root` passes `None`.
    pub fn from_root<S: AsRef<str>>(ctx: &Ctx, root: usize, all: Option<&[S]>) -> Result<Self> {
        ctx.check_locale(root)?;
        let mine = if ctx.id() == root {
            match all {
                Some(a) => Ok(a.len()),
                None => Err(atoll_error::invalid_arg!("DistStrings::from_root: locale {root} passed no strings")),
            }
        } else {
            Ok(0)
        };
        let n: usize = ctx.agree(mine).and_then(|m| ctx.allreduce(m, |a, b| a + b))?;
        let local = match (ctx.id() == root, all) {
            (true, Some(a)) => LocalStrings::from_strs(a),
            _ => LocalStrings::new(),
        };
        let from: Vec<usize> = (0..=ctx.num_locales()).map(|l| if l <= root { 0 } else { n }).collect();
        let (_, to) = layout::block(ctx, n)?;
        let local = redistribute(ctx, &local, &from, &to)?;
        Self::from_block(ctx, n, local, "DistStrings::from_root")
    }

    /// The number of strings.
    pub fn len(&self) -> usize {
        self.n
    }

    /// Whether there is no string.
    pub fn is_empty(&self) -> bool {
        self.n == 0
    }

    /// This locale's handle.
    pub fn ctx(&self) -> &Ctx {
        &self.ctx
    }

    /// This locale's block of strings.
    pub fn local(&self) -> &LocalStrings {
        &self.local
    }

    /// The Block distribution of the strings' indices (that of the arrays that element-wise
    /// operations return).
    pub fn dist(&self) -> &Block<1> {
        &self.dist
    }

    /// `num_locales + 1` bounds: locale `l` holds the strings `bounds[l]..bounds[l + 1]`.
    pub fn bounds(&self) -> &[usize] {
        &self.bounds
    }

    /// The global index of this locale's first string.
    pub fn lo(&self) -> usize {
        self.bounds[self.ctx.id()]
    }

    /// Every string, on every locale (an allgather of every block). **Collective.**
    pub fn to_vec(&self) -> Result<Vec<String>> {
        let all: Vec<(Vec<u8>, Vec<u64>)> =
            self.ctx.allgather(&(self.local.bytes().to_vec(), self.local.offsets().to_vec()))?;
        let mut out = Vec::with_capacity(self.n);
        for (b, o) in all {
            for w in o.windows(2) {
                out.push(String::from_utf8_lossy(&b[w[0] as usize..w[1] as usize]).into_owned());
            }
        }
        Ok(out)
    }

    /// Every string on locale `root` (`Some` there, `None` elsewhere): one exchange of each
    /// block to `root`. **Collective.**
    pub fn gather(&self, root: usize) -> Result<Option<Vec<String>>> {
        self.ctx.check_locale(root)?;
        let to: Vec<usize> = (0..=self.ctx.num_locales()).map(|l| if l <= root { 0 } else { self.n }).collect();
        let got = redistribute(&self.ctx, &self.local, &self.bounds, &to)?;
        Ok((self.ctx.id() == root).then(|| got.to_strings()))
    }

    /// Every string on locale `root` as one block (`Some` there, `None` elsewhere): the Arrow
    /// layout without a `String` per element. **Collective.**
    pub fn gather_block(&self, root: usize) -> Result<Option<LocalStrings>> {
        self.ctx.check_locale(root)?;
        let to: Vec<usize> = (0..=self.ctx.num_locales()).map(|l| if l <= root { 0 } else { self.n }).collect();
        let got = redistribute(&self.ctx, &self.local, &self.bounds, &to)?;
        Ok((self.ctx.id() == root).then_some(got))
    }

    /// New strings aligned with these (same length) from this locale's new block, made by a
    /// one-sided local computation; reserves their bytes. **Collective.**
    pub(crate) fn with_local(&self, local: LocalStrings, operation: &str) -> Result<DistStrings> {
        Self::from_block(&self.ctx, self.n, local, operation)
    }

    /// An array aligned with the strings: element `i` is `f(string i)`, computed by this
    /// locale's tasks over its own strings (no communication). **Collective** (the array's
    /// allocation).
    pub(crate) fn map_values<T: Elem + Send>(&self, f: impl Fn(&[u8]) -> T + Sync) -> Result<DistArray<T, 1>> {
        let mut out = DistArray::<T, 1>::zeros_lazy(&self.ctx, self.dist.clone())?;
        let l = &self.local;
        crate::par::fill(&self.ctx, out.local_mut(), |i| f(l.get(i)));
        self.ctx.barrier()?;
        Ok(out)
    }

    /// An array aligned with the strings from this locale's values (`values.len()` is its
    /// number of strings). **Collective.**
    pub(crate) fn array_from_local<T: Elem + Send + Copy>(&self, values: &[T]) -> Result<DistArray<T, 1>> {
        array_from_local(&self.ctx, &self.dist, values)
    }

    /// Checks that `other` has as many strings as `self` (element-wise binary operations).
    /// Both are Block-distributed over the same length, so their blocks align.
    pub(crate) fn check_same_len(&self, other: &DistStrings, op: &str) -> Result<()> {
        if self.n != other.n {
            return Err(Error::ShapeMismatch {
                context: op.into(),
                left: format!("{} strings", self.n),
                right: format!("{} strings", other.n),
            });
        }
        Ok(())
    }
}

/// A Block array of `dist` from this locale's values (one per index of its Block part).
/// **Collective** (the array's allocation).
pub(crate) fn array_from_local<T: Elem + Send + Copy>(
    ctx: &Ctx,
    dist: &Block<1>,
    values: &[T],
) -> Result<DistArray<T, 1>> {
    // Every caller passes one value per index of its Block part: checked without a collective.
    let want = if dist.grid().contains(ctx.id()) { dist.local_len(ctx.id())? } else { 0 };
    if want != values.len() {
        return Err(Error::ShapeMismatch {
            context: "strings result".into(),
            left: format!("{} values", values.len()),
            right: format!("{want} local elements"),
        });
    }
    let mut out = DistArray::<T, 1>::zeros_lazy(ctx, dist.clone())?;
    crate::par::fill(ctx, out.local_mut(), |i| values[i]);
    ctx.barrier()?;
    Ok(out)
}
