//! One exact solver per board shape, shared by every Impossible player that is handed
//! the same [`SharedSolvers`]: a hundred games of one shape keep one transposition
//! table, not a hundred. Every solver's tables draw on one [`Memory`], so the whole
//! pool stays under one cap however many shapes are played.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard, TryLockError};
use std::time::{Duration, Instant};

use tictactoe_core::domain::Geometry;
// A lock whose holder panicked is still usable: the solver's table only ever holds
// proven entries (a search stopped half-way stores nothing), so it is never left wrong.
use tictactoe_core::sync::lock;
use tictactoe_engine::{Memory, Solver};

/// A cheap handle (clone it freely) on the solvers of every shape in use.
///
/// Each solver sits behind its own lock, so games of different shapes think at the
/// same time, and games of one shape take turns with one table. The memory their
/// tables hold together is at most the pool's [`Memory`], whatever the number of
/// games and shapes.
#[derive(Clone, Default)]
pub struct SharedSolvers {
    by_shape: Arc<Mutex<HashMap<Geometry, Arc<Kept>>>>,
    /// The solvers never read the opening book ([`without_book`](Self::without_book)).
    no_book: bool,
    memory: Memory,
}

/// One shape's solver, and when it was last taken.
struct Kept {
    solver: Mutex<Solver>,
    used: Mutex<Instant>,
}

impl SharedSolvers {
    /// A pool whose tables hold at most [`DEFAULT_BYTES`](tictactoe_engine::DEFAULT_BYTES).
    pub fn new() -> Self {
        SharedSolvers::default()
    }

    /// A pool whose tables draw on `memory` (which other pools may share).
    pub fn within(memory: Memory) -> Self {
        SharedSolvers {
            memory,
            ..SharedSolvers::default()
        }
    }

    /// A pool whose solvers never read the opening book: every answer is proven by
    /// search (`analyze --no-book`).
    pub fn without_book() -> Self {
        SharedSolvers {
            no_book: true,
            ..SharedSolvers::default()
        }
    }

    /// A pool of solvers of its own, drawing on this pool's memory: for a long
    /// analysis that must not keep the games of its board waiting for the shared one.
    pub fn apart(&self) -> Self {
        SharedSolvers {
            by_shape: Arc::default(),
            no_book: self.no_book,
            memory: self.memory.clone(),
        }
    }

    /// What the tables of this pool (and the pools sharing its memory) hold.
    pub fn memory(&self) -> &Memory {
        &self.memory
    }

    /// The solver for `geometry`, made on first use.
    pub fn for_shape(&self, geometry: Geometry) -> SolverHandle {
        let mut by_shape = lock(&self.by_shape);
        let kept = by_shape.entry(geometry).or_insert_with(|| {
            let solver = Solver::within(geometry, self.memory.clone());
            let solver = if self.no_book {
                solver.without_book()
            } else {
                solver
            };
            Arc::new(Kept {
                solver: Mutex::new(solver),
                used: Mutex::new(Instant::now()),
            })
        });
        SolverHandle {
            geometry,
            kept: Arc::clone(kept),
        }
    }

    /// Forgets the tables of every solver not taken for `idle` and not in use now,
    /// giving their memory back: after a busy spell, the pool returns to its resting
    /// size. A solver in use is left alone (it is not idle).
    pub fn forget_idle(&self, idle: Duration) {
        let kept: Vec<Arc<Kept>> = lock(&self.by_shape).values().cloned().collect();
        for kept in kept {
            if lock(&kept.used).elapsed() < idle {
                continue;
            }
            match kept.solver.try_lock() {
                Ok(mut solver) => solver.forget(),
                Err(TryLockError::Poisoned(poisoned)) => poisoned.into_inner().forget(),
                Err(TryLockError::WouldBlock) => {}
            }
        }
    }

    /// How many shapes have a solver: for tests.
    #[cfg(test)]
    pub(crate) fn shapes(&self) -> usize {
        lock(&self.by_shape).len()
    }
}

/// One shape's shared solver.
#[derive(Clone)]
pub struct SolverHandle {
    geometry: Geometry,
    kept: Arc<Kept>,
}

