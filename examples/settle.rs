//! Plays (7,7,5) games between every pairing of levels (Random, Easy, Medium,
//! Impossible, as X and as O: 16 pairings), then asks a new Impossible player, with its
//! thinking time, about every position of them that is still in progress, as a hint or
//! a review does, and counts how many answers are exact (value, length and every best
//! move proven).
//!
//!     cargo run --release --features measure --example settle                     # 1 game a pairing, seed 1
//!     cargo run --release --features measure --example settle -- --games 2 --seed 7 --think-ms 1000
//!
//! Options: `--games N` per pairing (default 1), `--seed S` (game `g` of pairing `p`
//! is seeded `S + 100 p + g`; each level's RNG is seeded from it), `--play-ms MS`
//! (Impossible's thinking time while the games are played, default 1000), `--think-ms
//! MS` (the time for each answer, default 1000), `--warm` (one player for all the
//! positions of a game, in order, as a review has; default: a new player, cold, for
//! each position), `--no-book`, `--size N --win K` (default 7 and 5), `--positions
//! FILE` (instead of playing games, the positions of an earlier run's output: its
//! lines `pairing seed ply board ...`, so that two builds are measured on the same
//! positions; the games played differ between builds, as Impossible plays what it
//! proves within its time).
//!
//! Prints one line per position (`pairing seed ply board exact ms`), those not exact
//! marked `NOT EXACT`, then the count and the slowest position.

use std::time::{Duration, Instant};

use clap::{CommandFactory, Parser};
use rand::SeedableRng;
use rand::rngs::StdRng;
use tictactoe_core::domain::{
    BitBoard, Board, Game, GameState, Geometry, Mark, fill_from_layout, layout_of,
};
use tictactoe_core::players::{Advisor, Level, MoveChooser};
use tictactoe_players::{MinimaxAI, SharedSolvers, computer_at};

/// Counts how many positions of real games Impossible settles exactly in its time.
#[derive(Parser)]
#[command(name = "settle")]
struct Arguments {
    /// The board's size.
    #[arg(long, default_value_t = 7)]
    size: usize,
    /// How many marks in a row win.
    #[arg(long, default_value_t = 5)]
    win: usize,
    /// Games per pairing of levels.
    #[arg(long, default_value_t = 1)]
    games: u64,
    /// Game `g` of pairing `p` is seeded `seed + 100 p + g`.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Impossible's thinking time, in milliseconds, while the games are played.
    #[arg(long = "play-ms", default_value = "1000", value_parser = milliseconds)]
    play: Duration,
    /// The time for each answer, in milliseconds.
    #[arg(long = "think-ms", default_value = "1000", value_parser = milliseconds)]
    think: Duration,
    /// One player for all the positions of a game, in order, as a review has.
    #[arg(long)]
    warm: bool,
    /// Prove without the opening book.
    #[arg(long = "no-book", action = clap::ArgAction::SetFalse)]
    book: bool,
    /// The positions of an earlier run's output, instead of playing games.
    #[arg(long)]
    positions: Option<std::path::PathBuf>,
}

struct Options {
    geometry: Geometry,
    games: u64,
    seed: u64,
    play: Duration,
    think: Duration,
    warm: bool,
    book: bool,
    positions: Option<std::path::PathBuf>,
}

fn milliseconds(given: &str) -> Result<Duration, std::num::ParseIntError> {
    given.parse().map(Duration::from_millis)
}

const LEVELS: [Level; 4] = [Level::Random, Level::Easy, Level::Medium, Level::Impossible];

fn main() {
    let options = options();
    let positions = match &options.positions {
        Some(file) => read_positions(options.geometry, file),
        None => played(&options),
    };
    settle(&options, &positions);
}

/// A position to settle: its pairing of levels, its game's seed, its ply, the board and
/// the side to move.
type Settling = (String, u64, usize, BitBoard, Mark);

/// The positions of the games of every pairing.
fn played(options: &Options) -> Vec<Settling> {
    let mut positions = Vec::new();
    for (pairing, (x, o)) in LEVELS
        .iter()
        .flat_map(|&x| LEVELS.iter().map(move |&o| (x, o)))
        .enumerate()
    {
        for game in 0..options.games {
            let seed = options.seed + 100 * pairing as u64 + game;
            let played = play(options, [x, o], seed);
            eprintln!(
                "{x:?} v {o:?}, seed {seed}: {} moves",
                played.last().map_or(0, |(ply, _, _)| ply + 1)
            );
            positions.extend(
                played.into_iter().map(|(ply, board, to_move)| {
                    (format!("{x:?}-{o:?}"), seed, ply, board, to_move)
                }),
            );
        }
    }
    positions
}

