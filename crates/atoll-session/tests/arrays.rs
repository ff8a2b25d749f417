//! The arrays' commands and their NumPy semantics, checked against sequential computations on
//! 1 to 4 locales: creation by formula, sorting, gathers, scatters and masks,
//! integer arithmetic (wrapping, floor division and modulo with the divisor's sign, division by
//! zero), NaN handling, casts, reductions and scans (float products in global order), indexing,
//! assignments that read their own target, transfers, random streams (the same words in every
//! locale count), and bad trees refused before any data is read. The session is one per
//! process, so every case runs inside one test, locale count by locale count.

use atoll_session::commands::{self as cmd, ScanOp};
use atoll_session::eval::RedOp;
use atoll_session::handoff::DriverSlice;
use atoll_session::{session, ArrRef, Array, BinOp, DType, Node, Scal, Session, UnOp};

fn leaf(a: &Array) -> Node {
    Node::Leaf(ArrRef { id: a.id, start: 0, step: 1, len: a.len, base_len: a.len }, a.dtype)
}

fn view(a: &Array, start: i64, step: i64, len: usize) -> Node {
    Node::Leaf(ArrRef { id: a.id, start, step, len, base_len: a.len }, a.dtype)
}

fn bin(op: BinOp, a: Node, b: Node) -> Node {
    Node::Bin(op, Box::new(a), Box::new(b))
}

fn put_i64(s: &Session, v: &[i64]) -> Array {
    cmd::from_slice(s, DType::I64, DriverSlice::of(v)).unwrap()
}

fn put_f64(s: &Session, v: &[f64]) -> Array {
    cmd::from_slice(s, DType::F64, DriverSlice::of(v)).unwrap()
}

fn get_i64(s: &Session, e: &Node, n: usize) -> Vec<i64> {
    let mut out = vec![0i64; n];
    cmd::to_slice(s, e, n, DriverSlice::of_mut(&mut out)).unwrap();
    out
}

fn get_f64(s: &Session, e: &Node, n: usize) -> Vec<f64> {
    let mut out = vec![0f64; n];
    cmd::to_slice(s, e, n, DriverSlice::of_mut(&mut out)).unwrap();
    out
}

fn get_bool(s: &Session, e: &Node, n: usize) -> Vec<bool> {
    let mut out = vec![0u8; n];
    cmd::to_slice(s, e, n, DriverSlice::of_mut(&mut out)).unwrap();
    out.into_iter().map(|b| b != 0).collect()
}

fn put_u8(s: &Session, v: &[u8]) -> Array {
    cmd::from_slice(s, DType::U8, DriverSlice::of(v)).unwrap()
}

fn get_u8(s: &Session, e: &Node, n: usize) -> Vec<u8> {
    let mut out = vec![0u8; n];
    cmd::to_slice(s, e, n, DriverSlice::of_mut(&mut out)).unwrap();
    out
}

fn cast(e: Node, t: DType) -> Node {
    Node::Cast(Box::new(e), t)
}

