//! Keys and typed moves. A key changes the [`App`] and may ask the graph for something (an
//! [`Action`]); a typed move is checked here against the legal moves the arbiter published, so
//! the player hears at once what is wrong instead of watching the simulated human fail.

use checkers_msgs::msg::{GameState, Move};
use crossterm::event::{KeyCode, KeyEvent, KeyModifiers};
use draughts::parse_squares;

use super::app::{App, ColourChoice, Mode, Notice};

/// What the player asked the graph for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Action {
    /// The simulated human plays this move (full-path text) and presses confirm.
    PlayMove(String),
    /// `/game/resolve`: the candidate the human meant.
    Resolve { index: u8, text: String },
    /// `/game/new`.
    NewGame { robot_color: u8, level: String },
    /// `/game/resign` for the human's side.
    Resign { side: u8 },
    /// `/game/hint`: the robot's suggestion for the human's move.
    Hint,
    /// `/game/takeback`: the robot's reply and the human's move before it.
    TakeBack,
    /// Leave: stop the launched nodes and restore the terminal.
    Quit,
}

/// Longer than any legal move's text (12 landings), short enough to fit the input line.
const MAX_INPUT: usize = 48;

/// Why typed text names no move, in words for the input line.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveTextError {
    #[error("can't read {0:?}: type a move like c3-d4, 22-18 or c3:e5:g3")]
    Unreadable(String),
    #[error("can't read {0:?}: a move names at least two squares")]
    OneSquare(String),
    #[error("{text} could be {}: type the whole path", fits.join(" or "))]
    Ambiguous { text: String, fits: Vec<String> },
    #[error("{0} is not legal: there is no legal move")]
    NoLegalMove(String),
    #[error("{text} is not a legal move here; legal: {}", shown_moves(legal))]
    Illegal { text: String, legal: Vec<String> },
}

/// The first legal moves, enough to remind without filling the line.
fn shown_moves(legal: &[String]) -> String {
    const SHOWN: usize = 8;
    let mut list: Vec<&str> = legal.iter().take(SHOWN).map(String::as_str).collect();
    if legal.len() > SHOWN {
        list.push("...");
    }
    list.join(" ")
}

/// The move of `moves` that `text` names: the full path (`c3:e5:g3`), from and to only, or any
/// subset of the landings in order, algebraic or numeric (`22-18`, `22x15`).
pub fn find_move<'a>(moves: &'a [Move], text: &str) -> Result<&'a Move, MoveTextError> {
    let text = text.trim();
    let squares: Vec<u8> = parse_squares(text)
        .map_err(|_| MoveTextError::Unreadable(text.to_string()))?
        .iter()
        .map(|s| s.number())
        .collect();
    let (from, rest) = match squares.split_first() {
        Some((f, rest)) if !rest.is_empty() => (*f, rest),
        _ => return Err(MoveTextError::OneSquare(text.to_string())),
    };
    let to = rest[rest.len() - 1];
    let inner = &rest[..rest.len() - 1];
    let fits: Vec<&Move> = moves
        .iter()
        .filter(|m| m.from_square == from && m.to_square == to)
        .filter(|m| is_subsequence(inner, m.path.split_last().map_or(&[][..], |(_, i)| i)))
        .collect();
    // The full path typed out names its move even when a shorter text would not.
    if let Some(exact) = fits.iter().find(|m| m.path.as_slice() == rest) {
        return Ok(exact);
    }
    match fits.as_slice() {
        [one] => Ok(one),
        [] if moves.is_empty() => Err(MoveTextError::NoLegalMove(text.to_string())),
        [] => Err(MoveTextError::Illegal {
            text: text.to_string(),
            legal: moves.iter().map(|m| m.text.clone()).collect(),
        }),
        many => Err(MoveTextError::Ambiguous {
            text: text.to_string(),
            fits: many.iter().map(|m| m.text.clone()).collect(),
        }),
    }
}

fn is_subsequence(needle: &[u8], hay: &[u8]) -> bool {
    let mut it = hay.iter();
    needle.iter().all(|n| it.any(|h| h == n))
}

fn is_move_char(c: char) -> bool {
    matches!(c, 'a'..='h' | 'A'..='H' | '0'..='9' | '-' | ':' | 'x' | 'X')
}

/// Handles one key press; returns what to ask the graph for, if anything.
pub fn on_key(app: &mut App, key: KeyEvent) -> Option<Action> {
    if key.modifiers.contains(KeyModifiers::CONTROL) && key.code == KeyCode::Char('c') {
        return Some(Action::Quit);
    }
    match app.mode.clone() {
        Mode::Play => play_key(app, key),
        Mode::NewGame { colour, level } => new_game_key(app, key, colour, level),
        Mode::ConfirmResign => {
            app.mode = Mode::Play;
            match key.code {
                KeyCode::Char('y' | 'Y') | KeyCode::Enter => {
                    let side = app.human_side()?;
                    Some(Action::Resign { side })
                }
                _ => {
                    app.notice = Some(Notice::Info("not resigned".into()));
                    None
                }
            }
        }
    }
}

