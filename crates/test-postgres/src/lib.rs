//! A throwaway PostgreSQL server for tests: [`Cluster::shared`] starts one the first
//! time a test of the process asks, from the PostgreSQL installed on the machine, and
//! every test then gets an empty database of its own ([`Cluster::new_database`]).
//!
//! Why a real server rather than a mock or a container: the PostgreSQL adapter's
//! behaviour *is* SQL (row locks, unique indexes, LISTEN/NOTIFY, the planner's choice of
//! index); only PostgreSQL can say whether it holds. Starting one from its binaries
//! (`initdb`, `pg_ctl`) takes a second and needs no daemon, network or privileges.
//!
//! How it is run:
//!
//! * `initdb` refuses to run as root (a server must not own the machine). Run as root
//!   (a CI container), the cluster's folder is given to the `postgres` user and the
//!   binaries are run through `runuser -u postgres`.
//! * Only on 127.0.0.1, on a free port, with its Unix socket in its own folder (never
//!   `/run/postgresql`, which a system server may use), trusting every local
//!   connection, and without `fsync`: a test's data need not survive a power cut.
//! * One cluster per test process, kept in a static. Statics are never dropped, so the
//!   server cannot be stopped by `Drop`: a watchdog process (in a session of its own,
//!   so that Ctrl-C to the tests does not take it first) waits for the test process to
//!   be gone, then stops the server and removes its folder.
//!
//! When PostgreSQL is not installed, a test calls [`database_or_skip`]: it says
//! `SKIPPED` plainly on stderr and passes, unless `TICTACTOE_REQUIRE_POSTGRES=1` (CI),
//! where it fails. A PostgreSQL that is installed but does not start is always a
//! failure: that is a broken machine, not a missing tool.

use std::fmt;
use std::io::Write as _;
use std::net::TcpListener;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{SystemTime, UNIX_EPOCH};

/// The variable that turns a skipped PostgreSQL test into a failure.
pub const REQUIRE: &str = "TICTACTOE_REQUIRE_POSTGRES";

/// How to install what is missing, as the skip message says it.
pub const INSTALL: &str = "apt-get install --no-install-recommends postgresql";

/// The user the cluster is made for, and every test connects as.
const USER: &str = "tictactoe";

/// Why there is no cluster.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NotAvailable {
    /// No PostgreSQL binaries were found: the tests that need them are skipped.
    NotInstalled,
    /// PostgreSQL is installed but the cluster could not be made or started: a
    /// failure, whatever the tests require.
    Failed(String),
}

impl fmt::Display for NotAvailable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            NotAvailable::NotInstalled => write!(
                f,
                "PostgreSQL is not installed (no initdb under /usr/lib/postgresql/*/bin, \
                 and no pg_config): {INSTALL}"
            ),
            NotAvailable::Failed(why) => write!(f, "the test PostgreSQL did not start: {why}"),
        }
    }
}

impl std::error::Error for NotAvailable {}

/// A running PostgreSQL server of this test process. See the crate documentation.
#[derive(Debug)]
pub struct Cluster {
    port: u16,
    folder: PathBuf,
    databases: AtomicU64,
}

