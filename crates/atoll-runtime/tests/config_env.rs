//! `Config::local` and `Config::mpi` with an invalid `ATOLL_*` variable in the environment:
//! `run` refuses to start with the error naming the variable and its value, unless the
//! caller's explicit settings make the variable unused (one test in this binary: it sets the
//! process environment).

use atoll_runtime::{run, Aggregation, Config, Driver, Error};

fn refused(key: &str, value: &str) {
    let ran = std::sync::atomic::AtomicBool::new(false);
    let e = run(Config::local(2), |_| {
        ran.store(true, std::sync::atomic::Ordering::Relaxed);
        Ok(())
    })
    .unwrap_err();
    assert!(matches!(&e, Error::Config { key: k, value: v, .. } if k == key && v == value), "{e}");
    assert!(!ran.into_inner(), "the job must not start");
    let e = Driver::start(Config::local(2)).err().expect("the driver must not start");
    assert!(matches!(&e, Error::Config { key: k, .. } if k == key), "{e}");
    let e = run(Config::mpi(), |_| Ok(())).unwrap_err();
    assert!(matches!(&e, Error::Config { key: k, .. } if k == key), "{e}");
}

#[test]
fn an_invalid_environment_variable_stops_run_with_its_name_and_value() {
    std::env::set_var("ATOLL_SUBLOCALES", "galaxies");
    refused("ATOLL_SUBLOCALES", "galaxies");
    std::env::remove_var("ATOLL_SUBLOCALES");
    run(Config::local(2), |_| Ok(())).unwrap();

    // The array layer's aggregation settings are checked at start like the others.
    std::env::set_var("ATOLL_AGGREGATION", "sometimes");
    refused("ATOLL_AGGREGATION", "sometimes");
    // An explicit setting wins over the variable.
    run(Config::local(2).with_aggregation(Aggregation::Static), |ctx| {
        assert_eq!(ctx.config().aggregation, Aggregation::Static);
        Ok(())
    })
    .unwrap();
    std::env::set_var("ATOLL_AGGREGATION", "off");
    run(Config::local(1), |ctx| {
        assert_eq!(ctx.config().aggregation, Aggregation::Off);
        Ok(())
    })
    .unwrap();
    std::env::remove_var("ATOLL_AGGREGATION");
    std::env::set_var("ATOLL_AGG_THRESHOLD", "many");
    refused("ATOLL_AGG_THRESHOLD", "many");
    std::env::set_var("ATOLL_AGG_THRESHOLD", "64");
    assert_eq!(Config::local(1).agg_threshold, Some(64));
    std::env::remove_var("ATOLL_AGG_THRESHOLD");

    // Variables that an explicit configuration does not use are not checked.
    std::env::set_var("ATOLL_LOCALES", "lots");
    std::env::set_var("ATOLL_BACKEND", "shmem");
    assert_eq!(run(Config::local(3), |ctx| Ok(ctx.num_locales())), Ok(3));
    assert!(matches!(Config::from_env(), Err(Error::Config { .. })));
    std::env::remove_var("ATOLL_LOCALES");
    std::env::remove_var("ATOLL_BACKEND");
    std::env::set_var("ATOLL_PIN", "perhaps");
    assert!(matches!(run(Config::local(1), |_| Ok(())), Err(Error::Config { key, .. }) if key == "ATOLL_PIN"));
    run(Config::local(1).with_pin(false), |_| Ok(())).unwrap();
    std::env::remove_var("ATOLL_PIN");
}
