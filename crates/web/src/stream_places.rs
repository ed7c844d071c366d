//! The places for live event streams, shared fairly among clients.
//!
//! The server holds at most `most` streams, and each client (an address, as
//! `--trust-proxy` reads it) at most `per_client` of them. That alone lets a few
//! clients fill every place (32 addresses of 64 streams each fill 2,048), and then
//! everyone else is refused. So when every place is taken, a newcomer takes the oldest
//! stream of the client holding the most, if that client holds at least two more than
//! the newcomer: that stream ends (its client may ask again, and is refused or takes
//! someone's in the same way), and the places even out among the clients who want
//! them. Only when every client holds about as many as the newcomer is a stream
//! refused for want of room.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use tokio::sync::oneshot;

use tictactoe_core::sync::lock;

use super::shares::Client;

/// Why a stream was given no place.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoPlace {
    /// The client holds its whole share already.
    Share,
    /// Every place is taken, and no client holds more than its fair part.
    Full,
}

/// Every stream's place: see the module documentation.
pub struct StreamPlaces {
    most: usize,
    per_client: usize,
    held: Mutex<Held>,
}

#[derive(Default)]
struct Held {
    /// Each client's streams, oldest first: the id, and how to end it.
    by_client: HashMap<Client, VecDeque<(u64, oneshot::Sender<()>)>>,
    total: usize,
    next: u64,
}

impl StreamPlaces {
    pub fn new(most: usize, per_client: usize) -> Arc<StreamPlaces> {
        Arc::new(StreamPlaces {
            most,
            per_client,
            held: Mutex::new(Held::default()),
        })
    }

    /// A place for a stream of `client`'s, held until the [`StreamPlace`] is dropped.
    pub fn take(self: &Arc<Self>, client: Client) -> Result<StreamPlace, NoPlace> {
        let mut held = lock(&self.held);
        let mine = held.by_client.get(&client).map_or(0, VecDeque::len);
        if mine >= self.per_client {
            return Err(NoPlace::Share);
        }
        if held.total >= self.most {
            let greediest = held
                .by_client
                .iter()
                .max_by_key(|(_, streams)| streams.len())
                .map(|(other, streams)| (*other, streams.len()));
            match greediest {
                Some((other, count)) if count >= mine + 2 => {
                    let streams = held.by_client.get_mut(&other).expect("just found");
                    // Dropping the sender tells the stream to end.
                    drop(streams.pop_front());
                    if streams.is_empty() {
                        held.by_client.remove(&other);
                    }
                    held.total -= 1;
                }
                _ => return Err(NoPlace::Full),
            }
        }
        let id = held.next;
        held.next += 1;
        held.total += 1;
        let (end, ended) = oneshot::channel();
        held.by_client
            .entry(client)
            .or_default()
            .push_back((id, end));
        metrics::gauge!("tictactoe_event_streams_open").increment(1.0);
        Ok(StreamPlace {
            places: Arc::clone(self),
            client,
            id,
            ended: Some(ended),
        })
    }

    fn give_back(&self, client: Client, id: u64) {
        let mut held = lock(&self.held);
        let Some(streams) = held.by_client.get_mut(&client) else {
            return;
        };
        let Some(at) = streams.iter().position(|(held_id, _)| *held_id == id) else {
            return;
        };
        streams.remove(at);
        if streams.is_empty() {
            held.by_client.remove(&client);
        }
        held.total -= 1;
    }
}

/// A live stream's place, held while the stream lasts (and counted among the streams
/// open), unless a newcomer takes it: see [`StreamPlace::taken`].
pub struct StreamPlace {
    places: Arc<StreamPlaces>,
    client: Client,
    id: u64,
    ended: Option<oneshot::Receiver<()>>,
}

impl StreamPlace {
    /// Resolves once a newcomer has taken this place: the stream should end.
    pub async fn taken(&mut self) {
        match self.ended.as_mut() {
            Some(ended) => {
                let _ = ended.await;
                self.ended = None;
            }
            None => std::future::pending().await,
        }
    }
}

impl Drop for StreamPlace {
    fn drop(&mut self) {
        metrics::gauge!("tictactoe_event_streams_open").decrement(1.0);
        self.places.give_back(self.client, self.id);
    }
}

#[cfg(test)]
mod tests {
    use std::net::IpAddr;
    use std::time::Duration;

    use super::*;

    fn client(last: u8) -> Client {
        Client::of(IpAddr::from([192, 0, 2, last]))
    }

    #[test]
    fn a_client_gets_no_more_streams_than_its_share() {
        // Arrange
        let places = StreamPlaces::new(10, 2);
        let _held = [places.take(client(1)), places.take(client(1))];

        // Act
        let third = places.take(client(1));

        // Assert
        assert_eq!(third.err(), Some(NoPlace::Share));
    }

    #[tokio::test]
    async fn when_every_place_is_taken_a_newcomer_takes_the_oldest_stream_of_the_client_holding_most()
     {
        // Arrange: 4 places, all 1's.
        let places = StreamPlaces::new(4, 4);
        let mut held: Vec<StreamPlace> = (0..4).map(|_| places.take(client(1)).unwrap()).collect();

        // Act
        let newcomer = places.take(client(2));

        // Assert: the newcomer has a place, and 1's oldest stream is told to end.
        assert!(newcomer.is_ok());
        tokio::time::timeout(Duration::from_secs(5), held[0].taken())
            .await
            .expect("the oldest stream was told to end");
        assert_eq!(lock(&places.held).total, 4);
    }

    #[test]
    fn when_every_client_holds_its_fair_part_a_newcomer_is_refused() {
        // Arrange: 4 places, one each for 1 to 4.
        let places = StreamPlaces::new(4, 4);
        let _held: Vec<StreamPlace> = (1..=4)
            .map(|last| places.take(client(last)).unwrap())
            .collect();

        // Act
        let fifth = places.take(client(5));

        // Assert
        assert_eq!(fifth.err(), Some(NoPlace::Full));
    }

    #[test]
    fn a_place_given_back_makes_room_and_is_counted_once() {
        // Arrange: the only place, 1's; 2 refused for it.
        let places = StreamPlaces::new(1, 1);
        let held = places.take(client(1)).unwrap();
        assert_eq!(places.take(client(2)).err(), Some(NoPlace::Full));

        // Act
        drop(held);
        let again = places.take(client(2));

        // Assert
        assert!(again.is_ok());
        assert_eq!(lock(&places.held).total, 1);
    }
}
