//! The full-screen game, end to end in a pseudo-terminal: the real binary, driven by the
//! keys a person presses, read back through a terminal emulator (vt100). Each run is
//! wrapped in `stty -g` before and after, so the tests can check that the terminal is
//! given back exactly as it was.
#![cfg(unix)]

use std::io::{ErrorKind, Write};
use std::num::NonZeroU16;
use std::path::Path;
use std::process::Command;
use std::thread;
use std::time::{Duration, Instant};

use expectrl::Session;
use expectrl::process::unix::{PtyStream, UnixProcess};
use serde_json::Value;

use common::{Database, words};

mod common;

const ROWS: u16 = 24;
const COLUMNS: u16 = 80;
const UP: &[u8] = b"\x1b[A";
const DOWN: &[u8] = b"\x1b[B";
const RIGHT: &[u8] = b"\x1b[C";
const LEFT: &[u8] = b"\x1b[D";
const ENTER: &[u8] = b"\r";
const CTRL_C: &[u8] = b"\x03";
/// What a game Ada (X) begins shows first.
const ADA_TO_MOVE: &str = "Ada (X) to move.";

/// The binary running in a pseudo-terminal of 80 x 24, inside a shell that prints the
/// terminal's settings before and after it, and its exit status.
struct Pty {
    session: Session<UnixProcess, PtyStream>,
    screen: vt100::Parser,
    output: Vec<u8>,
}

impl Pty {
    /// Starts the program with the arguments of `line` ([`words`]) on `database`, and
    /// waits until the screen shows `first`.
    fn start(line: &str, database: &Path, first: &str) -> Pty {
        Pty::start_sized(line, database, first, (COLUMNS, ROWS))
    }

