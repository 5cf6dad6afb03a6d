//! What a player may ask of the graph from the page, and the graph's answer: the simulated
//! human's move, a hint, a take-back, a new game, resigning. A move is checked against the
//! arbiter's own list of legal moves first, so a bad one never reaches the board.

use std::sync::Arc;

use checkers_msgs::msg::GameState;
use checkers_msgs::srv::{HumanMove_Request, NewGame_Request, Resign_Request};
use graph_client::client::GraphClient;
use serde::Deserialize;

/// A request of the page (docs/web.md).
#[derive(Debug, Deserialize)]
#[serde(tag = "op", rename_all = "snake_case", deny_unknown_fields)]
pub enum Request {
    Move {
        id: u64,
        text: String,
    },
    Hint {
        id: u64,
    },
    Takeback {
        id: u64,
    },
    NewGame {
        id: u64,
        robot_color: u8,
        #[serde(default)]
        level: String,
    },
    Resign {
        id: u64,
    },
}

impl Request {
    pub fn id(&self) -> u64 {
        match self {
            Request::Move { id, .. }
            | Request::Hint { id }
            | Request::Takeback { id }
            | Request::NewGame { id, .. }
            | Request::Resign { id } => *id,
        }
    }
}

/// Why a player's request was not carried out, as the page shows it.
#[derive(Debug, thiserror::Error)]
pub enum Refused {
    #[error("this is a replay: nothing can be played")]
    Replay,
    #[error("the robot's board is real: move the piece on it and press confirm")]
    RealBoard,
    #[error("no game state yet")]
    NoState,
    #[error("it is not your move now ({})", graph_client::client::status_name(*.0))]
    NotYourTurn(u8),
    #[error("{text:?} is not a legal move here; legal: {}", legal.join(" "))]
    Illegal { text: String, legal: Vec<String> },
    #[error("robot_color {0}: 0 (the robot plays White) or 1 (Black)")]
    Color(u8),
    #[error("spectators watch: open the player's link (with its key) to play")]
    Spectator,
    /// The graph's own answer, with its causes on the one line the page shows.
    #[error("{}", error_chain(.0))]
    Graph(#[from] graph_client::GraphError),
}

/// Who acts on a player's requests.
#[derive(Debug, Clone)]
pub enum Controls {
    /// The running graph; `sim`: its human is the simulated one, who can make moves.
    Live { client: Arc<GraphClient>, sim: bool },
    /// A recording being replayed: nothing to act on.
    Replay,
}

impl Controls {
    /// Whether a player can make moves from the page.
    pub fn can_move(&self) -> bool {
        matches!(self, Controls::Live { sim: true, .. })
    }

    /// Carries out `request`; the answer, or why not.
    pub async fn handle(&self, request: Request) -> Result<String, Refused> {
        let (client, sim) = match self {
            Controls::Live { client, sim } => (client, *sim),
            Controls::Replay => return Err(Refused::Replay),
        };
        let said = match request {
            Request::Move { text, .. } => {
                if !sim {
                    return Err(Refused::RealBoard);
                }
                check_move(client.state(), &text)?;
                let r = client
                    .human_move(&text, HumanMove_Request::ERROR_NONE, true)
                    .await;
                r.map(|r| format!("played {}", r.performed_text))
            }
            Request::Hint { .. } => client.hint(0.0).await.map(|r| r.message),
            Request::Takeback { .. } if sim => client.take_back_and_set_up().await,
            Request::Takeback { .. } => client.take_back(0).await,
            Request::NewGame {
                robot_color, level, ..
            } => {
                if robot_color > NewGame_Request::SIDE_BLACK {
                    return Err(Refused::Color(robot_color));
                }
                client.new_game(robot_color, &level, "").await
            }
            Request::Resign { .. } => {
                let human = client.state().map_or(Resign_Request::SIDE_WHITE, |s| {
                    if s.robot_color == GameState::SIDE_WHITE {
                        Resign_Request::SIDE_BLACK
                    } else {
                        Resign_Request::SIDE_WHITE
                    }
                });
                client.resign(human).await
            }
        };
        Ok(said?)
    }
}

/// A move the human may make now: the game waits for them and the arbiter lists it.
fn check_move(state: Option<GameState>, text: &str) -> Result<(), Refused> {
    let Some(state) = state else {
        return Err(Refused::NoState);
    };
    if state.status != GameState::STATUS_WAITING_FOR_HUMAN {
        return Err(Refused::NotYourTurn(state.status));
    }
    if state.legal_moves.iter().any(|m| m.text == text) {
        return Ok(());
    }
    Err(Refused::Illegal {
        text: text.to_string(),
        legal: state.legal_moves.into_iter().map(|m| m.text).collect(),
    })
}

/// An error and its causes in one line.
fn error_chain(e: &dyn std::error::Error) -> String {
    let mut s = e.to_string();
    let mut cause = e.source();
    while let Some(c) = cause {
        s.push_str(": ");
        s.push_str(&c.to_string());
        cause = c.source();
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use checkers_msgs::msg::Move;

    fn waiting(moves: &[&str]) -> GameState {
        GameState {
            status: GameState::STATUS_WAITING_FOR_HUMAN,
            legal_moves: moves
                .iter()
                .map(|t| Move {
                    text: t.to_string(),
                    ..Default::default()
                })
                .collect(),
            ..Default::default()
        }
    }

    #[test]
    fn only_a_listed_move_in_the_humans_turn_is_passed_on() {
        assert!(check_move(Some(waiting(&["c3-d4", "c3-b4"])), "c3-d4").is_ok());
        let e = check_move(Some(waiting(&["c3-d4"])), "a3-b4")
            .expect_err("illegal")
            .to_string();
        assert!(e.contains("not a legal move") && e.contains("c3-d4"), "{e}");
        let mut thinking = waiting(&["c3-d4"]);
        thinking.status = GameState::STATUS_ROBOT_THINKING;
        assert!(check_move(Some(thinking), "c3-d4")
            .expect_err("not now")
            .to_string()
            .contains("robot thinking"));
        assert!(check_move(None, "c3-d4").is_err());
    }

    #[test]
    fn requests_parse_and_unknown_ones_do_not() {
        let r: Request =
            serde_json::from_str(r#"{"op":"move","id":3,"text":"c3-d4"}"#).expect("parses");
        assert_eq!(r.id(), 3);
        let r: Request =
            serde_json::from_str(r#"{"op":"new_game","id":4,"robot_color":1}"#).expect("parses");
        assert!(matches!(r, Request::NewGame { robot_color: 1, .. }));
        assert!(serde_json::from_str::<Request>(r#"{"op":"teleport","id":1}"#).is_err());
        assert!(serde_json::from_str::<Request>(r#"{"op":"move","id":1}"#).is_err());
    }
}
