/* levelgen player: play one Link-up level in the page, with no network access unless a
 * service's API base is configured (then safe hints and the solvable shuffle).
 *
 * The level and settings come from the JSON in <script id="levelgen-level">; the exact path
 * rule is LinkupPaths (paths.js), the sliding rules LinkupSlide (slide.js).  The board is a
 * list of stacks, one per cell (null for a wall), each a list of tile identities bottom first;
 * kindOf maps an identity to its kind.  The classic game and the sliding rules have stacks of
 * at most one tile; stacked layers (board.layers) have higher ones, and only the top tile of a
 * stack plays.  Under a sliding rule the identities slide after every removal, so that the
 * positions of the moment are those of the Python core (levelgen.slide, levelgen.layers).
 * History entries are {a, b, kind, path, before} (a move, with the stacks before it) or
 * {shuffle: stacks before, solution, base}, so that undo reverts either.
 * The page states its progress on <body>: data-status (playing | won | stuck), data-tiles and
 * data-moves, for people reading the page source and for tests.
 */
(function () {
  "use strict";
  const SVGNS = "http://www.w3.org/2000/svg";
  const cfg = JSON.parse(document.getElementById("levelgen-level").textContent);
  const rules = cfg.rules, W = cfg.board.width, H = cfg.board.height, CS = 40;
  const slideRule = rules.slide || "none";
  const MARGIN = 18, OX = MARGIN + CS, OY = MARGIN + CS;
  const kindOf = [0]; // identity -> kind; identities are never reused
  const start = stacksOf(cfg.board.rows, cfg.board.layers || []);
  let stacks = copyStacks(start);
  let solution = cfg.solution || [];
  let base = start; // the stacks the certificate in `solution` starts from
  let history = [], selected = null, cursor = [0, 0], replay = null, hintPair = null;
  let flash = null, flashTimer = null, refusedPair = null, countedFor = null, movesNow = 0;
  let slid = null; // identity -> [dx, dy] cells moved by the last slide (drawn once, animated)
  const $ = (id) => document.getElementById(id);
  const board = $("board"), message = $("message");

  /* Stacks of fresh identities for layer 0 `rows` and the `layers` above it. */
  function stacksOf(rows, layers) {
    const out = [];
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const v = rows[y][x];
        if (v < 0) { out.push(null); continue; }
        const stack = [];
        if (v >= 1) {
          kindOf.push(v); stack.push(kindOf.length - 1);
          for (const layer of layers) {
            const u = layer[y][x];
            if (!(u >= 1)) break;
            kindOf.push(u); stack.push(kindOf.length - 1);
          }
        }
        out.push(stack);
      }
    }
    return out;
  }
  function copyStacks(s) { return s.map((t) => (t === null ? null : t.slice())); }
  function at(p) { return stacks[p[1] * W + p[0]]; }
  function topKind(p) { const t = at(p); return t === null ? -1 : t.length ? kindOf[t[t.length - 1]] : 0; }
  function heightAt(p) { const t = at(p); return t === null ? 0 : t.length; }
  /* The board as the position and level files write it: rows (layer 0) and layers above. */
  function boardData() {
    let top = 0;
    for (const t of stacks) if (t !== null) top = Math.max(top, t.length);
    const layer = (l) => Array.from({ length: H }, (_, y) => Array.from({ length: W }, (_, x) => {
      const t = stacks[y * W + x];
      return t === null ? (l ? 0 : -1) : l < t.length ? kindOf[t[l]] : 0;
    }));
    const data = { width: W, height: H, rows: layer(0) };
    if (top > 1) data.layers = Array.from({ length: top - 1 }, (_, l) => layer(l + 1));
    return data;
  }
  function topRows() {
    return Array.from({ length: H }, (_, y) => Array.from({ length: W }, (_, x) => topKind([x, y])));
  }

  function el(name, attrs, parent) {
    const e = document.createElementNS(SVGNS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function glyph(k) {
    if (cfg.names && cfg.names[k - 1]) return cfg.names[k - 1]; // a picture's name
    return k <= cfg.glyphs.length ? cfg.glyphs[k - 1] : String(k);
  }
  function style(k) { return cfg.palette[(k - 1) % cfg.palette.length]; }
  function tileCount() { let n = 0; for (const t of stacks) if (t !== null) n += t.length; return n; }
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
        const v = topKind([x, y]), px = OX + x * CS, py = OY + y * CS;
        if (v === 0) {
          el("rect", { x: px + 2, y: py + 2, width: CS - 4, height: CS - 4, fill: "#F2F2F2",
            class: "hole", "data-x": x, "data-y": y }, board);
        } else if (v < 0) {
          const g = el("g", { class: "wall", "data-x": x, "data-y": y }, board);
          el("rect", { x: px, y: py, width: CS, height: CS, fill: "#3A3A3A" }, g);
          el("path", { d: `M${px},${py}L${px + CS},${py + CS}M${px + CS},${py}L${px},${py + CS}`,
            stroke: "#8A8A8A", "stroke-width": 2 }, g);
        } else {
          const [fill, ink] = style(v), stack = at([x, y]), n = stack.length;
          const id = stack[n - 1], d = 2 * Math.min(n - 1, 3), side = CS - 4 - d;
          let cls = "tile";
          if (same(selected, [x, y])) cls += " sel";
          if (hintPair && (same(hintPair[0], [x, y]) || same(hintPair[1], [x, y]))) cls += " hint";
          if (refusedPair && (same(refusedPair[0], [x, y]) || same(refusedPair[1], [x, y]))) cls += " refused";
          const label = `kind ${glyph(v)} at column ${x}, row ${y}` +
            (n > 1 ? `, on top of a stack of ${n} (layer ${n - 1})` : "");
          const attrs = { class: cls, "data-x": x, "data-y": y, "data-kind": v, "data-height": n,
            role: "button", "aria-label": label };
          if (slid && slid.has(id)) { // the tile slid here: it glides in from where it was
            const [dx, dy] = slid.get(id);
            attrs.class += " slid";
            attrs.style = `--dx: ${-dx * CS}px; --dy: ${-dy * CS}px`;
          }
          const g = el("g", attrs, board);
          for (let k = d; k > 0; k -= 2) { // the layers below show as an offset shadow
            el("rect", { x: px + 2 + k, y: py + 2 + k, width: side, height: side, rx: 6,
              fill: "#6A6A6A", stroke: "#222", "stroke-width": 1, class: "below" }, g);
          }
          const picture = cfg.pictures ? cfg.pictures[v - 1] : null;
          el("rect", { x: px + 2, y: py + 2, width: side, height: side, rx: 6,
            fill: picture ? cfg.faces[v - 1] : fill, stroke: "#222", "stroke-width": 1 }, g);
          if (picture) { // the kind's picture: a data: URI, nothing is fetched
            el("image", { x: px + 5, y: py + 5, width: side - 6, height: side - 6, href: picture,
              preserveAspectRatio: "xMidYMid meet", class: "picture" }, g);
          } else {
            el("text", { x: px + 2 + side / 2, y: py + 2 + side / 2, "font-size": 22 - d, fill: ink,
              "text-anchor": "middle", "dominant-baseline": "central" }, g).textContent = glyph(v);
          }
          if (n > 1) { // the height badge
            el("circle", { cx: px + side - 4, cy: py + 8, r: 7, fill: "#fff", stroke: "#222",
              "stroke-width": 1, class: "badge" }, g);
            el("text", { x: px + side - 4, y: py + 8, "font-size": 10, fill: "#000",
              "text-anchor": "middle", "dominant-baseline": "central" }, g).textContent = n;
          }
        }
      }
    }
    slid = null;
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
    const now = boardData(), key = JSON.stringify(now); // count again only when it changed
    if (key !== countedFor) {
      countedFor = key;
      movesNow = tiles ? LinkupPaths.legalPairs(now.rows, rules.max_turns, rules.outside, now.layers).length : 0;
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

  /* Try to remove the top tiles at a and b; returns true when the move was legal.  Under a
   * sliding rule the tiles then slide (positions of the moment, as in levelgen.slide). */
  function attempt(a, b) {
    const ka = topKind(a), kb = topKind(b);
    hintPair = null;
    if (ka !== kb) {
      refusedPair = [a, b];
      say(`Refused: different kinds (${glyph(ka)} and ${glyph(kb)}).`, "refused");
      return false;
    }
    const ha = heightAt(a), hb = heightAt(b);
    if (Math.abs(ha - hb) > 1) {
      refusedPair = [a, b];
      say(`Refused: the tiles are on layers ${ha - 1} and ${hb - 1}; linked tiles must be at most one layer apart.`, "refused");
      return false;
    }
    const now = boardData();
    const path = LinkupPaths.findPath(now.rows, a, b, rules.max_turns, rules.outside, now.layers);
    if (!path) {
      refusedPair = [a, b];
      const turns = rules.max_turns === 1 ? "1 turn" : `${rules.max_turns} turns`;
      const over = now.layers ? ` over stacks no higher than layer ${Math.max(ha, hb) - 1}` : "";
      say(`Refused: no path with at most ${turns}` + (rules.outside ? "" : " inside the board") + over + ".", "refused");
      return false;
    }
    refusedPair = null;
    const before = copyStacks(stacks);
    at(a).pop();
    at(b).pop();
    if (slideRule !== "none") slideNow();
    history.push({ a: a, b: b, kind: ka, path: path.corners, before: before });
    say(`Removed ${glyph(ka)}: ${path.turns} turn${path.turns === 1 ? "" : "s"}, ${path.length} steps.`, "");
    showPath(path.corners);
    return true;
  }

  /* Let every tile slide under the level's rule (stacks hold at most one tile here). */
  function slideNow() {
    const cells = stacks.map((t) => (t === null ? -1 : t.length ? t[0] : 0));
    const after = LinkupSlide.slideCells(cells, W, H, slideRule);
    const was = new Map();
    cells.forEach((v, i) => { if (v > 0) was.set(v, i); });
    slid = new Map();
    stacks = after.map((v, i) => {
      if (v < 0) return null;
      if (v === 0) return [];
      const j = was.get(v);
      if (j !== i) slid.set(v, [i % W - j % W, Math.floor(i / W) - Math.floor(j / W)]);
      return [v];
    });
  }

  function choose(p) {
    if (replay) return;
    const v = topKind(p);
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
    if (last.shuffle) { stacks = last.shuffle; solution = last.solution; base = last.base; }
    else stacks = last.before;
    selected = null; hintPair = null; refusedPair = null; flash = null; slid = null;
    say("Undone.", "");
    draw();
  }

  function restart() {
    stopReplay();
    stacks = copyStacks(start); solution = cfg.solution || []; base = start;
    history = []; selected = null; hintPair = null; refusedPair = null; flash = null; slid = null;
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
    stacks = copyStacks(keepBase);
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
      rules: rules, board: boardData() };
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
        say(`Hint: ${glyph(topKind(a))} at ${a[0]}, ${a[1]} with ${b[0]}, ${b[1]} (safe: the board stays solvable).`, "");
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
      const layers = Array.isArray(level.board.layers) ? level.board.layers : [];
      if (layers.some((l) => !Array.isArray(l) || l.length !== H || l.some((r) => !Array.isArray(r) || r.length !== W))) {
        throw new Error("the answer has layers not of this size");
      }
      history.push({ shuffle: stacks, solution: solution, base: base });
      stacks = stacksOf(rows.map((r) => r.map(Number)), layers.map((l) => l.map((r) => r.map(Number))));
      solution = (Array.isArray(level.solution) ? level.solution : []).map((s) => ({
        a: point(s.a), b: point(s.b) }));
      base = copyStacks(stacks);
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
  window.levelgenPlayer = {
    get grid() { return boardData().rows; }, // layer 0, as the level file's rows
    get board() { return boardData(); }, // rows, and layers when a stack is higher than one
    get history() { return history; },
  };
})();
