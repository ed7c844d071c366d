//! The computer levels' anchors (`crates/core/src/players/anchors.rs`): on each board
//! the four levels (Random, Easy, Medium, Impossible) play each other, every pair from
//! both sides, in rounds; after each round every level's Glicko-2 rating
//! (`skillratings`, the configuration people are rated with) takes the round's games
//! as one rating period. Each game's computers draw fresh random choices, as in a game
//! against a person. The scale is pinned by Random at 1000 (Glicko-2 says only how far
//! apart players are: every level is moved by the same amount at the end).
//!
//!     cargo run --release --features measure --example calibrate                      # every board
//!     cargo run --release --features measure --example calibrate -- --size 3 --win 3  # one board
//!     cargo run --release --features measure --example calibrate -- --rounds 12 --games 4 --think-ms 100 --seed 1
//!
//! Options: `--rounds R` (default 12), `--games G` per ordered pair of levels per round
//! (default 4), `--think-ms MS` (Impossible's thinking time a move, default 100),
//! `--seed S` (the master seed every game's seeds are drawn from, default 1: the same
//! command prints the same table), `--size N --win K` (one board).
//!
//! Prints, per board, each level's score against each other level, how many different
//! games each pairing played (a level whose games all look alike would be farmed), and
//! the table's line: `(size, win, [(rating, deviation, volatility, games); 4]),`.

use std::collections::HashSet;
use std::time::Duration;

use clap::{CommandFactory, Parser};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use skillratings::Outcomes;
use skillratings::glicko2::{Glicko2Config, Glicko2Rating, glicko2_rating_period};
use tictactoe_core::domain::{BitBoard, Game, GameState, GameStatus, Geometry, Mark};
use tictactoe_core::players::{Level, MoveChooser};
use tictactoe_players::{SharedSolvers, computer_at};

