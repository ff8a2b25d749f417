//! Shared arrays: creation, attach from a plain process and from another job, the ordinary
//! array operations on them, file hygiene, every bad-file case, signals, and approach 1.
// `[a..b]` is a one-dimensional slice of an array, not a range in a vector.
#![allow(clippy::single_range_in_vec_init)]

use atoll_array::{dist, DistArray, ExprReduce};
use atoll_error::Error;
use atoll_runtime::{run, Config};
use atoll_share::{call_c_per_locale, meta, Access, ShareOptions, SharedArray, SharedFile};
use std::os::unix::fs::PermissionsExt;
use std::path::PathBuf;
use std::time::{Duration, Instant};

/// A fresh directory for one test (removed at the end of the test).
struct TempDir(PathBuf);
impl TempDir {
    fn new(tag: &str) -> Self {
        let p = std::env::temp_dir().join(format!("atoll-share-test-{tag}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&p);
        std::fs::create_dir_all(&p).unwrap();
        TempDir(p)
    }
    fn files(&self) -> Vec<String> {
        let mut v: Vec<String> =
            std::fs::read_dir(&self.0).unwrap().map(|e| e.unwrap().file_name().into_string().unwrap()).collect();
        v.sort();
        v
    }
}
impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

fn make_kept(dir: &TempDir, name: &str, locales: usize, n: usize) {
    let (d, name) = (dir.0.clone(), name.to_string());
    run(Config::local(locales), move |ctx| {
        let mut a = SharedArray::<f64, 1>::create(ctx, &name, [n], ShareOptions::in_dir(&d).keep(true))?;
        a.array_mut()?.assign(&DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[i]| i as f64 * 0.5)?.view())?;
        a.free()
    })
    .unwrap();
}

#[test]
fn operations_on_shared_arrays_match_a_sequential_reference() {
    let dir = TempDir::new("ops");
    for locales in [1, 2, 3] {
        let d = dir.0.clone();
        run(Config::local(locales), move |ctx| {
            let n = 1000;
            let mut a = SharedArray::<f64, 1>::create(ctx, "a", [n], ShareOptions::in_dir(&d))?;
            let mut b = SharedArray::<f64, 1>::create(ctx, "b", [n], ShareOptions::in_dir(&d))?;
            b.array_mut()?
                .assign(&DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[i]| (i * 7 % 13) as f64)?.view())?;
            let c = DistArray::<f64, 1>::from_fn(ctx, dist::block(ctx, [n])?, |[i]| i as f64)?;
            a.array_mut()?.assign_expr(b.array() + 3.0 * &c)?; // triad: shared, shared, private
            let want: Vec<f64> = (0..n).map(|i| (i * 7 % 13) as f64 + 3.0 * i as f64).collect();
            assert_eq!(a.array().gather(0)?.unwrap_or_else(|| want.clone()), want);
            // A slice, a shifted (unaligned) zip, a reduction.
            let s = a.array().slice([10..20])?.sum()?;
            assert_eq!(s, want[10..20].iter().sum::<f64>());
            let mut shifted = DistArray::<f64, 1>::zeros(ctx, dist::block(ctx, [n - 1])?)?;
            shifted.assign(&a.array().slice([1..n as i64])?)?;
            assert_eq!(shifted.get([0])?, want[1]);
            assert_eq!(b.array().view().max()?, 12.0);
            // The same bytes are in the files.
            if ctx.id() == 0 {
                let f = SharedFile::open("a", &d, Access::ReadOnly)?;
                assert_eq!(f.nblocks(), ctx.num_locales());
                assert_eq!(f.to_vec::<f64>()?, want);
            }
            ctx.barrier()?;
            a.free()?;
            b.free()
        })
        .unwrap();
        assert!(dir.files().is_empty(), "files left after free: {:?}", dir.files());
    }
}

