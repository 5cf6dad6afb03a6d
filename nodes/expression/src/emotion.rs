//! The emotion model. Inputs: the robot's win probability after each of its searches, the
//! game's events, and the attitude set for the robot. The paper's rules:
//! - happy when it captures; angry when the human breaks a rule;
//! - surprise and fear only on an abrupt change of the win probability (up: the human erred;
//!   down: the robot's position collapsed);
//! - otherwise the level of the win probability, read through the attitude: a `positive` robot
//!   empathises (sad for a human who is losing, happy at the human's good play), a `negative` one
//!   is a rival (happy when winning, angry then sad when losing).
//!
//! Levels change with hysteresis, so a probability wandering around a boundary does not make the
//! face flicker from move to move.

use std::str::FromStr;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Emotion {
    Neutral,
    Happy,
    Sad,
    Angry,
    Surprise,
    Fear,
    Disgust,
}

impl Emotion {
    pub const ALL: [Emotion; 7] = [
        Emotion::Neutral,
        Emotion::Happy,
        Emotion::Sad,
        Emotion::Angry,
        Emotion::Surprise,
        Emotion::Fear,
        Emotion::Disgust,
    ];

    /// The `EMOTION_*` constant of `checkers_msgs/msg/FaceExpression`.
    pub fn code(self) -> u8 {
        match self {
            Emotion::Neutral => 0,
            Emotion::Happy => 1,
            Emotion::Sad => 2,
            Emotion::Angry => 3,
            Emotion::Surprise => 4,
            Emotion::Fear => 5,
            Emotion::Disgust => 6,
        }
    }

    pub fn name(self) -> &'static str {
        match self {
            Emotion::Neutral => "neutral",
            Emotion::Happy => "happy",
            Emotion::Sad => "sad",
            Emotion::Angry => "angry",
            Emotion::Surprise => "surprise",
            Emotion::Fear => "fear",
            Emotion::Disgust => "disgust",
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Attitude {
    /// Benevolent: empathises with the human and rejoices at the human's good play.
    Positive,
    /// Aggressive: a rival.
    Negative,
}

#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("attitude must be \"positive\" or \"negative\", not {0:?}")]
pub struct BadAttitude(pub String);

impl FromStr for Attitude {
    type Err = BadAttitude;
    fn from_str(s: &str) -> Result<Attitude, BadAttitude> {
        match s.trim().to_ascii_lowercase().as_str() {
            "positive" => Ok(Attitude::Positive),
            "negative" => Ok(Attitude::Negative),
            _ => Err(BadAttitude(s.to_string())),
        }
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    White,
    Black,
}

/// What the arbiter reports, as the face cares about it ("robot" and "human" rather than
/// colours).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GameEvent {
    NewGame,
    Resumed,
    HumanMoved,
    RobotMoved,
    Capture {
        by_robot: bool,
    },
    Promotion {
        robot: bool,
    },
    IllegalMove,
    NothingMoved,
    Ambiguous,
    ArmFailed,
    BoardMismatch,
    BoardRestored,
    PlannerTimeout,
    /// The planner does not answer: the robot waits for it.
    PlannerAway,
    /// The coach judged the human's move a blunder.
    HumanBlunder,
    /// The coach judged the human's move the only one that holds.
    HumanBrilliant,
    /// `Some(true)`: the robot won; `Some(false)`: the human won; `None`: a draw.
    GameOver {
        robot_won: Option<bool>,
    },
}

/// Win-probability levels, from the robot's view.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Level {
    Lost,
    Losing,
    Even,
    Winning,
    Won,
}

/// Lower bounds of Losing, Even, Winning, Won.
const BOUNDS: [f32; 4] = [0.15, 0.35, 0.65, 0.85];

/// Tunables of the model.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ModelConfig {
    /// A level changes only once the probability is this far past the boundary.
    pub hysteresis: f32,
    /// A change of the win probability at least this large between two searches is abrupt.
    pub abrupt_change: f32,
}

impl Default for ModelConfig {
    fn default() -> ModelConfig {
        ModelConfig {
            hysteresis: 0.05,
            abrupt_change: 0.25,
        }
    }
}

#[derive(Debug, Clone)]
pub struct EmotionModel {
    attitude: Attitude,
    config: ModelConfig,
    level: Level,
    last_probability: Option<f32>,
    probability: f32,
    change: f32,
    /// An emotion of the moment (an event, an abrupt change) over the level's, until the next
    /// search result or the event that ends it.
    transient: Option<(Emotion, f32)>,
    illegal_in_a_row: u32,
}

impl EmotionModel {
    pub fn new(attitude: Attitude) -> EmotionModel {
        EmotionModel::with_config(attitude, ModelConfig::default())
    }

    pub fn with_config(attitude: Attitude, config: ModelConfig) -> EmotionModel {
        EmotionModel {
            attitude,
            config,
            level: Level::Even,
            last_probability: None,
            probability: 0.5,
            change: 0.0,
            transient: None,
            illegal_in_a_row: 0,
        }
    }

    pub fn attitude(&self) -> Attitude {
        self.attitude
    }

    /// What the face shows now.
    pub fn emotion(&self) -> Emotion {
        self.transient
            .map_or_else(|| self.level_emotion(), |(e, _)| e)
    }

