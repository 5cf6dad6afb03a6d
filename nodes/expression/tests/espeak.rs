//! Where espeak-ng is installed, a phrase renders to a WAV file that is not silence.

use expression::Voice;

/// The largest absolute 16-bit sample of a PCM WAV file's data chunk.
fn peak(wav: &[u8]) -> Option<i16> {
    if wav.get(0..4) != Some(b"RIFF") || wav.get(8..12) != Some(b"WAVE") {
        return None;
    }
    let mut at = 12;
    while at + 8 <= wav.len() {
        let id = &wav[at..at + 4];
        let len = u32::from_le_bytes(wav[at + 4..at + 8].try_into().ok()?) as usize;
        let body = wav.get(at + 8..(at + 8 + len).min(wav.len()))?;
        if id == b"data" {
            return body
                .chunks_exact(2)
                .map(|s| i16::from_le_bytes([s[0], s[1]]).saturating_abs())
                .max();
        }
        at += 8 + len + (len & 1);
    }
    None
}

#[test]
fn a_phrase_renders_to_a_wav_that_is_not_silence() {
    if !Voice::available() {
        eprintln!("SKIPPED: espeak-ng is not installed (apt-get install espeak-ng)");
        return;
    }
    let dir = tempfile::tempdir().expect("temp dir");
    for (voice, text) in [("en", "Brilliant move!"), ("ru", "Блестящий ход!")] {
        let path = dir.path().join(format!("{voice}.wav"));
        Voice::new(voice, 160)
            .render_wav(text, &path)
            .expect("espeak-ng renders");
        let wav = std::fs::read(&path).expect("the WAV exists");
        let loudest = peak(&wav).expect("a PCM WAV with a data chunk");
        assert!(loudest > 1000, "{voice}: peak {loudest} is silence");
    }
}
