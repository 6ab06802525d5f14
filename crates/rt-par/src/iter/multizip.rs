//! Tuples of indexed parallel iterators zip into one (rayon's
//! `MultiZip`): `(a, b, c).into_par_iter()` yields `(a_i, b_i, c_i)` up to
//! the shortest, as nested `zip`s flattened by a `map`.

use super::plumbing::{Consumer, ProducerCallback, UnindexedConsumer};
use super::{IndexedParallelIterator, IntoParallelIterator, ParallelIterator};

/// The iterator of a tuple of indexed parallel iterators.
///
/// ```
/// use rt_par::prelude::*;
/// let (a, b, c) = (vec![1, 2, 3], vec!['a', 'b'], 0..10);
/// let v: Vec<(&i32, &char, i32)> = (&a, &b, c).into_par_iter().collect();
/// assert_eq!(v, [(&1, &'a', 0), (&2, &'b', 1)]);
/// ```
#[derive(Debug, Clone)]
#[must_use = "iterators do nothing unless consumed"]
pub struct MultiZip<T> {
    tuple: T,
}

impl<A> IntoParallelIterator for (A,)
where
    A: IntoParallelIterator,
    A::Iter: IndexedParallelIterator,
{
    type Iter = MultiZip<(A::Iter,)>;
    type Item = (A::Item,);

    fn into_par_iter(self) -> Self::Iter {
        let (a,) = self;
        MultiZip {
            tuple: (a.into_par_iter(),),
        }
    }
}

impl<A> ParallelIterator for MultiZip<(A,)>
where
    A: IndexedParallelIterator,
{
    type Item = (A::Item,);

    fn drive_unindexed<CO: UnindexedConsumer<Self::Item>>(self, consumer: CO) -> CO::Result {
        self.drive(consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.len())
    }
}

impl<A> IndexedParallelIterator for MultiZip<(A,)>
where
    A: IndexedParallelIterator,
{
    fn drive<CO: Consumer<Self::Item>>(self, consumer: CO) -> CO::Result {
        let (a,) = self.tuple;
        a.map(|a| (a,)).drive(consumer)
    }

    fn len(&self) -> usize {
        let (a,) = &self.tuple;
        a.len()
    }

    fn with_producer<CB: ProducerCallback<Self::Item>>(self, callback: CB) -> CB::Output {
        let (a,) = self.tuple;
        a.map(|a| (a,)).with_producer(callback)
    }
}

impl<A, B> IntoParallelIterator for (A, B)
where
    A: IntoParallelIterator,
    A::Iter: IndexedParallelIterator,
    B: IntoParallelIterator,
    B::Iter: IndexedParallelIterator,
{
    type Iter = MultiZip<(A::Iter, B::Iter)>;
    type Item = (A::Item, B::Item);

    fn into_par_iter(self) -> Self::Iter {
        let (a, b) = self;
        MultiZip {
            tuple: (a.into_par_iter(), b.into_par_iter()),
        }
    }
}

impl<A, B> ParallelIterator for MultiZip<(A, B)>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator,
{
    type Item = (A::Item, B::Item);

    fn drive_unindexed<CO: UnindexedConsumer<Self::Item>>(self, consumer: CO) -> CO::Result {
        self.drive(consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.len())
    }
}

impl<A, B> IndexedParallelIterator for MultiZip<(A, B)>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator,
{
    fn drive<CO: Consumer<Self::Item>>(self, consumer: CO) -> CO::Result {
        let (a, b) = self.tuple;
        a.zip(b).map(|(a, b)| (a, b)).drive(consumer)
    }

    fn len(&self) -> usize {
        let (a, b) = &self.tuple;
        a.len().min(b.len())
    }

    fn with_producer<CB: ProducerCallback<Self::Item>>(self, callback: CB) -> CB::Output {
        let (a, b) = self.tuple;
        a.zip(b).map(|(a, b)| (a, b)).with_producer(callback)
    }
}

impl<A, B, C> IntoParallelIterator for (A, B, C)
where
    A: IntoParallelIterator,
    A::Iter: IndexedParallelIterator,
    B: IntoParallelIterator,
    B::Iter: IndexedParallelIterator,
    C: IntoParallelIterator,
    C::Iter: IndexedParallelIterator,
{
    type Iter = MultiZip<(A::Iter, B::Iter, C::Iter)>;
    type Item = (A::Item, B::Item, C::Item);

    fn into_par_iter(self) -> Self::Iter {
        let (a, b, c) = self;
        MultiZip {
            tuple: (a.into_par_iter(), b.into_par_iter(), c.into_par_iter()),
        }
    }
}

impl<A, B, C> ParallelIterator for MultiZip<(A, B, C)>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator,
    C: IndexedParallelIterator,
{
    type Item = (A::Item, B::Item, C::Item);

    fn drive_unindexed<CO: UnindexedConsumer<Self::Item>>(self, consumer: CO) -> CO::Result {
        self.drive(consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.len())
    }
}