/// Calibrates the computer levels' anchors: the levels play each other on each board
/// and are rated with Glicko-2.
#[derive(Parser)]
#[command(name = "calibrate")]
struct Options {
    /// One board's size (with --win); every board from 3x3 to 7x7 if not given.
    #[arg(long, requires = "win")]
    size: Option<usize>,
    /// How many marks in a row win on that board.
    #[arg(long, requires = "size")]
    win: Option<usize>,
    /// Rounds: each is one Glicko-2 rating period.
    #[arg(long, default_value_t = 12)]
    rounds: u64,
    /// Games per ordered pair of levels per round.
    #[arg(long, default_value_t = 4)]
    games: u64,
    /// Impossible's thinking time a move, in milliseconds.
    #[arg(long = "think-ms", default_value = "100", value_parser = milliseconds)]
    think: Duration,
    /// The master seed every game's seeds are drawn from.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

fn milliseconds(given: &str) -> Result<Duration, std::num::ParseIntError> {
    given.parse().map(Duration::from_millis)
}

/// The boards to calibrate: the one asked for, or every board.
fn boards(options: &Options) -> Vec<Geometry> {
    match (options.size, options.win) {
        (Some(size), Some(win)) => match Geometry::new(size, win) {
            Ok(board) => vec![board],
            Err(error) => Options::command()
                .error(clap::error::ErrorKind::ValueValidation, error)
                .exit(),
        },
        _ => (3..=7)
            .flat_map(|size| (3..=size).filter_map(move |win| Geometry::new(size, win).ok()))
            .collect(),
    }
}

fn main() {
    let options = Options::parse();
    let mut seeds = StdRng::seed_from_u64(options.seed);
    let mut lines = Vec::new();
    for board in boards(&options) {
        lines.push(calibrate(&options, board, &mut seeds));
    }
    println!("\n// The table (crates/core/src/players/anchors.rs):");
    for line in lines {
        println!("{line}");
    }
}

/// One board's calibration: the table's line for it.
fn calibrate(options: &Options, board: Geometry, seeds: &mut StdRng) -> String {
    let solvers = SharedSolvers::new();
    let levels = Level::ALL;
    let mut ratings = [Glicko2Rating::new(); 4];
    let mut games = [0u64; 4];
    // Points (1 a win, ½ a draw) and games of row level against column level.
    let mut points = [[0.0f64; 4]; 4];
    let mut played = [[0u64; 4]; 4];
    let mut distinct: Vec<Vec<HashSet<Vec<usize>>>> = vec![vec![HashSet::new(); 4]; 4];
    let config = Glicko2Config::new();
    for _ in 0..options.rounds {
        let mut results: [Vec<(Glicko2Rating, Outcomes)>; 4] = Default::default();
        for x in 0..4 {
            for o in 0..4 {
                if x == o {
                    continue;
                }
                for _ in 0..options.games {
                    let seed = seeds.next_u64();
                    let (moves, winner) =
                        play(board, [levels[x], levels[o]], seed, options.think, &solvers);
                    distinct[x][o].insert(moves);
                    let (x_score, o_score) = match winner {
                        Some(Mark::X) => (Outcomes::WIN, Outcomes::LOSS),
                        Some(Mark::O) => (Outcomes::LOSS, Outcomes::WIN),
                        None => (Outcomes::DRAW, Outcomes::DRAW),
                    };
                    results[x].push((ratings[o], x_score));
                    results[o].push((ratings[x], o_score));
                    points[x][o] += x_score.to_chess_points();
                    points[o][x] += o_score.to_chess_points();
                    played[x][o] += 1;
                    played[o][x] += 1;
                    games[x] += 1;
                    games[o] += 1;
                }
            }
        }
        ratings = std::array::from_fn(|level| {
            glicko2_rating_period(&ratings[level], &results[level], &config)
        });
    }
    let shift = 1000.0 - ratings[0].rating;
    println!(
        "{} x {}, {} in a row: {} rounds of {} games a pairing",
        board.size(),
        board.size(),
        board.win_length(),
        options.rounds,
        options.games
    );
    for (row, level) in levels.iter().enumerate() {
        let against: Vec<String> = (0..4)
            .filter(|&column| column != row)
            .map(|column| {
                format!(
                    "{:.0}% v {} ({} of {} games different as X)",
                    100.0 * points[row][column] / played[row][column] as f64,
                    levels[column],
                    distinct[row][column].len(),
                    played[row][column] / 2
                )
            })
            .collect();
        println!(
            "  {:<10} {:>7.1} ± {:>5.1} (volatility {:.4}): {}",
            level.to_string(),
            ratings[row].rating + shift,
            ratings[row].deviation,
            ratings[row].volatility,
            against.join("; ")
        );
    }
    let figures: Vec<String> = (0..4)
        .map(|level| {
            format!(
                "({:.1}, {:.1}, {:.4}, {})",
                ratings[level].rating + shift,
                ratings[level].deviation,
                ratings[level].volatility,
                games[level]
            )
        })
        .collect();
    format!(
        "    ({}, {}, [{}]),",
        board.size(),
        board.win_length(),
        figures.join(", ")
    )
}

/// One game between `levels` (X, O), each computer seeded afresh from `seed`: its
/// moves (cell indexes) and its winner, `None` for a draw.
fn play(
    board: Geometry,
    levels: [Level; 2],
    seed: u64,
    think: Duration,
    solvers: &SharedSolvers,
) -> (Vec<usize>, Option<Mark>) {
    let mut players: Vec<Box<dyn MoveChooser>> = levels
        .iter()
        .zip([seed, seed.wrapping_add(1)])
        .map(|(&level, seed)| computer_at(level, StdRng::seed_from_u64(seed), think, solvers))
        .collect();
    let mut game = Game::<BitBoard>::start(board, Mark::X);
    let mut moves = Vec::new();
    loop {
        match game.status() {
            GameStatus::InProgress => {}
            GameStatus::Won(win) => return (moves, Some(win.mark)),
            GameStatus::Draw => return (moves, None),
        }
        let mover = game.to_move();
        let player = &mut players[mover.index()];
        let position = player
            .choose_move(&game)
            .expect("a move in a game in progress");
        moves.push(position.index());
        game.play(position).expect("a legal move");
    }
}
