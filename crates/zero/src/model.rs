//! A network ready to evaluate positions, and its file: burnpack with the weights in half
//! precision and the shape in the file's metadata, so one file is one generation.

use std::path::{Path, PathBuf};

use burn::prelude::*;
use burn::store::burn_pack::Reader;
use burn::store::{BurnpackStore, FloatCastAdapter, HalfPrecisionAdapter, ModuleSnapshot};
use burn::tensor::DType;
use draughts::{Game, Position};

use crate::encode::{encode_into, ACTIONS, INPUT_LEN, PLANES};
use crate::folded::FoldedNet;
use crate::net::{Net, Shape};

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

/// The CPU device every network of this crate runs on (burn's pure-Rust `flex` backend).
pub fn cpu() -> Device {
    Device::flex()
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
    net: Net,
    /// The same network folded for fast inference; [`Model::evaluate`] runs this one.
    folded: FoldedNet,
    device: Device,
}

impl Model {
    /// Fresh random weights (the first generation of a training run, and tests).
    pub fn random(shape: Shape, seed: u64) -> Model {
        let device = cpu();
        device.seed(seed);
        Model::wrap(Net::new(shape, &device), device)
    }

    /// Wraps a trained network, for inference.
    pub fn from_net(net: Net) -> Model {
        Model::wrap(net.valid(), cpu())
    }

    fn wrap(net: Net, device: Device) -> Model {
        Model {
            folded: FoldedNet::new(&net, &device),
            net,
            device,
        }
    }

    /// This network grown to a larger `shape` with the same outputs ([`Net::grown`]); the new
    /// weights drawn from `seed`.
    pub fn grown(&self, shape: Shape, seed: u64) -> Model {
        let device = cpu();
        device.seed(seed);
        Model::wrap(self.net.grown(shape, &device), device)
    }

    /// The network, for further training.
    pub fn net(&self) -> &Net {
        &self.net
    }

    pub fn shape(&self) -> Shape {
        self.net.shape()
    }

    /// Loads a network file written by [`Model::save`].
    pub fn load(file: &Path) -> Result<Model, ModelError> {
        let device = cpu();
        let net = load_net(file, &device)?;
        let model = Model::wrap(net.valid(), device);
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

    /// Writes the network in half precision (BatchNorm statistics stay f32), atomically.
    pub fn save(&self, file: &Path) -> Result<(), ModelError> {
        let shape = self.shape();
        let mut store = BurnpackStore::from_file(file)
            .auto_extension(false)
            .overwrite(true)
            .metadata("blocks", shape.blocks.to_string())
            .metadata("filters", shape.filters.to_string())
            .with_to_adapter(HalfPrecisionAdapter::new());
        self.net
            .valid()
            .save_into(&mut store)
            .map_err(|e| file_err(file, e))
    }

    /// Evaluates `n` encoded positions (`n * INPUT_LEN` floats).
    pub fn evaluate(&self, inputs: &[f32], n: usize) -> Outputs {
        if n == 0 {
            return Outputs::default();
        }
        let (logits, values) = self.folded.evaluate(&inputs[..n * INPUT_LEN], n);
        Outputs { logits, values }
    }

    /// [`Model::evaluate`] through the trained network's own layers, unfolded: slower, the
    /// reference the folded network is tested against.
    pub fn evaluate_unfolded(&self, inputs: &[f32], n: usize) -> Outputs {
        if n == 0 {
            return Outputs::default();
        }
        let x = Tensor::<4>::from_data(
            TensorData::new(inputs[..n * INPUT_LEN].to_vec(), [n, PLANES, 8, 8]),
            &self.device,
        );
        let (p, v) = self.net.forward(x);
        Outputs {
            logits: p.into_data().to_vec_f32(),
            values: v.into_data().to_vec_f32(),
        }
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

/// Reads a float tensor's data as f32, whatever it is stored as.
trait ToVecF32 {
    fn to_vec_f32(self) -> Vec<f32>;
}

impl ToVecF32 for TensorData {
    fn to_vec_f32(self) -> Vec<f32> {
        self.convert::<f32>()
            .try_into_vec::<f32>()
            .unwrap_or_default()
    }
}

/// Loads a network file onto `device` (an autodiff one to train it further).
pub fn load_net(file: &Path, device: &Device) -> Result<Net, ModelError> {
    if !file.is_file() {
        return Err(file_err(file, "not found"));
    }
    let reader = Reader::from_file(file).map_err(|e| file_err(file, e))?;
    let meta = reader.metadata();
    let field = |key: &str| -> Result<usize, ModelError> {
        meta.get(key)
            .and_then(|v| v.parse().ok())
            .filter(|&v| (1..=256).contains(&v))
            .ok_or_else(|| file_err(file, format!("no valid `{key}` in its metadata")))
    };
    let shape = Shape {
        blocks: field("blocks")?,
        filters: field("filters")?,
    };
    let mut net = Net::new(shape, device);
    let mut store =
        BurnpackStore::from_file(file).with_from_adapter(FloatCastAdapter::to(DType::F32));
    let applied = net.load_from(&mut store).map_err(|e| file_err(file, e))?;
    if !applied.missing.is_empty() || !applied.errors.is_empty() {
        return Err(file_err(
            file,
            format!(
                "{} tensors missing, {} not loadable",
                applied.missing.len(),
                applied.errors.len()
            ),
        ));
    }
    Ok(net)
}

/// Where generation `n` lives in `dir`.
pub fn generation_file(dir: &Path, generation: u32) -> PathBuf {
    dir.join(format!("gen{generation}.bpk"))
}

/// Loads generation `n` from `dir`.
pub fn load_generation(dir: &Path, generation: u32) -> Result<Model, ModelError> {
    Model::load(&generation_file(dir, generation))
}