/// uint8 (one byte per element): every pair of some edge values under every operation, against
/// u8 arithmetic done here (wrapping modulo 256, NumPy's zero for a division by zero and for a
/// shift by 8 or more); casts from and to the other dtypes wrap as NumPy's `astype`; sums of
/// the uint64 cast, extrema, scans, sorting, gathers and masks.
fn uint8_semantics(s: &Session) {
    let edge: [u8; 9] = [0, 1, 2, 3, 7, 8, 128, 200, 255];
    let (a, b): (Vec<u8>, Vec<u8>) = edge.iter().flat_map(|&p| edge.iter().map(move |&q| (p, q))).unzip();
    let (x, y) = (put_u8(s, &a), put_u8(s, &b));
    let n = a.len();
    let want = |op: BinOp, p: u8, q: u8| -> u8 {
        match op {
            BinOp::Add => p.wrapping_add(q),
            BinOp::Sub => p.wrapping_sub(q),
            BinOp::Mul => p.wrapping_mul(q),
            BinOp::FloorDiv => p.checked_div(q).unwrap_or(0),
            BinOp::Mod => p.checked_rem(q).unwrap_or(0),
            BinOp::Pow => (0..q).fold(1u8, |r, _| r.wrapping_mul(p)),
            BinOp::And => p & q,
            BinOp::Or => p | q,
            BinOp::Xor => p ^ q,
            BinOp::Shl => {
                if q < 8 {
                    p << q
                } else {
                    0
                }
            }
            BinOp::Shr => {
                if q < 8 {
                    p >> q
                } else {
                    0
                }
            }
            BinOp::Minimum => p.min(q),
            BinOp::Maximum => p.max(q),
            _ => unreachable!(),
        }
    };
    use BinOp::*;
    for op in [Add, Sub, Mul, FloorDiv, Mod, Pow, And, Or, Xor, Shl, Shr, Minimum, Maximum] {
        let got = get_u8(s, &bin(op, leaf(&x), leaf(&y)), n);
        for k in 0..n {
            assert_eq!(got[k], want(op, a[k], b[k]), "{} {op:?} {}", a[k], b[k]);
        }
        // With a scalar operand, on either side.
        let got = get_u8(s, &bin(op, leaf(&x), Node::Scalar(Scal::U8(3))), n);
        assert_eq!(got, a.iter().map(|&p| want(op, p, 3)).collect::<Vec<_>>(), "{op:?} 3");
        let got = get_u8(s, &bin(op, Node::Scalar(Scal::U8(200)), leaf(&y)), n);
        assert_eq!(got, b.iter().map(|&q| want(op, 200, q)).collect::<Vec<_>>(), "200 {op:?}");
    }
    let lt = get_bool(s, &bin(Lt, leaf(&x), leaf(&y)), n);
    assert_eq!(lt, a.iter().zip(&b).map(|(p, q)| p < q).collect::<Vec<_>>());
    assert!(cmd::evaluate(s, &bin(Div, leaf(&x), leaf(&y)), n).is_err(), "true division is float64's");
    let neg = get_u8(s, &Node::Un(UnOp::Neg, Box::new(leaf(&x))), n);
    assert_eq!(neg, a.iter().map(|p| p.wrapping_neg()).collect::<Vec<_>>());
    let inv = get_u8(s, &Node::Un(UnOp::Invert, Box::new(leaf(&x))), n);
    assert_eq!(inv, a.iter().map(|p| !p).collect::<Vec<_>>());
    // Casts: to the wider dtypes by value, from them keeping the low byte (floats through int64).
    assert_eq!(get_i64(s, &cast(leaf(&x), DType::I64), n), a.iter().map(|&p| p as i64).collect::<Vec<_>>());
    assert_eq!(get_f64(s, &cast(leaf(&x), DType::F64), n), a.iter().map(|&p| p as f64).collect::<Vec<_>>());
    assert_eq!(get_bool(s, &cast(leaf(&x), DType::Bool), n), a.iter().map(|&p| p != 0).collect::<Vec<_>>());
    let wide: Vec<i64> = vec![0, 255, 256, 300, -1, -256, -300, 1 << 40, i64::MIN, i64::MAX];
    let w = put_i64(s, &wide);
    assert_eq!(get_u8(s, &cast(leaf(&w), DType::U8), wide.len()), vec![0, 255, 0, 44, 255, 0, 212, 0, 0, 255]);
    let fl: Vec<f64> = vec![0.0, 1.5, 254.9, 255.5, -1.0, -2.7, 256.0, 300.0, 1000.25, -1000.75, f64::NAN];
    let f = put_f64(s, &fl);
    assert_eq!(get_u8(s, &cast(leaf(&f), DType::U8), fl.len()), vec![0, 1, 254, 255, 255, 254, 0, 44, 232, 24, 0]);
    // Reductions: sums of the uint64 cast (NumPy's dtype of a uint8 sum), extrema in uint8.
    let sum = cmd::reduce(s, &cast(leaf(&x), DType::U64), n, RedOp::Sum).unwrap();
    assert_eq!(sum, Some(Scal::U(a.iter().map(|&p| p as u64).sum())));
    assert_eq!(cmd::reduce(s, &leaf(&x), n, RedOp::Max).unwrap(), Some(Scal::U8(255)));
    assert_eq!(cmd::reduce(s, &leaf(&y), n, RedOp::Min).unwrap(), Some(Scal::U8(0)));
    let amax = a.iter().position(|&p| p == 255).unwrap();
    assert_eq!(cmd::reduce(s, &leaf(&x), n, RedOp::ArgMax).unwrap(), Some(Scal::I(amax as i64)));
    let cs = cmd::scan(s, &leaf(&x), n, ScanOp::Sum).unwrap();
    let wrapped: Vec<u8> = a
        .iter()
        .scan(0u8, |acc, &p| {
            *acc = acc.wrapping_add(p);
            Some(*acc)
        })
        .collect();
    assert_eq!(get_u8(s, &leaf(&cs), n), wrapped);
    // A stable sort of the bytes, a gather and a mask.
    let perm = cmd::argsort(s, &leaf(&y), n).unwrap();
    let mut idx: Vec<usize> = (0..n).collect();
    idx.sort_by_key(|&k| b[k]);
    assert_eq!(get_i64(s, &leaf(&perm), n), idx.iter().map(|&k| k as i64).collect::<Vec<_>>());
    let g = cmd::gather(s, &y, &leaf(&perm), n).unwrap();
    assert_eq!(g.dtype, DType::U8);
    assert_eq!(get_u8(s, &leaf(&g), n), idx.iter().map(|&k| b[k]).collect::<Vec<_>>());
    let m = cmd::compress(s, &leaf(&x), &bin(Gt, leaf(&x), leaf(&y)), n).unwrap();
    let kept: Vec<u8> = a.iter().zip(&b).filter(|(p, q)| p > q).map(|(p, _)| *p).collect();
    assert_eq!(get_u8(s, &leaf(&m), kept.len()), kept);
    // A strided view, read and written.
    assert_eq!(
        get_u8(s, &view(&x, n as i64 - 1, -3, n / 3), n / 3),
        a.iter().rev().step_by(3).copied().collect::<Vec<_>>()
    );
    let full = cmd::full(s, 5, Scal::U8(9)).unwrap();
    assert_eq!(get_u8(s, &leaf(&full), 5), vec![9; 5]);
}

