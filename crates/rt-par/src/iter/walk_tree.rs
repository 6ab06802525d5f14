//! `walk_tree_prefix`, `walk_tree_postfix` and `walk_tree`: every node of
//! a tree given by its root and a function that lists a node's children.
//! A node's children are walked in parallel (halves of the list with
//! `join`), each subtree's items kept in order.

use super::plumbing::{Folder, Reducer, UnindexedConsumer};
use super::ParallelIterator;
use crate::core_api;

/// The nodes of a tree, each before its children (children in the order
/// `children_of` gives them).
///
/// ```
/// use rt_par::prelude::*;
/// let v: Vec<u32> = rt_par::iter::walk_tree_prefix(1u32, |&n| if n < 4 { vec![2 * n, 2 * n + 1] } else { vec![] }).collect();
/// assert_eq!(v, [1, 2, 4, 5, 3, 6, 7]);
/// ```
pub fn walk_tree_prefix<S, B, I>(root: S, children_of: B) -> WalkTreePrefix<S, B>
where
    S: Send,
    B: Fn(&S) -> I + Send + Sync,
    I: IntoIterator<Item = S>,
{
    WalkTreePrefix { root, children_of }
}

/// The nodes of a tree, each after its children.
///
/// ```
/// use rt_par::prelude::*;
/// let v: Vec<u32> = rt_par::iter::walk_tree_postfix(1u32, |&n| if n < 4 { vec![2 * n, 2 * n + 1] } else { vec![] }).collect();
/// assert_eq!(v, [4, 5, 2, 6, 7, 3, 1]);
/// ```
pub fn walk_tree_postfix<S, B, I>(root: S, children_of: B) -> WalkTreePostfix<S, B>
where
    S: Send,
    B: Fn(&S) -> I + Send + Sync,
    I: IntoIterator<Item = S>,
{
    WalkTreePostfix { root, children_of }
}

/// The nodes of a tree, in an unspecified order (this one: prefix).
///
/// ```
/// use rt_par::prelude::*;
/// let n = rt_par::iter::walk_tree(1u32, |&n| if n < 4 { vec![2 * n, 2 * n + 1] } else { vec![] }).count();
/// assert_eq!(n, 7);
/// ```
pub fn walk_tree<S, B, I>(root: S, children_of: B) -> WalkTree<S, B>
where
    S: Send,
    B: Fn(&S) -> I + Send + Sync,
    I: IntoIterator<Item = S>,
{
    WalkTree {
        prefix: walk_tree_prefix(root, children_of),
    }
}

/// The iterator of [`walk_tree_prefix`].
#[derive(Clone)]
#[must_use = "iterators do nothing unless consumed"]
pub struct WalkTreePrefix<S, B> {
    root: S,
    children_of: B,
}

/// The iterator of [`walk_tree_postfix`].
#[derive(Clone)]
#[must_use = "iterators do nothing unless consumed"]
pub struct WalkTreePostfix<S, B> {
    root: S,
    children_of: B,
}

/// The iterator of [`walk_tree`].
#[derive(Clone)]
#[must_use = "iterators do nothing unless consumed"]
pub struct WalkTree<S, B> {
    prefix: WalkTreePrefix<S, B>,
}

impl<S: std::fmt::Debug, B> std::fmt::Debug for WalkTreePrefix<S, B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WalkTreePrefix")
            .field("root", &self.root)
            .finish_non_exhaustive()
    }
}

impl<S: std::fmt::Debug, B> std::fmt::Debug for WalkTreePostfix<S, B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WalkTreePostfix")
            .field("root", &self.root)
            .finish_non_exhaustive()
    }
}

impl<S: std::fmt::Debug, B> std::fmt::Debug for WalkTree<S, B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WalkTree")
            .field("root", &self.prefix.root)
            .finish_non_exhaustive()
    }
}

impl<S, B, I> ParallelIterator for WalkTreePrefix<S, B>
where
    S: Send,
    B: Fn(&S) -> I + Send + Sync,
    I: IntoIterator<Item = S>,
{
    type Item = S;

    fn drive_unindexed<C: UnindexedConsumer<S>>(self, consumer: C) -> C::Result {
        let WalkTreePrefix { root, children_of } = self;
        core_api::in_runtime(move || walk(root, &children_of, consumer, Order::Prefix))
    }
}

impl<S, B, I> ParallelIterator for WalkTreePostfix<S, B>
where
    S: Send,
    B: Fn(&S) -> I + Send + Sync,
    I: IntoIterator<Item = S>,
{
    type Item = S;

    fn drive_unindexed<C: UnindexedConsumer<S>>(self, consumer: C) -> C::Result {
        let WalkTreePostfix { root, children_of } = self;
        core_api::in_runtime(move || walk(root, &children_of, consumer, Order::Postfix))
    }
}

impl<S, B, I> ParallelIterator for WalkTree<S, B>
where
    S: Send,
    B: Fn(&S) -> I + Send + Sync,
    I: IntoIterator<Item = S>,
{
    type Item = S;

    fn drive_unindexed<C: UnindexedConsumer<S>>(self, consumer: C) -> C::Result {
        self.prefix.drive_unindexed(consumer)
    }
}

#[derive(Clone, Copy)]
enum Order {
    Prefix,
    Postfix,
}

/// The subtree of `node`, in `order`.
fn walk<S, B, I, C>(node: S, children_of: &B, consumer: C, order: Order) -> C::Result
where
    S: Send,
    B: Fn(&S) -> I + Sync,
    I: IntoIterator<Item = S>,
    C: UnindexedConsumer<S>,
{
    if consumer.full() {
        return consumer.into_folder().complete();
    }
    let children: Vec<S> = children_of(&node).into_iter().collect();
    let reducer = consumer.to_reducer();
    match order {
        Order::Prefix => {
            let head = consumer
                .split_off_left()
                .into_folder()
                .consume(node)
                .complete();
            let rest = walk_all(children, children_of, consumer, order);
            reducer.reduce(head, rest)
        }
        Order::Postfix => {
            let first = walk_all(children, children_of, consumer.split_off_left(), order);
            let last = consumer.into_folder().consume(node).complete();
            reducer.reduce(first, last)
        }
    }
}

/// The subtrees of `nodes`, in order, halves of the list in parallel.
fn walk_all<S, B, I, C>(mut nodes: Vec<S>, children_of: &B, consumer: C, order: Order) -> C::Result
where
    S: Send,
    B: Fn(&S) -> I + Sync,
    I: IntoIterator<Item = S>,
    C: UnindexedConsumer<S>,
{
    match nodes.len() {
        0 => consumer.into_folder().complete(),
        1 => walk(nodes.pop().expect("one node"), children_of, consumer, order),
        n => {
            let right_nodes = nodes.split_off(n / 2);
            let reducer = consumer.to_reducer();
            let left_consumer = consumer.split_off_left();
            let (left, right) = rt_core::join(
                move || walk_all(nodes, children_of, left_consumer, order),
                move || walk_all(right_nodes, children_of, consumer, order),
            );
            reducer.reduce(left, right)
        }
    }
}
