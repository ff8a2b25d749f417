//! Handlers that panic, fail or were never registered: the same error whichever locale runs
//! them, and driver sessions that survive a failed command.

mod common;
use atoll_runtime::{run, Config, Ctx, Driver, Error, Handler, Result};
use common::scenarios::*;

fn panics(ctx: &Ctx, tag: u32) -> Result<u32> {
    panic!("handler panics on locale {} with tag {tag}", ctx.id());
}
static PANICS: Handler<u32, u32> = Handler::new("handler_failures::panics", panics);

fn echo(ctx: &Ctx, x: u64) -> Result<(usize, u64)> {
    Ok((ctx.id(), x))
}
/// Never registered on purpose.
static UNREGISTERED: Handler<u64, (usize, u64)> = Handler::new("handler_failures::unregistered", echo);

#[test]
fn a_failed_driver_command_leaves_the_session_usable() {
    register_all();
    for n in 1..=4 {
        for check in [false, true] {
            let d = Driver::start(Config::local(n).with_check_collectives(check)).unwrap();
            if let Err(e) = driver_failures(&d, &[0, 1, 2, 3, 4, 5, 6]) {
                panic!("{n} locales, collective checking {check}: {e}");
            }
            d.shutdown().unwrap();
        }
    }
}

/// Fails on the locales below `k`, after collectives that the other locales do not make (as a
/// handler's cleanup after a failure on some locales does): with `early`, the others end the
/// command at once (they are in its closing gather while the failing ones are in a barrier);
/// otherwise they go on to an allreduce and a barrier.
fn fails_on_some(ctx: &Ctx, (k, early): (usize, bool)) -> Result<u64> {
    if ctx.id() < k {
        ctx.barrier()?;
        return Err(Error::InvalidArgument(format!("locale {} has data that fails", ctx.id())));
    }
    if early {
        return Ok(0);
    }
    let s = ctx.allreduce(1u64, |a, b| a + b)?;
    ctx.barrier()?;
    Ok(s)
}
static FAILS_ON_SOME: Handler<(usize, bool), u64> = Handler::new("handler_failures::fails_on_some", fails_on_some);

#[test]
fn a_command_failing_on_some_locales_after_different_collectives_leaves_the_session_usable() {
    register_all();
    FAILS_ON_SOME.register();
    for n in 2..=4 {
        for check in [false, true] {
            let d = Driver::start(Config::local(n).with_check_collectives(check)).unwrap();
            for (k, early) in (1..n).flat_map(|k| [(k, true), (k, false)]) {
                for _ in 0..3 {
                    assert!(d.exec(&FAILS_ON_SOME, (k, early)).is_err(), "{n} locales, {k} failing");
                    assert_eq!(d.exec(&COLLECTIVE_SUM, 0).unwrap().len(), n, "{n} locales, {k} failing, check {check}");
                    assert_eq!(d.exec(&ADD_ONE, vec![1]).unwrap(), vec![vec![2]; n]);
                }
            }
            assert_eq!(d.exec(&FAILS_ON_SOME, (0, false)).unwrap(), vec![n as u64; n]);
            d.shutdown().unwrap();
        }
    }
}

#[test]
fn a_driver_command_that_panics_on_locale_0_returns_an_error() {
    register_all();
    PANICS.register();
    let d = Driver::start(Config::local(2)).unwrap();
    let e = d.exec(&PANICS, 7).unwrap_err();
    assert_eq!(
        e,
        Error::HandlerPanicked {
            locale: 0,
            handler: "handler_failures::panics".into(),
            message: "handler panics on locale 0 with tag 7".into()
        }
    );
    assert_eq!(d.exec(&ADD_ONE, vec![1]).unwrap(), vec![vec![2]; 2]);
    d.shutdown().unwrap();
}

#[test]
fn an_unregistered_command_fails_on_one_locale_too() {
    register_all();
    for n in 1..=3 {
        let d = Driver::start(Config::local(n)).unwrap();
        match d.exec(&UNREGISTERED, 1) {
            Err(Error::HandlerNotRegistered { name, locale: 0, .. }) => {
                assert_eq!(name, "handler_failures::unregistered")
            }
            other => panic!("{n} locales: {other:?}"),
        }
        assert_eq!(d.exec(&COLLECTIVE_SUM, 0).unwrap().len(), n);
        d.shutdown().unwrap();
    }
}

#[test]
fn on_self_checks_the_registry_like_a_remote_on() {
    for n in 1..=2 {
        let errs = run(Config::local(n), |ctx| {
            // Every locale asks itself and (with 2 locales) the other one.
            let targets: Vec<usize> = (0..ctx.num_locales()).collect();
            Ok(targets.iter().map(|&t| ctx.on(t, &UNREGISTERED, 5)).collect::<Vec<_>>())
        })
        .unwrap();
        for (t, e) in errs.into_iter().enumerate() {
            match e {
                Err(Error::HandlerNotRegistered { name, locale, .. }) => {
                    assert_eq!((name.as_str(), locale), ("handler_failures::unregistered", t))
                }
                other => panic!("{n} locales, target {t}: {other:?}"),
            }
        }
    }
    // The other forms of a call to oneself too.
    run(Config::local(1), |ctx| {
        assert!(matches!(ctx.on_async(0, &UNREGISTERED, 1)?.wait(), Err(Error::HandlerNotRegistered { .. })));
        assert!(matches!(ctx.on_sublocale(0, 0, &UNREGISTERED, 1), Err(Error::HandlerNotRegistered { .. })));
        assert!(matches!(ctx.coforall_locales(&UNREGISTERED, 1), Err(Error::HandlerNotRegistered { .. })));
        Ok(())
    })
    .unwrap();
}

#[test]
fn a_panicking_handler_gives_the_same_error_on_every_target() {
    PANICS.register();
    let n = 3;
    let got = run(Config::local(n), |ctx| {
        let mut v = Vec::new();
        for t in 0..ctx.num_locales() {
            v.push(ctx.on(t, &PANICS, t as u32));
            v.push(ctx.on_async(t, &PANICS, t as u32)?.wait());
            v.push(ctx.on_sublocale(t, 0, &PANICS, t as u32));
        }
        // The job goes on: a collective after the panics.
        ctx.barrier()?;
        Ok(v)
    })
    .unwrap();
    assert_eq!(got.len(), 3 * n);
    for (i, r) in got.into_iter().enumerate() {
        let t = i / 3;
        let want = Error::HandlerPanicked {
            locale: t,
            handler: "handler_failures::panics".into(),
            message: format!("handler panics on locale {t} with tag {t}"),
        };
        assert_eq!(r, Err(want), "target {t}, form {}", i % 3);
    }
}
