//! A set of priority classes in one byte.

use std::fmt;

use crate::Priority;

/// A set of priority classes: which classes a runtime has seen work in,
/// which are more urgent than a running task's. One bit per class, so a
/// set fits in one atomic byte that a worker reads before it scans.
///
/// ```
/// use rt_queue::{ClassSet, Priority};
///
/// let urgent = ClassSet::more_urgent_than(Priority::Background);
/// assert!(urgent.contains(Priority::High) && urgent.contains(Priority::Normal));
/// assert!(!urgent.contains(Priority::Background));
/// assert_eq!(urgent.iter().collect::<Vec<_>>(), [Priority::High, Priority::Normal]);
/// assert!(ClassSet::more_urgent_than(Priority::High).is_empty());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct ClassSet(u8);

impl ClassSet {
    /// No class.
    pub const EMPTY: ClassSet = ClassSet(0);
    /// Every class.
    pub const ALL: ClassSet = ClassSet((1 << Priority::COUNT) - 1);

    /// The set holding only `class`.
    #[inline]
    pub const fn of(class: Priority) -> ClassSet {
        ClassSet(1 << class.index())
    }

    /// The classes more urgent than `class` (none for High).
    #[inline]
    pub const fn more_urgent_than(class: Priority) -> ClassSet {
        ClassSet((1 << class.index()) - 1)
    }

    /// Whether `class` is in the set.
    #[inline]
    pub const fn contains(self, class: Priority) -> bool {
        self.0 & (1 << class.index()) != 0
    }

    /// Whether the set holds no class.
    #[inline]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The classes in both sets.
    #[inline]
    pub const fn intersection(self, other: ClassSet) -> ClassSet {
        ClassSet(self.0 & other.0)
    }

    /// The classes in either set.
    #[inline]
    pub const fn union(self, other: ClassSet) -> ClassSet {
        ClassSet(self.0 | other.0)
    }

    /// The classes of the set, most urgent first.
    pub fn iter(self) -> impl Iterator<Item = Priority> {
        Priority::ALL.into_iter().filter(move |&p| self.contains(p))
    }

    /// The set's byte, for an atomic that holds it.
    #[inline]
    pub(crate) const fn bits(self) -> u8 {
        self.0
    }

    /// The set a byte from [`bits`](Self::bits) holds.
    #[inline]
    pub(crate) const fn from_bits(bits: u8) -> ClassSet {
        ClassSet(bits & ClassSet::ALL.0)
    }
}

impl fmt::Debug for ClassSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_class_is_more_urgent_than_exactly_the_ones_after_it() {
        for (i, p) in Priority::ALL.into_iter().enumerate() {
            let urgent: Vec<_> = ClassSet::more_urgent_than(p).iter().collect();
            assert_eq!(urgent, Priority::ALL[..i]);
        }
    }

    #[test]
    fn a_set_holds_what_was_put_in_it_and_nothing_else() {
        let set = ClassSet::of(Priority::High).union(ClassSet::of(Priority::Background));
        assert!(set.contains(Priority::High) && set.contains(Priority::Background));
        assert!(!set.contains(Priority::Normal));
        assert_eq!(format!("{set:?}"), "{High, Background}");
        assert_eq!(ClassSet::from_bits(0xff), ClassSet::ALL);
        assert!(set.intersection(ClassSet::of(Priority::Normal)).is_empty());
    }
}
