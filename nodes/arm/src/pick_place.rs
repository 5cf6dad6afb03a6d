//! The arm's work for one draughts move: a list of steps (what the /arm/execute feedback
//! reports), each a list of actions (joint-space moves to IK-solved Cartesian targets, pump
//! switches, dwells), and the timed trajectory of the whole.
//!
//! For a move from `from` to `to` capturing some pieces:
//! 1. pick the piece on `from` (intermediate landings of a capture do not matter physically);
//! 2. without promotion, place it on `to`. With promotion, drop the man into the bin and
//!    place a king from the spare-king tray on `to` instead: the board ends the same as
//!    "place, then swap", with one trip fewer;
//! 3. take every captured piece to the bin, nearest first;
//! 4. go back to the rest pose, out of the human's way.
//!
//! Every pick and place is: travel to the approach point above, descend, pump on/off and
//! dwell, rise back to the approach point. Travel happens at approach height.

use draughts::{Move, Square};
use nalgebra::{Point3, Vector3};
use thiserror::Error;
use tracing::debug;

use arm_kinematics::config::{ArmConfig, BoardConfig, Limits, MotionConfig};
use arm_kinematics::joints::Joints;
use arm_kinematics::trajectory::{Piece, Segment, Trajectory};
use arm_kinematics::{Ik, IkError};

#[derive(Debug, Error, Clone, PartialEq)]
pub enum PlanError {
    #[error("cannot reach {what}: {source}")]
    Unreachable {
        what: String,
        #[source]
        source: IkError,
    },
    #[error("no king left in the spare-king tray ({slots} slots, all used)")]
    NoSpareKing { slots: usize },
    #[error("the arm's start pose {start_deg:?} deg is outside its joint limits")]
    StartOutsideLimits { start_deg: [f64; 3] },
}

/// What a motion is for; the simulator and the tests tell travel from vertical moves by it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MotionKind {
    /// To an approach point (at approach height) or the bin drop point.
    Travel,
    /// Straight down from an approach point to a pick or place point.
    Descend,
    /// Straight back up.
    Retreat,
    /// To the rest pose.
    Rest,
}

#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    Move {
        kind: MotionKind,
        /// The cup tip's goal, in base_link.
        target: Point3<f64>,
        /// The IK's joints for `target`: what the controller is sent.
        joints: Joints,
        segment: Segment,
    },
    Pump {
        on: bool,
    },
    Dwell {
        seconds: f64,
    },
}

/// One step of the feedback: "pick c3", "captured d4 to bin".
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    pub description: String,
    pub actions: Vec<Action>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    pub start: Joints,
    pub steps: Vec<Step>,
    /// The tray slot whose king this plan uses (already marked used in the tray).
    pub king_slot: Option<usize>,
}

impl Plan {
    /// The whole plan as one timed trajectory.
    pub fn trajectory(&self) -> Trajectory {
        let mut t = Trajectory::new(self.start);
        let mut at = self.start;
        for action in self.steps.iter().flat_map(|s| &s.actions) {
            match action {
                Action::Move {
                    segment, joints, ..
                } => {
                    t.push(Piece::Move(*segment));
                    at = *joints;
                }
                Action::Pump { on } => t.pump(*on),
                Action::Dwell { seconds } => t.push(Piece::Hold {
                    at,
                    seconds: *seconds,
                }),
            }
        }
        t
    }

    /// Every Cartesian goal with its joints, in order.
    pub fn waypoints(&self) -> impl Iterator<Item = (MotionKind, Point3<f64>, Joints)> + '_ {
        self.steps
            .iter()
            .flat_map(|s| &s.actions)
            .filter_map(|a| match a {
                Action::Move {
                    kind,
                    target,
                    joints,
                    ..
                } => Some((*kind, *target, *joints)),
                _ => None,
            })
    }
}

/// Which tray slots still hold a king. Filled by hand before a game ([`SpareKings::refill`]).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SpareKings {
    used: Vec<bool>,
}

impl SpareKings {
    /// A full tray of `slots` kings.
    pub fn full(slots: usize) -> SpareKings {
        SpareKings {
            used: vec![false; slots],
        }
    }

    pub fn left(&self) -> usize {
        self.used.iter().filter(|u| !**u).count()
    }

    pub fn next_free(&self) -> Option<usize> {
        self.used.iter().position(|u| !*u)
    }

    pub fn is_used(&self, slot: usize) -> bool {
        self.used.get(slot).copied().unwrap_or(true)
    }

    /// Marks `slot` empty (a king taken by hand, or a plan that failed after the pick).
    pub fn take(&mut self, slot: usize) {
        if let Some(u) = self.used.get_mut(slot) {
            *u = true;
        }
    }

    pub fn refill(&mut self) {
        self.used.fill(false);
    }
}

/// The planner for one arm and board.
#[derive(Debug, Clone)]
pub struct PickPlace {
    ik: Ik,
    limits: Limits,
    motion: MotionConfig,
    board: BoardConfig,
    rest: Joints,
}