#[test]
fn two_dimensional_arrays_share_their_boxes() {
    let dir = TempDir::new("2d");
    let d = dir.0.clone();
    run(Config::local(4), move |ctx| {
        let a = DistArray::<i32, 2>::from_fn(ctx, dist::block(ctx, [5, 7])?, |[i, j]| (10 * i + j) as i32)?;
        let mut s = SharedArray::<i32, 2>::create(ctx, "m", [5, 7], ShareOptions::in_dir(&d))?;
        s.array_mut()?.assign(&a.view())?;
        if ctx.id() == 0 {
            let f = SharedFile::open("m", &d, Access::ReadOnly)?;
            let want: Vec<i32> = (0..5).flat_map(|i| (0..7).map(move |j| 10 * i + j)).collect();
            assert_eq!(f.to_vec::<i32>()?, want);
        }
        ctx.barrier()?;
        s.free()
    })
    .unwrap();
}

#[test]
fn files_are_private_exclusive_and_kept_on_request() {
    let dir = TempDir::new("files");
    make_kept(&dir, "k", 2, 10);
    assert_eq!(dir.files(), vec!["atoll-k-0", "atoll-k-1", "atoll-k.meta"]);
    for f in dir.files() {
        let mode = std::fs::metadata(dir.0.join(&f)).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{f}");
    }
    // Creating it again fails on every locale, and leaves the existing files alone.
    let d = dir.0.clone();
    let r = run(Config::local(2), move |ctx| {
        match SharedArray::<f64, 1>::create(ctx, "k", [10], ShareOptions::in_dir(&d)) {
            Err(Error::SharedFile { reason, .. }) => assert!(reason.contains("exclusively"), "{reason}"),
            other => panic!("expected an exclusive-create error, got {:?}", other.map(|_| ())),
        }
        Ok(())
    });
    r.unwrap();
    assert_eq!(dir.files(), vec!["atoll-k-0", "atoll-k-1", "atoll-k.meta"]);
    assert_eq!(SharedFile::open("k", &dir.0, Access::ReadOnly).unwrap().to_vec::<f64>().unwrap()[3], 1.5);
    // A symbolic link where a block file would go is never followed.
    let target = dir.0.join("victim");
    std::fs::write(&target, b"keep me").unwrap();
    std::os::unix::fs::symlink(&target, dir.0.join("atoll-s-1")).unwrap();
    let d = dir.0.clone();
    run(Config::local(2), move |ctx| {
        let r = SharedArray::<u8, 1>::create(ctx, "s", [4], ShareOptions::in_dir(&d));
        assert!(matches!(r, Err(Error::SharedFile { .. })), "{:?}", r.map(|_| ()));
        Ok(())
    })
    .unwrap();
    assert_eq!(std::fs::read(&target).unwrap(), b"keep me");
    assert!(!dir.0.join("atoll-s-0").exists(), "locale 0's block of the failed creation was left behind");
    assert!(!dir.0.join("atoll-s.meta").exists());
    // A metadata file that is someone else's: the creation fails, leaves it alone, and
    // removes the block files it made.
    std::fs::write(dir.0.join("atoll-o.meta"), b"not ours").unwrap();
    let d = dir.0.clone();
    run(Config::local(2), move |ctx| {
        let r = SharedArray::<u8, 1>::create(ctx, "o", [4], ShareOptions::in_dir(&d));
        assert!(
            matches!(r, Err(Error::SharedFile { ref reason, .. }) if reason.contains("exclusively")),
            "{:?}",
            r.map(|_| ())
        );
        Ok(())
    })
    .unwrap();
    assert_eq!(std::fs::read(dir.0.join("atoll-o.meta")).unwrap(), b"not ours");
    assert!(!dir.0.join("atoll-o-0").exists() && !dir.0.join("atoll-o-1").exists());
    // Bad names.
    let d = dir.0.clone();
    run(Config::local(1), move |ctx| {
        for bad in ["", "../x", "a/b", ".hidden"] {
            assert!(
                matches!(
                    SharedArray::<u8, 1>::create(ctx, bad, [4], ShareOptions::in_dir(&d)),
                    Err(Error::InvalidArgument(_))
                ),
                "{bad:?}"
            );
        }
        Ok(())
    })
    .unwrap();
}

