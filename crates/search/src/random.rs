//! The weakest opponent: a uniformly random legal move.

use std::time::Instant;

use draughts::Game;
use draughts::Rng;

use crate::planner::{moves_to_plan, Control, Decision, Limits, PlanError, Planner, SearchStats};

/// Uniform over the legal moves; one random stream per planner, so a game is reproducible from
/// the seed.
#[derive(Debug, Clone)]
pub struct RandomPlanner {
    seed: u64,
    rng: Rng,
}

impl RandomPlanner {
    pub fn new(seed: u64) -> RandomPlanner {
        RandomPlanner {
            seed,
            rng: Rng::new(seed),
        }
    }
}

impl Planner for RandomPlanner {
    fn name(&self) -> String {
        format!("random:seed={}", self.seed)
    }

    fn choose(&mut self, game: &Game, _: &Limits, _: &Control) -> Result<Decision, PlanError> {
        let started = Instant::now();
        let moves = moves_to_plan(game)?;
        let best = moves[self.rng.below(moves.len())];
        Ok(Decision {
            best,
            value: 0,
            win_probability: 0.5,
            stats: SearchStats {
                nodes: moves.len() as u64,
                elapsed: started.elapsed(),
                pv: vec![best],
                ..SearchStats::default()
            },
        })
    }

    fn new_game(&mut self) {
        self.rng = Rng::new(self.seed);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_moves_and_always_legal() {
        let mut a = RandomPlanner::new(7);
        let mut b = RandomPlanner::new(7);
        let mut game = Game::new();
        for _ in 0..40 {
            if game.result().is_over() {
                break;
            }
            let ma = a
                .choose(&game, &Limits::default(), &Control::default())
                .expect("a move");
            let mb = b
                .choose(&game, &Limits::default(), &Control::default())
                .expect("a move");
            assert_eq!(ma.best, mb.best);
            game.play(&ma.best).expect("legal");
        }
    }
}
