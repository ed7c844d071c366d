//! News of what each server keeps, through PostgreSQL's LISTEN/NOTIFY: the core's
//! [`NewsFeed`] port.
//!
//! Each write call that keeps something sends, in its own transaction, one or more
//! `pg_notify('tictactoe_news', payload)`: JSON naming the store instance that wrote
//! (`from`) and what it kept, in order (`news`). Why in the write's transaction:
//! PostgreSQL delivers a notification only when its transaction commits, and delivers
//! the notifications of each transaction together, in commit order. So a server never
//! hears of a change that was rolled back, and hears the changes of one game in the
//! order they were kept (the game's row lock orders the writes to it).
//!
//! A payload must stay under PostgreSQL's limit (8,000 bytes): a long batch is split
//! into several notifications, each under [`LIMIT`] bytes.
//!
//! A follower listens on a connection of its own, not one of the pool's (a pooled
//! connection goes back to the pool between calls, and its LISTEN with it), on a
//! thread of its own: it waits for notifications a tenth of a second at a time, so
//! that it notices soon when its [`Following`] is dropped. A lost connection is made
//! again, and then the follower hears [`Heard::Missed`]: what was sent meanwhile is
//! gone, and what it holds in memory may be behind.

use std::io::Write as _;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use postgres::fallible_iterator::FallibleIterator;
use serde::{Deserialize, Serialize};
use tictactoe_core::domain::{GameClock, Geometry, Mark, PlayerName};
use tictactoe_core::ports::{
    Change, Ending, Following, GameId, Hear, Heard, NewGame, News, SeatHolder, Step,
};

use tictactoe_store_rows::clocks::ClockColumns;
use tictactoe_store_rows::{GameRow, rows, words};

/// The channel every store instance notifies and listens on.
pub(crate) const CHANNEL: &str = "tictactoe_news";

/// The most bytes one payload holds (PostgreSQL refuses 8,000 or more).
pub(crate) const LIMIT: usize = 7900;

/// One notification's payload, as read (written by [`payloads`]).
#[derive(Debug, Deserialize)]
struct Payload {
    /// The store instance that kept the news (its followers skip their own).
    from: String,
    // `part` (which part of its write's news this is, from 0) is written only so that
    // two parts never read the same: PostgreSQL drops a notification identical to
    // another of the same transaction. Nobody reads it.
    news: Vec<Item>,
}

/// One piece of news as written in a payload: ids and columns, as the tables hold
/// them. A step carries its board's size and run, so that the follower can check its
/// cell without reading the game.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub(crate) enum Item {
    Step {
        game: String,
        number: u32,
        size: usize,
        win: usize,
        cell: Option<usize>,
        undo: Option<u8>,
    },
    /// An ending: the result it counts as, and how the clock ended it (news sent
    /// before there were clocks say nothing: no clock).
    End {
        game: String,
        ending: String,
        #[serde(default)]
        clock_end: Option<String>,
    },
    /// A new game, as its row.
    Begin { row: Box<GameRow> },
    /// A person's new name: their mark's word, and the name as kept.
    Name {
        game: String,
        mark: String,
        name: String,
    },
    /// The game rates nobody from now on.
    Casual { game: String },
    /// A seat held open for an invite, taken: its mark's word, its holder's word and
    /// lock, as kept.
    Seat {
        game: String,
        mark: String,
        holder: String,
        lock: Option<String>,
    },
    /// A game's clock as it stands after its first `after` steps, as `clocks` keeps it.
    Clock {
        game: String,
        after: u32,
        clock: ClockColumns,
    },
}

impl Item {
    pub(crate) fn step(game: &GameId, geometry: Geometry, step: Step) -> Item {
        let (cell, undo) = match step.change {
            Change::Move(position) => (Some(position.index()), None),
            Change::Undo { moves } => (None, Some(moves)),
        };
        Item::Step {
            game: game.to_string(),
            number: step.number,
            size: geometry.size(),
            win: geometry.win_length(),
            cell,
            undo,
        }
    }

