//! Quick pairing: who plays whom among the people waiting in the pool. Lichess's waves:
//! each person is paired with the waiting person of the closest rating on the same
//! board and clock (and rated with rated, casual with casual), within a rating gap that
//! grows the longer either has waited, so that nobody waits for ever and nobody waiting
//! briefly is given a lopsided game. Never a person with themselves, nor two people one
//! of whom blocked the other.
//!
//! Pure: the servers call it on the pool as the store has it, then take each pair into
//! a game through the store, which decides between two servers pairing at once.

use std::time::{Duration, SystemTime};

use crate::domain::{Geometry, TimeControl};

/// The gap allowed to somebody who has just arrived, in rating points.
pub const FIRST_GAP: i64 = 100;
/// How much the gap grows with each wave of waiting.
pub const GAP_GROWTH: i64 = 100;
/// How long a wave is.
pub const WAVE: Duration = Duration::from_secs(3);
/// The widest gap: past it, nobody is paired (they wait for somebody nearer).
pub const WIDEST_GAP: i64 = 800;

/// Somebody waiting in the pool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Waiting {
    /// Who it is: a name's key (two seeks of one person never pair).
    pub person: String,
    pub board: Geometry,
    pub control: TimeControl,
    pub rated: bool,
    /// In whole points.
    pub rating: i64,
    /// Since when.
    pub since: SystemTime,
}

/// The rating gap allowed to somebody who has waited `waited`.
pub fn allowed_gap(waited: Duration) -> i64 {
    let waves = i64::try_from(waited.as_millis() / WAVE.as_millis()).unwrap_or(i64::MAX);
    FIRST_GAP
        .saturating_add(GAP_GROWTH.saturating_mul(waves))
        .min(WIDEST_GAP)
}

/// The pairs to make of `waiting` at `now`, each as two indexes into it (the one who
/// waited longer first), none of two people `blocks` holds a block between (either
/// way: (who blocks, whom), by name key). The longest waiting are served first, each with the closest
/// rating among those who play the same game, within the wider of the two's allowed
/// gaps (the longer waiter's patience is what widens it). Ties go to whoever waited
/// longer.
pub fn pair(
    waiting: &[Waiting],
    blocks: &[(String, String)],
    now: SystemTime,
) -> Vec<(usize, usize)> {
    let blocked = |one: &str, two: &str| {
        blocks
            .iter()
            .any(|(by, whom)| (by == one && whom == two) || (by == two && whom == one))
    };
    let waited = |w: &Waiting| now.duration_since(w.since).unwrap_or_default();
    let mut order: Vec<usize> = (0..waiting.len()).collect();
    order.sort_by_key(|&index| (waiting[index].since, index));
    let mut paired = vec![false; waiting.len()];
    let mut pairs = Vec::new();
    for &first in &order {
        if paired[first] {
            continue;
        }
        let one = &waiting[first];
        let best = order
            .iter()
            .copied()
            .filter(|&other| other != first && !paired[other])
            .filter(|&other| {
                let two = &waiting[other];
                two.person != one.person
                    && !blocked(&one.person, &two.person)
                    && two.board == one.board
                    && two.control == one.control
                    && two.rated == one.rated
                    && (one.rating - two.rating).abs()
                        <= allowed_gap(waited(one)).max(allowed_gap(waited(two)))
            })
            .min_by_key(|&other| {
                (
                    (one.rating - waiting[other].rating).abs(),
                    waiting[other].since,
                )
            });
        if let Some(second) = best {
            paired[first] = true;
            paired[second] = true;
            pairs.push((first, second));
        }
    }
    pairs
}

#[cfg(test)]
mod tests {
    use super::*;

    fn at(seconds: u64) -> SystemTime {
        SystemTime::UNIX_EPOCH + Duration::from_secs(seconds)
    }

    fn waiting(person: &str, rating: i64, since: u64) -> Waiting {
        Waiting {
            person: person.into(),
            board: Geometry::classic(),
            control: TimeControl::per_move(Duration::from_secs(30)).unwrap(),
            rated: true,
            rating,
            since: at(since),
        }
    }

    #[test]
    fn the_closest_rating_is_chosen() {
        let pool = [
            waiting("ada", 1500, 0),
            waiting("bob", 1580, 1),
            waiting("cyd", 1520, 2),
        ];

        assert_eq!(pair(&pool, &[], at(3)), [(0, 2)]);
    }

    #[test]
    fn a_gap_wider_than_allowed_waits_until_the_waves_widen_it() {
        let pool = [waiting("ada", 1500, 0), waiting("bob", 1750, 0)];

        assert_eq!(pair(&pool, &[], at(1)), []);
        assert_eq!(pair(&pool, &[], at(6)), [(0, 1)]);
    }

    #[test]
    fn the_gap_grows_a_wave_at_a_time_up_to_the_widest() {
        assert_eq!(allowed_gap(Duration::ZERO), FIRST_GAP);
        assert_eq!(allowed_gap(WAVE), FIRST_GAP + GAP_GROWTH);
        assert_eq!(allowed_gap(Duration::from_secs(3600)), WIDEST_GAP);
    }

    #[test]
    fn two_people_one_of_whom_blocked_the_other_are_never_paired() {
        let pool = [
            waiting("ada", 1500, 0),
            waiting("bob", 1500, 1),
            waiting("cyd", 1900, 2),
        ];
        let blocks = [("bob".to_string(), "ada".to_string())];

        assert_eq!(pair(&pool, &blocks, at(100)), [(0, 2)]);
    }

    #[test]
    fn nobody_is_paired_with_themselves() {
        let pool = [waiting("ada", 1500, 0), waiting("ada", 1500, 1)];

        assert_eq!(pair(&pool, &[], at(100)), []);
    }

    #[test]
    fn only_the_same_board_clock_and_rating_kind_pair() {
        let mut other_board = waiting("bob", 1500, 0);
        other_board.board = Geometry::new(4, 4).unwrap();
        let mut casual = waiting("cyd", 1500, 0);
        casual.rated = false;
        let mut blitz = waiting("dee", 1500, 0);
        blitz.control = TimeControl::per_move(Duration::from_secs(5)).unwrap();
        let pool = [waiting("ada", 1500, 0), other_board, casual, blitz];

        assert_eq!(pair(&pool, &[], at(100)), []);
    }

    #[test]
    fn the_longest_waiting_are_served_first() {
        let pool = [
            waiting("new", 1500, 9),
            waiting("old", 1500, 0),
            waiting("mid", 1500, 5),
        ];

        assert_eq!(pair(&pool, &[], at(10)), [(1, 2)]);
    }
}
