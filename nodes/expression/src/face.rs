//! The whole head, as the node drives it: the emotion model, the phrase book, where the robot
//! looks, and the frame to show. Game facts come in (robot-relative); frames and phrases go out.

use crate::emotion::{Attitude, Emotion, EmotionModel, GameEvent};
use crate::eyes::{eyes, Eye, Gaze};
use crate::phrases::{Language, PhraseBook, Situation};
use crate::pose::{pose, Pose};

/// A change of the robot's win probability across the human's move at least this large is
/// worth a comment on the human's play.
const NOTABLE_CHANGE: f32 = 0.10;

/// What the head shows at one moment.
#[derive(Debug, Clone, PartialEq)]
pub struct Frame {
    pub emotion: Emotion,
    pub intensity: f32,
    pub left_eye: Eye,
    pub right_eye: Eye,
    pub pose: Pose,
    pub gaze: Gaze,
}

/// What the arbiter's state says about the head's situation.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Activity {
    /// The human is to move, or nothing happens: look at the player.
    Waiting,
    /// The planner searches.
    Thinking,
    /// The arm moves, or the board is being checked: look at the board.
    Moving,
}

#[derive(Debug, Clone)]
pub struct Face {
    model: EmotionModel,
    book: PhraseBook,
    activity: Activity,
    speaking: bool,
    /// The human moved since the last evaluation: the next one judges the human's move.
    human_just_moved: bool,
    /// A hint was given and nothing happened since: the robot looks at the board, where the
    /// hint is.
    showing_hint: bool,
}

impl Face {
    pub fn new(attitude: Attitude, language: Language, seed: u64) -> Face {
        Face {
            model: EmotionModel::new(attitude),
            book: PhraseBook::new(language, attitude, seed),
            activity: Activity::Waiting,
            speaking: false,
            human_just_moved: false,
            showing_hint: false,
        }
    }

    pub fn phrase_book(&mut self) -> &mut PhraseBook {
        &mut self.book
    }

    pub fn emotion(&self) -> Emotion {
        self.model.emotion()
    }

    /// The robot's win probability after its search. Returns a comment on the human's last
    /// move, now and then.
    pub fn on_evaluation(&mut self, win_probability: f32) -> Option<String> {
        self.model.on_evaluation(win_probability);
        let change = self.model.last_change();
        let judged = std::mem::take(&mut self.human_just_moved);
        if !judged || change.abs() < NOTABLE_CHANGE {
            return None;
        }
        let situation = if change < 0.0 {
            Situation::GoodHumanMove
        } else {
            Situation::BadHumanMove
        };
        self.book.say(situation, &[])
    }

    /// A game event, with the squares it names (illegal move, mismatch). Returns what to say.
    pub fn on_event(&mut self, event: &GameEvent, squares: &[u8]) -> Option<String> {
        self.showing_hint = false;
        self.model.on_event(event);
        let situation = match event {
            GameEvent::NewGame => Some(Situation::Greeting),
            GameEvent::Resumed => Some(Situation::Resumed),
            GameEvent::HumanMoved => {
                self.human_just_moved = true;
                self.book.ply_passed();
                None
            }
            GameEvent::RobotMoved => {
                self.book.ply_passed();
                None
            }
            GameEvent::Capture { by_robot: true } => Some(Situation::RobotCapture),
            GameEvent::Capture { by_robot: false } => Some(Situation::HumanCapture),
            GameEvent::Promotion { robot: true } => Some(Situation::RobotPromotion),
            GameEvent::Promotion { robot: false } => Some(Situation::HumanPromotion),
            GameEvent::IllegalMove if self.model.emotion() == Emotion::Disgust => {
                Some(Situation::RepeatedIllegalMove)
            }
            GameEvent::IllegalMove => Some(Situation::IllegalMove),
            GameEvent::NothingMoved => Some(Situation::NothingMoved),
            GameEvent::Ambiguous => Some(Situation::Ambiguous),
            GameEvent::ArmFailed => Some(Situation::ArmFailed),
            GameEvent::BoardMismatch => Some(Situation::BoardMismatch),
            GameEvent::BoardRestored => None,
            GameEvent::PlannerTimeout => Some(Situation::PlannerTimeout),
            GameEvent::PlannerAway => Some(Situation::PlannerAway),
            // The coach has spoken about this move: the next evaluation need not.
            GameEvent::HumanBlunder => {
                self.human_just_moved = false;
                Some(Situation::HumanBlunder)
            }
            GameEvent::HumanBrilliant => {
                self.human_just_moved = false;
                Some(Situation::HumanBrilliant)
            }
            GameEvent::GameOver {
                robot_won: Some(true),
            } => Some(Situation::RobotWon),
            GameEvent::GameOver {
                robot_won: Some(false),
            } => Some(Situation::HumanWon),
            GameEvent::GameOver { robot_won: None } => Some(Situation::Draw),
        };
        situation.and_then(|s| self.book.say(s, squares))
    }

    /// The robot suggests `mv` to the human: it says so and looks at the board.
    pub fn on_hint(&mut self, mv: &str) -> Option<String> {
        self.showing_hint = true;
        self.book
            .say(Situation::Hint, &[])
            .map(|text| text.replace("{move}", mv))
    }

    pub fn set_activity(&mut self, activity: Activity) {
        self.activity = activity;
    }

    /// While the robot speaks it looks at the player, whatever else it does.
    pub fn set_speaking(&mut self, speaking: bool) {
        self.speaking = speaking;
    }

    pub fn gaze(&self) -> Gaze {
        if self.showing_hint || (self.activity == Activity::Moving && !self.speaking) {
            Gaze::Board
        } else {
            Gaze::Player
        }
    }

    pub fn frame(&self, blink: bool) -> Frame {
        let emotion = self.model.emotion();
        let intensity = self.model.intensity();
        let gaze = self.gaze();
        let (left_eye, right_eye) = eyes(emotion, gaze, blink);
        Frame {
            emotion,
            intensity,
            left_eye,
            right_eye,
            pose: pose(emotion, intensity, gaze),
            gaze,
        }
    }
}
