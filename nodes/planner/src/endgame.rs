//! An endgame database: for every position of up to a few pieces, whether the side to move wins,
//! loses or draws under the rules, and in how many plies. Alpha-beta reads it at its leaves, so
//! it knows which small endings are won (and plays them out by the shortest win) and which are
//! dead draws, where its evaluation only guesses from material.
//!
//! Built in memory by value iteration: pass `n` settles the positions won or lost in exactly `n`
//! plies, from the moves the rules engine generates (so captures, forced captures and crowning
//! are the engine's), until a pass settles nothing new. What is never settled is a draw, and so
//! are the positions the rules call drawn at once (a lone king on the main road against three).
//! The counting rules (15 moves against a lone king, 5 with two pieces, 30 in small king
//! endings) depend on the game's history, so the search checks them at the probe, not here.

use std::sync::{Arc, Mutex};
use std::thread;

use draughts::game::Counters;
use draughts::square::VALID;
use draughts::{Color, MoveList, Position};

/// Pieces on the board for which the database is built by default: every ending of up to four
/// pieces, 6.4 million positions with White to move, kept in 27 MB.
pub const DEFAULT_PIECES: u32 = 4;
/// The most pieces a database may hold: five would need over 1 GB with this simple indexing.
pub const MAX_PIECES: u32 = 4;

/// Counts of white men, white kings, black men and black kings, with White to move.
type Sig = [u8; 4];

/// What the side to move gets with best play, in plies to the end of the game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Win(u8),
    Loss(u8),
    Draw,
}

/// Byte codes in the tables: 0 is a draw (or, while building, not settled yet); `c > 0` is a
/// result in `c - 1` plies, a loss for the side to move when that is even, a win when odd.
fn decode(code: u8) -> Outcome {
    match code {
        0 => Outcome::Draw,
        c if (c - 1) % 2 == 0 => Outcome::Loss(c - 1),
        c => Outcome::Win(c - 1),
    }
}

fn encode(plies: u8) -> u8 {
    plies + 1
}

/// Squares in the 0..32 order of their bits.
struct Squares {
    dense_of_bit: [u8; 64],
    bit_of_dense: [u64; 32],
}

impl Squares {
    fn new() -> Squares {
        let mut dense_of_bit = [0u8; 64];
        let mut bit_of_dense = [0u64; 32];
        let mut n = 0usize;
        for bit in 0..64u8 {
            if VALID & (1u64 << bit) != 0 {
                dense_of_bit[bit as usize] = n as u8;
                bit_of_dense[n] = 1u64 << bit;
                n += 1;
            }
        }
        Squares {
            dense_of_bit,
            bit_of_dense,
        }
    }
}

/// The table id of each signature, `5^4` slots (no side has more than four pieces here).
fn slot(sig: Sig) -> usize {
    sig.iter().fold(0, |a, &c| a * 5 + c as usize)
}

pub struct EndgameDb {
    max_pieces: u32,
    squares: Squares,
    /// Indexed by [`slot`]; empty where the signature is not in the database.
    tables: Vec<Vec<u8>>,
}

impl std::fmt::Debug for EndgameDb {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "EndgameDb({} pieces)", self.max_pieces)
    }
}

/// Men may not stand on their own crowning row.
const WHITE_CROWN: u64 = draughts::position::RANK_8;
const BLACK_CROWN: u64 = draughts::position::RANK_1;

impl EndgameDb {
    /// Builds the database for up to `pieces` pieces (at most [`MAX_PIECES`]) on `threads`
    /// threads.
    pub fn build(pieces: u32, threads: usize) -> EndgameDb {
        let max_pieces = pieces.min(MAX_PIECES);
        let mut db = EndgameDb {
            max_pieces,
            squares: Squares::new(),
            tables: vec![Vec::new(); 625],
        };
        let mut sigs: Vec<Sig> = Vec::new();
        for total in 2..=max_pieces as u8 {
            for wm in 0..=total {
                for wk in 0..=total - wm {
                    for bm in 0..=total - wm - wk {
                        let bk = total - wm - wk - bm;
                        if wm + wk > 0 && bm + bk > 0 {
                            sigs.push([wm, wk, bm, bk]);
                        }
                    }
                }
            }
        }
        // A crowning moves to fewer men, a capture to fewer pieces: solve those first. A quiet
        // move leads to the colour-swapped signature, so each is solved with its mirror.
        sigs.sort_by_key(|s| (s[0] + s[1] + s[2] + s[3], s[0] + s[2]));
        let mut max_plies = 0u8;
        let mut done = vec![false; 625];
        for &sig in &sigs {
            if done[slot(sig)] {
                continue;
            }
            let mirror = [sig[2], sig[3], sig[0], sig[1]];
            let group: Vec<Sig> = if mirror == sig {
                vec![sig]
            } else {
                vec![sig, mirror]
            };
            for s in &group {
                done[slot(*s)] = true;
                db.tables[slot(*s)] = vec![0u8; 32usize.pow(u32::from(s.iter().sum::<u8>()))];
            }
            max_plies = max_plies.max(db.solve(&group, max_plies, threads.max(1)));
        }
        db
    }