    /// As [`Pty::start`], in a window of `columns` x `rows`.
    fn start_sized(line: &str, database: &Path, first: &str, (columns, rows): (u16, u16)) -> Pty {
        let mut command = Command::new("sh");
        command
            .arg("-c")
            .arg(r#"stty -g; "$0" "$@"; echo "exit=$?"; stty -g"#)
            .arg(common::BINARY)
            .args(words(line))
            .env("TERM", "xterm-256color");
        common::without_settings(&mut command).env("TICTACTOE_DB", database);
        let mut session = Session::spawn(command).expect("a pseudo-terminal");
        session
            .get_process_mut()
            .set_window_size(columns, rows)
            .expect("a window size");
        let mut pty = Pty {
            session,
            screen: vt100::Parser::new(
                NonZeroU16::new(rows).unwrap(),
                NonZeroU16::new(columns).unwrap(),
                0,
            ),
            output: Vec::new(),
        };
        pty.wait_for(first, Duration::from_secs(10));
        pty
    }

    /// Presses `keys`, then lets the program draw for a moment.
    fn press(&mut self, keys: &[u8]) {
        self.session.write_all(keys).unwrap();
        self.session.flush().unwrap();
        self.pump(Duration::from_millis(150));
    }

    /// Reads what the program writes for `wait`.
    fn pump(&mut self, wait: Duration) {
        let until = Instant::now() + wait;
        let mut buffer = [0u8; 4096];
        while Instant::now() < until {
            match self.session.try_read(&mut buffer) {
                Ok(0) => break,
                Ok(n) => {
                    self.screen.process(&buffer[..n]);
                    self.output.extend_from_slice(&buffer[..n]);
                }
                Err(error) if error.kind() == ErrorKind::WouldBlock => {
                    thread::sleep(Duration::from_millis(10));
                }
                Err(_) => break,
            }
        }
    }

    /// Reads until the screen shows `text`, for at most `limit`.
    fn wait_for(&mut self, text: &str, limit: Duration) {
        let until = Instant::now() + limit;
        while !self.screen_text().contains(text) {
            assert!(
                Instant::now() < until,
                "never saw {text:?} in:\n{}",
                self.screen_text()
            );
            self.pump(Duration::from_millis(50));
        }
    }

    /// [`Pty::wait_for`] `text`, then the screen that shows it.
    fn screen_once_it_shows(&mut self, text: &str, limit: Duration) -> String {
        self.wait_for(text, limit);
        self.screen_text()
    }

    fn screen_text(&self) -> String {
        self.screen.screen().contents()
    }

    /// Reads until the board drawn has `o` marks of O, for at most `limit`.
    fn wait_for_marks(&mut self, o: usize, limit: Duration) {
        let until = Instant::now() + limit;
        while self.marks_on_board().1 < o {
            assert!(
                Instant::now() < until,
                "never saw {o} O in:\n{}",
                self.screen_text()
            );
            self.pump(Duration::from_millis(50));
        }
    }

    /// How many X and O stand on the board drawn now (the lines with cell rules).
    fn marks_on_board(&self) -> (usize, usize) {
        let text = self.screen_text();
        let board: Vec<&str> = text.lines().filter(|line| line.contains('│')).collect();
        let count = |mark: char| board.iter().map(|l| l.matches(mark).count()).sum();
        (count('X'), count('O'))
    }

    /// Waits for the program (and the shell around it) to end: how it ended.
    fn finish(mut self) -> Ended {
        let (status, before, after, output) = self.wait_for_end();
        Ended {
            status,
            given_back: before == after,
            output,
            screen: self.screen_text(),
        }
    }

    /// Waits for the program to end: it must end with `status`, the terminal given back
    /// as it was.
    fn ends_giving_the_terminal_back(self, status: i32) {
        let ended = self.finish();
        assert_eq!(ended.status, status, "{}", ended.output);
        assert!(ended.given_back, "the terminal is not given back as it was");
    }

    /// Presses each of `keys` in turn ([`Pty::press`]).
    fn press_each<const N: usize>(&mut self, keys: [&[u8]; N]) {
        for key in keys {
            self.press(key);
        }
    }

    fn wait_for_end(&mut self) -> (i32, String, String, String) {
        let until = Instant::now() + Duration::from_secs(10);
        loop {
            self.pump(Duration::from_millis(100));
            let text = String::from_utf8_lossy(&self.output).to_string();
            let settings: Vec<&str> = text
                .lines()
                .map(str::trim)
                .filter(|line| is_stty_settings(line))
                .collect();
            // The shell's "exit=N" follows the escape codes that restored the terminal.
            let status = text.lines().find_map(|line| {
                let (_, after) = line.split_once("exit=")?;
                Some(
                    after
                        .chars()
                        .take_while(char::is_ascii_digit)
                        .collect::<String>(),
                )
            });
            if let (Some(status), [before, after]) = (status, settings.as_slice()) {
                return (
                    status.parse().unwrap(),
                    before.to_string(),
                    after.to_string(),
                    text.clone(),
                );
            }
            assert!(Instant::now() < until, "the program did not end:\n{text}");
        }
    }
}

impl Database {
    /// The program on this database in a pseudo-terminal ([`Pty::start`]).
    fn pty(&self, line: &str, first: &str) -> Pty {
        Pty::start(line, &self.path, first)
    }

