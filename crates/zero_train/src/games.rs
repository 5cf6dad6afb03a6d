//! Many games at once, so that the network evaluates the leaves of all their searches in one
//! batch: self-play (one network, noise at the root, a temperature, training samples) and
//! matches between two networks (each keeps its own tree, no noise).

use draughts::{Color, Game, GameResult};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use search::{dirichlet, gumbel_draw, Gathered, Leaf, Puct, Tree};
use zero::encode::{action_for, encode, ACTIONS, INPUT_LEN};
use zero::Model;

/// How the games are searched and their moves picked.
#[derive(Clone, Copy, Debug)]
pub struct PlayConfig {
    /// Root visits before a move (a kept subtree's visits count).
    pub sims: u32,
    /// Playout-cap randomisation: this share of moves get `sims`, the others `fast_sims`, and
    /// only full searches become policy targets. 1.0 turns it off.
    pub full_share: f32,
    pub fast_sims: u32,
    /// Moves are drawn in proportion to visits for this many plies, then the most visited.
    pub temperature_plies: usize,
    /// Dirichlet noise at the root of full searches: concentration and weight (0 = none).
    pub noise_alpha: f32,
    pub noise_eps: f32,
    /// Leaves each game gathers per batch.
    pub leaves_per_game: usize,
    /// A game still going after this many plies is scored a draw.
    pub max_plies: usize,
    /// Gumbel root selection (self-play only): each search chooses by sequential halving with
    /// Gumbel noise, which replaces both the Dirichlet noise and the temperature, and the
    /// policy target is the improved policy instead of the visit shares.
    pub gumbel: bool,
    /// Weight of the search's root value in the value target, the rest being the game's
    /// result: most self-play games are drawn, and a drawn game's 0 says nothing about which
    /// of its positions were good.
    pub q_blend: f32,
}

impl PlayConfig {
    pub fn self_play(sims: u32) -> PlayConfig {
        PlayConfig {
            sims,
            full_share: 1.0,
            fast_sims: sims,
            temperature_plies: 12,
            noise_alpha: 1.0,
            noise_eps: 0.25,
            leaves_per_game: 2,
            max_plies: 300,
            gumbel: false,
            q_blend: 0.0,
        }
    }

    pub fn matches(sims: u32) -> PlayConfig {
        PlayConfig {
            sims,
            full_share: 1.0,
            fast_sims: sims,
            temperature_plies: 0,
            noise_alpha: 0.0,
            noise_eps: 0.0,
            leaves_per_game: 2,
            max_plies: 300,
            gumbel: false,
            q_blend: 0.0,
        }
    }
}

/// A training sample: a position, the search's visit shares over actions, and the result.
#[derive(Clone, Debug)]
pub struct Sample {
    pub input: Vec<f32>,
    /// (action, share) for the visited actions.
    pub policy: Vec<(u16, f32)>,
    /// The game's result for the side to move: 1 win, 0 draw, -1 loss.
    pub value: f32,
}

impl Sample {
    pub fn dense_policy(&self) -> [f32; ACTIONS] {
        let mut p = [0.0; ACTIONS];
        for &(a, x) in &self.policy {
            p[a as usize] += x;
        }
        p
    }
}

/// One finished game.
#[derive(Clone, Debug)]
pub struct Finished {
    pub game: Game,
    /// Which model played White (0 or 1).
    pub white: usize,
    pub result: GameResult,
}

impl Finished {
    /// The score of model 0: 1 win, 0.5 draw, 0 loss.
    pub fn score_of_first(&self) -> f64 {
        match self.result {
            GameResult::Win { winner, .. } => {
                let first_colour = if self.white == 0 {
                    Color::White
                } else {
                    Color::Black
                };
                if winner == first_colour {
                    1.0
                } else {
                    0.0
                }
            }
            _ => 0.5,
        }
    }
}

struct Slot {
    game: Game,
    white: usize,
    /// A tree per model (self-play uses only the first).
    trees: Vec<Tree>,
    /// This move's search: its visit target, whether it is a full one, noise applied.
    target: u32,
    full: bool,
    noised: bool,
    /// Samples of this game, waiting for its result (with the mover of each and the root's
    /// mean value for the mover).
    pending: Vec<(Color, f32, Sample)>,
}

impl Slot {
    fn model_to_move(&self) -> usize {
        let side = self.game.position().side_to_move();
        if self.trees.len() == 1 || (side == Color::White) == (self.white == 0) {
            0
        } else {
            1
        }
    }
}

