//! Open connections, bounded: at most `max` at once, and each closed once nothing has
//! gone either way on it for `idle`. Past the cap the server stops accepting until one
//! closes, so the next connections wait in the kernel's queue rather than costing
//! memory; and a client that opens connections and goes quiet cannot keep them. An
//! event stream is never idle that long: its keep-alive comment goes out every 15 s.

use std::future::Future;
use std::io;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll, ready};
use std::time::Duration;

use axum::serve::Listener;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::{OwnedSemaphorePermit, Semaphore};
use tokio::time::{Instant, Sleep};

/// A listener that holds at most `max` connections open, each until `idle` passes
/// without traffic.
pub struct Bounded<L> {
    listener: L,
    open: Arc<Semaphore>,
    idle: Duration,
}

impl<L> Bounded<L> {
    pub fn new(listener: L, max: usize, idle: Duration) -> Self {
        Bounded {
            listener,
            open: Arc::new(Semaphore::new(max.max(1))),
            idle,
        }
    }
}

impl<L: Listener> Listener for Bounded<L> {
    type Io = Connection<L::Io>;
    type Addr = L::Addr;

    async fn accept(&mut self) -> (Self::Io, Self::Addr) {
        // The semaphore is never closed, so acquiring only waits.
        let permit = Arc::clone(&self.open)
            .acquire_owned()
            .await
            .expect("the connection semaphore is never closed");
        let (io, address) = self.listener.accept().await;
        (Connection::new(io, permit, self.idle), address)
    }

    fn local_addr(&self) -> io::Result<Self::Addr> {
        self.listener.local_addr()
    }
}

/// One accepted connection: its place under the cap, given back when it is dropped,
/// and the deadline its traffic keeps pushing back.
pub struct Connection<T> {
    io: T,
    _place: OwnedSemaphorePermit,
    idle: Duration,
    deadline: Pin<Box<Sleep>>,
}

impl<T> Connection<T> {
    fn new(io: T, place: OwnedSemaphorePermit, idle: Duration) -> Self {
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

    /// What `poll` answered, with the deadline pushed back on progress, or the
    /// deadline's error if `poll` is still waiting when it passes.
    fn watch<R>(&mut self, cx: &mut Context<'_>, poll: Poll<io::Result<R>>) -> Poll<io::Result<R>> {
        match poll {
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
        let this = self.get_mut();
        let poll = Pin::new(&mut this.io).poll_read(cx, buf);
        this.watch(cx, poll)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Connection<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.io).poll_write(cx, buf);
        this.watch(cx, poll)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        let poll = Pin::new(&mut this.io).poll_write_vectored(cx, bufs);
        this.watch(cx, poll)
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

    /// A listener that hands out the server ends of `pairs`, one per accept.
    struct Pairs(Vec<DuplexStream>);

    impl Listener for Pairs {
        type Io = DuplexStream;
        type Addr = ();

        async fn accept(&mut self) -> (DuplexStream, ()) {
            match self.0.pop() {
                Some(io) => (io, ()),
                None => std::future::pending().await,
            }
        }

        fn local_addr(&self) -> io::Result<()> {
            Ok(())
        }
    }

    fn pairs(n: usize) -> (Pairs, Vec<DuplexStream>) {
        let (servers, clients) = (0..n).map(|_| duplex(64)).unzip();
        (Pairs(servers), clients)
    }

    /// One connection accepted under a 60 s idle time, and the client's end of it.
    async fn connected() -> (Connection<DuplexStream>, DuplexStream) {
        let (listener, mut clients) = pairs(1);
        let mut bounded = Bounded::new(listener, 1, Duration::from_secs(60));
        let (connection, ()) = bounded.accept().await;
        (connection, clients.pop().unwrap())
    }

    #[tokio::test(start_paused = true)]
    async fn no_more_connections_are_accepted_than_the_cap() {
        // Arrange
        let (listener, _clients) = pairs(3);
        let mut bounded = Bounded::new(listener, 2, Duration::from_secs(60));
        let first = bounded.accept().await;
        let _second = bounded.accept().await;

        // Act: a third waits until one of the first two closes.
        let third = tokio::time::timeout(Duration::from_secs(1), bounded.accept()).await;
        drop(first);
        let after_close = tokio::time::timeout(Duration::from_secs(1), bounded.accept()).await;

        // Assert
        assert!(third.is_err(), "accepted past the cap");
        assert!(after_close.is_ok());
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
