//! Tic Tac Toe's passwords: [`Argon2Passwords`], the core's [`Passwords`] port with
//! Argon2id (the `argon2` crate).
//!
//! ```
//! use tictactoe_core::domain::Password;
//! use tictactoe_core::ports::Passwords;
//! use tictactoe_passwords::Argon2Passwords;
//!
//! let passwords = Argon2Passwords::for_tests(); // `new()` in a program
//! let password = Password::new("correct horse battery staple")?;
//! let hash = passwords.hash(&password);
//! assert!(hash.as_str().starts_with("$argon2id$v=19$"));
//! assert!(passwords.verify(&password, &hash));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! **Why Argon2id at the crate's defaults.** Argon2id won the Password Hashing
//! Competition and is OWASP's first choice; the `argon2` crate's defaults (argon2 0.5)
//! are OWASP's minimum for it: 19 MiB of memory (`m=19456`), 2 passes (`t=2`), 1 lane
//! (`p=1`). Each hash costs whoever computes it that memory and time, the server once
//! per sign-in and an attacker once per guess. Each salt is 16 bytes from the operating
//! system's generator (`OsRng`), so two hashes of one password differ.
//!
//! **Measured** on this project's machine (2 cores, x86_64 Linux, Rust 1.95), a release
//! build, `cargo run --release -p tictactoe-passwords --features measure --example hash_time 50`, while
//! other builds kept the machine busy (load average 5): one hash at the defaults took
//! 28 ms at the fastest and 50 ms at the median of 50; one verification, and one
//! `dummy_verify`, 22 ms at the fastest and 40 to 42 ms at the median. An unoptimised
//! build takes about 1 s a hash: the workspace's Cargo.toml optimises argon2 in debug
//! builds too (50 to 70 ms a hash then), and unit tests use
//! [`Argon2Passwords::for_tests`].
//!
//! **A hash names its parameters.** The PHC string (`$argon2id$v=19$m=19456,t=2,p=1$
//! SALT$HASH`) carries the algorithm, version and parameters it was made with, and
//! [`Passwords::verify`] checks a password with those: hashes made before a change of
//! the parameters go on working. (They are kept as they are until their account gives
//! a new password.) The comparison of the outputs is `argon2`'s own, in constant time.
//!
//! **Unknown names cost the same.** [`Passwords::dummy_verify`] verifies against a hash
//! this value made when it was built, with its own parameters, and forgets the answer:
//! a sign-in for a name with no account does the same work as one for a known name, so
//! the time of the answer does not tell which names have accounts.

use argon2::password_hash::rand_core::OsRng;
use argon2::password_hash::{PasswordHasher, PasswordVerifier, SaltString};
use argon2::{Algorithm, Argon2, Version};
use tictactoe_core::domain::Password;
use tictactoe_core::ports::{PasswordHash, Passwords};

/// Argon2id's parameters (memory in KiB, passes, lanes), for
/// [`Argon2Passwords::with_params`].
pub use argon2::Params;

/// The [`Passwords`] port with Argon2id: see the crate documentation.
pub struct Argon2Passwords {
    argon2: Argon2<'static>,
    /// A hash of a password nobody has, made with this value's parameters, for
    /// [`Passwords::dummy_verify`].
    dummy: PasswordHash,
}

impl Argon2Passwords {
    /// Argon2id (version 19) at the `argon2` crate's default parameters, OWASP's:
    /// 19 MiB, 2 passes, 1 lane. Building it makes one hash (the one
    /// [`Passwords::dummy_verify`] verifies against): 30 to 50 ms in a release build.
    pub fn new() -> Argon2Passwords {
        Argon2Passwords::with_params(Params::default())
    }

    /// Argon2id (version 19) with `params`: new hashes are made with them (hashes
    /// made with others are still verified with their own).
    pub fn with_params(params: Params) -> Argon2Passwords {
        let argon2 = Argon2::new(Algorithm::Argon2id, Version::V0x13, params);
        let nobodys = Password::new("a password nobody has: only its hash's cost is used")
            .expect("a password of more than eight characters");
        let dummy = hash_with(&argon2, &nobodys);
        Argon2Passwords { argon2, dummy }
    }

    /// Argon2id at the least work it allows (8 KiB, 1 pass, 1 lane), so that tests
    /// hash in microseconds. Never for passwords people use.
    pub fn for_tests() -> Argon2Passwords {
        let cheapest = Params::new(
            Params::MIN_M_COST,
            Params::MIN_T_COST,
            Params::MIN_P_COST,
            None,
        )
        .expect("argon2's least parameters are parameters");
        Argon2Passwords::with_params(cheapest)
    }
}