/// Plays `starts.len()` games from the given positions; game `i` has model `starts[i].1`
/// playing White. With one model it is self-play and samples are collected. `on_game` is called
/// as each game ends.
pub fn play(
    models: &[&Model],
    starts: Vec<(Game, usize)>,
    cfg: &PlayConfig,
    seed: u64,
    parallel: usize,
    mut on_game: impl FnMut(&Finished),
) -> (Vec<Finished>, Vec<Sample>) {
    let mut rng = StdRng::seed_from_u64(seed);
    let puct = Puct::default();
    let collect = models.len() == 1;
    let mut queue = starts.into_iter();
    let mut slots: Vec<Slot> = Vec::new();
    let mut finished = Vec::new();
    let mut samples = Vec::new();
    let new_slot = |(game, white): (Game, usize), rng: &mut StdRng| {
        let mut s = Slot {
            trees: (0..models.len())
                .map(|_| Tree::new(game.clone(), puct))
                .collect(),
            game,
            white,
            target: 0,
            full: true,
            noised: false,
            pending: Vec::new(),
        };
        start_move(&mut s, cfg, rng);
        s
    };
    for _ in 0..parallel {
        if let Some(start) = queue.next() {
            slots.push(new_slot(start, &mut rng));
        }
    }
    let mut inputs: Vec<Vec<f32>> = vec![Vec::new(); models.len()];
    let mut leaves: Vec<Vec<(usize, Leaf)>> = vec![Vec::new(); models.len()];
    while !slots.is_empty() {
        // Gather leaves from every game, per model.
        for (si, slot) in slots.iter_mut().enumerate() {
            let m = slot.model_to_move();
            let tree = &mut slot.trees[m];
            for _ in 0..cfg.leaves_per_game {
                let at = inputs[m].len();
                inputs[m].resize(at + INPUT_LEN, 0.0);
                match tree.gather(&mut inputs[m][at..]) {
                    Gathered::Leaf(leaf) => leaves[m].push((si, leaf)),
                    Gathered::Terminal => inputs[m].truncate(at),
                    Gathered::Busy => {
                        inputs[m].truncate(at);
                        break;
                    }
                }
                if !tree.root_expanded() {
                    break;
                }
            }
        }
        for m in 0..models.len() {
            if leaves[m].is_empty() {
                continue;
            }
            let out = models[m].evaluate(&inputs[m], leaves[m].len());
            for (i, (si, leaf)) in leaves[m].drain(..).enumerate() {
                slots[si].trees[m].expand(leaf, out.logits_of(i), out.values[i]);
            }
            inputs[m].clear();
        }
        // Play the moves whose searches are done; refill finished games' places.
        let mut si = 0;
        while si < slots.len() {
            let slot = &mut slots[si];
            let m = slot.model_to_move();
            let tree = &mut slot.trees[m];
            if tree.root_expanded()
                && !slot.noised
                && slot.full
                && cfg.noise_eps > 0.0
                && !cfg.gumbel
            {
                let noise = dirichlet(&mut rng, cfg.noise_alpha, tree.root_children());
                tree.add_root_noise(&noise, cfg.noise_eps);
                slot.noised = true;
            }
            let forced = tree.root_expanded() && tree.root_children() == 1;
            if !(forced || tree.root_expanded() && tree.visits() >= slot.target) {
                si += 1;
                continue;
            }
            let stats = tree.root_stats();
            let mover = slot.game.position().side_to_move();
            if collect && slot.full && !forced {
                let policy = if cfg.gumbel {
                    tree.improved_policy()
                        .iter()
                        .map(|(mv, p)| (action_for(mover, mv) as u16, *p))
                        .collect()
                } else {
                    let total: u32 = stats.iter().map(|s| s.1).sum();
                    stats
                        .iter()
                        .filter(|s| s.1 > 0)
                        .map(|s| {
                            (
                                action_for(mover, &s.0) as u16,
                                s.1 as f32 / total.max(1) as f32,
                            )
                        })
                        .collect()
                };
                slot.pending.push((
                    mover,
                    root_value(&stats),
                    Sample {
                        input: encode(&slot.game),
                        policy,
                        value: 0.0,
                    },
                ));
            }
            let ply = slot.game.ply_count();
            let chosen = if ply < cfg.temperature_plies && !cfg.gumbel {
                let total: u32 = stats.iter().map(|s| s.1).sum();
                let mut pick = rng.random_range(0..total.max(1));
                stats
                    .iter()
                    .find(|s| {
                        if pick < s.1 {
                            true
                        } else {
                            pick -= s.1;
                            false
                        }
                    })
                    .map(|s| s.0)
            } else {
                tree.best().map(|b| b.0)
            };
            let Some(mv) = chosen.or_else(|| stats.first().map(|s| s.0)) else {
                si += 1;
                continue;
            };
            let _ = slot.game.play(&mv);
            for t in &mut slot.trees {
                t.advance(&mv);
            }
            let result = slot.game.result();
            if result.is_over() || slot.game.ply_count() >= cfg.max_plies {
                let done = slots.swap_remove(si);
                let f = Finished {
                    result: if result.is_over() {
                        result
                    } else {
                        GameResult::Draw(draughts::DrawReason::Agreement)
                    },
                    game: done.game,
                    white: done.white,
                };
                for (colour, q, mut s) in done.pending {
                    let z = match f.result {
                        GameResult::Win { winner, .. } if winner == colour => 1.0,
                        GameResult::Win { .. } => -1.0,
                        _ => 0.0,
                    };
                    s.value = value_target(z, q, cfg.q_blend);
                    samples.push(s);
                }
                on_game(&f);
                finished.push(f);
                if let Some(start) = queue.next() {
                    slots.push(new_slot(start, &mut rng));
                }
                continue;
            }
            start_move(slot, cfg, &mut rng);
            si += 1;
        }
    }
    (finished, samples)
}

