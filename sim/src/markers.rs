//! `/sim/markers` for rviz: every piece where it physically is (on the board, the tray, the
//! table, in the cup, in the bin), kings crowned, in the arm's base_link frame.

use checkers_msgs::builtin_interfaces::msg::Time;
use checkers_msgs::geometry_msgs::msg::{Point, Pose, Quaternion, Vector3};
use checkers_msgs::std_msgs::msg::{ColorRGBA, Header};
use checkers_msgs::visualization_msgs::msg::{Marker, MarkerArray};
use draughts::Color;
use nalgebra::Point3;

use crate::world::{Place, World};

const FRAME: &str = "base_link";

fn colour(c: Color) -> ColorRGBA {
    match c {
        Color::White => ColorRGBA {
            r: 0.95,
            g: 0.92,
            b: 0.85,
            a: 1.0,
        },
        // Dark red rather than black, so the pieces stand out against the dark squares.
        Color::Black => ColorRGBA {
            r: 0.45,
            g: 0.05,
            b: 0.05,
            a: 1.0,
        },
    }
}

const GOLD: ColorRGBA = ColorRGBA {
    r: 0.95,
    g: 0.75,
    b: 0.1,
    a: 1.0,
};

fn cylinder(
    ns: &str,
    id: i32,
    centre: Point3<f64>,
    d: f64,
    h: f64,
    c: ColorRGBA,
    stamp: &Time,
) -> Marker {
    Marker {
        header: Header {
            stamp: stamp.clone(),
            frame_id: FRAME.into(),
        },
        ns: ns.into(),
        id,
        r#type: Marker::CYLINDER,
        action: Marker::ADD,
        pose: Pose {
            position: Point {
                x: centre.x,
                y: centre.y,
                z: centre.z,
            },
            orientation: Quaternion {
                x: 0.0,
                y: 0.0,
                z: 0.0,
                w: 1.0,
            },
        },
        scale: Vector3 { x: d, y: d, z: h },
        color: c,
        ..Marker::default()
    }
}

/// The markers of `world` with the cup's tip at `cup`. The first marker deletes the previous
/// set, so pieces that left the table vanish.
pub fn markers(world: &World, cup: Point3<f64>, stamp: &Time) -> MarkerArray {
    let cfg = world.board();
    let (d, h) = (cfg.pieces.diameter_m, cfg.pieces.height_m);
    let mut out = vec![Marker {
        header: Header {
            stamp: stamp.clone(),
            frame_id: FRAME.into(),
        },
        action: Marker::DELETEALL,
        ..Marker::default()
    }];
    let mut in_bin = 0usize;
    for p in world.pieces() {
        // The bottom centre of the disc.
        let bottom = match p.place {
            Place::Rest(at) => at,
            Place::Cup => Point3::new(cup.x, cup.y, cup.z - h),
            Place::Bin => {
                // Spread over the bin's floor in a grid, stacking when it is full.
                let b = &cfg.bin;
                let per_row = ((b.size_x_m / d).floor() as usize).max(1);
                let per_layer = per_row * per_row;
                let (layer, k) = (in_bin / per_layer, in_bin % per_layer);
                in_bin += 1;
                Point3::new(
                    b.x_m - b.size_x_m / 2.0 + d * (0.5 + (k % per_row) as f64),
                    b.y_m - b.size_y_m / 2.0 + d * (0.5 + (k / per_row) as f64),
                    b.rim_z_m - b.depth_m + h * layer as f64,
                )
            }
            Place::Hand | Place::Aside => continue,
        };
        let id = p.id as i32;
        let centre = Point3::new(bottom.x, bottom.y, bottom.z + h / 2.0);
        out.push(cylinder("pieces", id, centre, d, h, colour(p.color), stamp));
        if p.king {
            let crown = Point3::new(bottom.x, bottom.y, bottom.z + h + h / 6.0);
            out.push(cylinder("kings", id, crown, d * 0.6, h / 3.0, GOLD, stamp));
        }
    }
    MarkerArray { markers: out }
}
