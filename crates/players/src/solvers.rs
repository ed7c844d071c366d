//! One exact solver per board shape, shared by every Impossible player that is handed
//! the same [`SharedSolvers`]: a hundred games of one shape keep one transposition
//! table, not a hundred.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, MutexGuard};

use tictactoe_core::domain::Geometry;
// A lock whose holder panicked is still usable: the solver's table only ever holds
// proven entries (a search stopped half-way stores nothing), so it is never left wrong.
use tictactoe_core::sync::lock;
use tictactoe_engine::Solver;

/// A cheap handle (clone it freely) on the solvers of every shape in use.
///
/// Each solver sits behind its own lock, so games of different shapes think at the
/// same time, and games of one shape take turns with one table. The memory held is at
/// most one capped table per shape played, whatever the number of games.
#[derive(Clone, Default)]
pub struct SharedSolvers {
    by_shape: Arc<Mutex<HashMap<Geometry, Arc<Mutex<Solver>>>>>,
    /// The solvers never read the opening book ([`without_book`](Self::without_book)).
    no_book: bool,
}

impl SharedSolvers {
    pub fn new() -> Self {
        SharedSolvers::default()
    }

    /// A pool whose solvers never read the opening book: every answer is proven by
    /// search (`analyze --no-book`).
    pub fn without_book() -> Self {
        SharedSolvers {
            no_book: true,
            ..SharedSolvers::default()
        }
    }

    /// The solver for `geometry`, made on first use.
    pub fn for_shape(&self, geometry: Geometry) -> SolverHandle {
        let mut by_shape = lock(&self.by_shape);
        let solver = by_shape.entry(geometry).or_insert_with(|| {
            let solver = Solver::new(geometry);
            let solver = if self.no_book {
                solver.without_book()
            } else {
                solver
            };
            Arc::new(Mutex::new(solver))
        });
        SolverHandle {
            geometry,
            solver: Arc::clone(solver),
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
    solver: Arc<Mutex<Solver>>,
}

impl SolverHandle {
    pub fn geometry(&self) -> Geometry {
        self.geometry
    }

    /// The solver, for as long as the guard lives; other games of this shape wait.
    pub fn lock(&self) -> MutexGuard<'_, Solver> {
        lock(&self.solver)
    }

    /// Whether two handles share one solver: for tests.
    #[cfg(test)]
    pub(crate) fn same_as(&self, other: &SolverHandle) -> bool {
        Arc::ptr_eq(&self.solver, &other.solver)
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

    #[test]
    fn the_handle_and_its_solver_can_be_sent_to_another_thread() {
        fn is_send_and_sync<T: Send + Sync>() {}
        is_send_and_sync::<SharedSolvers>();
        is_send_and_sync::<SolverHandle>();
    }
}