/// NumPy's floor division and modulo of int64 (division by zero gives 0).
fn floor_div_mod(a: i64, b: i64) -> (i64, i64) {
    if b == 0 {
        return (0, 0);
    }
    let (q, r) = (a.wrapping_div(b), a.wrapping_rem(b));
    if r != 0 && ((r < 0) != (b < 0)) {
        (q - 1, r + b)
    } else {
        (q, r)
    }
}

fn integer_arithmetic(s: &Session) {
    let a: Vec<i64> = vec![7, -7, 7, -7, i64::MIN, i64::MAX, 0, 5, -1, 3];
    let b: Vec<i64> = vec![2, 2, -2, -2, -1, 1, 3, 0, 65, -64];
    let (x, y) = (put_i64(s, &a), put_i64(s, &b));
    let n = a.len();
    let fd = get_i64(s, &bin(BinOp::FloorDiv, leaf(&x), leaf(&y)), n);
    let md = get_i64(s, &bin(BinOp::Mod, leaf(&x), leaf(&y)), n);
    for k in 0..n {
        let (q, r) = floor_div_mod(a[k], b[k]);
        assert_eq!((fd[k], md[k]), (q, r), "{} // % {}", a[k], b[k]);
    }
    let sum = get_i64(s, &bin(BinOp::Add, leaf(&x), leaf(&y)), n);
    let mul = get_i64(s, &bin(BinOp::Mul, leaf(&x), leaf(&y)), n);
    for k in 0..n {
        assert_eq!(sum[k], a[k].wrapping_add(b[k]));
        assert_eq!(mul[k], a[k].wrapping_mul(b[k]));
    }
    // Shifts of 64 bits or more give 0 (left) or the sign (right), as NumPy's.
    let sh = get_i64(s, &bin(BinOp::Shr, leaf(&x), Node::Scalar(Scal::I(70))), n);
    for k in 0..n {
        assert_eq!(sh[k], if a[k] < 0 { -1 } else { 0 });
    }
    let shl = get_i64(s, &bin(BinOp::Shl, leaf(&x), Node::Scalar(Scal::I(64))), n);
    assert!(shl.iter().all(|&v| v == 0));
    // An integer to a negative power is an error, on every locale alike.
    let e = cmd::evaluate(s, &bin(BinOp::Pow, leaf(&x), leaf(&y)), n).unwrap_err();
    assert!(e.to_string().contains("negative integer powers"), "{e}");
    // The session goes on.
    let sq = get_i64(s, &bin(BinOp::Pow, leaf(&x), Node::Scalar(Scal::I(2))), n);
    assert_eq!(sq, a.iter().map(|v| v.wrapping_mul(*v)).collect::<Vec<_>>());
}