impl<A, B, C> IndexedParallelIterator for MultiZip<(A, B, C)>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator,
    C: IndexedParallelIterator,
{
    fn drive<CO: Consumer<Self::Item>>(self, consumer: CO) -> CO::Result {
        let (a, b, c) = self.tuple;
        a.zip(b).zip(c).map(|((a, b), c)| (a, b, c)).drive(consumer)
    }

    fn len(&self) -> usize {
        let (a, b, c) = &self.tuple;
        a.len().min(b.len()).min(c.len())
    }

    fn with_producer<CB: ProducerCallback<Self::Item>>(self, callback: CB) -> CB::Output {
        let (a, b, c) = self.tuple;
        a.zip(b)
            .zip(c)
            .map(|((a, b), c)| (a, b, c))
            .with_producer(callback)
    }
}

impl<A, B, C, D> IntoParallelIterator for (A, B, C, D)
where
    A: IntoParallelIterator,
    A::Iter: IndexedParallelIterator,
    B: IntoParallelIterator,
    B::Iter: IndexedParallelIterator,
    C: IntoParallelIterator,
    C::Iter: IndexedParallelIterator,
    D: IntoParallelIterator,
    D::Iter: IndexedParallelIterator,
{
    type Iter = MultiZip<(A::Iter, B::Iter, C::Iter, D::Iter)>;
    type Item = (A::Item, B::Item, C::Item, D::Item);

    fn into_par_iter(self) -> Self::Iter {
        let (a, b, c, d) = self;
        MultiZip {
            tuple: (
                a.into_par_iter(),
                b.into_par_iter(),
                c.into_par_iter(),
                d.into_par_iter(),
            ),
        }
    }
}

impl<A, B, C, D> ParallelIterator for MultiZip<(A, B, C, D)>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator,
    C: IndexedParallelIterator,
    D: IndexedParallelIterator,
{
    type Item = (A::Item, B::Item, C::Item, D::Item);

    fn drive_unindexed<CO: UnindexedConsumer<Self::Item>>(self, consumer: CO) -> CO::Result {
        self.drive(consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.len())
    }
}

impl<A, B, C, D> IndexedParallelIterator for MultiZip<(A, B, C, D)>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator,
    C: IndexedParallelIterator,
    D: IndexedParallelIterator,
{
    fn drive<CO: Consumer<Self::Item>>(self, consumer: CO) -> CO::Result {
        let (a, b, c, d) = self.tuple;
        a.zip(b)
            .zip(c)
            .zip(d)
            .map(|(((a, b), c), d)| (a, b, c, d))
            .drive(consumer)
    }

    fn len(&self) -> usize {
        let (a, b, c, d) = &self.tuple;
        a.len().min(b.len()).min(c.len()).min(d.len())
    }

    fn with_producer<CB: ProducerCallback<Self::Item>>(self, callback: CB) -> CB::Output {
        let (a, b, c, d) = self.tuple;
        a.zip(b)
            .zip(c)
            .zip(d)
            .map(|(((a, b), c), d)| (a, b, c, d))
            .with_producer(callback)
    }
}

impl<A, B, C, D, E> IntoParallelIterator for (A, B, C, D, E)
where
    A: IntoParallelIterator,
    A::Iter: IndexedParallelIterator,
    B: IntoParallelIterator,
    B::Iter: IndexedParallelIterator,
    C: IntoParallelIterator,
    C::Iter: IndexedParallelIterator,
    D: IntoParallelIterator,
    D::Iter: IndexedParallelIterator,
    E: IntoParallelIterator,
    E::Iter: IndexedParallelIterator,
{
    type Iter = MultiZip<(A::Iter, B::Iter, C::Iter, D::Iter, E::Iter)>;
    type Item = (A::Item, B::Item, C::Item, D::Item, E::Item);

    fn into_par_iter(self) -> Self::Iter {
        let (a, b, c, d, e) = self;
        MultiZip {
            tuple: (
                a.into_par_iter(),
                b.into_par_iter(),
                c.into_par_iter(),
                d.into_par_iter(),
                e.into_par_iter(),
            ),
        }
    }
}

impl<A, B, C, D, E> ParallelIterator for MultiZip<(A, B, C, D, E)>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator,
    C: IndexedParallelIterator,
    D: IndexedParallelIterator,
    E: IndexedParallelIterator,
{
    type Item = (A::Item, B::Item, C::Item, D::Item, E::Item);

    fn drive_unindexed<CO: UnindexedConsumer<Self::Item>>(self, consumer: CO) -> CO::Result {
        self.drive(consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.len())
    }
}

impl<A, B, C, D, E> IndexedParallelIterator for MultiZip<(A, B, C, D, E)>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator,
    C: IndexedParallelIterator,
    D: IndexedParallelIterator,
    E: IndexedParallelIterator,
{
    fn drive<CO: Consumer<Self::Item>>(self, consumer: CO) -> CO::Result {
        let (a, b, c, d, e) = self.tuple;
        a.zip(b)
            .zip(c)
            .zip(d)
            .zip(e)
            .map(|((((a, b), c), d), e)| (a, b, c, d, e))
            .drive(consumer)
    }

    fn len(&self) -> usize {
        let (a, b, c, d, e) = &self.tuple;
        a.len().min(b.len()).min(c.len()).min(d.len()).min(e.len())
    }

    fn with_producer<CB: ProducerCallback<Self::Item>>(self, callback: CB) -> CB::Output {
        let (a, b, c, d, e) = self.tuple;
        a.zip(b)
            .zip(c)
            .zip(d)
            .zip(e)
            .map(|((((a, b), c), d), e)| (a, b, c, d, e))
            .with_producer(callback)
    }
}

