//! A fast hasher for the engine's tables, whose keys are already well spread bit patterns.

use std::hash::Hasher;

/// Folds a 128-bit position key to 64 bits and mixes it with one multiply.
#[derive(Default)]
pub struct MixHasher(u64);

impl Hasher for MixHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(0x517c_c1b7_2722_0a95);
        }
    }

    fn write_u128(&mut self, value: u128) {
        let folded = (value as u64) ^ ((value >> 64) as u64).rotate_left(29);
        self.0 = (folded ^ (folded >> 31)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    }
}
