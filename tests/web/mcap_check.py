"""A recording as the ROS tools read it: Foxglove's `mcap` reader with its ROS 2 decoder
(mcap-ros2-support, which parses each channel's ros2msg schema and decodes its CDR, as
rosbag2's MCAP storage plugin and Foxglove do).

    python3 tests/web/mcap_check.py FILE.mcap TOPIC...

Every message must decode; every TOPIC must be there. Prints one JSON line of counts.
"""

import json
import sys
from collections import Counter

from mcap.reader import make_reader
from mcap_ros2.decoder import DecoderFactory

path, want = sys.argv[1], sys.argv[2:]
counts = Counter()
with open(path, "rb") as f:
    reader = make_reader(f, decoder_factories=[DecoderFactory()])
    header = reader.get_header()
    assert header.profile == "ros2", header.profile
    events = []
    for schema, channel, message, msg in reader.iter_decoded_messages():
        assert channel.message_encoding == "cdr" and schema.encoding == "ros2msg", channel
        counts[channel.topic] += 1
        if channel.topic == "/game/events":
            events.append(msg.text)
missing = [t for t in want if counts[t] == 0]
print(json.dumps({"profile": header.profile, "counts": counts, "events": events[:8]}))
if missing:
    print(f"FAILED: no message on {missing}")
    sys.exit(1)