/// The root's mean value for the side to move: its children's means weighted by their visits.
fn root_value(stats: &[(draughts::Move, u32, f32)]) -> f32 {
    let visits: u32 = stats.iter().map(|s| s.1).sum();
    if visits == 0 {
        return 0.0;
    }
    stats.iter().map(|s| s.1 as f32 * s.2).sum::<f32>() / visits as f32
}

/// The value a sample is trained towards: the game's result `z` blended with the search's root
/// value `q` by `blend` (0: the result alone).
pub fn value_target(z: f32, q: f32, blend: f32) -> f32 {
    let blend = blend.clamp(0.0, 1.0);
    ((1.0 - blend) * z + blend * q).clamp(-1.0, 1.0)
}

fn start_move(slot: &mut Slot, cfg: &PlayConfig, rng: &mut StdRng) {
    slot.full = cfg.full_share >= 1.0 || rng.random::<f32>() < cfg.full_share;
    slot.target = if slot.full { cfg.sims } else { cfg.fast_sims };
    if cfg.gumbel {
        // Sequential halving spends its budget on this search, on top of a kept subtree.
        let draws = (0..slot.game.legal_moves().len())
            .map(|_| gumbel_draw(rng.random::<f32>()))
            .collect();
        let tree = &mut slot.trees[0];
        tree.use_gumbel(slot.target, draws);
        slot.target += tree.visits();
    }
    // Noise goes onto the root once it is expanded (at once when the kept subtree already is).
    slot.noised = false;
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tiny_model() -> Model {
        Model::random(
            zero::Shape {
                blocks: 1,
                filters: 8,
            },
            5,
        )
    }

    #[test]
    fn gumbel_self_play_trains_on_a_whole_improved_policy() {
        let model = tiny_model();
        let mut cfg = PlayConfig::self_play(8);
        cfg.gumbel = true;
        cfg.max_plies = 24;
        let starts = vec![(Game::new(), 0), (Game::new(), 0)];
        let (finished, samples) = play(&[&model], starts, &cfg, 9, 2, |_| {});
        assert_eq!(finished.len(), 2);
        assert!(!samples.is_empty());
        for s in &samples {
            // Every legal move has a share (the improved policy), not only the visited ones.
            let total: f32 = s.policy.iter().map(|p| p.1).sum();
            assert!((total - 1.0).abs() < 1e-4, "{total}");
            assert!(s.policy.iter().all(|p| p.1 > 0.0));
        }
        // The Gumbel draws vary the games: two games from the start do not repeat each other.
        assert_ne!(finished[0].game.moves(), finished[1].game.moves());
    }

    #[test]
    fn the_value_target_blends_the_result_with_the_root_value() {
        assert_eq!(value_target(1.0, -0.5, 0.0), 1.0);
        assert_eq!(value_target(0.0, -0.5, 1.0), -0.5);
        assert!((value_target(-1.0, 0.2, 0.5) + 0.4).abs() < 1e-6);
        // Out-of-range weights are held to [0, 1].
        assert_eq!(value_target(1.0, 0.0, 3.0), 0.0);
    }

    #[test]
    fn blended_self_play_labels_positions_of_a_drawn_game_by_their_search() {
        let model = tiny_model();
        let mut cfg = PlayConfig::self_play(16);
        cfg.max_plies = 20;
        let starts = || vec![(Game::new(), 0), (Game::new(), 0)];
        let (_, plain) = play(&[&model], starts(), &cfg, 9, 2, |_| {});
        cfg.q_blend = 0.5;
        let (finished, blended) = play(&[&model], starts(), &cfg, 9, 2, |_| {});
        // 20 plies end no game: every one is scored a draw, so the plain targets are all 0
        // and the blended ones are half the root value, which a search seldom makes exactly 0.
        assert!(finished.iter().all(|f| f.score_of_first() == 0.5));
        assert!(plain.iter().all(|s| s.value == 0.0));
        assert_eq!(plain.len(), blended.len());
        assert!(blended.iter().all(|s| s.value.abs() <= 0.5));
        assert!(blended.iter().any(|s| s.value != 0.0));
    }
}
