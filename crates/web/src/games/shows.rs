//! Computer-against-computer games ("shows"): the server plays them itself, one move
//! every `pace`, so that people can follow. When servers share the store, one server
//! plays each show: it holds the game a little longer than a pause at a time
//! ([`Pacing::pace`](tictactoe_core::ports::Pacing::pace)), and another takes it over
//! once a hold runs out (see `following`).

use std::sync::Arc;
use std::time::Duration;

use super::super::table::Table;
use super::Games;
use super::requests::computer_reply;

/// How much longer than the pause between its moves a server holds a show: past it,
/// the game is another server's to take over.
const HOLD_MARGIN: Duration = Duration::from_secs(1);

impl Games {
    /// Plays a show here, one paced move at a time, unless this server plays it
    /// already. When servers share the store, each move waits until this server holds
    /// the game; if another server holds it, this one stops and follows that one's
    /// moves through the news.
    pub(super) fn spawn_show(&self, table: Arc<Table>) {
        let games = self.clone();
        tokio::spawn(async move {
            if !table.turn().await.start_pacing() {
                return;
            }
            let mut closing = games.0.closing.subscribe();
            let pace = games.0.limits.pace;
            while !table.view().is_over() {
                tokio::select! {
                    () = tokio::time::sleep(pace) => {}
                    _ = closing.wait_for(|closed| *closed) => break,
                }
                // A game forgotten from memory goes on where it is read back.
                if !games.0.registry.holds(&table) {
                    break;
                }
                match games
                    .0
                    .store
                    .pace(table.id().clone(), pace + HOLD_MARGIN)
                    .await
                {
                    Ok(true) => {}
                    // Another server plays it.
                    Ok(false) => break,
                    Err(error) => {
                        tracing::warn!(game = %table.id(), "pacing a show: {error}");
                        continue;
                    }
                }
                let turn = table.turn().await;
                if let Err(error) = games
                    .run(&table, turn, |play| computer_reply(&mut play.game))
                    .await
                {
                    tracing::warn!(game = %table.id(), "a show's move: {error}");
                    break;
                }
            }
            table.turn().await.stop_pacing();
        });
    }
}
