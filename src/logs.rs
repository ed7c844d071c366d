//! The server's log on standard error: what `RUST_LOG` chooses (the `EnvFilter`
//! convention; by default the server's own lines at info and everyone else's warnings),
//! as text or as one JSON object per line.
//!
//! Lines are handed to a thread of their own (`tracing_appender::non_blocking`, which
//! never drops one: a request waits when 128,000 lines are queued), so a request's line
//! costs it no system call. That thread writes them into a 64 KiB buffer, which goes
//! out to standard error when it is full, and otherwise at most every [`AT_MOST`] (a
//! third thread writes out what has waited that long): under load, many lines a write
//! rather than a write a line, which cost a move about a sixth of its time on a file
//! (docs/performance.md, "The cost of a move"). What [`start`] returns writes
//! everything still queued or buffered when it is dropped.

use std::io::{self, IsTerminal, Write};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use tictactoe_core::sync::lock;

use crate::cli::LogFormat;

/// The longest a line waits in the buffer before it is written out.
pub const AT_MOST: Duration = Duration::from_millis(20);

/// Starts the log; held until the server stops.
pub fn start(format: LogFormat) -> Logs {
    use tracing_subscriber::EnvFilter;
    let filter = EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| EnvFilter::new("warn,tictactoe=info,tictactoe_web=info"));
    let buffer = Arc::new(Mutex::new(Buffer {
        out: io::BufWriter::with_capacity(64 * 1024, io::stderr()),
        flushed: Instant::now(),
    }));
    let ticking = Arc::clone(&buffer);
    // Ends with the process; a failure to start it leaves lines to go out with the
    // next ones, or at the end.
    let _ = std::thread::Builder::new()
        .name("logs-out".into())
        .spawn(move || {
            loop {
                std::thread::sleep(AT_MOST);
                let _ = lock(&ticking).write_out_if_waiting();
            }
        });
    let (writer, guard) = tracing_appender::non_blocking::NonBlockingBuilder::default()
        .lossy(false)
        .thread_name("logs")
        .finish(Batched(Arc::clone(&buffer)));
    let logs = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_ansi(io::stderr().is_terminal())
        .with_target(false)
        .with_writer(writer);
    // A second start (there is none) would only keep the first.
    let _ = match format {
        LogFormat::Text => logs.try_init(),
        LogFormat::Json => logs
            .json()
            .flatten_event(true)
            .with_span_list(false)
            .try_init(),
    };
    Logs {
        queue: Some(guard),
        buffer,
    }
}

/// The log, running: dropped, it writes out every line still queued or buffered.
pub struct Logs {
    queue: Option<tracing_appender::non_blocking::WorkerGuard>,
    buffer: Arc<Mutex<Buffer>>,
}

impl Drop for Logs {
    fn drop(&mut self) {
        // The queue first (its thread hands what is left to the buffer), then the buffer.
        drop(self.queue.take());
        let _ = lock(&self.buffer).out.flush();
    }
}

/// Standard error behind the buffer.
struct Buffer {
    out: io::BufWriter<io::Stderr>,
    flushed: Instant,
}

impl Buffer {
    /// Writes the buffer out if it holds anything and was last written out
    /// [`AT_MOST`] ago or more.
    fn write_out_if_waiting(&mut self) -> io::Result<()> {
        if self.out.buffer().is_empty() || self.flushed.elapsed() < AT_MOST {
            return Ok(());
        }
        self.flushed = Instant::now();
        self.out.flush()
    }
}

/// The log thread's writer: lines into the buffer; its flush (after each batch the
/// queue hands over) writes out only what has waited [`AT_MOST`].
struct Batched(Arc<Mutex<Buffer>>);

impl Write for Batched {
    fn write(&mut self, bytes: &[u8]) -> io::Result<usize> {
        lock(&self.0).out.write(bytes)
    }

    fn flush(&mut self) -> io::Result<()> {
        lock(&self.0).write_out_if_waiting()
    }
}