    pub(crate) fn end(game: &GameId, ending: Ending) -> Item {
        let (word, clock_end) = words::ending_columns(ending);
        Item::End {
            game: game.to_string(),
            ending: word.to_owned(),
            clock_end: clock_end.map(str::to_owned),
        }
    }

    pub(crate) fn clock(game: &GameId, after: u32, clock: &GameClock) -> Item {
        Item::Clock {
            game: game.to_string(),
            after,
            clock: ClockColumns::of(clock),
        }
    }

    pub(crate) fn begin(new: &NewGame) -> Item {
        Item::Begin {
            // `started_at` is the database's clock's, set as the row is inserted, and
            // not known here: the row carries 0, and a follower reads only the game as
            // begun (`GameRow::new_game`), never the time.
            row: Box::new(GameRow::begun(new, 0)),
        }
    }

    pub(crate) fn name(game: &GameId, mark: Mark, name: &PlayerName) -> Item {
        Item::Name {
            game: game.to_string(),
            mark: words::mark_word(mark).to_owned(),
            name: name.as_str().to_owned(),
        }
    }

    pub(crate) fn casual(game: &GameId) -> Item {
        Item::Casual {
            game: game.to_string(),
        }
    }

    pub(crate) fn seat(game: &GameId, mark: Mark, holder: &SeatHolder) -> Item {
        let (word, lock) = words::holder_columns(holder);
        Item::Seat {
            game: game.to_string(),
            mark: words::mark_word(mark).to_owned(),
            holder: word.to_owned(),
            lock: lock.map(str::to_owned),
        }
    }

    /// The news this item tells, checked as anything read is.
    fn news(self) -> Result<News, String> {
        let id = |text: &str| GameId::parse(text).map_err(|e| format!("{text:?}: {e}"));
        Ok(match self {
            Item::Step {
                game,
                number,
                size,
                win,
                cell,
                undo,
            } => {
                let geometry = Geometry::new(size, win).map_err(|e| e.to_string())?;
                let step = rows::step(
                    geometry,
                    i64::from(number),
                    cell.map(|cell| cell as i64),
                    undo.map(i64::from),
                )?;
                News::Step {
                    game: id(&game)?,
                    step,
                }
            }
            Item::End {
                game,
                ending,
                clock_end,
            } => News::End {
                game: id(&game)?,
                ending: words::ending(&ending, clock_end.as_deref())?,
            },
            Item::Begin { row } => News::Begin(row.new_game()?),
            // `stored`, as a name read from a row: kept, so read back as it was kept.
            Item::Name { game, mark, name } => News::Name {
                game: id(&game)?,
                mark: words::mark(&mark)?,
                name: PlayerName::stored(&name).map_err(|e| format!("{name:?}: {e}"))?,
            },
            Item::Casual { game } => News::Casual { game: id(&game)? },
            Item::Seat {
                game,
                mark,
                holder,
                lock,
            } => {
                let mark = words::mark(&mark)?;
                News::Seat {
                    game: id(&game)?,
                    mark,
                    holder: words::holder(mark, Some(&holder), lock.as_deref())?,
                }
            }
            Item::Clock { game, after, clock } => News::Clock {
                game: id(&game)?,
                after,
                clock: clock.clock()?,
            },
        })
    }
}

/// The payloads telling `news`, in order, each under [`LIMIT`] bytes. Each item is
/// written once, and the payloads are put together around them.
pub(crate) fn payloads(from: &str, news: &[Item]) -> Vec<String> {
    let from = json(from);
    let head = |part: usize| format!("{{\"from\":{from},\"part\":{part},\"news\":[");
    let mut payloads = Vec::new();
    let (mut payload, mut items) = (head(0), 0);
    for item in news {
        let item = json(item);
        // The comma before it, and the `]}` that closes the payload.
        if items > 0 && payload.len() + 1 + item.len() + 2 >= LIMIT {
            payload.push_str("]}");
            payloads.push(std::mem::replace(&mut payload, head(payloads.len() + 1)));
            items = 0;
        }
        if items > 0 {
            payload.push(',');
        }
        payload.push_str(&item);
        items += 1;
    }
    if items > 0 {
        payload.push_str("]}");
        payloads.push(payload);
    }
    payloads
}

