//! `tictactoe simulate`: many computer-vs-computer games, counted, with nothing shown
//! and nothing recorded. The games are ordinary matches, advanced until they end.

use super::game_match::{ComputerError, End, Match, Seat, Unrecorded};
use crate::domain::{Geometry, Mark, Outcome};
use crate::players::MoveChooser;

#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Tally {
    pub games: u64,
    pub x_wins: u64,
    pub o_wins: u64,
    pub draws: u64,
}

/// Plays `games` games between `computers` (X, O), the same two throughout so their
/// searches stay warm. `progress` is told how many games are done after each one.
pub fn simulate(
    computers: [Box<dyn MoveChooser>; 2],
    geometry: Geometry,
    first: Mark,
    games: u64,
    mut progress: impl FnMut(u64),
) -> Result<Tally, ComputerError> {
    let mut seats = computers.map(Seat::Computer);
    let mut tally = Tally::default();
    for done in 1..=games {
        let mut game = Match::new(geometry, first, seats, Unrecorded);
        while game.end().is_none() {
            game.advance()?;
        }
        match game.end() {
            Some(End::Finished(finished)) => match finished.outcome {
                Outcome::Won(Mark::X) => tally.x_wins += 1,
                Outcome::Won(Mark::O) => tally.o_wins += 1,
                Outcome::Draw => tally.draws += 1,
            },
            // Computers never leave, give up or play on time.
            Some(
                End::Abandoned { .. }
                | End::Resigned { .. }
                | End::TimedOut { .. }
                | End::Aborted { .. },
            )
            | None => {}
        }
        tally.games = done;
        progress(done);
        seats = game.into_seats();
    }
    Ok(tally)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::domain::{PlayerName, Position};
    use crate::players::MockComputer;

    /// A computer that always plays the first empty cell.
    fn first_empty_cell(name: &str) -> Box<dyn MoveChooser> {
        let mut computer = MockComputer::new();
        computer
            .expect_name()
            .return_const(PlayerName::new(name).unwrap());
        computer
            .expect_choose_move()
            .returning(|game| game.board().empty_cells().first().copied());
        Box::new(computer)
    }

    #[test]
    fn every_game_is_played_to_its_end_and_counted() {
        // First-empty-cell against itself: X takes 1, 3, 5, 7 and wins on the diagonal.
        let mut reported = Vec::new();

        let tally = simulate(
            [first_empty_cell("A"), first_empty_cell("B")],
            Geometry::classic(),
            Mark::X,
            3,
            |done| reported.push(done),
        )
        .unwrap();

        assert_eq!(
            tally,
            Tally {
                games: 3,
                x_wins: 3,
                o_wins: 0,
                draws: 0
            }
        );
        assert_eq!(reported, [1, 2, 3]);
    }

    /// A computer that plays its `script` in order, game after game: its n-th move of a
    /// game is `script[n]`.
    fn scripted(script: &'static [usize]) -> Box<dyn MoveChooser> {
        let mut computer = MockComputer::new();
        computer
            .expect_name()
            .return_const(PlayerName::new("Script").unwrap());
        computer.expect_choose_move().returning(move |game| {
            let number = script.get(game.moves_played() / 2)?;
            Geometry::classic().position(number - 1)
        });
        Box::new(computer)
    }

    #[test]
    fn draws_and_o_wins_are_counted_each_in_their_own_column() {
        // X 1, 3, 4, 8, 9 against O 2, 5, 6, 7 fills the board without a line.
        let draws = simulate(
            [scripted(&[1, 3, 4, 8, 9]), scripted(&[2, 5, 6, 7])],
            Geometry::classic(),
            Mark::X,
            2,
            |_| {},
        )
        .unwrap();
        // O moving first takes 1, 2, 3 while X plays 4, 5.
        let o_wins = simulate(
            [scripted(&[4, 5]), scripted(&[1, 2, 3])],
            Geometry::classic(),
            Mark::O,
            3,
            |_| {},
        )
        .unwrap();

        assert_eq!((draws.draws, draws.x_wins, draws.o_wins), (2, 0, 0));
        assert_eq!((o_wins.o_wins, o_wins.x_wins, o_wins.draws), (3, 0, 0));
    }

    #[test]
    fn a_computer_with_no_move_stops_the_run_with_its_name() {
        let mut stuck = MockComputer::new();
        stuck
            .expect_name()
            .return_const(PlayerName::new("Stuck").unwrap());
        stuck
            .expect_choose_move()
            .times(1)
            .return_const(None::<Position>);

        let result = simulate(
            [Box::new(stuck), first_empty_cell("B")],
            Geometry::classic(),
            Mark::X,
            1,
            |_| {},
        );

        assert!(
            matches!(result, Err(ComputerError::NoMove { player }) if player.as_str() == "Stuck")
        );
    }
}
