//! Finding an opponent (see the core's `ports::seeks`): a seek opened in the lobby for
//! anyone to accept, or in the pool to be paired by rating, becomes a game with each
//! person in their own seat: an account's seat for a person signed in, a guest's for a
//! guest, opened by the secret they were given when they opened the seek (or accepted
//! one). The store keeps the seeks, so every server sharing it shows the same lobby and
//! pairs the same pool; taking seeks into a game is the store's one decision, so two
//! servers (or two people) never both have one.
//!
//! A seek lasts while its owner shows signs of life: their page or stream asks about
//! it at least every `GameLimits::seek_lasts`; past that it is no longer listed, nor
//! paired.

use std::sync::Arc;
use std::time::{Duration, SystemTime};

use tokio::sync::watch;

use tictactoe_core::domain::{Geometry, Mark, PlayerName};
use tictactoe_core::play::{Seating, Settings};
use tictactoe_core::players::{Anchor, PlayerSpec};
use tictactoe_core::ports::{NewSeek, SeatHolder, Seek, SeekId, SeekKind};
use tictactoe_core::rules::{Waiting, pair};

use super::super::caller::Caller;
use super::super::port::{Created, GameError, Opened, SeekAsked, SeekLooked};
use super::super::setup::Setup;
use super::super::token::Token;
use super::Games;

/// How often the lobby is read from the store for its streams, and the pool paired.
const LOBBY_READ_EVERY: Duration = Duration::from_secs(1);
const PAIRING_EVERY: Duration = Duration::from_millis(500);

/// The most seeks the lobby shows at once, oldest first.
const LOBBY_SHOWS: usize = 200;

/// How far back TV looks for games that began here.
const TV_LOOKS_BACK: Duration = Duration::from_secs(3 * 60 * 60);

/// Who a caller is, as a person seeking or accepting: their name, whose their seat is
/// to be, and a guest's fresh secret.
struct Person {
    name: PlayerName,
    holder: SeatHolder,
    secret: Option<Token>,
}

impl Games {
    /// The caller as a person who seeks or accepts a game rated or not (`rated`): an
    /// account, or, for a casual game, a guest with a name of their own.
    async fn person(&self, caller: &Caller, rated: bool) -> Result<Person, GameError> {
        if let Some(account) = &caller.account {
            return Ok(Person {
                name: account.clone(),
                holder: SeatHolder::Account,
                secret: None,
            });
        }
        if rated {
            return Err(GameError::RatedNeedsAccount);
        }
        let secret = Token::random();
        let name = PlayerName::new(&format!("Guest {}", &secret.to_hex()[..6]))
            .map_err(|error| GameError::Broken(format!("a guest's name: {error}")))?;
        self.guest_may_be_called(&name).await?;
        Ok(Person {
            name,
            holder: SeatHolder::Guest(secret.lock()),
            secret: Some(secret),
        })
    }

    /// `name`'s rating on `board` in whole points: where a person starts, if never rated
    /// there.
    async fn rating_on(&self, name: &PlayerName, board: Geometry) -> Result<i64, GameError> {
        let asked = name.clone();
        let ratings = self
            .0
            .store
            .read(move |store| store.ratings_of(&asked))
            .await?;
        Ok(ratings
            .iter()
            .find(|rating| rating.board == board)
            .map_or_else(|| Anchor::start(board), |rating| rating.rating)
            .points())
    }

    pub(super) async fn open_seek(
        &self,
        asked: SeekAsked,
        caller: Caller,
    ) -> Result<Opened, GameError> {
        self.store_usable()?;
        let person = self.person(&caller, asked.rated).await?;
        let rating = self.rating_on(&person.name, asked.board).await?;
        let at = SystemTime::now();
        let seek = NewSeek {
            id: SeekId::from_bits(rand::random()),
            kind: asked.kind,
            owner: person.name,
            holder: person.holder,
            board: asked.board,
            control: asked.control,
            rated: asked.rated,
            rating,
            at,
        };
        let kept = seek.clone();
        self.0
            .store
            .read(move |store| store.open_seek(&kept))
            .await?;
        self.refresh_lobby().await;
        Ok(Opened {
            seek: Seek {
                seek,
                seen: at,
                taken: None,
                closed: false,
            },
            secret: person.secret,
        })
    }

    /// The lobby's open seeks whose owners are still there, oldest first: the first
    /// [`LOBBY_SHOWS`].
    pub(super) async fn lobby(&self) -> Result<Vec<Seek>, GameError> {
        let since = SystemTime::now() - self.0.limits.seek_lasts;
        let mut seeks = self
            .0
            .store
            .read(move |store| store.open_seeks(SeekKind::Lobby, since))
            .await?;
        seeks.truncate(LOBBY_SHOWS);
        Ok(seeks)
    }

    /// The lobby as it changes.
    pub(super) fn lobby_changes(&self) -> watch::Receiver<Arc<Vec<Seek>>> {
        self.0.lobby.subscribe()
    }