    /// How strongly, 0..1.
    pub fn intensity(&self) -> f32 {
        match self.transient {
            Some((_, i)) => i,
            None if self.level_emotion() == Emotion::Neutral => 0.3,
            None => ((self.probability - 0.5).abs() * 2.0).clamp(0.4, 1.0),
        }
    }

    /// The robot's win probability after one of its searches. The change is measured from the
    /// previous search of the same game.
    pub fn on_evaluation(&mut self, win_probability: f32) -> Emotion {
        let p = if win_probability.is_finite() {
            win_probability.clamp(0.0, 1.0)
        } else {
            self.probability
        };
        let change = self.last_probability.map_or(0.0, |last| p - last);
        self.last_probability = Some(p);
        self.probability = p;
        self.change = change;
        self.level = self.next_level(p);
        self.transient = if change.abs() >= self.config.abrupt_change {
            let strength = (change.abs() / 0.5).clamp(0.6, 1.0);
            Some((
                if change > 0.0 {
                    Emotion::Surprise
                } else {
                    Emotion::Fear
                },
                strength,
            ))
        } else {
            None
        };
        self.emotion()
    }

    /// The change of the win probability at the last search (0 before the second).
    pub fn last_change(&self) -> f32 {
        self.change
    }

    pub fn on_event(&mut self, event: &GameEvent) -> Emotion {
        let positive = self.attitude == Attitude::Positive;
        match event {
            GameEvent::NewGame => {
                *self = EmotionModel::with_config(self.attitude, self.config);
                self.transient = Some((Emotion::Happy, 0.6));
            }
            GameEvent::Resumed => self.transient = Some((Emotion::Happy, 0.4)),
            GameEvent::IllegalMove => {
                self.illegal_in_a_row += 1;
                self.transient = Some(if self.illegal_in_a_row >= 2 {
                    (Emotion::Disgust, 0.8)
                } else {
                    (Emotion::Angry, 0.7)
                });
            }
            GameEvent::HumanMoved => {
                self.illegal_in_a_row = 0;
                self.transient = None;
            }
            GameEvent::Capture { by_robot: true } | GameEvent::Promotion { robot: true } => {
                self.transient = Some((Emotion::Happy, 0.9));
            }
            GameEvent::Capture { by_robot: false } | GameEvent::Promotion { robot: false } => {
                self.transient = Some(if positive {
                    (Emotion::Happy, 0.6)
                } else {
                    (Emotion::Angry, 0.6)
                });
            }
            GameEvent::ArmFailed | GameEvent::BoardMismatch => {
                self.transient = Some((Emotion::Sad, 0.6));
            }
            // Worried, waiting for its thoughts to come back.
            GameEvent::PlannerAway => self.transient = Some((Emotion::Fear, 0.4)),
            GameEvent::BoardRestored => self.transient = None,
            // Empathy or glee at a blunder, as the attitude reads it; surprise at a brilliant
            // move either way.
            GameEvent::HumanBlunder => {
                self.transient = Some(if positive {
                    (Emotion::Sad, 0.5)
                } else {
                    (Emotion::Happy, 0.8)
                });
            }
            GameEvent::HumanBrilliant => self.transient = Some((Emotion::Surprise, 0.8)),
            GameEvent::GameOver { robot_won } => {
                self.transient = Some(match (robot_won, positive) {
                    (Some(true), _) => (Emotion::Happy, 1.0),
                    (Some(false), true) => (Emotion::Happy, 0.8),
                    (Some(false), false) => (Emotion::Sad, 1.0),
                    (None, _) => (Emotion::Neutral, 0.5),
                });
            }
            GameEvent::RobotMoved
            | GameEvent::NothingMoved
            | GameEvent::Ambiguous
            | GameEvent::PlannerTimeout => {}
        }
        self.emotion()
    }

    fn level_emotion(&self) -> Emotion {
        match (self.attitude, self.level) {
            (_, Level::Even) => Emotion::Neutral,
            (Attitude::Positive, Level::Won | Level::Winning) => Emotion::Sad,
            (Attitude::Positive, Level::Losing | Level::Lost) => Emotion::Happy,
            (Attitude::Negative, Level::Won | Level::Winning) => Emotion::Happy,
            (Attitude::Negative, Level::Losing) => Emotion::Angry,
            (Attitude::Negative, Level::Lost) => Emotion::Sad,
        }
    }

    /// The level for `p`, moving away from the current one only past a boundary plus the
    /// hysteresis margin.
    fn next_level(&self, p: f32) -> Level {
        let raw = level_of(p);
        let h = self.config.hysteresis;
        match raw.cmp(&self.level) {
            std::cmp::Ordering::Equal => raw,
            std::cmp::Ordering::Greater => level_of(p - h).max(self.level),
            std::cmp::Ordering::Less => level_of(p + h).min(self.level),
        }
    }
}

fn level_of(p: f32) -> Level {
    match BOUNDS.iter().filter(|&&b| p >= b).count() {
        0 => Level::Lost,
        1 => Level::Losing,
        2 => Level::Even,
        3 => Level::Winning,
        _ => Level::Won,
    }
}