/// `value` as JSON. Only strings, numbers, options and lists of them are written here
/// (an instance's name, [`Item`]s), and serde_json writes every such value: an error
/// would be a bug in this module, never something a database or a server sent.
fn json(value: &(impl Serialize + ?Sized)) -> String {
    serde_json::to_string(value).expect("news is made of strings, numbers and options")
}

/// A payload's news, unless it is `own` instance's (`Ok(None)`).
fn read(payload: &str, own: &str) -> Result<Option<Vec<News>>, String> {
    let payload: Payload = serde_json::from_str(payload).map_err(|e| e.to_string())?;
    if payload.from == own {
        return Ok(None);
    }
    payload
        .news
        .into_iter()
        .map(Item::news)
        .collect::<Result<_, _>>()
        .map(Some)
}

/// How a follower connects: the store's address and how long to wait for it.
#[derive(Clone)]
pub(crate) struct Listen {
    pub(crate) config: postgres::Config,
    pub(crate) instance: String,
    pub(crate) database: String,
}

impl Listen {
    fn connect(&self) -> Result<postgres::Client, postgres::Error> {
        let mut client = self.config.connect(postgres::NoTls)?;
        client.batch_execute(&format!("LISTEN {CHANNEL}"))?;
        Ok(client)
    }

    /// Connects and listens, then hands the connection to a thread that calls `hear`
    /// until the returned [`Following`] is dropped.
    pub(crate) fn follow(&self, hear: Box<dyn Hear>) -> Result<Following, String> {
        let client = self.connect().map_err(|e| e.to_string())?;
        let stop = Arc::new(AtomicBool::new(false));
        let listen = self.clone();
        let stopped = Arc::clone(&stop);
        std::thread::Builder::new()
            .name("tictactoe-news".to_owned())
            .spawn(move || listen.run(client, hear, &stopped))
            .map_err(|e| format!("no thread to follow the news: {e}"))?;
        Ok(Following::until_dropped(Stop(stop)))
    }

    /// The follower's loop (see the module documentation).
    fn run(&self, mut client: postgres::Client, mut hear: Box<dyn Hear>, stop: &AtomicBool) {
        let mut unreadable: u64 = 0;
        while !stop.load(Ordering::Relaxed) {
            let next = client
                .notifications()
                .timeout_iter(Duration::from_millis(100))
                .next();
            match next {
                Ok(None) => {}
                Ok(Some(notification)) => match read(notification.payload(), &self.instance) {
                    Ok(Some(news)) => hear.hear(Heard::News(news)),
                    Ok(None) => {}
                    Err(why) => {
                        unreadable += 1;
                        if unreadable == 1 {
                            let _ = writeln!(
                                std::io::stderr(),
                                "tictactoe: news from {} that cannot be read were skipped \
                                 ({why}); this is said once",
                                self.database
                            );
                        }
                    }
                },
                Err(_) => match self.reconnect(stop) {
                    Some(again) => {
                        client = again;
                        hear.hear(Heard::Missed);
                    }
                    None => return,
                },
            }
        }
    }

    /// A new listening connection, tried with a growing pause (up to 2 s) until it is
    /// made, or `None` once the following stopped.
    fn reconnect(&self, stop: &AtomicBool) -> Option<postgres::Client> {
        let mut pause = Duration::from_millis(50);
        loop {
            if stop.load(Ordering::Relaxed) {
                return None;
            }
            if let Ok(client) = self.connect() {
                return Some(client);
            }
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_secs(2));
        }
    }
}

/// Dropped with the [`Following`]: tells the follower's thread to stop (it notices
/// within a tenth of a second, or at its next try to reconnect).
struct Stop(Arc<AtomicBool>);