impl<A, B, C, D, E, F> IntoParallelIterator for (A, B, C, D, E, F)
where
    A: IntoParallelIterator,
    A::Iter: IndexedParallelIterator,
    B: IntoParallelIterator,
    B::Iter: IndexedParallelIterator,
    C: IntoParallelIterator,
    C::Iter: IndexedParallelIterator,
    D: IntoParallelIterator,
    D::Iter: IndexedParallelIterator,
    E: IntoParallelIterator,
    E::Iter: IndexedParallelIterator,
    F: IntoParallelIterator,
    F::Iter: IndexedParallelIterator,
{
    type Iter = MultiZip<(A::Iter, B::Iter, C::Iter, D::Iter, E::Iter, F::Iter)>;
    type Item = (A::Item, B::Item, C::Item, D::Item, E::Item, F::Item);

    fn into_par_iter(self) -> Self::Iter {
        let (a, b, c, d, e, f) = self;
        MultiZip {
            tuple: (
                a.into_par_iter(),
                b.into_par_iter(),
                c.into_par_iter(),
                d.into_par_iter(),
                e.into_par_iter(),
                f.into_par_iter(),
            ),
        }
    }
}

impl<A, B, C, D, E, F> ParallelIterator for MultiZip<(A, B, C, D, E, F)>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator,
    C: IndexedParallelIterator,
    D: IndexedParallelIterator,
    E: IndexedParallelIterator,
    F: IndexedParallelIterator,
{
    type Item = (A::Item, B::Item, C::Item, D::Item, E::Item, F::Item);

    fn drive_unindexed<CO: UnindexedConsumer<Self::Item>>(self, consumer: CO) -> CO::Result {
        self.drive(consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.len())
    }
}

impl<A, B, C, D, E, F> IndexedParallelIterator for MultiZip<(A, B, C, D, E, F)>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator,
    C: IndexedParallelIterator,
    D: IndexedParallelIterator,
    E: IndexedParallelIterator,
    F: IndexedParallelIterator,
{
    fn drive<CO: Consumer<Self::Item>>(self, consumer: CO) -> CO::Result {
        let (a, b, c, d, e, f) = self.tuple;
        a.zip(b)
            .zip(c)
            .zip(d)
            .zip(e)
            .zip(f)
            .map(|(((((a, b), c), d), e), f)| (a, b, c, d, e, f))
            .drive(consumer)
    }

    fn len(&self) -> usize {
        let (a, b, c, d, e, f) = &self.tuple;
        a.len()
            .min(b.len())
            .min(c.len())
            .min(d.len())
            .min(e.len())
            .min(f.len())
    }

    fn with_producer<CB: ProducerCallback<Self::Item>>(self, callback: CB) -> CB::Output {
        let (a, b, c, d, e, f) = self.tuple;
        a.zip(b)
            .zip(c)
            .zip(d)
            .zip(e)
            .zip(f)
            .map(|(((((a, b), c), d), e), f)| (a, b, c, d, e, f))
            .with_producer(callback)
    }
}

impl<A, B, C, D, E, F, G> IntoParallelIterator for (A, B, C, D, E, F, G)
where
    A: IntoParallelIterator,
    A::Iter: IndexedParallelIterator,
    B: IntoParallelIterator,
    B::Iter: IndexedParallelIterator,
    C: IntoParallelIterator,
    C::Iter: IndexedParallelIterator,
    D: IntoParallelIterator,
    D::Iter: IndexedParallelIterator,
    E: IntoParallelIterator,
    E::Iter: IndexedParallelIterator,
    F: IntoParallelIterator,
    F::Iter: IndexedParallelIterator,
    G: IntoParallelIterator,
    G::Iter: IndexedParallelIterator,
{
    type Iter = MultiZip<(
        A::Iter,
        B::Iter,
        C::Iter,
        D::Iter,
        E::Iter,
        F::Iter,
        G::Iter,
    )>;
    type Item = (
        A::Item,
        B::Item,
        C::Item,
        D::Item,
        E::Item,
        F::Item,
        G::Item,
    );

    fn into_par_iter(self) -> Self::Iter {
        let (a, b, c, d, e, f, g) = self;
        MultiZip {
            tuple: (
                a.into_par_iter(),
                b.into_par_iter(),
                c.into_par_iter(),
                d.into_par_iter(),
                e.into_par_iter(),
                f.into_par_iter(),
                g.into_par_iter(),
            ),
        }
    }
}