impl PickPlace {
    pub fn new(arm: &ArmConfig, board: &BoardConfig) -> PickPlace {
        let r = arm.rest();
        PickPlace {
            ik: Ik::new(arm),
            limits: arm.limits(),
            motion: arm.motion.clone(),
            board: board.clone(),
            rest: Joints::new(r[0], r[1], r[2]),
        }
    }

    pub fn ik(&self) -> &Ik {
        &self.ik
    }

    pub fn rest(&self) -> Joints {
        self.rest
    }

    pub fn board(&self) -> &BoardConfig {
        &self.board
    }

    pub fn limits(&self) -> &Limits {
        &self.limits
    }

    /// The cup's height while it travels over the board: the approach height above a piece.
    pub fn travel_z(&self) -> f64 {
        self.board.board.top_z_m + self.board.pieces.height_m + self.motion.approach_height_m
    }

    /// An empty tray plan's worth of kings: one per configured slot.
    pub fn full_tray(&self) -> SpareKings {
        SpareKings::full(self.board.tray_slots())
    }

    /// The steps for `mv` from the arm's current joints `start`. A promotion takes a king
    /// from `tray` (marked used only when the whole plan succeeds).
    pub fn plan_move(
        &self,
        mv: &Move,
        start: &Joints,
        tray: &mut SpareKings,
    ) -> Result<Plan, PlanError> {
        let captured: Vec<Square> = mv.captured_squares().collect();
        self.plan(mv.from(), mv.to(), &captured, mv.promotes(), start, tray)
    }

    /// The steps for a move given by its squares: what the arm node gets from a goal message,
    /// which carries no position to rebuild a [`Move`] from.
    pub fn plan(
        &self,
        from: Square,
        to: Square,
        captured: &[Square],
        promotes: bool,
        start: &Joints,
        tray: &mut SpareKings,
    ) -> Result<Plan, PlanError> {
        self.check_start(start)?;
        let king_slot = if promotes {
            Some(tray.next_free().ok_or(PlanError::NoSpareKing {
                slots: self.board.tray_slots(),
            })?)
        } else {
            None
        };
        let mut b = Builder::new(self, *start);
        let board_top = self.board.board.top_z_m;

        b.step(format!("pick {from}"));
        b.pick(
            self.board.square_center(from),
            board_top,
            &format!("{from}"),
        )?;

        if let Some(slot) = king_slot {
            b.step(format!("man from {from} to bin"));
            b.drop_in_bin()?;
            let tray_top = self.board.tray.top_z_m;
            let slot_at = self.board.tray_slot(slot).ok_or(PlanError::NoSpareKing {
                slots: self.board.tray_slots(),
            })?;
            b.step(format!("king from tray slot {slot}"));
            b.pick(
                Point3::new(slot_at.x, slot_at.y, tray_top),
                tray_top,
                &format!("tray slot {slot}"),
            )?;
            b.step(format!("place king on {to}"));
        } else {
            b.step(format!("place {to}"));
        }
        b.place(self.board.square_center(to), board_top, &format!("{to}"))?;

        // Nearest captured piece first, from wherever the cup is.
        let mut left: Vec<Square> = captured.to_vec();
        let mut here = self.board.square_center(to);
        while !left.is_empty() {
            let (i, _) = left
                .iter()
                .enumerate()
                .map(|(i, sq)| (i, (self.board.square_center(*sq) - here).norm()))
                .fold(
                    (0, f64::INFINITY),
                    |best, c| if c.1 < best.1 { c } else { best },
                );
            let sq = left.swap_remove(i);
            b.step(format!("captured {sq} to bin"));
            b.pick(self.board.square_center(sq), board_top, &format!("{sq}"))?;
            b.drop_in_bin()?;
            here = self.board.bin_drop_point();
        }

        b.step("rest".to_string());
        b.go_to_rest();
        if let Some(slot) = king_slot {
            tray.take(slot);
        }
        debug!(%from, %to, steps = b.steps.len(), "planned");
        Ok(Plan {
            start: *start,
            steps: b.steps,
            king_slot,
        })
    }

    /// Straight to the rest pose (the /arm/home service).
    pub fn plan_home(&self, start: &Joints) -> Result<Plan, PlanError> {
        self.check_start(start)?;
        let mut b = Builder::new(self, *start);
        b.step("rest".to_string());
        b.go_to_rest();
        Ok(Plan {
            start: *start,
            steps: b.steps,
            king_slot: None,
        })
    }

    /// A straight joint-space line stays inside the (convex) limits only if it starts there.
    fn check_start(&self, start: &Joints) -> Result<(), PlanError> {
        if self.limits.contains(start.array()) {
            Ok(())
        } else {
            let a = start.array();
            Err(PlanError::StartOutsideLimits {
                start_deg: [a[0].to_degrees(), a[1].to_degrees(), a[2].to_degrees()],
            })
        }
    }
}

/// Accumulates steps, keeping the arm's joints after the last move as the next IK seed.
struct Builder<'a> {
    planner: &'a PickPlace,
    q: Joints,
    steps: Vec<Step>,
}

