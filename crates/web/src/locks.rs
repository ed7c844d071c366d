//! The one way the server takes a lock.

use std::sync::{Mutex, MutexGuard, PoisonError};

/// The guarded value, even if a thread panicked while holding the lock. Safe for every
/// lock of this server: each change made under one is a single call that either
/// happened or did not (a match's request, a registry's insert or removal, a factory
/// making one computer), so a panic never leaves the value half changed, and one bad
/// request must not take every later one down with it.
pub fn lock<T>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
