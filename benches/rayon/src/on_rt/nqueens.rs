//! nqueens(12): the number of ways to place 12 queens on a 12×12 board,
//! none attacking another, must be 14,200. Rows are filled in order; the
//! free squares of a row are a bit mask (the columns and both diagonals
//! the queens above attack are taken out), and the free squares are
//! explored with `rayon::join`, splitting the set of free squares in
//! halves down to one square, with no sequential cutoff: 856,189 boards
//! visited (the empty one too), 314,729 joins.

/// The board's size.
pub const N: u32 = 12;
/// The solutions of nqueens(12).
pub const EXPECTED: u64 = 14_200;

/// Panics unless `solutions` is nqueens(12)'s.
pub fn check(solutions: u64) {
    assert_eq!(solutions, EXPECTED, "nqueens({N}) is wrong");
}

/// The solutions of an `n`×`n` board.
pub fn rayon_join(n: u32) -> u64 {
    below(Board::empty(n))
}

/// The queens placed so far, as masks of the columns they take and of the
/// squares their diagonals attack on the next row.
#[derive(Clone, Copy)]
struct Board {
    full: u32,
    columns: u32,
    left: u32,
    right: u32,
}

impl Board {
    fn empty(n: u32) -> Board {
        Board {
            full: (1 << n) - 1,
            columns: 0,
            left: 0,
            right: 0,
        }
    }

    /// The free squares of the next row.
    fn free(self) -> u32 {
        !(self.columns | self.left | self.right) & self.full
    }

    /// The board with a queen on `square` (one bit) of the next row.
    fn place(self, square: u32) -> Board {
        Board {
            full: self.full,
            columns: self.columns | square,
            left: ((self.left | square) << 1) & self.full,
            right: (self.right | square) >> 1,
        }
    }
}

/// The solutions that complete `board`.
fn below(board: Board) -> u64 {
    if board.columns == board.full {
        return 1;
    }
    branches(board, board.free())
}

/// The solutions with the next queen on one of `squares`.
fn branches(board: Board, squares: u32) -> u64 {
    match squares.count_ones() {
        0 => 0,
        1 => below(board.place(squares)),
        count => {
            // The lower half of the squares (by count) against the rest.
            let mut low = 0;
            let mut rest = squares;
            for _ in 0..count / 2 {
                low |= rest & rest.wrapping_neg();
                rest &= rest - 1;
            }
            let (a, b) = rayon::join(|| branches(board, low), || branches(board, rest));
            a + b
        }
    }
}