impl<A, B, C, D, E, F, G> ParallelIterator for MultiZip<(A, B, C, D, E, F, G)>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator,
    C: IndexedParallelIterator,
    D: IndexedParallelIterator,
    E: IndexedParallelIterator,
    F: IndexedParallelIterator,
    G: IndexedParallelIterator,
{
    type Item = (
        A::Item,
        B::Item,
        C::Item,
        D::Item,
        E::Item,
        F::Item,
        G::Item,
    );

    fn drive_unindexed<CO: UnindexedConsumer<Self::Item>>(self, consumer: CO) -> CO::Result {
        self.drive(consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.len())
    }
}

impl<A, B, C, D, E, F, G> IndexedParallelIterator for MultiZip<(A, B, C, D, E, F, G)>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator,
    C: IndexedParallelIterator,
    D: IndexedParallelIterator,
    E: IndexedParallelIterator,
    F: IndexedParallelIterator,
    G: IndexedParallelIterator,
{
    fn drive<CO: Consumer<Self::Item>>(self, consumer: CO) -> CO::Result {
        let (a, b, c, d, e, f, g) = self.tuple;
        a.zip(b)
            .zip(c)
            .zip(d)
            .zip(e)
            .zip(f)
            .zip(g)
            .map(|((((((a, b), c), d), e), f), g)| (a, b, c, d, e, f, g))
            .drive(consumer)
    }

    fn len(&self) -> usize {
        let (a, b, c, d, e, f, g) = &self.tuple;
        a.len()
            .min(b.len())
            .min(c.len())
            .min(d.len())
            .min(e.len())
            .min(f.len())
            .min(g.len())
    }

    fn with_producer<CB: ProducerCallback<Self::Item>>(self, callback: CB) -> CB::Output {
        let (a, b, c, d, e, f, g) = self.tuple;
        a.zip(b)
            .zip(c)
            .zip(d)
            .zip(e)
            .zip(f)
            .zip(g)
            .map(|((((((a, b), c), d), e), f), g)| (a, b, c, d, e, f, g))
            .with_producer(callback)
    }
}

impl<A, B, C, D, E, F, G, H> IntoParallelIterator for (A, B, C, D, E, F, G, H)
where
    A: IntoParallelIterator,
    A::Iter: IndexedParallelIterator,
    B: IntoParallelIterator,
    B::Iter: IndexedParallelIterator,
    C: IntoParallelIterator,
    C::Iter: IndexedParallelIterator,
    D: IntoParallelIterator,
    D::Iter: IndexedParallelIterator,
    E: IntoParallelIterator,
    E::Iter: IndexedParallelIterator,
    F: IntoParallelIterator,
    F::Iter: IndexedParallelIterator,
    G: IntoParallelIterator,
    G::Iter: IndexedParallelIterator,
    H: IntoParallelIterator,
    H::Iter: IndexedParallelIterator,
{
    type Iter = MultiZip<(
        A::Iter,
        B::Iter,
        C::Iter,
        D::Iter,
        E::Iter,
        F::Iter,
        G::Iter,
        H::Iter,
    )>;
    type Item = (
        A::Item,
        B::Item,
        C::Item,
        D::Item,
        E::Item,
        F::Item,
        G::Item,
        H::Item,
    );

    fn into_par_iter(self) -> Self::Iter {
        let (a, b, c, d, e, f, g, h) = self;
        MultiZip {
            tuple: (
                a.into_par_iter(),
                b.into_par_iter(),
                c.into_par_iter(),
                d.into_par_iter(),
                e.into_par_iter(),
                f.into_par_iter(),
                g.into_par_iter(),
                h.into_par_iter(),
            ),
        }
    }
}

impl<A, B, C, D, E, F, G, H> ParallelIterator for MultiZip<(A, B, C, D, E, F, G, H)>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator,
    C: IndexedParallelIterator,
    D: IndexedParallelIterator,
    E: IndexedParallelIterator,
    F: IndexedParallelIterator,
    G: IndexedParallelIterator,
    H: IndexedParallelIterator,
{
    type Item = (
        A::Item,
        B::Item,
        C::Item,
        D::Item,
        E::Item,
        F::Item,
        G::Item,
        H::Item,
    );

    fn drive_unindexed<CO: UnindexedConsumer<Self::Item>>(self, consumer: CO) -> CO::Result {
        self.drive(consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.len())
    }
}

impl<A, B, C, D, E, F, G, H> IndexedParallelIterator for MultiZip<(A, B, C, D, E, F, G, H)>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator,
    C: IndexedParallelIterator,
    D: IndexedParallelIterator,
    E: IndexedParallelIterator,
    F: IndexedParallelIterator,
    G: IndexedParallelIterator,
    H: IndexedParallelIterator,
{
    fn drive<CO: Consumer<Self::Item>>(self, consumer: CO) -> CO::Result {
        let (a, b, c, d, e, f, g, h) = self.tuple;
        a.zip(b)
            .zip(c)
            .zip(d)
            .zip(e)
            .zip(f)
            .zip(g)
            .zip(h)
            .map(|(((((((a, b), c), d), e), f), g), h)| (a, b, c, d, e, f, g, h))
            .drive(consumer)
    }

    fn len(&self) -> usize {
        let (a, b, c, d, e, f, g, h) = &self.tuple;
        a.len()
            .min(b.len())
            .min(c.len())
            .min(d.len())
            .min(e.len())
            .min(f.len())
            .min(g.len())
            .min(h.len())
    }

    fn with_producer<CB: ProducerCallback<Self::Item>>(self, callback: CB) -> CB::Output {
        let (a, b, c, d, e, f, g, h) = self.tuple;
        a.zip(b)
            .zip(c)
            .zip(d)
            .zip(e)
            .zip(f)
            .zip(g)
            .zip(h)
            .map(|(((((((a, b), c), d), e), f), g), h)| (a, b, c, d, e, f, g, h))
            .with_producer(callback)
    }
}

