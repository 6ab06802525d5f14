//! The three priority classes and the order in which they are scanned.

use std::fmt;

/// A task's priority class.
///
/// The discriminant is the class's index into per-priority arrays, so
/// `queues[Priority::High as usize]` (or [`Priority::index`]) addresses the
/// High queue. Lower index means more urgent.
///
/// ```
/// use rt_queue::Priority;
///
/// assert_eq!(Priority::ALL, [Priority::High, Priority::Normal, Priority::Background]);
/// assert_eq!(Priority::Normal.index(), 1);
/// assert_eq!(Priority::default(), Priority::Normal);
/// ```
#[repr(usize)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord, Default)]
pub enum Priority {
    /// Latency-sensitive work: runs before anything else that is queued.
    #[doc(alias = "Urgent")]
    High = 0,
    /// The default class.
    #[default]
    #[doc(alias = "Medium")]
    Normal = 1,
    /// Work that should only use otherwise idle time.
    #[doc(alias("Low", "Idle"))]
    Background = 2,
}

impl Priority {
    /// Number of priority classes (the length of every per-priority array).
    pub const COUNT: usize = 3;

    /// Every class, most urgent first: the order in which workers look for
    /// work under the strict policy.
    pub const ALL: [Priority; Priority::COUNT] =
        [Priority::High, Priority::Normal, Priority::Background];

    /// The old name of [`Priority::ALL`].
    #[deprecated(since = "0.2.0", note = "renamed `Priority::ALL`")]
    pub const SCAN_ORDER: [Priority; Priority::COUNT] = Priority::ALL;

    /// The class's index into per-priority arrays (`0` is High).
    #[inline]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The class with the given index, or `None` when `index >= COUNT`.
    pub const fn from_index(index: usize) -> Option<Priority> {
        match index {
            0 => Some(Priority::High),
            1 => Some(Priority::Normal),
            2 => Some(Priority::Background),
            _ => None,
        }
    }
}

impl fmt::Display for Priority {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Priority::High => "high",
            Priority::Normal => "normal",
            Priority::Background => "background",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_round_trips_through_from_index() {
        for p in Priority::ALL {
            assert_eq!(Priority::from_index(p.index()), Some(p));
        }
        assert_eq!(Priority::from_index(Priority::COUNT), None);
    }

    #[test]
    #[allow(deprecated)]
    fn the_old_name_of_all_still_names_every_class_most_urgent_first() {
        assert_eq!(Priority::SCAN_ORDER, Priority::ALL);
    }

    #[test]
    fn all_is_most_urgent_first() {
        let indices: Vec<usize> = Priority::ALL.iter().map(|p| p.index()).collect();
        assert_eq!(indices, vec![0, 1, 2]);
        assert!(Priority::High < Priority::Normal && Priority::Normal < Priority::Background);
    }
}
