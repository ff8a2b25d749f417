//! The `auto` aggregation threshold model ([`CommModel::threshold`]): the smallest piece for
//! which one strided transfer is cheaper than one get per element, checked against the cost
//! model evaluated directly (an independent brute-force search) over a grid of models, plus
//! its edge cases.

use atoll_array::CommModel;

/// The model's cost of `k` elements of `e` bytes: (element gets, one strided transfer).
fn costs(m: &CommModel, k: usize, e: usize) -> (f64, f64) {
    (k as f64 * m.get_s, m.strided_base_s + (k * e) as f64 * m.strided_per_byte_s)
}

/// The smallest `k >= 2` with strided cheaper, by search (`None` if none up to `limit`).
fn brute(m: &CommModel, e: usize, limit: usize) -> Option<usize> {
    (2..=limit).find(|&k| {
        let (gets, strided) = costs(m, k, e);
        strided < gets
    })
}

#[test]
fn the_threshold_is_where_a_strided_transfer_becomes_cheaper() {
    let mut checked = 0;
    for get_us in [0.02, 0.5, 1.0, 2.7, 10.0] {
        for base_us in [0.0, 0.3, 1.0, 2.9, 7.5, 40.0] {
            for per_byte_ns in [0.0, 0.01, 0.1, 1.0] {
                for e in [1usize, 4, 8] {
                    let m = CommModel {
                        get_s: get_us * 1e-6,
                        strided_base_s: base_us * 1e-6,
                        strided_per_byte_s: per_byte_ns * 1e-9,
                    };
                    let t = m.threshold(e);
                    match brute(&m, e, 100_000) {
                        Some(k) => {
                            // Floating-point ties (k exactly at base / gain) may round either way.
                            let tie = |j: usize| {
                                let (gets, strided) = costs(&m, j, e);
                                (gets - strided).abs() <= 1e-9 * gets
                            };
                            assert!(
                                t == k || (t == k + 1 && tie(k)) || (t + 1 == k && tie(t)),
                                "{m:?} e={e}: model {t}, search {k}"
                            );
                            if t > 2 {
                                let (gets, strided) = costs(&m, t - 1, e);
                                assert!(
                                    strided >= gets * (1.0 - 1e-9),
                                    "{m:?} e={e}: below the threshold strided must not win"
                                );
                            }
                        }
                        None => assert!(t > 100_000, "{m:?} e={e}: never cheaper, but threshold {t}"),
                    }
                    checked += 1;
                }
            }
        }
    }
    assert_eq!(checked, 5 * 6 * 4 * 3);
}

#[test]
fn edge_cases() {
    // A strided transfer that costs more per element than a get never pays.
    let m = CommModel { get_s: 1e-6, strided_base_s: 1e-6, strided_per_byte_s: 1e-6 };
    assert_eq!(m.threshold(8), usize::MAX);
    // Free strided transfers: always (the minimum piece is 2 elements).
    let m = CommModel { get_s: 1e-6, strided_base_s: 0.0, strided_per_byte_s: 0.0 };
    assert_eq!(m.threshold(8), 2);
    // The MPI figures of BENCHMARKS (get 2.7 us, a strided get's fixed cost about the same):
    // the threshold is 2, so `auto` chooses as `static` does for every piece of 2 or more.
    let m = CommModel { get_s: 2.7e-6, strided_base_s: 2.6e-6, strided_per_byte_s: 0.2e-9 };
    assert_eq!(m.threshold(8), 2);
    // A fixed cost of 10 gets: pieces of up to 10 elements go element by element.
    let m = CommModel { get_s: 1e-6, strided_base_s: 10e-6, strided_per_byte_s: 0.0 };
    assert_eq!(m.threshold(8), 11);
}