/// The positions of an earlier run's output (its lines of a position: `pairing seed
/// ply board exact|NOT EXACT ms`); X moved first, so the side to move follows.
fn read_positions(geometry: Geometry, file: &std::path::Path) -> Vec<Settling> {
    let text = std::fs::read_to_string(file).expect("the positions' file");
    text.lines()
        .filter_map(|line| {
            let fields: Vec<&str> = line.split_whitespace().collect();
            let [pairing, seed, ply, layout, ..] = fields[..] else {
                return None;
            };
            let (seed, ply) = (seed.parse().ok()?, ply.parse().ok()?);
            let board = fill_from_layout(BitBoard::new(geometry), layout).ok()?;
            let (x, o) = (board.bits(Mark::X), board.bits(Mark::O));
            let to_move = if x.count_ones() == o.count_ones() {
                Mark::X
            } else {
                Mark::O
            };
            Some((pairing.to_string(), seed, ply, board, to_move))
        })
        .collect()
}

/// Asks Impossible about each position, prints each answer and the count.
fn settle(options: &Options, positions: &[Settling]) {
    let mut exact = 0;
    let mut slowest: Option<(Duration, String)> = None;
    let mut advisor: Option<(u64, String, MinimaxAI<StdRng>)> = None;
    for (pairing, seed, ply, board, to_move) in positions {
        let fresh = || impossible(options, *seed, options.think);
        let player = match &mut advisor {
            Some((s, p, player)) if options.warm && s == seed && p == pairing => player,
            slot => &mut slot.insert((*seed, pairing.clone(), fresh())).2,
        };
        let started = Instant::now();
        let answer = player.advise(board, *to_move);
        let took = started.elapsed();
        let settled = answer.as_ref().is_some_and(|a| a.exact);
        let layout = layout_of(board);
        if settled {
            exact += 1;
        }
        if slowest.as_ref().is_none_or(|(t, _)| took > *t) {
            slowest = Some((took, format!("{pairing} seed {seed} ply {ply} {layout}")));
        }
        println!(
            "{pairing} {seed} {ply} {layout} {} {:.0}",
            if settled { "exact" } else { "NOT EXACT" },
            took.as_secs_f64() * 1000.0
        );
    }
    println!(
        "{exact} of {} positions exact, {} each (cold: {}); slowest {:.3?}: {}",
        positions.len(),
        humanize(options.think),
        !options.warm,
        slowest.as_ref().map_or(Duration::ZERO, |(t, _)| *t),
        slowest.map_or_else(String::new, |(_, what)| what)
    );
}

/// A solver of its own for each player (without the book with `--no-book`).
fn own_solver(options: &Options) -> SharedSolvers {
    if options.book {
        SharedSolvers::new()
    } else {
        SharedSolvers::without_book()
    }
}

/// Impossible with its own solver.
fn impossible(options: &Options, seed: u64, think: Duration) -> MinimaxAI<StdRng> {
    MinimaxAI::impossible(StdRng::seed_from_u64(seed))
        .thinking_for(think)
        .sharing(&own_solver(options))
}

/// One game; every position in progress before a move, with its ply and side to move.
fn play(options: &Options, levels: [Level; 2], seed: u64) -> Vec<(usize, BitBoard, Mark)> {
    let mut players: Vec<Box<dyn MoveChooser>> = levels
        .iter()
        .zip([seed, seed.wrapping_add(1)])
        .map(|(&level, seed)| {
            let rng = StdRng::seed_from_u64(seed);
            computer_at(level, rng, options.play, &own_solver(options))
        })
        .collect();
    let mut game = Game::<BitBoard>::start(options.geometry, Mark::X);
    // The same position as a plain board, kept beside the game.
    let mut board = BitBoard::new(options.geometry);
    let mut positions = Vec::new();
    let mut ply = 0;
    while !game.status().is_over() {
        let mover = game.to_move();
        positions.push((ply, board, mover));
        let player = &mut players[usize::from(mover == Mark::O)];
        let position = player
            .choose_move(&game)
            .expect("a move in a game in progress");
        game.play(position).expect("a legal move");
        board.place(position, mover).expect("a legal move");
        ply += 1;
    }
    positions
}

fn humanize(d: Duration) -> String {
    format!("{} ms", d.as_millis())
}

fn options() -> Options {
    let given = Arguments::parse();
    let Ok(geometry) = Geometry::new(given.size, given.win) else {
        Arguments::command()
            .error(
                clap::error::ErrorKind::ValueValidation,
                "the board must have 3 <= win <= size <= 7",
            )
            .exit()
    };
    Options {
        geometry,
        games: given.games,
        seed: given.seed,
        play: given.play,
        think: given.think,
        warm: given.warm,
        book: given.book,
        positions: given.positions,
    }
}