impl Cluster {
    /// The process's cluster, started on first use.
    pub fn shared() -> Result<&'static Cluster, NotAvailable> {
        static SHARED: OnceLock<Result<Cluster, NotAvailable>> = OnceLock::new();
        SHARED
            .get_or_init(Cluster::start)
            .as_ref()
            .map_err(Clone::clone)
    }

    /// Makes and starts a new cluster in a folder of its own (see the crate
    /// documentation). Prefer [`Cluster::shared`]: one server per test process is
    /// plenty.
    pub fn start() -> Result<Cluster, NotAvailable> {
        let bin = binaries().ok_or(NotAvailable::NotInstalled)?;
        let failed = |what: &str, detail: String| NotAvailable::Failed(format!("{what}: {detail}"));
        let stamp = SystemTime::now()
            .duration_since(UNIX_EPOCH)
            .map_or(0, |since| since.as_nanos());
        let folder =
            std::env::temp_dir().join(format!("tictactoe-pg-{}-{stamp}", std::process::id()));
        std::fs::create_dir(&folder).map_err(|e| failed("making its folder", e.to_string()))?;
        let data = folder.join("data");
        let as_root = is_root();
        if as_root {
            run(Command::new("chown")
                .args(["postgres:postgres"])
                .arg(&folder))
            .map_err(|e| failed("giving its folder to the postgres user", e))?;
        }
        // The watchdog first: from here on, whatever fails, the folder goes with us.
        watchdog(&bin, &folder, &data, as_root)
            .map_err(|e| failed("starting its watchdog", e.to_string()))?;
        run(server_command(&bin, "initdb", as_root)
            .arg("-D")
            .arg(&data)
            .args([
                "-A",
                "trust",
                "-U",
                USER,
                "--no-sync",
                "-E",
                "UTF8",
                "--locale=C",
            ]))
        .map_err(|e| failed("initdb", e))?;
        // A free port is found by binding to port 0; another process could take it
        // before the server does, so a start that fails is tried on another port.
        let mut last = String::new();
        for _ in 0..3 {
            let port = free_port().map_err(|e| failed("finding a free port", e.to_string()))?;
            let settings = format!(
                "-p {port} -k {} -c listen_addresses=127.0.0.1 -c fsync=off \
                 -c synchronous_commit=off -c full_page_writes=off -c max_connections=400",
                folder.display()
            );
            let started = run(server_command(&bin, "pg_ctl", as_root)
                .arg("-D")
                .arg(&data)
                .arg("-l")
                .arg(folder.join("server.log"))
                .args(["-w", "-t", "30", "-o", &settings, "start"]));
            match started {
                Ok(()) => {
                    return Ok(Cluster {
                        port,
                        folder,
                        databases: AtomicU64::new(0),
                    });
                }
                Err(why) => last = why,
            }
        }
        let log = std::fs::read_to_string(folder.join("server.log")).unwrap_or_default();
        Err(failed("pg_ctl start", format!("{last}\n{log}")))
    }

    /// The port the server listens on, on 127.0.0.1.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// The folder holding the cluster's data, log and socket.
    pub fn folder(&self) -> &Path {
        &self.folder
    }

    /// The address of database `name` on this server.
    pub fn url(&self, name: &str) -> String {
        format!("postgres://{USER}@127.0.0.1:{}/{name}", self.port)
    }

    /// Creates a new, empty database and returns its address: each test gets its own,
    /// so that no test sees another's games.
    ///
    /// # Panics
    ///
    /// If the server does not answer: the tests cannot go on without it.
    pub fn new_database(&self) -> String {
        let name = format!(
            "test_{}",
            self.databases.fetch_add(1, Ordering::Relaxed) + 1
        );
        let mut admin = postgres::Client::connect(&self.url("postgres"), postgres::NoTls)
            .unwrap_or_else(|e| panic!("the test PostgreSQL does not answer: {e}"));
        // FILE_COPY: copying the (tiny) template's files is quicker than logging them,
        // and without fsync nothing waits for the disk.
        admin
            .batch_execute(&format!(
                "CREATE DATABASE {name} TEMPLATE template0 STRATEGY FILE_COPY"
            ))
            .unwrap_or_else(|e| panic!("CREATE DATABASE {name}: {e}"));
        self.url(&name)
    }
}

/// Whether PostgreSQL tests must run here (`TICTACTOE_REQUIRE_POSTGRES=1`).
pub fn required() -> bool {
    std::env::var(REQUIRE).as_deref() == Ok("1")
}

/// Says that `test` was skipped and why, straight to stderr (`eprintln!` is captured,
/// and hidden for a passing test); fails instead when PostgreSQL is required.
///
/// # Panics
///
/// When [`required`]: a skip there would hide that nothing was tested.
pub fn skip(test: &str, why: &NotAvailable) {
    assert!(
        !required(),
        "{test}: PostgreSQL is required ({REQUIRE}=1) but {why}"
    );
    let _ = writeln!(std::io::stderr(), "SKIPPED {test}: {why}");
}

