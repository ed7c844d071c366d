//! Several servers on one store: what the others keep, taken in here. Each game held
//! takes the news of its changes and shows them at once; a game another server began is
//! held here too; the shows (computer against computer) of a server that stopped are
//! taken over.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tictactoe_core::ports::{GameId, Heard, NewGame, News, StoredGame};

use super::Games;

/// How often a server that shares its store looks for computer-against-computer games
/// whose server stopped.
const TAKEOVER_EVERY: Duration = Duration::from_millis(500);

/// The shows taken over at most per look.
const TAKEOVER_AT_ONCE: u32 = 32;

impl Games {
    /// What another server kept: each game held here takes its news and shows it at
    /// once; a game that cannot (a request of this server's is under way on it, or the
    /// news does not follow on) is forgotten, to be read again when next asked for.
    /// After news was missed, every game is.
    pub fn hear(&self, heard: Heard) {
        match heard {
            Heard::Missed => self.0.registry.clear(),
            Heard::News(news) => {
                for (game, mut news) in by_game(news) {
                    if let Some(News::Begin(new)) = news.first() {
                        let new = new.clone();
                        news.remove(0);
                        self.hold_begun(new);
                    }
                    if news.is_empty() {
                        continue;
                    }
                    // A game on a clock is ended on time by the server that kept its
                    // last change; the others find it in the store if that one stops
                    // (`clocks`).
                    if let Some(table) = self.0.registry.get(game.as_str())
                        && !table.take_news(&news)
                    {
                        self.0.registry.remove(&table);
                    }
                }
            }
        }
    }

    /// A game another server began: held here too (its next request may come here),
    /// and shown as the rematch of the game it follows. A computer-against-computer
    /// game stays the other server's to play.
    fn hold_begun(&self, new: NewGame) {
        if let Some(first) = &new.follows
            && let Some(earlier) = self.0.registry.get(first.as_str())
            && !earlier.hear_rematch(new.id.clone())
        {
            // A request of this server's holds it: read again, with its rematch.
            self.0.registry.remove(&earlier);
        }
        if self.0.registry.get(new.id.as_str()).is_some() {
            return;
        }
        let kept = StoredGame {
            clock: new.clock,
            game: new,
            steps: Vec::new(),
            ending: None,
            started: std::time::SystemTime::now(),
            ended: None,
            rematch: None,
        };
        match self.rebuild(kept) {
            Ok(table) => self.0.registry.insert(Arc::new(table), Instant::now()),
            Err(error) => tracing::error!("a game begun by another server: {error}"),
        }
    }

    /// Every [`TAKEOVER_EVERY`], until the server stops: the computer-against-computer
    /// games whose server stopped holding them (it died) are read back and played here
    /// (unless another server takes them first: see `shows`).
    pub(super) fn spawn_takeover(&self) {
        let games = self.clone();
        // Said once until a look succeeds again, and not at all while the store is
        // known to be down (the health says that, once): an outage is two lines.
        let said = Arc::new(std::sync::atomic::AtomicBool::new(false));
        self.until_closing(TAKEOVER_EVERY, move || {
            let games = games.clone();
            let said = Arc::clone(&said);
            async move {
                use std::sync::atomic::Ordering;
                let orphans = match games.0.store.unpaced(TAKEOVER_AT_ONCE).await {
                    Ok(orphans) => {
                        said.store(false, Ordering::Relaxed);
                        orphans
                    }
                    Err(_) if games.health().store_down().is_some() => return,
                    Err(error) => {
                        if !said.swap(true, Ordering::Relaxed) {
                            tracing::warn!("looking for shows to take over: {error}");
                        }
                        return;
                    }
                };
                for id in orphans {
                    games.take_over(id).await;
                }
            }
        });
    }

    async fn take_over(&self, id: GameId) {
        match self.table(&id).await {
            Ok(table) if table.setup().is_show() && !table.view().is_over() => {
                self.spawn_show(table);
            }
            Ok(_) => {}
            Err(error) => tracing::warn!(game = %id, "taking over a show: {error}"),
        }
    }
}

/// `news` by game, in the order each game first appears, each game's in order.
fn by_game(news: Vec<News>) -> Vec<(GameId, Vec<News>)> {
    let mut games: Vec<(GameId, Vec<News>)> = Vec::new();
    for item in news {
        match games.iter_mut().find(|(game, _)| game == item.game()) {
            Some((_, items)) => items.push(item),
            None => games.push((item.game().clone(), vec![item])),
        }
    }
    games
}
