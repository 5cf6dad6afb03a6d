//! The replay window on disk: each round's samples in `<out>/replay/round<k>.bin`, so that a
//! stopped run resumes training on the same window, and so that the warm start's positions stay
//! in the window of the self-play rounds that follow it.
//!
//! A file is `ZRP1`, the sample count (u32), then per sample: the input planes as bytes (a plane
//! value times 255; the planes are 0/1 except the counting-draw one, which loses nothing that
//! matters at 1/255), the number of policy entries (u16), each entry's action (u16) and share
//! (f32), and the value (f32). Little-endian.

use std::io::{BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};

use zero::encode::{ACTIONS, INPUT_LEN};

use crate::games::Sample;

const MAGIC: &[u8; 4] = b"ZRP1";

#[derive(Debug, thiserror::Error)]
pub enum ReplayError {
    #[error("{file}: {source}")]
    Io {
        file: PathBuf,
        source: std::io::Error,
    },
    #[error("{file}: not a replay file or cut short ({why})")]
    Corrupt { file: PathBuf, why: Corrupt },
}

/// What is wrong inside a replay file.
#[derive(Debug, thiserror::Error)]
pub enum Corrupt {
    #[error("{0}")]
    Read(#[from] std::io::Error),
    #[error("wrong magic")]
    Magic,
    #[error("policy entry ({action}, {p}) out of range")]
    Policy { action: u16, p: f32 },
    #[error("value {0} out of range")]
    Value(f32),
}

pub fn replay_dir(out: &Path) -> PathBuf {
    out.join("replay")
}

fn round_file(dir: &Path, round: u32) -> PathBuf {
    dir.join(format!("round{round}.bin"))
}

/// The rounds on disk, oldest first.
fn rounds(dir: &Path) -> Vec<u32> {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return Vec::new();
    };
    let mut found: Vec<u32> = entries
        .filter_map(|e| e.ok())
        .filter_map(|e| {
            let name = e.file_name().into_string().ok()?;
            name.strip_prefix("round")?
                .strip_suffix(".bin")?
                .parse()
                .ok()
        })
        .collect();
    found.sort_unstable();
    found
}

/// Writes `samples` as the newest round and deletes the rounds that fell out of a window of
/// `window` rounds.
pub fn push_round(out: &Path, samples: &[Sample], window: usize) -> Result<(), ReplayError> {
    let dir = replay_dir(out);
    let io = |file: &Path| {
        let file = file.to_path_buf();
        move |source| ReplayError::Io { file, source }
    };
    std::fs::create_dir_all(&dir).map_err(io(&dir))?;
    let existing = rounds(&dir);
    let next = existing.last().map_or(0, |r| r + 1);
    write_file(&round_file(&dir, next), samples)?;
    let keep = window.max(1);
    let all = rounds(&dir);
    for r in &all[..all.len().saturating_sub(keep)] {
        let old = round_file(&dir, *r);
        std::fs::remove_file(&old).map_err(io(&old))?;
    }
    Ok(())
}

/// The last `window` rounds on disk, oldest first. A file that cannot be read is skipped with a
/// warning: losing a round of samples costs some training, not the run.
pub fn load_window(out: &Path, window: usize) -> Vec<Vec<Sample>> {
    let dir = replay_dir(out);
    let all = rounds(&dir);
    all[all.len().saturating_sub(window.max(1))..]
        .iter()
        .filter_map(|&r| {
            let file = round_file(&dir, r);
            match read_file(&file) {
                Ok(s) => Some(s),
                Err(e) => {
                    tracing::warn!("skipping a replay round: {e}");
                    None
                }
            }
        })
        .collect()
}

fn write_samples(w: &mut impl Write, samples: &[Sample]) -> std::io::Result<()> {
    w.write_all(MAGIC)?;
    w.write_all(&(samples.len() as u32).to_le_bytes())?;
    let mut bytes = vec![0u8; INPUT_LEN];
    for s in samples {
        for (b, x) in bytes.iter_mut().zip(&s.input) {
            *b = (x.clamp(0.0, 1.0) * 255.0).round() as u8;
        }
        w.write_all(&bytes)?;
        w.write_all(&(s.policy.len() as u16).to_le_bytes())?;
        for &(a, p) in &s.policy {
            w.write_all(&a.to_le_bytes())?;
            w.write_all(&p.to_le_bytes())?;
        }
        w.write_all(&s.value.to_le_bytes())?;
    }
    Ok(())
}

