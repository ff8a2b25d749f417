//! The evaluator's settings, set on every locale: the streaming-store threshold of fused
//! assignments and whether the fused kernels (`eval/fused.rs`) run. The bench compares both
//! paths in one run, and the tests force the less common path on small arrays. Results never
//! depend on them.

use crate::handles::Session;
use atoll::array::stream_store;
use atoll::runtime::{Ctx, Handler};
use atoll::Result;

fn set_streaming(_ctx: &Ctx, bytes: u64) -> Result<()> {
    stream_store::set_streaming_store_threshold(usize::try_from(bytes).unwrap_or(usize::MAX));
    Ok(())
}

/// Sets the smallest destination (bytes on one locale) that fused assignments write with
/// streaming stores, on every locale (`u64::MAX`: never; 0: always, for rows of at least 256
/// bytes); returns the previous value. The default is
/// `atoll::array::stream_store::DEFAULT_STREAMING_THRESHOLD`. **Collective.**
pub fn set_streaming_threshold(s: &Session, bytes: u64) -> Result<u64> {
    // The driver's value (locale 0's; every locale holds the same one).
    let old = stream_store::streaming_store_threshold() as u64;
    s.exec(&SET_STREAMING, bytes)?;
    Ok(old)
}

fn set_fused(_ctx: &Ctx, on: bool) -> Result<()> {
    crate::eval::fused::set_enabled(on);
    Ok(())
}

/// Turns the fused kernels on (the default) or off on every locale (off: every tree goes
/// through the chunked evaluator); returns the previous setting. Results never depend on it.
/// **Collective.**
pub fn set_fused_kernels(s: &Session, on: bool) -> Result<bool> {
    // The driver's setting (every locale holds the same one).
    let old = crate::eval::fused::enabled();
    s.exec(&SET_FUSED, on)?;
    Ok(old)
}

commands! {
    /// Sets the threshold on every locale (in-process locales share one). **Collective.**
    pub static SET_STREAMING: Handler<u64, ()> = Handler::new("atoll-session::set_streaming", set_streaming);

    /// Turns the fused kernels on or off on every locale. **Collective.**
    pub static SET_FUSED: Handler<bool, ()> = Handler::new("atoll-session::set_fused", set_fused);
}
