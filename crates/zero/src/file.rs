//! A generation's file: burnpack, burn's format, with the weights in half precision, the
//! BatchNorm statistics in f32 and the shape in the file's metadata. The trainer (`zero_train`)
//! writes it through burn; the planner reads it here with the format's own layout and `ciborium`
//! for its CBOR metadata, because burn's reader crate (`burn-pack`) brings burn's tensor library
//! and cubecl into the robot's build, about 25 s of its first compile (docs/results.md, "The first
//! build"). `crates/zero_train/tests/shipped.rs` checks that what burn writes reads back the same.
//!
//! The layout (burn-pack 0.22.1, `burn_pack::base`): a header of the magic "BURN" (u32 LE
//! 0x4255524E), the format version (u16 LE, 1) and the metadata's length (u32 LE); the CBOR
//! metadata (`tensors`: name to dtype, shape and byte range; `metadata`: string pairs); then the
//! tensors' bytes, from the next 256-byte boundary.

use std::collections::BTreeMap;
use std::path::Path;

use serde::Deserialize;

use crate::layers::{Block, ConvBn, Layers, Linear, BN_EPSILON};

const MAGIC: u32 = 0x4255_524E;
const VERSION: u16 = 1;
const HEADER: usize = 10;
const ALIGNMENT: usize = 256;
/// Far above any generation's (a 4x32 network's metadata is about 3 KB); a corrupt length is
/// refused before anything is allocated for it.
const MAX_METADATA: usize = 1 << 20;

#[derive(Deserialize)]
struct Metadata {
    tensors: BTreeMap<String, Descriptor>,
    #[serde(default)]
    metadata: BTreeMap<String, String>,
}

#[derive(Deserialize)]
struct Descriptor {
    /// burn's `DType`: a unit variant's name for the float types read here.
    dtype: ciborium::Value,
    shape: Vec<u64>,
    data_offsets: (u64, u64),
}

/// A tensor's values as f32, with its dimensions.
struct Values {
    dims: Vec<usize>,
    data: Vec<f32>,
}

/// A file's tensors by name, and its string metadata.
struct Unpacked {
    tensors: BTreeMap<String, Values>,
    meta: BTreeMap<String, String>,
}

/// The tensors and the string metadata of a burnpack file's bytes.
fn unpack(bytes: &[u8]) -> Result<Unpacked, String> {
    let header = bytes.get(..HEADER).ok_or("shorter than its header")?;
    let magic = u32::from_le_bytes([header[0], header[1], header[2], header[3]]);
    if magic != MAGIC {
        return Err("not a burnpack file (no BURN magic)".into());
    }
    let version = u16::from_le_bytes([header[4], header[5]]);
    if version != VERSION {
        return Err(format!("burnpack version {version}, this reads {VERSION}"));
    }
    let meta_len = u32::from_le_bytes([header[6], header[7], header[8], header[9]]) as usize;
    if meta_len > MAX_METADATA {
        return Err(format!("metadata of {meta_len} bytes"));
    }
    let meta_bytes = bytes
        .get(HEADER..HEADER + meta_len)
        .ok_or("cut inside its metadata")?;
    let meta: Metadata =
        ciborium::de::from_reader(meta_bytes).map_err(|e| format!("metadata: {e}"))?;
    let data_start = (HEADER + meta_len).div_ceil(ALIGNMENT) * ALIGNMENT;
    let mut tensors = BTreeMap::new();
    for (name, d) in meta.tensors {
        let range = usize::try_from(d.data_offsets.0)
            .ok()
            .zip(usize::try_from(d.data_offsets.1).ok())
            .and_then(|(a, b)| Some(data_start.checked_add(a)?..data_start.checked_add(b)?))
            .ok_or_else(|| format!("tensor {name}: byte range out of bounds"))?;
        let raw = bytes
            .get(range)
            .ok_or_else(|| format!("tensor {name}: the file is cut"))?;
        let data = to_f32(&name, &d.dtype, raw)?;
        let dims = d
            .shape
            .iter()
            .map(|&n| usize::try_from(n).map_err(|_| format!("tensor {name}: shape too large")))
            .collect::<Result<Vec<_>, _>>()?;
        if dims.iter().try_fold(1usize, |a, &n| a.checked_mul(n)) != Some(data.len()) {
            return Err(format!("tensor {name}: its shape and its data disagree"));
        }
        tensors.insert(name, Values { dims, data });
    }
    Ok(Unpacked {
        tensors,
        meta: meta.metadata,
    })
}

