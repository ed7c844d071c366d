//! The full-screen front end, specified on ratatui's `TestBackend`: key events go in
//! through the same handlers the real terminal uses, frames come out as text. The
//! match is real; its seams (a computer, the advisor, the store) are mockall doubles.

use std::time::Duration;

use ratatui::Terminal;
use ratatui::backend::TestBackend;
use ratatui::crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use ratatui::layout::Rect;

use super::*;
use tictactoe_core::domain::{
    Analysis, GameState, Geometry, Mark, PlayerName, Position, Record, Scoreboard, Verdict,
    layout_of,
};
use tictactoe_core::fixtures;
use tictactoe_core::memory::MemoryStore;
use tictactoe_core::play::{End, Journal, Match, Seat, Settings, Unrecorded};
use tictactoe_core::players::{Level, MockAdvisor, MockComputer, PlayerSpec};

const WIDTH: u16 = 80;
const HEIGHT: u16 = 24;

fn key(code: KeyCode) -> KeyEvent {
    KeyEvent::new(code, KeyModifiers::NONE)
}

fn name(text: &str) -> PlayerName {
    PlayerName::new(text).unwrap()
}

fn cell(geometry: Geometry, number: usize) -> Position {
    geometry.position(number - 1).unwrap()
}

/// Ada (X) against Bob (O) at one keyboard, X first, nothing recorded.
fn people(geometry: Geometry) -> Match<Unrecorded> {
    Match::new(
        geometry,
        Mark::X,
        [Seat::Human(name("Ada")), Seat::Human(name("Bob"))],
        Unrecorded,
    )
}

/// Ada (X) against Bob (O) on 3 x 3 ([`people`]), and the screen of their game.
fn people_on_3x3() -> (Match<Unrecorded>, GameScreen) {
    (
        people(Geometry::classic()),
        GameScreen::new(Geometry::classic(), false),
    )
}

/// The keys that type `text`, a character each.
fn typed(text: &str) -> Vec<KeyCode> {
    text.chars().map(KeyCode::Char).collect()
}

/// Asserts that `text` (a screen, as text) shows `part`.
fn shows(text: &str, part: &str) {
    assert!(text.contains(part), "{part:?} not in:\n{text}");
}

/// The computer at `level` (X) against `person` (O), `first` to move, on `geometry`.
fn computer_against(level: Level, person: &str, first: Mark, geometry: Geometry) -> Settings {
    let (x, o) = (
        PlayerSpec::Computer(level),
        PlayerSpec::Human(Some(name(person))),
    );
    Settings::new(x, o, first, geometry).unwrap()
}

/// Medium (X) against Zoë (O) on 6 x 6, four in a row, O first.
fn medium_against_zoe() -> Settings {
    computer_against(Level::Medium, "Zoë", Mark::O, Geometry::new(6, 4).unwrap())
}

/// The screen as text, one string per line, after drawing `screen` over `game`.
fn frame<R: tictactoe_core::play::Recorder>(
    screen: &GameScreen,
    game: &Match<R>,
    thinking: Option<Duration>,
) -> Vec<String> {
    drawn(|frame| screen.draw(frame, game, thinking))
}

/// What `draw` puts on an 80 x 24 screen, one string per line, without trailing spaces.
fn drawn(draw: impl FnOnce(&mut ratatui::Frame)) -> Vec<String> {
    drawn_on(WIDTH, HEIGHT, draw)
}

