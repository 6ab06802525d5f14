//! One value per priority class, read by class.

use std::ops::{Index, IndexMut};

use crate::Priority;

/// One value per priority class: read a class's by name (`.high`) or by
/// [`Priority`] (`[Priority::High]`), rather than by a bare array index.
/// Iterating yields the values in [`Priority::ALL`] order (most urgent
/// first); [`classes`](Self::classes) pairs each with its class.
///
/// ```
/// use rt_queue::{PerClass, Priority};
///
/// let queued = PerClass::from_fn(|p| p.index() * 10);
/// assert_eq!(queued[Priority::Normal], 10);
/// assert_eq!(queued.background, 20);
/// assert_eq!(queued.iter().sum::<usize>(), 30);
/// for (class, n) in queued.classes() {
///     assert_eq!(*n, class.index() * 10);
/// }
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

    /// The values, most urgent class first.
    pub fn iter(&self) -> std::array::IntoIter<&T, { Priority::COUNT }> {
        [&self.high, &self.normal, &self.background].into_iter()
    }

    /// Each class with its value, most urgent first.
    pub fn classes(&self) -> impl Iterator<Item = (Priority, &T)> {
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

impl<T> IntoIterator for PerClass<T> {
    type Item = T;
    type IntoIter = std::array::IntoIter<T, { Priority::COUNT }>;

    /// The values, most urgent class first.
    fn into_iter(self) -> Self::IntoIter {
        [self.high, self.normal, self.background].into_iter()
    }
}

impl<'a, T> IntoIterator for &'a PerClass<T> {
    type Item = &'a T;
    type IntoIter = std::array::IntoIter<&'a T, { Priority::COUNT }>;

    /// The values, most urgent class first.
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}
