//! The training loop: self-play with the current generation, training on a window of recent
//! games, and a gating match; a candidate that wins it becomes the next generation, saved with
//! its card. Every accepted generation is on disk, so a stopped run resumes from the last one.

use std::path::{Path, PathBuf};
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use search::{built_in_openings, Tally};
use serde::{Deserialize, Serialize};
use zero::{generation_file, Model, Shape};

use crate::net::{cpu, load_net, Net, Trained};

use crate::games::{play, PlayConfig, Sample};
use crate::replay::{load_window, push_round};
use crate::train::{train, train_from, Losses, TrainConfig};
use crate::warm::{label_games, WarmConfig};

#[derive(Clone, Debug)]
pub struct RunConfig {
    pub out: PathBuf,
    pub generations: u32,
    /// The shape of generation 0 when `out` has none (each later one keeps its parent's).
    pub shape: Shape,
    /// Self-play games a round; 0 trains on the replay rounds already on disk.
    pub games: usize,
    pub sims: u32,
    pub full_share: f32,
    /// Gumbel root selection and improved-policy targets in self-play.
    pub gumbel: bool,
    /// Weight of the root value in the value targets ([`PlayConfig::q_blend`]).
    pub q_blend: f32,
    pub parallel: usize,
    /// Self-play rounds kept in the replay window.
    pub window: usize,
    pub train: TrainConfig,
    pub gate_games: usize,
    pub gate_sims: u32,
    /// The gating score a candidate needs (and 1.3 wins per loss).
    pub accept: f64,
    /// Attempts at beating the current generation before the run gives up.
    pub attempts: u32,
    /// The network training starts from, when not the last generation.
    pub from: Option<PathBuf>,
    pub seed: u64,
    pub quiet: bool,
}

