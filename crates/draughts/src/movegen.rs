//! Legal move generation: quiet moves, and captures per RULES.md (forced, free choice among
//! them, men capture backwards, flying kings with the landing rule, Turkish strike, crowning
//! during a capture continuing as a king, sequences played to the end).

use smallvec::SmallVec;

use crate::moves::{Move, MAX_PATH};
use crate::position::{Color, Position};
use crate::square::{Square, VALID};

/// Legal moves of one position. Inline up to 128 moves; larger lists (possible only in
/// contrived king positions) spill to the heap rather than being cut short.
pub type MoveList = SmallVec<[Move; 128]>;

const NE: i8 = 5;
const NW: i8 = 4;
const SE: i8 = -4;
const SW: i8 = -5;
const DIRS: [i8; 4] = [NE, NW, SE, SW];

#[inline(always)]
fn shift(bb: u64, d: i8) -> u64 {
    (if d > 0 { bb << d } else { bb >> -d }) & VALID
}

/// [`shift`] without the mask, where what it is combined with already keeps the result on the
/// board.
#[inline(always)]
fn shift_raw(bb: u64, d: i8) -> u64 {
    if d > 0 {
        bb << d
    } else {
        bb >> -d
    }
}

#[inline(always)]
fn forward_dirs(side: Color) -> [i8; 2] {
    match side {
        Color::White => [NE, NW],
        Color::Black => [SE, SW],
    }
}

/// The squares a king on `sq` reaches sliding along `d` over empty squares.
#[inline(always)]
fn ray(sq: u64, d: i8, empty: u64) -> u64 {
    let mut out = 0;
    let mut t = shift(sq, d) & empty;
    while t != 0 {
        out |= t;
        t = shift(t, d) & empty;
    }
    out
}

/// Whether a king on `at` can take one of `targets`, looking along every direction but `back`
/// (the way it came, where the piece it just took blocks it; 0 for none).
#[inline(always)]
fn king_can_capture(at: u64, targets: u64, empty: u64, back: i8) -> bool {
    for d in DIRS {
        if d == back {
            continue;
        }
        let mut t = shift(at, d);
        while t & empty != 0 {
            t = shift(t, d);
        }
        if t & targets != 0 && shift(t, d) & empty != 0 {
            return true;
        }
    }
    false
}

