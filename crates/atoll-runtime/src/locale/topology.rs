//! The machine's cores and NUMA domains, and how they are divided among locales and
//! sublocales.
//!
//! Read from Linux's `/proc/self/status` (the cores this process may use) and
//! `/sys/devices/system/node/node*/cpulist` (NUMA domains). Where `/sys` has no NUMA
//! information, the machine is one domain.

use crate::config::SublocaleMode;
use std::collections::BTreeMap;

/// The name of the host this process runs on.
pub(crate) fn hostname() -> String {
    std::fs::read_to_string("/proc/sys/kernel/hostname")
        .map(|s| s.trim().to_string())
        .ok()
        .filter(|s| !s.is_empty())
        .unwrap_or_else(|| "localhost".into())
}

/// The logical CPUs the calling thread may run on (its affinity mask), ascending; `None`
/// where the OS does not say.
pub fn current_thread_cores() -> Option<Vec<usize>> {
    std::fs::read_to_string("/proc/thread-self/status")
        .ok()?
        .lines()
        .find_map(|l| l.strip_prefix("Cpus_allowed_list:"))
        .and_then(parse_cpu_list)
        .filter(|c| !c.is_empty())
}

/// Parses a Linux CPU list such as `0-3,8,10-11`.
///
/// ```
/// use atoll_runtime::topology::parse_cpu_list;
/// assert_eq!(parse_cpu_list("0-3,8,10-11"), Some(vec![0, 1, 2, 3, 8, 10, 11]));
/// assert_eq!(parse_cpu_list(""), Some(vec![]));
/// assert_eq!(parse_cpu_list("3-1"), None);
/// ```
pub fn parse_cpu_list(s: &str) -> Option<Vec<usize>> {
    let mut out = Vec::new();
    for part in s.trim().split(',').filter(|p| !p.is_empty()) {
        match part.split_once('-') {
            Some((a, b)) => {
                let (a, b): (usize, usize) = (a.trim().parse().ok()?, b.trim().parse().ok()?);
                if a > b {
                    return None;
                }
                out.extend(a..=b);
            }
            None => out.push(part.trim().parse().ok()?),
        }
    }
    out.sort_unstable();
    out.dedup();
    Some(out)
}

/// The cores this process may run on and the NUMA domain of each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Machine {
    /// Usable logical CPUs, ascending.
    pub cores: Vec<usize>,
    /// NUMA node of each usable core.
    pub numa_of: BTreeMap<usize, usize>,
}

impl Machine {
    /// Reads the machine this process runs on.
    pub fn detect() -> Machine {
        // The calling thread's mask (the threads it starts inherit it).
        let cores = current_thread_cores().unwrap_or_else(|| {
            let n = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
            (0..n).collect()
        });
        let mut numa_of = BTreeMap::new();
        if let Ok(dir) = std::fs::read_dir("/sys/devices/system/node") {
            for entry in dir.flatten() {
                let name = entry.file_name().to_string_lossy().to_string();
                let Some(id) = name.strip_prefix("node").and_then(|n| n.parse::<usize>().ok()) else {
                    continue;
                };
                if let Some(list) =
                    std::fs::read_to_string(entry.path().join("cpulist")).ok().and_then(|s| parse_cpu_list(&s))
                {
                    for c in list {
                        numa_of.insert(c, id);
                    }
                }
            }
        }
        for &c in &cores {
            numa_of.entry(c).or_insert(0);
        }
        numa_of.retain(|c, _| cores.contains(c));
        Machine { cores, numa_of }
    }

    /// A machine with `n` cores in one NUMA domain (for tests).
    pub fn uniform(n: usize) -> Machine {
        Machine { cores: (0..n).collect(), numa_of: (0..n).map(|c| (c, 0)).collect() }
    }

    /// The cores of locale `rank` when `count` locales share the host: a contiguous
    /// share when there are at least as many cores as locales, else one core, round-robin.
    pub fn share(&self, rank: usize, count: usize) -> Vec<usize> {
        let c = self.cores.len();
        let count = count.max(1);
        if count <= c {
            let (lo, hi) = (rank * c / count, (rank + 1) * c / count);
            self.cores[lo..hi].to_vec()
        } else {
            vec![self.cores[rank % c]]
        }
    }

    /// Splits `cores` into sublocales: per NUMA domain, per core, or one.
    pub fn sublocales(&self, cores: &[usize], mode: SublocaleMode) -> Vec<Vec<usize>> {
        match mode {
            SublocaleMode::None => vec![cores.to_vec()],
            SublocaleMode::Core => cores.iter().map(|&c| vec![c]).collect(),
            SublocaleMode::Numa => {
                let mut by_node: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
                for &c in cores {
                    by_node.entry(*self.numa_of.get(&c).unwrap_or(&0)).or_default().push(c);
                }
                by_node.into_values().collect()
            }
        }
    }
}

/// Divides `threads` among groups in proportion to their sizes, at least one each.
pub(crate) fn split_threads(threads: usize, sizes: &[usize]) -> Vec<usize> {
    let total: usize = sizes.iter().sum::<usize>().max(1);
    let k = sizes.len();
    let threads = threads.max(k);
    let mut out: Vec<usize> = sizes.iter().map(|&s| (threads * s / total).max(1)).collect();
    let mut sum: usize = out.iter().sum();
    let mut i = 0;
    while sum < threads {
        out[i % k] += 1;
        sum += 1;
        i += 1;
    }
    while sum > threads {
        if let Some(j) = (0..k).rev().find(|&j| out[j] > 1) {
            out[j] -= 1;
            sum -= 1;
        } else {
            break;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shares_partition_the_cores() {
        let m = Machine::uniform(8);
        let all: Vec<usize> = (0..3).flat_map(|r| m.share(r, 3)).collect();
        assert_eq!(all, (0..8).collect::<Vec<_>>());
        let m = Machine::uniform(2);
        assert_eq!((0..4).map(|r| m.share(r, 4)).collect::<Vec<_>>(), vec![vec![0], vec![1], vec![0], vec![1]]);
    }

    #[test]
    fn sublocales_follow_numa_domains() {
        let m = Machine { cores: (0..4).collect(), numa_of: [(0, 0), (1, 1), (2, 0), (3, 1)].into() };
        assert_eq!(m.sublocales(&m.cores, SublocaleMode::Numa), vec![vec![0, 2], vec![1, 3]]);
        assert_eq!(m.sublocales(&m.cores, SublocaleMode::Core).len(), 4);
        assert_eq!(m.sublocales(&m.cores, SublocaleMode::None), vec![vec![0, 1, 2, 3]]);
    }

    #[test]
    fn threads_split_in_proportion() {
        assert_eq!(split_threads(4, &[2, 2]), vec![2, 2]);
        assert_eq!(split_threads(1, &[2, 2]), vec![1, 1]);
        assert_eq!(split_threads(6, &[1, 2]), vec![2, 4]);
        assert_eq!(split_threads(5, &[3]).iter().sum::<usize>(), 5);
    }

    #[test]
    fn detect_finds_this_machine() {
        let m = Machine::detect();
        assert!(!m.cores.is_empty());
        assert_eq!(m.numa_of.len(), m.cores.len());
    }
}
