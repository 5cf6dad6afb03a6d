//! What alpha-beta evaluates with: the linear evaluation ([`super::eval`]) or the patterns
//! ([`super::patterns`]), with the learned correction ([`super::net`]) on top. Above all three,
//! so that the patterns can build on the linear features without a circle.

use std::sync::Arc;

use draughts::Position;

use super::eval::{evaluate, Weights};
use super::net::EvalNet;
use super::patterns::Patterns;

/// What alpha-beta evaluates with: the tuned linear weights, or the pattern evaluation
/// ([`super::patterns`]) in their place; and the learned correction ([`super::net`]) on top
/// when one is given (fitted to whichever of the two it corrects).
#[derive(Clone, Debug)]
pub struct Evaluator {
    pub weights: Weights,
    pub net: Option<Arc<EvalNet>>,
    pub patterns: Option<Arc<Patterns>>,
}

impl Evaluator {
    pub fn linear(weights: Weights) -> Evaluator {
        Evaluator {
            weights,
            net: None,
            patterns: None,
        }
    }

    /// The value of `pos` for the side to move, in hundredths of a man.
    #[inline]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let v = self.base(pos);
        match self.net_for(pos) {
            Some(net) => v + net.correction(pos),
            None => v,
        }
    }

    /// The value without the network: the linear or the pattern evaluation.
    #[inline]
    pub fn base(&self, pos: &Position) -> i32 {
        match &self.patterns {
            Some(patterns) => patterns.evaluate(pos),
            None => evaluate(pos, &self.weights),
        }
    }

    /// The network, where it applies to `pos` (enough pieces on the board).
    #[inline]
    pub fn net_for(&self, pos: &Position) -> Option<&EvalNet> {
        self.net
            .as_deref()
            .filter(|_| pos.occupied().count_ones() >= super::net::MIN_PIECES)
    }
}
