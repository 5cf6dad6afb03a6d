//! The `checkers-robot` command line as other tools see it: its output and exit statuses.

mod cli_support;

use cli_support::{cli, stderr, stdout};

#[test]
fn moves_lists_sorted_full_paths() {
    let o = cli(&["moves", "--fen", "W:WKf6:Be7,g5"]);
    assert!(o.status.success());
    assert_eq!(stdout(&o), "f6:d8\nf6:h4\n");
    let o = cli(&["moves"]);
    assert_eq!(
        stdout(&o).lines().collect::<Vec<_>>(),
        ["a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"]
    );
}

#[test]
fn perft_prints_leaves_and_divide() {
    let o = cli(&["perft", "--depth", "6", "--divide"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("\nleaves: 37986\n"), "{out}");
    assert!(out.lines().any(|l| l.starts_with("c3-d4: ")));
    assert!(out.contains("time_s: ") && out.contains("leaves_per_s: "));
}

#[test]
fn bad_input_is_one_line_and_exit_status_2() {
    for args in [
        vec!["moves", "--fen", "W:W33"],
        vec!["moves", "--fen", "nonsense"],
        vec!["moves", "--fen", "W:W3"], // a white man on the last rank
        vec!["perft", "--fen", "W:W1:B1", "--depth", "2"],
        vec!["pdn", "check", "/nonexistent/file.pdn"],
    ] {
        let o = cli(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}");
        let err = stderr(&o);
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{err}");
        assert!(!err.contains("panicked"), "{err}");
    }
}

#[test]
fn pdn_check_names_the_first_illegal_move() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path();
    let good = dir.join("good.pdn");
    std::fs::write(
        &good,
        "[Event \"a\"]\n[GameType \"25\"]\n1. c3-d4 f6-g5 2. b2-c3 {ok} g7-f6 3. a3-b4 *\n",
    )
    .expect("write");
    let o = cli(&["pdn", "check", good.to_str().expect("utf-8 path")]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(
        stdout(&o).contains("game 1 (line 1): ok, 5 plies"),
        "{}",
        stdout(&o)
    );

    let bad = dir.join("bad.pdn");
    std::fs::write(
        &bad,
        "[GameType \"25\"]\n1. c3-d4 f6-g5 *\n\n[GameType \"25\"]\n1. c3-d4 f6-g5\n2. d4-e5 h6-g5 *\n",
    )
    .expect("write");
    let o = cli(&["pdn", "check", bad.to_str().expect("utf-8 path")]);
    assert_eq!(o.status.code(), Some(2));
    let out = stdout(&o);
    assert!(out.contains("game 1 (line 1): ok"), "{out}");
    assert!(
        out.contains("game 2 (line 4): PDN line 6, move 2... h6-g5"),
        "{out}"
    );
}

#[test]
fn review_names_the_blunder_with_the_better_move_and_annotates_the_game() {
    let dir = tempfile::tempdir().expect("temp dir");
    let file = dir.path().join("g.pdn");
    // White, the human, gives its last man away with c3-d4 (b4 held); Black takes it.
    std::fs::write(
        &file,
        "[White \"Human\"]\n[Black \"checkers_robot (easy)\"]\n[FEN \"W:Wc3:Be5\"]\n1. c3-d4 e5:c3 0-1\n",
    )
    .expect("write");
    let annotated = dir.path().join("a.pdn");
    let o = cli(&[
        "review",
        file.to_str().expect("utf-8"),
        "--depth",
        "6",
        "--annotate",
        annotated.to_str().expect("utf-8"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert!(out.contains("1 move of White judged"), "{out}");
    assert!(out.contains("1. c3-d4?? blunder"), "{out}");
    assert!(out.contains("better c3-b4"), "{out}");
    assert!(out.contains("it is met by e5:c3"), "{out}");
    let text = std::fs::read_to_string(&annotated).expect("annotated file");
    assert!(text.contains("c3-d4 {blunder; better c3-b4}"), "{text}");
    assert!(text.contains("0-1"), "the resignation stays: {text}");
    let check = cli(&["pdn", "check", annotated.to_str().expect("utf-8")]);
    assert!(check.status.success(), "{}", stdout(&check));
}
