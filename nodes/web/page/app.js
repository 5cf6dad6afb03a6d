// The robot's web window: one WebSocket at /ws (see the web protocol), everything drawn live.
'use strict';

const STATUS = ['idle: no game in progress', "waiting for the human's move", 'ambiguous: several moves fit the board',
  'robot thinking', 'robot moving', 'verifying the board', 'board mismatch: please put the pieces right',
  'error', 'white won', 'black won', 'draw'];
const KIND = ['info', 'new game', 'resumed', 'human moved', 'illegal move', 'ambiguous', 'nothing moved',
  'robot moved', 'capture', 'promotion', 'arm failed', 'board mismatch', 'board restored',
  'planner timeout', 'resigned', 'game over', 'hint', 'verdict', 'take-back', 'planner away'];
const VERDICT = ['none', 'brilliant', 'best', 'good', 'inaccuracy', 'mistake', 'blunder'];
const EMOTION = ['neutral', 'happy', 'sad', 'angry', 'surprise', 'fear', 'disgust'];
const DIAG = ['ok', 'warn', 'error', 'stale'];
const COLOR = ['White', 'Black'];
const SVGNS = 'http://www.w3.org/2000/svg';
const SQ = 100, MARGIN = 20;           // board geometry in SVG units (viewBox 840 x 840)

const $ = (id) => document.getElementById(id);

// Everything the page knows; reset on every hello because the server then resends it all.
const S = {
  hello: null, canPlay: false, state: null, stateStampMs: 0, stateClientMs: 0,
  occ: null, face: null, arm: null, armBounds: {}, hint: null,
  moves: new Map(), evals: [], seen: new Set(), log: [], phrases: [], diag: new Map(),
  selection: [], flipped: null, newGameSinceState: false, pendingTakeback: false,
  gameStartMs: null, turnStartMs: null, endMs: null, turnKey: '',
  reqId: 0, pending: new Map(), everConnected: false,
};

/* ---------- small helpers ---------- */

// Create an element (SVG when ns given) with attributes and optional text.
function mk(tag, attrs = {}, text = null, ns = null) {
  const e = ns ? document.createElementNS(ns, tag) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== null) e.textContent = text;
  return e;
}
const svg = (tag, attrs, text) => mk(tag, attrs, text, SVGNS);
const bit = (mask, n) => ((Number(mask) >>> (n - 1)) & 1) === 1;
const clamp01 = (x) => Math.min(1, Math.max(0, Number(x) || 0));

// ROS stamp in ms; falls back to the envelope's stamp_ns when the header is unset.
function stampMs(header, stampNs) {
  const s = header && header.stamp;
  const ms = s ? Number(s.sec) * 1000 + Number(s.nanosec) / 1e6 : 0;
  return ms > 0 ? ms : Number(stampNs || 0) / 1e6;
}

// uint8[] fields may arrive as a JSON array or (some serialisers) as a base64 string.
function bytes(v) {
  if (Array.isArray(v)) return v.map(Number);
  if (typeof v === 'string') {
    try { return Array.from(atob(v), (c) => c.charCodeAt(0)); } catch (e) { return []; }
  }
  return [];
}
const byteVal = (v) => (typeof v === 'string' ? v.charCodeAt(0) || 0 : Number(v) || 0);