    /// The program's menu on this database, and the game it offers first begun (as
    /// nothing was kept: Player 1 against Impossible).
    fn the_menus_game(&self) -> Pty {
        let mut pty = self.pty("", "Tic Tac Toe");
        pty.press(ENTER);
        pty.wait_for("Player 1 (X) to move.", Duration::from_secs(5));
        pty
    }
}

/// Asserts that `screen` shows each of `texts`.
fn shows(screen: &str, texts: &[&str]) {
    for text in texts {
        assert!(screen.contains(text), "{text:?} not in:\n{screen}");
    }
}

/// How the program ended.
struct Ended {
    /// Its exit status.
    status: i32,
    /// Whether the terminal's settings after it are those it had before (`stty -g`):
    /// the terminal given back as it was.
    given_back: bool,
    /// Everything it wrote, escape codes included.
    output: String,
    /// The screen as it was left.
    screen: String,
}

impl Ended {
    /// The lines of its output that hold `text`.
    fn lines_with<'a>(&'a self, text: &'a str) -> impl Iterator<Item = &'a str> {
        self.output.lines().filter(move |line| line.contains(text))
    }
}

/// `stty -g` prints the settings as hexadecimal fields separated by colons.
fn is_stty_settings(line: &str) -> bool {
    line.split(':').count() > 10
        && line
            .split(':')
            .all(|field| !field.is_empty() && field.chars().all(|c| c.is_ascii_hexdigit()))
}

/// The scoreboard's rows, as `scores --json` shows them.
fn players(database: &Path) -> Vec<Value> {
    let output = common::program()
        .args(["scores", "--json", "--db"])
        .arg(database)
        .output()
        .unwrap();
    let json: Value = serde_json::from_slice(&output.stdout).unwrap_or(Value::Null);
    json["players"].as_array().cloned().unwrap_or_default()
}

fn wins_of(database: &Path, name: &str) -> u64 {
    players(database)
        .iter()
        .find(|p| p["name"] == name)
        .and_then(|p| p["wins"].as_u64())
        .unwrap_or(0)
}

/// Ada (X) and Bob (O) at one keyboard, the cursor on the centre cell: X 5; O up to 2;
/// X left to 1; O down, down to 7; X right, right to 9, and Ada has won.
fn ada_wins_on_the_arrow_keys(pty: &mut Pty) {
    pty.press_each([
        ENTER, UP, ENTER, LEFT, ENTER, DOWN, DOWN, ENTER, RIGHT, RIGHT, ENTER,
    ]);
    pty.wait_for("Ada (X) wins!", Duration::from_secs(5));
}

#[test]
fn a_game_played_with_the_arrow_keys_and_enter_is_won_and_recorded() {
    // Arrange: two people at one keyboard; the cursor starts on the centre cell.
    let db = Database::new();
    let mut pty = db.pty("play --x human:Ada --o human:Bob", ADA_TO_MOVE);

    // Act
    ada_wins_on_the_arrow_keys(&mut pty);
    pty.press(b"q");
    let ended = pty.finish();

    // Assert
    assert_eq!((ended.status, ended.given_back), (0, true));
    assert_eq!(wins_of(&db.path, "Ada"), 1);
}

#[test]
fn the_result_screen_says_how_each_persons_rating_changed() {
    // Arrange: two people new to 3 x 3, both at 1,500.
    let db = Database::new();
    let mut pty = db.pty("play --x human:Ada --o human:Bob", ADA_TO_MOVE);

    // Act
    ada_wins_on_the_arrow_keys(&mut pty);
    let screen = pty.screen_text();
    pty.press(b"q");
    pty.finish();

    // Assert: the winner went up from 1,500 and the loser down (Glicko-2's first game
    // between two new people: 1,662 and 1,338), both still provisional (`?`).
    shows(
        &screen,
        &["Rating: Ada 1,500 → 1,554? (+54), Bob 1,500 → 1,338? (−162)."],
    );
}

#[test]
fn keys_pressed_while_the_computer_thinks_are_dropped() {
    // Arrange: 7 x 7 with five in a row, where Impossible takes its time (up to 1.5 s)
    // a few moves in; the opening book answers the first moves at once (and every
    // third move of a game opened in the centre). Ada plays above the centre, and the
    // book's reply comes (the centre).
    let db = Database::new();
    let mut pty = db.pty(
        "--think-ms 1500 play --x human:Ada --o impossible --size 7 --win 5",
        ADA_TO_MOVE,
    );
    pty.press_each([UP, ENTER]);
    pty.wait_for_marks(1, Duration::from_secs(10));

    // Act: Ada plays above her first mark (a position the book does not hold); while
    // the computer thinks, she presses right and Enter.
    pty.press_each([UP, ENTER, RIGHT, ENTER]);
    pty.wait_for_marks(2, Duration::from_secs(10));
    pty.pump(Duration::from_millis(500));
    let marks = pty.marks_on_board();
    pty.press(b"q");
    pty.press(b"q");
    let ended = pty.finish();

    // Assert: two X (hers) and two O (the replies); the keys in between played nothing.
    assert_eq!(marks, (2, 2));
    assert_eq!((ended.status, ended.given_back), (0, true));
}

#[test]
fn ctrl_c_in_the_middle_of_a_game_gives_the_terminal_back_and_records_nothing() {
    let db = Database::new();
    let mut pty = db.pty("play --x human:Ada --o random", ADA_TO_MOVE);

    pty.press(ENTER);
    pty.press(CTRL_C);
    let ended = pty.finish();

    assert_eq!((ended.status, ended.given_back), (130, true));
    assert!(
        players(&db.path).is_empty(),
        "an unfinished game counts nothing"
    );
}

impl Pty {
    /// Sends `signal` to the program (not to the shell around it), by its name for
    /// `kill` (TERM, HUP, ...).
    fn signal_program(&mut self, signal: &str) {
        let shell = self.session.get_process().pid().to_string();
        let children = std::fs::read_to_string(format!("/proc/{shell}/task/{shell}/children"))
            .expect("the shell's children");
        let program = children
            .split_whitespace()
            .next()
            .expect("the program runs");
        let sent = Command::new("kill")
            .args([&format!("-{signal}"), program])
            .status()
            .unwrap();
        assert!(sent.success(), "kill -{signal} {program}");
    }
}

#[rstest::rstest]
#[case::term("TERM", 15)]
#[case::hup_as_when_the_window_is_closed("HUP", 1)]
#[case::quit("QUIT", 3)]
#[case::int_from_another_program("INT", 2)]
fn a_signal_in_the_middle_of_a_game_gives_the_terminal_back_and_records_nothing(
    #[case] signal: &str,
    #[case] number: i32,
) {
    // Arrange: a game against Random, one move in.
    let db = Database::new();
    let mut pty = db.pty("play --x human:Ada --o random", ADA_TO_MOVE);
    pty.press(ENTER);
    pty.wait_for(ADA_TO_MOVE, Duration::from_secs(10));
    let drawn = pty.output.len();

    // Act
    pty.signal_program(signal);
    let ended = pty.finish();

    // Assert: the conventional status, the terminal's settings as they were, and the
    // escape codes that stop the mouse, leave the alternate screen and show the cursor.
    assert_eq!(ended.status, 128 + number);
    assert!(ended.given_back, "raw mode is off again");
    let since = &ended.output[drawn.min(ended.output.len())..];
    for code in ["\x1b[?1000l", "\x1b[?1049l", "\x1b[?25h"] {
        assert!(
            since.contains(code),
            "{code:?} not written after the signal: {since:?}"
        );
    }
    assert!(
        players(&db.path).is_empty(),
        "an unfinished game counts nothing"
    );
}

#[test]
fn on_four_by_four_a_number_typed_is_played_and_a_window_too_small_says_how_large_to_make_it() {
    // Arrange: two people on 4 x 4.
    let db = Database::new();
    let mut pty = db.pty("play --x human:Ada --o human:Bob --size 4", ADA_TO_MOVE);

    // Act: 1 then 2 plays cell 12; then the window shrinks to 30 x 10.
    pty.press(b"1");
    let waiting = pty.screen_text();
    pty.press(b"2");
    pty.wait_for("Bob (O) to move.", Duration::from_secs(10));
    let marks = pty.marks_on_board();
    pty.session
        .get_process_mut()
        .set_window_size(30, 10)
        .expect("a window size");
    pty.screen
        .set_size(NonZeroU16::new(10).unwrap(), NonZeroU16::new(30).unwrap());
    let small = pty
        .screen_once_it_shows("Make the window at least", Duration::from_secs(10))
        .replace('\n', " ");

    // Assert
    shows(&waiting, &["Cell 1… type another digit"]);
    assert_eq!(marks, (1, 0));
    shows(&small, &["40 x 14"]);
    pty.press(CTRL_C);
    pty.ends_giving_the_terminal_back(130);
}

#[test]
fn after_s_each_person_keeps_their_default_name_and_their_record() {
    // Arrange: two people with the default names; X wins in the top row.
    let db = Database::new();
    let mut pty = db.pty("play --x human --o human", "Player 1 (X) to move.");
    pty.press_each([b"1", b"4", b"2", b"5", b"3"]);
    pty.wait_for("Player 1 (X) wins!", Duration::from_secs(10));

    // Act: sides swapped; the same moves, so the person now on X (Player 2) wins. No
    // default name names a mark, so none reads as the other side's.
    pty.press(b"s");
    pty.wait_for("Player 2 (X) to move.", Duration::from_secs(10));
    pty.press_each([b"1", b"4", b"2", b"5", b"3"]);
    pty.wait_for("Player 2 (X) wins!", Duration::from_secs(10));
    pty.press(b"q");
    let ended = pty.finish();

    // Assert: one row per person, one win and one loss each.
    assert_eq!(ended.status, 0);
    let rows: Vec<(String, u64, u64)> = players(&db.path)
        .iter()
        .map(|p| {
            (
                p["name"].as_str().unwrap().to_string(),
                p["wins"].as_u64().unwrap(),
                p["losses"].as_u64().unwrap(),
            )
        })
        .collect();
    assert_eq!(
        rows,
        [
            ("Player 1".to_string(), 1, 1),
            ("Player 2".to_string(), 1, 1)
        ]
    );
}

#[test]
fn on_a_terminal_a_long_analysis_shows_what_it_has_proven_so_far_then_only_its_answer() {
    // Arrange and act: a (7,7,5) position the opening book does not hold, three seconds
    // to think (the exact answer takes minutes).
    let db = Database::new();
    let hard = "........................XX......O.........O......";
    let pty = db.pty(
        &format!("analyze --json --size 7 --win 5 --think-ms 3000 {hard}"),
        "moves settled",
    );
    let during = pty.screen_text();
    let ended = pty.finish();

    // Assert: the progress line while it ran; at the end, the answer in its place.
    shows(&during, &["of 45 moves settled"]);
    assert_eq!(ended.status, 0);
    let answer = ended.lines_with("\"board\"").next().expect("the answer");
    assert!(
        answer.contains(&format!("\"board\":\"{}\"", hard.to_uppercase())),
        "{answer}"
    );
}

#[test]
fn q_then_y_leaves_the_game_for_the_menu() {
    // Arrange: the default game from the menu, Player 1 against Impossible.
    let db = Database::new();
    let mut pty = db.the_menus_game();

    // Act
    pty.press(b"q");
    let asked = pty.screen_text();
    pty.press(b"y");
    let menu = pty.screen_once_it_shows("[ Start ]", Duration::from_secs(5));
    pty.press(b"\x1b");
    let ended = pty.finish();

    // Assert: asked, in words that tell leaving from quitting; back at the menu.
    shows(
        &asked,
        &[
            "Leave this game?",
            "y  leave it: back to the menu",
            "q  leave it and quit Tic Tac Toe",
        ],
    );
    shows(&menu, &["Game              ‹ Human vs Computer ›"]);
    assert_eq!((ended.status, ended.given_back), (0, true));
}

#[test]
fn q_then_q_leaves_the_game_and_quits_giving_the_terminal_back() {
    let db = Database::new();
    let mut pty = db.the_menus_game();

    pty.press_each([b"q", b"q"]);

    pty.ends_giving_the_terminal_back(0);
}

#[test]
fn in_a_window_41_columns_wide_words_and_keys_are_whole() {
    // Arrange: 7 x 7 in the narrowest window it is drawn in.
    let db = Database::new();
    let mut pty = Pty::start_sized(
        "play --x human:Ada --o impossible --size 7 --win 5",
        &db.path,
        ADA_TO_MOVE,
        (41, 20),
    );
    let game = pty.screen_text();

    // Act
    pty.press(b"q");
    let asked = pty.screen_text();
    pty.press(b"q");
    let ended = pty.finish();

    // Assert: the title cut between the names and the shape, the keys that matter whole,
    // the question in its box a space from the border.
    let lines: Vec<&str> = game.lines().map(str::trim_end).collect();
    assert_eq!(
        lines[..2],
        ["Ada (X) vs Computer (Impossible, O)", "7 x 7, 5 in a row"],
        "{game}"
    );
    shows(&game, &["? hint · u undo · q leave · F1 help"]);
    shows(&asked, &["│ q  leave it and quit Tic Tac Toe │"]);
    assert_eq!((ended.status, ended.given_back), (0, true));
}

#[test]
fn the_menu_opens_with_the_name_typed_for_the_last_game() {
    // Arrange: Ada's game, left; then the program started again.
    let db = Database::new();
    let mut first = db.pty("", "Tic Tac Toe");
    first.press_each([DOWN, DOWN, b"Ada", ENTER]);
    first.wait_for(ADA_TO_MOVE, Duration::from_secs(5));
    first.press(b"q");
    first.press(b"q");
    assert_eq!(first.finish().status, 0);

    // Act
    let second = db.pty("", "Tic Tac Toe");
    let menu = second.screen_text();

    // Assert
    shows(&menu, &["Name (X)          Ada"]);
}

const HOME: &[u8] = b"\x1b[H";

/// The marks on a 3 x 3 board drawn in the middle of the screen (17 columns wide, from
/// column 31), not counting the list of moves beside it.
fn marks_on_small_board(pty: &Pty) -> (usize, usize) {
    let text = pty.screen_text();
    let board: Vec<String> = text
        .lines()
        .filter(|line| line.contains('│'))
        .map(|line| line.chars().skip(31).take(17).collect())
        .collect();
    let count = |mark: char| board.iter().map(|l| l.matches(mark).count()).sum();
    (count('X'), count('O'))
}
const END: &[u8] = b"\x1b[F";

#[test]
fn replay_on_a_terminal_steps_through_the_moves_with_the_arrows_home_and_end() {
    // Arrange: Ada (X) wins the top row against Bob: X 1, O 4, X 2, O 5, X 3.
    let db = Database::new();
    let played = common::program()
        .args(["--plain", "--db"])
        .arg(&db.path)
        .args(["play", "--x", "human:Ada", "--o", "human:Bob"])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::null())
        .spawn()
        .and_then(|mut child| {
            child
                .stdin
                .take()
                .unwrap()
                .write_all(b"1\n4\n2\n5\n3\nn\n")?;
            child.wait()
        })
        .unwrap();
    assert!(played.success());

