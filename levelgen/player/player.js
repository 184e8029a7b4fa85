/* levelgen player: play one Link-up level in the page, with no network access unless a
 * service's API base is configured (then safe hints and the solvable shuffle).
 *
 * The level and settings come from the JSON in <script id="levelgen-level">; the exact path
 * rule is LinkupPaths (paths.js).  State: the grid now, the start grid, and a history of
 * entries {a, b, kind, path} (a move) or {shuffle: grid before} so that undo reverts either.
 * The page states its progress on <body>: data-status (playing | won | stuck), data-tiles and
 * data-moves, for people reading the page source and for tests.
 */
(function () {
  "use strict";
  const SVGNS = "http://www.w3.org/2000/svg";
  const cfg = JSON.parse(document.getElementById("levelgen-level").textContent);
  const rules = cfg.rules, W = cfg.board.width, H = cfg.board.height, CS = 40;
  const MARGIN = 18, OX = MARGIN + CS, OY = MARGIN + CS;
  const start = cfg.board.rows.map((r) => r.slice());
  let grid = start.map((r) => r.slice());
  let solution = cfg.solution || [];
  let base = start; // the grid the certificate in `solution` starts from
  let history = [], selected = null, cursor = [0, 0], replay = null, hintPair = null;
  let flash = null, flashTimer = null, refusedPair = null, countedFor = null, movesNow = 0;
  const $ = (id) => document.getElementById(id);
  const board = $("board"), message = $("message");

  function el(name, attrs, parent) {
    const e = document.createElementNS(SVGNS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function glyph(k) { return k <= cfg.glyphs.length ? cfg.glyphs[k - 1] : String(k); }
  function style(k) { return cfg.palette[(k - 1) % cfg.palette.length]; }
  function tileCount() { let n = 0; for (const r of grid) for (const v of r) if (v > 0) n++; return n; }
  function same(p, q) { return p && q && p[0] === q[0] && p[1] === q[1]; }
  function centre(p) { return [OX + p[0] * CS + CS / 2, OY + p[1] * CS + CS / 2]; }

  function say(text, kind) {
    message.textContent = text;
    message.className = kind || "";
  }

  function draw() {
    while (board.firstChild) board.removeChild(board.firstChild);
    const width = OX + (W + 1) * CS + MARGIN / 2, height = OY + (H + 1) * CS + MARGIN / 2;
    board.setAttribute("viewBox", `0 0 ${width} ${height}`);
    board.style.maxWidth = `${Math.max(width, 320)}px`;
    el("rect", { x: OX - CS, y: OY - CS, width: (W + 2) * CS, height: (H + 2) * CS,
      fill: rules.outside ? "none" : "#D0D0D0", stroke: "#9A9A9A", "stroke-width": 2,
      "stroke-dasharray": rules.outside ? "6 4" : "none", class: "ring" }, board);
    for (let x = 0; x < W; x++) {
      el("text", { x: OX + x * CS + CS / 2, y: MARGIN / 2 + 2, "font-size": 13, fill: "#555",
        "text-anchor": "middle", "dominant-baseline": "central" }, board).textContent = x;
    }
    for (let y = 0; y < H; y++) {
      el("text", { x: MARGIN / 2 + 2, y: OY + y * CS + CS / 2, "font-size": 13, fill: "#555",
        "text-anchor": "middle", "dominant-baseline": "central" }, board).textContent = y;
    }
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const v = grid[y][x], px = OX + x * CS, py = OY + y * CS;
        if (v === 0) {
          el("rect", { x: px + 2, y: py + 2, width: CS - 4, height: CS - 4, fill: "#F2F2F2",
            class: "hole", "data-x": x, "data-y": y }, board);
        } else if (v < 0) {
          const g = el("g", { class: "wall", "data-x": x, "data-y": y }, board);
          el("rect", { x: px, y: py, width: CS, height: CS, fill: "#3A3A3A" }, g);
          el("path", { d: `M${px},${py}L${px + CS},${py + CS}M${px + CS},${py}L${px},${py + CS}`,
            stroke: "#8A8A8A", "stroke-width": 2 }, g);
        } else {
          const [fill, ink] = style(v);
          let cls = "tile";
          if (same(selected, [x, y])) cls += " sel";
          if (hintPair && (same(hintPair[0], [x, y]) || same(hintPair[1], [x, y]))) cls += " hint";
          if (refusedPair && (same(refusedPair[0], [x, y]) || same(refusedPair[1], [x, y]))) cls += " refused";
          const g = el("g", { class: cls, "data-x": x, "data-y": y, "data-kind": v,
            role: "button", "aria-label": `kind ${glyph(v)} at column ${x}, row ${y}` }, board);
          el("rect", { x: px + 2, y: py + 2, width: CS - 4, height: CS - 4, rx: 6, fill: fill,
            stroke: "#222", "stroke-width": 1 }, g);
          el("text", { x: px + CS / 2, y: py + CS / 2, "font-size": 22, fill: ink,
            "text-anchor": "middle", "dominant-baseline": "central" }, g).textContent = glyph(v);
        }
      }
    }
    if (flash) {
      const pts = flash.map((p) => centre(p).join(",")).join(" ");
      el("polyline", { points: pts, class: "halo", "stroke-width": 9 }, board);
      el("polyline", { points: pts, class: "path", "stroke-width": 4,
        "data-corners": flash.map((p) => p.join(",")).join(" ") }, board);
    }
    drawCursor();
    counters();
  }

  /* The keyboard cursor: shown while the board has keyboard focus; drawn on its own so that
   * focusing the board with a click does not rebuild the tiles under the pointer. */
  function drawCursor() {
    for (const old of board.querySelectorAll(".cursor")) old.remove();
    if (!board.matches(":focus-visible")) return;
    el("rect", { x: OX + cursor[0] * CS + 1, y: OY + cursor[1] * CS + 1, width: CS - 2,
      height: CS - 2, rx: 7, class: "cursor" }, board);
  }

  function counters() {
    const tiles = tileCount();
    const key = grid.join(";"); // legal moves are counted again only when the board changed
    if (key !== countedFor) {
      countedFor = key;
      movesNow = tiles ? LinkupPaths.legalPairs(grid, rules.max_turns, rules.outside).length : 0;
    }
    const moves = movesNow;
    $("tiles").textContent = tiles;
    $("moves").textContent = moves;
    $("played").textContent = history.filter((e) => !e.shuffle).length;
    document.body.dataset.tiles = tiles;
    document.body.dataset.moves = moves;
    const status = tiles === 0 ? "won" : moves === 0 ? "stuck" : "playing";
    document.body.dataset.status = status;
    $("undo").disabled = history.length === 0;
    $("restart").disabled = history.length === 0 && !replay;
    if (status === "won") say("Cleared! Every tile is gone.", "won");
    else if (status === "stuck" && !message.textContent.startsWith("Refused")) {
      say("Stuck: no legal move is left. Undo, restart" + (cfg.apiBase !== null ? " or shuffle." : "."), "stuck");
    }
  }

  function showPath(corners) {
    flash = corners;
    clearTimeout(flashTimer);
    flashTimer = setTimeout(() => { // only the line goes: the tiles stay where a pointer may be
      flash = null;
      for (const line of board.querySelectorAll(".path, .halo")) line.remove();
    }, cfg.flashMs);
  }

  /* Try to remove tiles a and b; returns true when the move was legal. */
  function attempt(a, b) {
    const ka = grid[a[1]][a[0]], kb = grid[b[1]][b[0]];
    hintPair = null;
    if (ka !== kb) {
      refusedPair = [a, b];
      say(`Refused: different kinds (${glyph(ka)} and ${glyph(kb)}).`, "refused");
      return false;
    }
    const path = LinkupPaths.findPath(grid, a, b, rules.max_turns, rules.outside);
    if (!path) {
      refusedPair = [a, b];
      const turns = rules.max_turns === 1 ? "1 turn" : `${rules.max_turns} turns`;
      say(`Refused: no path with at most ${turns}` + (rules.outside ? "" : " inside the board") + ".", "refused");
      return false;
    }
    refusedPair = null;
    grid[a[1]][a[0]] = 0;
    grid[b[1]][b[0]] = 0;
    history.push({ a: a, b: b, kind: ka, path: path.corners });
    say(`Removed ${glyph(ka)}: ${path.turns} turn${path.turns === 1 ? "" : "s"}, ${path.length} steps.`, "");
    showPath(path.corners);
    return true;
  }

  function choose(p) {
    if (replay) return;
    const v = grid[p[1]][p[0]];
    if (v < 1) return;
    if (selected === null) { selected = p; refusedPair = null; say(`Selected ${glyph(v)} at ${p[0]}, ${p[1]}.`, ""); }
    else if (same(selected, p)) { selected = null; say("", ""); }
    else { attempt(selected, p); selected = null; }
    draw();
  }

  function undo() {
    stopReplay();
    const last = history.pop();
    if (!last) return;
    if (last.shuffle) { grid = last.shuffle; solution = last.solution; base = last.base; }
    else { grid[last.a[1]][last.a[0]] = last.kind; grid[last.b[1]][last.b[0]] = last.kind; }
    selected = null; hintPair = null; refusedPair = null; flash = null;
    say("Undone.", "");
    draw();
  }

  function restart() {
    stopReplay();
    grid = start.map((r) => r.slice()); solution = cfg.solution || []; base = start;
    history = []; selected = null; hintPair = null; refusedPair = null; flash = null;
    say("Restarted.", "");
    draw();
  }

  function stopReplay() {
    if (replay) { clearInterval(replay); replay = null; $("solution").textContent = "Show solution"; }
  }

  function showSolution() {
    if (replay) { stopReplay(); say("Replay stopped.", ""); draw(); return; }
    if (!solution.length) { say("This level carries no solution to show.", "refused"); return; }
    const keepBase = base, keepSolution = solution;
    restart();
    grid = keepBase.map((r) => r.slice());
    base = keepBase;
    solution = keepSolution;
    let i = 0;
    $("solution").textContent = "Stop";
    say(`Replaying the solution: ${solution.length} steps.`, "");
    draw();
    replay = setInterval(() => {
      if (i >= solution.length) { stopReplay(); draw(); return; }
      const step = solution[i++];
      const ok = attempt(step.a, step.b);
      if (!ok) { stopReplay(); say(`The solution breaks at step ${i - 1}.`, "refused"); }
      else say(`Solution step ${i} of ${solution.length}.`, "");
      draw();
    }, cfg.replayMs);
  }

  function position() {
    return { "$schema": "urn:levelgen:schema:position:v1", game: "linkup", format_version: 1,
      rules: { max_turns: rules.max_turns, outside: rules.outside },
      board: { width: W, height: H, rows: grid.map((r) => r.slice()) } };
  }

  async function call(what) {
    const response = await fetch(`${cfg.apiBase}/v1/${what}`, { method: "POST",
      headers: { "Content-Type": "application/json", Accept: "application/json" },
      body: JSON.stringify(position()) });
    let data = null;
    try { data = await response.json(); } catch (e) { data = null; }
    if (!response.ok) {
      const detail = data && (data.detail || data.message || data.error);
      throw new Error(`HTTP ${response.status}` + (detail ? `: ${typeof detail === "string" ? detail : JSON.stringify(detail)}` : ""));
    }
    if (!data || typeof data !== "object") throw new Error("the answer is not a JSON object");
    return data;
  }

  function point(p) {
    if (Array.isArray(p) && p.length === 2) return [Number(p[0]), Number(p[1])];
    if (p && typeof p === "object" && "x" in p && "y" in p) return [Number(p.x), Number(p.y)];
    return null;
  }

  async function hint() {
    stopReplay();
    say("Asking for a safe hint...", "");
    try {
      const data = await call("hint");
      const status = data.status;
      if (status === "hint" && data.move) {
        const a = point(data.move.a), b = point(data.move.b);
        if (!a || !b) throw new Error("the hint has no tiles");
        hintPair = [a, b]; selected = null;
        const path = Array.isArray(data.move.path) ? data.move.path.map(point).filter((p) => p) : null;
        if (path && path.length >= 2) showPath(path);
        say(`Hint: ${glyph(grid[a[1]][a[0]])} at ${a[0]}, ${a[1]} with ${b[0]}, ${b[1]} (safe: the board stays solvable).`, "");
      } else if (status === "won") say("Nothing to hint: the board is cleared.", "won");
      else if (status === "lost") say("No safe move: this position cannot be cleared. Undo or shuffle.", "stuck");
      else if (status === "undecided") say("The hint service could not decide in time.", "refused");
      else throw new Error(`unexpected status ${JSON.stringify(status)}`);
    } catch (e) { say(`Hint failed: ${e.message}`, "refused"); }
    draw();
  }

  function rowsOf(b) {
    if (Array.isArray(b)) return b;
    if (b && Array.isArray(b.rows)) return b.rows;
    return null;
  }

  async function shuffle() {
    stopReplay();
    say("Shuffling...", "");
    try {
      const data = await call("shuffle");
      const level = data.level && typeof data.level === "object" ? data.level : data;
      const rows = rowsOf(level.board);
      if (!rows && typeof data.status === "string") { // an answer without a board: say why
        const why = data.reason || data.message || data.detail;
        throw new Error(`no new board (${data.status}${why ? `: ${why}` : ""})`);
      }
      if (!rows || rows.length !== H || rows.some((r) => !Array.isArray(r) || r.length !== W)) {
        throw new Error("the answer has no board of this size");
      }
      history.push({ shuffle: grid, solution: solution, base: base });
      grid = rows.map((r) => r.map(Number));
      solution = (Array.isArray(level.solution) ? level.solution : []).map((s) => ({
        a: point(s.a), b: point(s.b) }));
      base = grid.map((r) => r.slice());
      selected = null; hintPair = null; refusedPair = null; flash = null;
      say(`Shuffled: the remaining tiles were dealt again into a solvable board (${solution.length} steps to clear).`, "");
    } catch (e) { say(`Shuffle failed: ${e.message}`, "refused"); }
    draw();
  }

  board.addEventListener("click", (event) => {
    const target = event.target.closest("[data-x]");
    if (!target) return;
    cursor = [Number(target.dataset.x), Number(target.dataset.y)];
    choose(cursor.slice());
  });
  board.addEventListener("focus", drawCursor);
  board.addEventListener("blur", drawCursor);
  board.addEventListener("keydown", (event) => {
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (moves[event.key]) {
      const [dx, dy] = moves[event.key];
      cursor = [Math.min(W - 1, Math.max(0, cursor[0] + dx)), Math.min(H - 1, Math.max(0, cursor[1] + dy))];
      event.preventDefault(); draw();
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault(); choose(cursor.slice());
    } else if (event.key === "Escape") { selected = null; say("", ""); draw(); }
  });
  document.addEventListener("keydown", (event) => {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key.toLowerCase();
    if (key === "u") undo();
    else if (key === "r") restart();
    else if (key === "s") showSolution();
    else if (key === "h" && cfg.apiBase !== null) hint();
  });
  $("undo").addEventListener("click", undo);
  $("restart").addEventListener("click", restart);
  $("solution").addEventListener("click", showSolution);
  if (cfg.apiBase !== null) {
    $("hint").addEventListener("click", hint);
    $("shuffle").addEventListener("click", shuffle);
  }
  say(`Pick two tiles of one kind that a path of at most ${rules.max_turns} turns can join.`, "");
  draw();
  window.levelgenPlayer = { get grid() { return grid; }, get history() { return history; } };
})();