/// What `draw` puts on a screen of `width` x `height`, one string per line, without
/// trailing spaces.
fn drawn_on(width: u16, height: u16, draw: impl FnOnce(&mut ratatui::Frame)) -> Vec<String> {
    let mut terminal = Terminal::new(TestBackend::new(width, height)).unwrap();
    terminal.draw(draw).unwrap();
    let buffer = terminal.backend().buffer();
    (0..height)
        .map(|y| {
            (0..width)
                .map(|x| buffer[(x, y)].symbol())
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect()
}

fn press<R: tictactoe_core::play::Recorder>(
    screen: &mut GameScreen,
    game: &mut Match<R>,
    codes: &[KeyCode],
) {
    for &code in codes {
        screen.on_key(game, key(code));
    }
}

#[test]
fn the_board_starts_with_every_cell_numbered_and_the_cursor_in_the_middle() {
    let game = people(Geometry::classic());
    let screen = GameScreen::new(Geometry::classic(), false);

    let lines = frame(&screen, &game, None);

    assert_eq!(lines[0], "Ada (X) vs Bob (O) · 3 x 3, 3 in a row");
    assert_eq!(lines[2].trim(), "1  │  2  │  3");
    assert_eq!(lines[3].trim(), "─────┼─────┼─────");
    assert_eq!(lines[6].trim(), "7  │  8  │  9");
    assert_eq!(lines[8], "Ada (X) to move.");
    assert_eq!(screen.cursor(), cell(Geometry::classic(), 5));
}

#[test]
fn arrows_and_hjkl_move_the_cursor_and_enter_plays_the_cell_under_it() {
    let (mut game, mut screen) = people_on_3x3();

    // From the centre: up, left (cell 1), Enter; then l, j (cell 5), Space.
    press(
        &mut screen,
        &mut game,
        &[KeyCode::Up, KeyCode::Left, KeyCode::Enter],
    );
    press(&mut screen, &mut game, &typed("lj "));

    assert_eq!(layout_of(game.game().board()), "X...O....");
    let lines = frame(&screen, &game, None);
    assert_eq!(lines[2].trim(), "X  │  2  │  3");
    assert_eq!(lines[4].trim(), "4  │  O  │  6");
}

#[test]
fn the_cursor_stops_at_the_edge() {
    let (mut game, mut screen) = people_on_3x3();

    press(&mut screen, &mut game, &[KeyCode::Right; 3]);

    assert_eq!(screen.cursor(), cell(Geometry::classic(), 6));
}

#[test]
fn a_digit_plays_at_once_on_three_by_three() {
    let (mut game, mut screen) = people_on_3x3();

    press(&mut screen, &mut game, &typed("9"));

    assert_eq!(layout_of(game.game().board()), "........X");
}

#[rstest::rstest]
#[case::a_digit_no_longer_number_follows("2", 2)]
#[case::two_digits("12", 12)]
#[case::one_digit_then_enter("1\n", 1)]
fn on_four_by_four_a_cells_number_is_typed_and_played(#[case] typed: &str, #[case] played: usize) {
    let four = Geometry::new(4, 4).unwrap();
    let mut game = people(four);
    let mut screen = GameScreen::new(four, false);
    let keys: Vec<KeyCode> = typed
        .chars()
        .map(|c| {
            if c == '\n' {
                KeyCode::Enter
            } else {
                KeyCode::Char(c)
            }
        })
        .collect();

    press(&mut screen, &mut game, &keys);

    assert_eq!(game.game().moves(), [cell(four, played)]);
}

#[test]
fn a_digit_that_could_begin_a_longer_number_waits_and_says_so() {
    let four = Geometry::new(4, 4).unwrap();
    let mut game = people(four);
    let mut screen = GameScreen::new(four, false);

    press(&mut screen, &mut game, &typed("1"));

    assert!(game.game().moves().is_empty());
    assert_eq!(
        frame(&screen, &game, None)[11],
        "Cell 1… type another digit, or Enter to play 1."
    );
}

#[rstest::rstest]
#[case::zero("0", "There is no cell 0: the cells are 1 to 16.")]
#[case::past_the_last("17", "There is no cell 17: the cells are 1 to 16.")]
fn a_number_that_is_no_cell_is_refused_with_the_cells_there_are(
    #[case] typed: &str,
    #[case] said: &str,
) {
    let four = Geometry::new(4, 4).unwrap();
    let mut game = people(four);
    let mut screen = GameScreen::new(four, false);
    let keys: Vec<KeyCode> = typed.chars().map(KeyCode::Char).collect();

    press(&mut screen, &mut game, &keys);

    assert!(game.game().moves().is_empty());
    assert_eq!(frame(&screen, &game, None)[11], said);
}

#[test]
fn a_hint_of_many_cells_counts_them_instead_of_naming_them() {
    // Arrange: on 7 x 7 an advisor that finds 47 cells equally good.
    let seven = Geometry::new(7, 5).unwrap();
    let mut advisor = MockAdvisor::new();
    advisor.expect_advise().times(1).returning(move |_, _| {
        Some(Analysis {
            verdict: Verdict::Draw,
            plies: 49,
            best_moves: (1..=47).map(|n| cell(seven, n)).collect(),
            exact: true,
            moves_proven: true,
        })
    });
    let mut game = people(seven).advised_by(Box::new(advisor)).casual(true);
    let mut screen = GameScreen::new(seven, false);

    // Act
    press(&mut screen, &mut game, &typed("?"));

    // Assert
    assert_eq!(
        frame(&screen, &game, None)[17],
        "A draw with best play: any of the 47 lit cells keep it."
    );
}

#[test]
fn a_screen_too_small_for_the_board_says_how_large_to_make_it() {
    let seven = Geometry::new(7, 5).unwrap();
    let game = people(seven);
    let screen = GameScreen::new(seven, false);
    let mut terminal = Terminal::new(TestBackend::new(60, 16)).unwrap();

    terminal
        .draw(|frame| screen.draw(frame, &game, None))
        .unwrap();

    let text: String = (0..16u16)
        .map(|y| {
            (0..60u16)
                .map(|x| terminal.backend().buffer()[(x, y)].symbol().to_string())
                .collect::<String>()
                .trim_end()
                .to_string()
        })
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        text.starts_with("Make the window at least 41 x 20 to play on this board (it is 60 x 16)."),
        "{text}"
    );
}

#[test]
fn a_taken_cell_is_refused_with_the_reason_and_nothing_changes() {
    let (mut game, mut screen) = people_on_3x3();

    press(&mut screen, &mut game, &typed("55"));

    assert_eq!(layout_of(game.game().board()), "....X....");
    let lines = frame(&screen, &game, None);
    assert_eq!(lines[9], "Cell 5 is already taken: choose an empty one.");
}

#[test]
fn a_click_on_a_cell_plays_it_and_a_click_on_a_rule_plays_nothing() {
    let (mut game, mut screen) = people_on_3x3();
    let area = Rect::new(0, 0, WIDTH, HEIGHT);
    // The 17-column board is centred in 80: it starts at column 31, row 2.
    let (left, top) = (31, 2);

    screen.on_click(&mut game, area, left + 5, top); // the rule between 1 and 2
    screen.on_click(&mut game, area, left + 2 * 6 + 2, top + 2 * 2); // cell 9

    assert_eq!(layout_of(game.game().board()), "........X");
}

#[test]
fn q_asks_before_leaving_a_game_in_progress_and_any_other_key_plays_on() {
    let (mut game, mut screen) = people_on_3x3();

    let first = screen.on_key(&mut game, key(KeyCode::Char('q')));
    let asked = frame(&screen, &game, None).join("\n");
    let declined = screen.on_key(&mut game, key(KeyCode::Char('n')));
    screen.on_key(&mut game, key(KeyCode::Char('q')));
    let confirmed = screen.on_key(&mut game, key(KeyCode::Char('y')));

    assert_eq!((first, declined), (Flow::Continue, Flow::Continue));
    shows(&asked, "│ Leave this game? It will not be counted. │");
    shows(&asked, "│ y  leave it: back to the menu");
    shows(&asked, "│ q  leave it and quit Tic Tac Toe");
    assert_eq!(confirmed, Flow::Leave, "y leaves for the menu");
    assert_eq!(game.end(), Some(&End::Abandoned { by: Mark::X }));
}

#[test]
fn q_twice_leaves_the_game_and_quits() {
    let (mut game, mut screen) = people_on_3x3();

    screen.on_key(&mut game, key(KeyCode::Char('q')));
    let flow = screen.on_key(&mut game, key(KeyCode::Char('q')));

    assert_eq!(flow, Flow::Quit);
    assert_eq!(game.end(), Some(&End::Abandoned { by: Mark::X }));
}

#[test]
fn after_the_game_q_quits_without_asking() {
    let (mut game, mut screen) = people_on_3x3();
    press(&mut screen, &mut game, &typed("14253"));

    let flow = screen.on_key(&mut game, key(KeyCode::Char('q')));

    assert_eq!(flow, Flow::Quit);
}

#[test]
fn ctrl_c_leaves_at_once() {
    let (mut game, mut screen) = people_on_3x3();

    let flow = screen.on_key(
        &mut game,
        KeyEvent::new(KeyCode::Char('c'), KeyModifiers::CONTROL),
    );

    assert_eq!(flow, Flow::Interrupt);
}

#[test]
fn the_help_lists_the_keys_and_any_key_closes_it() {
    let (mut game, mut screen) = people_on_3x3();

    press(&mut screen, &mut game, &[KeyCode::F(1)]);
    let shown = frame(&screen, &game, None).join("\n");
    press(&mut screen, &mut game, &typed("x"));
    let closed = frame(&screen, &game, None).join("\n");

    shows(&shown, "│ Enter, Space play the cell there");
    assert!(!closed.contains("play the cell there"));
    assert!(
        game.game().moves().is_empty(),
        "the key that closed help played nothing"
    );
}

#[test]
fn a_hint_lights_up_the_cells_the_advisor_recommends() {
    // Arrange: an advisor asked once, about X's turn, that recommends cells 1 and 9.
    let geometry = Geometry::classic();
    let mut advisor = MockAdvisor::new();
    advisor
        .expect_advise()
        .withf(|_, mark| *mark == Mark::X)
        .times(1)
        .returning(move |_, _| {
            Some(Analysis {
                verdict: Verdict::Draw,
                plies: 9,
                best_moves: vec![cell(geometry, 1), cell(geometry, 9)],
                exact: true,
                moves_proven: true,
            })
        });
    let mut game = people(geometry).advised_by(Box::new(advisor)).casual(true);
    let mut screen = GameScreen::new(geometry, false);

    // Act
    press(&mut screen, &mut game, &typed("?"));

    // Assert: without colour, the lit cells show a star.
    let lines = frame(&screen, &game, None);
    assert_eq!(lines[2].trim(), "*  │  2  │  3");
    assert_eq!(lines[6].trim(), "7  │  8  │  *");
    assert_eq!(lines[9], "A draw with best play: 1, 9 keep it.");
}

/// An advisor stub: whatever it is asked, a draw that 5 keeps.
fn advising(geometry: Geometry) -> Box<MockAdvisor> {
    let mut advisor = MockAdvisor::new();
    advisor.expect_advise().returning(move |_, _| {
        Some(Analysis {
            verdict: Verdict::Draw,
            plies: 9,
            best_moves: vec![cell(geometry, 5)],
            exact: true,
            moves_proven: true,
        })
    });
    Box::new(advisor)
}

/// Ada and Bob's rated game on 3 x 3, with an advisor ([`advising`]), after `keys`:
/// its screen, as text, and whether it is casual.
fn rated_with_hints_after(keys: &str) -> (String, bool) {
    let geometry = Geometry::classic();
    let mut game = people(geometry).advised_by(advising(geometry));
    let mut screen = GameScreen::new(geometry, false);
    press(&mut screen, &mut game, &typed(keys));
    (frame(&screen, &game, None).join("\n"), game.is_casual())
}

#[test]
fn in_a_rated_game_the_first_hint_key_says_it_makes_the_game_casual_and_gives_no_hint() {
    let (shown, casual) = rated_with_hints_after("?");

    shows(
        &shown,
        "A hint makes this rated game casual: it will rate nobody. Press ? again",
    );
    assert!(!casual);
}

#[test]
fn in_a_rated_game_the_hint_key_pressed_again_gives_the_hint_and_makes_the_game_casual() {
    let (shown, casual) = rated_with_hints_after("??");

    shows(&shown, "This game is casual now: it rates nobody.");
    assert_eq!(shown.lines().nth(4).map(str::trim), Some("4  │  *  │  6"));
    assert!(casual);
}

#[test]
fn the_winning_line_is_bracketed_without_colour_and_the_result_announced() {
    let (mut game, mut screen) = people_on_3x3();

    press(&mut screen, &mut game, &typed("14253"));

    let lines = frame(&screen, &game, None);
    assert_eq!(lines[2].trim(), "[X] │ [X] │ [X]");
    assert_eq!(lines[8], "Ada (X) wins!");
    assert_eq!(lines[9], "", "the result is said once");
    assert!(lines[23].starts_with("r play again · s swap sides"));
}

#[test]
fn undo_takes_back_the_last_move_between_two_people() {
    let (mut game, mut screen) = people_on_3x3();

    press(&mut screen, &mut game, &typed("1u"));

    assert!(game.game().moves().is_empty());
    assert_eq!(
        frame(&screen, &game, None)[9],
        "The last move was taken back."
    );
}

#[test]
fn while_the_computer_thinks_the_status_line_says_so_with_the_time() {
    let mut computer = MockComputer::new();
    computer.expect_name().return_const(name("Hal"));
    let game = Match::new(
        Geometry::classic(),
        Mark::O,
        [Seat::Human(name("Ada")), Seat::Computer(Box::new(computer))],
        Unrecorded,
    );
    let screen = GameScreen::new(Geometry::classic(), false);

    let lines = frame(&screen, &game, Some(Duration::from_millis(1250)));

    assert_eq!(lines[8], "Hal (O) is thinking… 1.2 s");
}

#[test]
fn a_saved_result_shows_the_two_players_records() {
    // A real store (the in-memory one): the rows it answers are the subject.
    let store = MemoryStore::new();
    let new = fixtures::new_game(
        1,
        fixtures::settings(fixtures::person("Ada"), fixtures::person("Bob")),
    );
    let mut game = Match::new(
        Geometry::classic(),
        Mark::X,
        [Seat::Human(name("Ada")), Seat::Human(name("Bob"))],
        Journal::begin(&store, &new).unwrap(),
    );
    let mut screen = GameScreen::new(Geometry::classic(), false);

    press(&mut screen, &mut game, &typed("14253"));

    let text = frame(&screen, &game, None).join("\n");
    shows(&text, "Records");
    shows(&text, "│ Player  Wins  Losses  Ties │");
    shows(&text, "│ Ada        1       0     0 │");
    shows(&text, "│ Bob        0       1     0 │");
}

#[test]
fn the_records_box_shows_a_computers_name_whole_in_line_with_its_columns() {
    // Arrange: Impossible's record beside Ada's.
    let row = |name, record| tictactoe_core::domain::Standing { name, record };
    let rows = Scoreboard::from_standings([
        row(
            name("Ada"),
            Record {
                losses: 1,
                ..Record::default()
            },
        ),
        row(
            PlayerName::stored("Computer (Impossible)").unwrap(),
            Record {
                wins: 12,
                ..Record::default()
            },
        ),
    ]);

    // Act
    let text = crate::game_screen::records_text(&rows);

    // Assert
    assert_eq!(
        text,
        "Player                 Wins  Losses  Ties\n\
         Computer (Impossible)    12       0     0\n\
         Ada                       0       1     0"
    );
}

/// Ada (X) against a computer called `computer` (O), on `geometry`.
fn against(computer: &str, geometry: Geometry) -> Match<Unrecorded> {
    let mut hal = MockComputer::new();
    hal.expect_name()
        .return_const(PlayerName::stored(computer).unwrap());
    Match::new(
        geometry,
        Mark::X,
        [Seat::Human(name("Ada")), Seat::Computer(Box::new(hal))],
        Unrecorded,
    )
}

#[test]
fn a_computers_mark_goes_inside_its_names_brackets() {
    let game = against("Computer (Random)", Geometry::classic());
    let screen = GameScreen::new(Geometry::classic(), false);

    let lines = frame(&screen, &game, Some(Duration::ZERO));

    assert_eq!(
        lines[0],
        "Ada (X) vs Computer (Random, O) · 3 x 3, 3 in a row"
    );
}

#[test]
fn on_the_narrowest_screen_the_title_and_the_keys_are_cut_between_words_never_in_them() {
    // Arrange: 7 x 7 on the smallest screen it is drawn on.
    let seven = Geometry::new(7, 5).unwrap();
    let game = against("Computer (Impossible)", seven);
    let screen = GameScreen::new(seven, false);
    let (width, height) = screen.smallest_screen();

    // Act
    let lines = drawn_on(width, height, |frame| screen.draw(frame, &game, None));

    // Assert: the names, then the shape; the keys that matter most, whole.
    assert_eq!(width, 41);
    assert_eq!(lines[0], "Ada (X) vs Computer (Impossible, O)");
    assert_eq!(lines[1], "7 x 7, 5 in a row");
    assert_eq!(lines[19], "? hint · u undo · q leave · F1 help");
}

#[test]
fn on_the_narrowest_screen_the_help_fits_its_box_line_for_line() {
    let (mut game, mut screen) = people_on_3x3();
    let width = screen.smallest_screen().0;

    press(&mut screen, &mut game, &[KeyCode::F(1)]);
    let text = drawn_on(width, 24, |frame| screen.draw(frame, &game, None)).join("\n");

    // Each line of the help whole, and a space inside each border, 40 columns wide.
    shows(&text, "│ 1 to 9       play that cell; on a    │");
    shows(&text, "│              larger board type its   │");
    shows(&text, "│ After a game: r plays again, s swaps │");
    shows(&text, "│ Any key closes this help.            │");
    assert_eq!(width, 40);
}

#[test]
fn on_the_narrowest_screen_the_leave_box_is_cut_between_words_inside_its_padding() {
    let seven = Geometry::new(7, 5).unwrap();
    let mut game = against("Computer (Impossible)", seven);
    let mut screen = GameScreen::new(seven, false);
    let (width, height) = screen.smallest_screen();

    screen.on_key(&mut game, key(KeyCode::Char('q')));
    let text = drawn_on(width, height, |frame| screen.draw(frame, &game, None)).join("\n");

    shows(&text, "│ Leave this game? It will not be  │");
    shows(&text, "│ counted.                         │");
    shows(&text, "│ q  leave it and quit Tic Tac Toe │");
}

#[test]
fn the_review_shows_the_board_where_the_game_had_it() {
    // Arrange: a finished game, and its replay.
    let (mut game, mut screen) = people_on_3x3();
    press(&mut screen, &mut game, &typed("14253"));
    let settings = Settings::new(
        PlayerSpec::Human(Some(name("Ada"))),
        PlayerSpec::Human(Some(name("Bob"))),
        Mark::X,
        Geometry::classic(),
    )
    .unwrap();
    let replay =
        tictactoe_core::play::Replay::played(&settings, game.game().moves(), None).unwrap();
    let review = ReplayScreen::new("Review".into(), &replay, None, false);

    // Act
    let played = frame(&screen, &game, None);
    let reviewed = drawn(|frame| review.draw(frame));

    // Assert: the first row of the board starts in the same column on both screens.
    let column = |line: &str| line.find('│');
    assert_eq!(column(&reviewed[2]), column(&played[2]), "{reviewed:#?}");
}

#[test]
fn the_menu_opens_as_the_last_game_kept_was_set_up_with_its_names() {
    // Arrange: Zoë (O) against Medium on 6 x 6, four in a row, kept and left.
    let store = MemoryStore::new();
    let settings = medium_against_zoe();
    let new = fixtures::new_game(7, settings.clone());
    let mut medium = MockComputer::new();
    medium
        .expect_name()
        .return_const(PlayerSpec::Computer(Level::Medium).name(Mark::X));
    let mut game = Match::new(
        settings.geometry(),
        Mark::O,
        [Seat::Computer(Box::new(medium)), Seat::Human(name("Zoë"))],
        Journal::begin(&store, &new).unwrap(),
    );
    game.leave(Mark::O).unwrap();

    // Act
    let mut form = crate::run::last_form(&store);

    // Assert
    assert_eq!(
        form.on_key(key(KeyCode::Enter)),
        FormOutcome::Start(settings)
    );
}

#[test]
fn with_no_game_kept_the_menu_opens_on_its_defaults() {
    let form = crate::run::last_form(&MemoryStore::new());

    assert_eq!(
        form_lines(&form),
        form_lines(&MenuForm::default()),
        "the defaults"
    );
}

// The menu form.

fn form_lines(form: &MenuForm) -> Vec<String> {
    drawn(|frame| form.draw(frame))
}

fn type_into(form: &mut MenuForm, codes: &[KeyCode]) -> FormOutcome {
    let mut outcome = FormOutcome::Continue;
    for &code in codes {
        outcome = form.on_key(key(code));
    }
    outcome
}

#[test]
fn the_form_starts_on_a_person_against_impossible_on_three_by_three() {
    let form = MenuForm::default();

    let lines = form_lines(&form);

    assert_eq!(
        &lines[2..10],
        [
            "Game              ‹ Human vs Computer ›",
            "You play          ‹ X ›",
            "Name (X)          Player 1",
            "Computer (O)      ‹ Impossible ›",
            "                  plays perfectly: it never loses",
            "Board             ‹ 3 x 3 ›",
            "Moves first       ‹ X ›",
            "                  [ Start ]",
        ]
    );
}

#[test]
fn playing_o_against_an_easy_computer_on_five_by_five_with_four_in_a_row() {
    // Arrange: side → O; the name; the computer (now X) → Easy; size → 5; run → 4.
    let mut form = MenuForm::default();
    let keys = [
        KeyCode::Down,
        KeyCode::Right, // you play O
        KeyCode::Down,
        KeyCode::Char('Z'),
        KeyCode::Char('o'), // the name for O
        KeyCode::Down,
        KeyCode::Left,
        KeyCode::Left, // Impossible → Medium → Easy, for X
        KeyCode::Down,
        KeyCode::Right,
        KeyCode::Right, // 5 x 5
        KeyCode::Down,
        KeyCode::Left, // four in a row
        KeyCode::Enter,
    ];

    // Act
    let outcome = type_into(&mut form, &keys);

    // Assert
    assert_eq!(
        outcome,
        FormOutcome::Start(computer_against(
            Level::Easy,
            "Zo",
            Mark::X,
            Geometry::new(5, 4).unwrap()
        ))
    );
}

#[test]
fn switching_sides_keeps_the_name_typed_and_the_level_picked_on_the_same_lines() {
    // Arrange: the name Ada for X; the computer (O) down to Medium.
    let mut form = MenuForm::default();
    let mut keys = vec![KeyCode::Down, KeyCode::Down]; // Name (X)
    keys.extend("Ada".chars().map(KeyCode::Char));
    keys.extend([KeyCode::Down, KeyCode::Left]); // Computer (O): Medium
    type_into(&mut form, &keys);

    // Act: up to "You play", and O.
    type_into(&mut form, &[KeyCode::Up, KeyCode::Up, KeyCode::Right]);

    // Assert: the person's name is still the line under "You play", the computer's
    // level the one under it, so the same ↓ presses reach them.
    let lines = form_lines(&form);
    assert_eq!(lines[3], "You play          ‹ O ›");
    assert_eq!(lines[4], "Name (O)          Ada");
    assert_eq!(lines[5], "Computer (X)      ‹ Medium ›");
}

#[test]
fn only_the_name_being_typed_shows_where_the_next_letter_goes() {
    let mut form = MenuForm::default();
    let before = form_lines(&form)[4].clone();

    type_into(&mut form, &[KeyCode::Down, KeyCode::Down]);

    assert_eq!(before, "Name (X)          Player 1");
    assert_eq!(form_lines(&form)[4], "Name (X)          Player 1_");
}

#[test]
fn in_a_name_q_is_a_letter_and_elsewhere_it_quits() {
    let mut form = MenuForm::default();

    let typing = type_into(
        &mut form,
        &[KeyCode::Down, KeyCode::Down, KeyCode::Char('q')],
    );
    let quitting = type_into(&mut form, &[KeyCode::Down, KeyCode::Char('q')]);

    assert_eq!(typing, FormOutcome::Continue);
    assert_eq!(quitting, FormOutcome::Quit);
}

#[rstest::rstest]
#[case::the_same_whatever_its_case("ADA", "Both players are called Ada")]
#[case::with_a_cyrillic_a("\u{410}da", "look alike")]
fn a_second_name_too_like_the_first_is_told_and_the_game_does_not_start(
    #[case] second: &str,
    #[case] told: &str,
) {
    let mut form = MenuForm::default();
    let mut keys = vec![KeyCode::Left, KeyCode::Down]; // Human vs Human; Name (X)
    keys.extend(typed("Ada"));
    keys.push(KeyCode::Down);
    keys.extend(typed(second));
    keys.push(KeyCode::Enter);

    let outcome = type_into(&mut form, &keys);

    assert_eq!(outcome, FormOutcome::Continue);
    assert!(form_lines(&form).join("\n").contains(told));
}

#[test]
fn back_at_the_menu_the_form_is_filled_in_as_the_last_game_was() {
    let last = medium_against_zoe();
    let mut form = MenuForm::from_settings(&last);

    let outcome = form.on_key(key(KeyCode::Enter));

    assert_eq!(outcome, FormOutcome::Start(last));
}

mod training {
    use tictactoe_console::Stop;
    use tictactoe_console::Titled;
    use tictactoe_core::domain::{BitBoard, Board};
    use tictactoe_core::play::MoveReview;
    use tictactoe_core::ports::GameId;
    use tictactoe_core::rules::{Answered, Fate, Puzzle};

    use super::*;

    /// X on 5, O to move: O had a draw, played 2 (a loss left); 1, 3, 7 and 9 were the
    /// best moves.
    fn puzzles() -> Vec<Titled> {
        let classic = Geometry::classic();
        let mut position = BitBoard::new(classic);
        position.place(cell(classic, 5), Mark::X).unwrap();
        let puzzle = Puzzle {
            game: GameId::from_bits(1),
            ply: 2,
            board: classic,
            position,
            to_move: Mark::O,
            value: Verdict::Draw,
            left: Verdict::Loss,
            played: cell(classic, 2),
            best_moves: [1, 3, 7, 9].map(|n| cell(classic, n)).to_vec(),
        };
        vec![Titled {
            title: "Puzzle 1 of 1: game 00000001, move 2".to_string(),
            puzzle,
        }]
    }

    fn wrong(puzzle: &Puzzle) -> Answered {
        Answered::Wrong {
            left: Verdict::Loss,
            reviewed: MoveReview {
                ply: puzzle.ply,
                mark: puzzle.to_move,
                cell: puzzle.played,
                before: tictactoe_core::domain::Known::Exactly(Verdict::Draw),
                after: tictactoe_core::domain::Known::Exactly(Verdict::Loss),
                best_moves: puzzle.best_moves.clone(),
            },
        }
    }

    /// Tells `screen` that the player answered 4 on the first of `puzzles` (a loss
    /// left: wrong) and that the puzzle comes back.
    fn answer_4_wrongly(screen: &mut TrainScreen<'_>, puzzles: &[Titled]) {
        screen.answered(
            cell(Geometry::classic(), 4),
            wrong(&puzzles[0].puzzle),
            Some(Fate::ComesBack),
        );
    }

    #[test]
    fn a_cells_number_then_enter_answers_that_cell() {
        let puzzles = puzzles();
        let mut screen = TrainScreen::new(&puzzles, false);

        screen.on_key(key(KeyCode::Char('7')));
        let flow = screen.on_key(key(KeyCode::Enter));

        assert_eq!(flow, TrainFlow::Answer(cell(Geometry::classic(), 7)));
    }

    #[test]
    fn a_taken_cell_is_no_answer() {
        let puzzles = puzzles();
        let mut screen = TrainScreen::new(&puzzles, false);

        // The cursor opens on the centre, which X holds.
        let flow = screen.on_key(key(KeyCode::Enter));

        assert_eq!(flow, TrainFlow::Continue);
    }

    #[test]
    fn the_screen_asks_what_the_player_had_and_counts_nothing_yet() {
        let puzzles = puzzles();
        let screen = TrainScreen::new(&puzzles, false);

        let text = drawn(|frame| screen.draw(frame)).join("\n");

        shows(&text, "Puzzle 1 of 1: game 00000001, move 2");
        shows(
            &text,
            "O to move; O had a draw here. Find a move that keeps it.",
        );
        shows(&text, "0 right, 0 wrong so far");
    }

    #[test]
    fn after_a_wrong_answer_s_shows_the_answer_in_the_reviews_words_with_the_best_moves_lit() {
        let puzzles = puzzles();
        let mut screen = TrainScreen::new(&puzzles, false);

        answer_4_wrongly(&mut screen, &puzzles);
        screen.on_key(key(KeyCode::Char('s')));
        let text = drawn(|frame| screen.draw(frame)).join("\n");

        shows(&text, "Not that one: 4 leaves a loss.");
        shows(&text, "In the game, Move 2, O at 2: threw away the draw");
        shows(&text, "[1]");
        shows(
            &text,
            "The best moves: 1, 3, 7 or 9 (lit). The puzzle stays.",
        );
        assert_eq!(screen.tally(), (0, 1));
    }

    #[test]
    fn after_the_last_puzzle_is_judged_enter_ends_the_session() {
        let puzzles = puzzles();
        let mut screen = TrainScreen::new(&puzzles, false);
        screen.answered(
            cell(Geometry::classic(), 1),
            Answered::Right,
            Some(Fate::ComesBack),
        );

        let flow = screen.on_key(key(KeyCode::Enter));

        assert_eq!(flow, TrainFlow::Leave);
    }

    #[test]
    fn after_a_wrong_answer_the_player_tries_again_on_the_same_position_without_the_answer() {
        let puzzles = puzzles();
        let mut screen = TrainScreen::new(&puzzles, false);
        answer_4_wrongly(&mut screen, &puzzles);

        let text = drawn(|frame| screen.draw(frame)).join("\n");
        screen.on_key(key(KeyCode::Char('9')));
        let flow = screen.on_key(key(KeyCode::Enter));

        shows(&text, "Try again on the same position, or see the answer.");
        assert!(!text.contains("[1]"), "the answer given away:\n{text}");
        assert_eq!(flow, TrainFlow::Answer(cell(Geometry::classic(), 9)));
    }

    #[rstest::rstest]
    #[case::retires(Fate::Retires, "Solved twice, apart: the puzzle retires.", 1)]
    #[case::comes_back(Fate::ComesBack, "It comes back once more", 0)]
    fn a_right_answer_says_whether_the_puzzle_retires_and_the_session_counts_it(
        #[case] fate: Fate,
        #[case] said: &str,
        #[case] retired: usize,
    ) {
        let puzzles = puzzles();
        let mut screen = TrainScreen::new(&puzzles, false);

        screen.answered(cell(Geometry::classic(), 1), Answered::Right, Some(fate));
        let text = drawn(|frame| screen.draw(frame)).join("\n");

        shows(&text, said);
        assert_eq!(screen.trained(Stop::Quit).retired, retired);
    }

    #[test]
    fn an_answer_not_judged_lets_the_player_answer_again() {
        let puzzles = puzzles();
        let mut screen = TrainScreen::new(&puzzles, false);
        screen.answered(cell(Geometry::classic(), 8), Answered::Unproven, None);

        screen.on_key(key(KeyCode::Char('9')));
        let flow = screen.on_key(key(KeyCode::Enter));

        assert_eq!(flow, TrainFlow::Answer(cell(Geometry::classic(), 9)));
    }
}

/// `seconds` after the clock's epoch: the instants of games on a clock.
fn at(seconds: u64) -> std::time::SystemTime {
    std::time::SystemTime::UNIX_EPOCH + Duration::from_secs(seconds)
}

/// A clock of three minutes each and two seconds a move, X first, begun at 0 s, kept
/// beside a game.
fn three_plus_two() -> tictactoe_console::TimeKeeper<'static> {
    let control = "3+2".parse().unwrap();
    tictactoe_console::TimeKeeper::new(Some(tictactoe_core::domain::GameClock::start(
        control,
        tictactoe_core::domain::FIRST_MOVE_WITHIN,
        Mark::X,
        at(0),
    )))
}

