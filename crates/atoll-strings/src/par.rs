//! Splitting one locale's strings among its tasks.

use atoll_runtime::Ctx;
use atoll_util::sync::{into_inner, lock};
use std::ops::Range;
use std::sync::Mutex;

/// `m` items in contiguous parts: about four per thread of the locale, none smaller than 1024
/// items (but at least one part).
pub(crate) fn parts(ctx: &Ctx, m: usize) -> Vec<Range<usize>> {
    let k = (ctx.here().num_threads().max(1) * 4).min(m.div_ceil(1024)).max(1);
    (0..k).map(|c| m * c / k..m * (c + 1) / k).collect()
}

/// `f` of every part of `0..m` on the locale's tasks, results in order of the parts.
pub(crate) fn map_parts<T: Send>(ctx: &Ctx, m: usize, f: impl Fn(Range<usize>) -> T + Sync) -> Vec<T> {
    let ps = parts(ctx, m);
    let slots: Vec<Mutex<Option<T>>> = ps.iter().map(|_| Mutex::new(None)).collect();
    ctx.forall_chunks_with(0..ps.len(), 1, |r| {
        for c in r {
            let v = f(ps[c].clone());
            *lock(&slots[c]) = Some(v);
        }
    });
    slots.into_iter().map(|s| into_inner(s).expect("every part ran")).collect()
}

/// Writes `out[i] = f(i)` for every `i` on the locale's tasks.
pub(crate) fn fill<T: Send>(ctx: &Ctx, out: &mut [T], f: impl Fn(usize) -> T + Sync) {
    fill_with(ctx, out, |i, x| *x = f(i));
}

/// Runs `f(i, &mut out[i])` for every `i` on the locale's tasks.
pub(crate) fn fill_with<T: Send>(ctx: &Ctx, out: &mut [T], f: impl Fn(usize, &mut T) + Sync) {
    let ps = parts(ctx, out.len());
    let mut rest = &mut *out;
    let mut slots = Vec::with_capacity(ps.len());
    for p in &ps {
        let (a, b) = rest.split_at_mut(p.len());
        slots.push(Mutex::new((p.start, a)));
        rest = b;
    }
    ctx.forall_chunks_with(0..slots.len(), 1, |r| {
        for c in r {
            let mut g = lock(&slots[c]);
            let (start, s) = &mut *g;
            for (j, x) in s.iter_mut().enumerate() {
                f(*start + j, x);
            }
        }
    });
}

/// Writes `out[i] = f(state, i)` for every `i` on the locale's tasks, each part with its own
/// `state` from `init` (a regex cache).
pub(crate) fn fill_stateful<T: Send, S>(
    ctx: &Ctx,
    out: &mut [T],
    init: impl Fn() -> S + Sync,
    f: impl Fn(&mut S, usize) -> T + Sync,
) {
    let ps = parts(ctx, out.len());
    let mut rest = &mut *out;
    let mut slots = Vec::with_capacity(ps.len());
    for p in &ps {
        let (a, b) = rest.split_at_mut(p.len());
        slots.push(Mutex::new((p.start, a)));
        rest = b;
    }
    ctx.forall_chunks_with(0..slots.len(), 1, |r| {
        for c in r {
            let mut g = lock(&slots[c]);
            let (start, s) = &mut *g;
            let mut st = init();
            for (j, x) in s.iter_mut().enumerate() {
                *x = f(&mut st, *start + j);
            }
        }
    });
}
