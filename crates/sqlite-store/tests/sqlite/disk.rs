//! What the store's fault tests and the program's (tests/file_faults.rs, which includes
//! this file) do to a database file: read its three parts, damage its pages, and fill
//! the disk it is on.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use tempfile::TempDir;
use tictactoe_sqlite_store::beside;

/// The bytes of the file, its log and its index (`None` for each one missing).
pub fn three(path: &Path) -> [Option<Vec<u8>>; 3] {
    ["", "-wal", "-shm"].map(|suffix| fs::read(beside(path, suffix)).ok())
}

/// Overwrites pages `pages` (numbered from 1) of the file at `path` with a pattern.
pub fn damage(path: &Path, pages: std::ops::RangeInclusive<u64>) {
    use std::io::{Seek, SeekFrom, Write as _};
    let mut file = fs::OpenOptions::new().write(true).open(path).unwrap();
    for page in pages {
        file.seek(SeekFrom::Start((page - 1) * 4096)).unwrap();
        file.write_all(&[0xA5; 4096]).unwrap();
    }
}

/// A small tmpfs mounted on a folder of its own, unmounted when dropped: a disk that
/// fills.
pub struct SmallDisk {
    folder: TempDir,
}

impl SmallDisk {
    /// A disk of `size` (`"1m"`), or `None` where this process may not mount one
    /// (mount needs root): the test that asked is then skipped, and this says so.
    pub fn mount_or_skip(size: &str) -> Option<SmallDisk> {
        let folder = tempfile::tempdir().ok()?;
        let mounted = Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"])
            .arg(folder.path())
            .stderr(Stdio::null())
            .status()
            .is_ok_and(|status| status.success());
        if !mounted {
            println!("SKIPPED: cannot mount a tmpfs here (mount needs root)");
        }
        mounted.then_some(SmallDisk { folder })
    }

    pub fn path(&self) -> &Path {
        self.folder.path()
    }

    /// Fills what is left of the disk with a file of its own: its path.
    pub fn fill(&self) -> PathBuf {
        use std::io::Write as _;
        let ballast = self.path().join("ballast");
        let mut file = fs::File::create(&ballast).unwrap();
        while file.write_all(&[0; 4096]).is_ok() {}
        ballast
    }
}

impl Drop for SmallDisk {
    fn drop(&mut self) {
        let _ = Command::new("umount").arg(self.path()).status();
    }
}