    /// Reads the lobby again, and shows it to its streams if it changed.
    async fn refresh_lobby(&self) {
        if let Ok(seeks) = self.lobby().await {
            self.0.lobby.send_if_modified(|shown| {
                let changed = **shown != seeks;
                if changed {
                    *shown = Arc::new(seeks);
                }
                changed
            });
        }
    }

    /// Seek `id`, whether it is `caller`'s, and (for its owner) the secret that opens
    /// their seat in the game it became. Its owner asking is a sign of life.
    pub(super) async fn seek(&self, id: SeekId, caller: Caller) -> Result<SeekLooked, GameError> {
        let asked = id.clone();
        let seek = self
            .0
            .store
            .read(move |store| store.seek(&asked))
            .await?
            .ok_or(GameError::NoSuchSeek)?;
        let opener = opener_of(&seek, &caller);
        let yours = opener.is_some();
        if yours && seek.is_open() {
            let at = SystemTime::now();
            self.0
                .store
                .read(move |store| store.seek_seen(&id, at))
                .await?;
        }
        Ok(SeekLooked {
            seat_secret: opener.flatten().filter(|_| seek.taken.is_some()),
            seek,
            yours,
        })
    }

    pub(super) async fn cancel_seek(&self, id: SeekId, caller: Caller) -> Result<(), GameError> {
        let looked = self.seek(id.clone(), caller.clone()).await?;
        if !looked.yours {
            return Err(if caller.presented {
                GameError::NotYourSeek
            } else {
                GameError::NoSeatKey
            });
        }
        let closed = self
            .0
            .store
            .read(move |store| store.close_seek(&id))
            .await?;
        if !closed {
            return Err(GameError::SeekGone);
        }
        self.refresh_lobby().await;
        Ok(())
    }

    /// The caller accepts the lobby's seek `id`: the game begins, the seek's owner and
    /// the caller each in their own seat, sides drawn at random.
    pub(super) async fn accept_seek(
        &self,
        id: SeekId,
        caller: Caller,
    ) -> Result<Created, GameError> {
        self.store_usable()?;
        let asked = id.clone();
        let seek = self
            .0
            .store
            .read(move |store| store.seek(&asked))
            .await?
            .filter(|seek| seek.seek.kind == SeekKind::Lobby)
            .ok_or(GameError::NoSuchSeek)?;
        if !seek.is_open() {
            return Err(GameError::SeekGone);
        }
        if opener_of(&seek, &caller).is_some() {
            return Err(GameError::OwnSeek);
        }
        let person = self.person(&caller, seek.seek.rated).await?;
        if person.name.key() == seek.seek.owner.key() {
            return Err(GameError::OwnSeek);
        }
        let two = vec![person.name.key(), seek.seek.owner.key()];
        if !self
            .0
            .store
            .read(move |store| store.blocks_among(&two))
            .await?
            .is_empty()
        {
            return Err(GameError::Blocked);
        }
        let owner_mark = if rand::random::<bool>() {
            Mark::X
        } else {
            Mark::O
        };
        let acceptor = Seated {
            name: person.name,
            holder: person.holder,
        };
        let owner = Seated::owner_of(&seek);
        let (table, begun) = self
            .start_met(
                [(&seek, owner_mark)],
                [(owner, owner_mark), (acceptor, owner_mark.opponent())],
                &seek.seek,
            )
            .await?;
        if !begun {
            return Err(GameError::SeekGone);
        }
        let mut tokens = [None, None];
        tokens[owner_mark.opponent().index()] = person.secret;
        Ok(Created {
            game: table,
            tokens,
            invite: None,
        })
    }

    /// The game of the people `seated` (each at their mark), who met through `taking`
    /// (each owner at their mark) on `like`'s board and clock: the seeks are taken into
    /// it, all or none, then it begins. `false` if a seek was no longer open.
    async fn start_met<const N: usize>(
        &self,
        taking: [(&Seek, Mark); N],
        seated: [(Seated, Mark); 2],
        like: &NewSeek,
    ) -> Result<(Arc<super::super::view::GameView>, bool), GameError> {
        let [(one, one_mark), (two, _)] = seated;
        let (x, o) = if one_mark == Mark::X {
            (one, two)
        } else {
            (two, one)
        };
        let settings = Settings::new(
            PlayerSpec::Human(Some(x.name)),
            PlayerSpec::Human(Some(o.name)),
            Mark::X,
            like.board,
        )
        .map_err(|error| GameError::Broken(format!("two people who met: {error}")))?;
        let setup = Setup {
            settings,
            seating: Seating::Apart,
            clock: Some(like.control),
        };
        let table = self.open(setup, [x.holder, o.holder], None, !like.rated);
        let taking: Vec<(SeekId, Mark)> = taking
            .iter()
            .map(|(seek, mark)| (seek.seek.id.clone(), *mark))
            .collect();
        let game = table.id().clone();
        let at = SystemTime::now();
        let taken = self
            .0
            .store
            .read(move |store| store.take_seeks(&taking, &game, at))
            .await?;
        if !taken {
            return Ok((table.view(), false));
        }
        self.begin(&table).await?;
        if like.kind == SeekKind::Lobby {
            self.refresh_lobby().await;
        }
        Ok((table.view(), true))
    }

