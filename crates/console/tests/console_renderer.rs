//! What the console shows, as exact text (colour off: escape codes are colored's job and
//! are checked end to end in tests/cli.rs).

use std::cell::RefCell;
use std::io::{self, Write};
use std::rc::Rc;

use std::time::Duration;

use tictactoe_console::{ConsoleRenderer, ScoreTable, TimeLeft};
use tictactoe_console::{Dialogue, GameView, Notice, Problem, Prompt, Reports};
use tictactoe_core::domain::{
    Analysis, BitBoard, Board, FinishedGame, Geometry, IllegalMove, Mark, Outcome, PlayerName,
    Record, Refusal, Scoreboard, Standing, Verdict, fill_from_layout,
};

fn shown(draw: impl FnOnce(&ConsoleRenderer<Vec<u8>>)) -> String {
    shown_and_warned(draw).0
}

/// What was drawn on the output, and what was written on the warnings stream.
fn shown_and_warned(draw: impl FnOnce(&ConsoleRenderer<Vec<u8>>)) -> (String, String) {
    let warnings = SharedBuffer::default();
    let renderer = ConsoleRenderer::new(Vec::new(), false).with_warnings(warnings.clone());
    draw(&renderer);
    let shown = String::from_utf8(renderer.into_inner()).unwrap();
    (shown, warnings.text())
}

/// A writer whose bytes stay readable after it is handed over.
#[derive(Clone, Default)]
struct SharedBuffer(Rc<RefCell<Vec<u8>>>);

impl SharedBuffer {
    fn text(&self) -> String {
        String::from_utf8(self.0.borrow().clone()).unwrap()
    }
}

impl Write for SharedBuffer {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        self.0.borrow_mut().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

fn board(layout: &str) -> BitBoard {
    fill_from_layout(BitBoard::new(Geometry::classic()), layout).unwrap()
}

fn name(text: &str) -> PlayerName {
    PlayerName::stored(text).unwrap()
}

#[test]
fn empty_cells_show_the_number_to_type() {
    let text = shown(|r| r.show_board(&board("x../.o./..."), &[]));

    let expected = [
        "",
        "      a   b   c",
        "    +---+---+---+",
        "  1 | X | 2 | 3 |",
        "    +---+---+---+",
        "  2 | 4 | O | 6 |",
        "    +---+---+---+",
        "  3 | 7 | 8 | 9 |",
        "    +---+---+---+",
        "",
        "",
    ];
    assert_eq!(text, expected.join("\n"));
}

#[test]
fn without_colour_the_winning_line_is_bracketed() {
    let board = board("xxx/oo./...");
    let line = board.winner().unwrap().line;

    let text = shown(|r| r.show_board(&board, line.cells()));

    assert!(text.contains("  1 |[X]|[X]|[X]|\n"), "{text}");
    assert!(text.contains("  2 | O | O | 6 |\n"), "{text}");
}

#[test]
fn four_by_four_brackets_the_winning_run_without_colour() {
    let geometry = Geometry::new(4, 4).unwrap();
    let board = fill_from_layout(BitBoard::new(geometry), "xxxx/ooo./..../....").unwrap();
    let line = board.winner().unwrap().line;

    let text = shown(|r| r.show_board(&board, line.cells()));

    let expected = [
        "",
        "       a    b    c    d",
        "    +----+----+----+----+",
        "  1 | [X]| [X]| [X]| [X]|",
        "    +----+----+----+----+",
        "  2 |  O |  O |  O |  8 |",
        "    +----+----+----+----+",
        "  3 |  9 | 10 | 11 | 12 |",
        "    +----+----+----+----+",
        "  4 | 13 | 14 | 15 | 16 |",
        "    +----+----+----+----+",
        "",
        "",
    ];
    assert_eq!(text, expected.join("\n"));
}

#[test]
fn seven_by_seven_numbers_stay_aligned_and_the_row_numbers_stand_outside_the_frame() {
    let geometry = Geometry::new(7, 4).unwrap();
    let board = fill_from_layout(
        BitBoard::new(geometry),
        "x....../.o...../..x..../......./......./......./......o",
    )
    .unwrap();

    let text = shown(|r| r.show_board(&board, &[]));

    // The row numbers stand outside the frame: row 7 does not read as a cell.
    let rule = "    +----+----+----+----+----+----+----+";
    let expected = [
        "",
        "       a    b    c    d    e    f    g",
        rule,
        "  1 |  X |  2 |  3 |  4 |  5 |  6 |  7 |",
        rule,
        "  2 |  8 |  O | 10 | 11 | 12 | 13 | 14 |",
        rule,
        "  3 | 15 | 16 |  X | 18 | 19 | 20 | 21 |",
        rule,
        "  4 | 22 | 23 | 24 | 25 | 26 | 27 | 28 |",
        rule,
        "  5 | 29 | 30 | 31 | 32 | 33 | 34 | 35 |",
        rule,
        "  6 | 36 | 37 | 38 | 39 | 40 | 41 | 42 |",
        rule,
        "  7 | 43 | 44 | 45 | 46 | 47 | 48 |  O |",
        rule,
        "",
        "",
    ];
    assert_eq!(text, expected.join("\n"));
}

fn move_prompt(guide: bool) -> Prompt {
    Prompt::Move {
        name: name("Ada"),
        mark: Mark::O,
        geometry: Geometry::new(7, 5).unwrap(),
        guide,
        time: None,
    }
}

#[test]
fn on_a_clock_the_move_prompt_begins_with_each_sides_time() {
    let mut prompt = move_prompt(false);
    if let Prompt::Move { time, .. } = &mut prompt {
        *time = Some(TimeLeft {
            left: [Duration::from_secs(172), Duration::from_millis(9_500)],
            first_move: None,
        });
    }

    let text = shown(|r| r.show_prompt(&prompt));

    assert_eq!(text, "[X 2:52 · O 0:09.5] Ada (O), your move [1-49]: ");
}

#[rstest::rstest]
#[case::lost(false, "Ada (X) ran out of time: Bob (O) wins.\n")]
#[case::drawn(
    true,
    "Ada (X) ran out of time, but Bob (O) could no longer complete a line: a draw.\n"
)]
fn a_time_out_is_said_with_who_wins_or_why_it_is_a_draw(#[case] drawn: bool, #[case] said: &str) {
    let notice = Notice::TimedOut {
        name: name("Ada"),
        side: Mark::X,
        other: name("Bob"),
        drawn,
    };

    assert_eq!(shown(|r| r.show_notice(&notice)), said);
}

