//! The training loop: self-play with the current generation, training on a window of recent
//! games, and a gating match; a candidate that wins it becomes the next generation, saved with
//! its card. Every accepted generation is on disk, so a stopped run resumes from the last one.

use std::path::{Path, PathBuf};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use search::elo::Tally;
use search::openings::built_in;
use serde::{Deserialize, Serialize};
use zero::{generation_file, Model, Net, Shape};

use crate::games::{play, PlayConfig, Sample};
use crate::train::{train, TrainConfig};

#[derive(Clone, Debug)]
pub struct RunConfig {
    pub out: PathBuf,
    pub generations: u32,
    pub shape: Shape,
    pub games: usize,
    pub sims: u32,
    pub full_share: f32,
    pub parallel: usize,
    /// Self-play rounds kept in the replay window.
    pub window: usize,
    pub train: TrainConfig,
    pub gate_games: usize,
    pub gate_sims: u32,
    /// Attempts at beating the current generation before the run gives up.
    pub attempts: u32,
    pub seed: u64,
    pub quiet: bool,
}

/// What a generation's card says (`models/gen<N>.yaml`).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Card {
    pub generation: u32,
    pub blocks: usize,
    pub filters: usize,
    /// Self-play games and samples that trained it (all rounds since the previous generation).
    pub games: usize,
    pub samples: usize,
    pub train_steps: usize,
    pub selfplay_s: f64,
    pub training_s: f64,
    pub gate_games: u32,
    pub gate_wins: u32,
    pub gate_draws: u32,
    pub gate_losses: u32,
    /// Score against the previous generation.
    pub gate_score: f64,
    /// Elo relative to generation 0 (the random network), through the chain of gating matches.
    pub elo: f64,
    pub value_loss: f32,
    pub policy_loss: f32,
    pub fingerprint: Vec<f32>,
}

pub fn card_file(dir: &Path, generation: u32) -> PathBuf {
    dir.join(format!("gen{generation}.yaml"))
}

pub fn read_card(dir: &Path, generation: u32) -> anyhow::Result<Card> {
    let file = card_file(dir, generation);
    let text =
        std::fs::read_to_string(&file).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))?;
    serde_yaml::from_str(&text).map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))
}

fn write_card(dir: &Path, card: &Card) -> anyhow::Result<()> {
    let file = card_file(dir, card.generation);
    std::fs::write(&file, serde_yaml::to_string(card)?)
        .map_err(|e| anyhow::anyhow!("{}: {e}", file.display()))
}

/// The last generation in `dir`, if any.
pub fn last_generation(dir: &Path) -> Option<u32> {
    (0..1000)
        .take_while(|&g| generation_file(dir, g).is_file())
        .last()
}

fn bar(len: u64, what: &str, quiet: bool) -> ProgressBar {
    if quiet {
        return ProgressBar::hidden();
    }
    let b = ProgressBar::new(len);
    b.set_style(
        ProgressStyle::with_template("{prefix:>10} [{bar:30}] {pos}/{len} {elapsed} {msg}")
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> "),
    );
    b.set_prefix(what.to_string());
    b
}

/// Candidate against current: games from the built-in openings, each opening with both colours.
pub fn gate(
    candidate: &Model,
    current: &Model,
    games: usize,
    sims: u32,
    seed: u64,
    quiet: bool,
) -> Tally {
    let openings = built_in();
    let starts: Vec<_> = (0..games)
        .map(|i| (openings[(i / 2) % openings.len()].game(), i % 2))
        .collect();
    let b = bar(games as u64, "gate", quiet);
    let mut tally = Tally::default();
    play(
        &[candidate, current],
        starts,
        &PlayConfig::matches(sims),
        seed,
        games.min(64),
        |f| {
            tally.add(f.score_of_first());
            b.inc(1);
            b.set_message(format!("{:.3}", tally.score()));
        },
    );
    b.finish_and_clear();
    tally
}