impl<A, B, C, D, E, F, G, H, I> IntoParallelIterator for (A, B, C, D, E, F, G, H, I)
where
    A: IntoParallelIterator,
    A::Iter: IndexedParallelIterator,
    B: IntoParallelIterator,
    B::Iter: IndexedParallelIterator,
    C: IntoParallelIterator,
    C::Iter: IndexedParallelIterator,
    D: IntoParallelIterator,
    D::Iter: IndexedParallelIterator,
    E: IntoParallelIterator,
    E::Iter: IndexedParallelIterator,
    F: IntoParallelIterator,
    F::Iter: IndexedParallelIterator,
    G: IntoParallelIterator,
    G::Iter: IndexedParallelIterator,
    H: IntoParallelIterator,
    H::Iter: IndexedParallelIterator,
    I: IntoParallelIterator,
    I::Iter: IndexedParallelIterator,
{
    type Iter = MultiZip<(
        A::Iter,
        B::Iter,
        C::Iter,
        D::Iter,
        E::Iter,
        F::Iter,
        G::Iter,
        H::Iter,
        I::Iter,
    )>;
    type Item = (
        A::Item,
        B::Item,
        C::Item,
        D::Item,
        E::Item,
        F::Item,
        G::Item,
        H::Item,
        I::Item,
    );

    fn into_par_iter(self) -> Self::Iter {
        let (a, b, c, d, e, f, g, h, i) = self;
        MultiZip {
            tuple: (
                a.into_par_iter(),
                b.into_par_iter(),
                c.into_par_iter(),
                d.into_par_iter(),
                e.into_par_iter(),
                f.into_par_iter(),
                g.into_par_iter(),
                h.into_par_iter(),
                i.into_par_iter(),
            ),
        }
    }
}

impl<A, B, C, D, E, F, G, H, I> ParallelIterator for MultiZip<(A, B, C, D, E, F, G, H, I)>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator,
    C: IndexedParallelIterator,
    D: IndexedParallelIterator,
    E: IndexedParallelIterator,
    F: IndexedParallelIterator,
    G: IndexedParallelIterator,
    H: IndexedParallelIterator,
    I: IndexedParallelIterator,
{
    type Item = (
        A::Item,
        B::Item,
        C::Item,
        D::Item,
        E::Item,
        F::Item,
        G::Item,
        H::Item,
        I::Item,
    );

    fn drive_unindexed<CO: UnindexedConsumer<Self::Item>>(self, consumer: CO) -> CO::Result {
        self.drive(consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.len())
    }
}

impl<A, B, C, D, E, F, G, H, I> IndexedParallelIterator for MultiZip<(A, B, C, D, E, F, G, H, I)>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator,
    C: IndexedParallelIterator,
    D: IndexedParallelIterator,
    E: IndexedParallelIterator,
    F: IndexedParallelIterator,
    G: IndexedParallelIterator,
    H: IndexedParallelIterator,
    I: IndexedParallelIterator,
{
    fn drive<CO: Consumer<Self::Item>>(self, consumer: CO) -> CO::Result {
        let (a, b, c, d, e, f, g, h, i) = self.tuple;
        a.zip(b)
            .zip(c)
            .zip(d)
            .zip(e)
            .zip(f)
            .zip(g)
            .zip(h)
            .zip(i)
            .map(|((((((((a, b), c), d), e), f), g), h), i)| (a, b, c, d, e, f, g, h, i))
            .drive(consumer)
    }

    fn len(&self) -> usize {
        let (a, b, c, d, e, f, g, h, i) = &self.tuple;
        a.len()
            .min(b.len())
            .min(c.len())
            .min(d.len())
            .min(e.len())
            .min(f.len())
            .min(g.len())
            .min(h.len())
            .min(i.len())
    }

    fn with_producer<CB: ProducerCallback<Self::Item>>(self, callback: CB) -> CB::Output {
        let (a, b, c, d, e, f, g, h, i) = self.tuple;
        a.zip(b)
            .zip(c)
            .zip(d)
            .zip(e)
            .zip(f)
            .zip(g)
            .zip(h)
            .zip(i)
            .map(|((((((((a, b), c), d), e), f), g), h), i)| (a, b, c, d, e, f, g, h, i))
            .with_producer(callback)
    }
}