impl<'a> Builder<'a> {
    fn new(planner: &'a PickPlace, start: Joints) -> Builder<'a> {
        Builder {
            planner,
            q: start,
            steps: Vec::new(),
        }
    }

    fn step(&mut self, description: String) {
        self.steps.push(Step {
            description,
            actions: Vec::new(),
        });
    }

    fn act(&mut self, action: Action) {
        if let Some(step) = self.steps.last_mut() {
            step.actions.push(action);
        }
    }

    /// A straight Cartesian move (descend, retreat): one joint-space segment where its bow
    /// off the line is within `straight_tolerance_m`, else halves, each checked the same way.
    fn move_straight(
        &mut self,
        kind: MotionKind,
        target: Point3<f64>,
        what: &str,
    ) -> Result<(), PlanError> {
        self.straight(kind, target, what, 4)
    }

    fn straight(
        &mut self,
        kind: MotionKind,
        target: Point3<f64>,
        what: &str,
        splits_left: u32,
    ) -> Result<(), PlanError> {
        let ik = &self.planner.ik;
        let from = ik.forward(&self.q);
        if splits_left > 0 {
            let end = ik
                .solve(target, &self.q)
                .map_err(|source| PlanError::Unreachable {
                    what: what.to_string(),
                    source,
                })?
                .joints;
            // The bow is largest near the middle of the joint-space line.
            let mid = ik.forward(&Joints((self.q.0 + end.0) / 2.0));
            if distance_to_line(mid, from, target) > self.planner.motion.straight_tolerance_m {
                let half = from + (target - from) / 2.0;
                self.straight(kind, half, what, splits_left - 1)?;
                return self.straight(kind, target, what, splits_left - 1);
            }
        }
        self.move_to(kind, target, what)
    }

    fn move_to(
        &mut self,
        kind: MotionKind,
        target: Point3<f64>,
        what: &str,
    ) -> Result<(), PlanError> {
        let sol =
            self.planner
                .ik
                .solve(target, &self.q)
                .map_err(|source| PlanError::Unreachable {
                    what: what.to_string(),
                    source,
                })?;
        let segment = Segment::new(self.q, sol.joints, &self.planner.limits);
        self.q = sol.joints;
        self.act(Action::Move {
            kind,
            target,
            joints: sol.joints,
            segment,
        });
        Ok(())
    }

    fn pump(&mut self, on: bool) {
        let m = &self.planner.motion;
        let seconds = if on {
            m.pump_on_dwell_s
        } else {
            m.pump_off_dwell_s
        };
        self.act(Action::Pump { on });
        if seconds > 0.0 {
            self.act(Action::Dwell { seconds });
        }
    }

    fn above(&self, at: Point3<f64>) -> Point3<f64> {
        at + Vector3::z() * self.planner.motion.approach_height_m
    }

    /// Picks the piece standing on the surface at height `surface` under `spot`.
    fn pick(&mut self, spot: Point3<f64>, surface: f64, name: &str) -> Result<(), PlanError> {
        let m = &self.planner.motion;
        let top = surface + self.planner.board.pieces.height_m;
        let grip = Point3::new(spot.x, spot.y, top - m.pick_press_m);
        let above = self.above(Point3::new(spot.x, spot.y, top));
        self.move_to(MotionKind::Travel, above, &format!("above {name}"))?;
        self.move_straight(MotionKind::Descend, grip, name)?;
        self.pump(true);
        self.move_straight(MotionKind::Retreat, above, &format!("above {name}"))
    }

    /// Sets the carried piece down on the surface at height `surface` at `spot`.
    fn place(&mut self, spot: Point3<f64>, surface: f64, name: &str) -> Result<(), PlanError> {
        let m = &self.planner.motion;
        // The cup holds the piece by its top; the piece's bottom stops a hair over the surface.
        let top = surface + self.planner.board.pieces.height_m;
        let release = Point3::new(spot.x, spot.y, top + m.place_gap_m);
        let above = self.above(Point3::new(spot.x, spot.y, top));
        self.move_to(MotionKind::Travel, above, &format!("above {name}"))?;
        self.move_straight(MotionKind::Descend, release, name)?;
        self.pump(false);
        self.move_straight(MotionKind::Retreat, above, &format!("above {name}"))
    }

    fn drop_in_bin(&mut self) -> Result<(), PlanError> {
        let drop = self.planner.board.bin_drop_point();
        self.move_to(MotionKind::Travel, drop, "the bin")?;
        self.pump(false);
        Ok(())
    }

    fn go_to_rest(&mut self) {
        let rest = self.planner.rest;
        let target = self.planner.ik.forward(&rest);
        let segment = Segment::new(self.q, rest, &self.planner.limits);
        self.q = rest;
        self.act(Action::Move {
            kind: MotionKind::Rest,
            target,
            joints: rest,
            segment,
        });
    }
}

fn distance_to_line(p: Point3<f64>, a: Point3<f64>, b: Point3<f64>) -> f64 {
    let ab = b - a;
    let len2 = ab.norm_squared();
    if len2 == 0.0 {
        return (p - a).norm();
    }
    let t = ((p - a).dot(&ab) / len2).clamp(0.0, 1.0);
    (p - (a + ab * t)).norm()
}