impl Position {
    /// Every legal move, captures only when any capture exists.
    pub fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_into(&mut list);
        list
    }

    /// Fills `list` (cleared first) with every legal move.
    #[inline]
    pub fn generate_into(&self, list: &mut MoveList) {
        list.clear();
        let jumpers = self.men_that_capture();
        if jumpers != 0 || self.kings_can_capture() {
            self.captures_into(jumpers, &mut ListSink { list, first: 0 });
        } else {
            self.generate_quiet(list);
        }
    }

    /// The men of the side to move that can start a capture.
    #[inline]
    fn men_that_capture(&self) -> u64 {
        let [a, b, c, d] = self.jumps_from();
        (a | b | c | d) & self.men(self.side_to_move())
    }

    /// The squares from which a man of the side to move would jump along each of [`DIRS`],
    /// on the board as it stands.
    #[inline(always)]
    fn jumps_from(&self) -> [u64; 4] {
        let opp = self.pieces(self.side_to_move().opponent());
        let empty = self.empty_squares();
        // Unmasked: `opp` is on the board, and so is whatever the result is combined with
        // (the men, or landings).
        DIRS.map(|d| shift_raw(shift_raw(empty, -d) & opp, -d))
    }

    /// Whether the side to move must capture.
    #[inline]
    pub fn has_capture(&self) -> bool {
        self.men_that_capture() != 0 || self.kings_can_capture()
    }

    #[inline]
    fn kings_can_capture(&self) -> bool {
        let side = self.side_to_move();
        let opp = self.pieces(side.opponent());
        let empty = self.empty_squares();
        let mut kings = self.kings(side);
        while kings != 0 {
            let k = kings & kings.wrapping_neg();
            kings ^= k;
            if king_can_capture(k, opp, empty, 0) {
                return true;
            }
        }
        false
    }

    /// Number of legal moves, without building the list (perft's bulk counting).
    #[inline]
    pub fn count_legal(&self) -> usize {
        let side = self.side_to_move();
        let jumps = self.jumps_from();
        if (jumps[0] | jumps[1] | jumps[2] | jumps[3]) & self.men(side) != 0
            || self.kings_can_capture()
        {
            return self.count_captures(jumps);
        }
        let empty = self.empty_squares();
        let men = self.men(side);
        let mut n = 0;
        for d in forward_dirs(side) {
            n += (shift_raw(men, d) & empty).count_ones();
        }
        let mut kings = self.kings(side);
        while kings != 0 {
            let k = kings & kings.wrapping_neg();
            kings ^= k;
            for d in DIRS {
                n += ray(k, d, empty).count_ones();
            }
        }
        n as usize
    }

    /// Number of captures, given [`Self::jumps_from`]. Most are one jump that cannot go on: a
    /// man whose every jump lands short of the crowning rank with nothing more to take is
    /// counted from bitboards, and only the other men and the kings are searched square by
    /// square.
    #[inline]
    fn count_captures(&self, jumps: [u64; 4]) -> usize {
        let side = self.side_to_move();
        let crown = side.crown_rank();
        let men = self.men(side);
        let [ne, nw, se, sw] = jumps;
        // From a landing, a second jump may go any way but back: back lie the square the man
        // left and the piece it took, and every other way the board as it stands answers.
        let onward = [ne | nw | se, ne | nw | sw, ne | se | sw, nw | se | sw];
        let mut landings = [0u64; 4];
        let mut searched = 0u64;
        // Two steps along a jump stay on the board (the jump was found there): no masks.
        for i in 0..4 {
            let d = DIRS[i];
            let land = shift_raw(jumps[i] & men, 2 * d);
            landings[i] = land;
            searched |= shift_raw(land & (onward[i] | crown), -2 * d);
        }
        let mut n = 0;
        for i in 0..4 {
            n += (landings[i] & !shift_raw(searched, 2 * DIRS[i])).count_ones();
        }
        let mut sink = CountSink::default();
        self.captures_into(searched, &mut sink);
        n as usize + sink.count()
    }

    /// Calls `f` with the position after each legal move, its hash left stale: for perft,
    /// which needs the positions and not the moves.
    #[inline]
    pub(crate) fn for_each_child(&self, mut f: impl FnMut(&Position)) {
        let jumpers = self.men_that_capture();
        if jumpers != 0 || self.kings_can_capture() {
            let mut sink = ChildSink {
                pos: self,
                f: &mut f,
                repeats: Repeats::default(),
            };
            self.captures_into(jumpers, &mut sink);
        } else {
            self.for_each_quiet_child(f);
        }
    }

    #[inline]
    fn for_each_quiet_child(&self, mut f: impl FnMut(&Position)) {
        let side = self.side_to_move();
        let empty = self.empty_squares();
        let men = self.men(side);
        let crown = side.crown_rank();
        for d in forward_dirs(side) {
            let mut targets = shift(men, d) & empty;
            while targets != 0 {
                let to = targets & targets.wrapping_neg();
                targets ^= to;
                let from = shift(to, -d);
                f(&self.after_unhashed(from, to, 0, crown & to != 0));
            }
        }
        let mut kings = self.kings(side);
        while kings != 0 {
            let from = kings & kings.wrapping_neg();
            kings ^= from;
            for d in DIRS {
                let mut targets = ray(from, d, empty);
                while targets != 0 {
                    let to = targets & targets.wrapping_neg();
                    targets ^= to;
                    f(&self.after_unhashed(from, to, 0, true));
                }
            }
        }
    }

    fn generate_quiet(&self, list: &mut MoveList) {
        let side = self.side_to_move();
        let empty = self.empty_squares();
        let men = self.men(side);
        let crown = side.crown_rank();
        for d in forward_dirs(side) {
            let mut targets = shift(men, d) & empty;
            while targets != 0 {
                let to = targets.trailing_zeros() as u8;
                targets &= targets - 1;
                let from = (to as i8 - d) as u8;
                list.push(Move::quiet(
                    Square::from_bit_unchecked(from),
                    Square::from_bit_unchecked(to),
                    crown & (1 << to) != 0,
                ));
            }
        }
        let mut kings = self.kings(side);
        while kings != 0 {
            let from = kings.trailing_zeros() as u8;
            kings &= kings - 1;
            for d in DIRS {
                let mut targets = ray(1 << from, d, empty);
                while targets != 0 {
                    let to = targets.trailing_zeros() as u8;
                    targets &= targets - 1;
                    list.push(Move::quiet(
                        Square::from_bit_unchecked(from),
                        Square::from_bit_unchecked(to),
                        false,
                    ));
                }
            }
        }
    }

    /// Every capture; `jumpers` are the men that can start one.
    fn captures_into<S: Sink>(&self, jumpers: u64, sink: &mut S) {
        let side = self.side_to_move();
        let mut gen = CaptureGen {
            opp: self.pieces(side.opponent()),
            empty: self.empty_squares(),
            crown: side.crown_rank(),
            from: Square::from_bit_unchecked(0),
            path: [Square::from_bit_unchecked(0); MAX_PATH],
            sink,
        };
        let mut men = jumpers;
        while men != 0 {
            let from = men.trailing_zeros() as u8;
            men &= men - 1;
            gen.start(from);
            gen.man(from, 0, 0);
            gen.empty &= !(1 << from);
        }
        let mut kings = self.kings(side);
        while kings != 0 {
            let from = kings.trailing_zeros() as u8;
            kings &= kings - 1;
            gen.start(from);
            gen.king(from, 0, 0, 0, false);
            gen.empty &= !(1 << from);
        }
    }
}

