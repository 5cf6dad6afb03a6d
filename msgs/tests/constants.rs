//! Constants, type names and defaults come through from the interface files.

use checkers_msgs::action::{ExecuteMove_Result, PlanMove, PlanMove_Feedback, PlanMove_Goal};
use checkers_msgs::geometry_msgs::msg::Quaternion;
use checkers_msgs::msg::{FaceExpression, GameEvent, GameState, Position};
use checkers_msgs::srv::{HumanMove_Request, NewGame_Request, ScanBoard, ScanBoard_Request};
use checkers_msgs::std_msgs;
use checkers_msgs::visualization_msgs::msg::Marker;
use checkers_msgs::{ActionInterface, Interface, ServiceInterface};

#[test]
fn constants_have_the_values_in_the_files() {
    assert_eq!(FaceExpression::EMOTION_NEUTRAL, 0);
    assert_eq!(FaceExpression::EMOTION_HAPPY, 1);
    assert_eq!(FaceExpression::EMOTION_DISGUST, 6);
    assert_eq!(FaceExpression::GAZE_PLAYER, 1);
    assert_eq!(GameState::STATUS_DRAW, 10);
    assert_eq!(GameEvent::KIND_GAME_OVER, 15);
    assert_eq!(Position::SIDE_BLACK, 1);
    assert_eq!(NewGame_Request::SIDE_RANDOM, 2);
    assert_eq!(HumanMove_Request::ERROR_NO_MOVE, 5);
    assert_eq!(ExecuteMove_Result::ERROR_CANCELLED, 7);
    let arrow_strip: i32 = Marker::ARROW_STRIP;
    assert_eq!(arrow_strip, 12);
    assert_eq!(Marker::MODIFY, Marker::ADD);
    assert_eq!(Marker::DELETEALL, 3);
    assert_eq!(GameEvent::WRONG_SQUARES_MAX_LEN, 32);
}

#[test]
fn type_names_follow_ros_naming() {
    assert_eq!(GameState::TYPE_NAME, "checkers_msgs::msg::dds_::GameState_");
    assert_eq!(GameState::ROS_TYPE, "checkers_msgs/msg/GameState");
    assert_eq!(
        ScanBoard_Request::TYPE_NAME,
        "checkers_msgs::srv::dds_::ScanBoard_Request_"
    );
    assert_eq!(
        PlanMove_Goal::TYPE_NAME,
        "checkers_msgs::action::dds_::PlanMove_Goal_"
    );
    assert_eq!(
        PlanMove_Feedback::ROS_TYPE,
        "checkers_msgs/action/PlanMove_Feedback"
    );
    assert_eq!(
        std_msgs::msg::Header::TYPE_NAME,
        "std_msgs::msg::dds_::Header_"
    );
    assert_eq!(Marker::ROS_TYPE, "visualization_msgs/msg/Marker");
    assert_eq!(ScanBoard::TYPE_NAME, "checkers_msgs::srv::dds_::ScanBoard_");
    assert_eq!(PlanMove::ROS_TYPE, "checkers_msgs/action/PlanMove");
}

#[test]
fn traits_name_the_parts() {
    fn names<T: Interface>() -> (&'static str, &'static str, &'static str) {
        (T::PACKAGE, T::NAME, T::TYPE_NAME)
    }
    assert_eq!(
        names::<<ScanBoard as ServiceInterface>::Response>(),
        (
            "checkers_msgs",
            "ScanBoard_Response",
            "checkers_msgs::srv::dds_::ScanBoard_Response_"
        )
    );
    assert_eq!(<ScanBoard as ServiceInterface>::NAME, "ScanBoard");
    assert_eq!(
        <PlanMove as ActionInterface>::TYPE_NAME,
        "checkers_msgs::action::dds_::PlanMove_"
    );
    assert_eq!(
        <<PlanMove as ActionInterface>::Result as Interface>::NAME,
        "PlanMove_Result"
    );
    assert_eq!(
        names::<std_msgs::msg::String>(),
        ("std_msgs", "String", "std_msgs::msg::dds_::String_")
    );
}

#[test]
fn default_values_come_from_the_files() {
    let identity = Quaternion::default();
    assert_eq!(
        (identity.x, identity.y, identity.z, identity.w),
        (0.0, 0.0, 0.0, 1.0)
    );
    assert_eq!(Marker::default().pose.orientation, identity);
    assert_eq!(FaceExpression::default().left_eye, [0; 64]);
}
