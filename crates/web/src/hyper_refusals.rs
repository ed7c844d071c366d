//! The refusals hyper makes itself, dressed like the server's own.
//!
//! A request whose head cannot be parsed never reaches the routes: hyper answers it
//! (400 for a malformed line or header, 414 for an address too long, 431 for a head
//! too large) and closes the connection. Its answer is a status line, `connection:
//! close`, `content-length: 0` and a date: none of the security headers every other
//! answer carries (see [`SECURITY_HEADERS`]), and no body to say what went wrong. hyper
//! has no hook for these answers (they never reach a tower layer), so [`Dressed`] sits
//! between hyper and the socket and rewrites them as they are written: the same status
//! line and date, then the security headers and a JSON body, as `error`'s refusals
//! have.
//!
//! Every answer the routes give carries `x-content-type-options`, so an answer head
//! without it is one of hyper's. hyper writes a head whole, at the start of a write
//! (the first slice of a vectored one), so a head is never seen in pieces.

use std::io;
use std::pin::Pin;
use std::task::{Context, Poll, ready};

use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use super::error::{ApiError, SECURITY_HEADERS};

/// The header that marks an answer as the routes' own.
const OURS: &[u8] = b"\r\nx-content-type-options:";

/// A connection whose refusals by hyper go out dressed; everything else passes
/// through unchanged. `head_bytes` is the largest head the server takes, for the 431's
/// words.
pub struct Dressed<T> {
    io: T,
    head_bytes: usize,
    /// The rewritten refusal, and how much of it has gone out.
    pending: Vec<u8>,
    sent: usize,
}

impl<T> Dressed<T> {
    pub fn new(io: T, head_bytes: usize) -> Self {
        Dressed {
            io,
            head_bytes,
            pending: Vec::new(),
            sent: 0,
        }
    }
}

impl<T: AsyncWrite + Unpin> Dressed<T> {
    /// Writes what is left of a rewritten refusal; `Ready(Ok)` once nothing is.
    fn poll_pending(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.sent < self.pending.len() {
            let written =
                ready!(Pin::new(&mut self.io).poll_write(cx, &self.pending[self.sent..]))?;
            if written == 0 {
                return Poll::Ready(Err(io::ErrorKind::WriteZero.into()));
            }
            self.sent += written;
        }
        Poll::Ready(Ok(()))
    }

    /// If `bytes` is one of hyper's refusals, takes it (all of it counts as written)
    /// and starts writing the dressed one instead.
    fn take_refusal(&mut self, cx: &mut Context<'_>, bytes: &[u8]) -> Option<io::Result<usize>> {
        let dressed = dress(bytes, self.head_bytes)?;
        self.pending = dressed;
        self.sent = 0;
        match self.poll_pending(cx) {
            Poll::Ready(Err(error)) => Some(Err(error)),
            // The rest goes out on the flush that follows.
            _ => Some(Ok(bytes.len())),
        }
    }
}

/// hyper's refusal in `bytes` (a whole answer head, with a 4xx or 5xx status and
/// without the routes' headers), rewritten; `None` for anything else.
pub fn dress(bytes: &[u8], head_bytes: usize) -> Option<Vec<u8>> {
    let rest = bytes.strip_prefix(b"HTTP/1.1 ")?;
    // The status first: most answers are not refusals, and are passed on unread.
    let status: u16 = std::str::from_utf8(rest.get(..3)?).ok()?.parse().ok()?;
    if !(400..600).contains(&status) {
        return None;
    }
    let end = bytes.windows(4).position(|w| w == b"\r\n\r\n")?;
    let head = &bytes[..end + 2];
    if head
        .to_ascii_lowercase()
        .windows(OURS.len())
        .any(|w| w == OURS)
    {
        return None;
    }
    let body = ApiError::hyper_refusal(status, head_bytes).json_body();
    let mut dressed = Vec::with_capacity(head.len() + 512 + body.len());
    for line in head.split(|&b| b == b'\n').filter(|line| !line.is_empty()) {
        let lower = line.to_ascii_lowercase();
        if lower.starts_with(b"content-length:") || lower.starts_with(b"content-type:") {
            continue;
        }
        dressed.extend_from_slice(line);
        dressed.push(b'\n');
    }
    let mut header = |name: &str, value: &str| {
        dressed.extend_from_slice(format!("{name}: {value}\r\n").as_bytes());
    };
    for (name, value) in SECURITY_HEADERS {
        header(name, value);
    }
    header("cache-control", "no-store");
    header("content-type", "application/json");
    header("content-length", &body.len().to_string());
    dressed.extend_from_slice(b"\r\n");
    dressed.extend_from_slice(body.as_bytes());
    Some(dressed)
}