/// Reads every layer of a generation's file; the error says what is wrong, not where (the
/// caller names the file).
pub(crate) fn read_layers(file: &Path) -> Result<Layers, String> {
    if !file.is_file() {
        return Err("not found".into());
    }
    let bytes = std::fs::read(file).map_err(|e| e.to_string())?;
    let Unpacked { mut tensors, meta } = unpack(&bytes)?;
    let field = |key: &str| -> Result<usize, String> {
        meta.get(key)
            .and_then(|v| v.parse().ok())
            .filter(|&v| (1..=256).contains(&v))
            .ok_or_else(|| format!("no valid `{key}` in its metadata"))
    };
    let (blocks, filters) = (field("blocks")?, field("filters")?);
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

fn to_f32(name: &str, dtype: &ciborium::Value, bytes: &[u8]) -> Result<Vec<f32>, String> {
    let values = match dtype.as_text() {
        Some("F32") => bytes
            .chunks_exact(4)
            .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .collect(),
        Some("F16") => bytes
            .chunks_exact(2)
            .map(|b| half::f16::from_le_bytes([b[0], b[1]]).to_f32())
            .collect(),
        Some("BF16") => bytes
            .chunks_exact(2)
            .map(|b| half::bf16::from_le_bytes([b[0], b[1]]).to_f32())
            .collect(),
        _ => return Err(format!("tensor {name} is {dtype:?}, not a float")),
    };
    Ok(values)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A file as burnpack lays it out: header, CBOR metadata, data from the next 256 bytes.
    fn pack(tensors: &[(&str, &str, Vec<u64>, Vec<u8>)], meta: &[(&str, &str)]) -> Vec<u8> {
        use ciborium::Value;
        let mut descriptors = Vec::new();
        let mut data = Vec::new();
        for (name, dtype, shape, bytes) in tensors {
            data.resize(data.len().div_ceil(ALIGNMENT) * ALIGNMENT, 0);
            let offset = data.len() as u64;
            let end = offset + bytes.len() as u64;
            let shape = shape.iter().map(|&n| Value::from(n)).collect();
            descriptors.push((
                Value::from(*name),
                Value::Map(vec![
                    (Value::from("dtype"), Value::from(*dtype)),
                    (Value::from("shape"), Value::Array(shape)),
                    (
                        Value::from("data_offsets"),
                        Value::Array(vec![Value::from(offset), Value::from(end)]),
                    ),
                ]),
            ));
            data.extend_from_slice(bytes);
        }
        let meta = meta
            .iter()
            .map(|(k, v)| (Value::from(*k), Value::from(*v)))
            .collect();
        let root = Value::Map(vec![
            (Value::from("tensors"), Value::Map(descriptors)),
            (Value::from("metadata"), Value::Map(meta)),
        ]);
        let mut cbor = Vec::new();
        ciborium::ser::into_writer(&root, &mut cbor).expect("CBOR into a Vec");
        let mut out = MAGIC.to_le_bytes().to_vec();
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(cbor.len() as u32).to_le_bytes());
        out.extend_from_slice(&cbor);
        out.resize(out.len().div_ceil(ALIGNMENT) * ALIGNMENT, 0);
        out.extend_from_slice(&data);
        out
    }

    fn f16_bytes(values: &[f32]) -> Vec<u8> {
        values
            .iter()
            .flat_map(|&v| half::f16::from_f32(v).to_le_bytes())
            .collect()
    }

    #[test]
    fn reads_tensors_and_metadata() {
        let f32s: Vec<u8> = [1.5f32, -2.0]
            .iter()
            .flat_map(|v| v.to_le_bytes())
            .collect();
        let bytes = pack(
            &[
                ("a", "F16", vec![2, 2], f16_bytes(&[0.5, 1.0, -1.0, 2.0])),
                ("b", "F32", vec![2], f32s),
            ],
            &[("blocks", "4")],
        );
        let Unpacked { tensors, meta } = unpack(&bytes).expect("a valid file");
        assert_eq!(meta["blocks"], "4");
        assert_eq!(tensors["a"].dims, vec![2, 2]);
        assert_eq!(tensors["a"].data, vec![0.5, 1.0, -1.0, 2.0]);
        assert_eq!(tensors["b"].data, vec![1.5, -2.0]);
    }

    #[test]
    fn refuses_what_is_not_a_whole_float_file() {
        let good = pack(&[("a", "F16", vec![4], f16_bytes(&[1.0; 4]))], &[]);
        let error = |bytes: &[u8]| unpack(bytes).err().unwrap_or_default();
        assert!(error(&good[..good.len() - 2]).contains("cut"));
        assert!(error(&good[..20]).contains("cut inside its metadata"));
        assert!(error(b"BURX").contains("header"));
        let mut foreign = good.clone();
        foreign[0] ^= 1;
        assert!(error(&foreign).contains("magic"));
        let ints = pack(&[("a", "I32", vec![1], vec![0; 4])], &[]);
        assert!(error(&ints).contains("not a float"));
        let wrong_shape = pack(&[("a", "F16", vec![3], f16_bytes(&[1.0; 4]))], &[]);
        assert!(error(&wrong_shape).contains("disagree"));
    }
}