/// What a generation's card says (`models/gen<N>.yaml`).
#[derive(Clone, Debug, Default, Serialize, Deserialize, PartialEq)]
pub struct Card {
    pub generation: u32,
    /// What trained it: self-play, or the warm start from alpha-beta's games.
    #[serde(default)]
    pub source: String,
    pub blocks: usize,
    pub filters: usize,
    /// Games and samples that trained it (all rounds since the previous generation).
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

impl Card {
    /// The card of `candidate`, accepted as generation `generation` by the gating `tally`,
    /// with Elo `elo` and its training's last `losses`; what trained it is filled in after.
    fn gated(
        generation: u32,
        source: String,
        candidate: &Model,
        tally: &Tally,
        elo: f64,
        losses: &Losses,
    ) -> Card {
        Card {
            generation,
            source,
            blocks: candidate.shape().blocks,
            filters: candidate.shape().filters,
            gate_games: tally.games(),
            gate_wins: tally.wins,
            gate_draws: tally.draws,
            gate_losses: tally.losses,
            gate_score: tally.score(),
            elo,
            value_loss: losses.value,
            policy_loss: losses.policy,
            ..Card::default()
        }
    }
}

/// The last self-play candidate that lost its gate (each rejected one replaces the one before).
pub fn rejected_file(dir: &Path) -> PathBuf {
    dir.join("rejected.bpk")
}

/// Keeps a candidate that lost its gate in `dir`, so that it can still be measured at other
/// visit counts or trained on (`--from`); says where, or why it could not be kept.
fn keep_rejected(candidate: &Trained, dir: &Path) -> String {
    let kept = rejected_file(dir);
    match candidate.save(&kept) {
        Ok(()) => format!("kept in {}", kept.display()),
        Err(e) => format!("it could not be kept: {e}"),
    }
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
    let openings = built_in_openings();
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

/// The paper's rule: 1.3 wins per loss, and (ours) a score of at least `min_score`.
pub fn accepted(tally: &Tally, min_score: f64) -> bool {
    tally.games() > 0
        && tally.score() >= min_score
        && f64::from(tally.wins) >= 1.3 * f64::from(tally.losses)
}

/// The last generation in `out`, after writing generation 0 (a random network) if there is none.
fn last_or_random(out: &Path, shape: Shape, seed: u64) -> anyhow::Result<u32> {
    std::fs::create_dir_all(out)?;
    if let Some(g) = last_generation(out) {
        return Ok(g);
    }
    let model = Trained::random(shape, seed);
    model.save(&generation_file(out, 0))?;
    write_card(
        out,
        &Card {
            generation: 0,
            source: "random".into(),
            blocks: shape.blocks,
            filters: shape.filters,
            fingerprint: model.fingerprint(),
            ..Card::default()
        },
    )?;
    Ok(0)
}

/// Saves an accepted candidate as generation `card.generation`, with its card (the card's
/// fingerprint is taken here), and loads it back: what the planner will load is what training
/// continues from.
fn save_generation(out: &Path, candidate: &Trained, mut card: Card) -> anyhow::Result<Model> {
    candidate.save(&generation_file(out, card.generation))?;
    card.fingerprint = candidate.fingerprint();
    write_card(out, &card)?;
    Ok(zero::load_generation(out, card.generation)?)
}

/// Keeps a round of samples on disk for a resumed run; failing to costs only that.
fn persist_round(out: &Path, round: &[Sample], window: usize) {
    if let Err(e) = push_round(out, round, window) {
        tracing::warn!("the replay round was not saved: {e}");
    }
}

/// One round of self-play by `current`: the games finished and their samples.
fn self_play(cfg: &RunConfig, current: &Model, round_seed: u64) -> (usize, Vec<Sample>) {
    let openings = built_in_openings();
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
    play_cfg.gumbel = cfg.gumbel;
    play_cfg.q_blend = cfg.q_blend;
    let (finished, round) = play(
        &[current],
        starts,
        &play_cfg,
        round_seed,
        cfg.parallel,
        |_| b.inc(1),
    );
    b.finish_and_clear();
    (finished.len(), round)
}

/// Runs the loop until `cfg.generations` generations exist (generation 0 is the random net).
pub fn run(cfg: &RunConfig) -> anyhow::Result<()> {
    let mut gen = last_or_random(&cfg.out, cfg.shape, cfg.seed)?;
    let mut current = zero::load_generation(&cfg.out, gen)?;
    let mut elo = read_card(&cfg.out, gen).map(|c| c.elo).unwrap_or(0.0);
    let train_device = cpu().autodiff();
    let start = cfg
        .from
        .clone()
        .unwrap_or_else(|| generation_file(&cfg.out, gen));
    if cfg.from.is_some() {
        let shape = Model::load(&start)?.shape();
        if shape != current.shape() {
            anyhow::bail!(
                "{} is a {}x{} network, generation {gen} a {}x{} one",
                start.display(),
                shape.blocks,
                shape.filters,
                current.shape().blocks,
                current.shape().filters
            );
        }
    }
    let mut net: Net = load_net(&start, &train_device)?;
    let mut window: Vec<Vec<Sample>> = load_window(&cfg.out, cfg.window);
    if !window.is_empty() {
        tracing::info!(
            "resuming with {} replay rounds ({} samples)",
            window.len(),
            window.iter().map(Vec::len).sum::<usize>()
        );
    }
    let mut source = if cfg.gumbel {
        "self-play (Gumbel)"
    } else {
        "self-play"
    }
    .to_string();
    if cfg.q_blend > 0.0 {
        source = format!(
            "{source}, values {:.2} result and {:.2} root value",
            1.0 - cfg.q_blend,
            cfg.q_blend
        );
    }
    if cfg.games == 0 {
        source = "the replay rounds on disk, no new self-play".to_string();
    }
    if cfg.from.is_some() {
        source = format!("{source}, trained from {}", start.display());
    }
    let mut attempt = 0u32;
    let (mut games, mut samples, mut steps) = (0usize, 0usize, 0usize);
    let (mut selfplay_s, mut training_s) = (0.0f64, 0.0f64);
    if cfg.games == 0 && window.is_empty() {
        anyhow::bail!(
            "no self-play games asked for and no replay rounds in {}: nothing to train on",
            crate::replay::replay_dir(&cfg.out).display()
        );
    }
    while gen < cfg.generations {
        let round_seed = cfg.seed ^ (u64::from(gen) << 32) ^ u64::from(attempt);
        if cfg.games > 0 {
            let t = Instant::now();
            let (finished, round) = self_play(cfg, &current, round_seed);
            selfplay_s += t.elapsed().as_secs_f64();
            games += finished;
            samples += round.len();
            persist_round(&cfg.out, &round, cfg.window);
            window.push(round);
            if window.len() > cfg.window {
                window.remove(0);
            }
        }
        // Training.
        let t = Instant::now();
        let pool: Vec<&[Sample]> = window.iter().map(Vec::as_slice).collect();
        let pool_len: usize = pool.iter().map(|r| r.len()).sum();
        if cfg.games == 0 {
            samples = pool_len;
        }
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
        let candidate = Trained::from_net(net.clone());
        let tally = gate(
            &candidate,
            &current,
            cfg.gate_games,
            cfg.gate_sims,
            round_seed,
            cfg.quiet,
        );
        let accepted = accepted(&tally, cfg.accept);
        let verdict = if accepted {
            "accepted".to_string()
        } else {
            format!("rejected, {}", keep_rejected(&candidate, &cfg.out))
        };
        tracing::info!(
            "generation {} attempt {}: {} samples in the window, value loss {:.3}, policy loss {:.3}; candidate {} -> {verdict}",
            gen + 1,
            attempt + 1,
            pool_len,
            losses.value,
            losses.policy,
            tally.summary(),
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
        current = save_generation(
            &cfg.out,
            &candidate,
            Card {
                games,
                samples,
                train_steps: steps,
                selfplay_s,
                training_s,
                ..Card::gated(gen, source.clone(), &candidate, &tally, elo, &losses)
            },
        )?;
        attempt = 0;
        (games, samples, steps) = (0, 0, 0);
        (selfplay_s, training_s) = (0.0, 0.0);
    }
    Ok(())
}

/// What `zero-train warm` does.
#[derive(Clone, Debug)]
pub struct WarmRun {
    pub out: PathBuf,
    pub shape: Shape,
    pub warm: WarmConfig,
    pub train: TrainConfig,
    /// The warm positions join the replay window of the self-play rounds after them.
    pub window: usize,
    pub gate_games: usize,
    pub gate_sims: u32,
    pub accept: f64,
    /// Grow the last generation to this larger shape before training ([`Trained::grown`]).
    pub grow: Option<Shape>,
    pub quiet: bool,
}

/// Where a warm start's training is checkpointed, and how far it got.
#[derive(Clone, Debug, Serialize, Deserialize, PartialEq)]
struct Checkpoint {
    /// The generation being trained, the labels' and the training's settings: a checkpoint
    /// made with others is not resumed.
    from_generation: u32,
    samples: usize,
    steps: usize,
    /// The shape trained (larger than the generation's when it was grown).
    #[serde(default)]
    shape: (usize, usize),
    /// Steps done.
    step: usize,
}

const CHECKPOINT_EVERY: usize = 500;

fn checkpoint_files(out: &Path) -> (PathBuf, PathBuf) {
    let dir = out.join("warm");
    (dir.join("checkpoint.bpk"), dir.join("checkpoint.yaml"))
}

/// The network and step of a checkpoint made by the same warm start, if there is one.
fn resume_checkpoint(
    out: &Path,
    want: &Checkpoint,
    device: &burn::prelude::Device,
) -> Option<(Net, usize)> {
    let (net_file, card_file) = checkpoint_files(out);
    let text = std::fs::read_to_string(&card_file).ok()?;
    let found: Checkpoint = serde_yaml::from_str(&text).ok()?;
    let settings = |c: &Checkpoint| (c.from_generation, c.samples, c.steps, c.shape);
    if settings(&found) != settings(want) {
        return None;
    }
    match load_net(&net_file, device) {
        Ok(net) => Some((net, found.step)),
        Err(e) => {
            tracing::warn!("training from the start, the checkpoint does not load: {e}");
            None
        }
    }
}

/// Saved like a generation (weights in half precision): a resumed run loses only that
/// rounding and the optimizer's moments.
fn save_checkpoint(out: &Path, net: &Net, at: &Checkpoint) -> anyhow::Result<()> {
    let (net_file, card_file) = checkpoint_files(out);
    if let Some(dir) = net_file.parent() {
        std::fs::create_dir_all(dir)?;
    }
    Trained::from_net(net.clone()).save(&net_file)?;
    std::fs::write(&card_file, serde_yaml::to_string(at)?)
        .map_err(|e| anyhow::anyhow!("{}: {e}", card_file.display()))
}

/// `current` grown to `shape`, written under `out/warm` for the training to load.
fn grow(out: &Path, current: &Trained, shape: Shape, seed: u64) -> anyhow::Result<PathBuf> {
    let now = current.shape();
    if shape.blocks < now.blocks || shape.filters < now.filters {
        anyhow::bail!(
            "a {}x{} network cannot grow to {}x{}",
            now.blocks,
            now.filters,
            shape.blocks,
            shape.filters
        );
    }
    let file = out.join("warm").join("grown.bpk");
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)?;
    }
    current.grown(shape, seed).save(&file)?;
    tracing::info!(
        "generation grown from {}x{} to {}x{}",
        now.blocks,
        now.filters,
        shape.blocks,
        shape.filters
    );
    Ok(file)
}

/// Trains the last generation on positions labelled by alpha-beta and gates the result against
/// it; returns the new generation. The positions stay in the replay window either way. The
/// labels are saved chunk by chunk and the training every 500 steps, under `out/warm`, so a
/// stopped warm start resumes where it was.
pub fn warm_start(cfg: &WarmRun) -> anyhow::Result<u32> {
    let gen = last_or_random(&cfg.out, cfg.shape, cfg.warm.play.seed)?;
    let current = zero::load_generation(&cfg.out, gen)?;
    let elo = read_card(&cfg.out, gen).map(|c| c.elo).unwrap_or(0.0);
    let t = Instant::now();
    let b = bar(cfg.warm.games as u64, "alpha-beta", cfg.quiet);
    let samples = label_games(&cfg.warm, &cfg.out, || b.inc(1));
    b.finish_and_clear();
    let label_s = t.elapsed().as_secs_f64();
    tracing::info!(
        "{} positions from {} alpha-beta games at depth {} in {label_s:.0} s",
        samples.len(),
        cfg.warm.games,
        cfg.warm.play.depth
    );
    let t = Instant::now();
    let device = cpu().autodiff();
    let shape = cfg.grow.unwrap_or(current.shape());
    let mut at = Checkpoint {
        from_generation: gen,
        samples: samples.len(),
        steps: cfg.train.steps,
        shape: (shape.blocks, shape.filters),
        step: 0,
    };
    let (net, first) = match resume_checkpoint(&cfg.out, &at, &device) {
        Some((net, step)) => {
            tracing::info!("resuming the training at step {step} from its checkpoint");
            (net, step)
        }
        None => {
            // Once per warm start: a resumed one has put its positions in the window already.
            persist_round(&cfg.out, &samples, cfg.window);
            let start = match cfg.grow {
                Some(shape) => grow(
                    &cfg.out,
                    &Trained::load(&generation_file(&cfg.out, gen))?,
                    shape,
                    cfg.warm.play.seed,
                )?,
                None => generation_file(&cfg.out, gen),
            };
            (load_net(&start, &device)?, 0)
        }
    };
    let b = bar(cfg.train.steps as u64, "train", cfg.quiet);
    b.set_position(first as u64);
    let seed = cfg.warm.play.seed ^ first as u64;
    let (net, losses) = train_from(net, &[&samples], &cfg.train, seed, first, |step, l, net| {
        b.inc(1);
        b.set_message(format!("value {:.3} policy {:.3}", l.value, l.policy));
        if (step + 1) % CHECKPOINT_EVERY == 0 && step + 1 < cfg.train.steps {
            at.step = step + 1;
            if let Err(e) = save_checkpoint(&cfg.out, net, &at) {
                tracing::warn!("no checkpoint at step {}: {e}", step + 1);
            }
        }
    });
    b.finish_and_clear();
    let training_s = t.elapsed().as_secs_f64();
    let candidate = Trained::from_net(net);
    let tally = gate(
        &candidate,
        &current,
        cfg.gate_games,
        cfg.gate_sims,
        cfg.warm.play.seed,
        cfg.quiet,
    );
    tracing::info!(
        "warm-started candidate against generation {gen}: {}",
        tally.summary()
    );
    let (net_file, card_file) = checkpoint_files(&cfg.out);
    let _ = std::fs::remove_file(net_file);
    let _ = std::fs::remove_file(card_file);
    if !accepted(&tally, cfg.accept) {
        let kept = keep_rejected(&candidate, &cfg.out.join("warm"));
        anyhow::bail!(
            "the warm-started candidate did not beat generation {gen} ({}); {kept}; its positions stay in the replay window",
            tally.summary()
        );
    }
    let p = &cfg.warm.play;
    save_generation(
        &cfg.out,
        &candidate,
        Card {
            games: cfg.warm.games,
            samples: samples.len(),
            train_steps: cfg.train.steps,
            selfplay_s: label_s,
            training_s,
            ..Card::gated(
                gen + 1,
                format!(
                    "warm start: {} alpha-beta games at depth {} ({} evaluation{}){}",
                    cfg.warm.games,
                    p.depth,
                    cfg.warm.eval.name(),
                    p.endgame
                        .as_ref()
                        .map(|db| format!(", {}-piece database", db.max_pieces()))
                        .unwrap_or_default(),
                    cfg.grow
                        .map(|s| format!(
                            ", generation {gen} grown to {}x{} first",
                            s.blocks, s.filters
                        ))
                        .unwrap_or_default()
                ),
                &candidate,
                &tally,
                elo + tally.elo(),
                &losses,
            )
        },
    )?;
    Ok(gen + 1)
}

/// Recomputes every card's fingerprint from its generation's file (after the fixed positions
/// of [`Model::fingerprint`] change) and returns the cards.
pub fn refresh_cards(out: &Path) -> anyhow::Result<Vec<Card>> {
    let Some(last) = last_generation(out) else {
        anyhow::bail!("no generations in {}", out.display());
    };
    let mut cards = Vec::new();
    for g in 0..=last {
        let model = zero::load_generation(out, g)?;
        let mut card = read_card(out, g)?;
        card.fingerprint = model.fingerprint();
        write_card(out, &card)?;
        cards.push(card);
    }
    Ok(cards)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_checkpoint_resumes_only_the_same_warm_start() {
        let dir = tempfile::tempdir().expect("dir");
        let device = cpu().autodiff();
        let shape = Shape {
            blocks: 1,
            filters: 4,
        };
        let net = Trained::random(shape, 3).net().clone();
        let at = Checkpoint {
            from_generation: 2,
            samples: 100,
            steps: 1000,
            shape: (1, 4),
            step: 500,
        };
        save_checkpoint(dir.path(), &net, &at).expect("saved");
        let want = Checkpoint {
            step: 0,
            ..at.clone()
        };
        let (_, step) = resume_checkpoint(dir.path(), &want, &device).expect("resumes");
        assert_eq!(step, 500);
        let other = Checkpoint {
            samples: 101,
            ..want.clone()
        };
        assert!(resume_checkpoint(dir.path(), &other, &device).is_none());
        // Nor does a warm start that grows the network to another shape.
        let grown = Checkpoint {
            shape: (2, 8),
            ..want
        };
        assert!(resume_checkpoint(dir.path(), &grown, &device).is_none());
    }
}
