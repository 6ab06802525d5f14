//! UTS, the Unbalanced Tree Search benchmark (S. Olivier, J. Huan, J. Liu,
//! J. Prins, J. Dinan, P. Sadayappan, C.-W. Tseng: "UTS: An Unbalanced Tree
//! Search Benchmark", LCPC 2006), one task per node.
//!
//! The tree is implicit: a node is 20 bytes of state and its depth. The
//! root's state is SHA-1 of 16 zero bytes followed by the root id (4 bytes,
//! big-endian); child `i`'s is SHA-1 of the parent's 20 bytes followed by `i`
//! (4 bytes, big-endian). A node's random number is bytes 16..20 of its
//! *own* state, big-endian, masked with `0x7fff_ffff`, as a probability
//! `u = r / 2^31`; it decides how many children the node has. The root is at
//! depth 0. This is the reference's `rng_rand`, `rng_toProb` and
//! `uts_numChildren` (with its `BRG_SHA1` generator), and it reproduces the
//! published node counts:
//!
//! * T1, geometric with a fixed shape (`-t 1 -a 3 -d 10 -b 4 -r 19`): below
//!   the depth limit 10 a node has `floor(ln(1 - u) / ln(1 - p))` children,
//!   `p = 1 / (1 + 4)`, at the limit none; at most 100. 4,130,071 nodes,
//!   3,305,118 leaves, depth 10.
//! * T3, binomial (`-t 0 -b 2000 -q 0.124875 -m 8 -r 42`): the root has
//!   2,000 children, every other node 8 when `u < 0.124875`, else none.
//!   4,112,897 nodes, 3,599,034 leaves, depth 1,572.
//!
//! Each system visits the tree in its own fork-join style (below); a node's
//! task computes its own state from its parent's, then forks one task per
//! child. The counts are checked against the published ones.

use std::ops::AddAssign;

use rt::Runtime;
use sha1::{Digest, Sha1};

/// How a tree's nodes decide their number of children.
#[derive(Clone, Copy, Debug)]
pub enum Shape {
    /// Geometric with a fixed shape function: `b0` expected children per
    /// node above depth `depth_limit`, none at it.
    Geometric { b0: f64, depth_limit: u32 },
    /// Binomial: the root has `root_children`; every other node has `m`
    /// with probability `q`, else none.
    Binomial { root_children: u32, q: f64, m: u32 },
}

/// One UTS tree: its shape, root id and published counts.
#[derive(Debug)]
pub struct Tree {
    pub shape: Shape,
    pub root_id: u32,
    pub expected: Counts,
}

/// T1 of the UTS sample trees (geometric, fixed shape, ~4.1 M nodes).
pub static T1: Tree = Tree {
    shape: Shape::Geometric {
        b0: 4.0,
        depth_limit: 10,
    },
    root_id: 19,
    expected: Counts {
        nodes: 4_130_071,
        leaves: 3_305_118,
        depth: 10,
    },
};

/// T3 of the UTS sample trees (binomial, ~4.1 M nodes, 1,572 deep).
pub static T3: Tree = Tree {
    shape: Shape::Binomial {
        root_children: 2_000,
        q: 0.124_875,
        m: 8,
    },
    root_id: 42,
    expected: Counts {
        nodes: 4_112_897,
        leaves: 3_599_034,
        depth: 1_572,
    },
};

/// The reference's cap on a (non-binomial-root) node's children.
const MAX_CHILDREN: u32 = 100;

/// Nodes, leaves and the largest depth of a (sub)tree.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    pub nodes: u64,
    pub leaves: u64,
    pub depth: u32,
}

impl AddAssign for Counts {
    fn add_assign(&mut self, other: Counts) {
        self.nodes += other.nodes;
        self.leaves += other.leaves;
        self.depth = self.depth.max(other.depth);
    }
}

/// A node: its 20-byte generator state and its depth (the root's is 0).
#[derive(Clone, Copy, Debug)]
pub struct Node {
    state: [u8; 20],
    depth: u32,
}

impl Node {
    /// The root: SHA-1 of 16 zero bytes and the root id.
    pub fn root(tree: &Tree) -> Node {
        let mut seed = [0u8; 20];
        seed[16..].copy_from_slice(&tree.root_id.to_be_bytes());
        Node {
            state: Sha1::digest(seed).into(),
            depth: 0,
        }
    }

    /// Child `i`: SHA-1 of this node's state and `i`.
    pub fn child(&self, i: u32) -> Node {
        let mut hasher = Sha1::new();
        hasher.update(self.state);
        hasher.update(i.to_be_bytes());
        Node {
            state: hasher.finalize().into(),
            depth: self.depth + 1,
        }
    }

    /// This node's uniform number in [0, 1).
    fn probability(&self) -> f64 {
        let r = u32::from_be_bytes([
            self.state[16],
            self.state[17],
            self.state[18],
            self.state[19],
        ]);
        f64::from(r & 0x7fff_ffff) / 2_147_483_648.0
    }

