/* levelgen sliding-puzzle player: play one level in the page, with no network access unless a
 * service's API base is configured (then hints the page cannot work out itself are asked of
 * POST {apiBase}/v1/hint).
 *
 * The level comes from the JSON in <script id="levelgen-level">: width, height, start (the
 * frame to play from), goal, numbered, distance (the optimal distance of start when known),
 * palette, nodeCap and level (the level file, sent with "current" to the hint API).
 *
 * The optimal distance left is kept exactly, as in levelgen.sliding: every move flips the
 * blank's chessboard colour, so a move changes the distance by exactly one; which way is one
 * bounded depth-first search (an IDA* iteration) with the bound d - 1 from the new frame.  The
 * search's bound is admissible: per label, how many of its tiles must cross each line between
 * columns (rows), which is the Manhattan distance for a tile of its own, plus two moves per
 * linear conflict among such tiles.  When a search needs more than nodeCap nodes the distance
 * is shown as unknown until a hint (or a later move) settles it.  Hints are the first move of
 * the least optimal solution in the order U D L R, the one levelgen's solvers give, found
 * from any position: on a board of at most exactMax frames (the 8-puzzle's 181,440) by a
 * breadth-first search of the whole space from the goal, once, on the first hint; else by
 * IDA* (on a numbered board with the Manhattan distance and the linear conflicts kept up to
 * date move by move) of at most hintNodes nodes.  When that is not enough, the service is
 * asked if there is one; otherwise the hint is the first move of the shortest solution the
 * page knows (the level's certificate, or the moves back to a position it solved, followed by
 * that position's solution), marked with its length and the proved lower bound.
 * The page states its progress on <body>: data-status (playing | won), data-moves and
 * data-distance (a number, or "" when unknown), for people reading the page and for tests.
 */
