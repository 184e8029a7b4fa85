/* levelgen snakes-and-ladders player: one board, one to six tokens taking turns, a die, and
 * the expected rolls left for each token from the table the page carries (the exact
 * expectations of levelgen.ladders.exact, as floats).  No network access.
 *
 * The level and settings come from the JSON in <script id="levelgen-level">: size, squares,
 * faces, overshoot ("exact" | "bounce" | "pass"), ladders and snakes as [start, end] pairs,
 * expected[s] (null where the game may never end), names, the cell and margin in SVG units,
 * and snake_shapes (each snake's body as SVG paths of cubic curves, its head and eyes).  The moves are those of
 * levelgen.ladders.rules.land and the jumps; a token on a jump's start moves on to its end in
 * the same roll.  The die uses crypto.getRandomValues (rejection sampling keeps the faces
 * equally likely); window.laddersPlayer.seed(n), or "#seed=n" in the address, switches it to a
 * seeded generator (mulberry32) so that a game can be played again.
 * The page states its progress on <body>: data-status (playing | won), data-turn (the token
 * to roll, from 0), data-positions (comma separated) and data-rolls (every roll, in order).
 */
(function () {
  "use strict";
  const SVGNS = "http://www.w3.org/2000/svg";
  const cfg = JSON.parse(document.getElementById("levelgen-level").textContent);
  const W = cfg.size[0], H = cfg.size[1], N = cfg.squares, F = cfg.faces, CS = cfg.cell, M = cfg.margin;
  const COLORS = ["#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9"];
  const jumps = new Map();
  for (const [a, b] of cfg.ladders) jumps.set(a, b);
  for (const [a, b] of cfg.snakes) jumps.set(a, b);
  const $ = (id) => document.getElementById(id);
  const board = $("board"), message = $("message");
  let players = 2, positions = [], turn = 0, rolls = [], won = -1, seeded = null;

  function mulberry32(a) {
    return function () {
      a |= 0; a = (a + 0x6D2B79F5) | 0;
      let t = Math.imul(a ^ (a >>> 15), 1 | a);
      t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
      return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
    };
  }
  function face() {
    if (seeded) return 1 + Math.floor(seeded() * F);
    const limit = Math.floor(4294967296 / F) * F, buf = new Uint32Array(1);
    for (;;) {
      crypto.getRandomValues(buf);
      if (buf[0] < limit) return 1 + (buf[0] % F);
    }
  }
  function land(square, roll) {
    const t = square + roll;
    if (t <= N) return t;
    if (cfg.overshoot === "exact") return square;
    if (cfg.overshoot === "bounce") return 2 * N - t;
    return N;
  }
  function move(square, roll) {
    const t = land(square, roll);
    return jumps.has(t) ? jumps.get(t) : t;
  }
  function cell(square) {
    const row = Math.floor((square - 1) / W), off = (square - 1) % W;
    const x = row % 2 === 0 ? off : W - 1 - off, y = H - 1 - row;
    return [M + x * CS, M + y * CS];
  }
  function centre(square) {
    if (square === 0) return [M - 2 + CS / 4, M + H * CS + CS / 3];
    const [x, y] = cell(square);
    return [x + CS / 2, y + CS / 2];
  }
  function el(name, attrs, parent) {
    const e = document.createElementNS(SVGNS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function drawBoard() {
    while (board.firstChild) board.removeChild(board.firstChild);
    board.setAttribute("viewBox", `0 0 ${2 * M + W * CS} ${2 * M + H * CS + CS / 2 + 6}`);
    for (let s = 1; s <= N; s++) {
      const [x, y] = cell(s);
      const shade = ((x - M) / CS + (y - M) / CS) % 2 ? "#F2F2F2" : "#FFFFFF";
      el("rect", { x, y, width: CS, height: CS, fill: s === N ? "#F0E442" : shade,
        stroke: "#BBB", class: "square", "data-square": s }, board);
      el("text", { x: x + 3, y: y + 12, "font-size": 11, fill: "#222" }, board).textContent = s;
    }
    for (const [a, b] of cfg.ladders) {
      const [x0, y0] = centre(a), [x1, y1] = centre(b), len = Math.hypot(x1 - x0, y1 - y0) || 1;
      const ox = -(y1 - y0) / len * CS / 6, oy = (x1 - x0) / len * CS / 6;
      const g = el("g", { class: "ladder", stroke: "#009E73", "stroke-width": 3 }, board);
      el("line", { x1: x0 + ox, y1: y0 + oy, x2: x1 + ox, y2: y1 + oy }, g);
      el("line", { x1: x0 - ox, y1: y0 - oy, x2: x1 - ox, y2: y1 - oy }, g);
      const rungs = Math.max(2, Math.floor(len / (CS / 2)));
      for (let i = 1; i < rungs; i++) {
        const fx = x0 + (x1 - x0) * i / rungs, fy = y0 + (y1 - y0) * i / rungs;
        el("line", { x1: fx + ox, y1: fy + oy, x2: fx - ox, y2: fy - oy }, g);
      }
    }
    for (const shape of cfg.snake_shapes) {
      // The shapes come from levelgen.ladders.shapes: a gentle S of cubic curves, narrowing
      // to the tail, with a head and eyes (the picture draws the same).
      const g = el("g", { class: "snake", fill: "none", "stroke-linecap": "round" }, board);
      for (const [d, w] of shape.pieces) el("path", { d, stroke: "#7A3500", "stroke-width": w + 2 }, g);
      for (const [d, w] of shape.pieces) el("path", { d, stroke: "#D55E00", "stroke-width": w }, g);
      const [hx, hy, hr] = shape.head;
      el("circle", { cx: hx, cy: hy, r: hr + 1, fill: "#7A3500" }, g);
      el("circle", { cx: hx, cy: hy, r: hr, fill: "#D55E00" }, g);
      for (const [ex, ey] of shape.eyes) {
        el("circle", { cx: ex, cy: ey, r: shape.eye + 1, fill: "#FFFFFF" }, g);
        el("circle", { cx: ex, cy: ey, r: Math.max(1, shape.eye - 1), fill: "#222" }, g);
      }
    }
    positions.forEach((square, i) => {
      const [x, y] = centre(square), dx = (i % 3) * 9 - 9, dy = Math.floor(i / 3) * 9 - 4;
      el("circle", { cx: x + dx, cy: y + dy, r: 7, fill: COLORS[i], stroke: "#000",
        "stroke-width": i === turn && won < 0 ? 3 : 1, class: "token", "data-token": i }, board);
    });
  }
  function expectedText(square) {
    const e = cfg.expected[square];
    return e === null || e === undefined ? "never certain" : e.toFixed(2);
  }
  function update() {
    drawBoard();
    const list = $("tokens");
    list.textContent = "";
    positions.forEach((square, i) => {
      const li = document.createElement("li");
      li.style.color = COLORS[i];
      li.className = i === turn && won < 0 ? "now" : "";
      li.textContent = `${cfg.names[i]}: square ${square}, expected rolls left ${expectedText(square)}`;
      list.appendChild(li);
    });
    document.body.dataset.status = won >= 0 ? "won" : "playing";
    document.body.dataset.turn = String(turn);
    document.body.dataset.positions = positions.join(",");
    document.body.dataset.rolls = rolls.join(",");
    $("roll").disabled = won >= 0;
    $("played").textContent = String(rolls.length);
  }
  function say(text, kind) { message.textContent = text; message.className = kind || ""; }
  function restart() {
    players = Math.max(1, Math.min(6, parseInt($("players").value, 10) || 1));
    positions = Array(players).fill(0); turn = 0; rolls = []; won = -1;
    $("die").textContent = "-";
    say(`${cfg.names[0]} to roll.`);
    update();
  }
  function roll() {
    if (won >= 0) return;
    const r = face(), from = positions[turn], landed = land(from, r), to = move(from, r);
    rolls.push(r);
    positions[turn] = to;
    $("die").textContent = String(r);
    let note = "";
    if (landed !== to) note = to > landed ? ` and climbs a ladder to ${to}` : ` and slides down a snake to ${to}`;
    else if (landed === from) note = ", too far: stays";
    const who = cfg.names[turn];
    if (to === N) {
      won = turn;
      say(`${who} rolls ${r}${note} and reaches ${N}: ${who} wins after ${rolls.length} rolls!`, "won");
    } else {
      turn = (turn + 1) % players;
      say(`${who} rolls ${r}, lands on ${landed}${note}. ${cfg.names[turn]} to roll.`);
    }
    update();
  }
  $("roll").addEventListener("click", roll);
  $("restart").addEventListener("click", restart);
  $("players").addEventListener("change", restart);
  document.addEventListener("keydown", (ev) => {
    if (ev.target && ev.target.tagName === "SELECT") return;
    if (ev.key === "r" || ev.key === "R") { roll(); ev.preventDefault(); }
    if (ev.key === "n" || ev.key === "N") { restart(); ev.preventDefault(); }
  });
  window.laddersPlayer = {
    seed(n) { seeded = mulberry32(n >>> 0); restart(); },
    state() { return { positions: positions.slice(), turn, rolls: rolls.slice(), won }; },
  };
  const hash = /(?:^|[#&])seed=([0-9]+)/.exec(location.hash || "");
  if (hash) seeded = mulberry32(parseInt(hash[1], 10) >>> 0);
  restart();
})();
