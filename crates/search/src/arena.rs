//! Playing two planners against each other: one game from an opening, the schedule of a match
//! (each opening twice, colours swapped), and the game's record.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use draughts::{Color, Game, GameResult};

use crate::openings::Opening;
use crate::planner::{Control, Limits, Planner};
use crate::spec::PlannerSpec;

/// Games longer than this are adjudicated drawn (the draw rules end nearly all games sooner).
pub const DEFAULT_MAX_PLIES: usize = 300;

/// One scheduled game: which opening, and whether A plays White.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pairing {
    pub index: usize,
    pub opening: usize,
    pub a_white: bool,
}

/// `games` games over `openings` openings: opening `k` is played with A as White, then with
/// colours swapped, and the openings are cycled.
pub fn schedule(games: usize, openings: usize) -> Vec<Pairing> {
    (0..games)
        .map(|i| Pairing {
            index: i,
            opening: (i / 2) % openings.max(1),
            a_white: i % 2 == 0,
        })
        .collect()
}

/// A finished game and A's points in it.
#[derive(Clone, Debug)]
pub struct Played {
    pub pairing: Pairing,
    pub game: Game,
    pub points_a: f64,
    /// Adjudicated a draw at the ply limit.
    pub adjudicated: bool,
}

/// One side of a game: its planner, its limits, and how long it ponders on each of the
/// opponent's moves (`None`: it does not).
pub struct Side<'a> {
    pub planner: &'a mut dyn Planner,
    pub limits: &'a Limits,
    pub ponder: Option<Duration>,
}

impl std::fmt::Debug for Side<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Side")
            .field("planner", &self.planner.name())
            .field("limits", self.limits)
            .field("ponder", &self.ponder)
            .finish()
    }
}

/// Plays `white` against `black` from `start` until the rules end the game or `max_plies`
/// plies are played (then the game is drawn by agreement). A planner that fails to move loses
/// by resignation.
pub fn play(
    start: Game,
    white: (&mut dyn Planner, &Limits),
    black: (&mut dyn Planner, &Limits),
    max_plies: usize,
) -> (Game, bool) {
    let sides = [
        Side {
            planner: white.0,
            limits: white.1,
            ponder: None,
        },
        Side {
            planner: black.0,
            limits: black.1,
            ponder: None,
        },
    ];
    play_sides(start, sides, max_plies)
}

