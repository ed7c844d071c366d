//! The yes/no question under every exact answer on the larger boards: can the attacker
//! force a win within `depth` of its own moves?
//!
//! An AND/OR search. At the attacker's turn one winning move suffices (OR); at the
//! defender's turn every move must lose (AND). A yes/no question prunes far more than a
//! score with distances: the first refutation ends a node. What makes it fast:
//!
//! * threat logic: a move that completes a line wins; two threats cannot both be
//!   blocked; one threat must be blocked, so the reply is forced;
//! * dead lines: a line holding both marks is ignored, a side with no live line cannot
//!   win, a side needing `n` more marks cannot win in fewer than `n` moves, and a cell
//!   on no live line is never tried (an extra mark never hurts in this game, so such a
//!   move is never better than any other);
//! * draws proven without search: the pairing test ([`Pairing`]), shared pairs
//!   ([`SharedPairs`]) and Erdős–Selfridge ([`danger_is_low`]);
//! * relevance zones ([`Zone`]): a refutation of one attacker move refutes every move
//!   outside the cells it relied on;
//! * a race among the defender's first replies in deep searches ([`RACE`]): a reply
//!   that is not refuted within a budget of positions gives way to the next few, so a
//!   wrong guess of the move order does not cost a whole proof;
//! * one table entry per symmetry class of positions, kept across questions: an entry
//!   says "wins within `win`" and "does not win within `fail`" for the attacker.
//!
//! Invariants: `attacker` and `defender` are disjoint bitboards of one [`Shape`], and
//! neither holds a complete line when a node is entered (a win is answered one move
//! before it is played).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use super::bits::Shape;
use super::clock::{Deadline, TimeCheck};
use super::memory::Memory;
use super::outcome::Outcome;
use super::pairing::{Pairing, SharedPairs, danger_is_low, open_cells};
use super::progress::{Progress, Proven, Stage};
use super::symmetry::Symmetries;
use super::table::ProofTable;
use tictactoe_core::domain::{Geometry, Verdict};

/// A depth no game reaches: a 7 x 7 game has at most 25 moves per side.
pub const UNBOUNDED: u8 = 64;

/// Wins within this many moves are looked for one depth at a time before an unbounded
/// search.
const SHALLOW: u8 = 6;

/// How many steps the search for shared pairs ([`SharedPairs`]) may take at one node
/// before it gives up. Measured on the empty (7,7,5) board when each step counted every
/// line's cells: 20 proved it fastest (50: 1.3 times slower, 10: more than three
/// times). Since a step costs a few operations a pair (issue 35's fourth round), 40:
/// on five hard (7,7,5) null moves 12% less CPU time than 20 (30: 1%), the answers
/// after X on 2 and in the centre without the book 10% and 21% fewer positions.
const PAIRING_STEPS: u32 = 40;

/// How many of the defender's replies, the most dangerous first, are tried for a proof
/// without search after them (see [`Prover::defend`]). On three (7,7,5) null moves of
/// issue 35 (plies 2 to 5), 16 took a fifth less time than all of them (the first
/// found sooner, fewer tried), 8 and fewer more again (more positions searched).
const QUICK_REPLIES: usize = 16;

/// How many of the defender's replies, the most dangerous first, race for a refutation
/// in deep searches when the first is not settled within [`FIRST_BUDGET`] positions (see
/// [`Prover::defend`]).
const RACE: usize = 4;

/// The positions the first reply may take before the race begins.
const FIRST_BUDGET: u64 = 2000;

/// The positions each other racing reply may take. Measured on nine (7,7,5) questions of
/// issue 35 (draw proofs and a win, from 0.8 thousand to 1.5 million positions each;
/// the positions of the races counted), on the null move after X on 2, and on the whole
/// answer after X on 2 and on the empty board (`analyze --no-book`), in positions:
///
/// | race | nine questions | null after X on 2 | after X on 2 | empty board |
/// |---|---|---|---|---|
/// | none | 3.75 million | 57.0 thousand | 442 thousand | 96.8 thousand |
/// | 4 replies, 2000 then 500 | 2.55 million | | 453 thousand | 96.8 thousand |
/// | 4 replies, 1000 each | 2.32 million | 97.9 thousand | 495 thousand | 101 thousand |
/// | 4 replies, 3000 then 500 | 2.62 million | 61.2 thousand | 447 thousand | 96.8 thousand |
/// | 4 replies, 1000 then 300 | 2.62 million | 75.1 thousand | | |
///
/// (Also 2, 3, 5, 6 and 8 replies, and 500 to 5000 positions each: none better on the
/// nine.) A budget that suits the middle game best (1000 each) made the first positions
/// of the game slower; 2000 then 500 keeps them about as they were.
const RACE_BUDGET: u64 = 500;

/// How many positions a question may take on one core before it is given to a second
/// ([`Prover::analyze`]): about a millisecond.
const QUICK_TRY: u64 = 300;

/// A relevance zone: a set of empty cells that a proof "the attacker cannot win" relies
/// on. The proof still holds if the attacker is given extra marks on any empty cells
/// outside it, so at the attacker's turn one refuted move refutes every move outside
/// the zone of its refutation as well (an extra mark never hurts its owner in this
/// game, so the position after such a move is no better for the attacker than the one
/// already refuted with that mark added). This is the idea of Hsu et al. for (7,7,5).
///
/// How zones combine, for a position `P` the attacker cannot win:
/// * a pairing strategy: the paired cells; Erdős–Selfridge: the empty cells of the
///   attacker's live lines; no live line left, or a full board: no cell;
/// * the defender to move, refuting with `r`: the zone after `r`, and `r`;
/// * the defender to move and winning at `w`: `w`, and one empty cell of each of the
///   attacker's live lines (so extra marks cannot complete one first);
/// * the attacker to move: the union of the zones of the moves refuted, and those moves
///   (a move outside any one of them needs no search); if the attacker had to block a
///   threat, also the threat cells and two empty cells of each of its live lines (so
///   extra marks cannot give it a win at once);
/// * a search cut short by a depth bound: with no move left, no cell; where every
///   live line needs more than `depth` marks, `depth + 1` empty cells of each (extra
///   marks elsewhere leave each still too far); a bound met deeper in the search
///   reaches the zones above it by the rules before.
type Zone = u64;

/// The zone of a proof that relies on every cell.
const EVERYWHERE: Zone = u64::MAX;

/// Flags a key whose attacker is to move; bit 63 of the attacker's word is off the board.
const ATTACKER_TO_MOVE: u128 = 1 << 127;

/// The null move's question (can the opponent, to move, force a win?) shared by two
/// provers on two threads ([`Prover::analyze`]): its moves, the most promising first, each
/// taken by whichever thread is free next (see [`Prover::attack_split`]). At the root of
/// a hard null move the refutations' zones hold nearly every cell, so the moves are
/// independent proofs; after three moves of the 27-move game of docs/performance.md,
/// two of them took 390 and 290 thousand positions of 770.
struct Split {
    moves: Vec<u64>,
    /// The index of the next move to take.
    next: AtomicUsize,
    /// The moves not yet refuted by the zone of a refutation.
    unrefuted: AtomicU64,
    /// The moves not yet settled (taken or not).
    pending: AtomicUsize,
    /// A move wins: the opponent can force a win.
    won: AtomicBool,
    /// A thread stopped in the middle of a move: the answer is not known.
    cut_short: AtomicBool,
}

