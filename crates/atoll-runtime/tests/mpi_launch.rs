//! The MPI suite: runs this file's program (`selftest_program`, one scenario of tests/common)
//! under `mpiexec -n 2` and `-n 4` (the project venv's MPICH; `ATOLL_MPIEXEC` names it, set by
//! the Makefile), or as one process on the local backend, and checks what it printed.
#![cfg(feature = "mpi")]

#[path = "common/coll_scenarios.rs"]
mod coll_scenarios;
mod common;
#[path = "common/shm_scenarios.rs"]
mod shm_scenarios;

use atoll_runtime::{run, run_driver, CommCounts, Error, Result};
use atoll_testkit::{config, finish, launched, run_limited, text, Program};
use common::scenarios::*;
use std::process::Output;
use std::time::Duration;

// Memory tracking on (count mode by default): the out-of-memory scenario checks that each
// rank's memory is attributed to it.
atoll_runtime::atoll_mem::track_memory!();

const PROGRAM: Program = Program::new("selftest_program");

/// The ranks' program, launched with the name of a scenario: prints `selftest <scenario> ok`
/// on locale 0 on success (after the scenario's output, if any).
#[test]
#[ignore = "the MPI program of this file's launches"]
fn selftest_program() {
    let Some(what) = launched() else { return };
    register_all();
    let config = config("selftest");
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
            let expected = !ctx.locales_share_process() && ctx.config().mpi_shm && ctx.num_locales() > 1;
            shm_scenarios::node_shared(ctx, expected)?;
            Ok(String::new())
        }),
        // Freed node segments kept for reuse under the cap of `Config::mpi_shm_keep`
        // (ATOLL_MPI_SHM_KEEP; 2 GiB when unset).
        "shm_keep" => run(config, |ctx| {
            let expected = !ctx.locales_share_process() && ctx.config().mpi_shm && ctx.num_locales() > 1;
            let cap = ctx.config().mpi_shm_keep as usize;
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
        "driver_failures" => {
            // Mode 6 (different collectives on the failing rank) is found only with checking.
            let modes: &[u8] = if config.check_collectives { &[0, 1, 2, 3, 4, 5, 6] } else { &[0, 1, 2, 3, 4, 5] };
            run_driver(config, |d| {
                driver_failures(d, modes)?;
                Ok(String::new())
            })
        }
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
    finish(&format!("selftest {what}"), r)
}

/// Runs the program with `n` ranks (or locally with `n` locales when `mpi` is false), with a
/// hard time limit so a hang fails the test instead of blocking the suite.
fn launch(n: usize, scenario: &str, mpi: bool, limit: Duration) -> (Output, Duration) {
    launch_env(n, scenario, mpi, limit, &[])
}

/// [`launch`] with extra environment variables.
fn launch_env(n: usize, scenario: &str, mpi: bool, limit: Duration, env: &[(&str, &str)]) -> (Output, Duration) {
    let mut cmd = PROGRAM.command(mpi.then_some(n), scenario);
    if !mpi {
        cmd.env("ATOLL_LOCALES", n.to_string());
    }
    cmd.envs(env.iter().copied());
    run_limited(cmd, &format!("{scenario} with {n} ranks"), limit)
}

fn ok(n: usize, scenario: &str) -> String {
    ok_env(n, scenario, &[])
}

fn ok_env(n: usize, scenario: &str, env: &[(&str, &str)]) -> String {
    let (out, _) = launch_env(n, scenario, true, Duration::from_secs(120), env);
    let (so, se) = text(&out);
    assert!(out.status.success(), "{scenario} on {n} ranks failed\nstdout:\n{so}\nstderr:\n{se}");
    assert!(so.contains(&format!("selftest {scenario} ok")), "{so}\n{se}");
    so
}

/// Each rank's host when `n` ranks are launched (the `hosts` scenario). The launcher may place
/// ranks on several hosts (`ATOLL_MPIEXEC=tools/cluster/layout-mpiexec`, the simulated
/// cluster): expectations about node peers follow the placement.
fn hosts(n: usize) -> Vec<String> {
    let so = ok(n, "hosts");
    let line = so.lines().find_map(|l| l.strip_prefix("hosts ")).unwrap_or_else(|| panic!("no hosts line in {so}"));
    line.split(' ').map(str::to_string).collect()
}

/// Whether `n` ranks are all placed on one host.
fn one_host(n: usize) -> bool {
    let h = hosts(n);
    h.iter().all(|x| *x == h[0])
}

/// `scenario` with `n` locales on the local backend (no mpiexec), with `env`.
fn ok_local(n: usize, scenario: &str, env: &[(&str, &str)]) {
    let (out, _) = launch_env(n, scenario, false, Duration::from_secs(60), env);
    let (so, se) = text(&out);
    assert!(
        out.status.success() && so.contains(&format!("selftest {scenario} ok")),
        "local {scenario}\nstdout:\n{so}\nstderr:\n{se}"
    );
}

#[test]
fn mpi_scenarios_on_2_ranks() {
    ok(2, "all");
}

#[test]
fn mpi_scenarios_on_4_ranks() {
    ok(4, "all");
}

/// The same scenarios with node-shared memory off: every transfer between ranks goes
/// through MPI RMA on the dynamic window (the path ranks on other nodes take).
#[test]
fn mpi_scenarios_on_2_ranks_without_node_shared_memory() {
    ok_env(2, "all", &[("ATOLL_MPI_SHM", "0")]);
}

/// Node-shared memory: growth, every transfer kind, reuse of freed addresses, nothing left
/// mapped (`comm/mpi/shm.rs`, with freed segments not kept: `ATOLL_MPI_SHM_KEEP=0`); then
/// with it off (MPI RMA) and on the local backend.
#[test]
fn node_shared_memory_between_ranks() {
    ok_env(2, "shm", &[("ATOLL_MPI_SHM_KEEP", "0")]);
    ok_env(3, "shm", &[("ATOLL_MPI_SHM_KEEP", "0")]);
    ok_env(2, "shm", &[("ATOLL_MPI_SHM", "0")]);
    ok_local(3, "shm", &[]);
}

/// Freed node segments kept for reuse (`comm/mpi/shm_pool.rs`): reused (same segment),
/// zeroed, seen right by every peer, and never more kept than the cap (8 MiB here); with
/// node sharing off and on the local backend the same values.
#[test]
fn node_shared_segments_kept_for_reuse() {
    let cap = [("ATOLL_MPI_SHM_KEEP", "8388608")];
    ok_env(2, "shm_keep", &cap);
    ok_env(3, "shm_keep", &cap);
    ok_env(2, "shm_keep", &[cap[0], ("ATOLL_MPI_SHM", "0")]);
    ok_local(2, "shm_keep", &cap);
}

/// Collectives between node peers through shared memory (`comm/mpi/shm_coll.rs`): payloads
/// around the 16 KiB slot (so rounds switch to MPI and back), every root, uneven sizes, on 2
/// and 3 ranks and oversubscribed (4 ranks on a 2-core host); then the same through MPI
/// collectives only, and on the local backend.
#[test]
fn node_collectives_in_shared_memory() {
    ok(2, "coll");
    ok(3, "coll");
    ok(4, "coll");
    ok_env(2, "coll", &[("ATOLL_MPI_SHM_COLL", "0")]);
    ok_env(3, "coll", &[("ATOLL_MPI_SHM", "0")]);
    ok_local(3, "coll", &[]);
}

/// Active messages between node peers through byte rings in shared memory
/// (`comm/mpi/shm_am.rs`): payloads from empty to several times a ring, many in flight from
/// several tasks, on 2 and 3 ranks and oversubscribed (4 ranks on a 2-core host); then through
/// MPI only, without node sharing, and on the local backend.
#[test]
fn active_messages_in_shared_memory() {
    ok(2, "am");
    ok(3, "am");
    ok(4, "am");
    ok_env(2, "am", &[("ATOLL_MPI_SHM_AM", "0")]);
    ok_env(3, "am", &[("ATOLL_MPI_SHM", "0")]);
    ok_local(3, "am", &[]);
}

#[test]
fn mpi_driver_mode_on_2_and_4_ranks() {
    ok(2, "driver");
    ok(4, "driver");
}

/// Every mode of `fails_on` (a rank failing outside collectives, while the others wait for it
/// in one, between collectives, on every rank), failing on rank 0, 1 and N-1, each followed
/// by a checked command. Before the abort protocol (`comm/mpi/abandon.rs`), mode 1 ended the
/// job with a collective mismatch (checks on) or hung (checks off, the release default).
#[test]
fn mpi_driver_commands_that_fail_leave_the_session_usable() {
    ok(2, "driver_failures");
    ok(4, "driver_failures");
}

#[test]
fn mpi_driver_failures_recover_with_collective_checking_off() {
    ok_env(2, "driver_failures", &[("ATOLL_CHECK_COLLECTIVES", "0")]);
    ok_env(4, "driver_failures", &[("ATOLL_CHECK_COLLECTIVES", "0")]);
}

#[test]
fn out_of_memory_is_the_same_on_every_rank_and_survived() {
    // Also under the local backend in the same program, with tracking installed.
    ok(2, "oom");
    ok_local(2, "oom", &[]);
}

#[test]
fn counts_are_identical_on_both_backends() {
    for n in [2, 4] {
        let mpi = ok(n, "counts");
        let (out, _) = launch(n, "counts", false, Duration::from_secs(60));
        let (local, se) = text(&out);
        assert!(out.status.success(), "{se}");
        let first = |s: &str| s.lines().next().unwrap_or_default().to_string();
        assert_eq!(first(&mpi), first(&local), "{n} locales");
        let want: Vec<CommCounts> = vec![common::scenarios::expected_fixed_counts(); n];
        assert_eq!(first(&mpi), format!("{want:?}"));
    }
}

fn fails_fast(n: usize, scenario: &str, message: &str) {
    let (out, took) = launch(n, scenario, true, Duration::from_secs(30));
    let (so, se) = text(&out);
    assert!(!out.status.success(), "{scenario} should fail\n{so}\n{se}");
    assert!(took < Duration::from_secs(10), "{scenario} took {took:?} to end the job");
    assert!(
        se.contains(message) || so.contains(message),
        "{scenario}: no '{message}' in\nstdout:\n{so}\nstderr:\n{se}"
    );
}

#[test]
fn a_panicking_rank_ends_the_job_with_its_message() {
    fails_fast(2, "panic", "the last locale panics on purpose");
    fails_fast(4, "panic", "the last locale panics on purpose");
}

#[test]
fn an_erroring_rank_ends_the_job_with_its_message() {
    fails_fast(2, "error", "locale 1 returns an error on purpose");
}

#[test]
fn a_dying_rank_ends_the_job_within_10_seconds() {
    // The launcher names the dead process and ends the others.
    fails_fast(2, "die", "BAD TERMINATION");
    fails_fast(4, "die", "BAD TERMINATION");
}

#[test]
fn mismatched_collectives_are_reported_under_mpi() {
    fails_fast(2, "mismatch", "collective mismatch");
}

#[test]
fn collectives_in_different_orders_do_not_hang_silently_with_checking_off() {
    if one_host(2) {
        // Node peers compare their notes in the shared-memory round (`shm_coll.rs`): rank 0's
        // allreduce meets rank 1's end-of-job barrier and both fail at once, naming them.
        fails_fast(2, "mismatch_unchecked", "collective mismatch");
        let (out, _) = launch(2, "mismatch_unchecked", true, Duration::from_secs(60));
        let (_, se) = text(&out);
        assert!(se.contains("allreduce") && se.contains("the end of the job"), "{se}");
    }
    // Through MPI collectives (forced here; the only way between hosts): before, rank 0
    // waited forever without a word (the program's own 12 s timer ends it); now it says where
    // it waits, and, every rank answering its heartbeats, that collectives may have been
    // called in different orders. The program's exit while a job runs ends the job with its
    // status (no crash of MPI under the exit, `raw::at_exit`).
    for env in [&[("ATOLL_MPI_SHM_COLL", "0")][..], &[]] {
        let (out, _) = launch_env(2, "mismatch_unchecked", true, Duration::from_secs(60), env);
        let (so, se) = text(&out);
        assert!(!out.status.success(), "{so}\n{se}");
        assert!(
            se.contains("has waited") && se.contains("allreduce") && se.contains("mpi_launch.rs:"),
            "no stall report in\nstdout:\n{so}\nstderr:\n{se}"
        );
        assert!(se.contains("every rank answers its heartbeats") && se.contains("in a different order"), "{se}");
        assert_eq!(out.status.code(), Some(3), "the program's own exit status\n{so}\n{se}");
        if one_host(2) {
            break;
        }
    }
}

#[test]
fn verbose_comm_traces_each_operation_with_its_source_location() {
    let (out, _) = launch_env(2, "counts", false, Duration::from_secs(60), &[("ATOLL_VERBOSE_COMM", "1")]);
    let (_, err) = text(&out);
    assert!(out.status.success(), "{err}");
    // fixed_pattern: 3 gets of 16 u64 from the next locale, from scenarios.rs.
    let gets = err
        .lines()
        .filter(|l| l.contains("locale 0 get 128 bytes with locale 1 at") && l.contains("scenarios.rs:"))
        .count();
    assert_eq!(gets, 3, "{err}");
    assert!(err.contains("locale 1 strided get 80 bytes with locale 0"), "{err}");
    assert!(err.contains("locale 0 active message"), "{err}");
}
