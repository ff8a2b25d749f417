//! Strings as group keys: `unique`, `GroupBy` (by strings, and by strings and a numeric key)
//! and `Categorical`, all from the sample sort of `sort.rs`: equal keys are adjacent in the
//! sorted order, and a run of equal keys that crosses from one locale's part to the next
//! belongs to the locale where it starts.

use crate::local::LocalStrings;
use crate::sort::{sample_sort, values_to_block, SortedPart};
use crate::strings::DistStrings;
use atoll_array::DistArray;
use atoll_error::{Error, Result};
use atoll_ops::SortKey;

/// Groups of equal keys: Arkouda's `GroupBy` over string keys (or `(string, number)` keys).
#[derive(Debug)]
pub struct GroupBy {
    /// The permutation that sorts the keys (stable), Block over `0..len`.
    pub permutation: DistArray<i64, 1>,
    /// The position in `permutation` of each group's first element, Block over the groups.
    pub segments: DistArray<i64, 1>,
    /// Each group's string key, in sorted order, Block over the groups.
    pub unique_keys: DistStrings,
    /// Each group's numeric key when grouping by `(strings, numbers)`.
    pub unique_numbers: Option<DistArray<i64, 1>>,
    /// The number of elements of each group.
    pub counts: DistArray<i64, 1>,
}

/// The runs of equal keys of this locale's sorted part, with the run that continues the
/// previous locale's last group left to that locale.
struct Runs {
    /// Start (in the part's sorted order) and length of each group this locale owns.
    owned: Vec<(usize, usize)>,
    /// The length of a leading run that continues an earlier locale's group (0 if none).
    continued: usize,
    /// The global sorted position of this part's first element.
    base: usize,
    /// The number of groups owned by the locales before this one.
    groups_before: usize,
}

fn runs(ctx: &atoll_runtime::Ctx, part: &SortedPart) -> Result<Runs> {
    let m = part.len();
    let mut local: Vec<(usize, usize)> = Vec::new();
    let mut k = 0;
    while k < m {
        let key = part.key(k);
        let mut e = k + 1;
        while e < m && part.key(e) == key {
            e += 1;
        }
        local.push((k, e - k));
        k = e;
    }
    // Per locale: (size, first key, last key, first run's length, number of runs).
    type Edge = (usize, Vec<u8>, u64, Vec<u8>, u64, usize, usize);
    let mine: Edge = if m == 0 {
        (0, vec![], 0, vec![], 0, 0, 0)
    } else {
        let (f, fe) = part.key(0);
        let (l, le) = part.key(m - 1);
        (m, f.to_vec(), fe, l.to_vec(), le, local[0].1, local.len())
    };
    let all: Vec<Edge> = ctx.allgather(&mine)?;
    let me = ctx.id();
    // continues[l]: locale l's first run belongs to an earlier locale's group.
    let mut continues = vec![false; all.len()];
    let mut prev: Option<usize> = None;
    for (l, e) in all.iter().enumerate() {
        if e.0 == 0 {
            continue;
        }
        if let Some(q) = prev {
            continues[l] = all[q].3 == e.1 && all[q].4 == e.2;
        }
        prev = Some(l);
    }
    let owned_count = |l: usize| all[l].6 - usize::from(continues[l]);
    let groups_before: usize = (0..me).map(owned_count).sum();
    let base: usize = all[..me].iter().map(|e| e.0).sum();
    let continued = if continues[me] { local[0].1 } else { 0 };
    let mut owned: Vec<(usize, usize)> = local.into_iter().skip(usize::from(continues[me])).collect();
    // The last group owned here gathers the continuing runs of the following locales.
    if let Some(last) = owned.last_mut() {
        for l in me + 1..all.len() {
            if all[l].0 == 0 {
                continue;
            }
            if !continues[l] {
                break;
            }
            last.1 += all[l].5;
            if all[l].6 > 1 {
                break;
            }
        }
    }
    Ok(Runs { owned, continued, base, groups_before })
}

