//! Tournaments between planners: matches of pairs played on a pool of threads, a gauntlet of one
//! candidate against fixed opponents at several time controls, and a round robin with fitted
//! Elo ratings. Each returns its games, so that a caller can tally, print, plot and save them
//! (as PDN, [`Match::pdn`]); none of it prints.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Duration;

use draughts::write_pdn;

use crate::arena::{play_pairing, schedule, Pairing, Played};
use crate::elo::{self, fit_ratings, Tally};
use crate::openings::Opening;
use crate::spec::PlannerSpec;

/// How every game of a tournament is played.
#[derive(Clone, Copy, Debug)]
pub struct Settings {
    /// Games per pair: each opening twice, colours swapped (`arena::schedule`).
    pub games: usize,
    /// Games played at once.
    pub threads: usize,
    /// Games longer than this are adjudicated drawn.
    pub max_plies: usize,
    /// How long each side ponders on its opponent's moves (`None`: it does not).
    pub think: Option<Duration>,
}

/// One match: A against B, and its games in schedule order.
#[derive(Clone, Debug)]
pub struct Match {
    pub a: PlannerSpec,
    pub b: PlannerSpec,
    pub games: Vec<Played>,
}

impl Match {
    /// A's wins, draws and losses.
    pub fn tally(&self) -> Tally {
        let mut t = Tally::default();
        for g in &self.games {
            t.add(g.points_a);
        }
        t
    }

    /// Each game as a PDN file: its name (`game-NNNN.pdn`, by round) and text, with the players
    /// and the opening's name in its headers.
    pub fn pdn(&self, event: &str, openings: &[Opening]) -> Vec<(String, String)> {
        self.games
            .iter()
            .map(|p| {
                let (white, black) = if p.pairing.a_white {
                    (self.a.to_string(), self.b.to_string())
                } else {
                    (self.b.to_string(), self.a.to_string())
                };
                let round = (p.pairing.index + 1).to_string();
                let opening = openings
                    .get(p.pairing.opening)
                    .map(|o| o.name.clone())
                    .unwrap_or_default();
                let text = write_pdn(
                    &p.game,
                    &[
                        ("Event", event),
                        ("Round", &round),
                        ("White", &white),
                        ("Black", &black),
                        ("Opening", &opening),
                    ],
                );
                (format!("game-{:04}.pdn", p.pairing.index + 1), text)
            })
            .collect()
    }
}

/// Plays a match for each pair, all their games `settings.threads` at a time; the matches in the
/// pairs' order. `on_game` is called as each game ends (from the playing threads).
pub fn play_matches(
    pairs: &[(PlannerSpec, PlannerSpec)],
    openings: &[Opening],
    settings: &Settings,
    on_game: &(dyn Fn() + Sync),
) -> Vec<Match> {
    let jobs: Vec<(usize, Pairing)> = (0..pairs.len())
        .flat_map(|pair| {
            schedule(settings.games, openings.len())
                .into_iter()
                .map(move |pairing| (pair, pairing))
        })
        .collect();
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Played>>> = Mutex::new(vec![None; jobs.len()]);
    std::thread::scope(|s| {
        for _ in 0..settings.threads.max(1) {
            s.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&(pair, pairing)) = jobs.get(i) else {
                    break;
                };
                let (a, b) = &pairs[pair];
                let played =
                    play_pairing(a, b, openings, pairing, settings.max_plies, settings.think);
                if let Ok(mut r) = results.lock() {
                    r[i] = Some(played);
                }
                on_game();
            });
        }
    });
    let mut matches: Vec<Match> = pairs
        .iter()
        .map(|&(a, b)| Match {
            a,
            b,
            games: Vec::new(),
        })
        .collect();
    let played = results.into_inner().unwrap_or_default();
    for ((pair, _), p) in jobs.iter().zip(played) {
        if let Some(p) = p {
            matches[*pair].games.push(p);
        }
    }
    matches
}

/// A candidate's opponents and the time controls it meets them at.
#[derive(Clone, Debug, PartialEq)]
pub struct Gauntlet {
    pub time_controls: Vec<Duration>,
    /// Each opponent's name and planner.
    pub opponents: Vec<(String, PlannerSpec)>,
}

/// One match of a gauntlet: the time control, the opponent's name, and the match (the
/// candidate is A).
#[derive(Clone, Debug)]
pub struct GauntletMatch {
    pub time_control: Duration,
    pub opponent: String,
    pub played: Match,
}

impl Gauntlet {
    /// `candidate` against every opponent at every time control (time controls outermost).
    pub fn play(
        &self,
        candidate: &PlannerSpec,
        openings: &[Opening],
        settings: &Settings,
        on_game: &(dyn Fn() + Sync),
    ) -> Vec<GauntletMatch> {
        let mut pairs = Vec::new();
        let mut labels = Vec::new();
        for &tc in &self.time_controls {
            for (name, spec) in &self.opponents {
                pairs.push((at_time_control(candidate, tc), at_time_control(spec, tc)));
                labels.push((tc, name.clone()));
            }
        }
        labels
            .into_iter()
            .zip(play_matches(&pairs, openings, settings, on_game))
            .map(|((time_control, opponent), played)| GauntletMatch {
                time_control,
                opponent,
                played,
            })
            .collect()
    }
}

/// `spec` at time control `tc`, unless it searches to a fixed depth or simulation count (or
/// does not search at all).
pub fn at_time_control(spec: &PlannerSpec, tc: Duration) -> PlannerSpec {
    let mut s = *spec;
    let l = s.limits();
    if l.depth.is_none() && l.sims.is_none() && l.nodes.is_none() {
        s.set_time(tc);
    }
    s
}