fn floats_and_casts(s: &Session) {
    let a = vec![1.5, -2.5, f64::NAN, 0.5, -0.0, 3.0];
    let b = vec![2.0, f64::NAN, 1.0, -0.5, 0.0, 3.0];
    let (x, y) = (put_f64(s, &a), put_f64(s, &b));
    let n = a.len();
    let mn = get_f64(s, &bin(BinOp::Minimum, leaf(&x), leaf(&y)), n);
    for k in 0..n {
        if a[k].is_nan() || b[k].is_nan() {
            assert!(mn[k].is_nan(), "minimum propagates NaN");
        } else {
            assert_eq!(mn[k], a[k].min(b[k]));
        }
    }
    let r = get_f64(s, &Node::Un(UnOp::Round, Box::new(leaf(&x))), n);
    assert_eq!(r[0], 2.0); // half to even
    assert_eq!(r[1], -2.0);
    assert_eq!(r[3], 0.0);
    let isnan = get_bool(s, &Node::Un(UnOp::IsNan, Box::new(leaf(&x))), n);
    assert_eq!(isnan, a.iter().map(|v| v.is_nan()).collect::<Vec<_>>());
    let lt = get_bool(s, &bin(BinOp::Lt, leaf(&x), leaf(&y)), n);
    assert_eq!(lt, a.iter().zip(&b).map(|(p, q)| p < q).collect::<Vec<_>>());
    // float -> int64 truncates toward zero.
    let fin = put_f64(s, &[1.9, -1.9, 0.5, -0.5]);
    let c = get_i64(s, &Node::Cast(Box::new(leaf(&fin)), DType::I64), 4);
    assert_eq!(c, vec![1, -1, 0, 0]);
    // Division of floats by zero follows IEEE.
    let d = get_f64(s, &bin(BinOp::Div, leaf(&fin), Node::Scalar(Scal::F(0.0))), 4);
    assert_eq!(d, vec![f64::INFINITY, f64::NEG_INFINITY, f64::INFINITY, f64::NEG_INFINITY]);
}

fn reductions_and_scans(s: &Session) {
    let v: Vec<i64> = (0..10_000).map(|i| (i * 7919) % 1013 - 500).collect();
    let x = put_i64(s, &v);
    let n = v.len();
    let red = |op| cmd::reduce(s, &leaf(&x), n, op).unwrap();
    assert_eq!(red(RedOp::Sum), Some(Scal::I(v.iter().sum())));
    assert_eq!(red(RedOp::Min), Some(Scal::I(*v.iter().min().unwrap())));
    let first_max = v.iter().enumerate().max_by_key(|(i, &x)| (x, std::cmp::Reverse(*i))).unwrap().0;
    assert_eq!(red(RedOp::ArgMax), Some(Scal::I(first_max as i64)));
    assert_eq!(red(RedOp::IsSorted), Some(Scal::B(false)));
    let empty = put_i64(s, &[]);
    assert_eq!(cmd::reduce(s, &leaf(&empty), 0, RedOp::Sum).unwrap(), None);
    let cs = cmd::scan(s, &leaf(&x), n, ScanOp::Sum).unwrap();
    let want: Vec<i64> = v
        .iter()
        .scan(0i64, |a, &b| {
            *a += b;
            Some(*a)
        })
        .collect();
    assert_eq!(get_i64(s, &leaf(&cs), n), want);
    // Float products in global order: overflow then underflow gives what one loop gives.
    for vals in
        [vec![1e-300, 1e-300, 1e300, 1e300], vec![1e300, 1e300, 1e-300, 1e-300], vec![1e200, 0.5, 1e200, 1e-200, 3.0]]
    {
        let f = put_f64(s, &vals);
        let seq = vals.iter().fold(1.0f64, |a, b| a * b);
        match cmd::reduce(s, &leaf(&f), vals.len(), RedOp::Prod).unwrap() {
            Some(Scal::F(p)) => assert!(p == seq || (p.is_nan() && seq.is_nan()), "{vals:?}: {p} vs {seq}"),
            other => panic!("{other:?}"),
        }
        let cp = cmd::scan(s, &leaf(&f), vals.len(), ScanOp::Prod).unwrap();
        let want: Vec<f64> = vals
            .iter()
            .scan(1.0f64, |a, &b| {
                *a *= b;
                Some(*a)
            })
            .collect();
        assert_eq!(get_f64(s, &leaf(&cp), vals.len()), want);
    }
}