    /// How many children this node has in `tree`.
    pub fn children(&self, tree: &Tree) -> u32 {
        match tree.shape {
            Shape::Binomial { root_children, .. } if self.depth == 0 => root_children,
            Shape::Binomial { q, m, .. } => {
                if self.probability() < q {
                    m.min(MAX_CHILDREN)
                } else {
                    0
                }
            }
            Shape::Geometric { b0, depth_limit } => {
                let b = if self.depth < depth_limit { b0 } else { 0.0 };
                let p = 1.0 / (1.0 + b);
                let n = ((1.0 - self.probability()).ln() / (1.0 - p).ln()).floor();
                (n as u32).min(MAX_CHILDREN)
            }
        }
    }

    /// This node alone, with `children` children.
    pub fn counts(&self, children: u32) -> Counts {
        Counts {
            nodes: 1,
            leaves: u64::from(children == 0),
            depth: self.depth,
        }
    }
}

/// Panics unless `counts` are the tree's published counts.
pub fn check(tree: &Tree, counts: Counts) {
    assert_eq!(
        counts, tree.expected,
        "UTS counts differ from the reference"
    );
}

/// The same recursion on one thread.
pub fn sequential(tree: &Tree, node: Node) -> Counts {
    let n = node.children(tree);
    let mut c = node.counts(n);
    for i in 0..n {
        c += sequential(tree, node.child(i));
    }
    c
}

/// `rayon::join`, splitting the child list in halves down to one child.
/// Call inside the pool (`install`).
pub fn rayon_join(tree: &Tree, node: Node) -> Counts {
    fn children(tree: &Tree, parent: &Node, lo: u32, hi: u32) -> Counts {
        if hi - lo == 1 {
            return rayon_join(tree, parent.child(lo));
        }
        let mid = lo + (hi - lo) / 2;
        let (mut a, b) = rayon::join(
            || children(tree, parent, lo, mid),
            || children(tree, parent, mid, hi),
        );
        a += b;
        a
    }
    let n = node.children(tree);
    let mut c = node.counts(n);
    if n > 0 {
        c += children(tree, &node, 0, n);
    }
    c
}

/// A `rayon::scope` per node with an `s.spawn` per child, each writing its
/// subtree's counts into its own slot. Call inside the pool (`install`).
pub fn rayon_scope(tree: &Tree, node: Node) -> Counts {
    let n = node.children(tree);
    let mut c = node.counts(n);
    if n > 0 {
        let mut slots = vec![Counts::default(); n as usize];
        rayon::scope(|s| {
            for (i, slot) in (0..n).zip(slots.iter_mut()) {
                s.spawn(move |_| *slot = rayon_scope(tree, node.child(i)));
            }
        });
        for child in slots {
            c += child;
        }
    }
    c
}

/// chili's `Scope::join`, splitting the child list in halves down to one
/// child.
pub fn chili(tree: &Tree, node: Node, s: &mut chili::Scope<'_>) -> Counts {
    fn children(tree: &Tree, parent: &Node, lo: u32, hi: u32, s: &mut chili::Scope<'_>) -> Counts {
        if hi - lo == 1 {
            return chili(tree, parent.child(lo), s);
        }
        let mid = lo + (hi - lo) / 2;
        let (mut a, b) = s.join(
            |s| children(tree, parent, lo, mid, s),
            |s| children(tree, parent, mid, hi, s),
        );
        a += b;
        a
    }
    let n = node.children(tree);
    let mut c = node.counts(n);
    if n > 0 {
        c += children(tree, &node, 0, n, s);
    }
    c
}

/// This runtime's `join`, splitting the child list in halves down to one
/// child. Call inside the runtime (`install`).
pub fn rt_join(tree: &Tree, node: Node) -> Counts {
    fn children(tree: &Tree, parent: &Node, lo: u32, hi: u32) -> Counts {
        if hi - lo == 1 {
            return rt_join(tree, parent.child(lo));
        }
        let mid = lo + (hi - lo) / 2;
        let (mut a, b) = rt::join(
            || children(tree, parent, lo, mid),
            || children(tree, parent, mid, hi),
        );
        a += b;
        a
    }
    let n = node.children(tree);
    let mut c = node.counts(n);
    if n > 0 {
        c += children(tree, &node, 0, n);
    }
    c
}

/// A `rt::scope` per node with an `s.spawn` per child, each writing its
/// subtree's counts into its own slot. Call inside the runtime (`install`).
pub fn rt_scope(tree: &Tree, node: Node) -> Counts {
    let n = node.children(tree);
    let mut c = node.counts(n);
    if n > 0 {
        let mut slots = vec![Counts::default(); n as usize];
        rt::scope(|s| {
            for (i, slot) in (0..n).zip(slots.iter_mut()) {
                s.spawn(move || *slot = rt_scope(tree, node.child(i)));
            }
        });
        for child in slots {
            c += child;
        }
    }
    c
}

/// This runtime, spawn-and-join: the node's task spawns a task per child
/// with `rt.spawn`, then joins every handle. Call inside a task of `rt`.
pub fn rt_spawn(rt: &'static Runtime, tree: &'static Tree, node: Node) -> Counts {
    let n = node.children(tree);
    let mut c = node.counts(n);
    let handles: Vec<_> = (0..n)
        .map(|i| rt.spawn(move || rt_spawn(rt, tree, node.child(i))))
        .collect();
    for h in handles {
        c += h.join().expect("a UTS task failed");
    }
    c
}
