//! Properties that must hold for any input at all, checked with proptest: every parser
//! either gives a valid value or a typed error, and no sequence of legal moves breaks a
//! board invariant.

use std::io::Cursor;

use proptest::prelude::*;
use tictactoe_console::Command;
use tictactoe_console::ConsoleInput;
use tictactoe_console::menu;
use tictactoe_console::{Input, InputHandler};
use tictactoe_core::domain::{
    BitBoard, Game, GameState, GameStatus, Geometry, GridBoard, Mark, MoveError, fill_from_layout,
    layout_of,
};
use tictactoe_core::players::PlayerSpec;

fn any_geometry() -> impl Strategy<Value = Geometry> {
    (3usize..=7)
        .prop_flat_map(|size| (Just(size), 3..=size))
        .prop_map(|(size, win)| Geometry::new(size, win).unwrap())
}

proptest! {
    #[test]
    fn any_text_is_a_cell_on_the_board_or_a_reason(text in any::<String>(), geometry in any_geometry()) {
        if let Ok(position) = geometry.parse_position(&text) {
            prop_assert!(position.index() < geometry.cell_count());
            prop_assert_eq!(geometry.parse_position(&position.number().to_string()), Ok(position));
        }
    }

    #[test]
    fn typed_cells_round_trip(index in 0usize..49, geometry in any_geometry()) {
        prop_assume!(index < geometry.cell_count());
        let position = geometry.position(index).unwrap();
        let column = char::from(b'a' + geometry.col_of(position) as u8);
        let coordinate = format!("{column}{}", geometry.row_of(position) + 1);

        prop_assert_eq!(geometry.parse_position(&coordinate), Ok(position));
        prop_assert_eq!(geometry.parse_position(&coordinate.to_uppercase()), Ok(position));
    }

    #[test]
    fn any_text_is_a_move_prompt_command_or_a_reason(text in any::<String>()) {
        let _ = Command::parse(&text, Geometry::classic());
    }

    #[test]
    fn any_text_is_a_menu_answer_or_a_reason(text in any::<String>()) {
        let _ = menu::reply(&text, menu::mode);
        let _ = menu::reply(&text, menu::level);
        let _ = menu::reply(&text, menu::first_mover);
        let _ = menu::reply(&text, menu::after_game);
        let default = tictactoe_core::domain::PlayerName::new("Player X").unwrap();
        if let Ok(menu::Reply::Value(name)) = menu::reply(&text, |t| menu::name(t, &default)) {
            prop_assert!(!name.as_str().is_empty());
            prop_assert!(name.as_str().chars().count() <= tictactoe_core::domain::PlayerName::MAX_CHARS);
            prop_assert!(!name.as_str().chars().any(char::is_control));
        }
    }

    #[test]
    fn any_text_is_a_player_spec_or_a_reason(text in any::<String>()) {
        if let Ok(spec) = text.parse::<PlayerSpec>() {
            prop_assert!(!spec.name(Mark::X).as_str().is_empty());
        }
    }

    #[test]
    fn any_text_is_a_position_or_a_reason(text in "[xXoO._/ -]{0,12}|\\PC{0,12}") {
        if let Ok(board) = fill_from_layout(BitBoard::new(Geometry::classic()), &text) {
            let normalised = layout_of(&board);
            prop_assert_eq!(fill_from_layout(BitBoard::new(Geometry::classic()), &normalised), Ok(board));
            let _ = Game::from_board(board, Mark::X);
            let _ = Game::from_board(board, Mark::O);
        }
    }

    #[test]
    fn any_bytes_read_as_lines_without_panicking_and_end(bytes in proptest::collection::vec(any::<u8>(), 0..5000)) {
        let input = ConsoleInput::new(Cursor::new(bytes.clone()));
        let mut lines = 0;
        while let Input::Line(line) = input.read_line() {
            prop_assert!(line.len() <= ConsoleInput::<Cursor<Vec<u8>>>::MAX_LINE * 3, "at most MAX_LINE bytes, each at most 3 when replaced");
            lines += 1;
            prop_assert!(lines <= bytes.len(), "every line consumes input");
        }
        prop_assert_eq!(input.read_line(), Input::End, "the end stays the end");
    }

    #[test]
    fn legal_moves_in_any_order_keep_every_invariant(
        geometry in any_geometry(),
        order in Just((0..49usize).collect::<Vec<_>>()).prop_shuffle(),
        x_first in any::<bool>(),
    ) {
        let first = if x_first { Mark::X } else { Mark::O };
        let mut game = Game::<GridBoard>::start(geometry, first);
        let cells: Vec<_> = order.into_iter().filter_map(|i| geometry.position(i)).collect();
        for &cell in &cells {
            if game.status().is_over() {
                // Nothing changes after the end.
                let before = layout_of(game.board());
                prop_assert_eq!(game.play(cell), Err(MoveError::GameOver));
                prop_assert_eq!(layout_of(game.board()), before);
                continue;
            }
            let mover = game.to_move();
            prop_assert!(game.play(cell).is_ok());
            // Marks alternate: the first mover is level or one ahead.
            let (firsts, seconds) = (game.board().count(first), game.board().count(first.opponent()));
            prop_assert!(firsts == seconds || firsts == seconds + 1);
            prop_assert_eq!(game.board().mark_at(cell), Some(mover));
            // The winner is right: the mover won exactly when one of its lines is full.
            let mover_has_line = geometry.lines().iter().any(|line| line.cells().iter().all(|&c| game.board().mark_at(c) == Some(mover)));
            match game.status() {
                GameStatus::Won(win) => {
                    prop_assert_eq!(win.mark, mover);
                    prop_assert!(mover_has_line);
                    prop_assert!(win.line.cells().iter().all(|&c| game.board().mark_at(c) == Some(mover)));
                }
                GameStatus::Draw => prop_assert!(!mover_has_line && game.board().is_full()),
                GameStatus::InProgress => prop_assert!(!mover_has_line && !game.board().is_full()),
            }
        }
        prop_assert!(game.status().is_over(), "every cell played ends the game");
    }
}
