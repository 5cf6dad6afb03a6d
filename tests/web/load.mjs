// A bounded local load test of the web window (docs/web.md, "Figures"): N spectators on /ws
// for S seconds while a game is played; prints how late each /game/state reached a page (its
// header stamp, the arbiter's clock, against this machine's clock: the same machine) and the
// web node's CPU and memory from /proc.
//
//     node tests/web/load.mjs ws://127.0.0.1:PORT/ws WEB_NODE_PID [SPECTATORS=50] [SECONDS=60]
import { readFileSync } from "node:fs";
import WebSocket from "ws";

const [url, pid, n = "50", secs = "60"] = process.argv.slice(2);
const ticks = 100; // USER_HZ
const cpu = () => {
  const f = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return (Number(f[11]) + Number(f[12])) / ticks; // utime + stime, seconds
};
const rssMb = () => {
  const m = readFileSync(`/proc/${pid}/status`, "utf8").match(/VmRSS:\s+(\d+) kB/);
  return m ? Number(m[1]) / 1024 : NaN;
};

const lateMs = [];
let messages = 0;
let bytes = 0;
const clients = [];
for (let i = 0; i < Number(n); i++) {
  const ws = new WebSocket(url);
  ws.on("message", (data) => {
    messages += 1;
    bytes += data.length;
    const m = JSON.parse(data);
    if (m.op === "msg" && m.topic === "/game/state" && i === 0) {
      const s = m.msg.header.stamp;
      const late = Date.now() - (s.sec * 1000 + s.nanosec / 1e6);
      if (late < 5000) lateMs.push(late); // the snapshot's old state is not a live one
    }
  });
  clients.push(ws);
}
const cpu0 = cpu();
const t0 = Date.now();
let peakRss = rssMb();
const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb())), 500);
setTimeout(() => {
  clearInterval(sampler);
  const wall = (Date.now() - t0) / 1000;
  const used = cpu() - cpu0;
  lateMs.sort((a, b) => a - b);
  const q = (p) => (lateMs.length ? lateMs[Math.min(lateMs.length - 1, Math.floor(p * lateMs.length))].toFixed(1) : "none");
  console.log(JSON.stringify({
    spectators: Number(n),
    seconds: wall,
    states: lateMs.length,
    state_late_ms: { median: q(0.5), p90: q(0.9), worst: q(1) },
    web_node_cpu_percent: ((100 * used) / wall).toFixed(1),
    web_node_peak_rss_mb: peakRss.toFixed(1),
    messages_per_s_all_pages: (messages / wall).toFixed(0),
    kbytes_per_s_all_pages: (bytes / 1024 / wall).toFixed(0),
  }));
  clients.forEach((c) => c.terminate());
  process.exit(0);
}, Number(secs) * 1000);