#[test]
fn another_job_attaches_read_write_and_read_only() {
    let dir = TempDir::new("attach");
    make_kept(&dir, "x", 3, 100);
    let d = dir.0.clone();
    run(Config::local(3), move |ctx| {
        let mut rw = SharedArray::<f64, 1>::attach(ctx, "x", &d, Access::ReadWrite)?;
        assert_eq!(rw.array().view().sum()?, (0..100).map(|i| i as f64 * 0.5).sum::<f64>());
        let mut t = DistArray::<f64, 1>::zeros(ctx, dist::block(ctx, [100])?)?;
        t.assign_expr(rw.array() * 2.0)?;
        rw.array_mut()?.assign(&t.view())?;
        let mut ro = SharedArray::<f64, 1>::attach(ctx, "x", &d, Access::ReadOnly)?;
        assert!(matches!(ro.array_mut(), Err(Error::InvalidArgument(_))));
        assert_eq!(ro.array().get([99])?, 99.0);
        // Wrong element type, rank, or job size: typed errors on every locale.
        assert!(matches!(SharedArray::<f32, 1>::attach(ctx, "x", &d, Access::ReadOnly), Err(Error::SharedFile { .. })));
        assert!(matches!(SharedArray::<f64, 2>::attach(ctx, "x", &d, Access::ReadOnly), Err(Error::SharedFile { .. })));
        rw.free()?;
        ro.free()
    })
    .unwrap();
    let d = dir.0.clone();
    run(Config::local(2), move |ctx| {
        match SharedArray::<f64, 1>::attach(ctx, "x", &d, Access::ReadOnly) {
            Err(Error::SharedFile { reason, .. }) => assert!(reason.contains("3 blocks"), "{reason}"),
            other => panic!("{:?}", other.map(|_| ())),
        }
        Ok(())
    })
    .unwrap();
    // Attaching never removes the files; the doubled values are there.
    let f = SharedFile::open("x", &dir.0, Access::ReadOnly).unwrap();
    assert_eq!(f.to_vec::<f64>().unwrap()[99], 99.0);
    // A read-only plain attach may store into its private copy; the file does not change.
    let mut p = SharedFile::open("x", &dir.0, Access::ReadOnly).unwrap();
    p.block_mut::<f64>(0).unwrap()[0] = -1.0;
    assert_eq!(SharedFile::open("x", &dir.0, Access::ReadOnly).unwrap().block::<f64>(0).unwrap()[0], 0.0);
    assert!(matches!(p.block::<i64>(0), Err(Error::SharedFile { .. })));
    assert!(matches!(p.block::<f64>(3), Err(Error::InvalidArgument(_))));
}

fn expect_file_error(dir: &TempDir, name: &str, needle: &str) {
    match SharedFile::open(name, &dir.0, Access::ReadOnly) {
        Err(Error::SharedFile { reason, .. }) => {
            assert!(reason.contains(needle), "{name}: expected {needle:?} in {reason:?}")
        }
        other => panic!("{name}: expected a SharedFile error containing {needle:?}, got {:?}", other.map(|_| ())),
    }
}