impl<T: AsyncRead + Unpin> AsyncRead for Dressed<T> {
    fn poll_read(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        Pin::new(&mut self.get_mut().io).poll_read(cx, buf)
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Dressed<T> {
    fn poll_write(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        ready!(this.poll_pending(cx))?;
        if let Some(taken) = this.take_refusal(cx, buf) {
            return Poll::Ready(taken);
        }
        Pin::new(&mut this.io).poll_write(cx, buf)
    }

    fn poll_write_vectored(
        self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[io::IoSlice<'_>],
    ) -> Poll<io::Result<usize>> {
        let this = self.get_mut();
        ready!(this.poll_pending(cx))?;
        if let Some(first) = bufs.iter().find(|slice| !slice.is_empty())
            && let Some(taken) = this.take_refusal(cx, first)
        {
            return Poll::Ready(taken);
        }
        Pin::new(&mut this.io).poll_write_vectored(cx, bufs)
    }

    fn is_write_vectored(&self) -> bool {
        self.io.is_write_vectored()
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.poll_pending(cx))?;
        Pin::new(&mut this.io).poll_flush(cx)
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        let this = self.get_mut();
        ready!(this.poll_pending(cx))?;
        Pin::new(&mut this.io).poll_shutdown(cx)
    }
}

#[cfg(test)]
mod tests {
    use rstest::rstest;
    use tokio::io::{AsyncReadExt, AsyncWriteExt, duplex};

    use super::*;

    const HYPERS_431: &[u8] =
        b"HTTP/1.1 431 Request Header Fields Too Large\r\nconnection: close\r\n\
content-length: 0\r\ndate: Tue, 24 Nov 2026 04:06:25 GMT\r\n\r\n";

    fn text(bytes: &[u8]) -> String {
        String::from_utf8(bytes.to_vec()).unwrap()
    }

    #[test]
    fn hypers_refusal_gets_the_security_headers_and_a_json_body_that_says_why() {
        // Act
        let dressed = text(&dress(HYPERS_431, 8192).unwrap());

        // Assert
        let (head, body) = dressed.split_once("\r\n\r\n").unwrap();
        let head = format!("{head}\r\n");
        assert!(head.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"));
        for (name, value) in SECURITY_HEADERS {
            assert!(
                head.contains(&format!("\r\n{name}: {value}\r\n")),
                "{name} missing"
            );
        }
        assert!(head.contains("\r\nconnection: close\r\n"));
        assert!(head.contains("\r\ndate: Tue, 24 Nov 2026 04:06:25 GMT\r\n"));
        assert!(head.contains(&format!("\r\ncontent-length: {}\r\n", body.len())));
        assert!(!head.contains("content-length: 0"));
        let json: serde_json::Value = serde_json::from_str(body).unwrap();
        assert!(json["error"].as_str().unwrap().contains("8192 bytes"));
    }

    #[rstest]
    #[case::the_routes_own(
        b"HTTP/1.1 404 Not Found\r\nx-content-type-options: nosniff\r\ncontent-length: 2\r\n\r\n{}"
    )]
    #[case::a_success(b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n")]
    #[case::a_body_chunk(b"data: {\"status\":\"x_won\"}\n\n")]
    #[case::half_a_head(b"HTTP/1.1 400 Bad Request\r\ncontent-le")]
    fn anything_but_hypers_refusal_passes_unchanged(#[case] bytes: &[u8]) {
        assert_eq!(dress(bytes, 8192), None);
    }

    #[tokio::test]
    async fn a_refusal_written_through_a_connection_reaches_the_client_dressed() {
        // Arrange: a pipe narrower than the dressed answer, so it goes out in pieces.
        let (server, mut client) = duplex(64);
        let mut connection = Dressed::new(server, 8192);

        // Act
        let reader = tokio::spawn(async move {
            let mut got = Vec::new();
            client.read_to_end(&mut got).await.unwrap();
            got
        });
        let written = connection.write(HYPERS_431).await.unwrap();
        connection.shutdown().await.unwrap();
        drop(connection);
        let got = reader.await.unwrap();

        // Assert
        assert_eq!(written, HYPERS_431.len());
        assert_eq!(got, dress(HYPERS_431, 8192).unwrap());
    }

    #[tokio::test]
    async fn other_bytes_pass_through_a_connection_unchanged() {
        // Arrange
        let (server, mut client) = duplex(1024);
        let mut connection = Dressed::new(server, 8192);

        // Act
        connection
            .write_all(b"HTTP/1.1 200 OK\r\n\r\nhello")
            .await
            .unwrap();
        connection.shutdown().await.unwrap();
        let mut got = Vec::new();
        client.read_to_end(&mut got).await.unwrap();

        // Assert
        assert_eq!(got, b"HTTP/1.1 200 OK\r\n\r\nhello");
    }
}
