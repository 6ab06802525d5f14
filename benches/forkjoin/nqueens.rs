//! nqueens(12): the number of ways to place 12 queens on a 12×12 board,
//! one row at a time, a fork for every split of the free columns of a row
//! (halves by `join`, down to one column, no sequential cutoff): 856,189
//! boards visited (the empty one too) and 314,729 forks, over a search
//! whose branches end at different depths. Bit masks: the columns and the
//! two diagonals taken. The count must be 14,200. `benches/rayon` runs
//! the rayon version too.

/// The board's size.
pub const N: u32 = 12;
/// Solutions of nqueens(12).
pub const EXPECTED: u64 = 14_200;

/// Panics unless `count` is nqueens(12)'s.
pub fn check(count: u64) {
    assert_eq!(count, EXPECTED, "nqueens({N}) is wrong");
}

/// A partial placement: the rows filled so far and what they attack.
#[derive(Clone, Copy)]
pub struct Board {
    n: u32,
    row: u32,
    columns: u32,
    left: u32,
    right: u32,
}

impl Board {
    /// The empty board of `n` rows.
    pub fn empty(n: u32) -> Board {
        Board {
            n,
            row: 0,
            columns: 0,
            left: 0,
            right: 0,
        }
    }

    fn full(self) -> bool {
        self.row == self.n
    }

    /// The free columns of the next row.
    fn free(self) -> u32 {
        !(self.columns | self.left | self.right) & ((1 << self.n) - 1)
    }

    /// The board with a queen in `column` (a one-bit mask) of the next row.
    fn place(self, column: u32) -> Board {
        Board {
            n: self.n,
            row: self.row + 1,
            columns: self.columns | column,
            left: (self.left | column) << 1,
            right: (self.right | column) >> 1,
        }
    }
}

/// The lower half of the columns in `free` (by count), and the rest.
fn halves(free: u32) -> (u32, u32) {
    let mut low = 0;
    let mut rest = free;
    for _ in 0..free.count_ones() / 2 {
        let lowest = rest & rest.wrapping_neg();
        low |= lowest;
        rest ^= lowest;
    }
    (low, rest)
}

/// The same search on one thread.
pub fn sequential(board: Board) -> u64 {
    if board.full() {
        return 1;
    }
    let mut free = board.free();
    let mut count = 0;
    while free != 0 {
        let column = free & free.wrapping_neg();
        free ^= column;
        count += sequential(board.place(column));
    }
    count
}

macro_rules! nqueens_with {
    ($name:ident, $columns:ident, $join:path) => {
        /// The solutions below `board`, with this system's `join`. Call
        /// inside its pool.
        pub fn $name(board: Board) -> u64 {
            if board.full() {
                return 1;
            }
            $columns(board, board.free())
        }

        /// The solutions with the next queen in one of `columns`.
        fn $columns(board: Board, columns: u32) -> u64 {
            match columns.count_ones() {
                0 => 0,
                1 => $name(board.place(columns)),
                _ => {
                    let (low, high) = halves(columns);
                    let (a, b) = $join(|| $columns(board, low), || $columns(board, high));
                    a + b
                }
            }
        }
    };
}

nqueens_with!(rayon_join, rayon_columns, rayon::join);
nqueens_with!(rt_join, rt_columns, rt::join);

/// chili's `Scope::join`, with the same splits.
pub fn chili(board: Board, s: &mut chili::Scope<'_>) -> u64 {
    if board.full() {
        return 1;
    }
    chili_columns(board, board.free(), s)
}

fn chili_columns(board: Board, columns: u32, s: &mut chili::Scope<'_>) -> u64 {
    match columns.count_ones() {
        0 => 0,
        1 => chili(board.place(columns), s),
        _ => {
            let (low, high) = halves(columns);
            let (a, b) = s.join(
                |s| chili_columns(board, low, s),
                |s| chili_columns(board, high, s),
            );
            a + b
        }
    }
}
