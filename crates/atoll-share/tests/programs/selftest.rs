//! The shared-array MPI test program (launched by `tests/mpi_launch.rs` under `mpiexec`):
//! every rank creates and writes its block file, rank 0 writes the metadata once; a plain
//! open and an attach from the same job see every rank's values; freeing removes the files.
//! Usage: `ATOLL_SHARE_SELFTEST_DIR=DIR atoll-share-selftest`; rank 0 prints `share selftest ok`.

use atoll_array::{dist, DistArray, ExprReduce};
use atoll_runtime::{run, Config, Result};
use atoll_share::{Access, ShareOptions, SharedArray, SharedFile};

fn main() {
    let dir = std::env::var("ATOLL_SHARE_SELFTEST_DIR").expect("ATOLL_SHARE_SELFTEST_DIR names the directory");
    let config = Config::from_env().unwrap_or_else(|e| {
        eprintln!("share selftest: {e}");
        std::process::exit(2)
    });
    let r: Result<usize> = run(config, |ctx| {
        let n = 1001;
        let mut a = SharedArray::<i64, 1>::create(ctx, "mpi", [n], ShareOptions::in_dir(&dir))?;
        a.array_mut()?.assign(&DistArray::from_fn(ctx, dist::block(ctx, [n])?, |[i]| 3 * i as i64 - 7)?.view())?;
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
            println!("share selftest ok");
        }
        Ok(_) => {}
        Err(e) => {
            eprintln!("share selftest failed: {e}");
            std::process::exit(1);
        }
    }
}