impl<A, B, C, D, E, F, G, H, I, J> IntoParallelIterator for (A, B, C, D, E, F, G, H, I, J)
where
    A: IntoParallelIterator,
    A::Iter: IndexedParallelIterator,
    B: IntoParallelIterator,
    B::Iter: IndexedParallelIterator,
    C: IntoParallelIterator,
    C::Iter: IndexedParallelIterator,
    D: IntoParallelIterator,
    D::Iter: IndexedParallelIterator,
    E: IntoParallelIterator,
    E::Iter: IndexedParallelIterator,
    F: IntoParallelIterator,
    F::Iter: IndexedParallelIterator,
    G: IntoParallelIterator,
    G::Iter: IndexedParallelIterator,
    H: IntoParallelIterator,
    H::Iter: IndexedParallelIterator,
    I: IntoParallelIterator,
    I::Iter: IndexedParallelIterator,
    J: IntoParallelIterator,
    J::Iter: IndexedParallelIterator,
{
    type Iter = MultiZip<(
        A::Iter,
        B::Iter,
        C::Iter,
        D::Iter,
        E::Iter,
        F::Iter,
        G::Iter,
        H::Iter,
        I::Iter,
        J::Iter,
    )>;
    type Item = (
        A::Item,
        B::Item,
        C::Item,
        D::Item,
        E::Item,
        F::Item,
        G::Item,
        H::Item,
        I::Item,
        J::Item,
    );

    fn into_par_iter(self) -> Self::Iter {
        let (a, b, c, d, e, f, g, h, i, j) = self;
        MultiZip {
            tuple: (
                a.into_par_iter(),
                b.into_par_iter(),
                c.into_par_iter(),
                d.into_par_iter(),
                e.into_par_iter(),
                f.into_par_iter(),
                g.into_par_iter(),
                h.into_par_iter(),
                i.into_par_iter(),
                j.into_par_iter(),
            ),
        }
    }
}

impl<A, B, C, D, E, F, G, H, I, J> ParallelIterator for MultiZip<(A, B, C, D, E, F, G, H, I, J)>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator,
    C: IndexedParallelIterator,
    D: IndexedParallelIterator,
    E: IndexedParallelIterator,
    F: IndexedParallelIterator,
    G: IndexedParallelIterator,
    H: IndexedParallelIterator,
    I: IndexedParallelIterator,
    J: IndexedParallelIterator,
{
    type Item = (
        A::Item,
        B::Item,
        C::Item,
        D::Item,
        E::Item,
        F::Item,
        G::Item,
        H::Item,
        I::Item,
        J::Item,
    );

    fn drive_unindexed<CO: UnindexedConsumer<Self::Item>>(self, consumer: CO) -> CO::Result {
        self.drive(consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.len())
    }
}

impl<A, B, C, D, E, F, G, H, I, J> IndexedParallelIterator
    for MultiZip<(A, B, C, D, E, F, G, H, I, J)>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator,
    C: IndexedParallelIterator,
    D: IndexedParallelIterator,
    E: IndexedParallelIterator,
    F: IndexedParallelIterator,
    G: IndexedParallelIterator,
    H: IndexedParallelIterator,
    I: IndexedParallelIterator,
    J: IndexedParallelIterator,
{
    fn drive<CO: Consumer<Self::Item>>(self, consumer: CO) -> CO::Result {
        let (a, b, c, d, e, f, g, h, i, j) = self.tuple;
        a.zip(b)
            .zip(c)
            .zip(d)
            .zip(e)
            .zip(f)
            .zip(g)
            .zip(h)
            .zip(i)
            .zip(j)
            .map(|(((((((((a, b), c), d), e), f), g), h), i), j)| (a, b, c, d, e, f, g, h, i, j))
            .drive(consumer)
    }

    fn len(&self) -> usize {
        let (a, b, c, d, e, f, g, h, i, j) = &self.tuple;
        a.len()
            .min(b.len())
            .min(c.len())
            .min(d.len())
            .min(e.len())
            .min(f.len())
            .min(g.len())
            .min(h.len())
            .min(i.len())
            .min(j.len())
    }

    fn with_producer<CB: ProducerCallback<Self::Item>>(self, callback: CB) -> CB::Output {
        let (a, b, c, d, e, f, g, h, i, j) = self.tuple;
        a.zip(b)
            .zip(c)
            .zip(d)
            .zip(e)
            .zip(f)
            .zip(g)
            .zip(h)
            .zip(i)
            .zip(j)
            .map(|(((((((((a, b), c), d), e), f), g), h), i), j)| (a, b, c, d, e, f, g, h, i, j))
            .with_producer(callback)
    }
}

