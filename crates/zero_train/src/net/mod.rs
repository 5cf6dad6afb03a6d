//! The network as the trainer holds it: burn's layers ([`Net`], which training changes) beside
//! the planner's plain-Rust copy ([`zero::Model`], which self-play and the gates evaluate), and
//! the generation's file written and read through burn.

mod tower;

use std::ops::Deref;
use std::path::Path;

use burn::prelude::*;
use burn::store::burn_pack::Reader;
use burn::store::{BurnpackStore, FloatCastAdapter, HalfPrecisionAdapter, ModuleSnapshot};
use burn::tensor::DType;
use zero::encode::{INPUT_LEN, PLANES};
use zero::{Model, ModelError, Outputs, Shape};

pub use tower::Net;

fn file_err(file: &Path, why: impl std::fmt::Display) -> ModelError {
    ModelError::File {
        file: file.to_path_buf(),
        why: why.to_string(),
    }
}

/// The CPU device every network of the trainer runs on (burn's pure-Rust `flex` backend).
pub fn cpu() -> Device {
    Device::flex()
}

/// A trained network and the planner's copy of it.
#[derive(Debug, Clone)]
pub struct Trained {
    net: Net,
    model: Model,
}

impl Trained {
    /// Fresh random weights by burn's initialisation (a first generation, and tests).
    pub fn random(shape: Shape, seed: u64) -> Trained {
        let device = cpu();
        device.seed(seed);
        Trained::from_net(Net::new(shape, &device))
    }

    /// Wraps a trained network (taken off the autodiff device), for inference and saving.
    pub fn from_net(net: Net) -> Trained {
        let net = net.valid();
        let model = Model::from_layers(&net.layers())
            .unwrap_or_else(|e| unreachable!("burn's layers are the shape they were built: {e}"));
        Trained { net, model }
    }

    /// Loads a generation's file into burn.
    pub fn load(file: &Path) -> Result<Trained, ModelError> {
        Ok(Trained::from_net(load_net(file, &cpu())?))
    }

    /// This network grown to a larger `shape` with the same outputs ([`Net::grown`]); the new
    /// weights drawn from `seed`.
    pub fn grown(&self, shape: Shape, seed: u64) -> Trained {
        let device = cpu();
        device.seed(seed);
        Trained::from_net(self.net.grown(shape, &device))
    }

    /// The network, for further training.
    pub fn net(&self) -> &Net {
        &self.net
    }

    /// Writes the network in half precision (BatchNorm statistics stay f32), atomically.
    pub fn save(&self, file: &Path) -> Result<(), ModelError> {
        let shape = self.net.shape();
        let mut store = BurnpackStore::from_file(file)
            .auto_extension(false)
            .overwrite(true)
            .metadata("blocks", shape.blocks.to_string())
            .metadata("filters", shape.filters.to_string())
            .with_to_adapter(HalfPrecisionAdapter::new());
        self.net
            .save_into(&mut store)
            .map_err(|e| file_err(file, e))
    }

    /// [`Model::evaluate`] through burn's own layers, unfolded: slower, the reference the
    /// planner's network is tested against.
    pub fn evaluate_unfolded(&self, inputs: &[f32], n: usize) -> Outputs {
        if n == 0 {
            return Outputs::default();
        }
        let x = Tensor::<4>::from_data(
            TensorData::new(inputs[..n * INPUT_LEN].to_vec(), [n, PLANES, 8, 8]),
            &cpu(),
        );
        let (p, v) = self.net.forward(x);
        let values = |t: Tensor<2>| {
            t.into_data()
                .convert::<f32>()
                .try_into_vec::<f32>()
                .unwrap_or_default()
        };
        Outputs {
            logits: values(p),
            values: values(v),
        }
    }
}

/// A trained network evaluates as the planner's copy of it.
impl Deref for Trained {
    type Target = Model;

    fn deref(&self) -> &Model {
        &self.model
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
