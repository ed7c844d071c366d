//! A working store that keeps everything in memory: the reference for what the
//! [`GameStore`] contract means, for tests that need a real store rather than a mock,
//! and the first adapter the contract tests run against.

#![cfg(any(test, feature = "mocks"))]

use std::collections::{HashMap, HashSet};
use std::sync::{Mutex, MutexGuard};
use std::time::SystemTime;

use crate::domain::{Mark, PlayerName, Record, Scoreboard, Standing};

use crate::play::Review;

use crate::ports::{
    Account, AccountStore, AccountSummary, Added, NewAccount, NewSession, NewToken, PasswordHash,
    SecretLock, TokenId, TokenInfo,
};
use crate::ports::{
    Attempt, Cleared, GameHistory, GameId, GameStore, GameSummary, HistoryPage, HistoryQuery,
    IdPrefix, Imported, Opponents, PlayerRating, RatingChange, RatingHistoryQuery, RatingListQuery,
    RatingPoint, RatingStore, Rebuilt, Restored, ReviewStore, Rivalry, Rows, StoreError,
    StoredGame, TrainingStore, Write, to_the_millisecond,
};
use crate::ports::{NewSeek, Seek, SeekId, SeekKind, SeekStore, Taken};
use crate::rules::exactly_once::{self, Decision, Movers, Repeat, Seats, Steps};
use crate::rules::{
    RatingBook, best_first, check_review, counts_of, keeps_review, moves_standing, names_of,
};

/// See the module documentation.
#[derive(Default)]
pub struct MemoryStore {
    state: Mutex<State>,
}

#[derive(Clone, Default)]
struct State {
    games: HashMap<GameId, StoredGame>,
    /// The scoreboard now, by name key.
    tally: Tally,
    /// The scoreboards cleared by resets, the last one last.
    cleared: Vec<Tally>,
    imported: HashSet<String>,
    reviews: HashMap<GameId, Review>,
    /// The ratings as they stand.
    ratings: RatingBook,
    /// Each rated game's changes.
    changes: HashMap<GameId, Vec<RatingChange>>,
    /// The ended games, in the order their ends were kept: the order they are rated in.
    ended: Vec<GameId>,
    /// The answers to puzzles, in the order they were kept.
    attempts: Vec<Attempt>,
    /// The accounts, by name key.
    accounts: HashMap<String, Account>,
    /// The sessions, by lock: the account's name key, and when the session expires (to
    /// the millisecond).
    sessions: HashMap<SecretLock, (String, SystemTime)>,
    /// The personal tokens, by id.
    tokens: HashMap<TokenId, HeldToken>,
    /// The step each game's clock was last kept as of (its beginning: 0).
    clock_after: HashMap<GameId, u32>,
    /// The seeks, in the order they were opened.
    seeks: Vec<Seek>,
    /// Who blocks whom: (blocker's key, blocked's key, blocked's name), in order.
    blocks: Vec<(String, String, PlayerName)>,
}

/// A personal token as the memory store holds it.
#[derive(Clone)]
struct HeldToken {
    lock: SecretLock,
    /// The account's name key.
    account: String,
    label: String,
    created: SystemTime,
}

type Tally = HashMap<String, Standing>;

impl MemoryStore {
    pub fn new() -> Self {
        MemoryStore::default()
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        // A panic elsewhere while holding the lock leaves the state as consistent as
        // any write: each is applied to a copy and swapped in whole.
        crate::sync::lock(&self.state)
    }
}

impl MemoryStore {
    /// Applies `writes` to a copy of the state, swapped in whole once all are kept.
    fn keep(&self, writes: &[Write], repeat: Repeat) -> Result<(), StoreError> {
        let mut state = self.lock();
        let mut next = state.clone();
        for write in writes {
            next.apply(write, repeat)?;
        }
        *state = next;
        Ok(())
    }
}

