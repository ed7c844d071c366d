//! Past games at the console: a history as a table ([`HistoryTable`]), and a kept game
//! played back line by line, with what perfect play says of each move
//! ([`ConsoleRenderer::show_replay`](crate::ConsoleRenderer::show_replay)).

use std::io::Write;

use colored::Colorize;
use tictactoe_core::ports::{GameSummary, RatingChange};
use tictactoe_core::rules::names_of;
use unicode_width::UnicodeWidthStr;

use crate::words::{column_widths, ending_words, shape, when};

const HEADER: [&str; 8] = [
    "Game",
    "When (UTC)",
    "X",
    "O",
    "Board",
    "Result",
    "Moves",
    "Rating",
];

/// A page of a history as a table: each column as wide as its widest entry on screen,
/// the moves right-aligned. A page is at most a thousand games, so it is held whole.
pub struct HistoryTable<W: Write> {
    out: W,
    colour: bool,
    rows: Vec<[String; 8]>,
}

impl<W: Write> HistoryTable<W> {
    pub fn new(out: W, colour: bool) -> Self {
        HistoryTable {
            out,
            colour,
            rows: Vec::new(),
        }
    }

    /// Adds a game, shown under `short_id` (the start of its id that names it alone).
    pub fn row(&mut self, short_id: &str, game: &GameSummary) {
        self.rated_row(short_id, game, &[]);
    }

    /// Adds a game with what it did to the ratings of the people in it (`changes`,
    /// X's first), in a last column, "Ada 1,512 → 1,498": a column the table has only
    /// if some game on it rated someone.
    pub fn rated_row(&mut self, short_id: &str, game: &GameSummary, changes: &[RatingChange]) {
        let [x, o] = names_of(&game.settings);
        let geometry = game.settings.geometry();
        let said: Vec<String> = changes.iter().map(RatingChange::said).collect();
        self.rows.push([
            short_id.to_string(),
            when(game.started),
            x.to_string(),
            o.to_string(),
            shape(geometry.size(), geometry.win_length()),
            ending_words(game.ending),
            game.moves.to_string(),
            said.join(", "),
        ]);
    }

    /// Writes the table, then how to see the next page (`more`: the command that shows
    /// it), or that there are no games. Output errors are ignored, as everywhere in the
    /// console: a closed pipe has nobody left to tell.
    pub fn finish(mut self, empty: &str, more: Option<&str>) -> W {
        if self.rows.is_empty() {
            let _ = writeln!(self.out, "{empty}");
            return self.out;
        }
        let mut header = HEADER.map(String::from);
        if self.rows.iter().all(|row| row[7].is_empty()) {
            header[7] = String::new();
        }
        let widths = column_widths(&header, &self.rows);
        let header = line(&header, widths);
        let header = if self.colour {
            header.bold().to_string()
        } else {
            header
        };
        let _ = writeln!(self.out, "{header}");
        for row in &self.rows {
            let _ = writeln!(self.out, "{}", line(row, widths));
        }
        if let Some(more) = more {
            let _ = writeln!(self.out, "Older games: {more}");
        }
        let _ = self.out.flush();
        self.out
    }
}

fn line(row: &[String; 8], widths: [usize; 8]) -> String {
    let mut cells: Vec<String> = row
        .iter()
        .zip(widths)
        .map(|(text, width)| format!("{text}{}", " ".repeat(width.saturating_sub(text.width()))))
        .collect();
    cells[6] = format!("{:>w$}", row[6], w = widths[6]);
    cells.join("  ").trim_end().to_string()
}

#[cfg(test)]
mod tests {
    use std::time::{Duration, UNIX_EPOCH};

    use tictactoe_core::domain::{Geometry, Mark, Outcome, PlayerName};
    use tictactoe_core::play::Settings;
    use tictactoe_core::players::{Level, PlayerSpec};
    use tictactoe_core::ports::{Ending, GameId};

    use super::*;

    fn summary(x: &str, ending: Ending, moves: u32) -> GameSummary {
        GameSummary {
            id: GameId::from_bits(1),
            settings: Settings::new(
                PlayerSpec::Human(Some(PlayerName::new(x).unwrap())),
                PlayerSpec::Computer(Level::Impossible),
                Mark::X,
                Geometry::new(7, 5).unwrap(),
            )
            .unwrap(),
            started: UNIX_EPOCH + Duration::from_secs(1_795_000_000),
            ended: UNIX_EPOCH + Duration::from_secs(1_795_000_060),
            ending,
            moves,
        }
    }

    fn shown(table: HistoryTable<Vec<u8>>, more: Option<&str>) -> String {
        String::from_utf8(table.finish("No games.", more)).unwrap()
    }

    #[test]
    fn a_game_that_rated_someone_says_the_change_in_a_last_column() {
        let mut table = HistoryTable::new(Vec::new(), false);
        let game = summary("Ada", Ending::Finished(Outcome::Won(Mark::O)), 12);
        let change = RatingChange {
            game: game.id.clone(),
            mark: Mark::X,
            player: PlayerName::new("Ada").unwrap(),
            board: game.settings.geometry(),
            before: tictactoe_core::domain::Rating::new(1512.0, 60.0, 0.06).unwrap(),
            after: tictactoe_core::domain::Rating::new(1498.0, 60.0, 0.06).unwrap(),
        };

        table.rated_row("0190ab3c", &game, &[change]);

        let shown = shown(table, None);
        let lines: Vec<&str> = shown.lines().collect();
        assert!(lines[0].ends_with("Moves  Rating"), "{shown}");
        assert!(lines[1].ends_with("12  Ada 1,512 → 1,498 (−14)"), "{shown}");
    }

    #[test]
    fn a_history_is_a_table_of_who_played_when_on_what_and_how_it_ended() {
        let mut table = HistoryTable::new(Vec::new(), false);

        table.row(
            "0190ab3c",
            &summary("Ada", Ending::Finished(Outcome::Won(Mark::O)), 12),
        );

        assert_eq!(
            shown(table, None),
            "Game      When (UTC)        X    O                      Board            Result  Moves\n\
             0190ab3c  2026-11-18 11:06  Ada  Computer (Impossible)  7x7, 5 in a row  O won      12\n"
        );
    }

    #[test]
    fn wide_names_line_the_columns_up_by_what_the_terminal_shows() {
        let mut table = HistoryTable::new(Vec::new(), false);
        table.row("a", &summary("李李", Ending::Resigned(Mark::X), 3));
        table.row("b", &summary("Bo", Ending::Abandoned(Mark::X), 10));

        let text = shown(table, None);

        let columns: Vec<usize> = text
            .lines()
            .map(|line| {
                line.find("Computer")
                    .map(|at| line[..at].width())
                    .unwrap_or(0)
            })
            .skip(1)
            .collect();
        assert_eq!(columns[0], columns[1], "{text}");
    }

    #[test]
    fn a_page_with_older_games_after_it_says_how_to_see_them() {
        let mut table = HistoryTable::new(Vec::new(), false);
        table.row("a", &summary("Ada", Ending::Finished(Outcome::Draw), 9));

        let text = shown(table, Some("tictactoe history --before 0190"));

        assert!(
            text.ends_with("Older games: tictactoe history --before 0190\n"),
            "{text}"
        );
    }

    #[test]
    fn an_empty_history_says_so() {
        let table = HistoryTable::new(Vec::new(), false);

        assert_eq!(shown(table, None), "No games.\n");
    }
}
