//! `Config::local` and `Config::mpi` with an invalid `ATOLL_*` variable in the environment:
//! `run` refuses to start with the error naming the variable and its value (one test in this
//! binary: it sets the process environment).

use atoll_runtime::{run, Config, Error};

#[test]
fn an_invalid_environment_variable_stops_run_with_its_name_and_value() {
    std::env::set_var("ATOLL_SUBLOCALES", "galaxies");
    let ran = std::sync::atomic::AtomicBool::new(false);
    let e = run(Config::local(2), |_| {
        ran.store(true, std::sync::atomic::Ordering::Relaxed);
        Ok(())
    })
    .unwrap_err();
    assert!(matches!(&e, Error::Config { key, value, .. } if key == "ATOLL_SUBLOCALES" && value == "galaxies"), "{e}");
    assert!(!ran.into_inner(), "the job must not start");
    let e = run(Config::mpi(), |_| Ok(())).unwrap_err();
    assert!(matches!(&e, Error::Config { key, .. } if key == "ATOLL_SUBLOCALES"), "{e}");
    std::env::remove_var("ATOLL_SUBLOCALES");
    run(Config::local(2), |_| Ok(())).unwrap();
}
