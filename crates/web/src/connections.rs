//! Open connections, bounded: at most `max` at once, at most a client's share of them
//! from any one client ([`Shares`]), and each closed once nothing has gone either way
//! on it for `idle`. Past the cap the server stops accepting until one closes, so the
//! next connections wait in the kernel's queue rather than costing memory; past a
//! client's share, that client's next connection is refused at once. A client that
//! opens connections and goes quiet cannot keep them. An event stream is never idle
//! that long: its keep-alive comment goes out every 15 s.
//!
//! Kept by hand, each for a reason:
//! * [`Places`]: tower's `ConcurrencyLimit` bounds the requests a service has in
//!   flight, not the connections a listener accepts, so the cap is a semaphore waited
//!   on before `accept` (the kernel's queue holds the rest), and nothing in hyper,
//!   tower or axum counts per address ([`Shares`]).
//! * [`Connection`]: hyper has no deadline on a quiet connection (only
//!   `header_read_timeout`, on a head), and tower-http's body timeouts see neither a
//!   client that stops reading its answer nor a connection between requests, so the
//!   socket itself is watched.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::{Instant, Sleep};

use super::shares::{Client, Share, Shares};

/// The places for connections: `max` in all, `per_client` for any one client.
pub struct Places {
    open: Arc<Semaphore>,
    shares: Arc<Shares>,
}

/// Room under the cap, waited for before a connection is accepted.
pub struct Room {
    _permit: OwnedSemaphorePermit,
}

/// A connection's place: under the cap, and in its client's share unless it comes
/// from a trusted proxy (which speaks for many clients). Given back when dropped.
pub struct Place {
    _room: Room,
    _share: Option<Share>,
}

impl Places {
    pub fn new(max: usize, per_client: usize) -> Places {
        Places {
            open: Arc::new(Semaphore::new(max.max(1))),
            shares: Shares::new(per_client),
        }
    }

    /// Waits until fewer than `max` connections are open.
    pub async fn room(&self) -> Room {
        // The semaphore is never closed, so acquiring only waits.
        Room {
            _permit: Arc::clone(&self.open)
                .acquire_owned()
                .await
                .expect("the connection semaphore is never closed"),
        }
    }

    /// A place in `room` for a connection from `client` (`None`: a trusted proxy), or
    /// `None` when that client holds its whole share already.
    pub fn admit(&self, room: Room, client: Option<Client>) -> Option<Place> {
        let share = match client {
            Some(client) => Some(self.shares.take(client)?),
            None => None,
        };
        Some(Place {
            _room: room,
            _share: share,
        })
    }
}

/// One accepted connection: its place, given back when it is dropped, and the
/// deadline its traffic keeps pushing back.
pub struct Connection<T> {
    io: T,
    _place: Place,
    idle: Duration,
    deadline: Pin<Box<Sleep>>,
}

impl<T> Connection<T> {
    pub fn new(io: T, place: Place, idle: Duration) -> Self {
        Connection {
            io,
            _place: place,
            idle,
            deadline: Box::pin(tokio::time::sleep(idle)),
        }
    }

    fn moved(&mut self) {
        self.deadline.as_mut().reset(Instant::now() + self.idle);
    }

    /// `Pending` while the deadline is ahead; an error once it has passed.
    fn poll_deadline(&mut self, cx: &mut Context<'_>) -> Poll<io::Error> {
        ready!(self.deadline.as_mut().poll(cx));
        Poll::Ready(io::Error::new(
            io::ErrorKind::TimedOut,
            "nothing sent or received for too long",
        ))
    }

    /// What `poll` answers on the connection, with the deadline pushed back on
    /// progress, or the deadline's error if `poll` is still waiting when it passes.
    fn watched<R>(
        &mut self,
        cx: &mut Context<'_>,
        poll: impl FnOnce(Pin<&mut T>, &mut Context<'_>) -> Poll<io::Result<R>>,
    ) -> Poll<io::Result<R>>
    where
        T: Unpin,
    {
        match poll(Pin::new(&mut self.io), cx) {
            Poll::Ready(answer) => {
                self.moved();
                Poll::Ready(answer)
            }
            Poll::Pending => self.poll_deadline(cx).map(Err),
        }
    }
}

impl<T: AsyncRead + Unpin> AsyncRead for Connection<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        self.get_mut().watched(cx, |io, cx| io.poll_read(cx, buf))
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Connection<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        self.get_mut().watched(cx, |io, cx| io.poll_write(cx, buf))
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        self.get_mut()
            .watched(cx, |io, cx| io.poll_write_vectored(cx, bufs))
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use tokio::io::{AsyncReadExt, AsyncWriteExt, DuplexStream, duplex};

