//! What the area tests share: running a check on sessions of 1 to 4 locales (the local
//! backend, one session per process at a time), and copying values to and from the driver.

#![allow(dead_code)]

use atoll_session::commands as cmd;
use atoll_session::handoff::DriverSlice;
use atoll_session::strings::{self as st, Strs};
use atoll_session::{session, ArrRef, Array, DType, Node, Session};
use std::sync::Mutex;

/// Held while a test runs its sessions: the session is one per process, and the test harness
/// runs a file's tests on several threads.
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// Runs `check` on a session of each locale count from 1 to 4.
pub fn on_1_to_4_locales(check: impl Fn(&Session)) {
    let _g = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
    for n in 1..=4 {
        session::start(Some(n), Some("local")).unwrap();
        let s = Session::current().unwrap();
        assert_eq!(s.num_locales(), n);
        check(&s);
        drop(s);
        session::stop().unwrap();
    }
}

/// The whole array as an expression.
pub fn leaf(a: &Array) -> Node {
    Node::Leaf(ArrRef { id: a.id, start: 0, step: 1, len: a.len, base_len: a.len }, a.dtype)
}

/// A new int64 array holding `v`.
pub fn put_i64(s: &Session, v: &[i64]) -> Array {
    cmd::from_slice(s, DType::I64, DriverSlice::of(v)).unwrap()
}

/// A new float64 array holding `v`.
pub fn put_f64(s: &Session, v: &[f64]) -> Array {
    cmd::from_slice(s, DType::F64, DriverSlice::of(v)).unwrap()
}

/// A new bool array holding `v`.
pub fn put_bool(s: &Session, v: &[bool]) -> Array {
    let bytes: Vec<u8> = v.iter().map(|&b| u8::from(b)).collect();
    let a = cmd::from_slice(s, DType::U8, DriverSlice::of(&bytes)).unwrap();
    cmd::evaluate(s, &Node::Cast(Box::new(leaf(&a)), DType::Bool), v.len()).unwrap()
}

/// The int64 values of an array.
pub fn i64s(s: &Session, a: &Array) -> Vec<i64> {
    let mut out = vec![0i64; a.len];
    cmd::to_slice(s, &leaf(a), a.len, DriverSlice::of_mut(&mut out)).unwrap();
    out
}

/// The float64 values of an array.
pub fn f64s(s: &Session, a: &Array) -> Vec<f64> {
    let mut out = vec![0f64; a.len];
    cmd::to_slice(s, &leaf(a), a.len, DriverSlice::of_mut(&mut out)).unwrap();
    out
}

/// The bool values of an array.
pub fn bools(s: &Session, a: &Array) -> Vec<bool> {
    let mut out = vec![0u8; a.len];
    cmd::to_slice(s, &leaf(a), a.len, DriverSlice::of_mut(&mut out)).unwrap();
    out.into_iter().map(|b| b != 0).collect()
}

/// New strings holding `v`.
pub fn put_strs(s: &Session, v: &[&str]) -> Strs {
    let mut list: Vec<String> = v.iter().map(|x| x.to_string()).collect();
    st::from_list(s, &mut list).unwrap()
}

/// The strings' values.
pub fn strs(s: &Session, x: &Strs) -> Vec<String> {
    st::to_list(s, x).unwrap()
}

/// A deterministic pseudo-random sequence (splitmix64) for test data.
pub fn data(seed: u64, n: usize, modulo: u64) -> Vec<i64> {
    let mut z = seed;
    (0..n)
        .map(|_| {
            z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut x = z;
            x = (x ^ (x >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            x = (x ^ (x >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            ((x ^ (x >> 31)) % modulo) as i64
        })
        .collect()
}