impl GameStore for MemoryStore {
    fn write(&self, writes: &[Write]) -> Result<(), StoreError> {
        self.keep(writes, Repeat::Retry)
    }

    fn write_new(&self, writes: &[Write]) -> Result<(), StoreError> {
        self.keep(writes, Repeat::Race)
    }

    fn game(&self, id: &GameId) -> Result<Option<StoredGame>, StoreError> {
        Ok(self.lock().games.get(id).cloned())
    }

    fn overdue(&self, now: SystemTime, limit: usize) -> Result<Vec<GameId>, StoreError> {
        let state = self.lock();
        let mut overdue: Vec<(SystemTime, GameId)> = state
            .games
            .values()
            .filter(|kept| kept.ending.is_none())
            .filter_map(|kept| Some((kept.clock?.deadline(), kept.game.id.clone())))
            .filter(|(deadline, _)| *deadline <= now)
            .collect();
        overdue.sort();
        Ok(overdue.into_iter().take(limit).map(|(_, id)| id).collect())
    }

    /// Memory is always at hand.
    fn checkup(&self) -> Result<(), StoreError> {
        Ok(())
    }

    fn rating_changes(&self, games: &[GameId]) -> Result<Vec<RatingChange>, StoreError> {
        let state = self.lock();
        Ok(games
            .iter()
            .filter_map(|game| state.changes.get(game))
            .flatten()
            .cloned()
            .collect())
    }

    fn standings(&self, top: Option<u64>, each: &mut dyn Rows) -> Result<(), StoreError> {
        let ranked = Scoreboard::from_standings(self.lock().tally.values().cloned());
        let top = top.map_or(usize::MAX, |top| usize::try_from(top).unwrap_or(usize::MAX));
        for row in ranked.standings().iter().take(top) {
            each.row(row.clone());
        }
        Ok(())
    }

    fn standings_of(&self, names: &[PlayerName]) -> Result<Scoreboard, StoreError> {
        let state = self.lock();
        Ok(Scoreboard::from_standings(
            names
                .iter()
                .filter_map(|name| state.tally.get(&name.key()).cloned()),
        ))
    }

    fn reset(&self) -> Result<Cleared, StoreError> {
        let mut state = self.lock();
        let old = std::mem::take(&mut state.tally);
        let players = old.len() as u64;
        state.cleared.push(old);
        Ok(Cleared { players })
    }

    fn restore(&self) -> Result<Restored, StoreError> {
        let mut state = self.lock();
        let Some(mut old) = state.cleared.pop() else {
            return Ok(Restored::NothingToRestore);
        };
        for row in std::mem::take(&mut state.tally).into_values() {
            add(&mut old, &row.name, row.record);
        }
        state.tally = old;
        Ok(Restored::Restored {
            players: state.tally.len() as u64,
        })
    }

    fn import(&self, source: &str, scoreboard: &Scoreboard) -> Result<Imported, StoreError> {
        let mut state = self.lock();
        if !state.imported.insert(source.to_owned()) {
            return Ok(Imported::AlreadyImported);
        }
        for row in scoreboard.standings() {
            add(&mut state.tally, &row.name, row.record);
        }
        Ok(Imported::Added {
            players: scoreboard.standings().len() as u64,
        })
    }
}

impl GameHistory for MemoryStore {
    fn history(&self, query: &HistoryQuery) -> Result<HistoryPage, StoreError> {
        let state = self.lock();
        let before = match &query.before {
            Some(id) => Some(state.newest_first_key(id)?),
            None => None,
        };
        let mut ended: Vec<&StoredGame> = state
            .games
            .values()
            .filter(|kept| kept.ending.is_some())
            .filter(|kept| {
                query.player.as_ref().is_none_or(|player| {
                    names_of(&kept.game.settings)
                        .iter()
                        .any(|name| name.key() == player.key())
                })
            })
            .filter(|kept| before.as_ref().is_none_or(|before| order(kept) < *before))
            .collect();
        ended.sort_by_key(|kept| std::cmp::Reverse(order(kept)));
        let limit = query.limit.get() as usize;
        let more = ended.len() > limit;
        let games: Vec<GameSummary> = ended.into_iter().take(limit).filter_map(summary).collect();
        let next = more
            .then(|| games.last().map(|last| last.id.clone()))
            .flatten();
        Ok(HistoryPage { games, next })
    }