fn indexing_and_aliasing(s: &Session) {
    let v: Vec<i64> = (0..1001).map(|i| i * 3 - 100).collect();
    let n = v.len();
    let x = put_i64(s, &v);
    // Reversed view assigned into its own array: the right-hand side as it was.
    let rev = view(&x, n as i64 - 1, -1, n);
    let idx = cmd::arange(s, n, 0, 1).unwrap();
    cmd::scatter(s, &x, &leaf(&idx), &rev, n).unwrap();
    let want: Vec<i64> = v.iter().rev().copied().collect();
    assert_eq!(get_i64(s, &leaf(&x), n), want);
    // x = x + x[::-1] (whole, aliased): no element sees another's new value.
    cmd::assign(
        s,
        ArrRef { id: x.id, start: 0, step: 1, len: n, base_len: n },
        &bin(BinOp::Add, leaf(&x), rev.clone()),
    )
    .unwrap();
    let want2: Vec<i64> = (0..n).map(|i| want[i] + want[n - 1 - i]).collect();
    assert_eq!(get_i64(s, &leaf(&x), n), want2);
    // x[1:] = x[:-1] (a shifted view of itself).
    cmd::assign(s, ArrRef { id: x.id, start: 1, step: 1, len: n - 1, base_len: n }, &view(&x, 0, 1, n - 1)).unwrap();
    let mut want3 = want2.clone();
    want3.copy_within(0..n - 1, 1);
    assert_eq!(get_i64(s, &leaf(&x), n), want3);
    // Gather by itself and compress.
    let small = put_i64(s, &[2, 0, 1, 1]);
    assert_eq!(get_i64(s, &leaf(&cmd::gather(s, &small, &leaf(&small), 4).unwrap()), 4), vec![1, 2, 0, 0]);
    let mask = bin(BinOp::Gt, leaf(&small), Node::Scalar(Scal::I(0)));
    let kept = cmd::compress(s, &leaf(&small), &mask, 4).unwrap();
    assert_eq!(get_i64(s, &leaf(&kept), kept.len), vec![2, 1, 1]);
    assert!(cmd::get(s, &small, 4).is_err());
    assert_eq!(cmd::get(s, &small, 3).unwrap(), Scal::I(1));
}

fn bad_trees_are_refused(s: &Session) {
    let b = cmd::full(s, 3, Scal::B(true)).unwrap();
    let round = Node::Un(UnOp::Round, Box::new(leaf(&b)));
    assert!(round.validate().is_err());
    assert!(cmd::evaluate(s, &round, 3).is_err());
    let mixed = bin(BinOp::Add, leaf(&b), Node::Scalar(Scal::I(1)));
    assert!(mixed.validate().is_err());
    // Nothing is left behind: later commands work.
    assert_eq!(cmd::reduce(s, &leaf(&cmd::arange(s, 10, 0, 1).unwrap()), 10, RedOp::Sum).unwrap(), Some(Scal::I(45)));
}

