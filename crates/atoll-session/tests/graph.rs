//! Graphs on 1 to 4 locales, built from two arrays of edges, against a sequential traversal of
//! the same edge list: breadth-first levels (-1 where unreachable) and connected components
//! (the session's labels must split the vertices as the reference does).

mod common;

use atoll_session::graph::{self as g, Algo};
use atoll_session::DType;
use common::{data, i64s, on_1_to_4_locales, put_i64};
use std::collections::VecDeque;

/// An undirected graph of `n` vertices: a few random edges, a path, and isolated vertices.
fn edges(n: usize) -> (Vec<i64>, Vec<i64>) {
    let a = data(21, 60, (n / 2) as u64);
    let b = data(22, 60, (n / 2) as u64);
    let (mut src, mut dst): (Vec<i64>, Vec<i64>) = a.into_iter().zip(b).filter(|(x, y)| x != y).unzip();
    // A path over the upper half, away from the random part; the last vertices stay alone.
    for v in (n / 2)..(n - 4) {
        src.push(v as i64);
        dst.push(v as i64 + 1);
    }
    (src, dst)
}

fn adjacency(n: usize, src: &[i64], dst: &[i64]) -> Vec<Vec<usize>> {
    let mut adj = vec![Vec::new(); n];
    for (&a, &b) in src.iter().zip(dst) {
        adj[a as usize].push(b as usize);
        adj[b as usize].push(a as usize);
    }
    adj
}

fn bfs(adj: &[Vec<usize>], source: usize) -> Vec<i64> {
    let mut level = vec![-1i64; adj.len()];
    level[source] = 0;
    let mut q = VecDeque::from([source]);
    while let Some(v) = q.pop_front() {
        for &w in &adj[v] {
            if level[w] < 0 {
                level[w] = level[v] + 1;
                q.push_back(w);
            }
        }
    }
    level
}

#[test]
fn bfs_and_components_of_an_edge_list() {
    let n = 80;
    let (src, dst) = edges(n);
    let adj = adjacency(n, &src, &dst);
    on_1_to_4_locales(|s| {
        let (a, b) = (put_i64(s, &src), put_i64(s, &dst));
        let graph = g::from_edges(s, &a, &b, n, true).unwrap();
        assert_eq!(graph.n, n);
        for source in [0, 7, n / 2 + 3, n - 1] {
            let (levels, _) = g::run(s, &graph, Algo::Bfs { source: source as u64 }, DType::I64).unwrap();
            assert_eq!(i64s(s, &levels), bfs(&adj, source), "from {source}");
        }
        let (labels, _) = g::run(s, &graph, Algo::Cc, DType::I64).unwrap();
        let labels = i64s(s, &labels);
        for v in 0..n {
            let reach = bfs(&adj, v);
            for w in 0..n {
                assert_eq!(labels[v] == labels[w], reach[w] >= 0, "vertices {v} and {w}");
            }
        }
        graph.release();
    });
}
