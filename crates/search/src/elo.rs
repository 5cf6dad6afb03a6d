//! Elo from match results: the difference with its 95% interval for one match, and ratings
//! fitted to a round robin (Bradley-Terry, draws as half a win).

/// Results of a match, from one side's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl Tally {
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// Points per game, in [0, 1].
    pub fn score(&self) -> f64 {
        let n = self.games();
        if n == 0 {
            return 0.5;
        }
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(n)
    }

    pub fn add(&mut self, points: f64) {
        if points > 0.75 {
            self.wins += 1;
        } else if points < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// The Elo difference that predicts this score. A perfect score has no finite one: it is
    /// reported as the difference half a game short of perfect would give.
    pub fn elo(&self) -> f64 {
        let n = f64::from(self.games().max(1));
        elo_from_score(self.score().clamp(0.5 / n, 1.0 - 0.5 / n))
    }

    /// The 95% interval of the Elo difference: a Wilson score interval on the mean score, with
    /// the variance of the games' points (1, 1/2 or 0). Unlike the plain normal approximation
    /// it stays honest at a perfect score (whose sample variance is zero).
    pub fn elo_interval95(&self) -> (f64, f64) {
        let n = f64::from(self.games().max(1));
        let (lo, hi) = self.score_interval95();
        let clamp = |s: f64| s.clamp(0.5 / n, 1.0 - 0.5 / n);
        (elo_from_score(clamp(lo)), elo_from_score(clamp(hi)))
    }

    /// The 95% interval of the mean score (Wilson, with the variance of the games' points).
    pub fn score_interval95(&self) -> (f64, f64) {
        let n = f64::from(self.games().max(1));
        let s = self.score();
        let var = (f64::from(self.wins) * (1.0 - s).powi(2)
            + f64::from(self.draws) * (0.5 - s).powi(2)
            + f64::from(self.losses) * s.powi(2))
            / n;
        let z2 = Z95 * Z95;
        let centre = s + z2 / (2.0 * n);
        let half = Z95 * (var / n + z2 / (4.0 * n * n)).sqrt();
        let lo = (centre - half) / (1.0 + z2 / n);
        let hi = (centre + half) / (1.0 + z2 / n);
        (lo.clamp(0.0, 1.0), hi.clamp(0.0, 1.0))
    }

    /// `+W =D -L score S, elo E [LOW, HIGH]`: one line for the tuners' logs.
    pub fn summary(&self) -> String {
        let (lo, hi) = self.elo_interval95();
        format!(
            "+{} ={} -{} score {:.3}, elo {:.0} [{lo:.0}, {hi:.0}]",
            self.wins,
            self.draws,
            self.losses,
            self.score(),
            self.elo()
        )
    }
}

const Z95: f64 = 1.959_964;

/// `-400 log10(1/s - 1)`: the rating difference at which the expected score is `s`.
pub fn elo_from_score(s: f64) -> f64 {
    -400.0 * (1.0 / s - 1.0).log10()
}

/// Expected score of a player rated `diff` above the opponent.
pub fn expected_score(diff: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-diff / 400.0))
}

/// One pairing of a round robin: players `a` and `b`, `a`'s points out of `games`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Pairing {
    pub a: usize,
    pub b: usize,
    pub points_a: f64,
    pub games: f64,
}

/// Maximum-likelihood ratings of `n` players, the first at 0. Each pairing also counts one
/// virtual draw, so a pairing won every time still gives a finite (if large) difference.
pub fn fit_ratings(n: usize, pairings: &[Pairing]) -> Vec<f64> {
    let mut r = vec![0.0; n];
    if n < 2 {
        return r;
    }
    for _ in 0..20_000 {
        let mut grad = vec![0.0; n];
        for p in pairings {
            let games = p.games + 1.0;
            let pts = p.points_a + 0.5;
            let e = expected_score(r[p.a] - r[p.b]);
            // d(log L)/d(r_a) in units of games.
            grad[p.a] += pts - games * e;
            grad[p.b] -= pts - games * e;
        }
        let mut moved = 0.0f64;
        for i in 0..n {
            let step = 40.0 * grad[i]
                / (1.0
                    + pairings
                        .iter()
                        .filter(|p| p.a == i || p.b == i)
                        .map(|p| p.games + 1.0)
                        .sum::<f64>());
            r[i] += step;
            moved = moved.max(step.abs());
        }
        if moved < 1e-6 {
            break;
        }
    }
    let base = r[0];
    r.iter().map(|x| x - base).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_names_the_tally_and_its_score() {
        let t = Tally {
            wins: 3,
            draws: 1,
            losses: 0,
        };
        assert!(
            t.summary().starts_with("+3 =1 -0 score 0.875, elo "),
            "{}",
            t.summary()
        );
    }

    #[test]
    fn even_score_is_zero_elo_and_scores_map_both_ways() {
        let t = Tally {
            wins: 5,
            draws: 10,
            losses: 5,
        };
        assert_eq!(t.score(), 0.5);
        assert!(t.elo().abs() < 1e-9);
        let (lo, hi) = t.elo_interval95();
        assert!(lo < 0.0 && hi > 0.0);
        assert!((elo_from_score(0.75) - 190.85).abs() < 0.1);
        assert!((expected_score(elo_from_score(0.64)) - 0.64).abs() < 1e-9);
    }

    #[test]
    fn perfect_score_has_a_finite_elo() {
        let t = Tally {
            wins: 10,
            draws: 0,
            losses: 0,
        };
        assert!(t.elo().is_finite() && t.elo() > 400.0);
        // 10 wins out of 10: the interval's floor is well above even but far below the point.
        let (lo, hi) = t.elo_interval95();
        assert!(lo > 150.0 && lo < t.elo(), "{lo}");
        assert!((hi - t.elo()).abs() < 1e-9);
    }

    #[test]
    fn fitted_ratings_order_a_ladder() {
        // 0 < 1 < 2: each scores 75% against the one below, 90% two below.
        let p = |a, b, s: f64| Pairing {
            a,
            b,
            points_a: s * 20.0,
            games: 20.0,
        };
        let r = fit_ratings(3, &[p(1, 0, 0.75), p(2, 1, 0.75), p(2, 0, 0.9)]);
        assert_eq!(r[0], 0.0);
        assert!(r[1] > 100.0 && r[2] > r[1] + 100.0, "{r:?}");
    }
}
