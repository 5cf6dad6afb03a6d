//! What goes wrong in a soak, drawn at random: a fault of the sim's (docs/sim.md, "Faults") in
//! force for one robot turn, or a node of the robot killed with SIGKILL at a random moment of it;
//! with the planner on a computer of its own, the link to it lossy or cut.

use sim::rng::Rng;

/// A sim fault: the line that sets it and the line that takes it back.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fault {
    pub name: &'static str,
    pub set: &'static str,
    pub clear: &'static str,
}

/// The faults drawn from. Not `lost_steps` (the arm stays off until a homing it is not asked
/// for, which is a calibration fault, not one a game recovers from) and not `arm_silent` (the
/// arm's move then waits out the arbiter's two-minute arm timeout each time).
pub const FAULTS: [Fault; 6] = [
    Fault {
        name: "sensor_bit_flip",
        set: "sensor_bit_flip:=0.02",
        clear: "sensor_bit_flip:=0",
    },
    Fault {
        name: "serial_noise",
        set: "serial_noise:=0.02",
        clear: "serial_noise:=0",
    },
    Fault {
        name: "drop_frames",
        set: "drop_frames:=0.02",
        clear: "drop_frames:=0",
    },
    Fault {
        name: "failed_picks",
        set: "failed_picks:=1",
        clear: "failed_picks:=0",
    },
    Fault {
        name: "field_silent",
        set: "field_silent:=true",
        clear: "field_silent:=false",
    },
    Fault {
        name: "head_silent",
        set: "head_silent:=true",
        clear: "head_silent:=false",
    },
];

/// The nodes a soak kills: every node of the robot, not the sim (it is the world).
pub const NODES: [&str; 5] = ["arbiter", "planner", "arm", "board_sensor", "expression"];

/// What one robot turn suffers.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Turn {
    pub fault: Option<Fault>,
    /// A node, and how long after the human's confirm it dies.
    pub kill: Option<(&'static str, std::time::Duration)>,
}

/// Draws a turn's troubles: a fault with chance `fault_rate`, a kill with chance `kill_rate`,
/// the kill's moment uniform in the first `within` of the robot's turn.
pub fn draw(rng: &mut Rng, fault_rate: f64, kill_rate: f64, within: std::time::Duration) -> Turn {
    let fault = rng
        .chance(fault_rate)
        .then(|| FAULTS[rng.below(FAULTS.len())]);
    let kill = rng
        .chance(kill_rate)
        .then(|| (NODES[rng.below(NODES.len())], within.mul_f64(rng.unit())));
    Turn { fault, kill }
}

/// What the link to the planner's computer suffers in one robot turn (`--planner-apart`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NetFault {
    /// 30% of the packets lost each way, until the human's next turn.
    Loss,
    /// The link cut for 20 s.
    Cut,
}

impl NetFault {
    pub fn name(self) -> &'static str {
        match self {
            NetFault::Loss => "link_loss",
            NetFault::Cut => "link_cut",
        }
    }
}

/// Draws a turn's trouble on the link: one with chance `rate`, a loss or a cut alike. Drawn
/// after [`draw`], and only with the planner apart, so a soak without it replays its seed.
pub fn draw_net(rng: &mut Rng, rate: f64) -> Option<NetFault> {
    rng.chance(rate).then(|| {
        if rng.chance(0.5) {
            NetFault::Loss
        } else {
            NetFault::Cut
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_fault_line_is_one_the_sim_takes_and_clears_what_it_set() {
        for f in FAULTS {
            let mut faults = sim::faults::Faults::default();
            faults.apply(f.set).expect("the sim takes the set line");
            assert_ne!(faults, sim::faults::Faults::default(), "{}", f.name);
            faults.apply(f.clear).expect("the sim takes the clear line");
            assert_eq!(faults, sim::faults::Faults::default(), "{}", f.name);
            // The line as the sim prints it back, which is what set_fault waits for.
            assert!(
                faults.to_string().lines().any(|l| l == f.clear),
                "{}: {faults}",
                f.name
            );
        }
    }

    #[test]
    fn draws_follow_their_rates() {
        let mut rng = Rng::new(7);
        let within = std::time::Duration::from_secs(2);
        let turns: Vec<Turn> = (0..2000)
            .map(|_| draw(&mut rng, 0.25, 0.05, within))
            .collect();
        let faults = turns.iter().filter(|t| t.fault.is_some()).count();
        let kills = turns.iter().filter(|t| t.kill.is_some()).count();
        assert!((400..600).contains(&faults), "{faults}");
        assert!((60..140).contains(&kills), "{kills}");
        assert!(turns
            .iter()
            .filter_map(|t| t.kill)
            .all(|(_, at)| at <= within));
        for node in NODES {
            assert!(turns.iter().any(|t| t.kill.is_some_and(|(n, _)| n == node)));
        }
        assert_eq!(draw(&mut rng, 0.0, 0.0, within), Turn::default());
    }

    #[test]
    fn link_troubles_are_losses_and_cuts_alike_at_their_rate() {
        let mut rng = Rng::new(11);
        let drawn: Vec<_> = (0..2000).filter_map(|_| draw_net(&mut rng, 0.2)).collect();
        let cuts = drawn.iter().filter(|f| **f == NetFault::Cut).count();
        assert!((320..480).contains(&drawn.len()), "{}", drawn.len());
        assert!(
            (drawn.len() / 3..drawn.len() * 2 / 3).contains(&cuts),
            "{cuts}"
        );
        assert_eq!(draw_net(&mut rng, 0.0), None);
    }
}
