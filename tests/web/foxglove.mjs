// Foxglove's own client against the web window's `/foxglove`: what Foxglove and Lichtblick do
// when a person opens `ws://HOST:PORT/foxglove`. Every advertised channel's ros2msg schema is
// parsed and its CDR decoded by Foxglove's ROS 2 reader, as the app would.
//
//     node tests/web/foxglove.mjs ws://127.0.0.1:PORT/foxglove
//
// Prints one JSON line of what it saw; exits 1 with the reason when a check fails.
import wsProtocol from "@foxglove/ws-protocol";
import rosmsg from "@foxglove/rosmsg";
import serialization from "@foxglove/rosmsg2-serialization";
import WebSocket from "ws";

// CommonJS packages: their exports come as one object.
const { FoxgloveClient } = wsProtocol;
const { parse } = rosmsg;
const { MessageReader } = serialization;

const url = process.argv[2];
const WANT = ["/game/state", "/joint_states", "/tf", "/robot_description", "/diagnostics", "/face/expression"];
const fail = (why) => {
  console.log(`FAILED: ${why}`);
  process.exit(1);
};
setTimeout(() => fail(`not every topic arrived: ${JSON.stringify(seen)}`), 30000);

const client = new FoxgloveClient({ ws: new WebSocket(url, [FoxgloveClient.SUPPORTED_SUBPROTOCOL]) });
const channels = new Map(); // subscription id -> { channel, reader }
const seen = {};
let info = null;
client.on("serverInfo", (i) => (info = i));
client.on("error", (e) => fail(`connection: ${e.message ?? e}`));
client.on("advertise", (list) => {
  for (const c of list) {
    if (c.encoding !== "cdr" || c.schemaEncoding !== "ros2msg") fail(`${c.topic}: ${c.encoding}/${c.schemaEncoding}`);
    let reader;
    try {
      reader = new MessageReader(parse(c.schema, { ros2: true }));
    } catch (e) {
      fail(`${c.topic}: its schema does not parse: ${e.message}`);
    }
    if (WANT.includes(c.topic)) channels.set(client.subscribe(c.id), { c, reader });
  }
  const missing = WANT.filter((t) => ![...channels.values()].some((x) => x.c.topic === t));
  if (missing.length) fail(`not advertised: ${missing}`);
});
client.on("message", ({ subscriptionId, data }) => {
  const { c, reader } = channels.get(subscriptionId) ?? {};
  if (!c) fail(`a message for subscription ${subscriptionId}`);
  let m;
  try {
    m = reader.readMessage(new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  } catch (e) {
    fail(`${c.topic}: its CDR does not decode: ${e.message}`);
  }
  seen[c.topic] = summary(c.topic, m);
  if (WANT.every((t) => seen[t] !== undefined)) {
    console.log(JSON.stringify({ server: info?.name, capabilities: info?.capabilities, seen }));
    process.exit(0);
  }
});

function summary(topic, m) {
  switch (topic) {
    case "/game/state": return { game_id: m.game_id, ply: m.ply, fen: m.position.fen, legal: m.legal_moves.length };
    case "/joint_states": return { names: m.name };
    case "/tf": return { frames: m.transforms.length, cup: m.transforms.some((t) => t.child_frame_id === "suction_cup") };
    case "/robot_description": return { urdf: m.data.includes("<robot") };
    case "/diagnostics": return { names: m.status.map((s) => s.name) };
    case "/face/expression": return { eyes: m.left_eye.length };
    default: return true;
  }
}