    fn games_starting(&self, prefix: &IdPrefix, limit: u32) -> Result<Vec<GameId>, StoreError> {
        let mut ids: Vec<GameId> = self
            .lock()
            .games
            .keys()
            .filter(|id| prefix.matches(id))
            .cloned()
            .collect();
        ids.sort();
        ids.truncate(limit as usize);
        Ok(ids)
    }

    fn opponents(&self, player: &PlayerName, limit: u32) -> Result<Opponents, StoreError> {
        let state = self.lock();
        let mut games: Vec<&StoredGame> = state.games.values().collect();
        // Oldest first, so that the newest game's spelling of a name is the one kept.
        games.sort_by_key(|kept| order(kept));
        let mut rivals: HashMap<String, Rivalry> = HashMap::new();
        for kept in games {
            let names = names_of(&kept.game.settings);
            // Each side the player took: both, for a computer that played itself.
            for mark in Mark::ALL {
                if names[mark.index()].key() != player.key() {
                    continue;
                }
                let Some(record) = kept.ending.and_then(|ending| ending.counted(mark)) else {
                    continue;
                };
                let opponent = &names[mark.opponent().index()];
                let rival = rivals.entry(opponent.key()).or_insert_with(|| Rivalry {
                    opponent: opponent.clone(),
                    record: Record::default(),
                });
                rival.opponent = opponent.clone();
                rival.record.add(record);
            }
        }
        let mut rivals: Vec<Rivalry> = rivals.into_values().collect();
        rivals.sort_by(|a, b| {
            b.record
                .games()
                .cmp(&a.record.games())
                .then_with(|| a.opponent.key().cmp(&b.opponent.key()))
        });
        let mut total = Record::default();
        for rival in &rivals {
            total.add(rival.record);
        }
        let others = rivals.len().saturating_sub(limit as usize) as u64;
        rivals.truncate(limit as usize);
        Ok(Opponents {
            most_played: rivals,
            others,
            total,
        })
    }
}

impl ReviewStore for MemoryStore {
    fn review(&self, game: &GameId) -> Result<Option<Review>, StoreError> {
        Ok(self.lock().reviews.get(game).cloned())
    }

    fn keep_review(&self, game: &GameId, review: &Review) -> Result<(), StoreError> {
        let mut state = self.lock();
        check_review(game, state.games.get(game), review)?;
        if keeps_review(state.reviews.get(game), review) {
            state.reviews.insert(game.clone(), review.clone());
        }
        Ok(())
    }
}

impl TrainingStore for MemoryStore {
    fn keep_attempt(&self, attempt: &Attempt) -> Result<(), StoreError> {
        let mut state = self.lock();
        let kept = Attempt {
            at: to_the_millisecond(attempt.at),
            ..attempt.clone()
        };
        let again = state.attempts.iter().any(|held| {
            held.player.key() == kept.player.key()
                && held.at_puzzle(&kept.game, kept.ply)
                && held.at == kept.at
        });
        if !again {
            state.attempts.push(kept);
        }
        Ok(())
    }

    fn attempts(&self, player: &PlayerName) -> Result<Vec<Attempt>, StoreError> {
        let key = player.key();
        let mut theirs = self.lock().attempts.clone();
        theirs.retain(|held| held.player.key() == key);
        // Stable: attempts of the same millisecond stay in the order they were kept.
        theirs.sort_by_key(|held| held.at);
        Ok(theirs)
    }
}

