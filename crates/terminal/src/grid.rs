//! What both screens draw a board with: the grid (each cell [`CELL_WIDTH`] columns wide
//! and one line high, `│` between cells, a `─┼─` rule between rows) and the styles of
//! its marks, in colour only where colour is wanted.

use ratatui::style::{Color, Modifier, Style};
use ratatui::text::{Line, Span};

use tictactoe_core::domain::{Geometry, Mark, Position};

/// Each cell is this many columns wide on screen, and one line high.
pub(crate) const CELL_WIDTH: u16 = 5;

/// The styles of a screen: colours only when colour is wanted; bold either way.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Palette {
    pub(crate) colour: bool,
}

impl Palette {
    pub(crate) fn paint(self, colour: Color) -> Style {
        if self.colour {
            Style::default().fg(colour)
        } else {
            Style::default()
        }
    }

    pub(crate) fn dim(self) -> Style {
        if self.colour {
            Style::default().add_modifier(Modifier::DIM)
        } else {
            Style::default()
        }
    }

    pub(crate) fn bold(self) -> Style {
        Style::default().add_modifier(Modifier::BOLD)
    }

    /// A cell's style by what is on it: X light cyan and O light yellow, both bold; an
    /// empty cell (showing its number) dim.
    pub(crate) fn mark(self, mark: Option<Mark>) -> Style {
        match mark {
            Some(Mark::X) => self.paint(Color::LightCyan).add_modifier(Modifier::BOLD),
            Some(Mark::O) => self.paint(Color::LightYellow).add_modifier(Modifier::BOLD),
            None => self.dim(),
        }
    }
}

/// The board's lines: `cell` gives each cell's text (centred in its width) and style.
pub(crate) fn grid(
    geometry: Geometry,
    palette: Palette,
    mut cell: impl FnMut(Position) -> (String, Style),
) -> Vec<Line<'static>> {
    let size = geometry.size();
    let rule = vec!["─".repeat(CELL_WIDTH as usize); size].join("┼");
    let mut lines = Vec::new();
    for row in 0..size {
        if row > 0 {
            lines.push(Line::styled(rule.clone(), palette.dim()));
        }
        let mut spans = Vec::new();
        for column in 0..size {
            if column > 0 {
                spans.push(Span::styled("│", palette.dim()));
            }
            let Some(position) = geometry.at(row, column) else {
                continue;
            };
            let (text, style) = cell(position);
            spans.push(Span::styled(
                format!("{text:^width$}", width = CELL_WIDTH as usize),
                style,
            ));
        }
        lines.push(Line::from(spans));
    }
    lines
}