/// A new empty database of the shared cluster for `test`, or `None` (after saying
/// `SKIPPED` on stderr) when PostgreSQL is not installed and not required.
///
/// # Panics
///
/// When PostgreSQL is installed but does not start, or is required but not installed.
pub fn database_or_skip(test: &str) -> Option<String> {
    match Cluster::shared() {
        Ok(cluster) => Some(cluster.new_database()),
        Err(NotAvailable::NotInstalled) => {
            skip(test, &NotAvailable::NotInstalled);
            None
        }
        Err(failed) => panic!("{test}: {failed}"),
    }
}

/// A new empty database of the shared cluster for the test function it is written in,
/// as [`database_or_skip`] makes it, the test named for the skip by its function:
/// `let url = database_or_return!();`. Without PostgreSQL (not required), the test
/// returns there, skipped.
#[macro_export]
macro_rules! database_or_return {
    () => {{
        fn here() {}
        // "path::to::the_test::here": the test is the segment before `here`.
        let here = std::any::type_name_of_val(&here);
        let test = here.trim_end_matches("::here").rsplit("::").next();
        match $crate::database_or_skip(test.unwrap_or(here)) {
            Some(url) => url,
            None => return,
        }
    }};
}

/// Whether PostgreSQL's server binaries are on this machine (what a build script can
/// ask without starting anything).
pub fn installed() -> bool {
    binaries().is_some()
}

/// The folder of `initdb` and `pg_ctl`: the newest version's under
/// `/usr/lib/postgresql/*/bin` (Debian's layout), else what `pg_config --bindir` says.
fn binaries() -> Option<PathBuf> {
    let newest = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|entry| {
            let version: u32 = entry.file_name().to_str()?.parse().ok()?;
            let bin = entry.path().join("bin");
            bin.join("initdb").is_file().then_some((version, bin))
        })
        .max_by_key(|(version, _)| *version)
        .map(|(_, bin)| bin);
    newest.or_else(|| {
        let output = Command::new("pg_config").arg("--bindir").output().ok()?;
        let bin = PathBuf::from(String::from_utf8(output.stdout).ok()?.trim());
        (output.status.success() && bin.join("initdb").is_file()).then_some(bin)
    })
}

fn is_root() -> bool {
    Command::new("id")
        .arg("-u")
        .output()
        .is_ok_and(|output| output.stdout.trim_ascii() == b"0")
}

/// `program` from `bin`, run as the `postgres` user when we are root.
fn server_command(bin: &Path, program: &str, as_root: bool) -> Command {
    if as_root {
        let mut command = Command::new("runuser");
        command
            .args(["-u", "postgres", "--"])
            .arg(bin.join(program));
        command
    } else {
        Command::new(bin.join(program))
    }
}

/// Runs `command` to its end: its output is the error when it fails.
fn run(command: &mut Command) -> Result<(), String> {
    let output = command
        .stdin(Stdio::null())
        .output()
        .map_err(|e| format!("{command:?}: {e}"))?;
    if output.status.success() {
        Ok(())
    } else {
        Err(format!(
            "{command:?} {}: {}{}",
            output.status,
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        ))
    }
}

fn free_port() -> std::io::Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// A process that outlives this one by a second at most: it waits for this process to
/// end, then stops the server (immediately: its data is thrown away) and removes the
/// folder. In a session of its own (`setsid`), with no standard streams of ours, so
/// that neither Ctrl-C nor a caller reading our output waits on it.
fn watchdog(bin: &Path, folder: &Path, data: &Path, as_root: bool) -> std::io::Result<()> {
    let run_as = if as_root {
        "runuser -u postgres -- "
    } else {
        ""
    };
    let script = format!(
        "while kill -0 {pid} 2>/dev/null; do sleep 1; done; \
         {run_as}'{pg_ctl}' -D '{data}' -m immediate stop >/dev/null 2>&1; \
         rm -rf '{folder}'",
        pid = std::process::id(),
        pg_ctl = bin.join("pg_ctl").display(),
        data = data.display(),
        folder = folder.display(),
    );
    Command::new("setsid")
        .args(["sh", "-c", &script])
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .map(drop)
}
