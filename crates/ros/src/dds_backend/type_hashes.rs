//! The RIHS01 type hash of every endpoint, announced in its USER_DATA as `typehash=…;`, as ROS 2
//! Jazzy's rmw layers do. Without it every rcl process warns once per endpoint of ours, and
//! `ros2 topic info -v` shows the hash as INVALID.
//!
//! The hashes of our interfaces are computed from the interface files at build time
//! (`checkers_msgs::TYPE_HASHES`). The endpoints ros2-client makes on its own (graph, rosout,
//! parameters, clock, the standard parts of actions) use types this project has no files of;
//! their hashes are Jazzy's, checked against an installed Jazzy by the tests.

use std::sync::Once;

/// The types of ros2-client's own endpoints, with their Jazzy hashes.
pub const BUILTIN_TYPE_HASHES: [(&str, &str); 19] = [
    (
        "action_msgs/msg/GoalStatusArray",
        "RIHS01_6c1684b00f177d37438febe6e709fc4e2b0d4248dca4854946f9ed8b30cda83e",
    ),
    (
        "action_msgs/srv/CancelGoal_Request",
        "RIHS01_3d3c84653c1f96918086887e1dcb236faec88b81a5b14fd4cf4840065bcdf8af",
    ),
    (
        "action_msgs/srv/CancelGoal_Response",
        "RIHS01_35e682cf3f510e83c70a82a4aac888496dedee56773bf9d8e5e0aa81f9e1c960",
    ),
    (
        "rcl_interfaces/msg/Log",
        "RIHS01_e28ce254ca8abc06abf92773b74602cdbf116ed34fbaf294fb9f81da9f318eac",
    ),
    (
        "rcl_interfaces/msg/ParameterEvent",
        "RIHS01_043e627780fcad87a22d225bc2a037361dba713fca6a6b9f4b869a5aa0393204",
    ),
    (
        "rcl_interfaces/srv/DescribeParameters_Request",
        "RIHS01_05dd1c2bc87dec2627105c8070d6f9725c781a4f2ab852975bf105462b82b644",
    ),
    (
        "rcl_interfaces/srv/DescribeParameters_Response",
        "RIHS01_ad6747319613c6131589e062e095b469a46cc764f7d0f12a001a49e6cd893995",
    ),
    (
        "rcl_interfaces/srv/GetParameterTypes_Request",
        "RIHS01_87d7ec5ef545d4daa289d500025d31fb2437bc8b8365ca367161c4dac4be33fd",
    ),
    (
        "rcl_interfaces/srv/GetParameterTypes_Response",
        "RIHS01_ac1335dce67c478e669434f6ac2fbff34fcd529580f272d3006785ba8b54e47f",
    ),
    (
        "rcl_interfaces/srv/GetParameters_Request",
        "RIHS01_135a9e1c3d7cebef792f6687d7ddf99949b21a0bd9a320d863a9110a3f5cf4d6",
    ),
    (
        "rcl_interfaces/srv/GetParameters_Response",
        "RIHS01_9fa773b46e39cc5d02db6224d8fd520bb9caeeffc2b27c96c1e59431baba9f2a",
    ),
    (
        "rcl_interfaces/srv/ListParameters_Request",
        "RIHS01_a1b0b5d6b967a5b8ac5bc8563c3ea678f349e312a6a4967227c5a96bc5ce38df",
    ),
    (
        "rcl_interfaces/srv/ListParameters_Response",
        "RIHS01_31b937b82de3612426be79f231e386259f97e8dc843e3f2845288b4bfa296bdd",
    ),
    (
        "rcl_interfaces/srv/SetParametersAtomically_Request",
        "RIHS01_db0bd950ed5ed867a0e90b225e44dea382d762c0762ff3e0ee842190042a59e5",
    ),
    (
        "rcl_interfaces/srv/SetParametersAtomically_Response",
        "RIHS01_31b1a38c5b0b9d893ee24da45f69638f4561c78461d82d52750f429b534502b8",
    ),
    (
        "rcl_interfaces/srv/SetParameters_Request",
        "RIHS01_130d46386b7e84ea9ecf60608a4d83cbe5e5cb7c6cc5b712b7a4e3a6c254e932",
    ),
    (
        "rcl_interfaces/srv/SetParameters_Response",
        "RIHS01_7a0e8140a0b8d98308fa81a5403a766e610af29a239caf54b7553227906fc266",
    ),
    (
        "rmw_dds_common/msg/ParticipantEntitiesInfo",
        "RIHS01_91a0593bacdcc50ea9bdcf849a938b128412cc1ea821245c663bcd26f83c295e",
    ),
    (
        "rosgraph_msgs/msg/Clock",
        "RIHS01_692f7a66e93a3c83e71765d033b60349ba68023a8c689a79e48078bcb5c58564",
    ),
];

/// The DDS type name of a ROS type: `pkg/msg/T` → `pkg::msg::dds_::T_`.
pub fn dds_type_name(ros_type: &str) -> Option<String> {
    let (package, rest) = ros_type.split_once('/')?;
    let (kind, name) = rest.split_once('/')?;
    Some(format!("{package}::{kind}::dds_::{name}_"))
}

/// The USER_DATA of an endpoint whose type has `hash`.
pub fn user_data(hash: &str) -> Vec<u8> {
    format!("typehash={hash};").into_bytes()
}

/// Makes every endpoint this process creates announce the hash of its type. Idempotent; called
/// before the first participant exists.
pub fn announce_type_hashes() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        let all = checkers_msgs::TYPE_HASHES
            .iter()
            .copied()
            .chain(BUILTIN_TYPE_HASHES);
        for (ros_type, hash) in all {
            if let Some(dds) = dds_type_name(ros_type) {
                ros2_client::dds::rustdds::discovery::set_type_user_data(&dds, user_data(hash));
            }
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dds_names_are_rmw_names() {
        assert_eq!(
            dds_type_name("checkers_msgs/action/PlanMove_SendGoal_Request").as_deref(),
            Some("checkers_msgs::action::dds_::PlanMove_SendGoal_Request_")
        );
        assert_eq!(
            dds_type_name("rmw_dds_common/msg/ParticipantEntitiesInfo").as_deref(),
            Some("rmw_dds_common::msg::dds_::ParticipantEntitiesInfo_")
        );
        assert_eq!(dds_type_name("nonsense"), None);
    }

    #[test]
    fn user_data_is_what_jazzy_writes() {
        assert_eq!(user_data("RIHS01_ab"), b"typehash=RIHS01_ab;".to_vec());
    }

    /// Where ROS 2 Jazzy is installed, the built-in hashes are the ones its rosidl wrote.
    #[test]
    fn builtin_hashes_are_jazzy_s() {
        let share = std::path::Path::new("/opt/ros/jazzy-min/share");
        if !share.join("rcl_interfaces").is_dir() {
            eprintln!("skipped: no ROS 2 Jazzy at /opt/ros/jazzy-min");
            return;
        }
        for (ros_type, hash) in BUILTIN_TYPE_HASHES {
            // A service part's hash is listed in the service's file.
            let file = ros_type
                .trim_end_matches("_Request")
                .trim_end_matches("_Response");
            let path = share.join(format!("{file}.json"));
            let text = std::fs::read_to_string(&path)
                .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
            let needle =
                format!("\"type_name\": \"{ros_type}\",\n      \"hash_string\": \"{hash}\"");
            let compact: String = text.split_whitespace().collect();
            let needle: String = needle.split_whitespace().collect();
            assert!(
                compact.contains(&needle),
                "{ros_type}: {hash} is not in {}",
                path.display()
            );
        }
    }
}