/// A round robin's outcome: each match (A the higher of the two in the given order, with both
/// indices), and each player's fitted Elo, the first at 0.
#[derive(Clone, Debug)]
pub struct RoundRobin {
    pub matches: Vec<(usize, usize, Match)>,
    pub elo: Vec<f64>,
}

/// The pairs of a round robin of `n` players at most `span` places apart (`None`: every pair),
/// as (later, earlier).
pub fn round_robin_pairs(n: usize, span: Option<usize>) -> Vec<(usize, usize)> {
    (0..n)
        .flat_map(|i| (i + 1..n).map(move |j| (j, i)))
        .filter(|(j, i)| span.is_none_or(|span| j - i <= span))
        .collect()
}

/// Plays every pair of `specs` at most `span` places apart (`None`: every pair), the later one
/// as A, and fits their ratings.
pub fn round_robin(
    specs: &[PlannerSpec],
    span: Option<usize>,
    openings: &[Opening],
    settings: &Settings,
    on_game: &(dyn Fn() + Sync),
) -> RoundRobin {
    let index = round_robin_pairs(specs.len(), span);
    let pairs: Vec<_> = index.iter().map(|&(j, i)| (specs[j], specs[i])).collect();
    let matches: Vec<(usize, usize, Match)> = index
        .into_iter()
        .zip(play_matches(&pairs, openings, settings, on_game))
        .map(|((j, i), m)| (j, i, m))
        .collect();
    let pairings: Vec<elo::Pairing> = matches
        .iter()
        .map(|(j, i, m)| {
            let t = m.tally();
            elo::Pairing {
                a: *j,
                b: *i,
                points_a: f64::from(t.wins) + 0.5 * f64::from(t.draws),
                games: f64::from(t.games()),
            }
        })
        .collect();
    let elo = fit_ratings(specs.len(), &pairings);
    RoundRobin { matches, elo }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn settings(games: usize) -> Settings {
        Settings {
            games,
            threads: 2,
            max_plies: 40,
            think: None,
        }
    }

    #[test]
    fn a_match_plays_its_schedule_in_order() {
        let a: PlannerSpec = "random:seed=1".parse().expect("spec");
        let b: PlannerSpec = "random:seed=2".parse().expect("spec");
        let openings = crate::openings::built_in();
        let ended = AtomicUsize::new(0);
        let on_game = || {
            ended.fetch_add(1, Ordering::Relaxed);
        };
        let m = play_matches(&[(a, b), (b, a)], &openings, &settings(4), &on_game);
        assert_eq!(ended.load(Ordering::Relaxed), 8);
        assert_eq!(m.len(), 2);
        for one in &m {
            let rounds: Vec<usize> = one.games.iter().map(|p| p.pairing.index).collect();
            assert_eq!(rounds, [0, 1, 2, 3]);
            assert_eq!(one.tally().games(), 4);
        }
        let pdn = m[0].pdn("test", &openings);
        assert_eq!(pdn[1].0, "game-0002.pdn");
        // Game 2 has colours swapped: B is White.
        assert!(
            pdn[1].1.contains(&format!("[White \"{b}\"]")),
            "{}",
            pdn[1].1
        );
    }

    #[test]
    fn a_round_robin_pairs_within_its_span_and_rates_everyone() {
        let specs: Vec<PlannerSpec> = ["random:seed=1", "random:seed=2", "random:seed=3"]
            .iter()
            .map(|s| s.parse().expect("spec"))
            .collect();
        let openings = crate::openings::built_in();
        let rr = round_robin(&specs, Some(1), &openings, &settings(2), &|| {});
        let pairs: Vec<(usize, usize)> = rr.matches.iter().map(|(j, i, _)| (*j, *i)).collect();
        assert_eq!(pairs, [(1, 0), (2, 1)]);
        assert_eq!(rr.elo.len(), 3);
        assert_eq!(rr.elo[0], 0.0);
    }

    #[test]
    fn a_gauntlet_meets_each_opponent_at_each_time_control() {
        let g = Gauntlet {
            time_controls: vec![Duration::from_millis(10), Duration::from_millis(20)],
            opponents: vec![
                ("r1".into(), "random:seed=1".parse().expect("spec")),
                ("r2".into(), "random:seed=2".parse().expect("spec")),
            ],
        };
        let candidate: PlannerSpec = "random:seed=3".parse().expect("spec");
        let openings = crate::openings::built_in();
        let out = g.play(&candidate, &openings, &settings(2), &|| {});
        let labels: Vec<(u128, &str)> = out
            .iter()
            .map(|m| (m.time_control.as_millis(), m.opponent.as_str()))
            .collect();
        assert_eq!(labels, [(10, "r1"), (10, "r2"), (20, "r1"), (20, "r2")]);
        assert!(out.iter().all(|m| m.played.games.len() == 2));
    }

    #[test]
    fn fixed_depth_opponents_keep_their_depth() {
        let d6: PlannerSpec = "alphabeta:depth=6".parse().expect("spec");
        assert_eq!(at_time_control(&d6, Duration::from_secs(1)), d6);
        let r: PlannerSpec = "random".parse().expect("spec");
        assert_eq!(at_time_control(&r, Duration::from_secs(1)), r);
        let m: PlannerSpec = "mcts".parse().expect("spec");
        assert_eq!(
            at_time_control(&m, Duration::from_millis(100))
                .limits()
                .time,
            Some(Duration::from_millis(100))
        );
    }
}