#[test]
fn truncated_foreign_and_corrupt_files_are_typed_errors() {
    let dir = TempDir::new("bad");
    let fresh = |name: &str| make_kept(&dir, name, 2, 64);
    let metap = |name: &str| meta::meta_path(&dir.0, name);
    // Missing.
    expect_file_error(&dir, "absent", "cannot open");
    // Foreign: not our magic.
    std::fs::write(metap("foreign"), b"#!/bin/sh\necho hello, this is not an array\n").unwrap();
    expect_file_error(&dir, "foreign", "bad magic");
    std::fs::write(metap("empty"), b"").unwrap();
    expect_file_error(&dir, "empty", "bad magic");
    // Truncated metadata: inside the header, and before the end of the control page.
    fresh("t1");
    let bytes = std::fs::read(metap("t1")).unwrap();
    std::fs::write(metap("t1"), &bytes[..40]).unwrap();
    expect_file_error(&dir, "t1", "truncated");
    fresh("t2");
    let f = std::fs::OpenOptions::new().write(true).open(metap("t2")).unwrap();
    f.set_len(200).unwrap();
    expect_file_error(&dir, "t2", "truncated");
    // Corrupt: one flipped bit in the block table.
    fresh("c");
    let mut bytes = std::fs::read(metap("c")).unwrap();
    bytes[70] ^= 1;
    std::fs::write(metap("c"), &bytes).unwrap();
    expect_file_error(&dir, "c", "checksum");
    // A newer format version (checksum recomputed: the version check speaks).
    fresh("v");
    let m = SharedFile::open("v", &dir.0, Access::ReadOnly).unwrap().meta().clone();
    let mut bytes = std::fs::read(metap("v")).unwrap();
    bytes[8] = 2;
    std::fs::write(metap("v"), &bytes).unwrap();
    expect_file_error(&dir, "v", "version 2");
    // An unknown dtype code.
    fresh("dt");
    let mut bytes = std::fs::read(metap("dt")).unwrap();
    bytes[12] = 99;
    std::fs::write(metap("dt"), &bytes).unwrap();
    expect_file_error(&dir, "dt", "dtype");
    // A truncated block file.
    fresh("tb");
    let f = std::fs::OpenOptions::new().write(true).open(dir.0.join("atoll-tb-1")).unwrap();
    f.set_len(8).unwrap();
    expect_file_error(&dir, "tb", "truncated or foreign");
    // A missing block file.
    fresh("mb");
    std::fs::remove_file(dir.0.join("atoll-mb-0")).unwrap();
    expect_file_error(&dir, "mb", "cannot open");
    // A metadata file that is a symbolic link is not followed.
    fresh("real");
    std::os::unix::fs::symlink(metap("real"), metap("link")).unwrap();
    expect_file_error(&dir, "link", "cannot open");
    // A valid file re-encoded with a path in a block name is refused (no escape from the directory).
    let mut evil = m.clone();
    evil.blocks[0].file = "../../etc/passwd".into();
    evil.write(&metap("evil")).unwrap();
    expect_file_error(&dir, "evil", "not a plain name");
    // And the bad-file errors reach every locale of a job that attaches.
    let d = dir.0.clone();
    run(Config::local(2), move |ctx| {
        for name in ["foreign", "t1", "c", "tb"] {
            assert!(
                matches!(SharedArray::<f64, 1>::attach(ctx, name, &d, Access::ReadOnly), Err(Error::SharedFile { .. })),
                "{name}"
            );
        }
        Ok(())
    })
    .unwrap();
}