    use super::*;

    use std::net::IpAddr;

    fn client(address: &str) -> Option<Client> {
        Some(Client::of(address.parse::<IpAddr>().unwrap()))
    }

    /// One connection under a 60 s idle time, and the client's end of it.
    async fn connected() -> (Connection<DuplexStream>, DuplexStream) {
        let places = Places::new(1, 1);
        let place = places
            .admit(places.room().await, client("192.0.2.1"))
            .unwrap();
        let (server, client) = duplex(64);
        (
            Connection::new(server, place, Duration::from_secs(60)),
            client,
        )
    }

    #[tokio::test(start_paused = true)]
    async fn no_more_connections_are_let_in_than_the_cap() {
        // Arrange
        let places = Places::new(2, 10);
        let first = places.admit(places.room().await, client("192.0.2.1"));
        let _second = places.admit(places.room().await, client("192.0.2.2"));

        // Act: room for a third comes only once one of the first two closes.
        let third = tokio::time::timeout(Duration::from_secs(1), places.room()).await;
        drop(first);
        let after_close = tokio::time::timeout(Duration::from_secs(1), places.room()).await;

        // Assert
        assert!(third.is_err(), "room past the cap");
        assert!(after_close.is_ok());
    }

    #[tokio::test]
    async fn a_client_past_its_share_is_refused_while_another_client_and_a_trusted_proxy_get_in() {
        // Arrange
        let places = Places::new(10, 1);
        let _held = places
            .admit(places.room().await, client("127.0.0.1"))
            .unwrap();

        // Act
        let same = places.admit(places.room().await, client("127.0.0.1"));
        let other = places.admit(places.room().await, client("127.0.0.2"));
        let proxy = places.admit(places.room().await, None);

        // Assert
        assert!(same.is_none(), "one client got more than its share");
        assert!(other.is_some());
        assert!(proxy.is_some());
    }

    #[tokio::test]
    async fn bytes_pass_through_a_connection_unchanged_both_ways() {
        // Arrange
        let (mut connection, mut client) = connected().await;

        // Act: one plain write and one vectored write out, one write in.
        connection.write_all(b"GET ").await.unwrap();
        let slices = [io::IoSlice::new(b"/ "), io::IoSlice::new(b"HTTP")];
        let sent = connection.write_vectored(&slices).await.unwrap();
        client.write_all(b"200").await.unwrap();
        let mut out = vec![0u8; 4 + sent];
        let second = Duration::from_secs(1);
        let read = tokio::time::timeout(second, client.read_exact(&mut out)).await;
        let mut back = [0u8; 3];
        connection.read_exact(&mut back).await.unwrap();

        // Assert
        assert!(
            matches!(read, Ok(Ok(_))),
            "the client did not get what was written"
        );
        assert_eq!(out, &b"GET / HTTP"[..4 + sent]);
        assert_eq!(&back, b"200");
    }

    #[tokio::test]
    async fn shutting_a_connection_down_ends_what_the_client_reads() {
        // Arrange
        let (mut connection, mut client) = connected().await;

        // Act: the connection is shut down, not dropped.
        connection.write_all(b"bye").await.unwrap();
        connection.shutdown().await.unwrap();
        let mut got = Vec::new();
        let second = Duration::from_secs(1);
        let read = tokio::time::timeout(second, client.read_to_end(&mut got)).await;

        // Assert
        assert!(matches!(read, Ok(Ok(3))), "the client still waits for more");
        assert_eq!(got, b"bye");
    }

    #[tokio::test(start_paused = true)]
    async fn a_connection_quiet_past_its_idle_time_fails_its_read() {
        // Arrange
        let (mut connection, _client) = connected().await;

        // Act: nobody writes; time passes.
        let mut byte = [0u8; 1];
        let read = connection.read(&mut byte).await;

        // Assert
        assert_eq!(read.unwrap_err().kind(), io::ErrorKind::TimedOut);
    }

    #[tokio::test(start_paused = true)]
    async fn traffic_keeps_a_connection_open_past_its_idle_time() {
        // Arrange: the client writes a byte every 40 s, under the 60 s idle time.
        let (mut connection, mut client) = connected().await;
        tokio::spawn(async move {
            for _ in 0..3 {
                tokio::time::sleep(Duration::from_secs(40)).await;
                client.write_all(b"x").await.unwrap();
            }
        });

        // Act: 120 s in all.
        let mut got = [0u8; 3];
        let read = connection.read_exact(&mut got).await;

        // Assert
        assert!(read.is_ok(), "closed while traffic still went through");
        assert_eq!(&got, b"xxx");
    }
}
