//! Dirichlet noise for the root of a self-play search, so that every move is tried now and then.

use rand::rngs::StdRng;
use rand_distr::{Distribution, Gamma};

/// `n` numbers drawn from a symmetric Dirichlet distribution with concentration `alpha`.
pub fn dirichlet(rng: &mut StdRng, alpha: f32, n: usize) -> Vec<f32> {
    let Ok(gamma) = Gamma::new(alpha, 1.0) else {
        return vec![1.0 / n.max(1) as f32; n];
    };
    let draws: Vec<f32> = (0..n).map(|_| gamma.sample(rng)).collect();
    let sum: f32 = draws.iter().sum();
    if sum > 0.0 && sum.is_finite() {
        draws.into_iter().map(|x| x / sum).collect()
    } else {
        vec![1.0 / n.max(1) as f32; n]
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;

    #[test]
    fn dirichlet_draws_sum_to_one() {
        let mut rng = StdRng::seed_from_u64(7);
        for n in [1, 2, 9] {
            let d = dirichlet(&mut rng, 0.6, n);
            assert_eq!(d.len(), n);
            assert!((d.iter().sum::<f32>() - 1.0).abs() < 1e-5);
            assert!(d.iter().all(|&x| x >= 0.0));
        }
    }
}