#[test]
fn an_aborted_game_says_who_made_no_first_move_and_that_it_is_not_counted() {
    let notice = Notice::Aborted {
        name: name("Bob"),
        by: Mark::O,
    };

    assert_eq!(
        shown(|r| r.show_notice(&notice)),
        "Bob (O) made no first move in time: the game is aborted, and not counted.\n"
    );
}

#[test]
fn the_first_move_prompt_of_a_game_says_every_thing_that_can_be_typed() {
    let text = shown(|r| r.show_prompt(&move_prompt(true)));

    assert_eq!(
        text,
        "Type a cell's number (1 to 49) or its coordinate (b2); ? for a hint, u to undo, \
         h for help, q to leave.\nAda (O), your move [1-49]: "
    );
}

#[test]
fn later_move_prompts_name_the_player_and_the_cells_only() {
    let text = shown(|r| r.show_prompt(&move_prompt(false)));

    assert_eq!(text, "Ada (O), your move [1-49]: ");
}

#[test]
fn a_menu_asked_again_after_a_wrong_answer_asks_without_its_list() {
    let text = shown(|r| r.show_prompt_again(&Prompt::Mode));

    assert_eq!(text, "Your choice [2]: ");
}

#[test]
fn problems_are_explained_on_their_own_line() {
    let occupied = Problem::Refused(Refusal::Illegal(IllegalMove::Occupied(
        Geometry::classic().position(4).unwrap(),
    )));

    assert_eq!(
        shown(|r| r.show_problem(&occupied)),
        "! cell 5 is already taken: choose an empty one\n"
    );
}

#[test]
fn the_result_names_the_winner() {
    let game = FinishedGame {
        x: name("Ada"),
        o: name("Computer (Impossible)"),
        outcome: Outcome::Won(Mark::O),
    };

    assert_eq!(
        shown(|r| r.show_result(&game)),
        "Computer (Impossible, O) wins!\n"
    );
}

#[test]
fn the_scoreboard_is_a_table_with_a_row_per_player() {
    let scoreboard = Scoreboard::from_standings([
        Standing {
            name: name("Ada"),
            record: Record {
                wins: 3,
                losses: 1,
                ties: 2,
            },
        },
        Standing {
            name: name("Zoë"),
            record: Record {
                wins: 0,
                losses: 3,
                ties: 0,
            },
        },
    ]);

    let text = shown(|r| r.show_scoreboard(&scoreboard));

    assert_eq!(
        text,
        "Player  Wins  Losses  Ties  Games\nAda        3       1     2      6\nZoë        0       3     0      3\n"
    );
}

#[test]
fn columns_line_up_on_screen_whatever_the_names_and_counts() {
    let row = |text: &str, wins: u64| Standing {
        name: name(text),
        record: Record {
            wins,
            losses: 0,
            ties: 0,
        },
    };
    let scoreboard =
        Scoreboard::from_standings([row("李小龍", u64::MAX), row("Zoë 🎉", 2), row("Ada", 1)]);

    let text = shown(|r| r.show_scoreboard(&scoreboard));

    // Every line is as wide on screen as the header: 李小龍 takes six columns, 🎉 two.
    let widths: Vec<usize> = text
        .lines()
        .map(unicode_width::UnicodeWidthStr::width)
        .collect();
    assert!(widths.iter().all(|&w| w == widths[0]), "{text}\n{widths:?}");
    assert!(text.contains(&u64::MAX.to_string()), "{text}");
}

