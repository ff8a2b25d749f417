//! Message counts of array operations on the local backend with 1-5 locales (the scenarios of
//! `common/scenarios.rs`, which the MPI suite runs too): aligned expressions and slices make no
//! message, shifted view assignment is one strided get per locale pair, gather one strided get
//! per remote locale, a misaligned follower one get per remote element (`off`) or one transfer
//! per chunk and remote owner (`static`), Block halo rows and columns one strided get per group
//! of rows and neighbour.

mod common;

use atoll_runtime::{run, Config};
use common::scenarios;

macro_rules! on_1_to_5_locales {
    ($($name:ident),*) => {$(
        #[test]
        fn $name() {
            scenarios::register_all();
            for n in 1..=5 {
                let r = run(Config::local(n), |ctx| scenarios::$name(ctx));
                assert!(r.is_ok(), "{n} locales: {:?}", r.unwrap_err());
            }
        }
    )*};
}

on_1_to_5_locales!(
    aligned_expressions_make_no_messages,
    creating_slices_makes_no_messages,
    shifted_view_assign_is_one_strided_get_per_locale_pair,
    gather_is_one_strided_get_per_remote_locale,
    misaligned_follower_transfers_by_aggregation_mode,
    written_follower_and_owning_expression,
    block_halos_are_one_strided_get_per_group,
    from_vec_and_single_elements,
    scan_moves_data_once,
    wavefront_scan,
    view_sent_with_on,
    ordered_reduce_with,
    aligned_and_misaligned_in_sequence
);

/// The counts are deterministic: two runs of every scenario give the same report.
#[test]
fn counts_are_the_same_from_run_to_run() {
    scenarios::register_all();
    for n in [2, 3] {
        let once = || run(Config::local(n), |ctx| scenarios::all(ctx).map(|r| scenarios::report(&r))).unwrap();
        assert_eq!(once(), once(), "{n} locales");
    }
}