impl Drop for Stop {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

#[cfg(test)]
mod tests {
    use tictactoe_core::domain::{Mark, Outcome, TimeControl};
    use tictactoe_core::fixtures::{person, rematch_apart};
    use tictactoe_core::play::Settings;
    use tictactoe_core::players::{Level, PlayerSpec};

    use super::*;

    fn step(game: u128, number: u32) -> Item {
        let geometry = Geometry::classic();
        Item::step(
            &GameId::from_bits(game),
            geometry,
            Step {
                number,
                change: Change::Move(geometry.position(4).unwrap()),
            },
        )
    }

    /// A rematch of game 7, Ada (a person, with a seat's lock) against Impossible, on a
    /// 4 x 4 board, O first, at two screens.
    fn rematch_of_7() -> NewGame {
        let impossible = PlayerSpec::Computer(Level::Impossible);
        let board = Geometry::new(4, 3).unwrap();
        let settings = Settings::new(person("Ada"), impossible, Mark::O, board).unwrap();
        rematch_apart(8, 7, settings)
    }

    #[test]
    fn news_read_back_as_written() {
        let game = GameId::from_bits(7);
        let items = vec![
            step(7, 1),
            Item::end(&game, Ending::Finished(Outcome::Won(Mark::X))),
            Item::begin(&rematch_of_7()),
        ];

        let payloads = payloads("a", &items);
        let read = read(&payloads[0], "b").unwrap().unwrap();

        assert_eq!(payloads.len(), 1);
        assert_eq!(read.len(), 3);
        assert_eq!(
            read[1],
            News::End {
                game: game.clone(),
                ending: Ending::Finished(Outcome::Won(Mark::X))
            }
        );
        assert_eq!(read[2], News::Begin(rematch_of_7()));
    }

    #[test]
    fn a_clock_and_an_ending_by_it_read_back_as_written() {
        let game = GameId::from_bits(7);
        let control = TimeControl::per_move(Duration::from_secs(30)).unwrap();
        let at = std::time::UNIX_EPOCH + Duration::new(1_800_000_000, 5);
        let clock = GameClock::start(control, Duration::from_secs(20), Mark::O, at);
        let lost = Ending::TimedOut {
            side: Mark::O,
            drawn: false,
        };

        let payloads = payloads(
            "a",
            &[Item::clock(&game, 0, &clock), Item::end(&game, lost)],
        );
        let read = read(&payloads[0], "b").unwrap().unwrap();

        assert_eq!(
            read,
            [
                News::Clock {
                    game: game.clone(),
                    after: 0,
                    clock
                },
                News::End { game, ending: lost }
            ]
        );
    }

    #[test]
    fn a_long_batch_is_split_into_payloads_under_the_limit_in_order() {
        let items: Vec<Item> = (1..=500).map(|number| step(1, number)).collect();

        let payloads = payloads("a", &items);
        let numbers: Vec<u32> = payloads
            .iter()
            .flat_map(|payload| read(payload, "b").unwrap().unwrap())
            .map(|news| match news {
                News::Step { step, .. } => step.number,
                other => panic!("{other:?}"),
            })
            .collect();

        assert!(payloads.len() > 1);
        assert!(payloads.iter().all(|payload| payload.len() < LIMIT));
        assert_eq!(numbers, (1..=500).collect::<Vec<_>>());
    }

    #[test]
    fn an_instance_skips_its_own_news() {
        let payloads = payloads("a", &[step(1, 1)]);

        assert_eq!(read(&payloads[0], "a"), Ok(None));
    }

    #[test]
    fn a_payload_that_is_not_news_is_an_error_not_a_panic() {
        assert!(read("{\"from\": 3}", "a").is_err());
        assert!(
            read(
                &payloads("a", &[step(1, 1)])[0].replace("\"size\":3", "\"size\":99"),
                "b"
            )
            .is_err()
        );
    }
}
