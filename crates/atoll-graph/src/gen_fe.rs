//! A 3-D finite-element-like stiffness pattern: an `nx x ny x nz` grid of nodes with `dof`
//! unknowns each, every unknown coupled to every unknown of the 27 nodes around it (itself
//! included). Nodes are numbered x fastest, so the matrix is banded (bandwidth about
//! `dof * nx * ny`) and symmetric; values: `-1` off the diagonal, row degree on it (a
//! diagonally dominant M-matrix).

use crate::csr::CsrMatrix;
use crate::entries::LocalEntries;
use crate::partition::Partition;
use atoll_error::{Error, Result};
use atoll_runtime::Ctx;

/// The bcsstk29-sized case: 13,992 rows (a 6 x 11 x 106 grid, 2 unknowns per node), about
/// 627k nonzeros.
pub const BCSSTK29_LIKE: (usize, usize, usize, usize) = (6, 11, 106, 2);

/// This locale's rows (Block) of the pattern, as entries.
///
/// # Errors
/// [`Error::InvalidArgument`] for an empty grid or `dof == 0`.
pub fn fe_entries(ctx: &Ctx, nx: usize, ny: usize, nz: usize, dof: usize) -> Result<(usize, LocalEntries)> {
    if nx == 0 || ny == 0 || nz == 0 || dof == 0 {
        return Err(Error::InvalidArgument(format!(
            "fe_banded: empty grid {nx} x {ny} x {nz} with {dof} unknowns per node"
        )));
    }
    let n = nx * ny * nz * dof;
    let part = Partition::new(n, ctx.num_locales());
    let mut e = LocalEntries::new(false);
    for row in part.range(ctx.id()) {
        let node = row / dof;
        let (x, y, z) = (node % nx, (node / nx) % ny, node / (nx * ny));
        let start = e.len();
        for dz in -1i64..=1 {
            for dy in -1i64..=1 {
                for dx in -1i64..=1 {
                    let (a, b, c) = (x as i64 + dx, y as i64 + dy, z as i64 + dz);
                    if a < 0 || b < 0 || c < 0 || a >= nx as i64 || b >= ny as i64 || c >= nz as i64 {
                        continue;
                    }
                    let nb = a as usize + nx * (b as usize + ny * c as usize);
                    for d in 0..dof {
                        let col = nb * dof + d;
                        if col != row {
                            e.push(row as u64, col as u64, -1.0);
                        }
                    }
                }
            }
        }
        let deg = (e.len() - start) as f64;
        e.push(row as u64, row as u64, deg + 1.0);
    }
    Ok((n, e))
}

/// The pattern as a CSR matrix. **Collective.**
///
/// # Errors
/// As [`fe_entries`] and [`CsrMatrix::from_entries`].
pub fn fe_banded(ctx: &Ctx, nx: usize, ny: usize, nz: usize, dof: usize) -> Result<CsrMatrix> {
    let (n, e) = fe_entries(ctx, nx, ny, nz, dof)?;
    CsrMatrix::from_entries(ctx, n, n, e)
}

/// The bcsstk29-sized matrix ([`BCSSTK29_LIKE`]). **Collective.**
///
/// # Errors
/// As [`fe_banded`].
pub fn bcsstk29_like(ctx: &Ctx) -> Result<CsrMatrix> {
    let (a, b, c, d) = BCSSTK29_LIKE;
    fe_banded(ctx, a, b, c, d)
}
