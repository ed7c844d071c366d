//! Plays Impossible on one board and prints how long each of its moves took: the check
//! that it keeps within its thinking time (`--think-ms`, 10% over at most) and that
//! what it plays is proven.
//!
//!     cargo run --release --features measure --example think_times -- 7 5 1000   # size, win, budget in ms
//!     cargo run --release --features measure --example think_times -- 7 5 1000 --against random --games 5 --audit
//!
//! Options: `--against impossible|medium|random` (default: Impossible against itself),
//! `--as x|o` (Impossible's side against another level; default: both sides in turn),
//! `--games N`, `--seed S`, and `--audit`, which re-proves every inexact move with a
//! solver of its own and no time limit: that the opponent cannot force a win after it.
//!
//! Each of Impossible's moves prints as `cell:ms`, then `~` when its advice was not
//! exact but its moves were proven (`moves_proven`: the verdict or the list was not
//! settled in time), or `?` when they were not: the solver had proven nothing within
//! its 80% and the Estimator guessed. An opponent's move prints
//! as its cell alone. With `--audit`, a `!` follows an inexact move after which the
//! opponent can force a win though the position before it was not lost: a move that
//! gave the value away.

use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::StdRng;
use tictactoe_core::domain::{
    Analysis, BitBoard, Board, Game, GameState, GameStatus, Geometry, Mark, PlayerName, Position,
    Verdict,
};
use tictactoe_core::players::{Advisor, MoveChooser, Player};
use tictactoe_engine::Solver;
use tictactoe_players::{MinimaxAI, RandomAI};

struct Options {
    geometry: Geometry,
    budget: Duration,
    against: String,
    side: Option<Mark>,
    games: u64,
    seed: u64,
    audit: bool,
}

#[derive(Default)]
struct Tally {
    moves: u32,
    exact: u32,
    proven: u32,
    guessed: u32,
    unsafe_moves: u32,
    longest: Duration,
}

fn main() {
    let options = options();
    let mut tally = Tally::default();
    let mut results = Vec::new();
    for game in 0..options.games {
        let side = options
            .side
            .unwrap_or(if game % 2 == 0 { Mark::X } else { Mark::O });
        let result = play(&options, game, side, &mut tally);
        results.push(result);
    }
    let (size, win) = (options.geometry.size(), options.geometry.win_length());
    println!(
        "({size},{size},{win}) against {}: {}",
        options.against,
        results.join(", ")
    );
    println!(
        "Impossible's moves: {}; exact {}, proven but inexact {}, guessed {}{}; longest {:.3?} of {:?}",
        tally.moves,
        tally.exact,
        tally.proven,
        tally.guessed,
        if options.audit {
            format!(", audited as giving the value away {}", tally.unsafe_moves)
        } else {
            String::new()
        },
        tally.longest,
        options.budget
    );
}

/// One game; Impossible plays `side` (both sides against itself). Returns the result.
fn play(options: &Options, game_number: u64, side: Mark, tally: &mut Tally) -> String {
    let seed = options.seed.wrapping_add(game_number * 2);
    let impossible =
        |seed| MinimaxAI::impossible(StdRng::seed_from_u64(seed)).thinking_for(options.budget);
    let mut players: [Box<dyn Seat>; 2] = match options.against.as_str() {
        "impossible" => [Box::new(impossible(seed)), Box::new(impossible(seed + 1))],
        other => {
            let opponent: Box<dyn Seat> = match other {
                "medium" => Box::new(MinimaxAI::medium(StdRng::seed_from_u64(seed + 1))),
                _ => Box::new(Unadvised(RandomAI::new(StdRng::seed_from_u64(seed + 1)))),
            };
            if side == Mark::X {
                [Box::new(impossible(seed)), opponent]
            } else {
                [opponent, Box::new(impossible(seed))]
            }
        }
    };
    let watched = |mark: Mark| options.against == "impossible" || mark == side;
    let mut game = Game::<BitBoard>::start(options.geometry, Mark::X);
    // The same position as a plain board, kept beside the game for the audit.
    let mut board = BitBoard::new(options.geometry);
    while !game.status().is_over() {
        let mover = game.to_move();
        let player = &mut players[usize::from(mover == Mark::O)];
        let started = Instant::now();
        let advice = player.advise(game.board(), mover);
        let exact = advice.as_ref().is_some_and(|a| a.exact);
        let proven = advice.as_ref().is_some_and(|a| a.moves_proven);
        let position = player
            .choose_move(&game)
            .expect("a move in a game in progress");
        let took = started.elapsed();
        let before = board;
        board.place(position, mover).expect("a legal move");
        game.play(position).expect("a legal move");
        if !watched(mover) {
            print!("{} ", position.number());
            continue;
        }
        tally.moves += 1;
        tally.longest = tally.longest.max(took);
        let mark = if exact {
            tally.exact += 1;
            ""
        } else if proven {
            tally.proven += 1;
            "~"
        } else {
            tally.guessed += 1;
            "?"
        };
        let audit = if options.audit
            && !exact
            && !game.status().is_over()
            && !keeps(&before, &board, game.to_move())
        {
            tally.unsafe_moves += 1;
            "!"
        } else {
            ""
        };
        print!("{}:{}ms{mark}{audit} ", position.number(), took.as_millis());
    }
    let result = match game.status() {
        GameStatus::Won(win) if options.against == "impossible" => format!("{} won", win.mark),
        GameStatus::Won(win) if win.mark == side => format!("Impossible ({side}) won"),
        GameStatus::Won(_) => format!("Impossible ({side}) LOST"),
        _ => "a draw".to_owned(),
    };
    println!("\n{result}");
    result
}

