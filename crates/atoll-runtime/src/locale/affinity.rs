//! Pinning threads to cores: the only OS call here that needs `unsafe`.
//!
//! Linux's `sched_setaffinity` and `sched_getcpu`; other systems (and builds with
//! `--cfg atoll_portable`, which compile this fallback on Linux) pin nothing and leave the
//! placement of threads to the OS.

use atoll_error::Result;

/// Restricts the calling thread to run on `cores` (logical CPU ids). An empty list is a no-op.
#[cfg(all(target_os = "linux", not(atoll_portable)))]
pub(crate) fn pin_current_thread(cores: &[usize]) -> Result<()> {
    use atoll_error::Error;
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

/// Leaves the calling thread where the OS puts it: this system has no affinity call that this
/// module uses.
#[cfg(not(all(target_os = "linux", not(atoll_portable))))]
pub(crate) fn pin_current_thread(_cores: &[usize]) -> Result<()> {
    Ok(())
}

/// Runs `f` with the calling thread, and the threads it starts, allowed on every online CPU
/// that this process may use (the kernel keeps a cpuset's limits), then restores the thread's
/// affinity; `f`'s result and the number of CPUs it had. The one-host runs of the benchmarks'
/// network model use it: on a cluster simulated on one machine, where each host has CPUs of
/// its own, the one-host run gets as many CPUs as the hosts together; on a real host, the
/// host's own. Where the affinity cannot be read or set, `f` runs as the thread is.
#[cfg(feature = "bench")]
pub fn with_every_cpu<R>(f: impl FnOnce() -> R) -> (R, usize) {
    let online = std::fs::read_to_string("/sys/devices/system/cpu/online")
        .ok()
        .and_then(|s| super::topology::parse_cpu_list(&s));
    let saved = super::topology::current_thread_cores();
    let widened = match (&online, &saved) {
        (Some(all), Some(_)) => pin_current_thread(all).is_ok(),
        _ => false,
    };
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let r = f();
    if let (true, Some(saved)) = (widened, saved) {
        // Restoring a mask the thread had cannot fail but for a CPU going offline meanwhile,
        // and the thread then keeps the wider mask.
        let _ = pin_current_thread(&saved);
    }
    (r, cores)
}

/// The logical CPU the calling thread is running on now, if the OS says (to check pinning).
#[cfg(all(target_os = "linux", not(atoll_portable)))]
pub fn current_cpu() -> Option<usize> {
    // SAFETY: sched_getcpu takes no arguments and only returns a value.
    let c = unsafe { libc::sched_getcpu() };
    usize::try_from(c).ok()
}

/// The logical CPU the calling thread is running on now: `None`, as this system does not say.
#[cfg(not(all(target_os = "linux", not(atoll_portable))))]
pub fn current_cpu() -> Option<usize> {
    None
}

#[cfg(all(test, feature = "bench", target_os = "linux", not(atoll_portable)))]
mod tests {
    use super::*;
    use crate::topology::current_thread_cores;

    #[test]
    fn every_cpu_for_a_while_then_the_mask_it_had() {
        // On a thread of its own: the test harness's threads keep their masks.
        std::thread::spawn(|| {
            let all = current_thread_cores().expect("the affinity mask");
            pin_current_thread(&all[..1]).unwrap();
            let (inside, cores) = with_every_cpu(|| current_thread_cores().unwrap());
            assert_eq!(cores, inside.len());
            assert!(inside.len() >= all.len(), "{inside:?} narrower than {all:?}");
            assert_eq!(current_thread_cores().unwrap(), all[..1].to_vec());
            // Threads started inside inherit the wide mask.
            let (child, _) = with_every_cpu(|| std::thread::spawn(|| current_thread_cores().unwrap()).join().unwrap());
            assert_eq!(child, inside);
        })
        .join()
        .unwrap();
    }
}
