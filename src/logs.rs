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
//!
//! Each line's time is written as tracing-subscriber's own clock writes it, its date
//! and time of day made once a second rather than at each line ([`Clock`]).

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
        .with_timer(Clock)
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

/// The time at the head of each line, in UTC to the microsecond, as
/// `tracing_subscriber`'s `SystemTime` writes it (`2026-11-29T03:40:00.123456Z`); the
/// date and the time of day made once a second on each thread, and kept: made at
/// every line, they were a quarter of the cost of writing one.
struct Clock;

thread_local! {
    /// The second last written on this thread, and its date and time of day.
    static SECOND: std::cell::RefCell<(u64, String)> = const { std::cell::RefCell::new((0, String::new())) };
}

impl tracing_subscriber::fmt::time::FormatTime for Clock {
    fn format_time(
        &self,
        out: &mut tracing_subscriber::fmt::format::Writer<'_>,
    ) -> std::fmt::Result {
        let Ok(since) = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH) else {
            // A clock set before 1970: written as tracing-subscriber writes it.
            return tracing_subscriber::fmt::time::SystemTime.format_time(out);
        };
        let seconds = since.as_secs();
        SECOND.with(|second| {
            let mut second = second.borrow_mut();
            if second.0 != seconds || second.1.is_empty() {
                *second = (seconds, date_and_time(seconds));
            }
            write!(out, "{}.{:06}Z", second.1, since.subsec_micros())
        })
    }
}

/// `seconds` after 1970-01-01T00:00:00 UTC as `YYYY-MM-DDTHH:MM:SS`, in the proleptic
/// Gregorian calendar (days to a date by Howard Hinnant's `civil_from_days`).
fn date_and_time(seconds: u64) -> String {
    let days = seconds / 86_400;
    let of_day = seconds % 86_400;
    // Days from 0000-03-01, in eras of 400 years (146,097 days).
    let days = days + 719_468;
    let era = days / 146_097;
    let of_era = days % 146_097;
    let year_of_era = (of_era - of_era / 1_460 + of_era / 36_524 - of_era / 146_096) / 365;
    let day_of_year = of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    };
    let year = year_of_era + era * 400 + u64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}",
        of_day / 3_600,
        of_day % 3_600 / 60,
        of_day % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_second_is_the_first_of_1970() {
        assert_eq!(date_and_time(0), "1970-01-01T00:00:00");
    }

    #[test]
    fn a_leap_day_is_written_as_the_29th_of_february() {
        assert_eq!(date_and_time(951_782_400), "2000-02-29T00:00:00");
    }

    #[test]
    fn the_last_second_of_a_year_is_in_that_year() {
        assert_eq!(date_and_time(1_798_761_599), "2026-12-31T23:59:59");
    }

    #[test]
    fn a_second_of_today_is_written_as_tracing_subscriber_writes_it() {
        use tracing_subscriber::fmt::format::Writer;
        use tracing_subscriber::fmt::time::{FormatTime, SystemTime};
        let (mut ours, mut theirs) = (String::new(), String::new());

        Clock
            .format_time(&mut Writer::new(&mut ours))
            .expect("written");
        SystemTime
            .format_time(&mut Writer::new(&mut theirs))
            .expect("written");

        // The same up to the second (unless a second began between the two).
        assert_eq!(ours.len(), theirs.len(), "{ours} {theirs}");
        assert_eq!(ours[..17], theirs[..17], "{ours} {theirs}");
    }
}
