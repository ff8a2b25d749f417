//! Communication diagnostics: counters, the per-locale table, verbose tracing.

use super::Ctx;
use crate::diagnostics::{CommCounts, CommTable};
use atoll_error::Result;

impl Ctx {
    /// Starts counting communication on every locale. **Collective.**
    pub fn start_comm_diagnostics(&self) -> Result<()> {
        self.coll_enter("start_comm_diagnostics")?;
        self.st.diag.set_enabled(true);
        self.st.backend.barrier()
    }

    /// Stops counting (after every locale has reached this point). **Collective.**
    pub fn stop_comm_diagnostics(&self) -> Result<()> {
        self.coll_enter("stop_comm_diagnostics")?;
        self.st.backend.barrier()?;
        self.st.diag.set_enabled(false);
        Ok(())
    }

    /// Sets every locale's counters to zero. **Collective.**
    pub fn reset_comm_diagnostics(&self) -> Result<()> {
        self.coll_enter("reset_comm_diagnostics")?;
        self.st.backend.barrier()?;
        self.st.diag.reset();
        self.st.backend.barrier()
    }

    /// This locale's counters now. **One-sided** (reads local state only).
    pub fn comm_counts(&self) -> CommCounts {
        self.st.diag.counts()
    }

    /// This locale's operations with locales on other hosts (as the locales' names say:
    /// `locale-<l>@<host>`) and their bytes, since the counters were last reset: the part of
    /// [`Ctx::comm_counts`] that crosses the network (for network models in benchmarks). It
    /// depends on the placement of the locales, unlike the counts. **One-sided.**
    pub fn comm_counts_across_hosts(&self) -> (u64, u64) {
        self.st.diag.across()
    }

    /// Of the bytes of [`Ctx::comm_counts_across_hosts`], those that left this locale (puts,
    /// active message requests, atomics); the rest came in (gets, active message replies).
    /// With them a network model can load each direction of a host's link. **One-sided.**
    pub fn comm_bytes_sent_across_hosts(&self) -> u64 {
        self.st.diag.across_sent()
    }

    /// The number of collectives this locale has entered so far in the job (barriers,
    /// reductions, the runtime's own): with [`Ctx::comm_counts_across_hosts`], what a
    /// network model of a stretch of code needs. **One-sided.**
    pub fn collectives_entered(&self) -> u64 {
        self.st.coll_seq.load(std::sync::atomic::Ordering::Relaxed)
    }

    /// Every locale's counters, in locale order. **Collective.**
    pub fn comm_diagnostics(&self) -> Result<Vec<CommCounts>> {
        self.coll_enter("comm_diagnostics")?;
        self.allgather_raw(&self.st.diag.counts())
    }

    /// Prints the per-locale table of counters on locale 0 (Chapel's
    /// `printCommDiagnosticsTable`) and returns it. **Collective.**
    pub fn print_comm_diagnostics_table(&self) -> Result<String> {
        let t = CommTable(self.comm_diagnostics()?).to_string();
        if self.st.id == 0 {
            print!("{t}");
        }
        Ok(t)
    }

    /// Turns printing of every communication operation of this locale on or off.
    pub fn set_verbose_comm(&self, on: bool) {
        self.st.diag.set_verbose(on);
    }

    /// Runs `f` with the operations *this thread* makes left out of the communication
    /// counters and the trace (the other threads of the locale are still counted): for
    /// measurements the library makes for itself, such as calibrating a cost model, which
    /// must not show in a program's counts. **Local.**
    pub fn uncounted<R>(&self, f: impl FnOnce() -> R) -> R {
        crate::diagnostics::uncounted(f)
    }
}
