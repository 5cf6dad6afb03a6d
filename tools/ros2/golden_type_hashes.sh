#!/bin/bash
# Makes tools/ros2/checkers_msgs_type_hashes.json again with rosidl itself: builds msgs/ as the
# ROS 2 package checkers_msgs in a scratch colcon workspace and collects the type hashes rosidl
# wrote into share/checkers_msgs/*/*.json. Needs a sourced ROS 2 Jazzy with colcon.
#   source /opt/ros/jazzy/setup.bash && tools/ros2/golden_type_hashes.sh
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
ws=${WS:-$(mktemp -d)}
mkdir -p "$ws/src"
rm -rf "$ws/src/checkers_msgs"
cp -r "$root/msgs" "$ws/src/checkers_msgs"
rm -rf "$ws/src/checkers_msgs/target"
(cd "$ws" && colcon build --packages-select checkers_msgs >/dev/null)
python3 - "$ws/install/checkers_msgs/share/checkers_msgs" "$root/tools/ros2/checkers_msgs_type_hashes.json" <<'PY'
import glob, json, sys
share, out = sys.argv[1], sys.argv[2]
hashes = {}
for f in glob.glob(share + "/*/*.json"):
    for h in json.load(open(f))["type_hashes"]:
        if h["type_name"].startswith("checkers_msgs/"):
            hashes[h["type_name"]] = h["hash_string"]
json.dump(dict(sorted(hashes.items())), open(out, "w"), indent=1)
open(out, "a").write("\n")
print(f"{len(hashes)} hashes -> {out}")
PY
