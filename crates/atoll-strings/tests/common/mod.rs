//! Shared test data: strings with the awkward cases (empty, non-ASCII, NUL, repeats).
#![allow(dead_code)]

/// Deterministic pseudo-random strings over a small alphabet with non-ASCII characters,
/// empty strings and repeats.
pub fn sample(n: usize, seed: u64) -> Vec<String> {
    let alphabet: Vec<char> = "abcAB .-_xyé日\u{0}1".chars().collect();
    let mut x = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    let mut next = move || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    (0..n)
        .map(|_| {
            let len = (next() % 9) as usize;
            (0..len).map(|_| alphabet[(next() % alphabet.len() as u64) as usize]).collect()
        })
        .collect()
}

/// Locale counts the tests run on.
pub const LOCALES: [usize; 4] = [1, 2, 3, 4];
