//! The scenarios of tests/common on the local backend with 1, 2, 3 and 4 locales, plus the
//! failure cases of the local backend.

mod common;
use atoll_runtime::{run, run_driver, CommCounts, Config, Driver, Error};
use common::scenarios::*;
use std::time::{Duration, Instant};

fn each_size(f: impl Fn(usize)) {
    register_all();
    for n in 1..=4 {
        f(n);
    }
}

#[test]
fn collectives_on_1_to_4_locales() {
    each_size(|n| run(Config::local(n), collectives).unwrap_or_else(|e| panic!("{n} locales: {e}")));
}

#[test]
fn rma_on_1_to_4_locales() {
    each_size(|n| run(Config::local(n), rma).unwrap_or_else(|e| panic!("{n} locales: {e}")));
}

#[test]
fn active_messages_on_1_to_4_locales() {
    each_size(|n| run(Config::local(n), active_messages).unwrap_or_else(|e| panic!("{n} locales: {e}")));
}

#[test]
fn tasks_on_1_to_4_locales() {
    each_size(|n| run(Config::local(n), tasks).unwrap_or_else(|e| panic!("{n} locales: {e}")));
}

#[test]
fn out_of_memory_on_1_to_4_locales() {
    each_size(|n| {
        run(Config::local(n).with_mem_max(OOM_LIMIT), out_of_memory).unwrap_or_else(|e| panic!("{n} locales: {e}"))
    });
}

#[test]
fn tasks_with_core_sublocales_and_no_pinning() {
    register_all();
    let c = Config::local(2).with_sublocales(atoll_runtime::SublocaleMode::Core).with_threads_per_locale(3);
    run(c.clone(), tasks).unwrap();
    run(c.with_pin(false), tasks).unwrap();
}

#[test]
fn counts_of_a_fixed_pattern() {
    each_size(|n| {
        let all = run(Config::local(n), fixed_pattern).unwrap();
        let want = if n == 1 { CommCounts::default() } else { expected_fixed_counts() };
        assert_eq!(all, vec![want; n], "{n} locales");
    });
}

#[test]
fn zero_locales_is_an_error() {
    assert_eq!(run(Config::local(0), |_| Ok(())).unwrap_err(), Error::ZeroLocales);
}

#[test]
fn a_panic_ends_the_job_with_its_message() {
    let t = Instant::now();
    let e = run(Config::local(4), |ctx| {
        if ctx.id() == 2 {
            std::thread::sleep(Duration::from_millis(50));
            panic!("locale two gives up");
        }
        // The others wait in collectives that can never complete.
        ctx.barrier()?;
        ctx.barrier()
    })
    .unwrap_err();
    assert!(t.elapsed() < Duration::from_secs(5));
    match e {
        Error::LocaleFailed { locale: 2, message } => assert!(message.contains("locale two gives up"), "{message}"),
        other => panic!("unexpected {other:?}"),
    }
}

#[test]
fn an_error_ends_the_job_and_is_returned_as_is() {
    register_all();
    let e = run(Config::local(3), |ctx| {
        if ctx.id() == 1 {
            return Err(Error::InvalidArgument("bad input on one".into()));
        }
        // Waiting for a reply from the failed locale's peers must not hang either.
        ctx.on((ctx.id() + 1) % 3, &ADD_ONE, vec![1])?;
        ctx.barrier()
    })
    .unwrap_err();
    assert_eq!(e, Error::InvalidArgument("bad input on one".into()));
}

#[test]
fn collectives_in_different_orders_are_detected() {
    let e = run(Config::local(2).with_check_collectives(true), |ctx| {
        if ctx.id() == 0 {
            ctx.barrier()
        } else {
            ctx.allgather(&1u8).map(|_| ())
        }
    })
    .unwrap_err();
    assert!(matches!(e, Error::CollectiveMismatch { .. }), "{e}");
    assert!(e.to_string().contains("barrier") && e.to_string().contains("allgather"), "{e}");
}

#[test]
fn a_locale_that_returns_early_is_detected() {
    let e =
        run(Config::local(2).with_check_collectives(true), |ctx| if ctx.id() == 0 { ctx.barrier() } else { Ok(()) })
            .unwrap_err();
    assert!(e.to_string().contains("the end of the job"), "{e}");
}

