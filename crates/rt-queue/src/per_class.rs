//! One value per priority class, read by class.

use std::ops::{Index, IndexMut};

use crate::Priority;

/// One value per priority class: read a class's by name (`.high`) or by
/// [`Priority`] (`[Priority::High]`), rather than by a bare array index.
///
/// ```
/// use rt_queue::{PerClass, Priority};
///
/// let queued = PerClass::from_fn(|p| p.index() * 10);
/// assert_eq!(queued[Priority::Normal], 10);
/// assert_eq!(queued.background, 20);
/// assert_eq!(queued.iter().map(|(_, n)| n).sum::<usize>(), 30);
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct PerClass<T> {
    /// The value of [`Priority::High`].
    pub high: T,
    /// The value of [`Priority::Normal`].
    pub normal: T,
    /// The value of [`Priority::Background`].
    pub background: T,
}

impl<T> PerClass<T> {
    /// The value `f(class)` for each class.
    pub fn from_fn(mut f: impl FnMut(Priority) -> T) -> Self {
        Self {
            high: f(Priority::High),
            normal: f(Priority::Normal),
            background: f(Priority::Background),
        }
    }

    /// Each class with its value, most urgent first.
    pub fn iter(&self) -> impl Iterator<Item = (Priority, &T)> {
        Priority::ALL.into_iter().map(move |p| (p, &self[p]))
    }

    /// The values turned by `f`, class by class.
    pub fn map<U>(self, mut f: impl FnMut(T) -> U) -> PerClass<U> {
        PerClass {
            high: f(self.high),
            normal: f(self.normal),
            background: f(self.background),
        }
    }
}

impl<T> Index<Priority> for PerClass<T> {
    type Output = T;

    fn index(&self, class: Priority) -> &T {
        match class {
            Priority::High => &self.high,
            Priority::Normal => &self.normal,
            Priority::Background => &self.background,
        }
    }
}

impl<T> IndexMut<Priority> for PerClass<T> {
    fn index_mut(&mut self, class: Priority) -> &mut T {
        match class {
            Priority::High => &mut self.high,
            Priority::Normal => &mut self.normal,
            Priority::Background => &mut self.background,
        }
    }
}