#[test]
fn an_empty_scoreboard_says_so() {
    assert_eq!(
        shown(|r| r.show_scoreboard(&Scoreboard::new())),
        "No games recorded yet.\n"
    );
}

#[test]
fn a_game_that_is_not_saved_is_a_warning_with_the_reason_on_the_warnings_stream() {
    let notice = Notice::NotSaved {
        reason: "the disk is full".into(),
    };

    let (shown, warned) = shown_and_warned(|r| r.show_notice(&notice));

    assert_eq!(shown, "");
    assert_eq!(
        warned,
        "warning: this game is not being saved: the disk is full\n"
    );
}

/// What an analysis says for the side to move: what perfect play makes of the
/// position when it was proven (`exact`), else what was found in the time allowed
/// (`moves_proven`: the moves at least are proven not to lose).
#[rstest::rstest]
#[case::a_forced_win_counts_the_players_own_moves_and_one_best_move_is_singular(
    Mark::X, Verdict::Win, 5, &[8], true, true,
    "X can force a win in 3 moves of its own, this one included.\nBest move: 8.\n"
)]
#[case::a_lost_position_says_every_move_loses_and_which_last_longest(
    Mark::O, Verdict::Loss, 4, &[2, 4], true, true,
    "O loses against perfect play: every move loses. These put the loss off longest: \
     O makes 2 moves, this one included.\nLongest-lasting moves: 2, 4.\n"
)]
#[case::a_position_lost_at_the_next_move_says_so_without_counting_moves(
    Mark::O, Verdict::Loss, 2, &[3, 7], true, true,
    "O loses against perfect play: whatever O plays, X can win with its next move.\n\
     Moves left: 3, 7.\n"
)]
#[case::an_estimate_says_it_is_not_proven(
    Mark::X, Verdict::Draw, 47, &[24, 32], false, false,
    "Not proven in the time allowed: the search found no forced win for either side.\n\
     Best moves found: 24, 32.\n"
)]
#[case::moves_proven_not_to_lose_say_so_and_that_no_more_was_settled(
    Mark::X, Verdict::Draw, 46, &[18, 32], false, true,
    "Proven not to lose; whether a win is there was not settled in the time allowed.\n\
     Safe moves: 18, 32.\n"
)]
fn an_analysis_is_said_as_what_it_proves(
    #[case] to_move: Mark,
    #[case] verdict: Verdict,
    #[case] plies: usize,
    #[case] best: &[usize],
    #[case] exact: bool,
    #[case] moves_proven: bool,
    #[case] said: &str,
) {
    // Cells numbered on the largest board, where every number here is a cell.
    let cell = |n: usize| Geometry::new(7, 5).unwrap().position(n - 1).unwrap();
    let analysis = Analysis {
        verdict,
        plies,
        best_moves: best.iter().map(|&n| cell(n)).collect(),
        exact,
        moves_proven,
    };

    let text = shown(|r| r.show_analysis(to_move, &analysis));

    assert_eq!(text, said);
}

#[test]
fn a_game_announces_its_board_and_run() {
    let notice = Notice::GameStarts {
        x: name("Ada"),
        o: name("Bob"),
        first: Mark::O,
        geometry: Geometry::new(5, 4).unwrap(),
    };

    assert_eq!(
        shown(|r| r.show_notice(&notice)),
        "\nAda (X) vs Bob (O) on 5 x 5, 4 in a row wins. O moves first.\n"
    );
}

#[test]
fn end_of_input_is_announced_on_a_line_of_its_own() {
    let text = shown(|r| r.show_notice(&Notice::InputClosed));

    assert!(text.starts_with("\nInput ended"), "{text:?}");
}

#[test]
fn the_level_prompt_lists_each_level_with_how_it_plays() {
    let text = shown(|r| r.show_prompt(&Prompt::Level { mark: Mark::O }));

    assert!(
        text.contains("  1  Random      plays any empty cell\n"),
        "{text}"
    );
    assert!(
        text.contains("  4  Impossible  plays perfectly: it never loses\n"),
        "{text}"
    );
}

#[test]
fn a_table_longer_than_its_sizing_rows_streams_with_room_for_the_longest_name() {
    // Arrange: one more row than size the columns; the last has a 40-character name.
    let mut table = ScoreTable::new(Vec::new(), false);
    let row = |name: String, wins| Standing {
        name: PlayerName::new(&name).unwrap(),
        record: Record {
            wins,
            losses: 0,
            ties: 0,
        },
    };

    // Act
    for n in 0..ScoreTable::<Vec<u8>>::SIZED_BY {
        table.row(&row(format!("P{n}"), 9));
    }
    table.row(&row("L".repeat(PlayerName::MAX_CHARS), 1));
    let text = String::from_utf8(table.finish()).unwrap();

    // Assert: the header, every row, and the long name's numbers in line with the rest.
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), ScoreTable::<Vec<u8>>::SIZED_BY + 2);
    let wins_column = |line: &str| line.find("  9").or_else(|| line.find("  1"));
    assert_eq!(wins_column(lines[1]), wins_column(lines.last().unwrap()));
}