/// Ada and Bob's game on 3 x 3 on a 3+2 clock, after the cells of `moves` are typed at
/// their seconds, the clock following as the runner does; then the clock judged at
/// `judged` and the screen told the time there.
fn on_the_clock(moves: &[(char, u64)], judged: u64) -> (Match<Unrecorded>, GameScreen) {
    let (mut game, mut screen) = people_on_3x3();
    let mut keeper = three_plus_two();
    for &(key, second) in moves {
        press(&mut screen, &mut game, &[KeyCode::Char(key)]);
        keeper.follow(&game, at(second));
    }
    let events = keeper.judge(&mut game, at(judged));
    screen.show_events(&game, events);
    screen.show_time(keeper.time_left(at(judged)));
    (game, screen)
}

#[test]
fn on_a_clock_each_sides_time_is_shown_under_the_board() {
    let (game, screen) = on_the_clock(&[('1', 1), ('5', 2), ('9', 12)], 20);

    let lines = frame(&screen, &game, None);

    assert_eq!(lines[7].trim(), "X 2:52 · O 2:52");
    assert_eq!(lines[8], "Bob (O) to move.");
}

#[test]
fn before_both_have_moved_the_clock_says_how_long_the_first_move_may_take() {
    let (game, screen) = on_the_clock(&[('5', 10)], 15);

    let lines = frame(&screen, &game, None);

    assert_eq!(lines[7].trim(), "X 3:00 · O 3:00 · first move within 0:25");
}