impl AccountStore for MemoryStore {
    fn add_account(&self, account: &NewAccount) -> Result<Added, StoreError> {
        let mut state = self.lock();
        if let Some(by) = state.account_like(&account.name) {
            return Ok(Added::Taken { by });
        }
        state.accounts.insert(
            account.name.key(),
            Account {
                name: account.name.clone(),
                password: account.password.clone(),
                created: to_the_millisecond(SystemTime::now()),
            },
        );
        Ok(Added::Added)
    }

    fn account(&self, name: &PlayerName) -> Result<Option<Account>, StoreError> {
        Ok(self.lock().accounts.get(&name.key()).cloned())
    }

    fn account_like(&self, name: &PlayerName) -> Result<Option<PlayerName>, StoreError> {
        Ok(self.lock().account_like(name))
    }

    fn accounts(&self, now: SystemTime) -> Result<Vec<AccountSummary>, StoreError> {
        let state = self.lock();
        let now = to_the_millisecond(now);
        let mut keys: Vec<&String> = state.accounts.keys().collect();
        keys.sort();
        Ok(keys
            .into_iter()
            .map(|key| {
                let account = &state.accounts[key];
                let sessions = state
                    .sessions
                    .values()
                    .filter(|(held, expires)| held == key && now < *expires)
                    .count();
                let tokens = state.tokens.values().filter(|held| held.account == *key);
                AccountSummary {
                    name: account.name.clone(),
                    created: account.created,
                    sessions: sessions as u64,
                    tokens: tokens.count() as u64,
                }
            })
            .collect())
    }

    fn set_password(&self, name: &PlayerName, password: &PasswordHash) -> Result<bool, StoreError> {
        let mut state = self.lock();
        let key = name.key();
        let Some(account) = state.accounts.get_mut(&key) else {
            return Ok(false);
        };
        account.password = password.clone();
        state.forget_secrets_of(&key);
        Ok(true)
    }

    fn remove_account(&self, name: &PlayerName) -> Result<bool, StoreError> {
        let mut state = self.lock();
        let key = name.key();
        if state.accounts.remove(&key).is_none() {
            return Ok(false);
        }
        state.forget_secrets_of(&key);
        Ok(true)
    }

    fn open_session(&self, session: &NewSession) -> Result<bool, StoreError> {
        let mut state = self.lock();
        let key = session.account.key();
        if !state.accounts.contains_key(&key) {
            return Ok(false);
        }
        let (held, _) = state
            .sessions
            .entry(session.lock.clone())
            .or_insert_with(|| (key.clone(), to_the_millisecond(session.expires)));
        Ok(*held == key)
    }

    fn session(
        &self,
        lock: &SecretLock,
        now: SystemTime,
    ) -> Result<Option<PlayerName>, StoreError> {
        let state = self.lock();
        let now = to_the_millisecond(now);
        Ok(state
            .sessions
            .get(lock)
            .filter(|(_, expires)| now < *expires)
            .and_then(|(key, _)| state.accounts.get(key))
            .map(|account| account.name.clone()))
    }

    fn close_session(&self, lock: &SecretLock) -> Result<(), StoreError> {
        self.lock().sessions.remove(lock);
        Ok(())
    }

    fn forget_expired_sessions(&self, now: SystemTime) -> Result<u64, StoreError> {
        let mut state = self.lock();
        let now = to_the_millisecond(now);
        let before = state.sessions.len();
        state.sessions.retain(|_, (_, expires)| now < *expires);
        Ok((before - state.sessions.len()) as u64)
    }

    fn add_token(&self, token: &NewToken) -> Result<bool, StoreError> {
        let mut state = self.lock();
        let key = token.account.key();
        if !state.accounts.contains_key(&key) {
            return Ok(false);
        }
        if let Some(held) = state.tokens.get(&token.id) {
            return Ok(held.lock == token.lock && held.account == key);
        }
        if state.tokens.values().any(|held| held.lock == token.lock) {
            return Ok(false);
        }
        state.tokens.insert(
            token.id.clone(),
            HeldToken {
                lock: token.lock.clone(),
                account: key,
                label: token.label.clone(),
                created: to_the_millisecond(token.created),
            },
        );
        Ok(true)
    }