#[test]
fn signals_count_posts_wake_waiters_and_time_out() {
    let dir = TempDir::new("sig");
    make_kept(&dir, "s", 1, 4);
    let f = SharedFile::open("s", &dir.0, Access::ReadWrite).unwrap();
    let g = SharedFile::open("s", &dir.0, Access::ReadWrite).unwrap(); // a second mapping
    let (a, b) = (f.signal(0).unwrap(), g.signal(0).unwrap());
    // Posts before the wait are counted, not lost.
    a.post(2).unwrap();
    assert_eq!(b.value(), 2);
    b.wait(Duration::from_secs(5)).unwrap();
    assert!(b.try_wait());
    assert!(!b.try_wait());
    assert_eq!(b.total_posted(), 2);
    // No post: a typed timeout after about the timeout, not a hang.
    let t = Instant::now();
    match b.wait(Duration::from_millis(50)) {
        Err(Error::Timeout { waited_ms, .. }) => assert!(waited_ms >= 50),
        other => panic!("expected a timeout, got {other:?}"),
    }
    assert!(t.elapsed() < Duration::from_secs(5));
    // A sleeping waiter is woken by a post through another mapping (ping-pong).
    std::thread::scope(|s| {
        s.spawn(|| {
            for _ in 0..100 {
                g.signal(1).unwrap().wait(Duration::from_secs(10)).unwrap();
                g.signal(2).unwrap().post(1).unwrap();
            }
        });
        for _ in 0..100 {
            f.signal(1).unwrap().post(1).unwrap();
            f.signal(2).unwrap().wait(Duration::from_secs(10)).unwrap();
        }
    });
    assert!(matches!(f.signal(32), Err(Error::InvalidArgument(_))));
    assert_eq!(f.generation(), 1);
    assert_eq!(g.bump_generation(), 2);
    assert_eq!(f.generation(), 2);
}

unsafe extern "C" fn scale_block(
    locale: u32,
    nlocales: u32,
    data: *mut std::ffi::c_void,
    len: u64,
    first: u64,
    user: *mut std::ffi::c_void,
) -> i32 {
    // SAFETY: the block of `len` f64s that call_c_per_locale passes, and the factor behind `user`.
    let (block, factor) =
        unsafe { (std::slice::from_raw_parts_mut(data.cast::<f64>(), len as usize), *user.cast::<f64>()) };
    for (k, x) in block.iter_mut().enumerate() {
        *x = (first + k as u64) as f64 * factor + locale as f64 * 0.0;
    }
    if nlocales == 0 {
        1
    } else {
        0
    }
}

unsafe extern "C" fn fail_on_one(
    locale: u32,
    _: u32,
    _: *mut std::ffi::c_void,
    _: u64,
    _: u64,
    _: *mut std::ffi::c_void,
) -> i32 {
    if locale == 1 {
        7
    } else {
        0
    }
}

#[test]
fn each_locale_calls_c_with_its_block() {
    let dir = TempDir::new("capi");
    let d = dir.0.clone();
    run(Config::local(3), move |ctx| {
        let mut a = SharedArray::<f64, 1>::create(ctx, "c", [50], ShareOptions::in_dir(&d))?;
        let mut factor = 3.0f64;
        // SAFETY: scale_block writes only its block and reads the factor.
        unsafe { call_c_per_locale(a.array_mut()?, scale_block, (&mut factor as *mut f64).cast())? };
        ctx.barrier()?;
        assert_eq!(a.array().view().sum()?, 3.0 * (0..50).sum::<i32>() as f64);
        // SAFETY: fail_on_one touches nothing.
        let r = unsafe { call_c_per_locale(a.array_mut()?, fail_on_one, std::ptr::null_mut()) };
        assert!(matches!(r, Err(Error::InvalidArgument(ref m)) if m.contains("returned 7 on locale 1")), "{r:?}");
        a.free()
    })
    .unwrap();
}

