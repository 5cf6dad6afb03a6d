//! The physical world: where every piece is. Colour and king are physical facts here; what the
//! board's sensors make of it is [`World::presence`], presence only. Coordinates are the arm's
//! base_link frame (metres), as in `config/board.yaml`.

use arm_kinematics::config::BoardConfig;
use draughts::{Color, Piece, PieceKind, Position, Square};
use nalgebra::{Point3, Vector2};

/// Where a piece is.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Place {
    /// Resting on a surface (board, tray or table): the centre of its bottom face.
    Rest(Point3<f64>),
    /// Held by the suction cup.
    Cup,
    /// In the human's hand.
    Hand,
    /// In the bin of captured pieces.
    Bin,
    /// Taken off the table by the human (the pieces the human captured).
    Aside,
}

/// One disc.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PhysicalPiece {
    pub id: u32,
    pub color: Color,
    pub king: bool,
    pub place: Place,
}

/// Something the world cannot be read as.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum WorldError {
    #[error("two pieces on square {0}")]
    Stacked(u8),
    #[error("no piece on square {0}")]
    Empty(u8),
    #[error("square {0} is occupied")]
    Occupied(u8),
}

/// The table: the board, the tray of spare kings, the bin, and the pieces on and around them.
#[derive(Debug, Clone)]
pub struct World {
    board: BoardConfig,
    pieces: Vec<PhysicalPiece>,
}

/// Whether a piece at `place` rests on the tray slot `slot`.
fn rests_on(place: Place, slot: &Point3<f64>) -> bool {
    match place {
        Place::Rest(at) => (at.x - slot.x).hypot(at.y - slot.y) < 1e-3,
        _ => false,
    }
}

impl World {
    /// `position`'s pieces centred on their squares, and the tray full of kings of `robot`.
    pub fn new(board: BoardConfig, position: &Position, robot: Color) -> World {
        let mut w = World {
            board,
            pieces: Vec::new(),
        };
        for sq in Square::all() {
            if let Some(p) = position.piece_at(sq) {
                let at = w.board.square_center(sq);
                w.add(p.color, p.kind == PieceKind::King, Place::Rest(at));
            }
        }
        for slot in 0..w.board.tray_slots() {
            if let Some(at) = w.board.tray_slot(slot) {
                w.add(robot, true, Place::Rest(at));
            }
        }
        w
    }

    /// Everything put back as `position` has it: the pieces on their squares, a full tray of
    /// the robot's kings and an empty bin.
    pub fn set_up(&mut self, position: &Position, robot: Color) {
        *self = World::new(self.board.clone(), position, robot);
    }

    fn add(&mut self, color: Color, king: bool, place: Place) {
        let id = self.pieces.len() as u32;
        self.pieces.push(PhysicalPiece {
            id,
            color,
            king,
            place,
        });
    }

    pub fn board(&self) -> &BoardConfig {
        &self.board
    }

    pub fn pieces(&self) -> &[PhysicalPiece] {
        &self.pieces
    }

    fn piece_mut(&mut self, id: u32) -> Option<&mut PhysicalPiece> {
        self.pieces.get_mut(id as usize)
    }

    fn on_board_top(&self, p: &Point3<f64>) -> bool {
        (p.z - self.board.board.top_z_m).abs() < 1e-4 && self.over_board(p.x, p.y)
    }

    /// Whether `(x, y)` lies over the board (border included).
    pub fn over_board(&self, x: f64, y: f64) -> bool {
        let c = self.board.center();
        let (sin, cos) = self.board.board.yaw_deg.to_radians().sin_cos();
        let (dx, dy) = (x - c.x, y - c.y);
        let local = Vector2::new(cos * dx + sin * dy, -sin * dx + cos * dy);
        let half = self.board.outer_size() / 2.0;
        local.x.abs() <= half && local.y.abs() <= half
    }

    /// The dark square whose centre is nearest `(x, y)`, and the distance to it.
    pub fn nearest_square(&self, x: f64, y: f64) -> (Square, f64) {
        Square::all()
            .map(|sq| {
                let c = self.board.square_center(sq);
                (sq, (c.x - x).hypot(c.y - y))
            })
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .unwrap_or((FIRST_SQUARE, f64::INFINITY))
    }

    /// What the Hall sensors see: bit n-1 set when a piece rests on the board within
    /// `tolerance` of square n's centre. Colour and king are invisible to them.
    pub fn presence(&self, tolerance: f64) -> u32 {
        let mut mask = 0u32;
        for p in &self.pieces {
            if let Place::Rest(at) = p.place {
                if !self.on_board_top(&at) {
                    continue;
                }
                let (sq, d) = self.nearest_square(at.x, at.y);
                if d <= tolerance {
                    mask |= 1 << (sq.number() - 1);
                }
            }
        }
        mask
    }

    /// The piece standing on `sq` (within half a square of its centre), if any.
    pub fn piece_on(&self, sq: Square) -> Result<Option<u32>, WorldError> {
        let half = self.board.board.square_size_m / 2.0;
        let mut found = None;
        for p in &self.pieces {
            if let Place::Rest(at) = p.place {
                if !self.on_board_top(&at) {
                    continue;
                }
                let (s, d) = self.nearest_square(at.x, at.y);
                if s == sq && d < half {
                    if found.is_some() {
                        return Err(WorldError::Stacked(sq.number()));
                    }
                    found = Some(p.id);
                }
            }
        }
        Ok(found)
    }

