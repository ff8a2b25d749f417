//! Arrays whose pieces target sublocales, on the local backend: 1, 2 and 4 locales, with one
//! sublocale per core (`ATOLL_SUBLOCALES=core`), one per locale (`none`) and per NUMA domain
//! (the default). The checks are in `common/sublocale_checks.rs` (shared with the MPI suite).

mod common;

use atoll_runtime::{run, Config, SublocaleMode};
use common::sublocale_checks;

fn check_all(locales: usize, mode: SublocaleMode) {
    let report = run(Config::local(locales).with_sublocales(mode), sublocale_checks::all).unwrap();
    println!("{locales} locales, {mode:?}: {report}");
}

#[test]
fn one_locale() {
    for mode in [SublocaleMode::Core, SublocaleMode::None, SublocaleMode::Numa] {
        check_all(1, mode);
    }
}

#[test]
fn two_locales() {
    for mode in [SublocaleMode::Core, SublocaleMode::None] {
        check_all(2, mode);
    }
}

#[test]
fn four_locales() {
    for mode in [SublocaleMode::Core, SublocaleMode::None] {
        check_all(4, mode);
    }
}

/// More threads than cores: every locale's sublocales still run their own pieces.
#[test]
fn one_locale_with_more_threads_than_cores() {
    let cfg = Config::local(1).with_sublocales(SublocaleMode::Core).with_threads_per_locale(5);
    run(cfg, sublocale_checks::all).unwrap();
}