#[test]
fn driver_runs_collective_commands() {
    register_all();
    for n in 1..=4 {
        let r = run_driver(Config::local(n), |d| {
            let a = d.exec(&COLLECTIVE_SUM, 10)?;
            let b = d.exec(&ADD_ONE, vec![5])?;
            Ok((a, b))
        })
        .unwrap();
        let want = (0..n as u64).map(|i| i + 10).sum::<u64>();
        assert_eq!(r.0, vec![want; n]);
        assert_eq!(r.1, vec![vec![6]; n]);
    }
}

#[test]
fn driver_reports_handler_errors_and_unknown_handlers() {
    register_all();
    let d = Driver::start(Config::local(3)).unwrap();
    match d.exec(&FAILS, ()) {
        Err(Error::InvalidArgument(m)) => assert_eq!(m, "refused on locale 0"),
        other => panic!("{other:?}"),
    }
    match d.exec(&NOT_REGISTERED, ()) {
        Err(Error::HandlerNotRegistered { name, locale: 0, .. }) => assert_eq!(name, "scenarios::never_registered"),
        other => panic!("{other:?}"),
    }
    // The job is still usable afterwards.
    assert_eq!(d.exec(&ADD_ONE, vec![1]).unwrap(), vec![vec![2]; 3]);
    d.shutdown().unwrap();
}

#[test]
fn mpi_backend_without_the_feature_is_a_clear_error() {
    if cfg!(feature = "mpi") {
        return;
    }
    let e = run(Config::mpi(), |_| Ok(())).unwrap_err();
    assert!(matches!(e, Error::BackendUnavailable { .. }), "{e}");
}

#[test]
fn one_locale_with_a_sublocale_per_core() {
    register_all();
    let cores = atoll_runtime::topology::Machine::detect().cores.len();
    run(Config::local(1).with_sublocales(atoll_runtime::SublocaleMode::Core), |ctx| {
        let subs = ctx.here().children();
        assert_eq!(subs.len(), cores);
        for (i, s) in subs.iter().enumerate() {
            assert_eq!(s.cores().len(), 1);
            // Work started on a sublocale runs on its pinned threads.
            let name = s.run(|| std::thread::current().name().unwrap_or("").to_string());
            assert!(name.starts_with(&format!("atoll-l0-s{i}-")), "{name}");
            if let Some(cpu) = s.run(atoll_runtime::current_cpu) {
                assert_eq!(cpu, s.cores()[0]);
            }
            // `on` a sublocale of this locale runs there too.
            let (_, thread) = ctx.on_sublocale(0, i, &WHERE, ())?;
            assert!(thread.starts_with(&format!("atoll-l0-s{i}-")), "{thread}");
        }
        // A forall and a first-touch allocation split over the sublocales.
        let v = ctx.here().alloc_filled(100_001, 3u8);
        assert!(v.len() == 100_001 && v.iter().all(|&x| x == 3));
        tasks(ctx)
    })
    .unwrap();
}

#[test]
fn symmetric_parts_of_missing_locales_are_invalid_locale_errors() {
    for n in 1..=3 {
        run(Config::local(n), |ctx| {
            let a = ctx.alloc_symmetric::<u64>(4)?;
            let bad = Error::InvalidLocale { locale: n, num_locales: n };
            assert_eq!(a.try_ptr(n), Err(bad.clone()));
            assert_eq!(a.try_len_on(n), Err(bad.clone()));
            assert_eq!(a.len_on(n), 0);
            // The infallible accessor gives a pointer that every operation refuses.
            let mut x = [0u64; 1];
            assert_eq!(ctx.get(a.ptr(n), &mut x), Err(bad.clone()));
            assert_eq!(ctx.put(a.ptr(n + 5).add(1), &x), Err(Error::InvalidLocale { locale: n + 5, num_locales: n }));
            assert_eq!(a.try_ptr(n - 1), Ok(a.ptr(n - 1)));
            assert_eq!(a.try_len_on(0), Ok(4));
            a.free()
        })
        .unwrap();
    }
}