    fn token(&self, lock: &SecretLock) -> Result<Option<PlayerName>, StoreError> {
        let state = self.lock();
        Ok(state
            .tokens
            .values()
            .find(|held| held.lock == *lock)
            .and_then(|held| state.accounts.get(&held.account))
            .map(|account| account.name.clone()))
    }

    fn tokens(&self, account: &PlayerName) -> Result<Vec<TokenInfo>, StoreError> {
        let state = self.lock();
        let key = account.key();
        let mut theirs: Vec<TokenInfo> = state
            .tokens
            .iter()
            .filter(|(_, held)| held.account == key)
            .map(|(id, held)| TokenInfo {
                id: id.clone(),
                label: held.label.clone(),
                created: held.created,
            })
            .collect();
        theirs.sort_by(|a, b| (a.created, &a.id).cmp(&(b.created, &b.id)));
        Ok(theirs)
    }

    fn revoke_token(&self, account: &PlayerName, id: &TokenId) -> Result<bool, StoreError> {
        let mut state = self.lock();
        let theirs = state
            .tokens
            .get(id)
            .is_some_and(|held| held.account == account.key());
        if theirs {
            state.tokens.remove(id);
        }
        Ok(theirs)
    }

    fn has_games(&self, name: &PlayerName) -> Result<bool, StoreError> {
        let key = name.key();
        Ok(self.lock().games.values().any(|kept| {
            names_of(&kept.game.settings)
                .iter()
                .any(|side| side.key() == key)
        }))
    }
}

impl RatingStore for MemoryStore {
    fn ratings(&self, query: &RatingListQuery) -> Result<Vec<PlayerRating>, StoreError> {
        let state = self.lock();
        let mut ratings: Vec<PlayerRating> = state
            .ratings
            .ratings()
            .filter(|held| held.board == query.board && held.rating.certainty() == query.certainty)
            .cloned()
            .collect();
        ratings.sort_by(|a, b| best_first((&a.rating, &a.name), (&b.rating, &b.name)));
        ratings.truncate(query.top as usize);
        Ok(ratings)
    }

    fn ratings_of(&self, player: &PlayerName) -> Result<Vec<PlayerRating>, StoreError> {
        let state = self.lock();
        let mut ratings: Vec<PlayerRating> = state
            .ratings
            .ratings()
            .filter(|held| held.name.key() == player.key())
            .cloned()
            .collect();
        ratings.sort_by_key(|held| (held.board.size(), held.board.win_length()));
        Ok(ratings)
    }

    fn rating_history(&self, query: &RatingHistoryQuery) -> Result<Vec<RatingPoint>, StoreError> {
        let state = self.lock();
        let key = query.player.key();
        let mut points: Vec<RatingPoint> = state
            .ended
            .iter()
            .filter_map(|id| Some((state.changes.get(id)?, state.games.get(id)?.ended?)))
            .flat_map(|(changes, ended)| changes.iter().map(move |change| (change, ended)))
            .filter(|(change, _)| change.board == query.board && change.player.key() == key)
            .map(|(change, ended)| RatingPoint {
                game: change.game.clone(),
                ended,
                rating: change.after,
            })
            .collect();
        let skip = points.len().saturating_sub(query.last as usize);
        points.drain(..skip);
        Ok(points)
    }

