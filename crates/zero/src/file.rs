//! A generation's file: burnpack (burn's format, read here by its own small crate `burn-pack`
//! without burn itself), with the weights in half precision, the BatchNorm statistics in f32,
//! and the shape in the file's metadata. The trainer (`zero_train`) writes it through burn.

use std::collections::BTreeMap;
use std::path::Path;

use burn_pack::{DType, Reader};

use crate::layers::{Block, ConvBn, Layers, Linear, BN_EPSILON};

/// A tensor's values as f32, with its dimensions.
struct Values {
    dims: Vec<usize>,
    data: Vec<f32>,
}

/// Reads every layer of a generation's file; the error says what is wrong, not where (the
/// caller names the file).
pub(crate) fn read_layers(file: &Path) -> Result<Layers, String> {
    if !file.is_file() {
        return Err("not found".into());
    }
    let reader = Reader::from_file_exact(file).map_err(|e| e.to_string())?;
    let meta = reader.metadata();
    let field = |key: &str| -> Result<usize, String> {
        meta.get(key)
            .and_then(|v| v.parse().ok())
            .filter(|&v| (1..=256).contains(&v))
            .ok_or_else(|| format!("no valid `{key}` in its metadata"))
    };
    let (blocks, filters) = (field("blocks")?, field("filters")?);
    let mut tensors = BTreeMap::new();
    for t in reader.into_tensors().map_err(|e| e.to_string())? {
        let (name, dtype, shape, _, bytes) = t.into_parts().map_err(|e| e.to_string())?;
        let data = to_f32(&name, dtype, &bytes)?;
        let dims = shape.as_slice().to_vec();
        if dims.iter().product::<usize>() != data.len() {
            return Err(format!("tensor {name}: its shape and its data disagree"));
        }
        tensors.insert(name, Values { dims, data });
    }
    let mut take = |name: &str| {
        tensors
            .remove(name)
            .ok_or_else(|| format!("no tensor {name}"))
    };
    let mut conv_bn = |conv: &str, bn: &str| -> Result<ConvBn, String> {
        let w = take(&format!("{conv}.weight"))?;
        let [c_out, c_in, kernel, k2] = w.dims[..] else {
            return Err(format!("{conv}.weight is not four-dimensional"));
        };
        if kernel != k2 {
            return Err(format!("{conv}.weight's kernel is not square"));
        }
        Ok(ConvBn {
            c_in,
            c_out,
            kernel,
            weight: w.data,
            gamma: take(&format!("{bn}.gamma"))?.data,
            beta: take(&format!("{bn}.beta"))?.data,
            running_mean: take(&format!("{bn}.running_mean"))?.data,
            running_var: take(&format!("{bn}.running_var"))?.data,
            epsilon: BN_EPSILON,
        })
    };
    let stem = conv_bn("stem", "stem_bn")?;
    let tower = (0..blocks)
        .map(|i| {
            Ok(Block {
                first: conv_bn(&format!("blocks.{i}.conv1"), &format!("blocks.{i}.bn1"))?,
                second: conv_bn(&format!("blocks.{i}.conv2"), &format!("blocks.{i}.bn2"))?,
            })
        })
        .collect::<Result<Vec<_>, String>>()?;
    let policy = conv_bn("policy_conv", "policy_bn")?;
    let value = conv_bn("value_conv", "value_bn")?;
    let mut linear = |name: &str| -> Result<Linear, String> {
        let w = take(&format!("{name}.weight"))?;
        let [d_in, d_out] = w.dims[..] else {
            return Err(format!("{name}.weight is not two-dimensional"));
        };
        Ok(Linear {
            d_in,
            d_out,
            weight: w.data,
            bias: take(&format!("{name}.bias"))?.data,
        })
    };
    let layers = Layers {
        stem,
        blocks: tower,
        policy,
        policy_fc: linear("policy_fc")?,
        value,
        value_fc1: linear("value_fc1")?,
        value_fc2: linear("value_fc2")?,
    };
    let shape = layers.shape()?;
    if (shape.blocks, shape.filters) != (blocks, filters) {
        return Err(format!(
            "its metadata says {blocks}x{filters}, its layers are {}x{}",
            shape.blocks, shape.filters
        ));
    }
    Ok(layers)
}

fn to_f32(name: &str, dtype: DType, bytes: &[u8]) -> Result<Vec<f32>, String> {
    let values = match dtype {
        DType::F32 => bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect(),
        DType::F16 => bytes
            .chunks_exact(2)
            .map(|b| half::f16::from_le_bytes([b[0], b[1]]).to_f32())
            .collect(),
        DType::BF16 => bytes
            .chunks_exact(2)
            .map(|b| half::bf16::from_le_bytes([b[0], b[1]]).to_f32())
            .collect(),
        other => return Err(format!("tensor {name} is {other:?}, not a float")),
    };
    Ok(values)
}
