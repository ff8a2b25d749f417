//! Collectives called in different orders with collective checking OFF (the release default)
//! must not hang silently or return another collective's data: the local
//! backend compares every locale's note of its collective (kind, number, call site) at each
//! rendezvous. Each job runs under a timeout harness, so a hang fails the test instead of
//! blocking it; before the check these jobs hung or returned wrong data.

use atoll_runtime::{run, Config, Ctx, Error, Result};
use std::sync::mpsc;
use std::time::Duration;

/// Runs `f` on `n` locales with checking off; panics if the job has not ended after 60 s.
fn run_unchecked<R: Send + 'static>(n: usize, f: fn(&Ctx) -> Result<R>) -> Result<R> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(run(Config::local(n).with_check_collectives(false), f));
    });
    rx.recv_timeout(Duration::from_secs(60))
        .unwrap_or_else(|_| panic!("the job hung (collectives in different orders)"))
}

fn mismatch(e: &Error, a: &str, b: &str) {
    let s = e.to_string();
    assert!(matches!(e, Error::CollectiveMismatch { .. }), "{s}");
    assert!(s.contains(a) && s.contains(b), "both collectives named: {s}");
    // Both call sites: this file, on two different lines.
    assert_eq!(s.matches("collective_order.rs:").count(), 2, "both call sites: {s}");
}

#[test]
fn a_locale_that_skips_a_collective_does_not_hang() {
    // Before: locale 1's end-of-job barrier met locale 0's allreduce, then locale 0 waited
    // forever at its own end of the job.
    let e = run_unchecked(2, |ctx| if ctx.id() == 0 { ctx.allreduce(1u64, |a, b| a + b).map(|_| ()) } else { Ok(()) })
        .unwrap_err();
    let s = e.to_string();
    assert!(
        matches!(e, Error::CollectiveMismatch { .. }) && s.contains("allreduce") && s.contains("the end of the job"),
        "{s}"
    );
}

#[test]
fn swapped_collectives_are_reported_with_both_call_sites() {
    // Before: locale 0's broadcast read locale 1's allgather slot (wrong data or a decoding
    // error naming neither collective).
    for n in [2, 3, 4] {
        let e = run_unchecked(n, |ctx| {
            if ctx.id() == n_minus_one(ctx) {
                let _ = ctx.allgather(&7u32)?;
                ctx.broadcast(0, Some(1u32)).map(|_| ())
            } else {
                let _ = ctx.broadcast(0, (ctx.id() == 0).then_some(1u32))?;
                ctx.allgather(&7u32).map(|_| ())
            }
        })
        .unwrap_err();
        mismatch(&e, "broadcast", "allgather");
    }
}

fn n_minus_one(ctx: &Ctx) -> usize {
    ctx.num_locales() - 1
}

#[test]
fn matching_collectives_still_work_unchecked() {
    let r = run_unchecked(3, |ctx| {
        let mut acc = 0u64;
        for k in 0..500u64 {
            ctx.barrier()?;
            acc += ctx.allreduce(ctx.id() as u64 + k, |a, b| a + b)?;
            acc += ctx.broadcast(k as usize % 3, Some(k)).unwrap_or(0);
        }
        Ok(acc)
    })
    .unwrap();
    let want: u64 = (0..500u64).map(|k| 3 * k + 3 + k).sum();
    assert_eq!(r, want);
}