    fn rebuild_ratings(&self) -> Result<Rebuilt, StoreError> {
        let mut state = self.lock();
        let mut book = RatingBook::new();
        let mut changes = HashMap::new();
        for id in &state.ended {
            let Some(kept) = state.games.get(id) else {
                continue;
            };
            let Some(ending) = kept.ending else {
                continue;
            };
            let first = kept.game.settings.first();
            let rated = book.rate(&kept.game, ending, || Ok(Movers::after(first, &kept.steps)))?;
            if !rated.is_empty() {
                changes.insert(id.clone(), rated);
            }
        }
        let rebuilt = Rebuilt {
            games: changes.len() as u64,
            ratings: book.len() as u64,
            // What the memory store keeps is a game already.
            unreadable: 0,
        };
        state.ratings = book;
        state.changes = changes;
        Ok(rebuilt)
    }
}

/// Where a game stands in a history: newest first is this, largest first.
fn order(kept: &StoredGame) -> (SystemTime, GameId) {
    (kept.started, kept.game.id.clone())
}

/// An ended game's summary (`None` for a game that has not ended).
fn summary(kept: &StoredGame) -> Option<GameSummary> {
    Some(GameSummary {
        id: kept.game.id.clone(),
        settings: kept.game.settings.clone(),
        started: kept.started,
        ended: kept.ended?,
        ending: kept.ending?,
        moves: moves_standing(&kept.steps),
    })
}

impl State {
    /// The name of the account whose name has `name`'s key or likeness.
    fn account_like(&self, name: &PlayerName) -> Option<PlayerName> {
        let (key, likeness) = (name.key(), name.likeness());
        self.accounts
            .iter()
            .find(|(held, account)| **held == key || account.name.likeness() == likeness)
            .map(|(_, account)| account.name.clone())
    }

    /// Ends the sessions and revokes the tokens of the account of name key `key`.
    fn forget_secrets_of(&mut self, key: &str) {
        self.sessions.retain(|_, (held, _)| held != key);
        self.tokens.retain(|_, held| held.account != key);
    }

    fn newest_first_key(&self, id: &GameId) -> Result<(SystemTime, GameId), StoreError> {
        self.games
            .get(id)
            .map(order)
            .ok_or_else(|| StoreError::NoSuchGame(id.clone()))
    }

