//! The `?` protocol for `try_for_each` and `try_reduce`: `Option`,
//! `Result` and `ControlFlow` (a sealed stand-in for the unstable
//! `std::ops::Try`).

use std::ops::ControlFlow;

pub use sealed::Try;

mod sealed {
    use std::ops::ControlFlow;

    /// A value that either continues with an `Output` or stops with a
    /// `Residual` (`None`, `Err`, `Break`).
    pub trait Try {
        /// The value carried on.
        type Output;
        /// What stops.
        type Residual;

        /// Wraps a value carried on.
        fn from_output(output: Self::Output) -> Self;
        /// Wraps what stopped.
        fn from_residual(residual: Self::Residual) -> Self;
        /// Which of the two `self` is.
        fn branch(self) -> ControlFlow<Self::Residual, Self::Output>;
    }
}

impl<T> Try for Option<T> {
    type Output = T;
    type Residual = ();

    fn from_output(output: T) -> Self {
        Some(output)
    }
    fn from_residual((): ()) -> Self {
        None
    }
    fn branch(self) -> ControlFlow<(), T> {
        match self {
            Some(value) => ControlFlow::Continue(value),
            None => ControlFlow::Break(()),
        }
    }
}

impl<T, E> Try for Result<T, E> {
    type Output = T;
    type Residual = E;

    fn from_output(output: T) -> Self {
        Ok(output)
    }
    fn from_residual(error: E) -> Self {
        Err(error)
    }
    fn branch(self) -> ControlFlow<E, T> {
        match self {
            Ok(value) => ControlFlow::Continue(value),
            Err(error) => ControlFlow::Break(error),
        }
    }
}

impl<B, C> Try for ControlFlow<B, C> {
    type Output = C;
    type Residual = B;

    fn from_output(output: C) -> Self {
        ControlFlow::Continue(output)
    }
    fn from_residual(residual: B) -> Self {
        ControlFlow::Break(residual)
    }
    fn branch(self) -> ControlFlow<B, C> {
        self
    }
}
