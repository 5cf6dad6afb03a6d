//! Converting won endings: what the linear evaluation cannot express.
//! - Contempt: a draw is worth a little less than 0 to a side that is clearly ahead (and a
//!   little more to one clearly behind), so the winner does not repeat or let the counting
//!   rules run out when it has any other way on.
//! - Draw pressure: an advantage is worth less as the draw counters run out, so the search
//!   prefers lines that reset them (a man move, a capture) while ahead.
//! - Ending knowledge: exchanges are worth more the fewer pieces are left when ahead; a lone
//!   king against one or two pieces, or a king-only side short of three to one, is drawish;
//!   the main road a1-h8 decides few-piece king endings.

use draughts::game::{
    Counters, KINGS_ENDING_4_5_PLIES, KINGS_ENDING_6_7_PLIES, KING_MOVES_DRAW_PLIES, MAIN_DIAGONAL,
};
use draughts::{Color, Position};

/// Below this static lead (hundredths of a man) a side is not "clearly" ahead: no contempt.
pub const CONTEMPT_THRESHOLD: i32 = 75;
/// The most a draw is shaded, a third of a man: enough to prefer any line the search still
/// sees as roughly even over a certain draw, never enough to prefer a line that loses material.
pub const CONTEMPT_MAX: i32 = 35;

/// The value of a draw to be subtracted for a side whose evaluation is `eval`: positive when it
/// is clearly ahead (it wants to play on), negative when clearly behind (a draw is welcome).
pub fn contempt(eval: i32) -> i32 {
    if eval.abs() < CONTEMPT_THRESHOLD {
        0
    } else {
        (eval / 8).clamp(-CONTEMPT_MAX, CONTEMPT_MAX)
    }
}

/// How far (numerator, denominator) the counting rules have run towards a draw in `pos`.
#[inline]
fn draw_pressure(pos: &Position, counters: &Counters) -> (i32, i32) {
    let mut used = (
        i32::from(counters.king_plies),
        i32::from(KING_MOVES_DRAW_PLIES),
    );
    if pos.all_kings() != 0 {
        let limit = match pos.occupied().count_ones() {
            4 | 5 => KINGS_ENDING_4_5_PLIES,
            6 | 7 => KINGS_ENDING_6_7_PLIES,
            _ => 0,
        };
        let has_kings = pos.kings(Color::White) != 0 && pos.kings(Color::Black) != 0;
        if limit > 0 && has_kings {
            let m = (i32::from(counters.material_plies), i32::from(limit));
            if m.0 * used.1 > used.0 * m.1 {
                used = m;
            }
        }
    }
    (used.0.min(used.1), used.1)
}

/// `value` (side to move's view) pulled towards the draw value `draw` as the draw counters run
/// out: halfway there when they are about to call the draw.
#[inline]
pub fn under_pressure(value: i32, draw: i32, pos: &Position, counters: &Counters) -> i32 {
    let (used, limit) = draw_pressure(pos, counters);
    if used == 0 {
        return value;
    }
    draw + (value - draw) * (2 * limit - used) / (2 * limit)
}

/// Hundredths of a man per (material lead x 1/pieces on the board): a lead of one man is worth
/// 10 more with 20 pieces left and 50 more with 4, so trading down when ahead pays.
const SIMPLIFY: i32 = 2;
/// Each side's king on the main road in an ending of at most this many pieces.
const ROAD_PIECES: u32 = 7;
const ROAD_BONUS: i32 = 30;

/// The ending terms, White minus Black, added to the linear evaluation's `linear` value.
#[inline]
pub fn adjust(pos: &Position, linear: i32) -> i32 {
    let pieces = pos.occupied().count_ones();
    if pieces > 16 {
        return linear;
    }
    let c = |b: u64| b.count_ones() as i32;
    let (wm, bm) = (pos.men(Color::White), pos.men(Color::Black));
    let (wk, bk) = (pos.kings(Color::White), pos.kings(Color::Black));
    let lead = 100 * (c(wm) - c(bm)) + 250 * (c(wk) - c(bk));
    let mut v = linear + lead * SIMPLIFY / pieces.max(1) as i32;
    if pieces <= ROAD_PIECES && (wk | bk) != 0 {
        let on = |k: u64| i32::from(k & MAIN_DIAGONAL != 0);
        v += ROAD_BONUS * (on(wk) - on(bk));
    }
    if v > 0 && drawish(pos, Color::White) || v < 0 && drawish(pos, Color::Black) {
        v /= 4;
    }
    v
}

/// Whether `strong`'s lead is one the rules or theory call a draw: against a lone king, two
/// pieces or fewer; with kings only against kings, less than three pieces to one.
fn drawish(pos: &Position, strong: Color) -> bool {
    let weak = strong.opponent();
    let (sp, wp) = (pos.pieces(strong), pos.pieces(weak));
    if pos.kings(weak) == 0 {
        return false;
    }
    let (ns, nw) = (sp.count_ones(), wp.count_ones());
    if nw == 1 && ns <= 2 {
        return true;
    }
    pos.men(strong) == 0 && ns < 3 * nw
}

#[cfg(test)]
mod tests {
    use super::*;
    use draughts::parse_fen;

    #[test]
    fn contempt_has_the_sign_of_the_lead_and_a_cap() {
        assert_eq!(contempt(0), 0);
        assert_eq!(contempt(CONTEMPT_THRESHOLD - 1), 0);
        assert_eq!(contempt(-(CONTEMPT_THRESHOLD - 1)), 0);
        assert!(contempt(100) > 0);
        assert!(contempt(-100) < 0);
        assert_eq!(contempt(100), -contempt(-100));
        assert_eq!(contempt(5000), CONTEMPT_MAX);
        assert_eq!(contempt(-5000), -CONTEMPT_MAX);
        // Never enough to prefer losing a man to a draw.
        const { assert!(CONTEMPT_MAX < 100) };
    }

    #[test]
    fn the_draw_counters_shrink_an_advantage_towards_the_draw_value() {
        let pos = parse_fen("W:WK5,K10:BK30").expect("fen");
        let fresh = Counters::new(&pos);
        assert_eq!(under_pressure(300, -20, &pos, &fresh), 300);
        let late = Counters {
            king_plies: KING_MOVES_DRAW_PLIES - 1,
            ..fresh
        };
        let v = under_pressure(300, -20, &pos, &late);
        assert!(v < 300 && v > -20, "{v}");
        assert!(under_pressure(-300, 20, &pos, &late) > -300);
    }

    #[test]
    fn trading_down_when_ahead_is_rewarded() {
        // One man up with more and with fewer pieces on the board.
        let many = parse_fen("W:W21,22,23,24,25,26:B1,2,3,4,5").expect("fen");
        let few = parse_fen("W:W21,22:B1").expect("fen");
        assert!(adjust(&few, 100) - 100 > adjust(&many, 100) - 100);
    }

    #[test]
    fn a_lone_king_against_two_is_drawish_against_three_is_not() {
        let two = parse_fen("W:WK1,K2:BK30").expect("fen");
        let three = parse_fen("W:WK1,K2,K3:BK30").expect("fen");
        assert!(drawish(&two, Color::White));
        assert!(!drawish(&three, Color::White));
        assert!(adjust(&two, 250) < adjust(&three, 500) / 2);
    }
}
