//! The simulated human on a board it cannot read: it still moves nothing when asked, and puts
//! the board right as a person does.

use std::time::Duration;

use checkers_msgs::srv::HumanMove_Request as Request;
use draughts::{Color, Position, Square};
use sim::human::Human;
use sim::settings::Settings;
use sim::state::lock;

fn sq(name: &str) -> Square {
    name.parse().expect("a square")
}

#[tokio::test]
async fn a_board_with_two_pieces_on_one_square_is_put_right() {
    let mut params = ros::Params::with_overrides(Vec::new());
    let settings = Settings::from_params(&mut params).expect("settings");
    let shared = sim::node::build(&settings);
    let start = Position::start();
    {
        let mut sim = lock(&shared);
        sim.game = Some((start, Color::Black));
        // A piece dropped on its neighbour's square, as a failed place can leave it.
        let id = sim.world.lift(sq("c3")).expect("a piece on c3");
        sim.world.put(id, sq("d2"), 0.0, false);
        assert!(sim.world.position(Color::White).is_err());
    }
    let human = Human {
        side: Color::White,
        pause: Duration::ZERO,
        off_centre_m: 0.0,
    };
    let ask = |error: u8| Request {
        move_text: String::new(),
        error,
        press_confirm: false,
    };
    let nothing = human.perform(&shared, &ask(Request::ERROR_NO_MOVE)).await;
    assert!(nothing.success, "{}", nothing.message);
    let refused = human.perform(&shared, &ask(Request::ERROR_NONE)).await;
    assert!(!refused.success, "a move needs a board it can read");
    let set_up = human.perform(&shared, &ask(Request::ERROR_SET_UP)).await;
    assert!(set_up.success, "{}", set_up.message);
    let sim = lock(&shared);
    assert_eq!(sim.world.position(Color::White).ok(), Some(start));
}