/// Whether the move just played kept the mover's value as far as losing goes: the
/// opponent, now to move, cannot force a win, or the mover was lost before it anyway.
/// Proven by a solver of its own with no time limit.
fn keeps(before: &BitBoard, after: &BitBoard, opponent: Mark) -> bool {
    let mut solver = Solver::new(after.geometry());
    solver.can_force_win(after, opponent, opponent, None) == Some(false)
        || solver.value(before, opponent.opponent()) == Some(Verdict::Loss)
}

/// A player the example can both ask for advice and for a move.
trait Seat: Advisor + MoveChooser {}
impl<T: Advisor + MoveChooser> Seat for T {}

/// A player that gives no advice: Random.
struct Unadvised<P>(P);

impl<P: Send> Advisor for Unadvised<P> {
    fn advise(&mut self, _: &dyn Board, _: Mark) -> Option<Analysis> {
        None
    }
}

impl<P: Player> Player for Unadvised<P> {
    fn name(&self) -> PlayerName {
        self.0.name()
    }
}

impl<P: MoveChooser> MoveChooser for Unadvised<P> {
    fn choose_move(&mut self, game: &dyn GameState) -> Option<Position> {
        self.0.choose_move(game)
    }
}

fn options() -> Options {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let value = |flag: &str| {
        args.iter()
            .position(|a| a == flag)
            .and_then(|i| args.get(i + 1))
            .cloned()
    };
    let numbers: Vec<u64> = args
        .iter()
        .take_while(|a| !a.starts_with("--"))
        .filter_map(|a| a.parse().ok())
        .collect();
    let (size, win, budget) = match numbers[..] {
        [size, win, budget] => (size as usize, win as usize, budget),
        [size, win] => (size as usize, win as usize, 1000),
        _ => (5, 4, 1000),
    };
    let Ok(geometry) = Geometry::new(size, win) else {
        eprintln!("usage: think_times SIZE WIN [BUDGET_MS], with 3 <= WIN <= SIZE <= 7");
        std::process::exit(2);
    };
    let against = value("--against").unwrap_or_else(|| "impossible".to_owned());
    if !["impossible", "medium", "random"].contains(&against.as_str()) {
        eprintln!("--against takes impossible, medium or random");
        std::process::exit(2);
    }
    let side = match value("--as").as_deref() {
        Some("x") => Some(Mark::X),
        Some("o") => Some(Mark::O),
        Some(_) => {
            eprintln!("--as takes x or o");
            std::process::exit(2);
        }
        None => None,
    };
    Options {
        geometry,
        budget: Duration::from_millis(budget),
        against,
        side,
        games: value("--games").and_then(|g| g.parse().ok()).unwrap_or(1),
        seed: value("--seed").and_then(|s| s.parse().ok()).unwrap_or(1),
        audit: args.iter().any(|a| a == "--audit"),
    }
}
