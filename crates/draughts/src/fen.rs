//! FEN in PDN style: `W:W21,22,K23:B1,2,K5`. Squares may be numeric (1-32) or algebraic
//! (`c3`), single or as ranges (`21-32`, numeric only); `K` marks a king.

use crate::error::ParseError;
use crate::position::{Color, Piece, PieceKind, Position};
use crate::square::{Square, Squares};

/// The start position's FEN.
pub const START_FEN: &str = "W:W21-32:B1-12";

/// Reads a FEN. The result is checked with [`Position::validate`].
pub fn parse_fen(text: &str) -> Result<Position, ParseError> {
    let bad = |why: String| ParseError::Fen {
        fen: text.to_string(),
        why,
    };
    // PDN allows a trailing period and surrounding quotes or brackets in headers.
    let t = text.trim().trim_matches('"').trim_end_matches('.').trim();
    let mut fields = t.split(':');
    let side = match fields.next().map(str::trim) {
        Some("W") | Some("w") => Color::White,
        Some("B") | Some("b") => Color::Black,
        other => {
            return Err(bad(format!(
                "side to move must be W or B, found {:?}",
                other.unwrap_or("")
            )))
        }
    };
    let mut pos = Position::empty(side);
    let mut seen = [false; 2];
    for field in fields {
        let field = field.trim();
        if field.is_empty() {
            continue;
        }
        let (color, list) = match field.as_bytes()[0].to_ascii_uppercase() {
            b'W' => (Color::White, &field[1..]),
            b'B' => (Color::Black, &field[1..]),
            _ => {
                return Err(bad(format!(
                    "a piece list must start with W or B: {field:?}"
                )))
            }
        };
        let ci = color as usize;
        if seen[ci] {
            return Err(bad(format!("two piece lists for {color}")));
        }
        seen[ci] = true;
        for item in list.split(',') {
            let item = item.trim();
            if item.is_empty() {
                continue;
            }
            let (kind, name) = match item.strip_prefix(['K', 'k']) {
                Some(rest) => (PieceKind::King, rest.trim()),
                None => (PieceKind::Man, item),
            };
            for sq in squares_of(name).map_err(|e| bad(e.to_string()))? {
                if pos.piece_at(sq).is_some() {
                    return Err(bad(format!("square {sq} is listed twice")));
                }
                pos.set_piece(sq, Some(Piece::new(color, kind)));
            }
        }
    }
    pos.validate().map_err(|e| bad(e.to_string()))?;
    Ok(pos)
}

/// One FEN item's squares: `22`, `c3`, or a numeric range `21-32`.
fn squares_of(name: &str) -> Result<Vec<Square>, ParseError> {
    if let Some((a, b)) = name.split_once('-') {
        let bad = || ParseError::Square(name.to_string());
        let a: u8 = a.trim().parse().map_err(|_| bad())?;
        let b: u8 = b.trim().parse().map_err(|_| bad())?;
        if a == 0 || b > 32 || a > b {
            return Err(bad());
        }
        return (a..=b)
            .map(|n| Square::from_number(n).ok_or_else(bad))
            .collect();
    }
    Ok(vec![name.parse()?])
}

/// Writes a FEN with numeric squares, kings marked `K`, in square-number order.
pub fn to_fen(pos: &Position) -> String {
    fen_with(pos, |sq| sq.number().to_string())
}

/// Writes a FEN with algebraic squares (`W:Wa1,c3,Ke5:Bb8`).
pub fn to_fen_algebraic(pos: &Position) -> String {
    fen_with(pos, |sq| sq.to_string())
}

fn fen_with(pos: &Position, name: impl Fn(Square) -> String) -> String {
    let side = match pos.side_to_move() {
        Color::White => 'W',
        Color::Black => 'B',
    };
    let mut out = format!("{side}");
    for (color, tag) in [(Color::White, 'W'), (Color::Black, 'B')] {
        let mut squares: Vec<Square> = Squares(pos.pieces(color)).collect();
        squares.sort_by_key(|s| s.number());
        let items: Vec<String> = squares
            .into_iter()
            .map(|sq| {
                let k = if pos.all_kings() & sq.mask() != 0 {
                    "K"
                } else {
                    ""
                };
                format!("{k}{}", name(sq))
            })
            .collect();
        out.push(':');
        out.push(tag);
        out.push_str(&items.join(","));
    }
    out
}

impl std::str::FromStr for Position {
    type Err = ParseError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        parse_fen(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_round_trips() {
        let p = parse_fen(START_FEN).expect("start FEN");
        assert_eq!(p, Position::start());
        assert_eq!(
            to_fen(&p),
            "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
        );
        assert_eq!(parse_fen(&to_fen(&p)).expect("reparse"), p);
    }

    #[test]
    fn algebraic_and_numeric_agree() {
        let a = parse_fen("W:Wa1,c3,Ke5:Bb8").expect("algebraic");
        let n = parse_fen("W:W29,22,K15:B1").expect("numeric");
        assert_eq!(a, n);
        assert_eq!(to_fen_algebraic(&a), "W:WKe5,c3,a1:Bb8");
    }

    #[test]
    fn rejects_bad_fens() {
        for f in [
            "", "X:W1:B2", "W:W1:W2", "W:W33", "W:Wa2", "W:W1,1", "W:W1:B1",
            "W:W3",  // uncrowned white man on rank 8
            "B:B29", // uncrowned black man on rank 1
            "W:Q1", "W:W5-2",
        ] {
            assert!(parse_fen(f).is_err(), "{f:?} should be rejected");
        }
    }

    #[test]
    fn accepts_pdn_decorations() {
        let p = parse_fen("\"B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29.\"").expect("decorated");
        assert_eq!(p.side_to_move(), Color::Black);
        assert_eq!(p.all_kings().count_ones(), 5);
    }
}
