//! The MPI test program: runs one scenario of tests/common on the backend chosen by the
//! environment (`ATOLL_BACKEND`), launched by tests/mpi_launch.rs under `mpiexec`.
//!
//! Usage: `atoll-selftest <scenario>`; prints `selftest <scenario> ok` on locale 0 on success.

#[path = "../common/coll_scenarios.rs"]
mod coll_scenarios;
#[path = "../common/scenarios.rs"]
mod scenarios;
#[path = "../common/shm_scenarios.rs"]
mod shm_scenarios;

use atoll_runtime::{run, run_driver, Config, Error, Result};
use scenarios::*;

// Memory tracking on (count mode by default): the out-of-memory scenario checks that each
// rank's memory is attributed to it.
atoll_runtime::atoll_mem::track_memory!();

fn main() {
    register_all();
    let what = std::env::args().nth(1).unwrap_or_default();
    let config = match Config::from_env() {
        Ok(c) => c,
        Err(e) => {
            eprintln!("selftest: {e}");
            std::process::exit(2);
        }
    };
    let r: Result<String> = match what.as_str() {
        "all" => run(config, |ctx| {
            collectives(ctx)?;
            rma(ctx)?;
            active_messages(ctx)?;
            tasks(ctx)?;
            Ok(String::new())
        }),
        // Out-of-memory errors under a 64 MiB limit per locale: the same error on every locale,
        // and the job goes on.
        "oom" => run(config.with_mem_max(OOM_LIMIT), |ctx| {
            out_of_memory(ctx)?;
            // The collectives still agree after the failures.
            collectives(ctx)?;
            Ok(String::new())
        }),
        // Node-shared memory (on unless ATOLL_MPI_SHM=0) or its fallbacks.
        "shm" => run(config, |ctx| {
            let expected = ctx.backend_name() == "mpi" && node_shm_on() && ctx.num_locales() > 1;
            shm_scenarios::node_shared(ctx, expected)?;
            Ok(String::new())
        }),
        // Freed node segments kept for reuse under a cap of ATOLL_MPI_SHM_KEEP bytes (plain
        // bytes here; the library's default cap, 2 GiB, when unset).
        "shm_keep" => run(config, |ctx| {
            let expected = ctx.backend_name() == "mpi" && node_shm_on() && ctx.num_locales() > 1;
            let cap = std::env::var("ATOLL_MPI_SHM_KEEP").ok().and_then(|v| v.parse().ok()).unwrap_or(2 << 30);
            shm_scenarios::node_shared_keep(ctx, expected, cap)?;
            Ok(String::new())
        }),
        // Collectives of every payload size in a row (shared memory between node peers
        // under MPI, `comm/mpi/shm_coll.rs`, unless ATOLL_MPI_SHM_COLL=0).
        "coll" => run(config, |ctx| {
            coll_scenarios::node_collectives(ctx, 120)?;
            Ok(String::new())
        }),
        // Active messages of every size from several tasks at once (byte rings in shared
        // memory between node peers under MPI, `comm/mpi/shm_am.rs`, unless
        // ATOLL_MPI_SHM_AM=0).
        "am" => run(config, |ctx| {
            active_messages_of_every_size(ctx)?;
            active_messages(ctx)?;
            Ok(String::new())
        }),
        "counts" => run(config, |ctx| {
            let all = fixed_pattern(ctx)?;
            Ok(format!("{all:?}"))
        }),
        "driver" => run_driver(config, |d| {
            let n = d.num_locales() as u64;
            let s = d.exec(&COLLECTIVE_SUM, 7)?;
            if s != vec![(0..n).map(|i| i + 7).sum::<u64>(); n as usize] {
                return Err(Error::InvalidArgument(format!("driver sum {s:?}")));
            }
            let r = d.exec(&ADD_ONE, vec![41])?;
            if r != vec![vec![42]; n as usize] {
                return Err(Error::InvalidArgument(format!("driver add_one {r:?}")));
            }
            Ok(String::new())
        }),
        // Driver commands that panic or fail on rank 0, 1 or N-1: outside collectives, while
        // the others wait for it in a collective, between collectives, or on every rank at the
        // same point (every mode of `fails_on`): each returns the failing rank's error and the
        // session goes on (a checked command follows each).
        "driver_failures" => run_driver(config, |d| {
            driver_failures(d, &[0, 1, 2, 3, 4, 5])?;
            Ok(String::new())
        }),
        // Failure scenarios: each must end the whole job, quickly, with a message.
        "panic" => run(config, |ctx| {
            if ctx.id() == ctx.num_locales() - 1 {
                std::thread::sleep(std::time::Duration::from_millis(200));
                panic!("selftest: the last locale panics on purpose");
            }
            ctx.barrier()?;
            Ok(String::new())
        }),
        "error" => run(config, |ctx| {
            if ctx.id() == 1 {
                return Err(Error::InvalidArgument("selftest: locale 1 returns an error on purpose".into()));
            }
            ctx.barrier()?;
            Ok(String::new())
        }),
        "die" => run(config, |ctx| {
            if ctx.id() == 1 {
                std::thread::sleep(std::time::Duration::from_millis(200));
                // A crash: no unwinding, no message from Atoll.
                std::process::abort();
            }
            ctx.barrier()?;
            Ok(String::new())
        }),
        "mismatch" => run(config.with_check_collectives(true), |ctx| {
            if ctx.id() == 0 {
                ctx.barrier()?;
            } else {
                ctx.allgather(&1u8)?;
            }
            Ok(String::new())
        }),
        // Collectives in different orders with checking off (the release default): rank 0 waits
        // in an allreduce the others never call. The waiting rank must say where it waits
        // (coll_note.rs) instead of hanging silently; this program ends itself after 12 s.
        "mismatch_unchecked" => run(config.with_check_collectives(false), |ctx| {
            std::thread::spawn(|| {
                std::thread::sleep(std::time::Duration::from_secs(12));
                eprintln!("selftest: mismatch_unchecked gives up");
                std::process::exit(3);
            });
            if ctx.id() == 0 {
                ctx.allreduce(1u64, |a, b| a + b)?;
            }
            Ok(String::new())
        }),
        // Each locale's host, in locale order (rank 0 prints them): what the MPI suite's
        // expectations of node peers follow.
        "hosts" => run(config, |ctx| {
            let hosts: Vec<String> = (0..ctx.num_locales()).map(|t| host_of(ctx, t)).collect();
            Ok(if ctx.id() == 0 { format!("hosts {}", hosts.join(" ")) } else { String::new() })
        }),
        // Communication for ATOLL_SELFTEST_SOAK_S seconds (default 20), for the cluster's
        // fault tests (tools/cluster/faults.py).
        "soak" => run(config, |ctx| {
            let secs = std::env::var("ATOLL_SELFTEST_SOAK_S").ok().and_then(|v| v.parse().ok()).unwrap_or(20.0);
            let it = soak(ctx, secs)?;
            Ok(if ctx.id() == 0 { format!("soak iterations {it}") } else { String::new() })
        }),
        other => {
            eprintln!("selftest: unknown scenario {other:?}");
            std::process::exit(2);
        }
    };
    match r {
        Ok(out) => {
            if !out.is_empty() {
                println!("{out}");
            }
            println!("selftest {what} ok");
        }
        Err(e) => {
            eprintln!("selftest {what} failed: {e}");
            std::process::exit(1);
        }
    }
}