(function () {
  "use strict";
  const SVGNS = "http://www.w3.org/2000/svg";
  const cfg = JSON.parse(document.getElementById("levelgen-level").textContent);
  const W = cfg.width, H = cfg.height, N = W * H, CS = 64;
  const goal = cfg.goal.flat();
  const first = cfg.start.flat();
  const DIRS = [["U", 0, -1], ["D", 0, 1], ["L", -1, 0], ["R", 1, 0]];
  const OPP = { U: "D", D: "U", L: "R", R: "L", "": "" };
  const $ = (id) => document.getElementById(id);
  const board = $("board"), goalBoard = $("goal"), message = $("message");
  let cells = first.slice(), history = [], distance = cfg.distance, hinted = null;
  /* A solution of the current frame the page knows (not always optimal), or null. */
  const firstKnown = typeof cfg.solution === "string" ? cfg.solution : null;
  let known = firstKnown;

  /* ----- the bound ------------------------------------------------------------------------ */
  const goalCells = new Map(); // label -> its goal cells
  goal.forEach((v, i) => { if (v) { if (!goalCells.has(v)) goalCells.set(v, []); goalCells.get(v).push(i); } });
  const single = new Map(); // label -> its goal cell, for labels of one tile
  for (const [v, list] of goalCells) if (list.length === 1) single.set(v, list[0]);
  const labels = Array.from(goalCells.keys());
  const index = new Map(labels.map((v, k) => [v, k])); // label -> its row in the count tables
  const L = labels.length, CW = Math.max(W - 1, 1), CH = Math.max(H - 1, 1);
  const goalLeft = new Int32Array(L * CW), goalAbove = new Int32Array(L * CH);
  for (const [v, list] of goalCells) {
    const k = index.get(v);
    for (const i of list) {
      for (let line = i % W; line < W - 1; line++) goalLeft[k * CW + line]++;
      for (let line = Math.floor(i / W); line < H - 1; line++) goalAbove[k * CH + line]++;
    }
  }
  const left = new Int32Array(L * CW), above = new Int32Array(L * CH);
  function longestIncreasing(values) {
    const tails = [];
    for (const v of values) {
      let lo = 0, hi = tails.length;
      while (lo < hi) { const mid = (lo + hi) >> 1; if (tails[mid] < v) lo = mid + 1; else hi = mid; }
      tails[lo] = v;
    }
    return tails.length;
  }
  /* The admissible bound of frame c: crossing counts of every label plus linear conflicts. */
  function bound(c) {
    let total = 0;
    left.fill(0); above.fill(0);
    for (let i = 0; i < N; i++) {
      const v = c[i];
      if (!v) continue;
      const k = index.get(v);
      for (let line = i % W; line < W - 1; line++) left[k * CW + line]++;
      for (let line = Math.floor(i / W); line < H - 1; line++) above[k * CH + line]++;
    }
    for (let j = 0; j < L * CW; j++) total += Math.abs(left[j] - goalLeft[j]);
    for (let j = 0; j < L * CH; j++) total += Math.abs(above[j] - goalAbove[j]);
    for (let y = 0; y < H; y++) { // linear conflicts in rows
      const line = [];
      for (let x = 0; x < W; x++) {
        const g = single.get(c[y * W + x]);
        if (g !== undefined && Math.floor(g / W) === y) line.push(g % W);
      }
      total += 2 * (line.length - longestIncreasing(line));
    }
    for (let x = 0; x < W; x++) { // and in columns
      const line = [];
      for (let y = 0; y < H; y++) {
        const g = single.get(c[y * W + x]);
        if (g !== undefined && g % W === x) line.push(Math.floor(g / W));
      }
      total += 2 * (line.length - longestIncreasing(line));
    }
    return total;
  }
  function isGoal(c) { for (let i = 0; i < N; i++) if (c[i] !== goal[i]) return false; return true; }
  function step(b, d) {
    const [, dx, dy] = DIRS.find((e) => e[0] === d);
    const x = b % W + dx, y = Math.floor(b / W) + dy;
    return x >= 0 && x < W && y >= 0 && y < H ? y * W + x : -1;
  }

  /* One IDA* iteration from c with the given bound: {path} (the first solution), {next} (no
   * solution; the least f above the bound), or null when it needed more than cap nodes. */
  const STOP = {};
  function iteration(c0, limit, cap) {
    const c = c0.slice();
    let nodes = 0, next = Infinity, found = null;
    const path = [];
    function visit(g, b, last) {
      if (++nodes > cap) throw STOP;
      const h = bound(c), f = g + h;
      if (f > limit) { if (f < next) next = f; return false; }
      if (h === 0 && isGoal(c)) { found = path.join(""); return true; }
      for (const [d] of DIRS) {
        if (d === OPP[last]) continue;
        const t = step(b, d);
        if (t < 0) continue;
        c[b] = c[t]; c[t] = 0; path.push(d);
        const done = visit(g + 1, t, d);
        path.pop(); c[t] = c[b]; c[b] = 0;
        if (done) return true;
      }
      return false;
    }
    try { visit(0, c.indexOf(0), ""); } catch (e) { if (e === STOP) return null; throw e; }
    return found !== null ? { path: found } : { next: next };
  }
  function parity(c) {
    const a = c.indexOf(0), b = goal.indexOf(0);
    return (Math.abs(a % W - b % W) + Math.abs(Math.floor(a / W) - Math.floor(b / W))) % 2;
  }
  /* The least optimal solution of c by IDA*, or null beyond cap nodes in one iteration. */
  function solveLocal(c, cap) {
    const p = parity(c);
    let limit = bound(c);
    if ((limit - p) % 2) limit++;
    for (;;) {
      const r = iteration(c, limit, cap);
      if (r === null) return null;
      if (r.path !== undefined) return r.path;
      limit = r.next + ((r.next - p) % 2);
    }
  }
  /* The distance of c when its neighbour before the move was `before` away. */
  function distanceAfter(c, before) {
    if (before === null) { const p = solveLocal(c, cfg.nodeCap); return p === null ? null : p.length; }
    if (before === 0) return 1;
    const r = iteration(c, before - 1, cfg.nodeCap);
    if (r === null) return null;
    return r.path !== undefined ? before - 1 : before + 1;
  }

  /* ----- exact distances of a small space: a breadth-first search from the goal, once ------ */
  function spaceSize() {
    let total = 1;
    for (let i = 2; i <= N; i++) total *= i;
    const counts = new Map();
    for (const v of goal) counts.set(v, (counts.get(v) || 0) + 1);
    let numbered = true;
    for (const m of counts.values()) { for (let i = 2; i <= m; i++) total /= i; if (m > 1) numbered = false; }
    return numbered ? total / 2 : total;
  }
  let exact = null; // frame key -> distance, for a small space
  const BASE = Math.max(...goal) + 1, NUMERIC = Math.pow(BASE, N) < Number.MAX_SAFE_INTEGER;
  function key(c) {
    if (!NUMERIC) return c.join(",");
    let k = 0;
    for (let i = 0; i < N; i++) k = k * BASE + c[i];
    return k;
  }
  function exactTable() {
    if (exact !== null || spaceSize() > cfg.exactMax) return exact;
    exact = new Map([[key(goal), 0]]);
    let layer = [goal.slice()], depth = 0;
    while (layer.length) {
      depth++;
      const next = [];
      for (const c of layer) {
        const b = c.indexOf(0);
        for (const [d] of DIRS) {
          const t = step(b, d);
          if (t < 0) continue;
          const a = c.slice(); a[b] = a[t]; a[t] = 0;
          const k = key(a);
          if (!exact.has(k)) { exact.set(k, depth); next.push(a); }
        }
      }
      layer = next;
    }
    return exact;
  }
  /* The least optimal solution of c from the exact table. */
  function exactSolve(c) {
    const table = exactTable();
    if (table === null) return null;
    const a = c.slice(), moves = [];
    let d = table.get(key(a));
    if (d === undefined) return null;
    while (d > 0) {
      const b = a.indexOf(0);
      for (const [m] of DIRS) {
        const t = step(b, m);
        if (t < 0) continue;
        a[b] = a[t]; a[t] = 0;
        if (table.get(key(a)) === d - 1) { moves.push(m); d--; break; }
        a[t] = a[b]; a[b] = 0;
      }
    }
    return moves.join("");
  }

  /* ----- a fast IDA* for numbered boards: Manhattan distance and linear conflicts kept up to
   * date move by move (the same bound as bound(), so the same least optimal solution) ----- */
  const gx = new Int32Array(N + 1), gy = new Int32Array(N + 1);
  goal.forEach((v, i) => { gx[v] = i % W; gy[v] = Math.floor(i / W); });
  function rowConflict(c, y) {
    const line = [];
    for (let x = 0; x < W; x++) { const v = c[y * W + x]; if (v && gy[v] === y) line.push(gx[v]); }
    return 2 * (line.length - longestIncreasing(line));
  }
  function colConflict(c, x) {
    const line = [];
    for (let y = 0; y < H; y++) { const v = c[y * W + x]; if (v && gx[v] === x) line.push(gy[v]); }
    return 2 * (line.length - longestIncreasing(line));
  }
  /* One iteration as iteration() does, of at most cap nodes (null beyond): numbered only. */
  function fastIteration(c0, limit, cap) {
    const c = c0.slice(), rowC = new Int32Array(H), colC = new Int32Array(W);
    let h = 0;
    for (let i = 0; i < N; i++) if (c[i]) h += Math.abs(i % W - gx[c[i]]) + Math.abs(Math.floor(i / W) - gy[c[i]]);
    for (let y = 0; y < H; y++) { rowC[y] = rowConflict(c, y); h += rowC[y]; }
    for (let x = 0; x < W; x++) { colC[x] = colConflict(c, x); h += colC[x]; }
    let nodes = 0, next = Infinity, found = null;
    const path = [];
    function visit(g, b, last, h) {
      if (++nodes > cap) throw STOP;
      const f = g + h;
      if (f > limit) { if (f < next) next = f; return false; }
      if (h === 0) { found = path.join(""); return true; }
      for (const [d] of DIRS) {
        if (d === OPP[last]) continue;
        const t = step(b, d);
        if (t < 0) continue;
        const v = c[t];
        // the tile v slides from t to b
        let h2 = h - Math.abs(t % W - gx[v]) - Math.abs(Math.floor(t / W) - gy[v])
          + Math.abs(b % W - gx[v]) + Math.abs(Math.floor(b / W) - gy[v]);
        c[b] = v; c[t] = 0;
        let l1, l2, o1, o2, rows = d === "U" || d === "D";
        if (rows) { l1 = Math.floor(t / W); l2 = Math.floor(b / W); o1 = rowC[l1]; o2 = rowC[l2]; rowC[l1] = rowConflict(c, l1); rowC[l2] = rowConflict(c, l2); h2 += rowC[l1] + rowC[l2] - o1 - o2; }
        else { l1 = t % W; l2 = b % W; o1 = colC[l1]; o2 = colC[l2]; colC[l1] = colConflict(c, l1); colC[l2] = colConflict(c, l2); h2 += colC[l1] + colC[l2] - o1 - o2; }
        path.push(d);
        const done = visit(g + 1, t, d, h2);
        path.pop();
        c[t] = v; c[b] = 0;
        if (rows) { rowC[l1] = o1; rowC[l2] = o2; } else { colC[l1] = o1; colC[l2] = o2; }
        if (done) return true;
      }
      return false;
    }
    try { visit(0, c.indexOf(0), "", h); } catch (e) { if (e === STOP) return null; throw e; }
    return found !== null ? { path: found } : { next: next };
  }
  /* The least optimal solution of c within cap nodes in all, with the bound it proved:
   * {path} or {bound} (the least length a solution may have); cap bounds each iteration. */
  function hintSolve(c, cap) {
    const fast = cfg.numbered ? fastIteration : iteration;
    const p = parity(c);
    let limit = bound(c);
    if ((limit - p) % 2) limit++;
    for (;;) {
      const r = fast(c, limit, cap);
      if (r === null) return { bound: limit };
      if (r.path !== undefined) return { path: r.path };
      limit = r.next + ((r.next - p) % 2);
    }
  }

  /* ----- drawing -------------------------------------------------------------------------- */
  function el(name, attrs, parent) {
    const e = document.createElementNS(SVGNS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function glyph(v) { return cfg.numbered || v > 26 ? String(v) : String.fromCharCode(64 + v); }
  function fill(v) { return cfg.numbered ? "#FFF4DC" : cfg.palette[(v - 1) % cfg.palette.length]; }
  function drawBoard(svg, c, playable) {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    svg.setAttribute("viewBox", `0 0 ${W * CS + 8} ${H * CS + 8}`);
    el("rect", { x: 1, y: 1, width: W * CS + 6, height: H * CS + 6, rx: 6, fill: "#EFEFEF", stroke: "#5A5A5A", "stroke-width": 2 }, svg);
    if (cfg.picture && (!playable || isGoal(c))) { // the goal, and the board once solved: the whole picture
      el("image", { x: 4, y: 4, width: W * CS, height: H * CS, href: cfg.picture.whole, class: "whole",
        preserveAspectRatio: "none" }, svg);
      return;
    }
    const b = c.indexOf(0);
    for (let i = 0; i < N; i++) {
      const x = 4 + (i % W) * CS, y = 4 + Math.floor(i / W) * CS, v = c[i];
      if (!v) {
        el("rect", { x: x + 3, y: y + 3, width: CS - 6, height: CS - 6, rx: 8, fill: "#D9D9D9", class: "blank", "data-cell": i }, svg);
        continue;
      }
      const near = playable && DIRS.some(([d]) => step(b, d) === i);
      const cls = "tile" + (near ? " movable" : "") + (hinted !== null && i === hinted ? " hint" : "");
      const g = el("g", { class: cls, "data-cell": i, "data-label": v, role: playable ? "button" : "img",
        "aria-label": `tile ${glyph(v)} at column ${i % W}, row ${Math.floor(i / W)}` }, svg);
      if (cfg.picture) { // the tile's part of the picture (a data: URI), its number when asked
        el("image", { x: x + 1, y: y + 1, width: CS - 2, height: CS - 2, href: cfg.picture.tiles[v],
          preserveAspectRatio: "none", class: "picture" }, g);
        el("rect", { x: x + 1, y: y + 1, width: CS - 2, height: CS - 2, fill: "none", stroke: "#222", "stroke-width": 1 }, g);
        if (cfg.pictureNumbers) {
          el("circle", { cx: x + 13, cy: y + 13, r: 10, fill: "#fff", stroke: "#222", "stroke-width": 1 }, g);
          el("text", { x: x + 13, y: y + 13, "font-size": 12, fill: "#222", "text-anchor": "middle",
            "dominant-baseline": "central" }, g).textContent = glyph(v);
        }
        continue;
      }
      el("rect", { x: x + 3, y: y + 3, width: CS - 6, height: CS - 6, rx: 8, fill: fill(v), stroke: "#222", "stroke-width": 1.5 }, g);
      el("text", { x: x + CS / 2, y: y + CS / 2, "font-size": cfg.numbered ? 26 : 20, fill: "#222",
        "text-anchor": "middle", "dominant-baseline": "central" }, g).textContent = glyph(v);
    }
  }
  function say(text, kind) { message.textContent = text; message.className = kind || ""; }
  function draw() {
    drawBoard(board, cells, true);
    drawBoard(goalBoard, goal, false);
    const won = isGoal(cells);
    $("moves").textContent = history.length;
    $("left").textContent = distance === null ? "?" : distance;
    document.body.dataset.status = won ? "won" : "playing";
    document.body.dataset.moves = history.length;
    document.body.dataset.distance = distance === null ? "" : distance;
    $("undo").disabled = history.length === 0;
    $("restart").disabled = history.length === 0;
    if (won) {
      const best = cfg.distance === null ? "" : ` (the optimum from the start is ${cfg.distance})`;
      say(`Solved in ${history.length} moves${best}!`, "won");
    }
  }

  /* ----- playing -------------------------------------------------------------------------- */
  function play(d) {
    if (isGoal(cells)) return false;
    const b = cells.indexOf(0), t = step(b, d);
    if (t < 0) { say("No tile can slide that way.", "refused"); return false; }
    history.push({ d: d, distance: distance, known: known });
    cells[b] = cells[t]; cells[t] = 0;
    hinted = null;
    if (known !== null) known = known[0] === d ? known.slice(1) : OPP[d] + known;
    distance = exact !== null ? exact.get(key(cells)) : distanceAfter(cells, distance);
    say(distance === null ? "Moved (the distance left is beyond the page's search; ask for a hint)." : "", "");
    draw();
    return true;
  }
  function undo() {
    const last = history.pop();
    if (!last) return;
    const b = cells.indexOf(0), t = step(b, OPP[last.d]);
    cells[b] = cells[t]; cells[t] = 0;
    distance = last.distance; known = last.known; hinted = null;
    say("Undone.", "");
    draw();
  }
  function restart() {
    cells = first.slice(); history = []; distance = cfg.distance; hinted = null; known = firstKnown;
    say("Restarted.", "");
    draw();
  }
  function showHint(d, left) {
    const t = step(cells.indexOf(0), d);
    hinted = t;
    distance = left;
    say(`Hint: slide tile ${glyph(cells[t])} (${left} moves left with best play).`, "");
    draw();
  }
  /* A move of the shortest solution the page knows, marked with the proved bound. */
  function nearHint(proved) {
    if (known === null || !known.length) { say("This position is too far for the page to work out a hint.", "refused"); return; }
    const t = step(cells.indexOf(0), known[0]);
    hinted = t;
    distance = null;
    say(`Hint: slide tile ${glyph(cells[t])} (a solution of ${known.length} moves; at least ${Math.min(proved, known.length)} are needed).`, "");
    draw();
  }
  async function hint() {
    if (isGoal(cells)) { say("Nothing to hint: solved.", "won"); return; }
    let local = exactSolve(cells), proved = 0;
    if (local === null) {
      const r = hintSolve(cells, cfg.hintNodes);
      if (r.path !== undefined) local = r.path; else proved = r.bound;
    }
    if (local !== null) { known = local; showHint(local[0], local.length); return; }
    if (cfg.apiBase === null) { nearHint(proved); return; }
    say("Asking for a hint...", "");
    try {
      const body = Object.assign({}, cfg.level);
      delete body.played;
      body.current = Array.from({ length: H }, (_, y) => cells.slice(y * W, (y + 1) * W));
      const response = await fetch(`${cfg.apiBase}/v1/hint`, { method: "POST",
        headers: { "Content-Type": "application/json", Accept: "application/json" }, body: JSON.stringify(body) });
      const data = await response.json();
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      const details = data.details || data;
      if (data.status === "ok" && typeof details.move === "string" && details.distance !== null) showHint(details.move, Number(details.distance));
      else nearHint(Math.max(proved, Number(details.lower_bound) || 0));
    } catch (e) { nearHint(proved); }
  }

  board.addEventListener("click", (event) => {
    const target = event.target.closest("[data-cell]");
    if (!target) return;
    const i = Number(target.dataset.cell), b = cells.indexOf(0);
    for (const [d] of DIRS) if (step(b, d) === i) { play(d); return; }
    say("Only a tile next to the blank can slide.", "refused");
  });
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    // An arrow slides the tile on the far side of the blank that way: the blank goes opposite.
    const arrows = { ArrowLeft: "R", ArrowRight: "L", ArrowUp: "D", ArrowDown: "U" };
    if (arrows[event.key]) { event.preventDefault(); play(arrows[event.key]); return; }
    const key = event.key.toLowerCase();
    if (key === "u") undo();
    else if (key === "r") restart();
    else if (key === "h") hint();
  });
  $("undo").addEventListener("click", undo);
  $("restart").addEventListener("click", restart);
  $("hint").addEventListener("click", hint);
  if (distance === null) distance = solveLocal(cells, cfg.nodeCap)?.length ?? null;
  say("Slide the tiles until the board matches the goal.", "");
  draw();
  window.levelgenPlayer = {
    get cells() { return cells.slice(); },
    get distance() { return distance; },
    solveLocal: (c) => solveLocal(c, cfg.nodeCap),
    hintSolve: (c) => hintSolve(c, cfg.hintNodes),
    exactSolve: exactSolve,
    get known() { return known; },
    bound: bound,
  };
})();