function fmtDur(ms) {
  const t = Math.max(0, Math.floor(ms / 1000)), h = Math.floor(t / 3600);
  const m = Math.floor(t / 60) % 60, s = String(t % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

/* ---------- connection ---------- */

let ws = null, backoff = 1000;

function connect() {
  setConn(S.everConnected ? 'disconnected · reconnecting…' : 'connecting…', 'wait');
  const proto = location.protocol === 'https:' ? 'wss:' : 'ws:';
  ws = new WebSocket(`${proto}//${location.host}/ws${location.search}`);
  ws.onmessage = (e) => {
    let m;
    try { m = JSON.parse(e.data); } catch (err) { return; }
    try { handle(m); } catch (err) { console.error('bad message', m, err); }
  };
  ws.onclose = () => {
    setConnected(false);
    setConn('disconnected', 'bad');
    setTimeout(connect, backoff);
    backoff = Math.min(backoff * 2, 5000);    // 1 s, 2 s, 4 s, then 5 s
  };
}

function setConn(text, cls) {
  const c = $('conn');
  c.textContent = text;
  c.className = `badge conn ${cls}`;
}

function setConnected(on) {
  document.body.dataset.connected = String(on);
  for (const b of document.querySelectorAll('#controls button')) b.disabled = !on;
}

function handle(m) {
  switch (m.op) {
    case 'hello': return onHello(m);
    case 'msg': return onMsg(m.topic, m.msg || {}, m.stamp_ns);
    case 'arm': S.arm = m; return renderArm();
    case 'reply': return onReply(m);
    case 'error': return setNotice(`server: ${m.message || 'error'}`, false);
    default: return undefined;
  }
}

function onHello(h) {
  backoff = 1000;
  S.everConnected = true;
  Object.assign(S, { hello: h, moves: new Map(), evals: [], seen: new Set(), log: [], phrases: [],
    diag: new Map(), selection: [], hint: null, pending: new Map() });
  $('health').replaceChildren();
  const spectator = h.role !== 'player' || !!h.replay;
  S.canPlay = !!h.can_play && !spectator;
  document.body.dataset.role = h.role || '';
  document.body.dataset.canPlay = String(S.canPlay);
  setConnected(true);
  setConn('connected', 'good');
  const badge = $('role-badge');
  badge.textContent = h.replay ? 'replay' : (h.role || '');
  badge.hidden = !spectator;
  $('controls').hidden = spectator;
  fillLevels(h.levels || []);
  renderAll();
}

function fillLevels(levels) {
  const sel = $('new-level');
  sel.replaceChildren(mk('option', { value: '' }, '(keep)'));
  for (const l of levels) sel.append(mk('option', { value: l }, l));
}

function onMsg(topic, msg, stampNs) {
  const t = stampMs(msg.header, stampNs);
  // The server may resend a message it already sent (latest-per-topic + history): drop repeats.
  const key = `${topic}|${t}|${msg.kind ?? ''}|${msg.ply ?? ''}|${msg.text ?? ''}`;
  const dedupe = topic === '/game/events' || topic === '/planner/evaluation';
  if (dedupe && t > 0) {
    if (S.seen.has(key)) return;
    S.seen.add(key);
  }
  switch (topic) {
    case '/game/state': return onState(msg, t);
    case '/game/events': return onEvent(msg, t);
    case '/board/occupancy': S.occ = msg; return renderBoard();
    case '/planner/evaluation': S.evals.push({ p: clamp01(msg.win_probability), t }); return renderWinProb();
    case '/face/expression': S.face = msg; return renderFace();
    case '/voice/say': return onSay(msg.data);
    case '/diagnostics': return onDiag(msg.status || []);
    default: return undefined;
  }
}

/* ---------- game state, moves, events ---------- */

// Forget the old game's moves and evaluations: everything stamped before `t` (all when unstamped).
function clearGame(t) {
  const th = t > 0 ? t : Infinity;
  for (const [ply, mv] of S.moves) if (mv.t < th) S.moves.delete(ply);
  S.evals = S.evals.filter((e) => e.t >= th);
  S.hint = null;
}

function onState(st, t) {
  const prev = S.state;
  const now = Date.now();
  if (!prev) {
    S.gameStartMs = now;
    $('new-color').value = String(st.robot_color ?? 1);
  } else if (prev.game_id !== st.game_id) {
    // A new-game event may already have cleared, and moves of the new game may follow it.
    if (!S.newGameSinceState) clearGame(t);
    S.gameStartMs = now;
  }
  S.newGameSinceState = false;
  if (S.pendingTakeback) { truncateMoves(st.ply); S.pendingTakeback = false; }
  const turnKey = `${st.game_id}/${st.ply}/${st.position?.side_to_move}`;
  if (turnKey !== S.turnKey) { S.turnKey = turnKey; S.turnStartMs = now; S.selection = []; }
  if (prev && (prev.ply !== st.ply || prev.game_id !== st.game_id)) S.hint = null;
  if (st.status >= 8) S.endMs = S.endMs ?? now; else S.endMs = null;
  if (st.status !== 1) S.selection = [];
  Object.assign(S, { state: st, stateStampMs: t, stateClientMs: now });
  renderAll();
}

function truncateMoves(ply) {
  for (const k of [...S.moves.keys()]) if (k > ply) S.moves.delete(k);
}

function onEvent(ev, t) {
  const kind = Number(ev.kind);
  const mv = ev.game_move || {};
  // The squares the arbiter found wrong (an illegal move, a board that does not match) stay
  // outlined until the board is right again or play goes on.
  if (kind === 4 || kind === 11) S.wrong = bytes(ev.wrong_squares).map(Number);
  else if ([1, 3, 7, 12, 18].includes(kind)) S.wrong = [];
  if (kind === 1) {
    clearGame(t);
    S.newGameSinceState = true;
    noteGameStart(t);
  } else if ((kind === 3 || kind === 7) && mv.text) {
    const ply = Number(ev.ply) || Math.max(0, ...S.moves.keys()) + 1;
    S.moves.set(ply, { text: mv.text, t });
  } else if (kind === 18) {
    truncateMoves(Number(ev.ply) || 0);
    S.pendingTakeback = true;           // the state that follows has the authoritative ply
  } else if (kind === 16 && mv.from_square) {
    S.hint = mv;
  }
  S.log.unshift(ev);
  S.log.length = Math.min(S.log.length, 30);
  renderMoves();
  renderLog();
  renderBoard();
}

// A new-game event replayed on connect is older than the state we hold: back-date the game
// clock by the difference of the two ROS stamps (robot clocks and ours need not agree).
function noteGameStart(t) {
  const now = Date.now();
  const back = S.stateStampMs - t;
  S.gameStartMs = (t > 0 && S.state && back > 0 && back < 864e5) ? S.stateClientMs - back : now;
  S.endMs = null;
}

function onSay(text) {
  if (!text) return;
  S.phrases.unshift(String(text));
  S.phrases.length = Math.min(S.phrases.length, 6);
  renderSpeech();
}

function onDiag(list) {
  for (const st of list) if (st && st.name) S.diag.set(st.name, st);
  renderHealth();
  renderArmActivity();
}

/* ---------- requests ---------- */

function request(obj, label) {
  if (!ws || ws.readyState !== WebSocket.OPEN) return setNotice(`${label}: not connected`, false);
  const id = ++S.reqId;
  S.pending.set(id, label);
  ws.send(JSON.stringify({ ...obj, id }));
  return setNotice(`${label}…`, null);
}

function onReply(r) {
  const label = S.pending.get(r.id);
  S.pending.delete(r.id);
  const text = r.ok ? (r.message || 'ok') : (r.message || 'failed');
  setNotice(label ? `${label}: ${text}` : text, !!r.ok);
}

// ok: true / false, or null while a request is pending (then data-ok is absent).
function setNotice(text, ok) {
  const n = $('notice');
  n.textContent = text;
  if (ok === null) delete n.dataset.ok; else n.dataset.ok = String(ok);
  n.className = `notice ${ok === false ? 'error' : ok ? 'ok' : 'pending'}`;
}

/* ---------- playing by clicking ---------- */

const humanColor = () => (S.state ? 1 - Number(S.state.robot_color) : 0);
const fullPath = (m) => [Number(m.from_square), ...bytes(m.path)];
const startsWith = (a, p) => p.length <= a.length && p.every((x, i) => a[i] === x);
const sameSeq = (a, b) => a.length === b.length && startsWith(a, b);

function canMoveNow() {
  const st = S.state;
  return !!(st && S.canPlay && Number(st.status) === 1 && st.position
    && Number(st.position.side_to_move) === humanColor() && (st.legal_moves || []).length);
}

// Legal moves still consistent with the squares clicked so far.
const remaining = () => (S.state.legal_moves || []).filter((m) => startsWith(fullPath(m), S.selection));

function onSquareClick(n) {
  if (!canMoveNow()) { S.selection = []; return; }
  if (S.selection.length) {
    const next = [...S.selection, n];
    const cands = remaining();
    const exact = cands.find((m) => sameSeq(fullPath(m), next));
    const byTo = cands.filter((m) => Number(m.to_square) === n);
    if (exact) return sendMove(exact);
    if (byTo.length === 1) return sendMove(byTo[0]);
    if (cands.some((m) => startsWith(fullPath(m), next))) { S.selection = next; return renderBoard(); }
    if (byTo.length > 1) return setNotice('several captures end there: click the squares along the path', false);
  }
  const again = S.selection.length === 1 && S.selection[0] === n;
  const movable = S.state.legal_moves.some((m) => Number(m.from_square) === n);
  S.selection = movable && !again ? [n] : [];
  return renderBoard();
}

function sendMove(m) {
  S.selection = [];
  renderBoard();
  request({ op: 'move', text: m.text }, `move ${m.text}`);
}

/* ---------- board ---------- */

// Top-left corner of square n in SVG units; the human's side is drawn at the bottom.
function squareXY(n) {
  let r = (n - 1) >> 2, c = r % 2 === 0 ? 2 * ((n - 1) & 3) + 1 : 2 * ((n - 1) & 3);
  if (S.flipped) { r = 7 - r; c = 7 - c; }
  return { x: MARGIN + c * SQ, y: MARGIN + r * SQ };
}

function buildBoard() {
  const b = $('board');
  b.replaceChildren(svg('rect', { class: 'light', x: MARGIN, y: MARGIN, width: 8 * SQ, height: 8 * SQ }));
  for (let i = 0; i < 8; i++) {
    const file = 'abcdefgh'[S.flipped ? 7 - i : i], rank = S.flipped ? i + 1 : 8 - i;
    b.append(svg('text', { class: 'coord', x: MARGIN + i * SQ + SQ / 2, y: 8 * SQ + MARGIN + 16 }, file));
    b.append(svg('text', { class: 'coord', x: MARGIN / 2, y: MARGIN + i * SQ + SQ / 2 + 5 }, String(rank)));
  }
  for (let n = 1; n <= 32; n++) {
    const { x, y } = squareXY(n);
    b.append(svg('rect', { class: 'sq', 'data-square': n, x, y, width: SQ, height: SQ }));
    b.append(svg('text', { class: 'num', x: x + 6, y: y + 20 }, String(n)));
  }
  b.append(svg('g', { id: 'marks' }), svg('g', { id: 'pieces' }));
}

function renderBoard() {
  const st = S.state, pos = (st && st.position) || {};
  const flipped = humanColor() === 1;
  if (flipped !== S.flipped) { S.flipped = flipped; buildBoard(); }
  const b = $('board');
  b.dataset.ply = String(st ? st.ply : 0);
  b.dataset.status = String(st ? st.status : 0);
  b.dataset.fen = pos.fen || '';

  const cls = squareClasses(st);
  for (const r of b.querySelectorAll('rect[data-square]')) {
    r.setAttribute('class', ['sq', ...(cls.get(Number(r.dataset.square)) || [])].join(' '));
  }
  renderMarks();
  renderPieces(pos);
}

// Which highlight classes each square gets: last move, hint, selection, targets, movable.
function squareClasses(st) {
  const cls = new Map();
  const add = (n, c) => { if (n) cls.set(n, [...(cls.get(n) || []), c]); };
  if (st && st.last_move && Number(st.last_move.from_square)) fullPath(st.last_move).forEach((n) => add(n, 'last'));
  if (S.hint) fullPath(S.hint).forEach((n) => add(n, 'hint'));
  if (canMoveNow()) {
    if (S.selection.length) {
      S.selection.forEach((n) => add(n, 'sel'));
      for (const m of remaining()) {
        add(fullPath(m)[S.selection.length], 'target');
        add(Number(m.to_square), 'target');
      }
    } else {
      new Set(st.legal_moves.map((m) => Number(m.from_square))).forEach((n) => add(n, 'movable'));
    }
  }
  return cls;
}

// Sensor dots (the last reading, taken when confirm was pressed), and red outlines on the
// squares the arbiter found wrong.
function renderMarks() {
  const g = $('marks');
  g.replaceChildren();
  if (!S.occ && !(S.wrong || []).length) return;
  const occ = S.occ ? S.occ.occupied : 0;
  for (let n = 1; n <= 32; n++) {
    const { x, y } = squareXY(n);
    if (bit(occ, n)) g.append(svg('circle', { class: 'sensor', cx: x + SQ - 12, cy: y + SQ - 12, r: 7 }));
  }
  for (const n of S.wrong || []) {
    if (n < 1 || n > 32) continue;
    const { x, y } = squareXY(n);
    g.append(svg('rect', { class: 'mismatch', 'data-mismatch': n, x: x + 4, y: y + 4, width: SQ - 8, height: SQ - 8 }));
  }
}

function renderPieces(pos) {
  const g = $('pieces');
  g.replaceChildren();
  for (let n = 1; n <= 32; n++) {
    const white = bit(pos.white, n), black = bit(pos.black, n);
    if (!white && !black) continue;
    const king = bit(pos.kings, n);
    const { x, y } = squareXY(n);
    const cx = x + SQ / 2, cy = y + SQ / 2;
    const p = svg('g', { class: `piece ${white ? 'white' : 'black'}${king ? ' king' : ''}`, 'data-piece': n });
    p.append(svg('circle', { class: 'body', cx, cy, r: 38 }), svg('circle', { class: 'rim', cx, cy, r: 27 }));
    if (king) {
      p.append(svg('circle', { class: 'crown-ring', cx, cy, r: 20 }));
      p.append(svg('path', { class: 'crown',
        d: `M${cx - 15} ${cy + 9}L${cx - 17} ${cy - 9}L${cx - 7} ${cy - 1}L${cx} ${cy - 13}L${cx + 7} ${cy - 1}L${cx + 17} ${cy - 9}L${cx + 15} ${cy + 9}Z` }));
    }
    g.append(p);
  }
}

/* ---------- text panels ---------- */

function renderInfo() {
  const st = S.state;
  if (!st) return;
  const status = Number(st.status), over = status >= 8;
  const side = Number(st.position?.side_to_move), human = humanColor();
  $('status').textContent = STATUS[status] || `status ${status}`;
  $('turn').textContent = over ? '—' : `${COLOR[side] || '?'} (${side === human ? 'human' : 'robot'})`;
  $('level').textContent = st.level || '—';
  $('ply').textContent = String(st.ply);
  $('result').textContent = over ? `${st.result || ''} ${st.result_reason || ''}`.trim() : '';
  const bits = [];
  if (status === 3) {
    bits.push(`depth ${st.search_depth}`, `${st.search_nodes} nodes`, `${Number(st.search_elapsed_s || 0).toFixed(1)} s`);
    if (st.best_move_text) bits.push(`best ${st.best_move_text}`);
  }
  if (status === 2 && (st.candidates || []).length) bits.push(`candidates: ${st.candidates.map((m) => m.text).join(', ')}`);
  if (st.message) bits.push(st.message);
  $('search').textContent = bits.join(' · ');
  renderClock();
}

function renderClock() {
  if (!S.state || S.gameStartMs === null) { $('clock').textContent = '—'; return; }
  const now = S.endMs ?? Date.now();
  const turn = S.endMs ? '' : ` · turn ${fmtDur(now - S.turnStartMs)}`;
  $('clock').textContent = `game ${fmtDur(now - S.gameStartMs)}${turn}`;
}

// One <li> per ply; CSS numbers the pairs. A ply we never heard of shows as "…".
function renderMoves() {
  const ol = $('moves');
  const last = Math.max(0, ...S.moves.keys());
  const items = [];
  for (let ply = 1; ply <= last; ply++) {
    const mv = S.moves.get(ply);
    items.push(mk('li', { class: ply % 2 ? 'w' : 'b' }, mv ? mv.text : '…'));
  }
  ol.replaceChildren(...items);
  ol.scrollTop = ol.scrollHeight;
}

function renderLog() {
  const items = S.log.map((ev) => {
    const kind = Number(ev.kind), li = mk('li', { class: `k${kind}` });
    li.append(mk('span', { class: 'kind' }, KIND[kind] || `kind ${kind}`), ' ');
    if (kind === 17) {
      const v = Number(ev.verdict);
      li.append(mk('span', { class: `verdict v${v}` }, VERDICT[v] || `verdict ${v}`), ' ');
    }
    li.append(mk('span', {}, ev.text || ev.game_move?.text || ''));
    if (kind === 17 && ev.better_move && Number(ev.better_move.from_square)) {
      li.append(mk('span', { class: 'muted' }, ` (better ${ev.better_move.text}, −${Math.round(clamp01(ev.loss) * 100)}%)`));
    }
    return li;
  });
  $('log').replaceChildren(...items);
}

/* ---------- face ---------- */

function buildEyes() {
  for (const id of ['left-eye', 'right-eye']) {
    const e = $(id);
    for (let i = 0; i < 64; i++) e.append(mk('div', { class: 'led' }));
  }
}

function renderFace() {
  const f = S.face;
  if (!f) return;
  for (const [id, field] of [['left-eye', f.left_eye], ['right-eye', f.right_eye]]) {
    const on = bytes(field);
    $(id).querySelectorAll('.led').forEach((c, i) => c.classList.toggle('on', !!on[i]));
  }
  const emo = Number(f.emotion);
  $('emotion').textContent = EMOTION[emo] || `emotion ${emo}`;
  $('intensity').textContent = `${Math.round(clamp01(f.intensity) * 100)}%`;
  const deg = (v) => `${Math.round(Number(v) || 0)}°`;
  $('pose').textContent = `brows L ${deg(f.left_brow_deg)} R ${deg(f.right_brow_deg)} · neck pan ${deg(f.neck_pan_deg)}`
    + ` tilt ${deg(f.neck_tilt_deg)} · looks at ${Number(f.gaze) === 1 ? 'player' : 'board'}`;
}

function renderSpeech() {
  $('speech').textContent = S.phrases[0] || '';
  $('phrases').replaceChildren(...S.phrases.slice(1).map((p) => mk('li', {}, p)));
}

/* ---------- win probability ---------- */

function renderWinProb() {
  const n = S.evals.length;
  const pts = S.evals.map((e, i) => {
    const x = 30 + (n > 1 ? (360 * i) / (n - 1) : 0);
    return `${x.toFixed(1)},${(10 + 140 * (1 - e.p)).toFixed(1)}`;
  });
  $('winprob-line').setAttribute('points', pts.join(' '));
  // A dot per evaluation: the first one shows before there is a line to draw.
  const dots = $('winprob-dots');
  dots.replaceChildren(...pts.map((p) => {
    const [cx, cy] = p.split(',');
    return svg('circle', { cx, cy, r: 3 });
  }));
  $('winprob').dataset.count = String(n);
  $('winprob-now').textContent = n ? `${Math.round(S.evals[n - 1].p * 100)}%` : '';
}

/* ---------- arm ---------- */

function renderArm() {
  const a = S.arm;
  if (!a) return;
  // Top view: x (forward) points up the screen, y (left) to the left. Side view: x right, z up.
  drawArmView('arm-top', a, (p) => [-p[1], -p[0]]);
  drawArmView('arm-side', a, (p) => [p[0], -(p[2] || 0)]);
}

function drawArmView(id, a, proj) {
  const pts = (a.points || []).map(proj);
  const board = (a.board || []).map((c) => proj([c[0], c[1], 0]));
  const head = Array.isArray(a.head) ? proj(a.head) : null;
  // Bounds only grow, so the drawing does not rescale and jump as the arm moves.
  const b = S.armBounds[id] = grow(S.armBounds[id], [...pts, ...board, ...(head ? [head] : [])]);
  const map = fitter(b, 200, 200, 14);
  const str = (list) => list.map((p) => map(p).map((v) => v.toFixed(1)).join(',')).join(' ');
  const out = [];
  if (board.length) out.push(svg('polygon', { class: 'arm-board', points: str(board) }));
  const line = svg('polyline', { class: 'arm-line', points: str(pts) });
  line.dataset.points = JSON.stringify(a.points || []);
  out.push(line);
  pts.forEach((p, i) => {
    const [cx, cy] = map(p);
    out.push(svg('circle', { class: i === pts.length - 1 ? 'arm-tip' : 'arm-joint', cx, cy, r: i ? 3.5 : 5 }));
  });
  if (head) {
    const [hx, hy] = map(head);
    out.push(svg('rect', { class: 'arm-head', x: hx - 6, y: hy - 6, width: 12, height: 12, rx: 3 }));
  }
  $(id).replaceChildren(...out);
}

function grow(b, pts) {
  const r = b ? { ...b } : { u0: Infinity, u1: -Infinity, v0: Infinity, v1: -Infinity };
  for (const [u, v] of pts) {
    if (!Number.isFinite(u) || !Number.isFinite(v)) continue;
    r.u0 = Math.min(r.u0, u); r.u1 = Math.max(r.u1, u);
    r.v0 = Math.min(r.v0, v); r.v1 = Math.max(r.v1, v);
  }
  return r;
}

// Map (u, v) metres into a w x h box, same scale on both axes, centred.
function fitter(b, w, h, pad) {
  if (!Number.isFinite(b.u0)) return () => [w / 2, h / 2];
  const du = Math.max(b.u1 - b.u0, 0.05), dv = Math.max(b.v1 - b.v0, 0.05);
  const k = Math.min((w - 2 * pad) / du, (h - 2 * pad) / dv);
  const cu = (b.u0 + b.u1) / 2, cv = (b.v0 + b.v1) / 2;
  return ([u, v]) => [w / 2 + k * (u - cu), h / 2 + k * (v - cv)];
}

function renderArmActivity() {
  let activity = null;
  for (const [name, st] of S.diag) {
    if (!name.replace(/^\//, '').toLowerCase().startsWith('arm')) continue;
    const kv = (st.values || []).find((v) => v.key === 'activity');
    if (kv) { activity = kv.value; break; }
  }
  if (activity === null) activity = S.state && Number(S.state.status) === 4 ? 'moving' : 'idle';
  $('arm-activity').textContent = activity;
}

/* ---------- health ---------- */

// Rows are updated in place so an opened <details> stays open across the 1 Hz updates.
function renderHealth() {
  const box = $('health');
  const names = [...S.diag.keys()].sort();
  for (const name of names) {
    const st = S.diag.get(name);
    let row = [...box.children].find((r) => r.dataset.diagName === name);
    if (!row) row = newHealthRow(name);
    const lvl = DIAG[byteVal(st.level)] || 'stale';
    row.className = `diag ${lvl}`;
    row.querySelector('.lvl').textContent = lvl.toUpperCase();
    row.querySelector('.msg').textContent = st.message || '';
    const vals = st.values || [];
    row.querySelector('summary').textContent = `${vals.length} values`;
    row.querySelector('ul').replaceChildren(...vals.map((v) => mk('li', {}, `${v.key}=${v.value}`)));
    box.append(row);            // re-append in sorted order (moves, does not copy)
  }
}

function newHealthRow(name) {
  const row = mk('div', { 'data-diag-name': name });
  const det = mk('details');
  det.append(mk('summary'), mk('ul'));
  row.append(mk('span', { class: 'lvl' }), mk('b', { class: 'name' }, name), mk('span', { class: 'msg' }), det);
  return row;
}

/* ---------- wiring ---------- */

function renderAll() {
  renderBoard();
  renderInfo();
  renderMoves();
  renderLog();
  renderFace();
  renderSpeech();
  renderWinProb();
  renderArm();
  renderHealth();
  renderArmActivity();
}

function wire() {
  $('board').addEventListener('click', (e) => {
    const sq = e.target.closest('[data-square]');
    if (sq) onSquareClick(Number(sq.dataset.square));
    else if (S.selection.length) { S.selection = []; renderBoard(); }
  });
  // A click anywhere off the board cancels a half-made move.
  document.addEventListener('click', (e) => {
    if (S.selection.length && !e.target.closest('#board')) { S.selection = []; renderBoard(); }
  });
  $('btn-hint').onclick = () => request({ op: 'hint' }, 'hint');
  $('btn-takeback').onclick = () => request({ op: 'takeback' }, 'take back');
  $('btn-resign').onclick = () => request({ op: 'resign' }, 'resign');
  $('btn-new').onclick = () => request({ op: 'new_game', robot_color: Number($('new-color').value),
    level: $('new-level').value }, 'new game');
  setInterval(renderClock, 1000);
}

buildEyes();
wire();
setConnected(false);
renderAll();
connect();