impl SolverHandle {
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// The solver, for as long as the guard lives; other games of this shape wait.
    pub fn lock(&self) -> MutexGuard<'_, Solver> {
        let solver = lock(&self.kept.solver);
        *lock(&self.kept.used) = Instant::now();
        solver
    }

    /// Whether two handles share one solver: for tests.
    #[cfg(test)]
    pub(crate) fn same_as(&self, other: &SolverHandle) -> bool {
        Arc::ptr_eq(&self.kept, &other.kept)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn games_of_one_shape_share_one_solver() {
        let solvers = SharedSolvers::new();

        let first = solvers.for_shape(Geometry::classic());
        let second = solvers.clone().for_shape(Geometry::classic());

        assert!(first.same_as(&second));
        assert_eq!(solvers.shapes(), 1);
    }

    #[test]
    fn each_shape_has_its_own_solver() {
        let solvers = SharedSolvers::new();

        let small = solvers.for_shape(Geometry::classic());
        let large = solvers.for_shape(Geometry::new(4, 3).unwrap());

        assert!(!small.same_as(&large));
        assert_eq!(large.lock().geometry(), Geometry::new(4, 3).unwrap());
    }

    #[test]
    fn a_pool_without_the_book_makes_solvers_that_never_read_it() {
        let (with, without) = (SharedSolvers::new(), SharedSolvers::without_book());

        let shape = Geometry::new(7, 5).unwrap();

        assert!(with.for_shape(shape).lock().reads_book());
        assert!(!without.for_shape(shape).lock().reads_book());
    }

    #[test]
    fn a_handle_names_the_shape_of_its_solver() {
        // Arrange: a shape other than the classic board (the default).
        let shape = Geometry::new(4, 3).unwrap();

        // Act
        let handle = SharedSolvers::new().for_shape(shape);

        // Assert
        assert_eq!(handle.geometry(), shape);
    }

    /// The empty board of `handle`'s shape, analysed for X by its solver.
    fn analysed(handle: &SolverHandle) {
        let board = tictactoe_core::domain::BitBoard::new(handle.geometry());
        let analysis = handle
            .lock()
            .analyze(&board, tictactoe_core::domain::Mark::X);
        assert!(analysis.is_some());
    }

    #[test]
    fn the_solvers_of_every_shape_draw_on_the_pools_one_memory() {
        let memory = Memory::at_most(64 << 20);
        let solvers = SharedSolvers::within(memory.clone());

        analysed(&solvers.for_shape(Geometry::classic()));
        let after_one = memory.in_use();
        analysed(&solvers.for_shape(Geometry::new(4, 3).unwrap()));

        assert!(after_one > 0);
        assert!(memory.in_use() > after_one);
        assert!(memory.in_use() <= memory.cap());
    }

    #[test]
    fn a_solver_idle_for_long_enough_gives_its_memory_back() {
        let solvers = SharedSolvers::new();
        analysed(&solvers.for_shape(Geometry::classic()));

        solvers.forget_idle(Duration::ZERO);

        assert_eq!(solvers.memory().in_use(), 0);
    }

    #[test]
    fn a_solver_used_more_recently_than_the_idle_time_keeps_its_tables() {
        let solvers = SharedSolvers::new();
        analysed(&solvers.for_shape(Geometry::classic()));
        let held = solvers.memory().in_use();

        solvers.forget_idle(Duration::from_secs(3600));

        assert_eq!(solvers.memory().in_use(), held);
    }

    #[test]
    fn a_solver_in_use_keeps_its_tables_however_long_since_it_was_taken() {
        let solvers = SharedSolvers::new();
        let handle = solvers.for_shape(Geometry::classic());
        analysed(&handle);
        let held = solvers.memory().in_use();
        let _thinking = handle.lock();

        solvers.forget_idle(Duration::ZERO);

        assert_eq!(solvers.memory().in_use(), held);
    }

    #[test]
    fn a_pool_apart_has_its_own_solvers_on_the_same_memory() {
        let solvers = SharedSolvers::new();
        let apart = solvers.apart();

        let theirs = apart.for_shape(Geometry::classic());
        analysed(&theirs);

        assert!(!theirs.same_as(&solvers.for_shape(Geometry::classic())));
        assert!(solvers.memory().in_use() > 0);
    }

    #[test]
    fn the_handle_and_its_solver_can_be_sent_to_another_thread() {
        fn is_send_and_sync<T: Send + Sync>() {}
        is_send_and_sync::<SharedSolvers>();
        is_send_and_sync::<SolverHandle>();
    }
}
