//! Ready-made doubles shared by the unit tests.
//!
//! mockall tries expectations in the order they were set, so a test sets the
//! expectations it is about first and then calls [`allow_any_rendering`] to let
//! everything else through.

use std::collections::VecDeque;

use crate::ports::{Input, MockInputHandler, MockRenderer};

/// An input handler that yields `lines` in order, then [`Input::End`]: a returning
/// closure that owns its script.
pub fn typed(lines: &[&str]) -> MockInputHandler {
    let mut script: VecDeque<String> = lines.iter().map(|l| l.to_string()).collect();
    let mut input = MockInputHandler::new();
    input
        .expect_read_line()
        .returning(move || script.pop_front().map_or(Input::End, Input::Line));
    input
}

/// Accepts any further call to any renderer method.
pub fn allow_any_rendering(renderer: &mut MockRenderer) {
    renderer.expect_show_board().return_const(());
    renderer.expect_show_prompt().return_const(());
    renderer.expect_show_help().return_const(());
    renderer.expect_show_problem().return_const(());
    renderer.expect_show_notice().return_const(());
    renderer.expect_show_result().return_const(());
    renderer.expect_show_scoreboard().return_const(());
    renderer.expect_show_analysis().return_const(());
}

/// A renderer that accepts anything: for tests whose subject is elsewhere.
pub fn quiet_renderer() -> MockRenderer {
    let mut renderer = MockRenderer::new();
    allow_any_rendering(&mut renderer);
    renderer
}