fn play_key(app: &mut App, key: KeyEvent) -> Option<Action> {
    match key.code {
        KeyCode::Char('q' | 'Q') => Some(Action::Quit),
        KeyCode::Char('?') => Some(Action::Hint),
        KeyCode::Char('u' | 'U') => Some(Action::TakeBack),
        KeyCode::Char('n' | 'N') => {
            app.mode = app.new_game_dialog();
            None
        }
        KeyCode::Char('r' | 'R') => {
            let in_progress = app.status() != GameState::STATUS_IDLE && !app.is_over();
            if in_progress {
                app.mode = Mode::ConfirmResign;
            } else {
                app.notice = Some(Notice::Error("no game in progress to resign".into()));
            }
            None
        }
        KeyCode::Char(c) if is_move_char(c) => {
            if app.input.len() < MAX_INPUT {
                app.input.push(c.to_ascii_lowercase());
            }
            None
        }
        KeyCode::Backspace => {
            app.input.pop();
            None
        }
        KeyCode::Esc => {
            app.input.clear();
            app.notice = None;
            None
        }
        KeyCode::Up => {
            app.selected = app.selected.saturating_sub(1);
            None
        }
        KeyCode::Down => {
            if app.selected + 1 < app.choices().len() {
                app.selected += 1;
            }
            None
        }
        KeyCode::Enter => submit(app),
        _ => None,
    }
}

/// Enter: the typed move if any, else the highlighted one.
fn submit(app: &mut App) -> Option<Action> {
    let typed = !app.input.trim().is_empty();
    if app.status() == GameState::STATUS_AMBIGUOUS {
        let candidates = app.choices();
        let chosen = if typed {
            find_move(candidates, &app.input).map_err(|e| e.to_string())
        } else {
            candidates
                .get(app.selected)
                .ok_or_else(|| "no candidate to choose".to_string())
        };
        return match chosen {
            Ok(m) => {
                let index = candidates.iter().position(|c| c == m).unwrap_or(0);
                let action = Action::Resolve {
                    index: u8::try_from(index).unwrap_or(u8::MAX),
                    text: m.text.clone(),
                };
                app.notice = Some(Notice::Info(format!("you meant {}", m.text)));
                app.input.clear();
                Some(action)
            }
            Err(e) => {
                app.notice = Some(Notice::Error(e));
                None
            }
        };
    }
    if let Err(why) = turn_check(app) {
        app.notice = Some(Notice::Error(why.to_string()));
        return None;
    }
    let chosen = if typed {
        find_move(app.choices(), &app.input)
            .map(|m| m.text.clone())
            .map_err(|e| e.to_string())
    } else {
        app.choices()
            .get(app.selected)
            .map(|m| m.text.clone())
            .ok_or_else(|| "type a move, or choose one with the arrows".to_string())
    };
    match chosen {
        Ok(text) => {
            app.notice = Some(Notice::Info(format!("playing {text}...")));
            app.input.clear();
            app.selected = 0;
            Some(Action::PlayMove(text))
        }
        Err(e) => {
            app.notice = Some(Notice::Error(e));
            None
        }
    }
}

/// Why the human cannot move now, in words.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
enum NotYourTurn {
    #[error("the arbiter has not started yet: wait a moment")]
    NotStarted,
    #[error("no game yet: press n for a new game")]
    NoGame,
    #[error("the game is over: press n for a new game")]
    Over,
    #[error("wait: it is the robot's turn")]
    RobotsTurn,
    #[error("the board does not match the game: it has to be put right first")]
    BoardMismatch,
    #[error("the arbiter is not waiting for your move now")]
    NotWaiting,
}

fn turn_check(app: &App) -> Result<(), NotYourTurn> {
    if app.humans_turn() {
        return Ok(());
    }
    Err(match app.status() {
        _ if app.state.is_none() => NotYourTurn::NotStarted,
        GameState::STATUS_IDLE => NotYourTurn::NoGame,
        s if s >= GameState::STATUS_WHITE_WON => NotYourTurn::Over,
        GameState::STATUS_ROBOT_THINKING
        | GameState::STATUS_ROBOT_MOVING
        | GameState::STATUS_VERIFYING => NotYourTurn::RobotsTurn,
        GameState::STATUS_BOARD_MISMATCH => NotYourTurn::BoardMismatch,
        _ => NotYourTurn::NotWaiting,
    })
}

fn new_game_key(app: &mut App, key: KeyEvent, colour: usize, level: usize) -> Option<Action> {
    let n_colours = ColourChoice::ALL.len();
    let n_levels = app.levels.len().max(1);
    let (colour, level) = match key.code {
        KeyCode::Esc => {
            app.mode = Mode::Play;
            return None;
        }
        KeyCode::Enter => {
            app.mode = Mode::Play;
            let choice = ColourChoice::ALL[colour % n_colours];
            let level = app.levels.get(level).cloned().unwrap_or_default();
            app.notice = Some(Notice::Info(format!(
                "new game: you play {}, level {}",
                choice.name(),
                if level.is_empty() {
                    "unchanged"
                } else {
                    &level
                }
            )));
            app.input.clear();
            return Some(Action::NewGame {
                robot_color: choice.robot_color(),
                level,
            });
        }
        KeyCode::Left => ((colour + n_colours - 1) % n_colours, level),
        KeyCode::Right | KeyCode::Tab => ((colour + 1) % n_colours, level),
        KeyCode::Up => (colour, level.saturating_sub(1)),
        KeyCode::Down => (colour, (level + 1).min(n_levels - 1)),
        _ => (colour, level),
    };
    app.mode = Mode::NewGame { colour, level };
    None
}

#[cfg(test)]
mod tests;