impl Split {
    /// The question's answer once both threads are done with it: `Some(true)` if a move
    /// wins, `Some(false)` if every move was refuted, `None` if it was cut short.
    fn answer(&self) -> Option<bool> {
        if self.won.load(Ordering::Relaxed) {
            Some(true)
        } else if self.pending.load(Ordering::Relaxed) == 0
            && !self.cut_short.load(Ordering::Relaxed)
        {
            Some(false)
        } else {
            None
        }
    }
}

pub struct Prover {
    shape: Shape,
    symmetries: &'static Symmetries,
    /// What this prover and its helper have proven.
    table: Arc<ProofTable>,
    pairing: Pairing,
    shared: SharedPairs,
    time: TimeCheck,
    /// The zone of the last "cannot win" answer of [`attack`](Self::attack) or
    /// [`defend`](Self::defend); meaningless after a "wins".
    zone: Zone,
    /// Told what [`analyze`](Self::analyze) has settled, as it goes.
    progress: Option<Box<dyn Progress>>,
}

impl Prover {
    /// A prover whose table draws on `memory` (most proofs need at most tens of MB).
    pub fn new(geometry: Geometry, memory: &Memory) -> Self {
        Prover::on(geometry, Arc::new(ProofTable::new(memory)))
    }

    fn on(geometry: Geometry, table: Arc<ProofTable>) -> Self {
        Prover {
            shape: Shape::new(geometry),
            symmetries: Symmetries::of(geometry),
            table,
            pairing: Pairing::default(),
            shared: SharedPairs::new(geometry.line_masks()),
            time: TimeCheck::default(),
            zone: EVERYWHERE,
            progress: None,
        }
    }

    /// A prover to help this one on a second core (see [`analyze`](Self::analyze)):
    /// what either proves is in the table of both.
    pub fn beside(&self) -> Self {
        Prover::on(self.shape.geometry, Arc::clone(&self.table))
    }

    /// Forgets what the table holds (its helper's too: they share it).
    pub fn forget(&self) {
        self.table.forget();
    }

    /// How many positions every search of this prover has visited.
    pub fn positions(&self) -> u64 {
        self.time.total()
    }

    /// Reports what [`analyze`](Self::analyze) settles to `progress` from now on
    /// (`None`: to nobody); answers the one reported to before.
    pub fn report_to(&mut self, progress: Option<Box<dyn Progress>>) -> Option<Box<dyn Progress>> {
        std::mem::replace(&mut self.progress, progress)
    }

    fn report(&mut self, stage: Stage, holds: u64, settled: u64, empty: u64) {
        if let Some(progress) = &mut self.progress {
            progress.proven(Proven {
                stage,
                holding: holds.count_ones() as usize,
                losing: (settled & !holds).count_ones() as usize,
                moves: empty.count_ones() as usize,
            });
        }
    }

    /// Whether `attacker` can force a win within `depth` of its own moves, with
    /// `attacker_to_move` saying whose turn it is. `None` if `deadline` passed first.
    pub fn wins(
        &mut self,
        attacker: u64,
        defender: u64,
        attacker_to_move: bool,
        depth: u8,
        deadline: Option<&Deadline>,
    ) -> Option<bool> {
        self.time.restart();
        let answer = if attacker_to_move {
            self.attack(attacker, defender, depth, deadline)
        } else {
            self.defend(attacker, defender, depth, deadline)
        };
        (!self.time.ran_out()).then_some(answer)
    }

    /// The fewest moves in which `attacker` forces a win, searching depths from the
    /// least its lines allow up to `limit`. `Some(None)`: no win within `limit`;
    /// `None`: the deadline passed first.
    pub fn fastest_win(
        &mut self,
        attacker: u64,
        defender: u64,
        attacker_to_move: bool,
        limit: u8,
        deadline: Option<&Deadline>,
    ) -> Option<Option<u8>> {
        for depth in 1..=limit {
            if self.wins(attacker, defender, attacker_to_move, depth, deadline)? {
                return Some(Some(depth));
            }
        }
        Some(None)
    }

    /// The value of the position for `me` to move and the moves that keep it, with the
    /// fastest win or slowest loss among them. `None` if `deadline` passed before any
    /// move was proven to keep the value; an inexact outcome (the moves proven, the
    /// verdict or the list not) if it passed after.
    ///
    /// The order puts safety first, for a player with a second to think:
    ///
    /// 1. a short win (within [`SHALLOW`] moves), with at most a quarter of the time:
    ///    quick to find, so that a gift from the opponent is not missed;
    /// 2. one move proven not to lose, each candidate given at most half the time left,
    ///    so that one hard proof does not starve the others: with it in hand, what is
    ///    played is never a guess (on (7,7,5) one candidate in a few can take seconds
    ///    where the others take tens of milliseconds);
    /// 3. a long win, with half of what is left;
    /// 4. every other move, and then, if all of them lose, how long each loss lasts.
    ///
    /// Beside them, whether the opponent could win even if it moved next (a null move:
    /// if not, every move keeps the draw, and stages 2 and 4 are not needed). With a
    /// `helper` (another prover, with a table of its own, for a second core) that
    /// question is asked on the helper's thread from the start, with the whole time;
    /// stages 2 and 4 stop as soon as it shows every move holds, it stops as soon as a
    /// win is found, and if it finds the opponent winning it joins stage 4, the two
    /// threads each taking the next move left. Alone, it is asked after stage 3 with
    /// three quarters of the time left. If time remains at the end and the long win
    /// was cut short, it is asked again: what it proved is in the table.
    ///
    /// Precondition: the game is not over (no line complete, an empty cell left).
    pub fn analyze(
        &mut self,
        me: u64,
        opp: u64,
        deadline: Option<&Deadline>,
        helper: Option<&mut Prover>,
    ) -> Option<Outcome> {
        let empty = self.shape.all & !(me | opp);
        let wins_now = self.shape.threats(me, opp) & empty;
        if wins_now != 0 {
            return Some(Outcome {
                verdict: Verdict::Win,
                plies: 1,
                best: wins_now,
                exact: true,
            });
        }
        // Often a few hundred positions answer the null move, and a thread would cost
        // more than the question (on the empty (7,7,6) board, 2.5 ms against 0.05 ms).
        let quick_null = self.at_once(opp, me);
        match helper {
            Some(helper) if quick_null.is_none() => self.analyze_beside(me, opp, deadline, helper),
            helper => self.analyze_alone(me, opp, deadline, quick_null, helper),
        }
    }