    // Act and Assert: it opens on the last move; Home shows the empty board.
    let mut pty = db.pty("replay last", "Move 5, X at 3");
    assert!(pty.screen_text().contains("Ada (X) won."));
    assert_eq!(marks_on_small_board(&pty), (3, 2));
    pty.press(HOME);
    pty.wait_for("Before the first move", Duration::from_secs(5));
    assert_eq!(marks_on_small_board(&pty), (0, 0));
    pty.press(RIGHT);
    pty.press(RIGHT);
    pty.wait_for("Move 2, O at 4", Duration::from_secs(5));
    assert_eq!(marks_on_small_board(&pty), (1, 1));
    pty.press(LEFT);
    pty.wait_for("Move 1, X at 1", Duration::from_secs(5));
    pty.press(END);
    pty.wait_for("Move 5, X at 3", Duration::from_secs(5));
    pty.press(b"q");
    pty.ends_giving_the_terminal_back(0);
}

#[test]
fn v_after_a_game_reviews_it_in_place_and_q_goes_back_to_the_game() {
    // Arrange: Ada (X) against Impossible, playing 1, 2, 3, ... where free, and losing.
    let db = Database::new();
    let mut pty = db.pty("play --x human:Ada --o impossible", ADA_TO_MOVE);
    for digit in b"123456789" {
        if pty.screen_text().contains("wins!") {
            break;
        }
        pty.press(&[*digit]);
        pty.pump(Duration::from_millis(300));
    }
    pty.wait_for("Computer (Impossible, O) wins!", Duration::from_secs(10));
    let played_at = board_column(&pty);

    // Act
    pty.press(b"v");

    // Assert: the review opens on the winning move, the board where it was; Ada's move
    // that lost is marked.
    pty.wait_for(
        "Review · Ada (X) vs Computer (Impossible, O)",
        Duration::from_secs(10),
    );
    assert_eq!(
        board_column(&pty),
        played_at,
        "the board stays where it was"
    );
    pty.wait_for("kept the win", Duration::from_secs(5));
    assert!(
        pty.screen_text().contains("✗ slipped"),
        "{}",
        pty.screen_text()
    );
    pty.press(b"q");
    pty.wait_for("v review", Duration::from_secs(5));
    pty.press(b"q");
    let ended = pty.finish();
    assert_eq!(ended.status, 0);
}

