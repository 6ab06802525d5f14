//! The pieces of the `forkjoin` benchmark: the workloads (UTS, fib,
//! skynet, nqueens, quicksort), the systems, one round of a case in its process, the case
//! processes with their time limit (seen from the parent), and the report.

pub mod child;
pub mod fib;
pub mod nqueens;
pub mod quicksort;
pub mod report;
pub mod runner;
pub mod skynet;
pub mod systems;
pub mod uts;