    /// The board as a draughts position with `side` to move: each piece counts on the square it
    /// stands nearest to, off-centre or not (a person sees where it is).
    pub fn position(&self, side: Color) -> Result<Position, WorldError> {
        let mut pos = Position::empty(side);
        for sq in Square::all() {
            if let Some(id) = self.piece_on(sq)? {
                let p = self.pieces[id as usize];
                let kind = if p.king {
                    PieceKind::King
                } else {
                    PieceKind::Man
                };
                pos.set_piece(sq, Some(Piece::new(p.color, kind)));
            }
        }
        Ok(pos)
    }

    /// The human takes the piece on `sq` into the hand.
    pub fn lift(&mut self, sq: Square) -> Result<u32, WorldError> {
        let id = self.piece_on(sq)?.ok_or(WorldError::Empty(sq.number()))?;
        if let Some(p) = self.piece_mut(id) {
            p.place = Place::Hand;
        }
        Ok(id)
    }

    /// The human puts piece `id` down on `sq`, `offset` metres off its centre (away from the
    /// arm), crowning it if `crown`.
    pub fn put(&mut self, id: u32, sq: Square, offset: f64, crown: bool) {
        let mut at = self.board.square_center(sq);
        let (sin, cos) = self.board.board.yaw_deg.to_radians().sin_cos();
        at.x += cos * offset;
        at.y += sin * offset;
        if let Some(p) = self.piece_mut(id) {
            p.place = Place::Rest(at);
            p.king |= crown;
        }
    }

    /// The human takes the piece on `sq` off the table.
    pub fn remove(&mut self, sq: Square) -> Result<(), WorldError> {
        let id = self.piece_on(sq)?.ok_or(WorldError::Empty(sq.number()))?;
        if let Some(p) = self.piece_mut(id) {
            p.place = Place::Aside;
        }
        Ok(())
    }

    /// The piece the cup holds.
    pub fn held(&self) -> Option<u32> {
        self.pieces
            .iter()
            .find(|p| p.place == Place::Cup)
            .map(|p| p.id)
    }

    /// The piece the cup's tip at `cup` would seal on: the one whose top it touches (within
    /// `reach` above it, pressing no deeper than the rubber gives) within `tolerance` of the
    /// piece's centre.
    pub fn pickable(&self, cup: Point3<f64>, tolerance: f64, reach: f64) -> Option<u32> {
        let height = self.board.pieces.height_m;
        // The cup's rubber gives a little; deeper than this it pushes the piece, not seals.
        let press = height / 2.0;
        self.pieces
            .iter()
            .filter_map(|p| match p.place {
                Place::Rest(at) => {
                    let above = cup.z - (at.z + height);
                    let d = (at.x - cup.x).hypot(at.y - cup.y);
                    (above <= reach && above >= -press && d <= tolerance).then_some((p.id, d))
                }
                _ => None,
            })
            .min_by(|a, b| a.1.total_cmp(&b.1))
            .map(|(id, _)| id)
    }

    /// The cup holds piece `id` now.
    pub fn pick(&mut self, id: u32) {
        if let Some(p) = self.piece_mut(id) {
            p.place = Place::Cup;
        }
    }

    /// The cup lets go at `cup`: the piece falls straight down, into the bin if it is over the
    /// bin, else onto whatever surface is under it. Returns where it landed.
    pub fn release(&mut self, cup: Point3<f64>) -> Option<Place> {
        let id = self.held()?;
        let place = if self.over_bin(cup.x, cup.y) {
            Place::Bin
        } else {
            Place::Rest(Point3::new(cup.x, cup.y, self.surface_under(cup.x, cup.y)))
        };
        if let Some(p) = self.piece_mut(id) {
            p.place = place;
        }
        Some(place)
    }

    fn over_bin(&self, x: f64, y: f64) -> bool {
        let b = &self.board.bin;
        (x - b.x_m).abs() <= b.size_x_m / 2.0 && (y - b.y_m).abs() <= b.size_y_m / 2.0
    }

    /// The height of the surface under `(x, y)`: the board's top, a tray slot's, or the table.
    pub fn surface_under(&self, x: f64, y: f64) -> f64 {
        if self.over_board(x, y) {
            return self.board.board.top_z_m;
        }
        let r = self.board.pieces.diameter_m;
        let on_tray = (0..self.board.tray_slots())
            .filter_map(|i| self.board.tray_slot(i))
            .any(|s| (s.x - x).hypot(s.y - y) <= r);
        if on_tray {
            self.board.tray.top_z_m
        } else {
            0.0
        }
    }

    /// How many pieces lie in the bin.
    pub fn in_bin(&self) -> usize {
        self.pieces.iter().filter(|p| p.place == Place::Bin).count()
    }

    fn tray_slots(&self) -> impl Iterator<Item = Point3<f64>> + '_ {
        (0..self.board.tray_slots()).filter_map(|i| self.board.tray_slot(i))
    }

    /// The pieces in the tray become kings of `robot`: a game with the colours swapped.
    pub fn recolour_tray(&mut self, robot: Color) {
        let slots: Vec<Point3<f64>> = self.tray_slots().collect();
        for p in &mut self.pieces {
            if slots.iter().any(|s| rests_on(p.place, s)) {
                p.color = robot;
            }
        }
    }

    /// How many tray slots hold a piece.
    pub fn in_tray(&self) -> usize {
        self.tray_slots()
            .filter(|s| self.pieces.iter().any(|p| rests_on(p.place, s)))
            .count()
    }
}

/// Square 1, checked when compiling; a stand-in that `Square::all()` never needs.
const FIRST_SQUARE: Square = match Square::from_number(1) {
    Some(s) => s,
    None => panic!("square 1 exists"),
};
