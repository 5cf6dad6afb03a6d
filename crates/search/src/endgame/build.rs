//! Building the database by retrograde analysis, one signature and its colour-swapped mirror
//! at a time (a quiet move leads from one to the other; captures and crownings lead to smaller
//! signatures, solved before).
//!
//! A first scan settles the positions with no move (lost) and notes, for every capture or
//! crowning into a solved signature, the pass at which that child could decide the position.
//! Pass `n` then re-examines only the candidates: those notes, and the quiet-move predecessors
//! of the positions pass `n - 1` settled. Every position is still decided by
//! [`EndgameDb::settle`] from the moves the rules engine generates; the predecessors only say
//! which positions are worth asking, so a draw is examined a few times, not once per pass.

use std::thread;

use draughts::Counters;
use draughts::RANK_1;
use draughts::{Color, MoveList, Position};

use super::index::{groups_of, slot, Sig};
use super::{decode, encode, EndgameDb, Outcome};

/// Candidates are packed as `signature in group << 32 | index`.
fn pack(k: usize, idx: usize) -> u64 {
    ((k as u64) << 32) | idx as u64
}

fn unpack(c: u64) -> (usize, usize) {
    ((c >> 32) as usize, (c & 0xFFFF_FFFF) as usize)
}

/// Drawn by the rules at once (a lone king on the main road against three): never settled.
fn drawn_by_rule(pos: &Position) -> bool {
    Counters::new(pos).draw(pos).is_some()
}

/// Runs `f` on every item index in `0..n`, split over `threads` scoped threads, and gathers
/// what it pushes.
fn par_collect<R: Send>(
    n: usize,
    threads: usize,
    f: impl Fn(usize, &mut Vec<R>, &mut MoveList) + Sync,
) -> Vec<R> {
    let chunk = n.div_ceil(threads.max(1)).max(1);
    let f = &f;
    thread::scope(|s| {
        let handles: Vec<_> = (0..n)
            .step_by(chunk)
            .map(|start| {
                s.spawn(move || {
                    let mut out = Vec::new();
                    let mut list = MoveList::new();
                    for i in start..(start + chunk).min(n) {
                        f(i, &mut out, &mut list);
                    }
                    out
                })
            })
            .collect();
        handles
            .into_iter()
            // A worker's panic is a bug in the builder: pass it on rather than leave its share
            // of the table unsettled (and so wrongly drawn).
            .flat_map(|h| h.join().unwrap_or_else(|e| std::panic::resume_unwind(e)))
            .collect()
    })
}

