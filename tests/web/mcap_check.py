"""A recording as the ROS tools read it: Foxglove's `mcap` reader with its ROS 2 decoder
(mcap-ros2-support, which parses each channel's ros2msg schema and decodes its CDR, as
rosbag2's MCAP storage plugin and Foxglove do).

    python3 tests/web/mcap_check.py FILE.mcap TOPIC...
    python3 tests/web/mcap_check.py --cut FILE.mcap

Every message must decode; every TOPIC must be there. Prints one JSON line of counts. With
--cut, FILE is cut in the middle (as a crash would leave it) into FILE.cut.mcap, which must
still give its first messages, decoded, to a reader that streams it.
"""

import json
import sys
from collections import Counter

from mcap.reader import make_reader
from mcap.records import Channel, Message, Schema
from mcap.stream_reader import StreamReader
from mcap_ros2.decoder import DecoderFactory

if sys.argv[1] == "--cut":
    whole = open(sys.argv[2], "rb").read()
    cut = sys.argv[2].replace(".mcap", ".cut.mcap")
    with open(cut, "wb") as f:
        f.write(whole[: len(whole) // 2])
    # Streamed record by record, as a reader of a file without its summary must; the cut may
    # fall in any record, and the reader stops there.
    schemas, channels, messages = {}, {}, []
    try:
        with open(cut, "rb") as f:
            for r in StreamReader(f, skip_magic=False).records:
                if isinstance(r, Schema):
                    schemas[r.id] = r
                elif isinstance(r, Channel):
                    channels[r.id] = r
                elif isinstance(r, Message):
                    messages.append(r)
    except Exception as e:  # noqa: BLE001 (whatever record the cut fell in)
        print(f"the cut file ends where it was cut ({type(e).__name__})")
    # Every message before the cut must decode.
    factory, decoders, decoded = DecoderFactory(), {}, 0
    for m in messages:
        c = channels[m.channel_id]
        if c.id not in decoders:
            decoders[c.id] = factory.decoder_for(c.message_encoding, schemas[c.schema_id])
        decoders[c.id](m.data)
        decoded += 1
    print(json.dumps({"cut_bytes": len(whole) // 2, "decoded": decoded}))
    if decoded == 0:
        print("FAILED: nothing could be read before the cut")
        sys.exit(1)
    sys.exit(0)

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
