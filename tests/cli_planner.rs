//! `checkers-robot best` and `arena` as other tools see them: output lines, files, exit status.

mod cli_support;

use cli_support::{cli, stderr, stdout};

/// The value of a `key: value` line.
fn field(out: &str, key: &str) -> String {
    out.lines()
        .find_map(|l| l.strip_prefix(&format!("{key}: ")))
        .unwrap_or_else(|| panic!("no `{key}:` in {out}"))
        .to_string()
}

#[test]
fn best_prints_a_legal_move_with_value_and_statistics() {
    let o = cli(&["best", "--planner", "alphabeta:depth=6"]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let start_moves = [
        "a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4",
    ];
    assert!(start_moves.contains(&field(&out, "move").as_str()), "{out}");
    assert_eq!(field(&out, "planner"), "alphabeta:depth=6");
    assert_eq!(field(&out, "depth"), "6");
    let p: f64 = field(&out, "win_probability").parse().expect("a number");
    assert!((0.0..=1.0).contains(&p));
    assert!(field(&out, "nodes").parse::<u64>().expect("count") > 100);
    assert!(field(&out, "pv").starts_with(&field(&out, "move")));
    for key in ["value", "seldepth", "sims", "tt_hits", "time_s", "nps"] {
        field(&out, key);
    }
}

#[test]
fn best_finds_the_winning_capture_with_every_planner() {
    for spec in [
        "alphabeta:depth=4",
        "minimax:depth=2",
        "mcts:sims=300",
        "heuristic",
        "random:seed=3",
    ] {
        let o = cli(&["best", "--fen", "W:Wc3:Bd4", "--planner", spec]);
        assert!(o.status.success(), "{spec}: {}", stderr(&o));
        // The only legal move, and it wins.
        assert_eq!(field(&stdout(&o), "move"), "c3:e5", "{spec}");
    }
    let o = cli(&[
        "best",
        "--fen",
        "W:Wc3:Bd4",
        "--planner",
        "mcts:sims=400,threads=2",
    ]);
    assert_eq!(field(&stdout(&o), "sims"), "400");
}

#[test]
fn best_sees_the_moves_played_before() {
    let o = cli(&[
        "best",
        "--moves",
        "c3-d4 f6-g5",
        "--planner",
        "alphabeta:depth=3",
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let o = cli(&["best", "--moves", "c3-d4 c3-d4", "--planner", "random"]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn bad_specs_and_positions_exit_2_with_one_line() {
    for args in [
        vec!["best", "--planner", "chess"],
        vec!["best", "--planner", "alphabeta:sims=4"],
        vec!["best", "--planner", "minimax:depth=zero"],
        vec!["best", "--planner", "alphabeta:time=-1s"],
        vec!["best", "--planner", "level:no-such-level"],
        vec!["best", "--fen", "W:W33"],
        vec!["best", "--fen", "W::B1", "--planner", "random"],
        vec!["arena", "--a", "random", "--b", "chess"],
        vec!["arena", "--a", "random", "--b", "random", "--games", "0"],
        vec![
            "arena",
            "--a",
            "random",
            "--b",
            "random",
            "--openings",
            "/no/such/file",
        ],
        vec![
            "arena",
            "--a",
            "random",
            "--b",
            "random",
            "--skip-openings",
            "100000",
        ],
    ] {
        let o = cli(&args);
        assert_eq!(o.status.code(), Some(2), "{args:?}: {}", stderr(&o));
        let err = stderr(&o);
        assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
        assert!(err.starts_with("error: "), "{err}");
    }
}

/// `arena` with alpha-beta at depth 3 against a seeded random player, saving into `out`.
fn depth_3_against_random(
    openings: &std::path::Path,
    games: usize,
    out: &std::path::Path,
    extra: &[&str],
) -> std::process::Output {
    let games = games.to_string();
    let mut args = vec![
        "arena",
        "--a",
        "alphabeta:depth=3",
        "--b",
        "random:seed=5",
        "--games",
        &games,
        "--openings",
        openings.to_str().expect("utf-8"),
        "--out",
        out.to_str().expect("utf-8"),
    ];
    args.extend_from_slice(extra);
    cli(&args)
}

#[test]
fn arena_plays_scores_and_saves_every_game() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path();
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "# two openings\nc3-d4 f6-g5\ne3-f4 b6-a5\n").expect("write");
    let out_dir = dir.join("games");
    let o = depth_3_against_random(&openings, 4, &out_dir, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(field(&out, "games"), "4");
    let wins: u32 = field(&out, "wins").parse().expect("count");
    let draws: u32 = field(&out, "draws").parse().expect("count");
    let losses: u32 = field(&out, "losses").parse().expect("count");
    assert_eq!(wins + draws + losses, 4);
    assert!(wins >= 3, "{out}");
    field(&out, "elo");
    assert_eq!(field(&out, "elo_95").split(' ').count(), 2);
    for k in 1..=4 {
        let pdn = out_dir.join(format!("game-{k:04}.pdn"));
        let check = cli(&["pdn", "check", pdn.to_str().expect("utf-8")]);
        assert!(check.status.success(), "{}", stderr(&check));
        let text = std::fs::read_to_string(&pdn).expect("saved");
        assert!(text.contains("[GameType \"25\"]"));
        // Colours swap within each opening.
        let white_is_a = text.contains("[White \"alphabeta:depth=3\"]");
        assert_eq!(white_is_a, k % 2 == 1, "{text}");
    }

    // A continued match starts from the next opening, not the first again.
    let rest_dir = dir.join("rest");
    let o = depth_3_against_random(&openings, 2, &rest_dir, &["--skip-openings", "1"]);
    assert!(o.status.success(), "{}", stderr(&o));
    for k in 1..=2 {
        let text =
            std::fs::read_to_string(rest_dir.join(format!("game-{k:04}.pdn"))).expect("saved");
        assert!(text.contains("[Opening \"e3-f4 b6-a5\"]"), "{text}");
    }
}

#[test]
fn the_unbalanced_opening_set_is_in_its_window_varied_and_playable() {
    let set =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("config/openings-unbalanced.txt");
    let text = std::fs::read_to_string(&set).expect("shipped");
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert!(lines.len() >= 200, "{}", lines.len());
    let mut firsts = std::collections::BTreeSet::new();
    for line in &lines {
        let (moves, value) = line.split_once('#').expect("a value comment");
        let value: i32 = value.trim().parse().expect("a value");
        assert!((65..=125).contains(&value.abs()), "{line}");
        firsts.insert(moves.split_whitespace().next().expect("moves"));
    }
    assert!(firsts.len() >= 5, "{firsts:?}");
    // The arena takes it as it is: every line legal, colours swapped within an opening.
    let tmp = tempfile::tempdir().expect("temp dir");
    let out_dir = tmp.path().join("games");
    let o = depth_3_against_random(&set, 2, &out_dir, &[]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(field(&stdout(&o), "games"), "2");
    let first = lines[0].split('#').next().expect("moves").trim();
    let pdn = std::fs::read_to_string(out_dir.join("game-0001.pdn")).expect("saved");
    assert!(pdn.contains(&format!("[Opening \"{first}\"]")), "{pdn}");
}

/// Writes difficulty level `name` (a params file with `rank` and `body`) into `levels`.
fn write_level(levels: &std::path::Path, name: &str, rank: u32, body: &str) {
    std::fs::write(
        levels.join(format!("{name}.yaml")),
        format!("/**:\n  ros__parameters:\n    rank: {rank}\n{body}"),
    )
    .expect("write");
}

/// A temporary directory with `levels/` holding three levels: low (random), mid (heuristic)
/// and top (alpha-beta at depth 2).
fn three_levels() -> (tempfile::TempDir, std::path::PathBuf) {
    let tmp = tempfile::tempdir().expect("temp dir");
    let levels = tmp.path().join("levels");
    std::fs::create_dir_all(&levels).expect("dir");
    write_level(&levels, "low", 1, "    algorithm: random\n");
    write_level(&levels, "mid", 2, "    algorithm: heuristic\n");
    write_level(
        &levels,
        "top",
        3,
        "    algorithm: alphabeta\n    depth: 2\n",
    );
    (tmp, levels)
}

#[test]
fn ladder_rates_levels_and_draws_the_picture() {
    let (tmp, levels) = three_levels();
    let dir = tmp.path();
    let plot = dir.join("ladder.svg");
    let o = cli(&[
        "arena",
        "--ladder",
        "--levels",
        levels.to_str().expect("utf-8"),
        "--games",
        "2",
        "--plot",
        plot.to_str().expect("utf-8"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    assert_eq!(
        out.lines().filter(|l| l.starts_with("pair: ")).count(),
        3,
        "{out}"
    );
    let level_lines: Vec<&str> = out.lines().filter(|l| l.starts_with("level: ")).collect();
    assert_eq!(level_lines.len(), 3);
    assert!(level_lines[0].starts_with("level: low rank 1 spec random elo 0 "));
    let svg = std::fs::read_to_string(&plot).expect("plot written");
    assert!(svg.starts_with("<svg") && svg.contains("top"), "{svg}");
}

#[test]
fn a_ladder_with_a_span_pairs_only_neighbours_and_plots_the_generations() {
    let (tmp, levels) = three_levels();
    let dir = tmp.path();
    write_level(
        &levels,
        "net",
        4,
        "    algorithm: zero\n    generation: 0\n    sims: 8\n",
    );
    let plot = dir.join("ladder.svg");
    let o = cli(&[
        "arena",
        "--ladder",
        "--span",
        "1",
        "--levels",
        levels.to_str().expect("utf-8"),
        "--games",
        "2",
        "--plot",
        plot.to_str().expect("utf-8"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let pairs: Vec<&str> = out.lines().filter(|l| l.starts_with("pair: ")).collect();
    assert_eq!(pairs.len(), 3, "{out}");
    assert!(
        pairs.iter().any(|l| l.starts_with("pair: net vs top ")),
        "{out}"
    );
    assert!(
        !pairs.iter().any(|l| l.starts_with("pair: top vs low ")),
        "{out}"
    );
    let generations = dir.join("generations.svg");
    let svg = std::fs::read_to_string(&generations).expect("generations plot written");
    assert!(svg.contains("zero:gen=N") && svg.contains("top"), "{svg}");
}

#[test]
fn a_gauntlet_plays_each_opponent_at_each_time_control_and_writes_the_table() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let dir = tmp.path();
    let file = dir.join("gauntlet.yaml");
    std::fs::write(
        &file,
        "time_controls: [20ms, 40ms]\nopponents:\n  randomly: random\n  shallow: \"alphabeta:depth=1\"\n",
    )
    .expect("write");
    let openings = dir.join("openings.txt");
    std::fs::write(&openings, "c3-d4 f6-g5\n").expect("write");
    let table = dir.join("docs/gauntlet.md");
    let path = |p: &std::path::Path| p.to_str().expect("utf-8").to_string();
    let o = cli(&[
        "arena",
        "--gauntlet",
        "--a",
        "alphabeta:depth=3,ponder=1",
        "--think",
        "20ms",
        "--games",
        "2",
        "--gauntlet-file",
        &path(&file),
        "--openings",
        &path(&openings),
        "--table",
        &path(&table),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let out = stdout(&o);
    let lines: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("gauntlet: "))
        .collect();
    assert_eq!(lines.len(), 4, "{out}");
    assert!(
        lines[0].starts_with("gauntlet: 20 ms vs randomly score "),
        "{out}"
    );
    assert!(
        lines[3].starts_with("gauntlet: 40 ms vs shallow score "),
        "{out}"
    );
    let written = std::fs::read_to_string(&table).expect("the table");
    assert!(
        written.contains("| 40 ms | shallow (`alphabeta:depth=1`) | 2 |"),
        "{written}"
    );
    assert!(
        written.contains("| 20 ms | randomly (`random`) | 2 |"),
        "{written}"
    );
    let o = cli(&[
        "arena",
        "--gauntlet",
        "--gauntlet-file",
        "/nonexistent.yaml",
    ]);
    assert_eq!(o.status.code(), Some(2));
}

#[test]
fn book_builds_a_book_the_planner_can_read() {
    let tmp = tempfile::tempdir().expect("temp dir");
    let out = tmp.path().join("book.txt");
    let o = cli(&[
        "book",
        "--depth",
        "2",
        "--plies",
        "2",
        "--positions",
        "250",
        "--out",
        out.to_str().expect("utf-8"),
    ]);
    assert!(o.status.success(), "{}", stderr(&o));
    let positions: usize = field(&stdout(&o), "positions").parse().expect("count");
    assert!(
        positions >= 211,
        "the start and the 210 openings at least: {positions}"
    );
    let text = std::fs::read_to_string(&out).expect("the book");
    let book = search::Book::parse(&text).expect("parses");
    assert_eq!(book.len(), positions);
    assert!(book.moves(&draughts::Position::start()).len() >= 2);
}