impl EndgameDb {
    /// Builds the database for up to `pieces` pieces (at most [`super::MAX_PIECES`]) on
    /// `threads` threads.
    pub fn build(pieces: u32, threads: usize) -> EndgameDb {
        let mut db = EndgameDb::empty(pieces);
        let mut sigs: Vec<Sig> = Vec::new();
        for total in 2..=db.max_pieces as u8 {
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
        // A crowning moves to fewer men, a capture to fewer pieces: solve those first.
        sigs.sort_by_key(|s| (s[0] + s[1] + s[2] + s[3], s[0] + s[2]));
        for &sig in &sigs {
            let Some(s) = slot(sig) else { continue };
            if !db.tables[s].is_empty() {
                continue;
            }
            let mirror = [sig[2], sig[3], sig[0], sig[1]];
            let group: Vec<Sig> = if mirror == sig {
                vec![sig]
            } else {
                vec![sig, mirror]
            };
            for &g in &group {
                if let Some(s) = slot(g) {
                    db.tables[s] = vec![0u8; db.ix.table_len(g)];
                }
            }
            db.solve(&group, threads.max(1));
        }
        db
    }

    /// The code `pos` (White to move) gets at pass `n`, if it is settled then.
    pub(super) fn settle(&self, pos: &Position, n: u8, list: &mut MoveList) -> Option<u8> {
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

    /// Settles the signatures of `group` (a signature and its mirror).
    fn solve(&mut self, group: &[Sig], threads: usize) {
        let Some(slots) = group
            .iter()
            .map(|&g| slot(g))
            .collect::<Option<Vec<usize>>>()
        else {
            return;
        };
        // Candidates per pass, from the scan: positions with no move (pass 0), and positions
        // with a capture or crowning into a result in `d` plies (pass `d + 1`).
        let mut noted: Vec<Vec<u64>> = vec![Vec::new(); usize::from(u8::MAX) + 1];
        for (k, &sig) in group.iter().enumerate() {
            let db = &*self;
            let found: Vec<(u8, u64)> =
                par_collect(db.ix.table_len(sig), threads, |i, out, list| {
                    let Some(pos) = db.ix.position(sig, i) else {
                        return;
                    };
                    if drawn_by_rule(&pos) {
                        return;
                    }
                    list.clear();
                    pos.generate_into(list);
                    if list.is_empty() {
                        out.push((0, pack(k, i)));
                    }
                    for mv in list.iter().filter(|m| m.is_capture() || m.promotes()) {
                        if let Some(Outcome::Win(d) | Outcome::Loss(d)) =
                            db.code(&pos.after(mv).mirror()).map(decode)
                        {
                            out.push((d.saturating_add(1), pack(k, i)));
                        }
                    }
                });
            for (pass, c) in found {
                noted[usize::from(pass)].push(c);
            }
        }
        let mut frontier: Vec<u64> = Vec::new();
        for n in 0..=u8::MAX {
            let mut candidates = self.predecessors(group, &frontier, threads);
            candidates.append(&mut noted[usize::from(n)]);
            candidates.sort_unstable();
            candidates.dedup();
            let db = &*self;
            let found: Vec<(u64, u8)> = par_collect(candidates.len(), threads, |j, out, list| {
                let c = candidates[j];
                let (k, i) = unpack(c);
                if db.tables[slots[k]][i] != 0 {
                    return;
                }
                let Some(pos) = db.ix.position(group[k], i) else {
                    return;
                };
                if drawn_by_rule(&pos) {
                    return;
                }
                if let Some(code) = db.settle(&pos, n, list) {
                    out.push((c, code));
                }
            });
            for &(c, code) in &found {
                let (k, i) = unpack(c);
                self.tables[slots[k]][i] = code;
            }
            frontier = found.into_iter().map(|(c, _)| c).collect();
            let later = noted[usize::from(n) + 1..].iter().any(|v| !v.is_empty());
            if frontier.is_empty() && !later {
                return;
            }
        }
    }

    /// The positions of `group` (White to move) from which a quiet move leads to one of
    /// `children`. Found by moving each piece of the side that just moved backwards: a king
    /// along its diagonals, a man one step back. The rules engine supplies the geometry, as
    /// the moves of the same piece on a board with no opponent to capture.
    fn predecessors(&self, group: &[Sig], children: &[u64], threads: usize) -> Vec<u64> {
        par_collect(children.len(), threads, |j, out, list| {
            let (k, i) = unpack(children[j]);
            let Some(child) = self.ix.position(group[k], i) else {
                return;
            };
            // The child is stored turned for its side to move; turned back, White just moved.
            let after = child.mirror();
            let occupied = after.occupied();
            let kings = after.all_kings();
            let white = after.pieces(Color::White);
            let mut movers = white;
            while movers != 0 {
                let t = movers & movers.wrapping_neg();
                movers &= movers - 1;
                let is_king = kings & t != 0;
                let helper = if is_king {
                    Position::from_boards(occupied, 0, occupied, Color::White)
                } else if t & RANK_1 != 0 {
                    continue;
                } else {
                    // A man steps back the way an opposing man steps forward.
                    Position::from_boards(0, occupied, occupied & !t, Color::Black)
                };
                list.clear();
                helper.generate_into(list);
                for mv in list.iter().filter(|m| m.from().mask() == t) {
                    let s = mv.to().mask();
                    let moved = |b: u64| (b & !t) | s;
                    let parent = Position::from_boards(
                        moved(white),
                        after.pieces(Color::Black),
                        if is_king { moved(kings) } else { kings },
                        Color::White,
                    );
                    let (sig, groups) = groups_of(&parent);
                    let Some(pk) = group.iter().position(|&g| g == sig) else {
                        continue;
                    };
                    if let Some(idx) = self.ix.index(sig, &groups) {
                        out.push(pack(pk, idx));
                    }
                }
            }
        })
    }
}