/// [`play`] with pondering: after the side to move has chosen, and before its move is
/// played, the other side ponders for its `ponder` time, as a robot does while the human
/// thinks. The two never search at once, so neither takes cores from the other.
pub fn play_sides(start: Game, mut sides: [Side<'_>; 2], max_plies: usize) -> (Game, bool) {
    let mut game = start;
    for s in &mut sides {
        s.planner.new_game();
    }
    let control = Control::default();
    let first = game.ply_count();
    while !game.result().is_over() {
        if game.ply_count() - first >= max_plies {
            game.agree_draw();
            return (game, true);
        }
        let side = game.position().side_to_move();
        let (mover, other) = match side {
            Color::White => (0, 1),
            Color::Black => (1, 0),
        };
        let decision = sides[mover]
            .planner
            .choose(&game, sides[mover].limits, &control);
        if let Some(think) = sides[other].ponder {
            ponder_for(sides[other].planner, &game, think);
        }
        match decision {
            Ok(d) if game.play(&d.best).is_ok() => {}
            _ => {
                tracing::warn!(?side, "planner failed to give a legal move; it resigns");
                game.resign(side);
            }
        }
    }
    (game, false)
}

/// Lets `planner` ponder on `game` for `think`, then cancels it.
fn ponder_for(planner: &mut dyn Planner, game: &Game, think: Duration) {
    let control = Control::default();
    let cancel = Arc::clone(&control.cancel);
    let (done, wait) = std::sync::mpsc::channel::<()>();
    std::thread::scope(|s| {
        s.spawn(move || {
            // Woken early when the ponder ends by itself (a proven result).
            let _ = wait.recv_timeout(think);
            cancel.store(true, Ordering::Relaxed);
        });
        planner.ponder(game, &control);
        let _ = done.send(());
    });
}

/// Points for `color` in a finished game.
pub fn points(result: GameResult, color: Color) -> f64 {
    match result {
        GameResult::Win { winner, .. } if winner == color => 1.0,
        GameResult::Win { .. } => 0.0,
        _ => 0.5,
    }
}

/// Plays the games of `schedule(games, openings.len())`, `threads` at a time; both sides
/// get `limits`, and `make(i)` builds fresh planners (A, B) for game `i`. `on_game` sees every
/// finished game with A's colour. For tuning tools that build planners a spec cannot
/// describe; the arena itself plays `play_pairing`.
pub fn play_games<A: Planner, B: Planner>(
    openings: &[Opening],
    games: usize,
    threads: usize,
    limits: &Limits,
    make: impl Fn(usize) -> (A, B) + Sync,
    on_game: impl Fn(&Game, Color) + Sync,
) {
    let pairings = schedule(games, openings.len());
    let next = AtomicUsize::new(0);
    std::thread::scope(|s| {
        for _ in 0..threads.max(1) {
            s.spawn(|| {
                while let Some(p) = pairings.get(next.fetch_add(1, Ordering::Relaxed)) {
                    let (mut a, mut b) = make(p.index);
                    let start = openings
                        .get(p.opening)
                        .map(Opening::game)
                        .unwrap_or_default();
                    let (game, _) = if p.a_white {
                        play(start, (&mut a, limits), (&mut b, limits), DEFAULT_MAX_PLIES)
                    } else {
                        play(start, (&mut b, limits), (&mut a, limits), DEFAULT_MAX_PLIES)
                    };
                    on_game(
                        &game,
                        if p.a_white {
                            Color::White
                        } else {
                            Color::Black
                        },
                    );
                }
            });
        }
    });
}

/// Plays one scheduled game between fresh planners of the two specs. Seeds vary with the
/// game's index so that random planners do not repeat themselves. A spec with `ponder=1`
/// ponders for `think` on each of the opponent's moves (as if the opponent thought that
/// long); without `think` nobody ponders.
pub fn play_pairing(
    a: &PlannerSpec,
    b: &PlannerSpec,
    openings: &[Opening],
    pairing: Pairing,
    max_plies: usize,
    think: Option<Duration>,
) -> Played {
    let seed_a = a.seed().wrapping_add(pairing.index as u64 * 7919);
    let seed_b = b.seed().wrapping_add(pairing.index as u64 * 104_729);
    let mut pa = a.with_seed(seed_a).build();
    let mut pb = b.with_seed(seed_b).build();
    let start = openings
        .get(pairing.opening)
        .map(Opening::game)
        .unwrap_or_default();
    let (limits_a, limits_b) = (a.limits(), b.limits());
    let side_a = Side {
        planner: pa.as_mut(),
        limits: &limits_a,
        ponder: think.filter(|_| a.ponder()),
    };
    let side_b = Side {
        planner: pb.as_mut(),
        limits: &limits_b,
        ponder: think.filter(|_| b.ponder()),
    };
    let sides = if pairing.a_white {
        [side_a, side_b]
    } else {
        [side_b, side_a]
    };
    let (game, adjudicated) = play_sides(start, sides, max_plies);
    let a_color = if pairing.a_white {
        Color::White
    } else {
        Color::Black
    };
    Played {
        pairing,
        points_a: points(game.result(), a_color),
        game,
        adjudicated,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::openings::built_in;

    #[test]
    fn play_games_plays_each_opening_with_both_colours() {
        use crate::random::RandomPlanner;
        use std::sync::Mutex;
        let openings = &built_in()[..2];
        let prefixes: Vec<Vec<draughts::Move>> =
            openings.iter().map(|o| o.game().moves().to_vec()).collect();
        let seen = Mutex::new(Vec::new());
        play_games(
            openings,
            6,
            2,
            &Limits::default(),
            |i| {
                (
                    RandomPlanner::new(i as u64),
                    RandomPlanner::new(100 + i as u64),
                )
            },
            |game, color| {
                assert!(game.result().is_over());
                let opening = prefixes
                    .iter()
                    .position(|p| game.moves().starts_with(p))
                    .expect("starts from an opening");
                if let Ok(mut v) = seen.lock() {
                    v.push((opening, color == Color::White));
                }
            },
        );
        let mut seen = seen.into_inner().unwrap_or_default();
        seen.sort();
        // Games 0-5: openings 0, 0, 1, 1, 0, 0 (cycled), A White on even games.
        assert_eq!(
            seen,
            vec![
                (0, false),
                (0, false),
                (0, true),
                (0, true),
                (1, false),
                (1, true)
            ]
        );
    }

    #[test]
    fn schedule_swaps_colours_per_opening() {
        let s = schedule(6, 2);
        assert_eq!(
            s.iter().map(|p| (p.opening, p.a_white)).collect::<Vec<_>>(),
            [
                (0, true),
                (0, false),
                (1, true),
                (1, false),
                (0, true),
                (0, false)
            ]
        );
    }

    #[test]
    fn a_game_is_played_to_its_end_and_scored() {
        let a: PlannerSpec = "alphabeta:depth=2".parse().expect("spec");
        let b: PlannerSpec = "random".parse().expect("spec");
        let openings = built_in();
        for pairing in schedule(2, openings.len()) {
            let played = play_pairing(&a, &b, &openings, pairing, DEFAULT_MAX_PLIES, None);
            assert!(played.game.result().is_over());
            assert!(played.game.ply_count() > openings[0].moves.len());
            // Two plies of search beat random play.
            assert_eq!(played.points_a, 1.0, "{}", played.game.result());
        }
    }

    #[test]
    fn the_ply_limit_adjudicates_a_draw() {
        let a: PlannerSpec = "random:seed=1".parse().expect("spec");
        let b: PlannerSpec = "random:seed=2".parse().expect("spec");
        let played = play_pairing(&a, &b, &[], schedule(1, 1)[0], 4, None);
        assert!(played.adjudicated);
        assert_eq!(played.points_a, 0.5);
        assert_eq!(played.game.ply_count(), 4);
    }
}