    pub fn max_pieces(&self) -> u32 {
        self.max_pieces
    }

    /// Checks every stored result against one ply of play: a win in `d` has a move to a loss
    /// in `d - 1` and none to a shorter loss, a loss in `d` has only moves to wins (the longest
    /// in `d - 1`), a draw has no move to a loss and some move to a draw. Returns how many
    /// positions it checked, or the first that disagrees.
    pub fn verify(&self) -> Result<usize, String> {
        let mut list = MoveList::new();
        let mut checked = 0;
        for sig in self.signatures() {
            let table = &self.tables[slot(sig)];
            for i in self.placements(sig) {
                let pos = self.unindex(sig, i as usize);
                let got = decode(table[i as usize]);
                let want = if Counters::new(&pos).draw(&pos).is_some() {
                    Outcome::Draw
                } else {
                    list.clear();
                    pos.generate_into(&mut list);
                    let children: Vec<Option<Outcome>> = list
                        .iter()
                        .map(|m| self.code(&pos.after(m).mirror()).map(decode))
                        .collect();
                    if children.iter().any(Option::is_none) {
                        return Err(format!("a child of {} is missing", draughts::to_fen(&pos)));
                    }
                    let children: Vec<Outcome> = children.into_iter().flatten().collect();
                    let shortest_loss = children
                        .iter()
                        .filter_map(|c| match c {
                            Outcome::Loss(d) => Some(*d),
                            _ => None,
                        })
                        .min();
                    let longest_win = children
                        .iter()
                        .map(|c| match c {
                            Outcome::Win(d) => Some(*d),
                            _ => None,
                        })
                        .collect::<Option<Vec<u8>>>()
                        .and_then(|w| w.into_iter().max());
                    match (children.is_empty(), shortest_loss, longest_win) {
                        (true, _, _) => Outcome::Loss(0),
                        (_, Some(d), _) => Outcome::Win(d + 1),
                        (_, None, Some(d)) => Outcome::Loss(d + 1),
                        _ => Outcome::Draw,
                    }
                };
                if got != want {
                    return Err(format!(
                        "{}: stored {got:?}, one ply of play says {want:?}",
                        draughts::to_fen(&pos)
                    ));
                }
                checked += 1;
            }
        }
        Ok(checked)
    }

    /// Per signature in the database (White to move): wins, draws, losses and the longest
    /// result in plies.
    pub fn summary(&self) -> Vec<(String, [usize; 3], u8)> {
        let pieces = |men: u8, kings: u8| "m".repeat(men as usize) + &"K".repeat(kings as usize);
        self.signatures()
            .map(|sig| {
                let table = &self.tables[slot(sig)];
                let mut count = [0usize; 3];
                let mut longest = 0;
                for i in self.placements(sig) {
                    match decode(table[i as usize]) {
                        Outcome::Win(d) => {
                            count[0] += 1;
                            longest = longest.max(d);
                        }
                        Outcome::Draw => count[1] += 1,
                        Outcome::Loss(d) => {
                            count[2] += 1;
                            longest = longest.max(d);
                        }
                    }
                }
                let name = format!("{}v{}", pieces(sig[0], sig[1]), pieces(sig[2], sig[3]));
                (name, count, longest)
            })
            .collect()
    }