/// Where the capture search sends each sequence it completes.
trait Sink {
    /// A new piece starts its search.
    fn start_piece(&mut self);
    /// A finished sequence. `may_repeat` is false when no other path can take the same pieces
    /// to the same square (a man needs at least four captures to go round a loop), so the
    /// duplicate check can be skipped.
    fn emit(
        &mut self,
        from: Square,
        path: &[Square],
        captured: u64,
        promotes: bool,
        may_repeat: bool,
    );
}

/// Builds the move list, one move per (from, to, captured set).
struct ListSink<'a> {
    list: &'a mut MoveList,
    /// The first move of the current piece: only its own moves can repeat an identity.
    first: usize,
}

impl Sink for ListSink<'_> {
    #[inline(always)]
    fn start_piece(&mut self) {
        self.first = self.list.len();
    }

    #[inline]
    fn emit(
        &mut self,
        from: Square,
        path: &[Square],
        captured: u64,
        promotes: bool,
        may_repeat: bool,
    ) {
        let to = path[path.len() - 1];
        if may_repeat
            && self.list[self.first..]
                .iter()
                .any(|m| m.to() == to && m.captured() == captured)
        {
            return;
        }
        self.list
            .push(Move::capture(from, path, captured, promotes));
    }
}

/// The captures of the current piece that could be reached twice, each (to, captured set)
/// kept once: a piece's own sequences are the only ones that can repeat an identity.
#[derive(Default)]
struct Repeats {
    seen: SmallVec<[(Square, u64); 32]>,
    /// Where the current piece's entries start.
    first: usize,
}

impl Repeats {
    #[inline(always)]
    fn start_piece(&mut self) {
        self.first = self.seen.len();
    }

    /// Whether (to, captured) is new for this piece; it is remembered.
    #[inline]
    fn first_time(&mut self, to: Square, captured: u64) -> bool {
        if self.seen[self.first..].contains(&(to, captured)) {
            return false;
        }
        self.seen.push((to, captured));
        true
    }
}

/// Counts distinct moves, remembering only those that could be reached twice.
#[derive(Default)]
struct CountSink {
    plain: usize,
    repeats: Repeats,
}

impl CountSink {
    fn count(&self) -> usize {
        self.plain + self.repeats.seen.len()
    }
}

impl Sink for CountSink {
    #[inline(always)]
    fn start_piece(&mut self) {
        self.repeats.start_piece();
    }

    #[inline]
    fn emit(
        &mut self,
        _from: Square,
        path: &[Square],
        captured: u64,
        _promotes: bool,
        may_repeat: bool,
    ) {
        if !may_repeat {
            self.plain += 1;
            return;
        }
        self.repeats.first_time(path[path.len() - 1], captured);
    }
}