#[test]
fn a_plain_process_creates_and_a_job_attaches() {
    use atoll_share::CType;
    let dir = TempDir::new("plain");
    {
        let mut f = SharedFile::create("p", &dir.0, CType::U32, &[10], 3, false).unwrap();
        assert_eq!(dir.files(), vec!["atoll-p-0", "atoll-p-1", "atoll-p-2", "atoll-p.meta"]);
        let mut next = 0u32;
        for b in 0..f.nblocks() {
            for x in f.block_mut::<u32>(b).unwrap() {
                *x = next * next;
                next += 1;
            }
        }
        let d = dir.0.clone();
        run(Config::local(3), move |ctx| {
            let a = SharedArray::<u32, 1>::attach(ctx, "p", &d, Access::ReadOnly)?;
            assert_eq!(a.array().view().sum()?, (0..10u32).map(|i| i * i).sum::<u32>());
            a.free()
        })
        .unwrap();
        assert!(matches!(SharedFile::create("p", &dir.0, CType::U32, &[10], 3, false), Err(Error::SharedFile { .. })));
        assert!(matches!(SharedFile::create("q", &dir.0, CType::U32, &[10], 0, false), Err(Error::InvalidArgument(_))));
        assert!(matches!(
            SharedFile::create("q", &dir.0, CType::U32, &[1, 2, 3, 4], 1, false),
            Err(Error::InvalidArgument(_))
        ));
    }
    assert!(dir.files().is_empty(), "{:?}", dir.files());
    drop(SharedFile::create("kept", &dir.0, CType::F32, &[4, 4], 4, true).unwrap());
    assert_eq!(dir.files().len(), 5);
    assert_eq!(SharedFile::open("kept", &dir.0, Access::ReadOnly).unwrap().to_vec::<f32>().unwrap(), vec![0.0; 16]);
}

#[test]
fn sorts_run_unchanged_on_shared_arrays() {
    let dir = TempDir::new("sort");
    let d = dir.0.clone();
    run(Config::local(3), move |ctx| {
        let n = 5000;
        let key = |i: usize| ((i as u64).wrapping_mul(0x9e37_79b9_7f4a_7c15) >> 40) as i64 - (1 << 23);
        let mut k = SharedArray::<i64, 1>::create(ctx, "keys", [n], ShareOptions::in_dir(&d))?;
        k.array_mut()?.assign(&DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[i]| key(i as usize))?.view())?;
        let sorted = atoll_ops::sort(&k.array().view())?;
        let perm = atoll_ops::argsort(&k.array().view())?;
        let mut want: Vec<i64> = (0..n).map(key).collect();
        want.sort();
        if let (Some(s), Some(p)) = (sorted.gather(0)?, perm.gather(0)?) {
            assert_eq!(s, want);
            assert!(p.iter().enumerate().all(|(r, &i)| key(i as usize) == want[r]));
        }
        k.free()
    })
    .unwrap();
}

#[test]
fn an_array_taken_out_still_removes_its_files_when_freed() {
    let dir = TempDir::new("into");
    let d = dir.0.clone();
    let listing = dir.0.clone();
    run(Config::local(2), move |ctx| {
        let a = SharedArray::<u64, 1>::create(ctx, "i", [8], ShareOptions::in_dir(&d))?.into_array();
        ctx.barrier()?;
        assert_eq!(std::fs::read_dir(&listing).unwrap().count(), 3);
        ctx.barrier()?;
        a.free()
    })
    .unwrap();
    assert!(dir.files().is_empty(), "{:?}", dir.files());
}

/// Run by `files_of_a_process_that_exits_without_freeing_are_removed` in a child process.
#[test]
fn exit_helper() {
    let Ok(d) = std::env::var("ATOLL_SHARE_EXIT_HELPER") else { return };
    let kept = SharedFile::create("kept", &d, atoll_share::CType::I64, &[100], 2, true).unwrap();
    let gone = SharedFile::create("gone", &d, atoll_share::CType::I64, &[100], 2, false).unwrap();
    let (d2, job_dir) = (d.clone(), d.clone());
    run(Config::local(2), move |ctx| {
        // Taken out of its SharedArray and leaked, as a Python session ending with live arrays.
        std::mem::forget(SharedArray::<f64, 1>::create(ctx, "job", [10], ShareOptions::in_dir(&job_dir))?.into_array());
        Ok(())
    })
    .unwrap();
    assert!(std::path::Path::new(&d2).join("atoll-job.meta").exists());
    std::mem::forget((kept, gone));
    std::process::exit(0);
}

#[test]
fn files_of_a_process_that_exits_without_freeing_are_removed() {
    let dir = TempDir::new("exit");
    let st = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["exit_helper", "--exact", "--test-threads=1"])
        .env("ATOLL_SHARE_EXIT_HELPER", &dir.0)
        .status()
        .unwrap();
    assert!(st.success());
    assert_eq!(dir.files(), vec!["atoll-kept-0", "atoll-kept-1", "atoll-kept.meta"]);
}