    /// [`analyze`](Self::analyze) on one core, but for stage 4, shared with `helper` if
    /// there is one; `null` is the null move's answer if it is known already.
    fn analyze_alone(
        &mut self,
        me: u64,
        opp: u64,
        deadline: Option<&Deadline>,
        null: Option<bool>,
        helper: Option<&mut Prover>,
    ) -> Option<Outcome> {
        let empty = self.shape.all & !(me | opp);

        let quarter = deadline.map(|d| d.part(0.25));
        self.report(Stage::ShortWin, 0, 0, empty);
        if let Some(Some(win)) = self.short_win(me, opp, quarter.as_ref()) {
            return Some(self.fastest_wins(me, opp, win, deadline));
        }
        let (mut holds, mut settled) = if null == Some(false) {
            (empty, empty)
        } else {
            self.one_holding(me, opp, deadline, None)?
        };
        let half = deadline.map(|d| d.part(0.5));
        self.report(Stage::LongWin, holds, settled, empty);
        let long = self.long_win(me, opp, half.as_ref());
        if let Some(Some(win)) = long {
            return Some(self.fastest_wins(me, opp, win, deadline));
        }
        let win_proven_absent = long == Some(None);
        let null = match null {
            None if settled != empty => {
                let most = deadline.map(|d| d.part(0.75));
                self.wins(opp, me, true, UNBOUNDED, most.as_ref())
            }
            known => known,
        };
        if null == Some(false) {
            return Some(self.draw(me, opp, empty, true, win_proven_absent, deadline));
        }
        let rest: Vec<u64> = self.shape.by_promise(empty & !settled, me, opp).collect();
        let next = AtomicUsize::new(0);
        let shown = Some((holds, settled));
        let (more, also, complete) = match helper {
            // Each thread takes the next move left, as in `analyze_beside`.
            Some(helper) if rest.len() > 1 => std::thread::scope(|scope| {
                let (rest, next) = (&rest, &next);
                let helping =
                    scope.spawn(move || helper.settle(me, opp, rest, next, deadline, None));
                let mine = self.settle(me, opp, rest, next, deadline, shown);
                // A helper that panicked settled nothing.
                let theirs = helping.join().unwrap_or((0, 0, false));
                (mine.0 | theirs.0, mine.1 | theirs.1, mine.2 && theirs.2)
            }),
            _ => self.settle(me, opp, &rest, &next, deadline, shown),
        };
        holds |= more;
        settled |= also;
        self.report(Stage::Rest, holds, settled, empty);
        self.conclude(me, opp, holds, complete, win_proven_absent, deadline)
    }