/// Makes the position after each distinct capture, for [`Position::for_each_child`].
struct ChildSink<'a, F: FnMut(&Position)> {
    pos: &'a Position,
    f: &'a mut F,
    repeats: Repeats,
}

impl<F: FnMut(&Position)> Sink for ChildSink<'_, F> {
    #[inline(always)]
    fn start_piece(&mut self) {
        self.repeats.start_piece();
    }

    #[inline]
    fn emit(
        &mut self,
        from: Square,
        path: &[Square],
        captured: u64,
        promotes: bool,
        may_repeat: bool,
    ) {
        let to = path[path.len() - 1];
        if may_repeat && !self.repeats.first_time(to, captured) {
            return;
        }
        let king = promotes || self.pos.kings(self.pos.side_to_move()) & from.mask() != 0;
        (self.f)(
            &self
                .pos
                .after_unhashed(from.mask(), to.mask(), captured, king),
        );
    }
}

/// Depth-first search over one piece's capture sequences. Captured pieces stay on the board
/// until the move ends (Turkish strike): they block, and cannot be jumped twice.
struct CaptureGen<'a, S: Sink> {
    opp: u64,
    /// Empty squares, the moving piece's start square included (it has left it).
    empty: u64,
    crown: u64,
    from: Square,
    path: [Square; MAX_PATH],
    sink: &'a mut S,
}

impl<S: Sink> CaptureGen<'_, S> {
    #[inline(always)]
    fn start(&mut self, from: u8) {
        self.from = Square::from_bit_unchecked(from);
        self.empty |= 1 << from;
        self.sink.start_piece();
    }

    #[inline(always)]
    fn emit(&mut self, n: usize, captured: u64, promotes: bool, may_repeat: bool) {
        self.sink
            .emit(self.from, &self.path[..n], captured, promotes, may_repeat);
    }

    /// A man on `sq` after `n` landings, having taken `captured`.
    fn man(&mut self, sq: u8, n: usize, captured: u64) {
        let at = 1u64 << sq;
        let mut found = false;
        for d in DIRS {
            let over = shift(at, d) & self.opp & !captured;
            if over == 0 {
                continue;
            }
            let land = shift(over, d) & self.empty;
            if land == 0 {
                continue;
            }
            found = true;
            let l = land.trailing_zeros() as u8;
            if n < MAX_PATH {
                self.path[n] = Square::from_bit_unchecked(l);
            }
            if land & self.crown != 0 {
                // Crowned mid-capture: the sequence goes on, as a king.
                self.king(l, n + 1, captured | over, -d, true);
            } else {
                self.man(l, n + 1, captured | over);
            }
        }
        if !found && n > 0 {
            self.emit(n, captured, false, n >= 4);
        }
    }

    /// A king on `sq` after `n` landings, having taken `captured`; `back` is the direction it
    /// came from (no capture is possible that way: the piece it just took blocks it).
    fn king(&mut self, sq: u8, n: usize, captured: u64, back: i8, promotes: bool) {
        let at = 1u64 << sq;
        let mut found = false;
        for d in DIRS {
            if d == back {
                continue;
            }
            let mut t = shift(at, d);
            while t & self.empty != 0 {
                t = shift(t, d);
            }
            let over = t & self.opp & !captured;
            if over == 0 {
                continue;
            }
            let landings = ray(over, d, self.empty);
            if landings == 0 {
                continue;
            }
            found = true;
            let taken = captured | over;
            // The landing rule: where the capture can go on, the king must land there.
            let mut go_on = 0u64;
            let mut ls = landings;
            while ls != 0 {
                let l = ls & ls.wrapping_neg();
                ls ^= l;
                if king_can_capture(l, self.opp & !taken, self.empty, -d) {
                    go_on |= l;
                }
            }
            let mut ls = if go_on != 0 { go_on } else { landings };
            while ls != 0 {
                let l = ls.trailing_zeros() as u8;
                ls &= ls - 1;
                if n < MAX_PATH {
                    self.path[n] = Square::from_bit_unchecked(l);
                }
                if go_on != 0 {
                    self.king(l, n + 1, taken, -d, promotes);
                } else {
                    self.emit(n + 1, taken, promotes, true);
                }
            }
        }
        if !found && n > 0 {
            self.emit(n, captured, promotes, true);
        }
    }
}
