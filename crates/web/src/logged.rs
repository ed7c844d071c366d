//! For tests: the lines the server logs, read back as text.

use std::sync::{Arc, Mutex};

use tracing::subscriber::DefaultGuard;

/// The lines logged on this thread from [`Logged::start`] on, until it is dropped (a
/// test on tokio's current-thread runtime logs all of its tasks' lines there).
pub struct Logged {
    lines: Lines,
    _guard: DefaultGuard,
}

/// Where the lines are written.
#[derive(Clone, Default)]
struct Lines(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Lines {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(bytes);
        Ok(bytes.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

impl Logged {
    /// Starts reading this thread's lines, as the server writes them in text.
    pub fn start() -> Logged {
        let lines = Lines::default();
        let writer = lines.clone();
        let subscriber = tracing_subscriber::fmt()
            .with_writer(move || writer.clone())
            .with_ansi(false)
            .finish();
        Logged {
            lines,
            _guard: tracing::subscriber::set_default(subscriber),
        }
    }

    /// The lines logged so far.
    pub fn lines(&self) -> Vec<String> {
        let text = String::from_utf8(self.lines.0.lock().unwrap().clone()).unwrap();
        text.lines().map(str::to_owned).collect()
    }
}

/// The lines logged while `run` runs on this thread.
pub fn logged(run: impl FnOnce()) -> Vec<String> {
    let logged = Logged::start();
    run();
    logged.lines()
}