impl Default for Argon2Passwords {
    fn default() -> Self {
        Argon2Passwords::new()
    }
}

/// A new hash of `password` by `argon2`, with a new salt from the operating system.
fn hash_with(argon2: &Argon2<'_>, password: &Password) -> PasswordHash {
    let salt = SaltString::generate(&mut OsRng);
    // Hashing fails only for parameters, a salt or an output length argon2 refuses:
    // these are its own, and a password is at most 4 KiB (argon2 takes up to 4 GiB).
    let phc = argon2
        .hash_password(password.as_str().as_bytes(), &salt)
        .expect("argon2 hashes with its own parameters and salt")
        .to_string();
    PasswordHash::parse(&phc).expect("argon2 writes PHC strings")
}

impl Passwords for Argon2Passwords {
    fn hash(&self, password: &Password) -> PasswordHash {
        hash_with(&self.argon2, password)
    }

    /// With the algorithm, version and parameters `hash` names (argon2's
    /// `PasswordVerifier`), the outputs compared in constant time. A hash argon2 cannot
    /// read, or of another algorithm, is `false`.
    fn verify(&self, password: &Password, hash: &PasswordHash) -> bool {
        let Ok(parsed) = argon2::PasswordHash::new(hash.as_str()) else {
            return false;
        };
        self.argon2
            .verify_password(password.as_str().as_bytes(), &parsed)
            .is_ok()
    }

    fn dummy_verify(&self, password: &Password) {
        let _ = self.verify(password, &self.dummy);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn password(text: &str) -> Password {
        Password::new(text).unwrap()
    }

    #[test]
    fn a_password_verifies_against_its_hash() {
        let passwords = Argon2Passwords::for_tests();
        let hash = passwords.hash(&password("correct horse"));

        assert!(passwords.verify(&password("correct horse"), &hash));
    }

    #[test]
    fn another_password_does_not_verify() {
        let passwords = Argon2Passwords::for_tests();
        let hash = passwords.hash(&password("correct horse"));

        assert!(!passwords.verify(&password("correct horsE"), &hash));
    }

    #[test]
    fn two_hashes_of_one_password_differ_by_their_salts() {
        let passwords = Argon2Passwords::for_tests();

        let (one, other) = (
            passwords.hash(&password("correct horse")),
            passwords.hash(&password("correct horse")),
        );

        assert_ne!(one, other);
    }

    #[test]
    fn a_hash_made_with_other_parameters_verifies_with_its_own() {
        // Arrange: a hash made with cheaper parameters than the verifier's.
        let cheap = Argon2Passwords::for_tests();
        let hash = cheap.hash(&password("correct horse"));
        let stronger = Argon2Passwords::with_params(Params::new(64, 2, 1, None).unwrap());

        // Act
        let verified = stronger.verify(&password("correct horse"), &hash);

        // Assert
        assert!(verified);
    }

    #[test]
    fn new_hashes_are_argon2id_with_the_parameters_given() {
        let passwords = Argon2Passwords::with_params(Params::new(64, 3, 1, None).unwrap());

        let hash = passwords.hash(&password("correct horse"));

        assert!(
            hash.as_str().starts_with("$argon2id$v=19$m=64,t=3,p=1$"),
            "{}",
            hash.as_str()
        );
    }

    #[test]
    fn the_default_parameters_are_owasps() {
        let params = Params::default();

        assert_eq!(
            (params.m_cost(), params.t_cost(), params.p_cost()),
            (19 * 1024, 2, 1)
        );
    }

    #[test]
    fn a_hash_argon2_cannot_read_does_not_verify() {
        let passwords = Argon2Passwords::for_tests();
        let bcrypt =
            PasswordHash::parse("$2b$12$R9h/cIPz0gi.URNNX3kh2OPST9/PgBkqquzi.Ss7KIUgO2t0jWMUW")
                .unwrap();

        assert!(!passwords.verify(&password("correct horse"), &bcrypt));
    }

    #[test]
    fn the_dummy_hash_costs_what_the_instances_hashes_cost() {
        let passwords = Argon2Passwords::with_params(Params::new(64, 3, 1, None).unwrap());

        let made = passwords.hash(&password("correct horse"));

        let parameters = |hash: &str| hash.rsplitn(3, '$').nth(2).map(str::to_owned);
        assert_eq!(
            parameters(passwords.dummy.as_str()),
            parameters(made.as_str())
        );
    }
}