impl<A, B, C, D, E, F, G, H, I, J, K> IntoParallelIterator for (A, B, C, D, E, F, G, H, I, J, K)
where
    A: IntoParallelIterator,
    A::Iter: IndexedParallelIterator,
    B: IntoParallelIterator,
    B::Iter: IndexedParallelIterator,
    C: IntoParallelIterator,
    C::Iter: IndexedParallelIterator,
    D: IntoParallelIterator,
    D::Iter: IndexedParallelIterator,
    E: IntoParallelIterator,
    E::Iter: IndexedParallelIterator,
    F: IntoParallelIterator,
    F::Iter: IndexedParallelIterator,
    G: IntoParallelIterator,
    G::Iter: IndexedParallelIterator,
    H: IntoParallelIterator,
    H::Iter: IndexedParallelIterator,
    I: IntoParallelIterator,
    I::Iter: IndexedParallelIterator,
    J: IntoParallelIterator,
    J::Iter: IndexedParallelIterator,
    K: IntoParallelIterator,
    K::Iter: IndexedParallelIterator,
{
    type Iter = MultiZip<(
        A::Iter,
        B::Iter,
        C::Iter,
        D::Iter,
        E::Iter,
        F::Iter,
        G::Iter,
        H::Iter,
        I::Iter,
        J::Iter,
        K::Iter,
    )>;
    type Item = (
        A::Item,
        B::Item,
        C::Item,
        D::Item,
        E::Item,
        F::Item,
        G::Item,
        H::Item,
        I::Item,
        J::Item,
        K::Item,
    );

    fn into_par_iter(self) -> Self::Iter {
        let (a, b, c, d, e, f, g, h, i, j, k) = self;
        MultiZip {
            tuple: (
                a.into_par_iter(),
                b.into_par_iter(),
                c.into_par_iter(),
                d.into_par_iter(),
                e.into_par_iter(),
                f.into_par_iter(),
                g.into_par_iter(),
                h.into_par_iter(),
                i.into_par_iter(),
                j.into_par_iter(),
                k.into_par_iter(),
            ),
        }
    }
}

impl<A, B, C, D, E, F, G, H, I, J, K> ParallelIterator
    for MultiZip<(A, B, C, D, E, F, G, H, I, J, K)>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator,
    C: IndexedParallelIterator,
    D: IndexedParallelIterator,
    E: IndexedParallelIterator,
    F: IndexedParallelIterator,
    G: IndexedParallelIterator,
    H: IndexedParallelIterator,
    I: IndexedParallelIterator,
    J: IndexedParallelIterator,
    K: IndexedParallelIterator,
{
    type Item = (
        A::Item,
        B::Item,
        C::Item,
        D::Item,
        E::Item,
        F::Item,
        G::Item,
        H::Item,
        I::Item,
        J::Item,
        K::Item,
    );

    fn drive_unindexed<CO: UnindexedConsumer<Self::Item>>(self, consumer: CO) -> CO::Result {
        self.drive(consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.len())
    }
}

impl<A, B, C, D, E, F, G, H, I, J, K> IndexedParallelIterator
    for MultiZip<(A, B, C, D, E, F, G, H, I, J, K)>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator,
    C: IndexedParallelIterator,
    D: IndexedParallelIterator,
    E: IndexedParallelIterator,
    F: IndexedParallelIterator,
    G: IndexedParallelIterator,
    H: IndexedParallelIterator,
    I: IndexedParallelIterator,
    J: IndexedParallelIterator,
    K: IndexedParallelIterator,
{
    fn drive<CO: Consumer<Self::Item>>(self, consumer: CO) -> CO::Result {
        let (a, b, c, d, e, f, g, h, i, j, k) = self.tuple;
        a.zip(b)
            .zip(c)
            .zip(d)
            .zip(e)
            .zip(f)
            .zip(g)
            .zip(h)
            .zip(i)
            .zip(j)
            .zip(k)
            .map(|((((((((((a, b), c), d), e), f), g), h), i), j), k)| {
                (a, b, c, d, e, f, g, h, i, j, k)
            })
            .drive(consumer)
    }

    fn len(&self) -> usize {
        let (a, b, c, d, e, f, g, h, i, j, k) = &self.tuple;
        a.len()
            .min(b.len())
            .min(c.len())
            .min(d.len())
            .min(e.len())
            .min(f.len())
            .min(g.len())
            .min(h.len())
            .min(i.len())
            .min(j.len())
            .min(k.len())
    }

    fn with_producer<CB: ProducerCallback<Self::Item>>(self, callback: CB) -> CB::Output {
        let (a, b, c, d, e, f, g, h, i, j, k) = self.tuple;
        a.zip(b)
            .zip(c)
            .zip(d)
            .zip(e)
            .zip(f)
            .zip(g)
            .zip(h)
            .zip(i)
            .zip(j)
            .zip(k)
            .map(|((((((((((a, b), c), d), e), f), g), h), i), j), k)| {
                (a, b, c, d, e, f, g, h, i, j, k)
            })
            .with_producer(callback)
    }
}

impl<A, B, C, D, E, F, G, H, I, J, K, L> IntoParallelIterator
    for (A, B, C, D, E, F, G, H, I, J, K, L)
