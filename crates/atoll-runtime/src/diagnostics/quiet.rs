//! Waits that are long by design, without the stall report.

/// Runs `f` with the stall report of this thread's MPI waits off (the note a rank prints when
/// it has waited 5 s, 10 s, ... in one collective, `ATOLL_CHECK_COLLECTIVES` off). For waits
/// that are long by design, such as the ranks of a benchmark that wait in a barrier while rank
/// 0 measures alone. Only the calling thread's waits are quiet, and only inside `f`: the
/// report stays on everywhere else. Nothing changes on the local backend (it has no such
/// report).
///
/// ```
/// use atoll_runtime::{quiet_waits, run, Config};
/// run(Config::local(2), |ctx| quiet_waits(|| ctx.barrier())).unwrap();
/// ```
pub fn quiet_waits<R>(f: impl FnOnce() -> R) -> R {
    crate::comm::coll_note::quiet(f)
}
