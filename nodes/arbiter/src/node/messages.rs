//! The arbiter's messages: `/game/state` from the referee and the planner's search, and
//! `/game/events` from an announcement.

use checkers_msgs::convert::{move_msg, position_msg, side_code};
use checkers_msgs::msg::{GameEvent, GameState};
use ros::Node;

use super::Search;
use crate::referee::{Announcement, Referee, Status};

pub(super) fn state_msg(r: &Referee, search: &Search, node: &Node) -> GameState {
    let game = r.game();
    let result = game.result();
    let mut msg = GameState {
        game_id: r.record().game_id,
        position: position_msg(r.position()),
        status: r.status().code(),
        robot_color: side_code(r.robot()),
        level: r.level().to_string(),
        ply: game.moves().len() as u32,
        last_move: game.moves().last().map(move_msg).unwrap_or_default(),
        legal_moves: if r.status() == Status::Idle {
            Vec::new()
        } else {
            game.legal_moves().iter().map(move_msg).collect()
        },
        candidates: r.candidates().iter().map(move_msg).collect(),
        result: result.pdn_tag().to_string(),
        result_reason: if result.is_over() {
            result.to_string()
        } else {
            String::new()
        },
        search_depth: search.depth,
        search_nodes: search.nodes,
        best_move_text: search.best.clone(),
        search_elapsed_s: search.elapsed,
        message: r.message().to_string(),
        ..GameState::default()
    };
    msg.header.stamp = node.now();
    msg.header.frame_id = "board".into();
    msg
}

pub(super) fn event_msg(a: &Announcement, ply: u32, node: &Node) -> GameEvent {
    let mut msg = GameEvent {
        kind: a.kind.code(),
        side: side_code(a.side),
        ply,
        game_move: a.game_move.as_ref().map(move_msg).unwrap_or_default(),
        candidates: a.candidates.iter().map(move_msg).collect(),
        wrong_squares: a.wrong_squares.clone(),
        occupancy: a.occupancy,
        text: a.text.clone(),
        ..GameEvent::default()
    };
    if let Some((verdict, better, loss)) = &a.verdict {
        msg.verdict = *verdict;
        msg.better_move = better.as_ref().map(move_msg).unwrap_or_default();
        msg.loss = *loss;
    }
    msg.header.stamp = node.now();
    msg
}