impl DistStrings {
    fn group(&self, numbers: Option<&DistArray<i64, 1>>) -> Result<(SortedPart, Runs)> {
        let extra: Option<Vec<u64>> = match numbers {
            None => None,
            Some(a) => {
                if a.len() != self.len() {
                    return Err(Error::ShapeMismatch {
                        context: "GroupBy".into(),
                        left: format!("{} strings", self.len()),
                        right: format!("{} numbers", a.len()),
                    });
                }
                Some(a.local().iter().map(|&x| x.to_ordered()).collect())
            }
        };
        let part = sample_sort(self, extra.as_deref())?;
        let r = runs(self.ctx(), &part)?;
        Ok((part, r))
    }

    fn groupby_impl(&self, numbers: Option<&DistArray<i64, 1>>) -> Result<GroupBy> {
        let ctx = self.ctx();
        let (part, r) = self.group(numbers)?;
        let perm: Vec<i64> = part.order.iter().map(|&j| part.idx[j as usize] as i64).collect();
        let permutation = values_to_block(ctx, perm)?;
        let segs: Vec<i64> = r.owned.iter().map(|&(s, _)| (r.base + s) as i64).collect();
        let counts: Vec<i64> = r.owned.iter().map(|&(_, c)| c as i64).collect();
        let mut keys = LocalStrings::with_capacity(r.owned.len(), 0);
        let mut nums = Vec::with_capacity(r.owned.len());
        for &(s, _) in &r.owned {
            let (b, e) = part.key(s);
            keys.push_bytes_unchecked_utf8(b);
            nums.push(i64::from_ordered(e));
        }
        let unique_numbers = if numbers.is_some() { Some(values_to_block(ctx, nums)?) } else { None };
        Ok(GroupBy {
            permutation,
            segments: values_to_block(ctx, segs)?,
            unique_keys: DistStrings::from_local_parts(ctx, keys, "DistStrings::groupby")?,
            unique_numbers,
            counts: values_to_block(ctx, counts)?,
        })
    }

    /// Groups equal strings (Arkouda's `ak.GroupBy(strings)`): the sorting permutation, each
    /// group's start in it, its key and its size, groups in sorted order. **Collective.**
    pub fn groupby(&self) -> Result<GroupBy> {
        self.groupby_impl(None)
    }

    /// Groups equal `(string, number)` pairs (`ak.GroupBy([strings, numbers])`), ordered by
    /// string then number. **Collective.**
    ///
    /// # Errors
    /// [`Error::ShapeMismatch`] when the lengths differ.
    pub fn groupby_with(&self, numbers: &DistArray<i64, 1>) -> Result<GroupBy> {
        let check = if numbers.len() == self.len() {
            Ok(())
        } else {
            Err(Error::ShapeMismatch {
                context: "GroupBy".into(),
                left: format!("{} strings", self.len()),
                right: format!("{} numbers", numbers.len()),
            })
        };
        check?;
        self.groupby_impl(Some(numbers))
    }

    /// The distinct strings, sorted, and how many times each occurs. **Collective.**
    pub fn unique_counts(&self) -> Result<(DistStrings, DistArray<i64, 1>)> {
        let ctx = self.ctx();
        let (part, r) = self.group(None)?;
        let mut keys = LocalStrings::with_capacity(r.owned.len(), 0);
        for &(s, _) in &r.owned {
            keys.push_bytes_unchecked_utf8(part.key(s).0);
        }
        let counts: Vec<i64> = r.owned.iter().map(|&(_, c)| c as i64).collect();
        Ok((DistStrings::from_local_parts(ctx, keys, "DistStrings::unique")?, values_to_block(ctx, counts)?))
    }

    /// The distinct strings, sorted (Arkouda's `ak.unique`). **Collective.**
    pub fn unique(&self) -> Result<DistStrings> {
        Ok(self.unique_counts()?.0)
    }

