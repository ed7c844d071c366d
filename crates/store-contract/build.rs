//! Whether PostgreSQL is installed here, as the cfg `postgres`: with it, every contract
//! test has a PostgreSQL case; without it, there is no such case at all (a case cannot
//! skip itself at run time, and one that passed without a server would claim what was
//! never tested), and one test says `SKIPPED` instead (see `tests/contract/main.rs`).
//!
//! The same search as `tictactoe-test-postgres` makes (not shared: a build dependency
//! on it would build the PostgreSQL client twice): `initdb` under
//! `/usr/lib/postgresql/*/bin`, or in `pg_config --bindir`.

use std::path::Path;
use std::process::Command;

fn main() {
    println!("cargo::rustc-check-cfg=cfg(postgres)");
    // Installing PostgreSQL makes /usr/lib/postgresql (a change to /usr/lib); a new
    // version adds a folder to it.
    let watched = if Path::new("/usr/lib/postgresql").is_dir() {
        "/usr/lib/postgresql"
    } else {
        "/usr/lib"
    };
    println!("cargo::rerun-if-changed={watched}");
    println!("cargo::rerun-if-env-changed=PATH");
    if installed() {
        println!("cargo::rustc-cfg=postgres");
    }
}

fn installed() -> bool {
    let debian = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .any(|version| version.path().join("bin/initdb").is_file());
    debian
        || Command::new("pg_config")
            .arg("--bindir")
            .output()
            .ok()
            .filter(|output| output.status.success())
            .and_then(|output| String::from_utf8(output.stdout).ok())
            .is_some_and(|bin| Path::new(bin.trim()).join("initdb").is_file())
}
