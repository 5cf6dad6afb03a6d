//! Where things are on the table: square centres, the bin, the tray slots, from
//! `config/board.yaml`, in the arm's base_link frame.

use draughts::Square;
use nalgebra::{Point3, Vector2};

use crate::config::{BoardConfig, RobotSide};

impl BoardConfig {
    /// The board's centre on its top surface.
    pub fn center(&self) -> Point3<f64> {
        let b = &self.board;
        Point3::new(
            b.near_edge_x_m + b.border_m + 4.0 * b.square_size_m,
            b.center_y_m,
            b.top_z_m,
        )
    }

    /// The outer size of the board (squares and border), one side.
    pub fn outer_size(&self) -> f64 {
        8.0 * self.board.square_size_m + 2.0 * self.board.border_m
    }

    /// The centre of `sq` on the board's top surface.
    pub fn square_center(&self, sq: Square) -> Point3<f64> {
        let local = self.square_in_board(sq);
        let (sin, cos) = self.board.yaw_deg.to_radians().sin_cos();
        let c = self.center();
        Point3::new(
            c.x + cos * local.x - sin * local.y,
            c.y + sin * local.x + cos * local.y,
            c.z,
        )
    }

    /// The centre of `sq` in the board's own frame: origin at the board's centre on its top,
    /// x away from the arm, y to the arm's left.
    pub fn square_in_board(&self, sq: Square) -> Vector2<f64> {
        let s = self.board.square_size_m;
        let (file, rank) = (f64::from(sq.file()), f64::from(sq.rank()));
        // The robot's own first rank is nearest the arm, seen from the robot's seat: for
        // Black that puts h8 on the robot's left (+y), for White a1.
        let (row, left) = match self.robot_side() {
            RobotSide::White => (rank, 3.5 - file),
            RobotSide::Black => (7.0 - rank, file - 3.5),
        };
        Vector2::new((row - 3.5) * s, left * s)
    }

    /// The point above the bin where the cup lets a captured piece go.
    pub fn bin_drop_point(&self) -> Point3<f64> {
        let b = &self.bin;
        Point3::new(b.x_m, b.y_m, b.rim_z_m + b.drop_height_m)
    }

    pub fn tray_slots(&self) -> usize {
        self.tray.slots_x_m.len()
    }

    /// The centre of tray slot `i` on the tray's top surface.
    pub fn tray_slot(&self, i: usize) -> Option<Point3<f64>> {
        let t = &self.tray;
        Some(Point3::new(
            *t.slots_x_m.get(i)?,
            *t.slots_y_m.get(i)?,
            t.top_z_m,
        ))
    }
}