    /// One write, by the exactly-once rules ([`exactly_once`]).
    fn apply(&mut self, write: &Write, repeat: Repeat) -> Result<(), StoreError> {
        match write {
            Write::Begin(new) => {
                let kept = self.games.get(&new.id).map(|kept| &kept.game);
                if exactly_once::begin(new, kept, repeat)? == Decision::Skip {
                    return Ok(());
                }
                if let Some(first) = &new.follows {
                    let earlier = self.games.get_mut(first);
                    let has_rematch = earlier.as_ref().map(|earlier| earlier.rematch.is_some());
                    exactly_once::rematch(first, has_rematch)?;
                    if let Some(earlier) = earlier {
                        earlier.rematch = Some(new.id.clone());
                    }
                }
                self.games.insert(
                    new.id.clone(),
                    StoredGame {
                        game: new.clone(),
                        steps: Vec::new(),
                        ending: None,
                        started: SystemTime::now(),
                        ended: None,
                        rematch: None,
                        clock: new.clock,
                    },
                );
                if new.clock.is_some() {
                    self.clock_after.insert(new.id.clone(), 0);
                }
                Ok(())
            }
            Write::Step { game, step } => {
                let kept = self.games.get(game);
                let held = kept.map(|kept| Steps {
                    geometry: kept.game.settings.geometry(),
                    // Each step was kept under its number, a u32: never more of them.
                    taken: u32::try_from(kept.steps.len()).unwrap_or(u32::MAX),
                    ended: kept.ending.is_some(),
                });
                let kept_step = |number: u32| {
                    kept.zip(number.checked_sub(1))
                        .and_then(|(kept, index)| kept.steps.get(index as usize))
                        .map(|kept| kept.change)
                        .ok_or_else(|| StoreError::NoSuchGame(game.clone()))
                };
                if exactly_once::step(game, *step, held, repeat, kept_step)? == Decision::Keep {
                    self.game_mut(game)?.steps.push(*step);
                }
                Ok(())
            }
            Write::End { game, ending } => {
                let kept = self.games.get(game).map(|kept| kept.ending);
                if exactly_once::end(game, *ending, kept, repeat)? == Decision::Skip {
                    return Ok(());
                }
                let kept = self.game_mut(game)?;
                kept.ending = Some(*ending);
                kept.ended = Some(SystemTime::now());
                let begun = kept.game.clone();
                let movers = Movers::after(begun.settings.first(), &kept.steps);
                for counted in counts_of(&begun.settings, *ending) {
                    add(&mut self.tally, &counted.player, counted.record);
                }
                let changes = self.ratings.rate(&begun, *ending, || Ok(movers))?;
                if !changes.is_empty() {
                    self.changes.insert(game.clone(), changes);
                }
                self.ended.push(game.clone());
                Ok(())
            }
            Write::Name { game, mark, name } => {
                let seats = self.games.get(game).map(|kept| Seats {
                    settings: &kept.game.settings,
                    holders: &kept.game.seats,
                    movers: Movers::after(kept.game.settings.first(), &kept.steps),
                    ended: kept.ending.is_some(),
                });
                if let Some(settings) = exactly_once::name(game, *mark, name, seats, repeat)? {
                    self.game_mut(game)?.game.settings = settings;
                }
                Ok(())
            }
            Write::Seat { game, mark, holder } => {
                let kept = self
                    .games
                    .get(game)
                    .map(|kept| (&kept.game.seats, kept.ending.is_some()));
                if exactly_once::seat(game, *mark, holder, kept, repeat)? == Decision::Keep {
                    self.game_mut(game)?.game.seats[mark.index()] = holder.clone();
                }
                Ok(())
            }
            Write::Clock { game, after, clock } => {
                let kept = self.games.get(game).map(|kept| {
                    let steps = Steps {
                        geometry: kept.game.settings.geometry(),
                        taken: u32::try_from(kept.steps.len()).unwrap_or(u32::MAX),
                        ended: kept.ending.is_some(),
                    };
                    (steps, self.clock_after.get(game).copied())
                });
                if exactly_once::clock(game, *after, kept)? == Decision::Keep {
                    self.game_mut(game)?.clock = Some(*clock);
                    self.clock_after.insert(game.clone(), *after);
                }
                Ok(())
            }
            Write::Casual { game } => {
                let kept = self
                    .games
                    .get(game)
                    .map(|kept| (kept.game.casual, kept.ending.is_some()));
                if exactly_once::casual(game, kept, repeat)? == Decision::Keep {
                    self.game_mut(game)?.game.casual = true;
                }
                Ok(())
            }
        }
    }

    fn game_mut(&mut self, id: &GameId) -> Result<&mut StoredGame, StoreError> {
        self.games
            .get_mut(id)
            .ok_or_else(|| StoreError::NoSuchGame(id.clone()))
    }
}

impl SeekStore for MemoryStore {
    fn open_seek(&self, seek: &NewSeek) -> Result<(), StoreError> {
        let mut state = self.lock();
        if state.seeks.iter().any(|kept| kept.seek.id == seek.id) {
            return Ok(());
        }
        let owner = seek.owner.key();
        for other in state.seeks.iter_mut() {
            if other.seek.owner.key() == owner && other.is_open() {
                other.closed = true;
            }
        }
        state.seeks.push(Seek {
            seek: seek.clone(),
            seen: to_the_millisecond(seek.at),
            taken: None,
            closed: false,
        });
        Ok(())
    }

    fn open_seeks(&self, kind: SeekKind, seen_since: SystemTime) -> Result<Vec<Seek>, StoreError> {
        Ok(self
            .lock()
            .seeks
            .iter()
            .filter(|kept| kept.seek.kind == kind && kept.is_open() && kept.seen >= seen_since)
            .cloned()
            .collect())
    }