    /// [`analyze`](Self::analyze) on two cores: this one for stages 1 to 4, `helper`'s
    /// for the null move, which this one joins after stage 3 (the two taking its moves
    /// in turn, [`Split`]); then, if the null move does not settle every move, stage 4 on
    /// both.
    fn analyze_beside(
        &mut self,
        me: u64,
        opp: u64,
        deadline: Option<&Deadline>,
        helper: &mut Prover,
    ) -> Option<Outcome> {
        let empty = self.shape.all & !(me | opp);
        let left = empty.count_ones() as u8;
        let split = self.split(opp, me);
        // Raised when the null move shows that every move holds; and when the null move
        // is over otherwise: a win for the opponent found, or one for this side making it
        // needless.
        let every_move_holds = AtomicBool::new(split.answer() == Some(false));
        let null_over = AtomicBool::new(split.answer().is_some());
        let next = AtomicUsize::new(0);
        let (moves_left, rest_for_helper) = std::sync::mpsc::channel::<Vec<u64>>();
        // Without a deadline the flags still stop what they must.
        let base = deadline.copied().unwrap_or(Deadline::unlimited());
        std::thread::scope(|scope| {
            let null_deadline = base.or_when(&null_over);
            let rest_deadline = base.or_when(&every_move_holds);
            let (every_move_holds, null_over, next, split) =
                (&every_move_holds, &null_over, &next, &split);
            // Either prover's share of the null move's moves.
            let null_move = move |prover: &mut Prover| {
                prover.attack_split(
                    split,
                    opp,
                    me,
                    Some(&null_deadline),
                    null_over,
                    every_move_holds,
                );
            };
            let helping = scope.spawn(move || {
                null_move(helper);
                // Stage 4 beside this thread, once it says which moves are left.
                match rest_for_helper.recv() {
                    Ok(rest) if !every_move_holds.load(Ordering::Relaxed) => {
                        helper.settle(me, opp, &rest, next, Some(&rest_deadline), None)
                    }
                    _ => (0, 0, true),
                }
            });
            // A helper that panicked settled nothing.
            let join = |helping: std::thread::ScopedJoinHandle<'_, _>| {
                helping.join().unwrap_or((0, 0, false))
            };
            // The helper is no longer needed: it stops, and is told no moves are left.
            let give_up = |helping, moves_left: std::sync::mpsc::Sender<_>| {
                null_over.store(true, Ordering::Relaxed);
                drop(moves_left);
                join(helping)
            };
            let quarter = deadline.map(|d| d.part(0.25));
            self.report(Stage::ShortWin, 0, 0, empty);
            if let Some(Some(win)) = self.short_win(me, opp, quarter.as_ref()) {
                give_up(helping, moves_left);
                return Some(self.fastest_wins(me, opp, win, deadline));
            }
            let (mut holds, mut settled) =
                match self.one_holding(me, opp, deadline, Some(every_move_holds)) {
                    Some(found) => found,
                    None => {
                        // Nothing proven by this thread in time; maybe by the helper.
                        give_up(helping, moves_left);
                        return (split.answer() == Some(false)).then_some(Outcome {
                            verdict: Verdict::Draw,
                            plies: left,
                            best: empty,
                            exact: false,
                        });
                    }
                };
            let half = deadline.map(|d| d.part(0.5));
            self.report(Stage::LongWin, holds, settled, empty);
            let long = self.long_win(me, opp, half.as_ref());
            if let Some(Some(win)) = long {
                give_up(helping, moves_left);
                return Some(self.fastest_wins(me, opp, win, deadline));
            }
            let win_proven_absent = long == Some(None);
            // The null move's moves left, beside the helper: where it shows every move
            // holds, stage 4 is not needed, and its moves are proofs of the same kind.
            null_move(self);
            let rest: Vec<u64> = self.shape.by_promise(empty & !settled, me, opp).collect();
            // The helper may be gone already (every move holds): then nobody listens.
            let _ = moves_left.send(rest.clone());
            drop(moves_left);
            let mine = if every_move_holds.load(Ordering::Relaxed) {
                (0, 0, true)
            } else {
                self.settle(
                    me,
                    opp,
                    &rest,
                    next,
                    Some(&rest_deadline),
                    Some((holds, settled)),
                )
            };
            let theirs = join(helping);
            if split.answer() == Some(false) {
                return Some(self.draw(me, opp, empty, true, win_proven_absent, deadline));
            }
            holds |= mine.0 | theirs.0;
            settled |= mine.1 | theirs.1;
            self.report(Stage::Rest, holds, settled, empty);
            self.conclude(
                me,
                opp,
                holds,
                mine.2 && theirs.2,
                win_proven_absent,
                deadline,
            )
        })
    }

    /// The null move's question for `attacker` to move, ready to be shared by two
    /// threads; answered already if its first position answers it.
    fn split(&mut self, attacker: u64, defender: u64) -> Split {
        self.time.restart();
        let empty = self.shape.all & !(attacker | defender);
        let (moves, answer) = match self.attack_node((attacker, defender), empty, UNBOUNDED, false)
        {
            Ok((_, (_, _, moves))) => (
                self.shape.by_promise(moves, attacker, defender).collect(),
                None,
            ),
            Err(won) => (Vec::new(), Some(won)),
        };
        Split {
            next: AtomicUsize::new(0),
            unrefuted: AtomicU64::new(u64::MAX),
            pending: AtomicUsize::new(moves.len()),
            won: AtomicBool::new(answer == Some(true)),
            cut_short: AtomicBool::new(false),
            moves,
        }
    }

    /// Takes the moves of `split` one at a time (the other thread taking others) and
    /// proves for each whether `attacker` then wins, until none is left, one wins (then
    /// `over` is raised, which stops the other thread too) or `deadline` passes. A
    /// refutation's zone spares the moves outside it, as in [`attack`](Self::attack).
    /// Whichever thread settles the last move with none winning raises `refuted`.
    fn attack_split(
        &mut self,
        split: &Split,
        attacker: u64,
        defender: u64,
        deadline: Option<&Deadline>,
        over: &AtomicBool,
        refuted: &AtomicBool,
    ) {
        self.time.restart();
        while let Some(&bit) = split.moves.get(split.next.fetch_add(1, Ordering::Relaxed)) {
            if split.unrefuted.load(Ordering::Relaxed) & bit != 0 {
                let wins = self.defend(attacker | bit, defender, UNBOUNDED - 1, deadline);
                if self.time.ran_out() {
                    split.cut_short.store(true, Ordering::Relaxed);
                    return;
                }
                if wins {
                    split.won.store(true, Ordering::Relaxed);
                    over.store(true, Ordering::Relaxed);
                    return;
                }
                split.unrefuted.fetch_and(self.zone, Ordering::Relaxed);
            }
            if split.pending.fetch_sub(1, Ordering::Relaxed) == 1 {
                refuted.store(true, Ordering::Relaxed);
            }
        }
    }

    /// Stage 2: the moves in order of promise, each given at most half the time left,
    /// until one is proven not to lose (or `every_move_holds` is raised). Returns the
    /// moves that hold (one, or none if the flag was raised) and the moves settled;
    /// `None` if the deadline passed with nothing proven to hold.
    fn one_holding(
        &mut self,
        me: u64,
        opp: u64,
        deadline: Option<&Deadline>,
        every_move_holds: Option<&AtomicBool>,
    ) -> Option<(u64, u64)> {
        let empty = self.shape.all & !(me | opp);
        let all_hold = || every_move_holds.is_some_and(|flag| flag.load(Ordering::Relaxed));
        let (mut holds, mut settled) = (0, 0);
        self.report(Stage::Holding, holds, settled, empty);
        for bit in self.shape.by_promise(empty, me, opp) {
            if all_hold() {
                return Some((holds, settled));
            }
            if deadline.is_some_and(Deadline::passed) {
                // Nothing proven yet: the loop ends at the first move that holds.
                return None;
            }
            let slice = deadline.map(|d| d.part(0.5));
            let slice = match every_move_holds {
                Some(flag) => Some(slice.unwrap_or(Deadline::unlimited()).or_when(flag)),
                None => slice,
            };
            match self.wins(opp, me | bit, true, UNBOUNDED, slice.as_ref()) {
                Some(false) => {
                    holds |= bit;
                    settled |= bit;
                    break;
                }
                Some(true) => settled |= bit,
                None => {}
            }
            self.report(Stage::Holding, holds, settled, empty);
        }
        Some((holds, settled))
    }

    /// The answer once stage 4 is over: a draw kept by the moves that `holds`, a loss
    /// if every move was proven to lose (with the slowest losses), or `None` if nothing
    /// was proven to hold and not every move was settled.
    fn conclude(
        &mut self,
        me: u64,
        opp: u64,
        holds: u64,
        complete: bool,
        win_proven_absent: bool,
        deadline: Option<&Deadline>,
    ) -> Option<Outcome> {
        if holds != 0 {
            return Some(self.draw(me, opp, holds, complete, win_proven_absent, deadline));
        }
        // Every move proven to lose is a proven loss: a winning move would not lose.
        complete.then(|| self.slowest_losses(me, opp, deadline))
    }

    /// A draw kept by `best` (proven to hold; all of them if `complete`). If only the
    /// search for a win was cut short (at stage 3), it is made again with whatever time
    /// is left, the table holding what it proved: exact if it finds none, the fastest
    /// wins if it finds one.
    fn draw(
        &mut self,
        me: u64,
        opp: u64,
        best: u64,
        complete: bool,
        win_proven_absent: bool,
        deadline: Option<&Deadline>,
    ) -> Outcome {
        let mut absent = win_proven_absent;
        if complete && !absent && !deadline.is_some_and(Deadline::passed) {
            match self.long_win(me, opp, deadline) {
                Some(Some(win)) => return self.fastest_wins(me, opp, win, deadline),
                Some(None) => absent = true,
                None => {}
            }
        }
        Outcome {
            verdict: Verdict::Draw,
            plies: (self.shape.all & !(me | opp)).count_ones() as u8,
            best,
            exact: complete && absent,
        }
    }

    /// Whether `attacker`, to move, can force a win, if a search of at most
    /// [`QUICK_TRY`] positions says so; `None` if it needs more.
    fn at_once(&mut self, attacker: u64, defender: u64) -> Option<bool> {
        self.time.restart_within(QUICK_TRY);
        let answer = self.attack(attacker, defender, UNBOUNDED, None);
        (!self.time.ran_out()).then_some(answer)
    }

    /// Takes the moves of `moves` one at a time (the next index from `next`, shared with
    /// another prover on another thread) and proves for each whether the opponent can
    /// then force a win. Returns the moves that hold, the moves settled, and whether
    /// every move taken was settled before the deadline. `shown`: what was settled
    /// before, for the progress reports (`None`: no reports, as for a helper).
    fn settle(
        &mut self,
        me: u64,
        opp: u64,
        moves: &[u64],
        next: &AtomicUsize,
        deadline: Option<&Deadline>,
        shown: Option<(u64, u64)>,
    ) -> (u64, u64, bool) {
        let (mut holds, mut settled) = (0, 0);
        let empty = self.shape.all & !(me | opp);
        while let Some(&bit) = moves.get(next.fetch_add(1, Ordering::Relaxed)) {
            match self.wins(opp, me | bit, true, UNBOUNDED, deadline) {
                Some(false) => holds |= bit,
                Some(true) => {}
                None => return (holds, settled, false),
            }
            settled |= bit;
            if let Some((held, before)) = shown {
                self.report(Stage::Rest, held | holds, before | settled, empty);
            }
        }
        (holds, settled, true)
    }

    /// Only the value of the position for `me` to move, the least work that proves it:
    /// a winning move, else one move that does not lose. `None` if the deadline passed.
    pub fn value(&mut self, me: u64, opp: u64, deadline: Option<&Deadline>) -> Option<Verdict> {
        if self.find_win(me, opp, deadline)?.is_some() {
            return Some(Verdict::Win);
        }
        let empty = self.shape.all & !(me | opp);
        for bit in self.shape.by_promise(empty, me, opp) {
            if !self.wins(opp, me | bit, true, UNBOUNDED, deadline)? {
                return Some(Verdict::Draw);
            }
        }
        Some(Verdict::Loss)
    }

    /// A move that wins for `me` to move: `Some(None)` if there is none, `None` if the
    /// deadline passed first.
    fn find_win(&mut self, me: u64, opp: u64, deadline: Option<&Deadline>) -> Option<Option<u64>> {
        match self.short_win(me, opp, deadline)? {
            Some(win) => Some(Some(win)),
            None => self.long_win(me, opp, deadline),
        }
    }

    /// A move that wins within [`SHALLOW`] moves, the shortest first: `Some(None)` if
    /// there is none, `None` if the deadline passed first. Looked for one depth at a
    /// time before any unbounded search, which can lose itself in long lines while a
    /// quick win is there.
    fn short_win(&mut self, me: u64, opp: u64, deadline: Option<&Deadline>) -> Option<Option<u64>> {
        let empty = self.shape.all & !(me | opp);
        let wins_now = self.shape.threats(me, opp) & empty;
        if wins_now != 0 {
            return Some(Some(wins_now & wins_now.wrapping_neg()));
        }
        for depth in 2..=SHALLOW {
            // One question for all moves first: the search tries only the moves the
            // threat rules and the lines leave, and mostly there is no win.
            if !self.wins(me, opp, true, depth, deadline)? {
                continue;
            }
            for bit in self.shape.by_promise(empty, me, opp) {
                if self.wins(me | bit, opp, false, depth - 1, deadline)? {
                    return Some(Some(bit));
                }
            }
        }
        Some(None)
    }

    /// A move that wins, however long it takes: one question for all moves at once, so
    /// that the zones of the first moves refuted spare the search of the others; only
    /// if it is yes, which move.
    fn long_win(&mut self, me: u64, opp: u64, deadline: Option<&Deadline>) -> Option<Option<u64>> {
        if !self.wins(me, opp, true, UNBOUNDED, deadline)? {
            return Some(None);
        }
        let empty = self.shape.all & !(me | opp);
        for bit in self.shape.by_promise(empty, me, opp) {
            if self.wins(me | bit, opp, false, UNBOUNDED, deadline)? {
                return Some(Some(bit));
            }
        }
        Some(None)
    }

    /// The moves that win within `depth` moves, if there are any: `Some(None)` if none,
    /// `None` if the deadline passed.
    fn wins_within(
        &mut self,
        me: u64,
        opp: u64,
        depth: u8,
        deadline: Option<&Deadline>,
    ) -> Option<Option<Outcome>> {
        if !self.wins(me, opp, true, depth, deadline)? {
            return Some(None);
        }
        let empty = self.shape.all & !(me | opp);
        let mut best = 0u64;
        for bit in self.shape.by_promise(empty, me, opp) {
            if self.wins(me | bit, opp, false, depth - 1, deadline)? {
                best |= bit;
            }
        }
        Some((best != 0).then_some(Outcome {
            verdict: Verdict::Win,
            plies: 2 * depth - 1,
            best,
            exact: true,
        }))
    }

    /// A won position: the moves that win fastest, searched one depth at a time.
    /// `first` is a move already proven to win, the answer if time runs out.
    fn fastest_wins(
        &mut self,
        me: u64,
        opp: u64,
        first: u64,
        deadline: Option<&Deadline>,
    ) -> Outcome {
        let empty = self.shape.all & !(me | opp);
        let fallback = Outcome {
            verdict: Verdict::Win,
            plies: empty.count_ones() as u8,
            best: first,
            exact: false,
        };
        for depth in 2..UNBOUNDED {
            match self.wins_within(me, opp, depth, deadline) {
                Some(Some(outcome)) => return outcome,
                Some(None) => {}
                None => return fallback,
            }
        }
        fallback
    }

    /// A lost position: the moves after which the opponent needs longest to win.
    fn slowest_losses(&mut self, me: u64, opp: u64, deadline: Option<&Deadline>) -> Outcome {
        let empty = self.shape.all & !(me | opp);
        let mut slowest = 0u8;
        let mut best = 0u64;
        for bit in self.shape.by_promise(empty, me, opp) {
            let Some(Some(depth)) = self.fastest_win(opp, me | bit, true, UNBOUNDED, deadline)
            else {
                // Out of time: every move loses anyway, so any of them keeps the value.
                return Outcome {
                    verdict: Verdict::Loss,
                    plies: 2,
                    best: empty,
                    exact: false,
                };
            };
            if depth > slowest {
                (slowest, best) = (depth, 0);
            }
            if depth == slowest {
                best |= bit;
            }
        }
        Outcome {
            verdict: Verdict::Loss,
            plies: 2 * slowest,
            best,
            exact: true,
        }
    }

    /// How every node begins: out of time, the question is not answered (`false`); a
    /// full board, or no moves left (no extra mark gives the attacker another), it
    /// fails; else the empty cells, to be searched.
    fn enter(
        &mut self,
        a: u64,
        d: u64,
        depth: u8,
        deadline: Option<&Deadline>,
    ) -> Result<u64, bool> {
        if self.time.expired(deadline) {
            return Err(false);
        }
        let empty = self.shape.all & !(a | d);
        if empty == 0 || depth == 0 {
            return Err(self.fails(0));
        }
        Ok(empty)
    }

    /// The attacker to move: is there a move after which it still wins in `depth - 1`?
    fn attack(&mut self, a: u64, d: u64, depth: u8, deadline: Option<&Deadline>) -> bool {
        self.attack_after(a, d, depth, deadline, false)
    }

    /// An attacker's node, once entered (`empty`: its empty cells), before its moves are
    /// searched: its answer (`Err`) if the threat rules, the depth, the table or a proof
    /// without search give one; else the threats it must block, its key and symmetry in
    /// the table and its moves.
    fn attack_node(
        &mut self,
        (a, d): (u64, u64),
        empty: u64,
        depth: u8,
        tried: bool,
    ) -> Result<(u64, (u128, usize, u64)), bool> {
        let scan = self.shape.scan(a, d);
        if scan.my_threats & empty != 0 {
            return Err(true);
        }
        let blocks = scan.their_threats & empty;
        if blocks.count_ones() >= 2 {
            let zone = self.guard(a, d, 2, blocks);
            return Err(self.fails(zone));
        }
        if !self.could_win(scan.my_most, depth) {
            return Err(self.fails(self.bound_zone(a, d, scan.my_most, depth)));
        }
        let opened = self.open(a, d, blocks, depth, true, tried)?;
        Ok((blocks, opened))
    }

    /// [`attack`](Self::attack), told whether the proofs without search were tried on
    /// this position already and failed (`tried`: the defender's quick replies, see
    /// [`defend`](Self::defend)), so that they are not tried again.
    fn attack_after(
        &mut self,
        a: u64,
        d: u64,
        depth: u8,
        deadline: Option<&Deadline>,
        tried: bool,
    ) -> bool {
        let empty = match self.enter(a, d, depth, deadline) {
            Ok(empty) => empty,
            Err(answer) => return answer,
        };
        let (blocks, (key, symmetry, moves)) = match self.attack_node((a, d), empty, depth, tried) {
            Ok(node) => node,
            Err(answer) => return answer,
        };
        let mut won = false;
        // The moves not yet refuted by the zone of an earlier refutation.
        let mut unrefuted = moves;
        let mut zone = 0;
        for bit in self.shape.by_promise(moves, a, d) {
            if unrefuted & bit == 0 {
                continue;
            }
            if self.defend(a | bit, d, depth - 1, deadline) {
                won = true;
                break;
            }
            unrefuted &= self.zone;
            zone |= self.zone | bit;
        }
        if self.time.ran_out() {
            return false;
        }
        if blocks != 0 {
            zone = self.guard(a, d, 2, zone | blocks);
        }
        let zone = zone & empty;
        self.remember(key, symmetry, won, depth, zone);
        self.zone = zone;
        won
    }

    /// The defender to move: does every move leave the attacker a win in `depth`?
    fn defend(&mut self, a: u64, d: u64, depth: u8, deadline: Option<&Deadline>) -> bool {
        let empty = match self.enter(a, d, depth, deadline) {
            Ok(empty) => empty,
            Err(answer) => return answer,
        };
        // The scan is from the defender's side: "my" threats are the defender's.
        let scan = self.shape.scan(d, a);
        let wins_now = scan.my_threats & empty;
        if wins_now != 0 {
            let zone = self.guard(a, d, 1, wins_now & wins_now.wrapping_neg());
            return self.fails(zone);
        }
        let blocks = scan.their_threats & empty;
        if blocks.count_ones() >= 2 {
            return true;
        }
        if !self.could_win(scan.their_most, depth) {
            return self.fails(self.bound_zone(a, d, scan.their_most, depth));
        }
        let (key, symmetry, moves) = match self.open(a, d, blocks, depth, false, false) {
            Ok(opened) => opened,
            Err(known) => return known,
        };
        // Never empty: the attacker's live line has an empty cell (checked above), so an
        // AND over no moves cannot make a vacuous win.
        let mut won = moves != 0;
        let mut zone = EVERYWHERE;
        // A reply after which a proof without search holds ends the node at once, among
        // the [`QUICK_REPLIES`] most dangerous (the others rarely help). Only in deep
        // searches (the draw proofs): in a search for a short win the proofs rarely
        // hold and checking every reply costs more than it saves.
        let weight = if depth > SHALLOW { 2 } else { 4 };
        let order = self.shape.by_danger(moves, d, a, weight);
        // How many of the first replies had their proofs without search tried here.
        let mut tried = 0;
        if depth > SHALLOW && moves.count_ones() > 1 {
            tried = QUICK_REPLIES;
            for bit in order.clone().take(QUICK_REPLIES) {
                if let Some(after) = self.cannot_win_within(a, d | bit, true, PAIRING_STEPS) {
                    let zone = (after | bit) & empty;
                    self.remember(key, symmetry, false, depth, zone);
                    return self.fails(zone);
                }
            }
        }
        // A race, in deep searches: the first reply is given FIRST_BUDGET positions; if
        // it is not settled within them, the next few are given RACE_BUDGET each, and the
        // first that refutes within its budget ends the node. The order of the replies
        // is only a guess, and where the first is wrong (the attacker wins after it, in a
        // proof of thousands of positions) or merely hard, another is often refuted in a
        // few hundred. What a race settled is kept: the proofs it completed in the table,
        // and the replies it proved to lose here, not searched again. A budget that runs
        // out stores nothing, as a deadline does.
        let mut lost = 0u64;
        if depth > SHALLOW && moves.count_ones() > 1 {
            for (index, bit) in order.clone().take(RACE).enumerate() {
                let budget = if index == 0 {
                    FIRST_BUDGET
                } else {
                    RACE_BUDGET
                };
                let outer = self.time.budget(budget);
                let refuted = !self.attack_after(a, d | bit, depth, deadline, index < tried);
                let unresolved = self.time.end_budget(outer, deadline);
                if self.time.ran_out() {
                    return false;
                }
                if unresolved {
                    continue;
                }
                if refuted {
                    let zone = (self.zone | bit) & empty;
                    self.remember(key, symmetry, false, depth, zone);
                    return self.fails(zone);
                }
                lost |= bit;
                if index == 0 {
                    // The first reply settled within its budget: no race needed.
                    break;
                }
            }
        }
        for (index, bit) in order.enumerate() {
            if lost & bit != 0 {
                continue;
            }
            if !self.attack_after(a, d | bit, depth, deadline, index < tried) {
                won = false;
                zone = (self.zone | bit) & empty;
                break;
            }
        }
        if self.time.ran_out() {
            return false;
        }
        self.remember(key, symmetry, won, depth, zone);
        self.zone = zone;
        won
    }

    /// Answers "cannot win" with `zone` as its relevance zone.
    fn fails(&mut self, zone: Zone) -> bool {
        self.zone = zone;
        false
    }

    /// The zone of "cannot win within `depth`" by the attacker's lines alone: no cell
    /// if it has no live line (extra marks never revive one); else `depth + 1` empty
    /// cells of each live line, so that extra marks outside leave every line more than
    /// `depth` marks short.
    fn bound_zone(&self, a: u64, d: u64, most: u32, depth: u8) -> Zone {
        if most == 0 {
            0
        } else {
            self.guard(a, d, u32::from(depth) + 1, 0)
        }
    }

    /// `zone` grown until each of the attacker's live lines has at least `cells` empty
    /// cells in it, so that extra attacker marks outside it leave each line at least
    /// that many cells short.
    fn guard(&self, a: u64, d: u64, cells: u32, zone: Zone) -> Zone {
        let empty = self.shape.all & !(a | d);
        let mut zone = zone;
        for &mask in self.shape.masks() {
            if mask & d != 0 {
                continue;
            }
            let open = mask & empty;
            let mut have = (open & zone).count_ones();
            let mut rest = open & !zone;
            while have < cells && rest != 0 {
                zone |= rest & rest.wrapping_neg();
                rest &= rest - 1;
                have += 1;
            }
        }
        zone & empty
    }

    /// What every node does once the threat rules have not decided it: the table's
    /// answer or a proof without search (`Err` with the answer), else its key and
    /// symmetry in the table and the moves to try (`Ok`): the one block if there is a
    /// threat, every live cell otherwise. `tried`: the proofs without search were tried
    /// on this position already (and failed).
    fn open(
        &mut self,
        a: u64,
        d: u64,
        blocks: u64,
        depth: u8,
        attacker_to_move: bool,
        tried: bool,
    ) -> Result<(u128, usize, u64), bool> {
        let (key, symmetry) = self.key(a, d, attacker_to_move);
        if let Some(known) = self.known(key, symmetry, depth) {
            return Err(known);
        }
        if depth > 1
            && !tried
            && let Some(zone) = self.cannot_win(a, d, attacker_to_move, depth)
        {
            self.remember(key, symmetry, false, UNBOUNDED, zone);
            return Err(self.fails(zone));
        }
        let moves = if blocks != 0 {
            blocks
        } else {
            self.shape.live_cells(a, d)
        };
        Ok((key, symmetry, moves))
    }

    /// The proofs without search that the attacker never completes a line, with the
    /// zone each relies on; `None` if neither applies.
    /// The search for shared pairs only in deep searches, as for the replies above.
    fn cannot_win(&mut self, a: u64, d: u64, attacker_to_move: bool, depth: u8) -> Option<Zone> {
        let steps = if depth > SHALLOW { PAIRING_STEPS } else { 0 };
        self.cannot_win_within(a, d, attacker_to_move, steps)
    }

    fn cannot_win_within(
        &mut self,
        a: u64,
        d: u64,
        attacker_to_move: bool,
        budget: u32,
    ) -> Option<Zone> {
        let masks = self.shape.masks();
        let empty = self.shape.all & !(a | d);
        if danger_is_low(masks, a, d, attacker_to_move) {
            Some(open_cells(masks, a, d) & empty)
        } else if self.pairing.blocks_every_line(masks, a, d) {
            Some(self.pairing.paired_cells() & empty)
        } else {
            self.shared.find(a, d, budget).map(|cells| cells & empty)
        }
    }

    /// Whether a side whose fullest live line is `most - 1` marks (0: no live line)
    /// could complete it within `depth` of its moves.
    fn could_win(&self, most: u32, depth: u8) -> bool {
        most != 0 && self.shape.win_length() - (most - 1) <= u32::from(depth)
    }

    /// The position's table key, and a symmetry that maps the position onto it.
    fn key(&self, a: u64, d: u64, attacker_to_move: bool) -> (u128, usize) {
        let (key, symmetry) = self.symmetries.canonical_by(a, d);
        if attacker_to_move {
            (key | ATTACKER_TO_MOVE, symmetry)
        } else {
            (key, symmetry)
        }
    }

    /// The table's answer for `depth`, if it has one; for a "cannot win", its zone is
    /// left in `self.zone`, mapped back from the key's orientation by `symmetry`.
    fn known(&mut self, key: u128, symmetry: usize, depth: u8) -> Option<bool> {
        let entry = self.table.get(key)?;
        if entry.win <= depth {
            Some(true)
        } else if entry.fail >= depth {
            let zone = match entry.zone {
                EVERYWHERE => EVERYWHERE,
                zone => self.symmetries.undo(symmetry, zone),
            };
            Some(self.fails(zone))
        } else {
            None
        }
    }

    /// Stores an answer; `zone` is that of a "cannot win" (ignored for a win), in the
    /// position's own orientation.
    fn remember(&mut self, key: u128, symmetry: usize, won: bool, depth: u8, zone: Zone) {
        let zone = match zone {
            EVERYWHERE => EVERYWHERE,
            zone => self.symmetries.apply(symmetry, zone),
        };
        self.table.record(key, won, depth, zone);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::collections::HashMap;

    fn prover(size: usize, win: usize) -> Prover {
        Prover::new(Geometry::new(size, win).unwrap(), &Memory::default())
    }

    fn cells(list: &[u32]) -> u64 {
        list.iter().fold(0, |m, &c| m | 1 << c)
    }

    #[test]
    fn nobody_forces_a_win_on_the_classic_board() {
        let mut prover = prover(3, 3);

        let x_wins = prover.wins(0, 0, true, UNBOUNDED, None);
        let o_wins = prover.wins(0, 0, false, UNBOUNDED, None);

        assert_eq!((x_wins, o_wins), (Some(false), Some(false)));
    }

    #[test]
    fn three_in_a_row_on_4x4_is_a_first_player_win() {
        let mut prover = prover(4, 3);

        assert_eq!(prover.wins(0, 0, true, UNBOUNDED, None), Some(true));
    }

    #[test]
    fn a_fork_wins_in_two_moves_and_not_in_one() {
        // 3 x 3: X on 0 and 8, O on 2 and 4. X must block at 6, which threatens 3 and 7.
        let (x, o) = (cells(&[0, 8]), cells(&[2, 4]));
        let mut prover = prover(3, 3);

        let fastest = prover.fastest_win(x, o, true, UNBOUNDED, None);

        assert_eq!(fastest, Some(Some(2)));
    }

    #[test]
    fn facing_two_threats_the_defender_loses() {
        // 3 x 3: X holds 0, 1 and 3 (threats at 2 and 6); O holds 4 and 8, O to move.
        let (x, o) = (cells(&[0, 1, 3]), cells(&[4, 8]));
        let mut prover = prover(3, 3);

        assert_eq!(prover.wins(x, o, false, 1, None), Some(true));
    }

    #[test]
    fn a_defender_that_wins_first_beats_the_attacker() {
        // 3 x 3: O to move holds 3 and 4 and wins at 5 before X's threats count.
        let (x, o) = (cells(&[0, 1, 6]), cells(&[3, 4]));
        let mut prover = prover(3, 3);

        assert_eq!(prover.wins(x, o, false, UNBOUNDED, None), Some(false));
    }

    /// A stub, not a mock: a clock that stands at 0 for its first `reads` readings and
    /// an hour later ever after, so the deadline passes at the `reads`-th look at the
    /// clock, whichever step of the search is looking. Nothing is expected of how often
    /// it is read: the count it also returns is a measurement (how long a full search
    /// is, to spread the cut-offs over), not an expectation.
    fn stopping_after(
        reads: u32,
    ) -> (
        crate::MockClock,
        std::sync::Arc<std::sync::atomic::AtomicU32>,
    ) {
        use std::sync::Arc;
        use std::sync::atomic::{AtomicU32, Ordering};
        use std::time::Duration;
        let count = Arc::new(AtomicU32::new(0));
        let counter = Arc::clone(&count);
        let mut clock = crate::MockClock::new();
        clock.expect_now().returning(move || {
            if counter.fetch_add(1, Ordering::Relaxed) < reads {
                Duration::ZERO
            } else {
                Duration::from_secs(3600)
            }
        });
        (clock, count)
    }

    /// Cut short at moments spread over the whole search, `analyze` claims only what it
    /// proved: each move it lists keeps what it claims (a win, or at least a draw for a
    /// draw cut short), and an answer it calls exact is the full one. Returns how many cut-offs gave moves but not an exact answer, and how
    /// many gave nothing.
    fn check_cut_offs(size: usize, win: usize, me: u64, opp: u64) -> (u32, u32) {
        let budget = std::time::Duration::from_millis(100);
        let (clock, reads) = stopping_after(u32::MAX);
        let full = prover(size, win)
            .analyze(me, opp, Some(&Deadline::after(&clock, budget)), None)
            .unwrap();
        let total = reads.load(std::sync::atomic::Ordering::Relaxed);
        let cut_offs = (1..8).chain((1..24).map(|i| 8 + i * total / 24));
        let mut judge = prover(size, win);
        let (mut partial, mut nothing) = (0, 0);
        for reads in cut_offs {
            let (clock, _) = stopping_after(reads);
            let deadline = Deadline::after(&clock, budget);

            // With a helper on a second thread: what the two settle is claimed only
            // when proven, wherever the deadline falls.
            let mut helper = prover(size, win);
            let outcome = prover(size, win).analyze(me, opp, Some(&deadline), Some(&mut helper));

            let Some(outcome) = outcome else {
                nothing += 1;
                continue;
            };
            if outcome.exact {
                assert_eq!(outcome, full, "cut off after {reads} reads");
                continue;
            }
            partial += 1;
            // A draw cut short is a bound: at least a draw (a win not ruled out).
            let bound = match (outcome.verdict, full.verdict) {
                (Verdict::Draw, Verdict::Win | Verdict::Draw) => true,
                (claimed, value) => claimed == value,
            };
            assert!(bound, "cut off after {reads} reads: {outcome:?}");
            let mut moves = outcome.best;
            while moves != 0 {
                let bit = moves & moves.wrapping_neg();
                moves &= moves - 1;
                let keeps = match outcome.verdict {
                    Verdict::Win => judge.wins(me | bit, opp, false, UNBOUNDED, None),
                    Verdict::Draw => judge.wins(opp, me | bit, true, UNBOUNDED, None).map(|w| !w),
                    Verdict::Loss => Some(true),
                };
                assert_eq!(keeps, Some(true), "cut off after {reads} reads: {bit:#x}");
            }
        }
        (partial, nothing)
    }

    #[test]
    fn a_draw_cut_short_lists_only_moves_that_keep_it_and_is_exact_only_when_complete() {
        // 5 x 5, four in a row, X on 18 (cell 17 from 0), O to move: a draw, kept by
        // O on 8, 13, 17 and 19 only.
        let (partial, _) = check_cut_offs(5, 4, 0, 1 << 17);

        assert!(
            partial > 0,
            "some cut-off falls between a proven move and the end"
        );
    }

    /// A fake progress: it keeps what it is told, for the test to read.
    struct Seen(std::sync::Arc<std::sync::Mutex<Vec<Proven>>>);

    impl Progress for Seen {
        fn proven(&mut self, so_far: Proven) {
            self.0.lock().unwrap().push(so_far);
        }
    }

    #[test]
    fn a_proof_reports_what_it_has_settled_in_order_and_ends_with_every_move_settled() {
        // Arrange: 5 x 5, four in a row, X on 18, O to move: a draw, kept by O on 8, 13,
        // 17 and 19 only (the other 20 of its 24 moves lose).
        let seen = std::sync::Arc::default();
        let mut prover = prover(5, 4);
        prover.report_to(Some(Box::new(Seen(std::sync::Arc::clone(&seen)))));

        // Act
        let outcome = prover.analyze(0, 1 << 17, None, None).unwrap();

        // Assert
        let seen = seen.lock().unwrap();
        let stages: Vec<Stage> = seen.iter().map(|p| p.stage).collect();
        assert!(stages.is_sorted_by_key(|stage| *stage as u8), "{stages:?}");
        assert_eq!(stages.first(), Some(&Stage::ShortWin));
        assert!(seen.iter().all(|p| p.moves == 24), "{seen:?}");
        assert!(
            seen.windows(2)
                .all(|w| w[1].holding + w[1].losing >= w[0].holding + w[0].losing),
            "what is settled never goes back: {seen:?}"
        );
        let last = seen.last().unwrap();
        assert_eq!(outcome.best.count_ones(), 4);
        assert_eq!((last.holding, last.losing), (4, 20), "{last:?}");
    }

    #[test]
    fn a_loss_cut_short_is_never_claimed_before_every_move_is_proven_to_lose() {
        // 7 x 7, three in a row, X in the centre, O to move: lost (X forks soon).
        let (_, nothing) = check_cut_offs(7, 3, 0, 1 << 24);

        assert!(nothing > 0, "some cut-off leaves nothing proven");
    }

    #[test]
    fn a_win_cut_short_lists_only_winning_moves() {
        // 5 x 5, four in a row: X on 7, 8 and 12 and O on 0 and 24, X to move, wins.
        let (partial, _) = check_cut_offs(5, 4, cells(&[6, 7, 11]), cells(&[0, 24]));

        assert!(partial > 0, "some cut-off finds a win but not the fastest");
    }

    /// Can the attacker force a win within `depth` of its moves? Every move tried, no
    /// zones, no draw proofs, no symmetry: the plainest AND/OR search, remembered by
    /// exact position.
    fn plain_wins(
        shape: &Shape,
        (a, d, attacker_to_move, depth): (u64, u64, bool, u8),
        memo: &mut HashMap<(u64, u64, bool, u8), bool>,
    ) -> bool {
        if let Some(&known) = memo.get(&(a, d, attacker_to_move, depth)) {
            return known;
        }
        let empty = shape.all & !(a | d);
        let won = if attacker_to_move {
            let now = shape.threats(a, d) & empty != 0;
            now || (depth > 1
                && (0..49)
                    .map(|c| 1u64 << c)
                    .filter(|bit| empty & bit != 0)
                    .any(|bit| plain_wins(shape, (a | bit, d, false, depth - 1), memo)))
        } else if shape.threats(d, a) & empty != 0 || empty == 0 {
            false
        } else {
            (0..49)
                .map(|c| 1u64 << c)
                .filter(|bit| empty & bit != 0)
                .all(|bit| plain_wins(shape, (a, d | bit, true, depth), memo))
        };
        memo.insert((a, d, attacker_to_move, depth), won);
        won
    }

    /// A position `stones` moves into a random game in which nobody has won yet.
    fn random_position(shape: &Shape, stones: u32, seed: u64) -> Option<(u64, u64)> {
        let mut state = seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1;
        let (mut x, mut o) = (0u64, 0u64);
        for ply in 0..stones {
            let empty = shape.all & !(x | o);
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let pick = (state % u64::from(empty.count_ones())) as u32;
            let mut cells = empty;
            for _ in 0..pick {
                cells &= cells - 1;
            }
            let bit = cells & cells.wrapping_neg();
            let (mover, other) = if ply % 2 == 0 {
                (&mut x, o)
            } else {
                (&mut o, x)
            };
            if shape.threats(*mover, other) & bit != 0 {
                return None;
            }
            *mover |= bit;
        }
        Some((x, o))
    }

    /// The relevance zones skip moves; this checks that no skipped move was a win, on
    /// positions with enough empty cells for zones to matter, for the attacker to move
    /// and not, at every depth (a depth bound makes its own zones).
    #[rstest::rstest]
    #[case::four_on_5x5(5, 4, 13)]
    #[case::five_on_6x6(6, 5, 24)]
    fn the_proof_search_agrees_with_a_plain_search_on_random_positions(
        #[case] size: usize,
        #[case] win: usize,
        #[case] stones: u32,
    ) {
        let shape = Shape::new(Geometry::new(size, win).unwrap());
        let mut checked = 0;
        for seed in 0..250 {
            let Some((x, o)) = random_position(&shape, stones, seed) else {
                continue;
            };
            let mut memo = HashMap::new();
            let mut prover = Prover::new(shape.geometry, &Memory::default());
            for (a, d, attacker_to_move) in [(x, o, false), (o, x, true)] {
                for depth in [2, 3, UNBOUNDED] {
                    let plain = plain_wins(&shape, (a, d, attacker_to_move, depth), &mut memo);

                    let proven = prover.wins(a, d, attacker_to_move, depth, None);

                    assert_eq!(
                        proven,
                        Some(plain),
                        "{x:#x} {o:#x} {attacker_to_move} {depth}"
                    );
                }
            }
            checked += 1;
        }
        assert!(checked > 50, "only {checked} positions");
    }

    /// The cells of `cells`, one bit each.
    fn each(cells: u64) -> impl Iterator<Item = u64> {
        (0..64)
            .map(|c| 1u64 << c)
            .filter(move |bit| cells & bit != 0)
    }

    /// What a zone promises (see [`Zone`]): when the attacker cannot win, giving it
    /// extra marks on empty cells outside the zone of that answer (one or two, in every
    /// way that completes no line) still leaves it unable to win within the same depth.
    #[rstest::rstest]
    #[case::four_on_5x5(5, 4, 13)]
    #[case::five_on_6x6(6, 5, 24)]
    fn extra_attacker_marks_outside_a_zone_leave_the_attacker_unable_to_win(
        #[case] size: usize,
        #[case] win: usize,
        #[case] stones: u32,
    ) {
        let shape = Shape::new(Geometry::new(size, win).unwrap());
        let complete = |marks: u64| {
            (shape.masks().iter()).any(|&mask| (marks & mask).count_ones() == shape.win_length())
        };
        let mut memo = HashMap::new();
        let mut checked = 0;
        for seed in 0..100 {
            let Some((x, o)) = random_position(&shape, stones, seed) else {
                continue;
            };
            let mut prover = Prover::new(shape.geometry, &Memory::default());
            for (a, d, attacker_to_move) in [(x, o, false), (o, x, true)] {
                for depth in [1, 2, 3, UNBOUNDED] {
                    if prover.wins(a, d, attacker_to_move, depth, None) != Some(false) {
                        continue;
                    }
                    let outside = shape.all & !(a | d | prover.zone);
                    for first in each(outside) {
                        for second in each(outside & !(first - 1)) {
                            let more = a | first | second;
                            if complete(more) {
                                continue;
                            }

                            let wins =
                                plain_wins(&shape, (more, d, attacker_to_move, depth), &mut memo);

                            assert!(
                                !wins,
                                "{a:#x} {d:#x} {attacker_to_move} {depth}: zone {:#x}, more {more:#x}",
                                prover.zone
                            );
                            checked += 1;
                        }
                    }
                }
            }
        }
        assert!(checked > 1000, "only {checked} checks");
    }
}
