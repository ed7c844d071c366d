//! The difficulty ladder, measured by playing: every level beats Random more often than
//! the level below it does, Medium falls to Impossible, and Impossible never loses.
//! Seeded, so the counts are the same on every run.

use std::collections::HashSet;

use rand::SeedableRng;
use rand::rngs::StdRng;
use tictactoe_core::domain::{BitBoard, Game, GameState, Geometry, Mark};
use tictactoe_core::play::simulate;
use tictactoe_core::players::{Level, MoveChooser};
use tictactoe_players::{MinimaxAI, RandomAI};

fn computer(level: Level, seed: u64) -> Box<dyn MoveChooser> {
    let rng = StdRng::seed_from_u64(seed);
    match level {
        Level::Random => Box::new(RandomAI::new(rng)),
        Level::Easy => Box::new(MinimaxAI::easy(rng)),
        Level::Medium => Box::new(MinimaxAI::medium(rng)),
        Level::Impossible => Box::new(MinimaxAI::impossible(rng)),
    }
}

/// Plays `games` games, as `simulate` does, and returns (X wins, O wins, draws).
fn tally(x: Level, o: Level, games: u64) -> (u64, u64, u64) {
    let players = [computer(x, 1), computer(o, 2)];
    let tally = simulate(players, Geometry::classic(), Mark::X, games, |_| {}).unwrap();
    (tally.x_wins, tally.o_wins, tally.draws)
}

#[test]
fn each_level_beats_random_more_often_than_the_level_below_it() {
    let games = 300;
    let as_x: Vec<u64> = Level::ALL
        .iter()
        .map(|&level| tally(level, Level::Random, games).0)
        .collect();
    let as_o: Vec<u64> = Level::ALL
        .iter()
        .map(|&level| tally(Level::Random, level, games).1)
        .collect();

    eprintln!(
        "wins out of {games} against Random, levels Random/Easy/Medium/Impossible: as X {as_x:?}, as O {as_o:?}"
    );
    assert!(
        as_x.windows(2).all(|pair| pair[0] < pair[1]),
        "wins as X out of {games}: {as_x:?}"
    );
    assert!(
        as_o.windows(2).all(|pair| pair[0] < pair[1]),
        "wins as O out of {games}: {as_o:?}"
    );
}

#[test]
fn impossible_never_loses_to_any_level_and_beats_medium_sometimes() {
    for level in Level::ALL {
        let (_, impossible_lost_as_x, _) = tally(Level::Impossible, level, 100);
        let (impossible_lost_as_o, _, _) = tally(level, Level::Impossible, 100);
        assert_eq!(
            (impossible_lost_as_x, impossible_lost_as_o),
            (0, 0),
            "against {level}"
        );
    }
    let (medium_beaten, _, _) = tally(Level::Impossible, Level::Medium, 100);
    assert!(medium_beaten > 0, "Medium should fall for a fork sometimes");
}

#[test]
fn impossible_varies_its_opening_but_a_seed_replays_it() {
    let game = Game::<BitBoard>::start(Geometry::classic(), Mark::X);
    let opening = |seed| computer(Level::Impossible, seed).choose_move(&game);

    let openings: HashSet<_> = (0..60).map(|seed| format!("{:?}", opening(seed))).collect();

    assert!(
        openings.len() >= 6,
        "every opening draws, so many should be seen: {openings:?}"
    );
    assert_eq!(opening(7), opening(7));
}

/// A person who always answers the same way: the first empty cell, row by row.
fn same_answers_game(level: Level, seed: u64) -> Vec<usize> {
    let mut computer = computer(level, seed);
    let mut game = Game::<BitBoard>::start(Geometry::classic(), Mark::X);
    let mut moves = Vec::new();
    while !game.status().is_over() {
        let position = if game.to_move() == Mark::X {
            game.board().empty_cells()[0]
        } else {
            computer.choose_move(&game).expect("a move")
        };
        moves.push(position.index());
        game.play(position).expect("a legal move");
    }
    moves
}

/// The levels a person is rated against are rated for playing with fresh random
/// choices (examples/calibrate.rs): a person who plays the same moves every game must
/// not meet the same replies every game, or a rating could be farmed by repeating a
/// line that once won (lichess's known failure with predictable bots).
#[test]
fn a_weak_level_meets_the_same_moves_with_different_replies_from_game_to_game() {
    for level in [Level::Random, Level::Easy, Level::Medium] {
        let games: HashSet<Vec<usize>> =
            (0..20).map(|seed| same_answers_game(level, seed)).collect();

        assert!(games.len() > 1, "{level} replied the same way in 20 games");
    }
}
