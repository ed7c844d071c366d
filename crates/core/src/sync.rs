//! Locks that outlive a panic.
//!
//! A `Mutex` whose holder panicked is "poisoned": `lock` then returns an error, and the
//! usual `lock().unwrap()` turns one panic into a panic of every later caller. Where the
//! value a mutex guards cannot be left half changed (each change made under the lock is
//! one step that happened whole or not at all), the value is as good as before, and
//! [`lock`] takes it anyway. Every lock of the workspace's that guards such a value is
//! taken with it; a lock that guards a value a panic could leave half changed must not
//! be.

use std::sync::{Mutex, MutexGuard, PoisonError};

/// Locks `mutex`, even if a thread panicked while holding it: the value is handed over
/// as that thread left it (see the module documentation for when that is right).
///
/// ```
/// use std::sync::Mutex;
/// use tictactoe_core::sync::lock;
///
/// let count = Mutex::new(1);
/// let _ = std::thread::scope(|scope| {
///     scope.spawn(|| {
///         let _guard = count.lock().unwrap();
///         panic!("a panic while holding the lock");
///     }).join()
/// });
///
/// assert!(count.is_poisoned());
/// assert_eq!(*lock(&count), 1);
/// ```
pub fn lock<T: ?Sized>(mutex: &Mutex<T>) -> MutexGuard<'_, T> {
    mutex.lock().unwrap_or_else(PoisonError::into_inner)
}
