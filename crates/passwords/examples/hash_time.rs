//! How long one hash and one verification take at Argon2id's default parameters (the
//! figure in the crate's documentation): `cargo run --release -p tictactoe-passwords
//! --features measure --example hash_time [COUNT]` (20 of each by default).

use std::time::{Duration, Instant};

use tictactoe_core::domain::Password;
use tictactoe_core::ports::Passwords;
use tictactoe_passwords::Argon2Passwords;

fn main() {
    let count: usize = std::env::args()
        .nth(1)
        .and_then(|count| count.parse().ok())
        .unwrap_or(20)
        .max(1);
    let passwords = Argon2Passwords::new();
    let password = Password::new("correct horse battery staple").expect("a password");

    let mut hashing = Vec::with_capacity(count);
    let mut hash = passwords.hash(&password);
    for _ in 0..count {
        let started = Instant::now();
        hash = passwords.hash(&password);
        hashing.push(started.elapsed());
    }
    let mut verifying = Vec::with_capacity(count);
    for _ in 0..count {
        let started = Instant::now();
        assert!(passwords.verify(&password, &hash));
        verifying.push(started.elapsed());
    }
    let mut dummy = Vec::with_capacity(count);
    for _ in 0..count {
        let started = Instant::now();
        passwords.dummy_verify(&password);
        dummy.push(started.elapsed());
    }

    println!("{}", hash.as_str().rsplitn(3, '$').nth(2).unwrap_or("?"));
    for (what, mut times) in [
        ("hash", hashing),
        ("verify", verifying),
        ("dummy_verify", dummy),
    ] {
        times.sort();
        let ms = |time: Duration| time.as_secs_f64() * 1000.0;
        println!(
            "{what}: median {:.1} ms, fastest {:.1} ms, slowest {:.1} ms ({count} runs)",
            ms(times[count / 2]),
            ms(times[0]),
            ms(times[count - 1])
        );
    }
}