    /// The signatures the database holds, in table order.
    fn signatures(&self) -> impl Iterator<Item = Sig> + '_ {
        (0..self.tables.len())
            .filter(|&s| !self.tables[s].is_empty())
            .map(|s| [s / 125, s / 25 % 5, s / 5 % 5, s % 5].map(|c| c as u8))
    }

    /// The result for the side to move in `pos`, if `pos` has few enough pieces.
    pub fn probe(&self, pos: &Position) -> Option<Outcome> {
        if pos.occupied().count_ones() > self.max_pieces {
            return None;
        }
        let white = match pos.side_to_move() {
            Color::White => *pos,
            Color::Black => pos.mirror(),
        };
        self.code(&white).map(decode)
    }

    /// The stored code of a position with White to move; `None` if it is not in the database.
    fn code(&self, pos: &Position) -> Option<u8> {
        let groups = [
            pos.men(Color::White),
            pos.kings(Color::White),
            pos.men(Color::Black),
            pos.kings(Color::Black),
        ];
        let sig = groups.map(|g| g.count_ones() as u8);
        if sig[0] + sig[1] == 0 {
            // No pieces, no moves: lost now.
            return Some(encode(0));
        }
        let table = self.tables.get(slot_checked(sig)?)?;
        if table.is_empty() {
            return None;
        }
        table.get(self.index(&groups)).copied()
    }

    fn index(&self, groups: &[u64; 4]) -> usize {
        let mut idx = 0usize;
        for &g in groups {
            let mut b = g;
            while b != 0 {
                let bit = b.trailing_zeros() as usize;
                b &= b - 1;
                idx = idx * 32 + self.squares.dense_of_bit[bit] as usize;
            }
        }
        idx
    }

    /// Every legal placement of `sig` with White to move, as table indices.
    fn placements(&self, sig: Sig) -> Vec<u32> {
        let mut out = Vec::new();
        let mut groups = [0u64; 4];
        self.place(sig, 0, 0, 0, &mut groups, &mut out);
        out
    }

    fn place(
        &self,
        sig: Sig,
        group: usize,
        placed: u8,
        from: usize,
        groups: &mut [u64; 4],
        out: &mut Vec<u32>,
    ) {
        if group == 4 {
            let pos = self.position(groups);
            if pos.validate().is_ok() {
                out.push(self.index(groups) as u32);
            }
            return;
        }
        if placed == sig[group] {
            self.place(sig, group + 1, 0, 0, groups, out);
            return;
        }
        let taken = groups.iter().fold(0, |a, g| a | g);
        let banned = match group {
            0 => WHITE_CROWN,
            2 => BLACK_CROWN,
            _ => 0,
        };
        for d in from..32 {
            let bit = self.squares.bit_of_dense[d];
            if bit & (taken | banned) != 0 {
                continue;
            }
            groups[group] |= bit;
            self.place(sig, group, placed + 1, d + 1, groups, out);
            groups[group] &= !bit;
        }
    }

    fn position(&self, groups: &[u64; 4]) -> Position {
        Position::from_boards(
            groups[0] | groups[1],
            groups[2] | groups[3],
            groups[1] | groups[3],
            Color::White,
        )
    }

    fn unindex(&self, sig: Sig, mut idx: usize) -> Position {
        let mut groups = [0u64; 4];
        for g in (0..4).rev() {
            for _ in 0..sig[g] {
                groups[g] |= self.squares.bit_of_dense[idx % 32];
                idx /= 32;
            }
        }
        self.position(&groups)
    }

    /// The code `pos` (White to move) gets at pass `n`, if it is settled then.
    fn settle(&self, pos: &Position, n: u8, list: &mut MoveList) -> Option<u8> {
        list.clear();
        pos.generate_into(list);
        if list.is_empty() {
            return Some(encode(0));
        }
        if n == 0 {
            return None;
        }
        let mut all_won = true;
        let mut longest = 0u8;
        for mv in list.iter() {
            let child = pos.after(mv).mirror();
            match self.code(&child).map(decode) {
                Some(Outcome::Loss(d)) if d < n => return Some(encode(d + 1)),
                Some(Outcome::Win(d)) if d < n => longest = longest.max(d),
                _ => all_won = false,
            }
        }
        (all_won && longest + 1 == n).then(|| encode(n))
    }

    /// Settles the signatures of `group` (a signature and its mirror); returns the longest
    /// result found so far, in plies.
    fn solve(&mut self, group: &[Sig], max_before: u8, threads: usize) -> u8 {
        let mut pending: Vec<(usize, Vec<u32>)> = Vec::new();
        for &sig in group {
            let mut all = self.placements(sig);
            // Drawn at once by the rules (a lone king on the main road against three).
            all.retain(|&i| {
                let pos = self.unindex(sig, i as usize);
                Counters::new(&pos).draw(&pos).is_none()
            });
            pending.push((slot(sig), all));
        }
        let mut longest = max_before;
        let mut n: u8 = 0;
        loop {
            let mut settled_any = false;
            for (k, &sig) in group.iter().enumerate() {
                let todo = &pending[k].1;
                let chunk = todo.len().div_ceil(threads).max(1);
                let db = &*self;
                let found: Vec<(u32, u8)> = thread::scope(|s| {
                    let handles: Vec<_> = todo
                        .chunks(chunk)
                        .map(|part| {
                            s.spawn(move || {
                                let mut list = MoveList::new();
                                part.iter()
                                    .filter_map(|&i| {
                                        let pos = db.unindex(sig, i as usize);
                                        db.settle(&pos, n, &mut list).map(|c| (i, c))
                                    })
                                    .collect::<Vec<_>>()
                            })
                        })
                        .collect();
                    handles
                        .into_iter()
                        .flat_map(|h| h.join().unwrap_or_default())
                        .collect()
                });
                if !found.is_empty() {
                    settled_any = true;
                    let table = &mut self.tables[pending[k].0];
                    for &(i, c) in &found {
                        table[i as usize] = c;
                    }
                    longest = longest.max(n);
                }
            }
            if settled_any {
                for (s, todo) in pending.iter_mut() {
                    let table = &self.tables[*s];
                    todo.retain(|&i| table[i as usize] == 0);
                }
            } else if n > max_before.saturating_add(1) || n == u8::MAX - 1 {
                return longest;
            }
            n += 1;
        }
    }
}