#[test]
fn a_side_out_of_time_loses_on_time_and_the_game_is_over() {
    let (game, screen) = on_the_clock(&[('1', 1), ('5', 2)], 200);

    let lines = frame(&screen, &game, None);

    assert_eq!(
        game.end(),
        Some(&End::TimedOut {
            side: Mark::X,
            drawn: false
        })
    );
    assert_eq!(lines[7].trim(), "X 0:00.0 · O 3:00");
    assert_eq!(lines[8], "Ada (X) ran out of time: Bob (O) wins.");
    assert!(lines[23].starts_with("r play again"));
}

#[test]
fn a_side_out_of_time_draws_when_the_other_could_no_longer_complete_a_line() {
    // X to move on "o../xxo/xo.": each line open to O lacks two cells; three are empty.
    let moves = [('4', 1), ('1', 2), ('5', 3), ('6', 4), ('7', 5), ('8', 6)];
    let (game, screen) = on_the_clock(&moves, 300);

    let lines = frame(&screen, &game, None);

    assert_eq!(
        lines[8],
        "Ada (X) ran out of time, but Bob (O) could no longer complete a line: a draw."
    );
}

#[test]
fn a_first_move_not_made_in_time_aborts_the_game() {
    let (game, screen) = on_the_clock(&[('5', 1)], 31);

    let lines = frame(&screen, &game, None);

    assert_eq!(game.end(), Some(&End::Aborted { by: Mark::O }));
    assert_eq!(
        lines[8],
        "Bob (O) made no first move in time: the game is aborted, and not counted."
    );
}

#[test]
fn a_game_without_a_clock_shows_no_time() {
    let (game, screen) = people_on_3x3();

    let lines = frame(&screen, &game, None);

    assert_eq!(lines[7], "");
}
