//! Pinning threads to cores: the only OS call here that needs `unsafe`.

use atoll_error::{Error, Result};

/// Restricts the calling thread to run on `cores` (logical CPU ids). An empty list is a no-op.
pub(crate) fn pin_current_thread(cores: &[usize]) -> Result<()> {
    if cores.is_empty() {
        return Ok(());
    }
    // SAFETY: cpu_set_t is a plain bit array for which all-zero is a valid (empty) value.
    let mut set: libc::cpu_set_t = unsafe { std::mem::zeroed() };
    let max = 8 * std::mem::size_of::<libc::cpu_set_t>();
    for &c in cores {
        if c >= max {
            return Err(Error::Io(format!("core id {c} exceeds the affinity mask size {max}")));
        }
        // SAFETY: `c` is below the number of bits in `set`, checked just above.
        unsafe { libc::CPU_SET(c, &mut set) };
    }
    // SAFETY: `set` is an initialized cpu_set_t and the size passed is its exact size; pid 0
    // means the calling thread.
    let rc = unsafe { libc::sched_setaffinity(0, std::mem::size_of::<libc::cpu_set_t>(), &set) };
    if rc != 0 {
        return Err(Error::Io(format!(
            "sched_setaffinity to cores {cores:?} failed: {}",
            std::io::Error::last_os_error()
        )));
    }
    Ok(())
}

/// The logical CPU the calling thread is running on now, if the OS says (to check pinning).
pub fn current_cpu() -> Option<usize> {
    // SAFETY: sched_getcpu takes no arguments and only returns a value.
    let c = unsafe { libc::sched_getcpu() };
    usize::try_from(c).ok()
}
