//! `find_first` of the item at 10% of 50 M: the input of
//! `par/workloads.rs`'s `find_first` (odd numbers but one), made once and
//! kept, and its search (`enumerate().find_first(…)`) written here: the
//! shared version takes its 200 MB input by value and frees it inside the
//! timed region, which costs more than the search.

use rayon::prelude::*;

use super::{workloads, SIZES};

/// The haystack, and the index the needle is at.
pub struct Haystack {
    items: Vec<u32>,
    at: usize,
}

impl Haystack {
    pub fn new() -> Haystack {
        let workloads::Input::Haystack(items) = workloads::Workload::FindFirst.input(&SIZES, &[])
        else {
            unreachable!("find_first's input is a haystack");
        };
        Haystack {
            items,
            at: SIZES.haystack / 10,
        }
    }

    /// The first index of the needle, found with rayon.
    pub fn rayon_find_first(&self) -> Option<usize> {
        let needle = self.items[self.at];
        self.items
            .par_iter()
            .enumerate()
            .find_first(|&(_, &x)| x == needle)
            .map(|(i, _)| i)
    }

    /// Panics unless `found` is where the needle is.
    pub fn check(&self, found: Option<usize>) {
        assert_eq!(found, Some(self.at), "find_first found the wrong item");
    }
}