/// The column of the first rule between cells on the screen: where the board is.
fn board_column(pty: &Pty) -> Option<usize> {
    let text = pty.screen_text();
    let line = text.lines().find(|line| line.contains('│'))?;
    line.chars().position(|c| c == '│')
}

#[test]
fn ctrl_c_during_a_long_analysis_takes_its_progress_line_away() {
    // Arrange: a (7,7,5) position the book does not hold, its progress on screen.
    let db = Database::new();
    let hard = "........................XX......O.........O......";
    let mut pty = db.pty(
        &format!("analyze --size 7 --win 5 --think-ms 60000 {hard}"),
        "moves settled",
    );

    // Act: Ctrl-C, as the terminal sends it (SIGINT).
    pty.signal_program("INT");
    let ended = pty.finish();

    // Assert: the status of a program Ctrl-C stopped, and no line left half-drawn.
    assert_eq!(ended.status, 130);
    assert!(!ended.screen.contains("moves settled"), "{}", ended.screen);
}

#[test]
fn on_a_terminal_a_long_review_shows_how_far_it_has_got_then_only_the_review() {
    // Arrange: a (7,7,5) game, Impossible against Medium, quickly played.
    let db = Database::new();
    let played = common::program()
        .args(["--plain", "--seed", "11", "--think-ms", "100", "--db"])
        .arg(&db.path)
        .args(["play", "--x", "impossible", "--o", "medium", "--size", "7"])
        .args(["--win", "5"])
        .output()
        .unwrap();
    assert!(played.status.success(), "{played:?}");

    // Act: its review, 300 ms a position (most of the opening is not settled in that).
    let pty = db.pty("--think-ms 300 replay last --review --json", "Reviewing");
    let during = pty.screen_text();
    let ended = pty.finish();

    // Assert: the bar while it ran; then a line for each move.
    shows(&during, &[" of "]);
    assert_eq!(ended.status, 0);
    let moves = ended.lines_with("\"ply\"").count();
    assert!(moves >= 9, "{}", ended.output);
}

