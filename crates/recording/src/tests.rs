use super::*;

const SAY: Channel = Channel {
    topic: "/voice/say",
    ros_type: "std_msgs/msg/String",
    definition: "string data\n",
    type_hash: "RIHS01_df668c740482bbd48fb39d76a70dfd4bd59db1288021743503259e948f6b1a18",
};

/// `text` as a CDR std_msgs/String.
fn cdr(text: &str) -> Vec<u8> {
    let mut v = vec![0, 1, 0, 0];
    v.extend_from_slice(&(text.len() as u32 + 1).to_le_bytes());
    v.extend_from_slice(text.as_bytes());
    v.push(0);
    v
}

fn limits(file_bytes: u64, total_bytes: u64) -> Limits {
    Limits {
        file_bytes,
        total_bytes,
        chunk_bytes: 64,
    }
}

#[test]
fn a_game_is_read_back_in_order_with_its_schema_name() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut rec = Recorder::new(dir.path(), Limits::default()).expect("recorder");
    let path = rec.start("game1").expect("start");
    for i in 0..100u64 {
        rec.write(&SAY, 1_000 + i, &cdr(&format!("phrase {i}")))
            .expect("write");
    }
    assert_eq!(rec.finish().expect("finish"), Some(path.clone()));
    let back = read(&path).expect("read");
    assert_eq!(back.messages.len(), 100);
    assert!(back.truncated.is_none());
    assert_eq!(back.messages[42].data, cdr("phrase 42"));
    assert_eq!(back.messages[42].log_time_ns, 1_042);
    assert_eq!(back.messages[0].ros_type, "std_msgs/msg/String");
}

#[test]
fn a_second_start_of_the_same_game_gets_a_part_of_its_own() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut rec = Recorder::new(dir.path(), Limits::default()).expect("recorder");
    let first = rec.start("game3").expect("start");
    let second = rec.start("game3").expect("start again");
    assert_ne!(first, second);
    assert!(second.ends_with("game3-2.mcap"), "{}", second.display());
}

#[test]
fn a_full_file_goes_on_in_a_new_part() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut rec = Recorder::new(dir.path(), limits(1_000, u64::MAX)).expect("recorder");
    rec.start("game2").expect("start");
    for i in 0..200u64 {
        rec.write(&SAY, i, &cdr("a phrase of some length"))
            .expect("write");
    }
    rec.finish().expect("finish");
    let mut names: Vec<_> = recordings(dir.path())
        .expect("list")
        .into_iter()
        .map(|(p, _, _)| p.file_name().map(|n| n.to_string_lossy().into_owned()))
        .collect();
    names.sort();
    assert!(names.len() >= 4, "{names:?}");
    let total: usize = recordings(dir.path())
        .expect("list")
        .iter()
        .map(|(p, _, _)| read(p).expect("read").messages.len())
        .sum();
    assert_eq!(total, 200, "no message lost between parts");
}

#[test]
fn the_oldest_recordings_go_when_the_folder_is_full() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut rec = Recorder::new(dir.path(), limits(u64::MAX, 3_000)).expect("recorder");
    for game in 0..20 {
        rec.start(&format!("game{game}")).expect("start");
        for i in 0..20u64 {
            rec.write(&SAY, i, &cdr("enough text to take some room"))
                .expect("write");
        }
        // Distinct modification times, so "oldest" is well defined.
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    rec.finish().expect("finish");
    let files = recordings(dir.path()).expect("list");
    let total: u64 = files.iter().map(|(_, len, _)| len).sum();
    assert!(files.len() < 20, "some were removed");
    // The limit is checked before each new file: at most one file's size over it.
    let largest = files.iter().map(|(_, len, _)| *len).max().unwrap_or(0);
    assert!(total <= 3_000 + largest, "{total}");
    assert!(
        dir.path().join("game19.mcap").exists(),
        "the newest is kept"
    );
}

#[test]
fn a_recording_cut_short_opens_up_to_its_last_closed_chunk() {
    let dir = tempfile::tempdir().expect("tempdir");
    let mut rec = Recorder::new(dir.path(), Limits::default()).expect("recorder");
    let path = rec.start("crash").expect("start");
    for i in 0..50u64 {
        rec.write(&SAY, i, &cdr(&format!("before {i}")))
            .expect("write");
    }
    rec.flush().expect("flush");
    let flushed = std::fs::read(&path).expect("read the file");
    for i in 0..50u64 {
        rec.write(&SAY, 100 + i, &cdr(&format!("after {i}")))
            .expect("write");
    }
    // As a crash would leave it: what was flushed, and half of a chunk after it.
    std::mem::forget(rec);
    let mut cut = flushed.clone();
    cut.extend_from_slice(&[0x06, 0x40, 0, 0]);
    let crashed = dir.path().join("cut.mcap");
    std::fs::write(&crashed, &cut).expect("write the cut file");
    let back = read(&crashed).expect("opens");
    assert_eq!(back.messages.len(), 50);
    assert_eq!(back.messages[49].data, cdr("before 49"));
    assert!(back.truncated.is_some());
    let exact = dir.path().join("exact.mcap");
    std::fs::write(&exact, &flushed).expect("write");
    assert_eq!(read(&exact).expect("opens").messages.len(), 50);
}

#[test]
fn not_a_recording_is_an_error() {
    let dir = tempfile::tempdir().expect("tempdir");
    let p = dir.path().join("x.mcap");
    std::fs::write(&p, b"not mcap at all").expect("write");
    assert!(read(&p).is_err());
    assert!(read(&dir.path().join("missing.mcap")).is_err());
}
