//! Plays alpha-beta with given weights against MCTS, both on one thread with the same time a
//! move, every game from a built-in opening with colours swapped, two games at a time.
//! Self-play at a fixed depth misjudged some evaluation terms that MCTS's playouts punish
//! (docs/planners.md), so candidate weights are also measured against MCTS, at a tenth of the
//! time of the real match: `mcts_match GAMES MS [W1,W2,...|-] [ENDGAME] [DIR|-] [NET]`
//! (defaults 160, 100, the shipped weights (also `-`), no endgame database; `DIR` gets the PDN
//! of every game alpha-beta did not win; `NET` is an evaluation network file for alpha-beta,
//! `built-in` for the shipped one). Prints the tally, and why the drawn games ended with
//! alpha-beta ahead, behind or level in pieces.

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use draughts::GameResult;
use search::{
    built_in_net, built_in_openings, play_games, points, AlphaBeta, EvalNet, Limits, Mcts, Tally,
    Weights, WEIGHTS,
};

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let games: usize = args.get(1).and_then(|a| a.parse().ok()).unwrap_or(160);
    let ms: u64 = args.get(2).and_then(|a| a.parse().ok()).unwrap_or(100);
    let mut weights: Weights = WEIGHTS;
    let endgame: u32 = args.get(4).and_then(|a| a.parse().ok()).unwrap_or(0);
    let out_dir = args
        .get(5)
        .filter(|a| *a != "-")
        .map(std::path::PathBuf::from);
    let net = match args.get(6).map(String::as_str) {
        None => None,
        Some("built-in") => Some(built_in_net().map_err(|e| e.to_string())),
        Some(path) => Some(
            std::fs::read_to_string(path)
                .map_err(|e| e.to_string())
                .and_then(|t| EvalNet::parse(&t).map_err(|e| e.to_string()))
                .map(std::sync::Arc::new),
        ),
    };
    let net = match net.transpose() {
        Ok(n) => n,
        Err(e) => {
            eprintln!("error: the evaluation network: {e}");
            std::process::exit(2);
        }
    };
    let saved = std::sync::atomic::AtomicUsize::new(0);
    let db = (endgame > 0).then(|| search::shared_endgame(endgame, 2));
    if let Some(list) = args.get(3).filter(|a| *a != "-") {
        for (w, text) in weights.iter_mut().zip(list.split(',')) {
            match text.trim().parse() {
                Ok(v) => *w = v,
                Err(_) => {
                    eprintln!("error: weight {text:?} is not an integer");
                    std::process::exit(2);
                }
            }
        }
    }
    let limits = Limits {
        time: Some(Duration::from_millis(ms)),
        ..Limits::default()
    };
    let tally = Mutex::new(Tally::default());
    let reasons = Mutex::new(BTreeMap::<String, usize>::new());
    let started = Instant::now();
    play_games(
        &built_in_openings(),
        games,
        2,
        &limits,
        |i| {
            let mut ab = AlphaBeta::with_weights(weights);
            if let Some(net) = &net {
                ab = ab.with_net(net.clone());
            }
            (
                match &db {
                    Some(db) => ab.with_endgame(db.clone()),
                    None => ab,
                },
                Mcts::new(1 + i as u64 * 104_729, 1),
            )
        },
        |game, color| {
            let result = game.result();
            if let Some(dir) = &out_dir {
                if points(result, color) < 1.0 {
                    let n = saved.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                    let names = match color {
                        draughts::Color::White => [("White", "alphabeta"), ("Black", "mcts")],
                        draughts::Color::Black => [("White", "mcts"), ("Black", "alphabeta")],
                    };
                    let text = draughts::write_pdn(game, &names);
                    let file = dir.join(format!("game-{n:03}.pdn"));
                    if let Err(e) =
                        std::fs::create_dir_all(dir).and_then(|()| std::fs::write(&file, text))
                    {
                        eprintln!("error: writing {}: {e}", file.display());
                    }
                }
            }
            if let Ok(mut t) = tally.lock() {
                t.add(points(result, color));
            }
            if let GameResult::Draw(why) = result {
                let m = game.position().material();
                let (mine, theirs) = (m.pieces(color), m.pieces(color.opponent()));
                let side = match mine.cmp(&theirs) {
                    std::cmp::Ordering::Greater => "ahead",
                    std::cmp::Ordering::Less => "behind",
                    std::cmp::Ordering::Equal => "level",
                };
                if let Ok(mut r) = reasons.lock() {
                    *r.entry(format!("{why:?} {side}")).or_default() += 1;
                }
            }
        },
    );
    let t = tally.into_inner().unwrap_or_default();
    println!(
        "weights {weights:?}, endgame database: {endgame} pieces, network: {}",
        args.get(6).map_or("none", String::as_str)
    );
    println!("{} ({:.0} s)", t.summary(), started.elapsed().as_secs_f64());
    println!("draws: {:?}", reasons.into_inner().unwrap_or_default());
}