/// The first word of element `i`'s stream under `seed`, the derivation `atoll_util::Stream`
/// documents, written out: the key `mix(mix(seed) + i * gamma)`, an odd step from Murmur3's
/// finalizer of the key, and splitmix64's finalizer of `key + step` (the stream of `randint`
/// and `uniform`, the same in every locale count).
fn first_word(seed: u64, i: u64) -> u64 {
    const G: u64 = 0x9E37_79B9_7F4A_7C15;
    let fin = |mut z: u64| {
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let mix = |z: u64| fin(z.wrapping_add(G));
    let key = mix(mix(seed).wrapping_add(i.wrapping_mul(G)));
    let mut z = key ^ 0x6A09_E667_F3BC_C909;
    z = (z ^ (z >> 33)).wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    z = (z ^ (z >> 33)).wrapping_mul(0xC4CE_B9FE_1A85_EC53);
    let mut step = (z ^ (z >> 33)) | 1;
    if (step ^ (step >> 1)).count_ones() < 24 {
        step ^= 0xAAAA_AAAA_AAAA_AAAA;
    }
    fin(key.wrapping_add(step))
}

fn random_streams(s: &Session) {
    let n = 200_003;
    let (lo, hi, seed) = (-50i64, 1000i64, 0xA7011u64);
    let a = cmd::randint(s, n, lo, hi, seed).unwrap();
    let want: Vec<i64> =
        (0..n as u64).map(|i| lo + ((first_word(seed, i) as u128 * (hi - lo) as u128) >> 64) as i64).collect();
    assert_eq!(get_i64(s, &leaf(&a), n), want);
    let u = cmd::uniform(s, n, 2.0, 3.0, seed).unwrap();
    let want: Vec<f64> =
        (0..n as u64).map(|i| 2.0 + (first_word(seed, i) >> 11) as f64 * (1.0 / (1u64 << 53) as f64)).collect();
    assert_eq!(get_f64(s, &leaf(&u), n), want);
}

fn threads_get_their_own_data(s: &Session) {
    std::thread::scope(|sc| {
        for t in 0..4i64 {
            sc.spawn(move || {
                let s = Session::current().unwrap();
                for r in 0..10 {
                    let v: Vec<i64> = (0..(500 + 37 * t + r)).map(|i| i * t).collect();
                    let x = put_i64(&s, &v);
                    assert_eq!(get_i64(&s, &leaf(&x), v.len()), v);
                }
            });
        }
    });
    let _ = s;
}

/// Creation by formula, the stable argsort, and bulk indexing (gather, scatter, compress)
/// against the same computed here.
fn creation_sorting_indexing(s: &Session) {
    let n = 1001;
    let a = cmd::arange(s, n, -7, 3).unwrap();
    assert_eq!(get_i64(s, &leaf(&a), n), (0..n as i64).map(|i| -7 + 3 * i).collect::<Vec<_>>());
    let f = cmd::full(s, 17, Scal::F(2.5)).unwrap();
    assert_eq!(get_f64(s, &leaf(&f), 17), vec![2.5; 17]);
    let l = cmd::linspace(s, 11, 0.0, 0.1, 1.0, true).unwrap();
    let want: Vec<f64> = (0..11).map(|i| if i == 10 { 1.0 } else { i as f64 * 0.1 }).collect();
    assert_eq!(get_f64(s, &leaf(&l), 11), want);
    // Repeated values: a stable sort keeps equal values in their order.
    let v: Vec<i64> = (0..n as i64).map(|i| (i * 7919) % 97 - 40).collect();
    let x = put_i64(s, &v);
    let p = cmd::argsort(s, &leaf(&x), n).unwrap();
    let mut want: Vec<i64> = (0..n as i64).collect();
    want.sort_by_key(|&i| v[i as usize]);
    assert_eq!(get_i64(s, &leaf(&p), n), want);
    // Gather at indices in any order, with repeats.
    let idx: Vec<i64> = (0..500).map(|i| (i * 389) % n as i64).collect();
    let ix = put_i64(s, &idx);
    let g = cmd::gather(s, &x, &leaf(&ix), idx.len()).unwrap();
    assert_eq!(get_i64(s, &leaf(&g), idx.len()), idx.iter().map(|&i| v[i as usize]).collect::<Vec<_>>());
    // Scatter to distinct indices.
    let dst = put_i64(s, &v);
    let targets: Vec<i64> = (0..n as i64).filter(|i| i % 3 == 1).rev().collect();
    let vals: Vec<i64> = targets.iter().map(|i| -i).collect();
    let (t, w) = (put_i64(s, &targets), put_i64(s, &vals));
    cmd::scatter(s, &dst, &leaf(&t), &leaf(&w), targets.len()).unwrap();
    let mut want = v.clone();
    for (&i, &x) in targets.iter().zip(&vals) {
        want[i as usize] = x;
    }
    assert_eq!(get_i64(s, &leaf(&dst), n), want);
    // A mask keeps the elements where it is true, in order.
    let mask = bin(BinOp::Gt, leaf(&x), Node::Scalar(Scal::I(0)));
    let c = cmd::compress(s, &leaf(&x), &mask, n).unwrap();
    assert_eq!(get_i64(s, &leaf(&c), c.len), v.iter().copied().filter(|&x| x > 0).collect::<Vec<_>>());
}

#[test]
fn numpy_semantics_on_one_to_four_locales() {
    for n in 1..=4 {
        session::start(Some(n), Some("local")).unwrap();
        let s = Session::current().unwrap();
        assert_eq!(s.num_locales(), n);
        integer_arithmetic(&s);
        floats_and_casts(&s);
        uint8_semantics(&s);
        reductions_and_scans(&s);
        indexing_and_aliasing(&s);
        bad_trees_are_refused(&s);
        threads_get_their_own_data(&s);
        random_streams(&s);
        creation_sorting_indexing(&s);
        drop(s);
        session::stop().unwrap();
    }
    // Impossible locale counts are refused before anything starts.
    assert!(session::start(Some(1 << 40), Some("local")).is_err());
    assert!(!session::running());
}