where
    A: IntoParallelIterator,
    A::Iter: IndexedParallelIterator,
    B: IntoParallelIterator,
    B::Iter: IndexedParallelIterator,
    C: IntoParallelIterator,
    C::Iter: IndexedParallelIterator,
    D: IntoParallelIterator,
    D::Iter: IndexedParallelIterator,
    E: IntoParallelIterator,
    E::Iter: IndexedParallelIterator,
    F: IntoParallelIterator,
    F::Iter: IndexedParallelIterator,
    G: IntoParallelIterator,
    G::Iter: IndexedParallelIterator,
    H: IntoParallelIterator,
    H::Iter: IndexedParallelIterator,
    I: IntoParallelIterator,
    I::Iter: IndexedParallelIterator,
    J: IntoParallelIterator,
    J::Iter: IndexedParallelIterator,
    K: IntoParallelIterator,
    K::Iter: IndexedParallelIterator,
    L: IntoParallelIterator,
    L::Iter: IndexedParallelIterator,
{
    type Iter = MultiZip<(
        A::Iter,
        B::Iter,
        C::Iter,
        D::Iter,
        E::Iter,
        F::Iter,
        G::Iter,
        H::Iter,
        I::Iter,
        J::Iter,
        K::Iter,
        L::Iter,
    )>;
    type Item = (
        A::Item,
        B::Item,
        C::Item,
        D::Item,
        E::Item,
        F::Item,
        G::Item,
        H::Item,
        I::Item,
        J::Item,
        K::Item,
        L::Item,
    );

    fn into_par_iter(self) -> Self::Iter {
        let (a, b, c, d, e, f, g, h, i, j, k, l) = self;
        MultiZip {
            tuple: (
                a.into_par_iter(),
                b.into_par_iter(),
                c.into_par_iter(),
                d.into_par_iter(),
                e.into_par_iter(),
                f.into_par_iter(),
                g.into_par_iter(),
                h.into_par_iter(),
                i.into_par_iter(),
                j.into_par_iter(),
                k.into_par_iter(),
                l.into_par_iter(),
            ),
        }
    }
}

impl<A, B, C, D, E, F, G, H, I, J, K, L> ParallelIterator
    for MultiZip<(A, B, C, D, E, F, G, H, I, J, K, L)>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator,
    C: IndexedParallelIterator,
    D: IndexedParallelIterator,
    E: IndexedParallelIterator,
    F: IndexedParallelIterator,
    G: IndexedParallelIterator,
    H: IndexedParallelIterator,
    I: IndexedParallelIterator,
    J: IndexedParallelIterator,
    K: IndexedParallelIterator,
    L: IndexedParallelIterator,
{
    type Item = (
        A::Item,
        B::Item,
        C::Item,
        D::Item,
        E::Item,
        F::Item,
        G::Item,
        H::Item,
        I::Item,
        J::Item,
        K::Item,
        L::Item,
    );

    fn drive_unindexed<CO: UnindexedConsumer<Self::Item>>(self, consumer: CO) -> CO::Result {
        self.drive(consumer)
    }

    fn opt_len(&self) -> Option<usize> {
        Some(self.len())
    }
}

impl<A, B, C, D, E, F, G, H, I, J, K, L> IndexedParallelIterator
    for MultiZip<(A, B, C, D, E, F, G, H, I, J, K, L)>
where
    A: IndexedParallelIterator,
    B: IndexedParallelIterator,
    C: IndexedParallelIterator,
    D: IndexedParallelIterator,
    E: IndexedParallelIterator,
    F: IndexedParallelIterator,
    G: IndexedParallelIterator,
    H: IndexedParallelIterator,
    I: IndexedParallelIterator,
    J: IndexedParallelIterator,
    K: IndexedParallelIterator,
    L: IndexedParallelIterator,
{
    fn drive<CO: Consumer<Self::Item>>(self, consumer: CO) -> CO::Result {
        let (a, b, c, d, e, f, g, h, i, j, k, l) = self.tuple;
        a.zip(b)
            .zip(c)
            .zip(d)
            .zip(e)
            .zip(f)
            .zip(g)
            .zip(h)
            .zip(i)
            .zip(j)
            .zip(k)
            .zip(l)
            .map(|(((((((((((a, b), c), d), e), f), g), h), i), j), k), l)| {
                (a, b, c, d, e, f, g, h, i, j, k, l)
            })
            .drive(consumer)
    }

    fn len(&self) -> usize {
        let (a, b, c, d, e, f, g, h, i, j, k, l) = &self.tuple;
        a.len()
            .min(b.len())
            .min(c.len())
            .min(d.len())
            .min(e.len())
            .min(f.len())
            .min(g.len())
            .min(h.len())
            .min(i.len())
            .min(j.len())
            .min(k.len())
            .min(l.len())
    }

    fn with_producer<CB: ProducerCallback<Self::Item>>(self, callback: CB) -> CB::Output {
        let (a, b, c, d, e, f, g, h, i, j, k, l) = self.tuple;
        a.zip(b)
            .zip(c)
            .zip(d)
            .zip(e)
            .zip(f)
            .zip(g)
            .zip(h)
            .zip(i)
            .zip(j)
            .zip(k)
            .zip(l)
            .map(|(((((((((((a, b), c), d), e), f), g), h), i), j), k), l)| {
                (a, b, c, d, e, f, g, h, i, j, k, l)
            })
            .with_producer(callback)
    }
}