    /// Pairs the pool as the store has it (see `rules::pair`), and begins each pair's
    /// game.
    async fn pair_pool(&self) -> Result<(), GameError> {
        let since = SystemTime::now() - self.0.limits.seek_lasts;
        let pool = self
            .0
            .store
            .read(move |store| store.open_seeks(SeekKind::Pool, since))
            .await?;
        let keys: Vec<String> = pool.iter().map(|seek| seek.seek.owner.key()).collect();
        let blocks = self
            .0
            .store
            .read(move |store| store.blocks_among(&keys))
            .await?;
        let waiting: Vec<Waiting> = pool
            .iter()
            .map(|seek| Waiting {
                person: seek.seek.owner.key(),
                board: seek.seek.board,
                control: seek.seek.control,
                rated: seek.seek.rated,
                rating: seek.seek.rating,
                since: seek.seek.at,
            })
            .collect();
        // Each pair's game begun at once: a pool of many is paired in one round trip
        // to the store's writer, not one after the other.
        let begun =
            pair(&waiting, &blocks, SystemTime::now())
                .into_iter()
                .map(|(first, second)| {
                    let (one, two) = (&pool[first], &pool[second]);
                    let one_mark = if rand::random::<bool>() {
                        Mark::X
                    } else {
                        Mark::O
                    };
                    let seated = [
                        (Seated::owner_of(one), one_mark),
                        (Seated::owner_of(two), one_mark.opponent()),
                    ];
                    let taking = [(one, one_mark), (two, one_mark.opponent())];
                    // A pair another server took first is no game here.
                    async move { self.start_met(taking, seated, &one.seek).await }
                });
        for begun in futures_util::future::join_all(begun).await {
            begun?;
        }
        Ok(())
    }

    /// The live game of the highest-rated people who met here lately: the one whose
    /// lower rating is highest.
    pub(super) async fn tv(&self) -> Result<Option<tictactoe_core::ports::GameId>, GameError> {
        let since = SystemTime::now() - TV_LOOKS_BACK;
        let taken = self
            .0
            .store
            .read(move |store| store.taken_since(since))
            .await?;
        let mut games: Vec<(i64, tictactoe_core::ports::GameId)> = Vec::new();
        for seek in &taken {
            let Some(taken) = &seek.taken else { continue };
            match games.iter_mut().find(|(_, game)| *game == taken.game) {
                Some((lower, _)) => *lower = (*lower).min(seek.seek.rating),
                None => games.push((seek.seek.rating, taken.game.clone())),
            }
        }
        games.sort_by_key(|(lower, _)| std::cmp::Reverse(*lower));
        for (_, game) in games {
            if let Ok(table) = self.table(&game).await
                && !table.view().is_over()
            {
                return Ok(Some(game));
            }
        }
        Ok(None)
    }

    pub(super) async fn block(&self, by: PlayerName, whom: PlayerName) -> Result<bool, GameError> {
        self.0
            .store
            .read(move |store| store.block(&by, &whom))
            .await
    }

    pub(super) async fn unblock(
        &self,
        by: PlayerName,
        whom: PlayerName,
    ) -> Result<bool, GameError> {
        self.0
            .store
            .read(move |store| store.unblock(&by, &whom))
            .await
    }

    pub(super) async fn blocked(&self, by: PlayerName) -> Result<Vec<PlayerName>, GameError> {
        self.0.store.read(move |store| store.blocked_by(&by)).await
    }

    /// Until the server stops: the lobby read for its streams, and the pool paired.
    pub(super) fn spawn_lobby(&self) {
        let games = self.clone();
        self.until_closing(LOBBY_READ_EVERY, move || {
            let games = games.clone();
            async move { games.refresh_lobby().await }
        });
        let games = self.clone();
        self.until_closing(PAIRING_EVERY, move || {
            let games = games.clone();
            async move {
                if let Err(error) = games.pair_pool().await
                    && games.health().store_down().is_none()
                {
                    tracing::warn!("pairing the pool: {error}");
                }
            }
        });
    }
}

/// A person to be seated: their name, and whose the seat is.
struct Seated {
    name: PlayerName,
    holder: SeatHolder,
}

impl Seated {
    fn owner_of(seek: &Seek) -> Self {
        Seated {
            name: seek.seek.owner.clone(),
            holder: seek.seek.holder.clone(),
        }
    }
}

/// Whether `caller` opened `seek`: `Some` if so, with the guest's secret they carry
/// (`None` inside for an account's).
fn opener_of(seek: &Seek, caller: &Caller) -> Option<Option<Token>> {
    match &seek.seek.holder {
        SeatHolder::Account => caller
            .account
            .as_ref()
            .filter(|account| account.key() == seek.seek.owner.key())
            .map(|_| None),
        SeatHolder::Guest(lock) => caller
            .secrets
            .iter()
            .find(|secret| secret.opens(lock))
            .map(|secret| Some(secret.clone())),
        SeatHolder::Local | SeatHolder::Invited(_) => None,
    }
}
