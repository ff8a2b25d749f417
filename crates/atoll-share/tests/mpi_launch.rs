//! Shared arrays under MPI: this file's program on 2 and 3 ranks (each rank writes its own
//! block file, rank 0 the metadata after all; see the program).
#![cfg(feature = "mpi")]

use atoll_array::{dist, DistArray, ExprReduce};
use atoll_runtime::{run, Result};
use atoll_share::{Access, ShareOptions, SharedArray, SharedFile};
use atoll_testkit::{config, expect_ok, finish, launched, Program};
use std::time::Duration;

const PROGRAM: Program = Program::new("share_selftest_program");

/// The ranks' program, launched with the directory of the files: every rank creates and writes
/// its block file, rank 0 writes the metadata once; a plain open and an attach from the same
/// job see every rank's values; freeing removes the files. Rank 0 prints `share selftest ok`.
#[test]
#[ignore = "the MPI program of this file's launches"]
fn share_selftest_program() {
    let Some(dir) = launched() else { return };
    let r: Result<usize> = run(config("share selftest"), |ctx| {
        let n = 1001;
        let mut a = SharedArray::<i64, 1>::create(ctx, "mpi", [n], ShareOptions::in_dir(&dir))?;
        a.array_mut()?.assign(&DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[i]| 3 * i - 7)?.view())?;
        ctx.barrier()?;
        let want: Vec<i64> = (0..n as i64).map(|i| 3 * i - 7).collect();
        assert!(std::path::Path::new(&dir).join(format!("atoll-mpi-{}", ctx.id())).exists());
        if ctx.id() == 0 {
            let f = SharedFile::open("mpi", &dir, Access::ReadOnly)?;
            assert_eq!(f.nblocks(), ctx.num_locales());
            assert_eq!(f.to_vec::<i64>()?, want);
        }
        let b = SharedArray::<i64, 1>::attach(ctx, "mpi", &dir, Access::ReadOnly)?;
        assert_eq!(b.array().view().sum()?, want.iter().sum::<i64>());
        let mut c = DistArray::<i64, 1>::zeros(ctx, dist::block(ctx, [n])?)?;
        c.assign_expr(a.array() + 2 * b.array())?;
        assert_eq!(c.view().sum()?, 3 * want.iter().sum::<i64>());
        b.free()?;
        a.free()?;
        Ok(ctx.id())
    });
    match r {
        Ok(0) => {
            let left: Vec<_> = std::fs::read_dir(&dir)
                .map(|d| d.filter_map(|e| e.ok()).map(|e| e.file_name()).collect())
                .unwrap_or_default();
            assert!(left.is_empty(), "files left: {left:?}");
            finish("share selftest", Ok(String::new()))
        }
        Ok(_) => std::process::exit(0),
        Err(e) => finish("share selftest", Err(e)),
    }
}

fn ranks(n: usize) {
    let dir = std::env::temp_dir().join(format!("atoll-share-mpi-{n}-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    let cmd = PROGRAM.command(Some(n), dir.to_str().expect("a UTF-8 temporary directory"));
    expect_ok(cmd, &format!("the share selftest on {n} ranks"), "share selftest ok", Duration::from_secs(120));
    assert_eq!(std::fs::read_dir(&dir).unwrap().count(), 0);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn shared_arrays_under_mpi_on_2_and_3_ranks() {
    ranks(2);
    ranks(3);
}