#[test]
fn locales_without_elements_have_empty_block_files() {
    let dir = TempDir::new("empty");
    let d = dir.0.clone();
    run(Config::local(3), move |ctx| {
        let mut a = SharedArray::<i16, 1>::create(ctx, "e", [2], ShareOptions::in_dir(&d))?;
        a.array_mut()?.assign_expr(7i16)?;
        assert_eq!(a.array().view().sum()?, 14);
        if ctx.id() == 0 {
            let f = SharedFile::open("e", &d, Access::ReadOnly)?;
            assert_eq!(f.to_vec::<i16>()?, vec![7, 7]);
            assert_eq!(f.block::<i16>(2)?.len(), 0);
        }
        ctx.barrier()?;
        let b = SharedArray::<i16, 1>::attach(ctx, "e", &d, Access::ReadWrite)?;
        assert_eq!(b.array().view().sum()?, 14);
        b.free()?;
        a.free()
    })
    .unwrap();
    assert!(dir.files().is_empty());
}

#[test]
fn each_locale_loads_and_calls_a_c_function_by_name() {
    let dir = TempDir::new("dl");
    let src = dir.0.join("blk.c");
    std::fs::write(
        &src,
        "#include <stdint.h>\n\
         int fill(uint32_t loc, uint32_t nl, void *data, uint64_t len, uint64_t first, void *user) {\n\
           double *d = data; (void)loc; (void)nl;\n\
           for (uint64_t k = 0; k < len; k++) d[k] = (double)(first + k) * (double)(uintptr_t)user;\n\
           return 0; }\n\
         int fail_last(uint32_t loc, uint32_t nl, void *d, uint64_t len, uint64_t first, void *user) {\n\
           (void)d; (void)len; (void)first; (void)user; return loc + 1 == nl ? 9 : 0; }\n",
    )
    .unwrap();
    let lib = dir.0.join("libblk.so");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let st = std::process::Command::new(&cc)
        .args(["-shared", "-fPIC", "-O2", "-o"])
        .arg(&lib)
        .arg(&src)
        .status()
        .expect("a C compiler");
    assert!(st.success());
    let (d, lib) = (dir.0.clone(), lib.to_str().unwrap().to_string());
    run(Config::local(3), move |ctx| {
        let mut a = SharedArray::<f64, 1>::create(ctx, "dl", [40], ShareOptions::in_dir(&d))?;
        // SAFETY: `fill` has the CBlockFn signature and writes only its block.
        unsafe { atoll_share::call_c_symbol_per_locale(a.array_mut()?, &lib, "fill", 2)? };
        ctx.barrier()?;
        assert_eq!(a.array().view().sum()?, 2.0 * (0..40).sum::<i32>() as f64);
        // SAFETY: as above.
        let r = unsafe { atoll_share::call_c_symbol_per_locale(a.array_mut()?, &lib, "fail_last", 0) };
        assert!(matches!(r, Err(Error::InvalidArgument(ref m)) if m.contains("returned 9 on locale 2")), "{r:?}");
        // SAFETY: nothing is called: the symbol or library is missing.
        let r = unsafe { atoll_share::call_c_symbol_per_locale(a.array_mut()?, &lib, "nope", 0) };
        assert!(matches!(r, Err(Error::InvalidArgument(ref m)) if m.contains("no symbol nope")), "{r:?}");
        // SAFETY: as above.
        let r = unsafe { atoll_share::call_c_symbol_per_locale(a.array_mut()?, "/nonexistent/lib.so", "fill", 0) };
        assert!(matches!(r, Err(Error::InvalidArgument(ref m)) if m.contains("cannot load")), "{r:?}");
        a.free()
    })
    .unwrap();
}