/// Writes `samples` to `file` (through a temporary file, so that a stopped run never leaves a
/// cut one), making its folder if needed.
pub fn write_file(file: &Path, samples: &[Sample]) -> Result<(), ReplayError> {
    let io = |file: &Path| {
        let file = file.to_path_buf();
        move |source| ReplayError::Io { file, source }
    };
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir).map_err(io(dir))?;
    }
    let tmp = file.with_extension("tmp");
    {
        let f = std::fs::File::create(&tmp).map_err(io(&tmp))?;
        let mut w = BufWriter::new(f);
        write_samples(&mut w, samples).map_err(io(&tmp))?;
        w.flush().map_err(io(&tmp))?;
    }
    std::fs::rename(&tmp, file).map_err(io(file))
}

pub fn read_file(file: &Path) -> Result<Vec<Sample>, ReplayError> {
    let f = std::fs::File::open(file).map_err(|source| ReplayError::Io {
        file: file.to_path_buf(),
        source,
    })?;
    read_samples(&mut BufReader::new(f)).map_err(|why| ReplayError::Corrupt {
        file: file.to_path_buf(),
        why,
    })
}

fn read_samples(r: &mut impl Read) -> Result<Vec<Sample>, Corrupt> {
    let mut exact = |buf: &mut [u8]| r.read_exact(buf);
    let mut magic = [0u8; 4];
    exact(&mut magic)?;
    if &magic != MAGIC {
        return Err(Corrupt::Magic);
    }
    let mut word = [0u8; 4];
    let mut half = [0u8; 2];
    exact(&mut word)?;
    let count = u32::from_le_bytes(word) as usize;
    let mut samples = Vec::with_capacity(count.min(1 << 20));
    let mut bytes = vec![0u8; INPUT_LEN];
    for _ in 0..count {
        exact(&mut bytes)?;
        let input = bytes.iter().map(|&b| f32::from(b) / 255.0).collect();
        exact(&mut half)?;
        let n = u16::from_le_bytes(half) as usize;
        let mut policy = Vec::with_capacity(n);
        for _ in 0..n {
            exact(&mut half)?;
            let a = u16::from_le_bytes(half);
            exact(&mut word)?;
            let p = f32::from_le_bytes(word);
            if a as usize >= ACTIONS || !p.is_finite() {
                return Err(Corrupt::Policy { action: a, p });
            }
            policy.push((a, p));
        }
        exact(&mut word)?;
        let value = f32::from_le_bytes(word);
        if !(-1.0..=1.0).contains(&value) {
            return Err(Corrupt::Value(value));
        }
        samples.push(Sample {
            input,
            policy,
            value,
        });
    }
    Ok(samples)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(k: u16) -> Sample {
        let mut input = vec![0.0; INPUT_LEN];
        input[k as usize] = 1.0;
        input[INPUT_LEN - 1] = 0.4;
        Sample {
            input,
            policy: vec![(k, 0.75), (k + 1, 0.25)],
            value: -0.5,
        }
    }

    #[test]
    fn rounds_round_trip_and_the_window_slides() {
        let dir = tempfile::tempdir().expect("temp dir");
        for k in 0..4 {
            push_round(dir.path(), &[sample(k), sample(k + 10)], 2).expect("written");
        }
        let window = load_window(dir.path(), 2);
        assert_eq!(window.len(), 2);
        assert_eq!(window[0][0].policy, sample(2).policy);
        assert_eq!(window[1][1].policy, sample(13).policy);
        let back = &window[1][0];
        assert_eq!(back.value, -0.5);
        assert_eq!(back.input[3], 1.0);
        assert!((back.input[INPUT_LEN - 1] - 0.4).abs() < 0.003);
        assert_eq!(rounds(&replay_dir(dir.path())), vec![2, 3]);
    }

    #[test]
    fn a_corrupt_round_is_skipped() {
        let dir = tempfile::tempdir().expect("temp dir");
        push_round(dir.path(), &[sample(1)], 3).expect("written");
        std::fs::write(round_file(&replay_dir(dir.path()), 7), b"ZRP1junk").expect("junk");
        let window = load_window(dir.path(), 3);
        assert_eq!(window.len(), 1);
        assert!(read_file(&round_file(&replay_dir(dir.path()), 7)).is_err());
    }
}
