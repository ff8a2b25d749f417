//! Graph algorithms over the distributed operators. The graph of a matrix: vertex `i` has an
//! edge to `j` when entry `(i, j)` is stored; self loops (diagonal entries) are ignored by the
//! label-based algorithms.

pub mod bfs;
pub mod cc;
pub mod hitting;
pub mod lp;
pub mod pagerank;