/// The database of up to `pieces` pieces, built on first use (seconds, on `threads` threads) and
/// then shared by every planner of the process.
pub fn shared(pieces: u32, threads: usize) -> Arc<EndgameDb> {
    static BUILT: Mutex<Vec<Arc<EndgameDb>>> = Mutex::new(Vec::new());
    let pieces = pieces.min(MAX_PIECES);
    // Held while building, so a second planner waits for the first build instead of repeating it.
    let mut built = BUILT.lock().unwrap_or_else(|e| e.into_inner());
    if let Some(db) = built.iter().find(|d| d.max_pieces == pieces) {
        return Arc::clone(db);
    }
    let started = std::time::Instant::now();
    let db = Arc::new(EndgameDb::build(pieces, threads.max(1)));
    tracing::info!(
        pieces,
        seconds = started.elapsed().as_secs_f64(),
        "endgame database built"
    );
    built.push(Arc::clone(&db));
    db
}

fn slot_checked(sig: Sig) -> Option<usize> {
    sig.iter().all(|&c| c < 5).then(|| slot(sig))
}

#[cfg(test)]
mod tests {
    use super::*;
    use draughts::parse_fen;

    fn db3() -> EndgameDb {
        EndgameDb::build(3, 2)
    }

    #[test]
    fn small_endings_are_known() {
        let db = db3();
        // Two kings cannot catch a lone king on the open board.
        let p = parse_fen("W:WK1,K3:BK32").expect("fen");
        assert_eq!(db.probe(&p), Some(Outcome::Draw));
        // A king against a king.
        let lone = parse_fen("W:WK29:BK1").expect("fen");
        assert_eq!(db.probe(&lone), Some(Outcome::Draw));
        // Too many pieces: not in the database.
        assert_eq!(db.probe(&Position::start()), None);
    }

    #[test]
    fn alphabeta_plays_the_shortest_win() {
        use crate::alphabeta::AlphaBeta;
        use crate::{Control, Limits, Planner, WIN_SCORE};
        let db = Arc::new(db3());
        // Two men against a lone king, won in more plies than the search looks ahead.
        let (pos, plies) = db
            .placements([2, 0, 0, 1])
            .into_iter()
            .map(|i| db.unindex([2, 0, 0, 1], i as usize))
            .find_map(|p| match db.probe(&p) {
                Some(Outcome::Win(d)) if d >= 7 => Some((p, d)),
                _ => None,
            })
            .expect("a long win");
        let mut ab = AlphaBeta::new().with_endgame(Arc::clone(&db));
        let limits = Limits {
            depth: Some(3),
            ..Limits::default()
        };
        let game = draughts::Game::from_position(pos);
        let d = ab
            .choose(&game, &limits, &Control::default())
            .expect("a move");
        assert_eq!(d.value, WIN_SCORE - i32::from(plies));
        assert_eq!(
            db.probe(&pos.after(&d.best)),
            Some(Outcome::Loss(plies - 1))
        );
    }

    #[test]
    fn results_agree_with_one_ply_of_play() {
        let checked = db3().verify().expect("consistent");
        assert!(checked > 100_000, "{checked}");
    }
}