#[test]
fn on_a_terminal_training_puts_the_puzzle_full_screen_and_a_best_move_typed_is_right() {
    // Arrange: one slip of Ada's, and its first best move.
    let db = Database::new();
    db.with_one_slip_of_adas();
    let listed = db.output(&["train", "--player", "Ada", "--list", "--json"]);
    let puzzle: Value = serde_json::from_slice(&listed.stdout).expect("one puzzle");
    let best = puzzle["best_moves"][0].to_string();
    let mut pty = db.pty("train --player Ada", "Puzzle 1 of 1");

    // Act: the cell's number, then Enter; then q.
    pty.press(best.as_bytes());
    pty.press(ENTER);
    let screen = pty.screen_once_it_shows("Right:", Duration::from_secs(5));
    pty.press(b"q");
    let ended = pty.finish();

    // Assert: said and kept, and the terminal given back.
    shows(
        &screen,
        &["X had a draw here", &format!("{best} keeps the draw.")],
    );
    assert_eq!((ended.status, ended.given_back), (0, true));
    assert!(
        ended.output.contains("1 answered, 1 right, 0 wrong"),
        "{}",
        ended.output
    );
}

#[test]
fn on_a_terminal_train_with_plain_after_it_asks_line_by_line_without_the_full_screen() {
    // Arrange: one slip of Ada's; --plain written after the command, as the README
    // writes it.
    let db = Database::new();
    db.with_one_slip_of_adas();
    let mut pty = db.pty("train --player Ada --plain", "Your move [1-9]");

    // Act
    pty.press(b"q");
    pty.press(ENTER);
    let ended = pty.finish();

    // Assert: the line console's prompt, and never the alternate screen.
    assert_eq!((ended.status, ended.given_back), (0, true));
    assert!(
        !ended.output.contains("\x1b[?1049h"),
        "the full screen was opened: {}",
        ended.output
    );
}
