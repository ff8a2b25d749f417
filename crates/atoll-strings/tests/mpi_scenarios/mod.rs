//! Deterministic string scenarios run identically on every backend: by the
//! program of `tests/mpi_launch.rs` under `mpiexec` and, in the same
//! test, on the local backend with as many locales. Each scenario checks its result against a
//! sequential computation over every string (made on every locale from the same seed) and
//! reports every locale's message counts, which must be the same on both backends; the regex
//! scenarios must count none.
//!
//! Only the crate's normal dependencies are used here (the selftest binary cannot use
//! dev-dependencies).
#![allow(dead_code)]

use atoll_runtime::{CommCounts, Ctx, Error, Result};
use atoll_strings::{random_strings_uniform, Charset, DistStrings, RegexFlags};

fn check(cond: bool, what: &str) -> Result<()> {
    if cond {
        Ok(())
    } else {
        Err(Error::InvalidArgument(format!("check failed: {what}")))
    }
}

/// Every locale's counts of `f`'s communication.
fn measure<R>(ctx: &Ctx, f: impl FnOnce() -> Result<R>) -> Result<(R, Vec<CommCounts>)> {
    ctx.reset_comm_diagnostics()?;
    ctx.start_comm_diagnostics()?;
    let r = f();
    ctx.stop_comm_diagnostics()?;
    let r = r?;
    Ok((r, ctx.comm_diagnostics()?))
}

fn zero(counts: &[CommCounts], what: &str) -> Result<()> {
    check(counts.iter().all(|c| c.total_ops() == 0), what)
}

/// Every scenario: (name, every locale's counts).
pub fn all(ctx: &Ctx) -> Result<Vec<(String, Vec<CommCounts>)>> {
    let mut out = Vec::new();
    let n = 20_000;
    let s = random_strings_uniform(ctx, 0, 12, n, Charset::Lowercase, 17)?;
    let v = s.to_vec()?;
    let (v2, _) = (v.clone(), ());
    check(v.len() == n, "to_vec length")?;

    // Regex matching: no remote operation.
    let pat = "[aeiou]{2}|xy|^q";
    let (hits, c) = measure(ctx, || s.contains_regex(pat))?;
    zero(&c, "contains_regex made remote operations")?;
    let re = regex::Regex::new(pat).map_err(|e| Error::InvalidArgument(e.to_string()))?;
    check(hits.to_vec()? == v.iter().map(|x| re.is_match(x)).collect::<Vec<_>>(), "contains_regex")?;
    out.push(("contains_regex".into(), c));
    let (m, c) = measure(ctx, || s.search("b+c?", RegexFlags::default()))?;
    zero(&c, "search made remote operations")?;
    let re = regex::Regex::new("b+c?").map_err(|e| Error::InvalidArgument(e.to_string()))?;
    let starts = m.starts.to_vec()?;
    check(
        starts == v.iter().map(|x| re.find(x).map_or(-1, |f| f.start() as i64)).collect::<Vec<_>>(),
        "search starts",
    )?;
    out.push(("search".into(), c));
    // An invalid pattern: the same error everywhere, the job goes on.
    let e = s.contains_regex("(ab").err().map(|e| e.to_string()).unwrap_or_default();
    let all_e: Vec<String> = ctx.allgather(&e)?;
    check(!e.is_empty() && all_e.iter().all(|x| *x == e), "invalid pattern error")?;

    // Element-wise with another layout: strings made by locale 0 only, moved to Block.
    let r = DistStrings::from_root(ctx, 0, (ctx.id() == 0).then_some(&v2[..]))?;
    check(r.eq(&s)?.to_vec()?.iter().all(|&b| b), "from_root equals")?;
    let up = s.upper()?;
    check(up.to_vec()? == v.iter().map(|x| x.to_uppercase()).collect::<Vec<_>>(), "upper")?;

    // split (pieces and segments).
    let (p, c) = measure(ctx, || s.split("a", false, None))?;
    let want: Vec<String> = v.iter().flat_map(|x| x.split('a').map(str::to_string)).collect();
    check(p.pieces.to_vec()? == want, "split pieces")?;
    out.push(("split".into(), c));

    // argsort, groupby, in1d.
    let (perm, c) = measure(ctx, || s.argsort())?;
    let mut idx: Vec<i64> = (0..n as i64).collect();
    idx.sort_by(|&a, &b| v[a as usize].cmp(&v[b as usize]).then(a.cmp(&b)));
    check(perm.to_vec()? == idx, "argsort")?;
    out.push(("argsort".into(), c));
    let g = s.groupby()?;
    let mut uniq: Vec<&String> = v.iter().collect();
    uniq.sort();
    uniq.dedup();
    check(g.unique_keys.to_vec()?.iter().collect::<Vec<_>>() == uniq, "groupby keys")?;
    check(g.counts.to_vec()?.iter().sum::<i64>() == n as i64, "groupby counts")?;
    // Strings and numbers in one coargsort (strings as an atoll-ops key column).
    let nums = atoll_array::DistArray::from_fn(ctx, atoll_array::dist::cyclic(ctx, [n])?, |[i]| (i * 7919) % 5 - 2)?;
    let p2 = atoll_ops::coargsort(&[&nums as &dyn atoll_ops::SortColumn, &s])?;
    let mut idx2: Vec<i64> = (0..n as i64).collect();
    idx2.sort_by(|&a, &b| ((a * 7919) % 5 - 2, &v[a as usize]).cmp(&((b * 7919) % 5 - 2, &v[b as usize])));
    check(p2.to_vec()? == idx2, "coargsort of numbers and strings")?;
    let other = DistStrings::from_vec(ctx, &["ab", "zzzz", "", "q", "hello"])?;
    let set = ["ab", "zzzz", "", "q", "hello"];
    check(s.in1d(&other)?.to_vec()? == v.iter().map(|x| set.contains(&x.as_str())).collect::<Vec<_>>(), "in1d")?;
    Ok(out)
}

/// One `counts <scenario> [puts/bytes/ops ...]` line per scenario.
pub fn report(results: &[(String, Vec<CommCounts>)]) -> String {
    let mut s = String::new();
    for (name, counts) in results {
        let per: Vec<String> = counts.iter().map(|c| format!("{}/{}/{}", c.puts, c.bytes, c.total_ops())).collect();
        s.push_str(&format!("counts {name} [{}]\n", per.join(" ")));
    }
    s
}
