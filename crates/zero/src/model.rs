//! A network ready to evaluate positions, from its generation's file ([`crate::file`]) or from
//! the trainer's layers.

use std::path::{Path, PathBuf};

use draughts::{Game, Position};

use crate::encode::{encode_into, ACTIONS, INPUT_LEN};
use crate::folded::FoldedNet;
use crate::layers::{Layers, Shape};

#[derive(Debug, thiserror::Error)]
pub enum ModelError {
    #[error("network file {file}: {why}")]
    File { file: PathBuf, why: String },
    #[error("no network generation {generation} in {dir}: {why}")]
    NoGeneration {
        generation: u32,
        dir: PathBuf,
        why: String,
    },
}

fn file_err(file: &Path, why: impl std::fmt::Display) -> ModelError {
    ModelError::File {
        file: file.to_path_buf(),
        why: why.to_string(),
    }
}

/// What the network says about a batch of positions.
#[derive(Clone, Debug, Default)]
pub struct Outputs {
    /// `ACTIONS` logits per position, in the network's frame.
    pub logits: Vec<f32>,
    /// The side to move's expected result per position, in [-1, 1].
    pub values: Vec<f32>,
}

impl Outputs {
    pub fn logits_of(&self, i: usize) -> &[f32] {
        &self.logits[i * ACTIONS..(i + 1) * ACTIONS]
    }
}

/// A network for inference.
#[derive(Debug, Clone)]
pub struct Model {
    shape: Shape,
    folded: FoldedNet,
}

impl Model {
    /// A network of these layers; an error says which layer has the wrong size.
    pub fn from_layers(layers: &Layers) -> Result<Model, String> {
        let shape = layers.shape()?;
        Ok(Model {
            shape,
            folded: FoldedNet::new(layers),
        })
    }

    /// Random weights of `shape` (tests and benchmarks).
    pub fn random(shape: Shape, seed: u64) -> Model {
        let layers = Layers::random(shape, seed);
        Model {
            shape,
            folded: FoldedNet::new(&layers),
        }
    }

    pub fn shape(&self) -> Shape {
        self.shape
    }

    /// Loads a generation's file.
    pub fn load(file: &Path) -> Result<Model, ModelError> {
        let layers = crate::file::read_layers(file).map_err(|e| file_err(file, e))?;
        let model = Model::from_layers(&layers).map_err(|e| file_err(file, e))?;
        // Bit flips in the weights load without complaint: a network that answers NaN is refused.
        let probe = model.evaluate_games(&[Game::new()]);
        if probe
            .values
            .iter()
            .chain(&probe.logits)
            .any(|x| !x.is_finite())
        {
            return Err(file_err(file, "its weights give non-finite outputs"));
        }
        Ok(model)
    }

    /// Evaluates `n` encoded positions (`n * INPUT_LEN` floats).
    pub fn evaluate(&self, inputs: &[f32], n: usize) -> Outputs {
        if n == 0 {
            return Outputs::default();
        }
        let (logits, values) = self.folded.evaluate(&inputs[..n * INPUT_LEN], n);
        Outputs { logits, values }
    }

    /// Evaluates the current positions of some games.
    pub fn evaluate_games(&self, games: &[Game]) -> Outputs {
        let mut inputs = vec![0.0; games.len() * INPUT_LEN];
        for (g, chunk) in games.iter().zip(inputs.chunks_mut(INPUT_LEN)) {
            encode_into(g, chunk);
        }
        self.evaluate(&inputs, games.len())
    }

    /// A short fingerprint of the network's outputs on fixed positions: values and the
    /// largest logit of each, rounded, for the shipped generations' tests.
    pub fn fingerprint(&self) -> Vec<f32> {
        let games: Vec<Game> = fingerprint_positions()
            .into_iter()
            .map(Game::from_position)
            .collect();
        let out = self.evaluate_games(&games);
        (0..games.len())
            .flat_map(|i| {
                let max = out.logits_of(i).iter().copied().fold(f32::MIN, f32::max);
                [out.values[i], max]
            })
            .map(|x| (x * 1000.0).round() / 1000.0)
            .collect()
    }
}

/// Fixed positions: the start with each side to move, a middle game, kings only, and a capture
/// with kings. All are legal FENs (a test checks that none is dropped).
pub fn fingerprint_positions() -> Vec<Position> {
    [
        draughts::START_FEN,
        "B:W21-32:B1-12",
        "W:W18,22-32:B1-11,15",
        "W:WK1,K32:BK5",
        "B:W9,K27:B2,K30,23",
    ]
    .iter()
    .filter_map(|f| draughts::parse_fen(f).ok())
    .collect()
}

/// Where generation `n` lives in `dir`.
pub fn generation_file(dir: &Path, generation: u32) -> PathBuf {
    dir.join(format!("gen{generation}.bpk"))
}

/// Loads generation `n` from `dir`.
pub fn load_generation(dir: &Path, generation: u32) -> Result<Model, ModelError> {
    Model::load(&generation_file(dir, generation))
}