/// Runs the loop until `cfg.generations` generations exist (generation 0 is the random net).
pub fn run(cfg: &RunConfig) -> anyhow::Result<()> {
    std::fs::create_dir_all(&cfg.out)?;
    let mut gen = match last_generation(&cfg.out) {
        Some(g) => g,
        None => {
            let model = Model::random(cfg.shape, cfg.seed);
            model.save(&generation_file(&cfg.out, 0))?;
            write_card(
                &cfg.out,
                &Card {
                    generation: 0,
                    blocks: cfg.shape.blocks,
                    filters: cfg.shape.filters,
                    fingerprint: model.fingerprint(),
                    ..Card::default()
                },
            )?;
            0
        }
    };
    let mut current = zero::load_generation(&cfg.out, gen)?;
    let mut elo = read_card(&cfg.out, gen).map(|c| c.elo).unwrap_or(0.0);
    let train_device = zero::model::cpu().autodiff();
    let mut net: Net = zero::model::load_net(&generation_file(&cfg.out, gen), &train_device)?;
    let mut window: Vec<Vec<Sample>> = Vec::new();
    let mut attempt = 0u32;
    let (mut games, mut samples, mut steps) = (0usize, 0usize, 0usize);
    let (mut selfplay_s, mut training_s) = (0.0f64, 0.0f64);
    while gen < cfg.generations {
        let round_seed = cfg.seed ^ (u64::from(gen) << 32) ^ u64::from(attempt);
        // Self-play.
        let t = Instant::now();
        let openings = built_in();
        let starts: Vec<_> = (0..cfg.games)
            .map(|i| {
                let o = &openings[(round_seed as usize + i * 7) % openings.len()];
                // Half the games from the start, half from an opening, for variety.
                let game = if i % 2 == 0 {
                    draughts::Game::new()
                } else {
                    o.game()
                };
                (game, 0)
            })
            .collect();
        let b = bar(cfg.games as u64, "self-play", cfg.quiet);
        let mut play_cfg = PlayConfig::self_play(cfg.sims);
        play_cfg.full_share = cfg.full_share;
        play_cfg.fast_sims = (cfg.sims / 4).max(8);
        let (finished, round) = play(
            &[&current],
            starts,
            &play_cfg,
            round_seed,
            cfg.parallel,
            |_| b.inc(1),
        );
        b.finish_and_clear();
        selfplay_s += t.elapsed().as_secs_f64();
        games += finished.len();
        samples += round.len();
        window.push(round);
        if window.len() > cfg.window {
            window.remove(0);
        }
        // Training.
        let t = Instant::now();
        let pool: Vec<Sample> = window.iter().flatten().cloned().collect();
        let b = bar(cfg.train.steps as u64, "train", cfg.quiet);
        let (trained, losses) = train(net, &pool, &cfg.train, round_seed, |_, l| {
            b.inc(1);
            b.set_message(format!("value {:.3} policy {:.3}", l.value, l.policy));
        });
        b.finish_and_clear();
        net = trained;
        training_s += t.elapsed().as_secs_f64();
        steps += cfg.train.steps;
        // Gating.
        let candidate = Model::from_net(net.clone());
        let tally = gate(
            &candidate,
            &current,
            cfg.gate_games,
            cfg.gate_sims,
            round_seed,
            cfg.quiet,
        );
        let accepted = tally.score() >= 0.55
            && f64::from(tally.wins) >= 1.3 * f64::from(tally.losses)
            && tally.games() > 0;
        tracing::info!(
            "generation {} attempt {}: {} samples in the window, value loss {:.3}, policy loss {:.3}; candidate {} -> {}",
            gen + 1,
            attempt + 1,
            pool.len(),
            losses.value,
            losses.policy,
            tally.summary(),
            if accepted { "accepted" } else { "rejected" }
        );
        if !accepted {
            attempt += 1;
            if attempt >= cfg.attempts {
                anyhow::bail!(
                    "no candidate beat generation {gen} in {attempt} attempts: stopping (the generations so far are kept)"
                );
            }
            continue;
        }
        gen += 1;
        elo += tally.elo();
        candidate.save(&generation_file(&cfg.out, gen))?;
        write_card(
            &cfg.out,
            &Card {
                generation: gen,
                blocks: cfg.shape.blocks,
                filters: cfg.shape.filters,
                games,
                samples,
                train_steps: steps,
                selfplay_s,
                training_s,
                gate_games: tally.games(),
                gate_wins: tally.wins,
                gate_draws: tally.draws,
                gate_losses: tally.losses,
                gate_score: tally.score(),
                elo,
                value_loss: losses.value,
                policy_loss: losses.policy,
                fingerprint: candidate.fingerprint(),
            },
        )?;
        // The saved file is what the planner will load: continue from exactly that.
        current = zero::load_generation(&cfg.out, gen)?;
        attempt = 0;
        (games, samples, steps) = (0, 0, 0);
        (selfplay_s, training_s) = (0.0, 0.0);
    }
    Ok(())
}