    fn seek(&self, id: &SeekId) -> Result<Option<Seek>, StoreError> {
        Ok(self
            .lock()
            .seeks
            .iter()
            .find(|kept| kept.seek.id == *id)
            .cloned())
    }

    fn seek_seen(&self, id: &SeekId, at: SystemTime) -> Result<bool, StoreError> {
        let mut state = self.lock();
        match state.seeks.iter_mut().find(|kept| kept.seek.id == *id) {
            Some(kept) if kept.is_open() => {
                kept.seen = kept.seen.max(to_the_millisecond(at));
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    fn close_seek(&self, id: &SeekId) -> Result<bool, StoreError> {
        let mut state = self.lock();
        match state.seeks.iter_mut().find(|kept| kept.seek.id == *id) {
            Some(kept) if kept.is_open() => {
                kept.closed = true;
                Ok(true)
            }
            _ => Ok(false),
        }
    }

    fn take_seeks(
        &self,
        taking: &[(SeekId, Mark)],
        game: &GameId,
        at: SystemTime,
    ) -> Result<bool, StoreError> {
        let mut state = self.lock();
        let all_open = taking.iter().all(|(id, _)| {
            state
                .seeks
                .iter()
                .any(|kept| kept.seek.id == *id && kept.is_open())
        });
        if !all_open {
            return Ok(false);
        }
        for (id, mark) in taking {
            if let Some(kept) = state.seeks.iter_mut().find(|kept| kept.seek.id == *id) {
                kept.taken = Some(Taken {
                    game: game.clone(),
                    mark: *mark,
                    at: to_the_millisecond(at),
                });
            }
        }
        Ok(true)
    }

    fn block(&self, by: &PlayerName, whom: &PlayerName) -> Result<bool, StoreError> {
        let mut state = self.lock();
        let (by, key) = (by.key(), whom.key());
        if state.blocks.iter().any(|(b, w, _)| *b == by && *w == key) {
            return Ok(false);
        }
        state.blocks.push((by, key, whom.clone()));
        Ok(true)
    }

    fn unblock(&self, by: &PlayerName, whom: &PlayerName) -> Result<bool, StoreError> {
        let mut state = self.lock();
        let (by, key) = (by.key(), whom.key());
        let before = state.blocks.len();
        state.blocks.retain(|(b, w, _)| !(*b == by && *w == key));
        Ok(state.blocks.len() < before)
    }

    fn blocked_by(&self, by: &PlayerName) -> Result<Vec<PlayerName>, StoreError> {
        let by = by.key();
        Ok(self
            .lock()
            .blocks
            .iter()
            .filter(|(b, _, _)| *b == by)
            .map(|(_, _, name)| name.clone())
            .collect())
    }

    fn blocks_among(&self, keys: &[String]) -> Result<Vec<(String, String)>, StoreError> {
        Ok(self
            .lock()
            .blocks
            .iter()
            .filter(|(b, w, _)| keys.contains(b) && keys.contains(w))
            .map(|(b, w, _)| (b.clone(), w.clone()))
            .collect())
    }

    fn taken_since(&self, since: SystemTime) -> Result<Vec<Seek>, StoreError> {
        let mut taken: Vec<Seek> = self
            .lock()
            .seeks
            .iter()
            .filter(|kept| kept.taken.as_ref().is_some_and(|taken| taken.at >= since))
            .cloned()
            .collect();
        taken.sort_by_key(|kept| std::cmp::Reverse(kept.taken.as_ref().map(|taken| taken.at)));
        Ok(taken)
    }
}

fn add(tally: &mut Tally, name: &PlayerName, record: Record) {
    tally
        .entry(name.key())
        .or_insert_with(|| Standing {
            name: name.clone(),
            record: Record::default(),
        })
        .record
        .add(record);
}
