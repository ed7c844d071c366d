//! Ready-made doubles shared by the unit tests.
//!
//! mockall tries a method's expectations in the order they were set, and passes over
//! one that is used up when a later one also matches. So "a specific expectation with
//! `times(1)`, then a catch-all" does NOT check "exactly once": the second call falls
//! through to the catch-all. A test that counts a call leaves that method out of the
//! catch-alls ([`allow_rendering_except`]), or makes the catch-all refuse what it counts
//! (a `withf` with the opposite predicate).

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
    // A script is typed when asked, never ahead: nothing to discard.
    input.expect_discard_typed_ahead().return_const(());
    input
}

/// The renderer's methods, to name the ones a test counts itself.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Shown {
    Board,
    Prompt,
    Help,
    Problem,
    Notice,
    Result,
    Scoreboard,
    Analysis,
}

/// Accepts any call to the renderer's other methods: the ones in `counted` are left
/// for the test's own expectations, which are then the only ones that can match.
pub fn allow_rendering_except(renderer: &mut MockRenderer, counted: &[Shown]) {
    let allowed = |method| !counted.contains(&method);
    if allowed(Shown::Board) {
        renderer.expect_show_board().return_const(());
    }
    if allowed(Shown::Prompt) {
        renderer.expect_show_prompt().return_const(());
    }
    if allowed(Shown::Help) {
        renderer.expect_show_help().return_const(());
    }
    if allowed(Shown::Problem) {
        renderer.expect_show_problem().return_const(());
    }
    if allowed(Shown::Notice) {
        renderer.expect_show_notice().return_const(());
    }
    if allowed(Shown::Result) {
        renderer.expect_show_result().return_const(());
    }
    if allowed(Shown::Scoreboard) {
        renderer.expect_show_scoreboard().return_const(());
    }
    if allowed(Shown::Analysis) {
        renderer.expect_show_analysis().return_const(());
    }
}

/// A renderer that accepts anything: for tests whose subject is elsewhere.
pub fn quiet_renderer() -> MockRenderer {
    let mut renderer = MockRenderer::new();
    allow_rendering_except(&mut renderer, &[]);
    renderer
}