    /// For each string, its group's rank among the distinct strings in sorted order (the
    /// codes of [`Categorical`]), and the distinct strings. **Collective.**
    pub(crate) fn codes_and_categories(&self) -> Result<(DistArray<i64, 1>, DistStrings)> {
        let ctx = self.ctx();
        let (part, r) = self.group(None)?;
        let p = ctx.num_locales();
        // The code of every sorted element of the part, sent to the owner of its index.
        let mut out: Vec<Vec<i64>> = vec![Vec::new(); p];
        let mut put = |k: usize, code: i64| {
            let i = part.idx[part.order[k] as usize] as usize;
            let d = crate::layout::owner(self.bounds(), i);
            out[d].push(i as i64);
            out[d].push(code);
        };
        for k in 0..r.continued {
            put(k, r.groups_before as i64 - 1);
        }
        for (g, &(s, c)) in r.owned.iter().enumerate() {
            for k in s..s + c.min(part.len() - s) {
                put(k, (r.groups_before + g) as i64);
            }
        }
        let got = ctx.alltoallv(out)?.concat();
        let lo = self.lo();
        let mut codes = vec![0i64; self.local().len()];
        for c in got.chunks_exact(2) {
            codes[c[0] as usize - lo] = c[1];
        }
        let mut keys = LocalStrings::with_capacity(r.owned.len(), 0);
        for &(s, _) in &r.owned {
            keys.push_bytes_unchecked_utf8(part.key(s).0);
        }
        Ok((self.array_from_local(&codes)?, DistStrings::from_local_parts(ctx, keys, "Categorical")?))
    }
}

/// Strings stored as integer codes into sorted distinct categories (Arkouda's
/// `ak.Categorical`).
#[derive(Debug)]
pub struct Categorical {
    /// `codes[i]` is the category of string `i`, aligned with the strings it was made from.
    pub codes: DistArray<i64, 1>,
    /// The distinct strings, sorted.
    pub categories: DistStrings,
}

impl Categorical {
    /// The categorical of `s`. **Collective.**
    pub fn new(s: &DistStrings) -> Result<Categorical> {
        let (codes, categories) = s.codes_and_categories()?;
        Ok(Categorical { codes, categories })
    }

    /// The number of elements.
    pub fn len(&self) -> usize {
        self.codes.len()
    }

    /// Whether there is no element.
    pub fn is_empty(&self) -> bool {
        self.codes.is_empty()
    }

    /// The strings again (`categories[codes]`). **Collective.**
    pub fn to_strings(&self) -> Result<DistStrings> {
        self.categories.take(&self.codes)
    }

    /// Whether each element equals `value`: one comparison of codes with the code of `value`
    /// (found among the categories). **Collective.**
    pub fn eq_str(&self, value: &str) -> Result<DistArray<bool, 1>> {
        let c = self.categories.local();
        let here = (0..c.len()).find(|&i| c.get(i) == value.as_bytes()).map(|i| (self.categories.lo() + i) as i64);
        let code = self.codes.ctx().allreduce(here.unwrap_or(-1), i64::max)?;
        let mut out = DistArray::<bool, 1>::zeros_lazy(self.codes.ctx(), self.codes.dist().clone())?;
        let codes = self.codes.local();
        crate::par::fill(self.codes.ctx(), out.local_mut(), |i| codes[i] == code);
        self.codes.ctx().barrier()?;
        Ok(out)
    }

    /// The number of elements of each category, aligned with `categories`. **Collective.**
    pub fn counts(&self) -> Result<DistArray<i64, 1>> {
        let ctx = self.codes.ctx();
        let k = self.categories.len();
        let mut local = vec![0i64; k];
        for &c in self.codes.local() {
            local[c as usize] += 1;
        }
        let all = ctx.allreduce(local, |a, b| a.iter().zip(&b).map(|(x, y)| x + y).collect())?;
        let lo = self.categories.lo();
        let mine = all[lo..lo + self.categories.local().len()].to_vec();
        crate::strings::array_from_local(ctx, self.categories.dist(), &mine)
    }
}
