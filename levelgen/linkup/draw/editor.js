/* levelgen editor: Link-up's part (levelgen/linkup/draw/editor.py), run by the editor's shell
 * (levelgen/player/editor.js: see its header for register, ctx and the check after each change).
 *
 * The level is kept as rules and a board of stacks: rows (layer 0: a kind >= 1, 0 a hole, -1 a
 * wall) and the layers above (a kind or 0; a tile needs a tile beneath it).  Slots (cells "fill
 * the rest" puts tiles on) are holes of layer 0 the editor remembers; they are not part of the
 * file.  One stroke of the pointer (down, drag, up) or one key press is one change.
 * The check: POST /v1/solve; for a solved level the verdict is shown at once, and POST /v1/rate
 * is asked once that answer has stayed the latest for rateDelayMs: its score shows when it
 * arrives (for the latest answer only).  The solution can be stepped through: the
 * board shows the position before the step (replayed: tiles removed, slid under a sliding rule)
 * with the pair and its path.  The board states what it shows on <body>: data-step (the step
 * shown, or -1), data-core and data-problems (the cells highlighted).
 */
(function () {
  "use strict";
  const SVGNS = "http://www.w3.org/2000/svg";
  const CS = 40, MARGIN = 18, OX = MARGIN + CS, OY = MARGIN + CS;
  const SCHEMA = "urn:levelgen:schema:level:v1";
  let cfg = null, ctx = null, svg = null;
  let W = 12, H = 8, rows = [], layers = [], rules = { max_turns: 2, outside: true, slide: "none" };
  let slots = new Set(); // "x,y" of layer 0 holes to fill
  let brush = 1, layer = 0, cursor = [0, 0];
  let stroke = null; // the cells painted by the pointer stroke under way
  let answer = null; // the latest answer shown: {solve, rate}
  let step = -1; // the solution step shown, -1 for the board being edited
  let core = [], problemCells = [], swaps = [], fixAnswer = null;
  let marked = null; // the level (JSON text) the marks above belong to
  const $ = (id) => document.getElementById(id);

  function grid(fill) { return Array.from({ length: H }, () => Array(W).fill(fill)); }
  function key(x, y) { return `${x},${y}`; }

  /* ----- the level ----- */
  function fromDoc(doc) {
    const d = cfg.defaults;
    if (doc === null || doc === undefined) {
      W = d.width; H = d.height; rows = grid(0); layers = [];
      rules = { max_turns: d.max_turns, outside: d.outside, slide: "none" };
      slots = new Set();
      return;
    }
    const board = doc.board, r = doc.rules || {};
    if (!board || typeof board !== "object") throw new Error("not a Link-up level: no board");
    const w = board.width, h = board.height;
    const okGrid = (g) => Array.isArray(g) && g.length === h &&
      g.every((row) => Array.isArray(row) && row.length === w && row.every(Number.isInteger));
    if (!Number.isInteger(w) || !Number.isInteger(h) || w < 1 || h < 1 || w > 64 || h > 64) {
      throw new Error("/board: width and height must be whole numbers 1..64");
    }
    if (!okGrid(board.rows)) throw new Error(`/board/rows: not ${h} rows of ${w} whole numbers`);
    const up = Array.isArray(board.layers) ? board.layers : [];
    up.forEach((g, i) => { if (!okGrid(g)) throw new Error(`/board/layers/${i}: not ${h} rows of ${w}`); });
    W = w; H = h;
    rows = board.rows.map((row) => row.slice());
    layers = up.map((g) => g.map((row) => row.slice()));
    rules = {
      max_turns: Number.isInteger(r.max_turns) ? r.max_turns : cfg.defaults.max_turns,
      outside: typeof r.outside === "boolean" ? r.outside : cfg.defaults.outside,
      slide: typeof r.slide === "string" ? r.slide : "none",
    };
    for (const s of Array.from(slots)) {
      const [x, y] = s.split(",").map(Number);
      if (x >= W || y >= H || rows[y][x] !== 0) slots.delete(s);
    }
    layer = Math.min(layer, layers.length);
  }

  function toDoc() {
    const r = { max_turns: rules.max_turns, outside: rules.outside };
    if (rules.slide !== "none") r.slide = rules.slide;
    const board = { width: W, height: H, rows: rows.map((row) => row.slice()) };
    if (layers.length) board.layers = layers.map((g) => g.map((row) => row.slice()));
    return { $schema: SCHEMA, game: "linkup", format_version: 1, rules: r, board: board };
  }

  /* The kinds of the stack at (x, y), bottom first ([] a hole, null a wall). */
  function stack(x, y, rs, ls) {
    rs = rs || rows; ls = ls || layers;
    const v = rs[y][x];
    if (v < 0) return null;
    const out = [];
    if (v >= 1) {
      out.push(v);
      for (const g of ls) { if (g[y][x] >= 1) out.push(g[y][x]); else break; }
    }
    return out;
  }

  /* ----- painting ----- */
  function paint(x, y) {
    if (x < 0 || y < 0 || x >= W || y >= H) return false;
    const k = key(x, y);
    if (brush === "slot") {
      if (layer !== 0) { ctx.message("slots are cells of layer 0", true); return false; }
      if (rows[y][x] === 0 && slots.has(k)) return false;
      rows[y][x] = 0; clearAbove(x, y, 0); slots.add(k);
      return true;
    }
    slots.delete(k);
    if (layer === 0) {
      const v = brush === "wall" ? -1 : brush === "hole" ? 0 : brush;
      if (v <= 0) clearAbove(x, y, 0);
      rows[y][x] = v;
      return true;
    }
    if (brush === "wall") { ctx.message("walls are cells of layer 0", true); return false; }
    const g = layers[layer - 1], below = layer === 1 ? rows[y][x] : layers[layer - 2][y][x];
    if (brush === "hole") { g[y][x] = 0; clearAbove(x, y, layer); return true; }
    if (!(below >= 1)) { ctx.message(`a tile of layer ${layer} needs a tile beneath it`, true); return false; }
    g[y][x] = brush;
    return true;
  }
  function clearAbove(x, y, l) { for (let i = l; i < layers.length; i++) layers[i][y][x] = 0; }

  /* After an edit: the answer's marks go with the level they answer (a slot painted on a hole
   * changes no file: the marks stay). */
  function edited() {
    const now = JSON.stringify(toDoc());
    step = -1;
    if (now !== marked) { core = []; problemCells = []; swaps = []; fixAnswer = null; }
    draw(); counts(); ctx.changed();
  }

  /* ----- drawing (as the player draws the board) ----- */
  function el(name, attrs, parent) {
    const e = document.createElementNS(SVGNS, name);
    for (const a in attrs) e.setAttribute(a, attrs[a]);
    if (parent) parent.appendChild(e);
    return e;
  }
  function glyph(k) {
    if (k <= cfg.names.length) return cfg.names[k - 1];
    return k <= cfg.glyphs.length ? cfg.glyphs[k - 1] : String(k);
  }
  function tileFace(g, k, px, py, side, d) {
    const [fill, ink] = cfg.palette[(k - 1) % cfg.palette.length];
    const picture = k <= cfg.pictures.length ? cfg.pictures[k - 1] : null;
    el("rect", { x: px + 2, y: py + 2, width: side, height: side, rx: 6,
      fill: picture ? cfg.faces[k - 1] : fill, stroke: "#222", "stroke-width": 1, class: "face" }, g);
    if (picture) {
      el("image", { x: px + 5, y: py + 5, width: side - 6, height: side - 6, href: picture,
        preserveAspectRatio: "xMidYMid meet" }, g);
    } else {
      el("text", { x: px + 2 + side / 2, y: py + 2 + side / 2, "font-size": 22 - d, fill: ink,
        "text-anchor": "middle", "dominant-baseline": "central" }, g).textContent =
        k <= cfg.glyphs.length ? cfg.glyphs[k - 1] : String(k);
    }
  }
  function centre(p) { return [OX + p[0] * CS + CS / 2, OY + p[1] * CS + CS / 2]; }

  /* The stacks to draw: the board being edited, or the position before solution step `step`. */
  function shownStacks() {
    const out = [];
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) out.push(stack(x, y));
    if (step < 0 || !answer || !answer.solve.level) return out;
    const sol = answer.solve.level.solution || [];
    const slide = rules.slide || "none";
    for (let i = 0; i < step && i < sol.length; i++) {
      for (const p of [sol[i].a, sol[i].b]) { const t = out[p[1] * W + p[0]]; if (t && t.length) t.pop(); }
      if (slide !== "none") {
        const cells = out.map((t) => (t === null ? -1 : t.length ? t[0] : 0));
        const after = window.LinkupSlide.slideCells(cells, W, H, slide);
        for (let j = 0; j < out.length; j++) out[j] = after[j] < 0 ? null : after[j] === 0 ? [] : [after[j]];
      }
    }
    return out;
  }

  function draw() {
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    const width = OX + (W + 1) * CS + MARGIN / 2, height = OY + (H + 1) * CS + MARGIN / 2;
    svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
    el("rect", { x: OX - CS, y: OY - CS, width: (W + 2) * CS, height: (H + 2) * CS,
      fill: rules.outside ? "none" : "#D0D0D0", stroke: "#9A9A9A", "stroke-width": 2,
      "stroke-dasharray": rules.outside ? "6 4" : "none", class: "ring" }, svg);
    for (let x = 0; x < W; x++) {
      el("text", { x: OX + x * CS + CS / 2, y: MARGIN / 2 + 2, "font-size": 13, fill: "#555",
        "text-anchor": "middle", "dominant-baseline": "central" }, svg).textContent = x;
    }
    for (let y = 0; y < H; y++) {
      el("text", { x: MARGIN / 2 + 2, y: OY + y * CS + CS / 2, "font-size": 13, fill: "#555",
        "text-anchor": "middle", "dominant-baseline": "central" }, svg).textContent = y;
    }
    const stacks = shownStacks();
    const sol = step >= 0 && answer && answer.solve.level ? answer.solve.level.solution : null;
    const pair = sol && step < sol.length ? sol[step] : null;
    const marks = new Map();
    const mark = (p, cls) => marks.set(key(p[0], p[1]), (marks.get(key(p[0], p[1])) || "") + " " + cls);
    if (step < 0) {
      core.forEach((p) => mark(p, "core"));
      problemCells.forEach((p) => mark(p, "problem"));
      swaps.forEach((s, i) => { mark(s[0], `swap swap-${i}`); mark(s[1], `swap swap-${i}`); });
    }
    if (pair) { mark(pair.a, "step"); mark(pair.b, "step"); }
    for (let y = 0; y < H; y++) {
      for (let x = 0; x < W; x++) {
        const t = stacks[y * W + x], px = OX + x * CS, py = OY + y * CS;
        const extra = marks.get(key(x, y)) || "";
        const attrs = { "data-x": x, "data-y": y };
        if (t === null) {
          const g = el("g", { ...attrs, class: "wall" + extra }, svg);
          el("rect", { x: px, y: py, width: CS, height: CS, fill: "#3A3A3A" }, g);
          el("path", { d: `M${px},${py}L${px + CS},${py + CS}M${px + CS},${py}L${px},${py + CS}`,
            stroke: "#8A8A8A", "stroke-width": 2 }, g);
        } else if (!t.length) {
          const slot = step < 0 && slots.has(key(x, y));
          const g = el("g", { ...attrs, class: (slot ? "slot" : "hole") + extra }, svg);
          el("rect", { x: px + 2, y: py + 2, width: CS - 4, height: CS - 4, rx: slot ? 6 : 0,
            fill: slot ? "#FFFFFF" : "#F2F2F2", class: "face" }, g);
          if (slot) {
            el("text", { x: px + CS / 2, y: py + CS / 2, "font-size": 20, fill: "#2458c6",
              "text-anchor": "middle", "dominant-baseline": "central" }, g).textContent = "?";
          }
        } else {
          const n = t.length, k = t[n - 1], d = 2 * Math.min(n - 1, 3), side = CS - 4 - d;
          const dim = layer > 0 && step < 0 && n < layer ? " dim" : "";
          const g = el("g", { ...attrs, class: "tile" + extra + dim, "data-kind": k, "data-height": n,
            "aria-label": `kind ${glyph(k)} at column ${x}, row ${y}` + (n > 1 ? `, stack of ${n}` : "") }, svg);
          for (let i = d; i > 0; i -= 2) {
            el("rect", { x: px + 2 + i, y: py + 2 + i, width: side, height: side, rx: 6,
              fill: "#6A6A6A", stroke: "#222", "stroke-width": 1 }, g);
          }
          tileFace(g, k, px, py, side, d);
          if (n > 1) {
            el("circle", { cx: px + side - 4, cy: py + 8, r: 7, fill: "#fff", stroke: "#222",
              "stroke-width": 1 }, g);
            el("text", { x: px + side - 4, y: py + 8, "font-size": 10, fill: "#000",
              "text-anchor": "middle", "dominant-baseline": "central" }, g).textContent = n;
          }
        }
      }
    }
    if (pair) {
      const pts = pair.path.map((p) => centre(p).join(",")).join(" ");
      el("polyline", { points: pts, class: "halo", "stroke-width": 9 }, svg);
      el("polyline", { points: pts, class: "path", "stroke-width": 4 }, svg);
    }
    for (const s of swaps) {
      if (step >= 0) break;
      const [a, b] = [centre(s[0]), centre(s[1])];
      el("line", { x1: a[0], y1: a[1], x2: b[0], y2: b[1], class: "swap-line" }, svg);
    }
    if (svg.matches(":focus-visible") || document.activeElement === svg) {
      el("rect", { x: OX + cursor[0] * CS + 1, y: OY + cursor[1] * CS + 1, width: CS - 2,
        height: CS - 2, rx: 7, class: "cursor" }, svg);
    }
    document.body.dataset.step = String(step);
    document.body.dataset.core = core.map((p) => p.join(",")).join(" ");
    document.body.dataset.problems = problemCells.map((p) => p.join(",")).join(" ");
  }

  function counts() {
    const n = new Map();
    for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) {
      const t = stack(x, y);
      if (t) for (const k of t) n.set(k, (n.get(k) || 0) + 1);
    }
    const box = $("counts");
    box.textContent = "";
    const kinds = Array.from(n.keys()).sort((a, b) => a - b);
    const odd = kinds.filter((k) => n.get(k) % 2);
    const head = document.createElement("p");
    const total = kinds.reduce((s, k) => s + n.get(k), 0);
    head.textContent = `${total} tiles of ${kinds.length} kinds` +
      (odd.length ? `; odd counts: ${odd.map(glyph).join(", ")}` : "; every count is even") +
      (slots.size ? `; ${slots.size} slots` : "");
    head.className = odd.length ? "odd" : "";
    box.appendChild(head);
    const list = document.createElement("ul");
    list.className = "counts";
    for (const k of kinds) {
      const li = document.createElement("li");
      li.dataset.kind = k;
      li.textContent = `${glyph(k)} ${n.get(k)}`;
      if (n.get(k) % 2) li.className = "odd";
      list.appendChild(li);
    }
    box.appendChild(list);
  }

  /* ----- controls ----- */
  function brushes() {
    const bar = $("brushes");
    const add = (value, label, title) => {
      const b = document.createElement("button");
      b.type = "button"; b.dataset.brush = String(value); b.title = title;
      if (typeof value === "number" && value <= cfg.pictures.length) {
        const img = document.createElement("img");
        img.src = cfg.pictures[value - 1]; img.alt = label;
        img.style.background = cfg.faces[value - 1];
        b.appendChild(img);
      } else b.textContent = label;
      b.addEventListener("click", () => choose(value));
      bar.appendChild(b);
    };
    add("hole", "hole", "a hole (key 0)");
    add("wall", "wall", "a wall (key #)");
    add("slot", "slot ?", "a slot for fill the rest (key ?)");
    for (let k = 1; k <= cfg.brushKinds; k++) {
      add(k, glyph(k), `kind ${k}: ${glyph(k)}` + (k < 10 ? ` (key ${k})` : k < 36 ? ` (key ${String.fromCharCode(87 + k)})` : ""));
    }
  }
  function choose(value) {
    brush = value;
    for (const b of $("brushes").children) b.setAttribute("aria-pressed", String(b.dataset.brush === String(value)));
  }

  function controls() {
    $("width").value = W; $("height").value = H;
    $("max-turns").value = rules.max_turns; $("outside").checked = rules.outside;
    $("slide").value = rules.slide;
    $("slide").disabled = layers.length > 0;
    $("add-layer").disabled = layers.length >= cfg.maxUpper || rules.slide !== "none";
    $("remove-layer").disabled = layers.length === 0;
    const sel = $("layer");
    sel.textContent = "";
    for (let l = 0; l <= layers.length; l++) {
      const o = document.createElement("option");
      o.value = String(l); o.textContent = l === 0 ? "0 (board)" : String(l);
      sel.appendChild(o);
    }
    sel.value = String(layer);
  }

  function resize() {
    const w = Math.max(1, Math.min(cfg.maxSide, Number($("width").value) || W));
    const h = Math.max(1, Math.min(cfg.maxSide, Number($("height").value) || H));
    if (w === W && h === H) { controls(); return; }
    const take = (g, fill) => Array.from({ length: h }, (_, y) => Array.from({ length: w },
      (_, x) => (y < H && x < W ? g[y][x] : fill)));
    rows = take(rows, 0); layers = layers.map((g) => take(g, 0));
    W = w; H = h;
    cursor = [Math.min(cursor[0], W - 1), Math.min(cursor[1], H - 1)];
    for (const s of Array.from(slots)) { const [x, y] = s.split(",").map(Number); if (x >= W || y >= H) slots.delete(s); }
    controls(); edited();
  }

  function cellAt(event) {
    const m = svg.getScreenCTM();
    if (!m) return null;
    const p = new DOMPoint(event.clientX, event.clientY).matrixTransform(m.inverse());
    const x = Math.floor((p.x - OX) / CS), y = Math.floor((p.y - OY) / CS);
    return x >= 0 && y >= 0 && x < W && y < H ? [x, y] : null;
  }

  function wire() {
    svg.addEventListener("pointerdown", (event) => {
      const c = cellAt(event);
      if (!c || event.button > 0) return;
      event.preventDefault();
      svg.setPointerCapture(event.pointerId);
      stroke = { id: event.pointerId, done: new Set(), changed: false };
      cursor = c;
      strokeAt(c);
    });
    svg.addEventListener("pointermove", (event) => {
      if (!stroke || stroke.id !== event.pointerId) return;
      const c = cellAt(event);
      if (c) strokeAt(c);
    });
    const end = (event) => {
      if (!stroke || stroke.id !== event.pointerId) return;
      const changed = stroke.changed;
      stroke = null;
      if (changed) edited();
    };
    svg.addEventListener("pointerup", end);
    svg.addEventListener("pointercancel", end);
    svg.addEventListener("focus", draw);
    svg.addEventListener("blur", draw);
    svg.addEventListener("keydown", (event) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
      const k = event.key;
      if (moves[k]) {
        cursor = [Math.min(W - 1, Math.max(0, cursor[0] + moves[k][0])), Math.min(H - 1, Math.max(0, cursor[1] + moves[k][1]))];
        draw();
      } else if (k === " " || k === "Enter") {
        if (paint(cursor[0], cursor[1])) edited();
      } else if (/^[1-9]$/.test(k)) choose(Number(k));
      else if (/^[a-z]$/.test(k)) choose(k.charCodeAt(0) - 87);
      else if (k === "0") choose("hole");
      else if (k === "#") choose("wall");
      else if (k === "?") choose("slot");
      else return;
      event.preventDefault();
    });
    $("width").addEventListener("change", resize);
    $("height").addEventListener("change", resize);
    $("layer").addEventListener("change", () => { layer = Number($("layer").value); draw(); });
    $("add-layer").addEventListener("click", () => {
      layers.push(grid(0)); layer = layers.length; controls(); edited();
    });
    $("remove-layer").addEventListener("click", () => {
      layers.pop(); layer = Math.min(layer, layers.length); controls(); edited();
    });
    $("max-turns").addEventListener("change", () => {
      const t = Number($("max-turns").value);
      rules.max_turns = Number.isInteger(t) ? Math.max(0, Math.min(cfg.maxTurns, t)) : rules.max_turns;
      controls(); edited();
    });
    $("outside").addEventListener("change", () => { rules.outside = $("outside").checked; edited(); });
    $("slide").addEventListener("change", () => { rules.slide = $("slide").value; controls(); edited(); });
    $("clear").addEventListener("click", () => {
      rows = grid(0); layers = []; layer = 0; slots = new Set(); controls(); edited();
    });
    $("fill").addEventListener("click", fill);
  }

  function strokeAt(c) {
    const k = key(c[0], c[1]);
    if (stroke.done.has(k)) return;
    stroke.done.add(k);
    if (paint(c[0], c[1])) { stroke.changed = true; draw(); counts(); }
  }

  /* ----- the check and its answer ----- */
  async function check(doc, context) {
    const solved = await context.call("/v1/solve", doc);
    return { solve: solved, doc: doc };
  }

  function pointCells(problems) {
    const cells = [];
    for (const p of problems || []) {
      const m = /^\/board\/(?:rows|layers\/\d+)\/(\d+)\/(\d+)$/.exec(p.pointer || "");
      if (m) cells.push([Number(m[2]), Number(m[1])]);
      const more = /cells? ((?:\[\d+, \d+\](?:, )?)+)/.exec(p.reason || "");
      if (more) for (const c of more[1].matchAll(/\[(\d+), (\d+)\]/g)) cells.push([Number(c[1]), Number(c[2])]);
    }
    return cells;
  }

  function line(parent, tag, text, cls) {
    const e = document.createElement(tag);
    e.textContent = text;
    if (cls) e.className = cls;
    parent.appendChild(e);
    return e;
  }
  function button(parent, id, text, onclick) {
    const b = document.createElement("button");
    b.type = "button"; b.id = id; b.textContent = text;
    b.addEventListener("click", onclick);
    parent.appendChild(b);
    return b;
  }

  function show(found, context) {
    const box = context.details;
    box.textContent = "";
    step = -1; core = []; problemCells = []; swaps = []; fixAnswer = null;
    const res = found.solve, body = res.body;
    marked = JSON.stringify(found.doc);
    answer = { solve: body && body.status ? body : { status: "problem" } };
    if (!res.ok) {
      const text = context.problem(res);
      const cells = body && body.pointer ? pointCells([{ pointer: body.pointer }]) : [];
      problemCells = cells;
      context.verdict(res.status === 422 || res.status === 400 ? "invalid" : "error", text);
      draw();
      return;
    }
    if (body.status === "solved") {
      const sol = body.level.solution || [];
      context.verdict("solvable", `solvable: ${sol.length} steps`);
      const score = line(box, "p", "difficulty: rating…", "score");
      score.id = "score";
      const nav = document.createElement("div");
      nav.className = "bar steps";
      box.appendChild(nav);
      button(nav, "prev-step", "◀ Prev", () => stepTo(step - 1));
      const where = line(nav, "span", "", "");
      where.id = "step-text";
      button(nav, "next-step", "Next ▶", () => stepTo(step + 1));
      button(nav, "edit-view", "Board", () => stepTo(-1));
      stepText();
      // The difficulty after the verdict, once no newer change came for a moment: a rating
      // takes a few hundred ms of the service's time, which the next check should not wait on.
      const mine = answer;
      setTimeout(() => {
        if (answer !== mine) return; // a newer answer is shown
        context.call("/v1/rate", { level: body.level, time_limit: cfg.rateTimeLimit }).then((rated) => {
          if (answer !== mine) return;
          const diff = rated.ok && rated.body && rated.body.metrics && rated.body.metrics.difficulty;
          score.textContent = diff ? `difficulty: ${diff.score} (${diff.band})` : `difficulty: not rated (${context.problem(rated)})`;
          document.body.dataset.score = diff ? String(diff.score) : "";
        }, (error) => { if (answer === mine) score.textContent = `difficulty: not rated (${error.message || error})`; });
      }, cfg.rateDelayMs);
    } else if (body.status === "unsolvable") {
      core = body.deadlock || [];
      context.verdict("unsolvable", `unsolvable: ${core.length ? `a deadlock core of ${core.length} tiles` : body.message}`);
      line(box, "p", body.message, "why");
      button(box, "suggest-fix", "Suggest a fix", suggestFix);
      const out = line(box, "div", "", "fix");
      out.id = "fix-result";
    } else if (body.status === "invalid") {
      problemCells = pointCells(body.problems);
      context.verdict("invalid", `invalid: ${body.problems.length} problem${body.problems.length === 1 ? "" : "s"}`);
      const list = document.createElement("ul");
      list.className = "problems";
      for (const p of body.problems) line(list, "li", `${p.pointer}: ${p.reason}`);
      box.appendChild(list);
    } else if (body.exit_code === 4 || body.status === "undecided" || body.status === "unknown") {
      const said = String(body.message || "");
      context.verdict("unknown", said.startsWith("undecided") ? said : `undecided: ${said}`);
    } else {
      context.verdict("error", `unexpected answer: ${body.status}: ${body.message}`);
    }
    draw();
  }

  function stepText() {
    const sol = answer && answer.solve.level ? answer.solve.level.solution : [];
    const text = $("step-text");
    if (!text) return;
    text.textContent = step < 0 ? `solution: ${sol.length} steps` : `step ${step + 1} of ${sol.length}`;
    $("prev-step").disabled = step < 0;
    $("next-step").disabled = step >= sol.length - 1;
  }
  function stepTo(i) {
    const sol = answer && answer.solve.level ? answer.solve.level.solution : [];
    step = Math.max(-1, Math.min(sol.length - 1, i));
    stepText();
    draw();
  }

  async function suggestFix() {
    const out = $("fix-result"), doc = toDoc();
    out.textContent = "looking for a fix…";
    $("suggest-fix").disabled = true;
    const got = await ctx.call("/v1/fix", { level: doc, time_limit: cfg.fixTimeLimit });
    if (JSON.stringify(toDoc()) !== JSON.stringify(doc)) return; // edited since: stale
    $("suggest-fix").disabled = false;
    out.textContent = "";
    if (!got.ok) { line(out, "p", `no fix: ${ctx.problem(got)}`, "error"); return; }
    const b = got.body;
    if (b.status === "fixed" && b.level) {
      swaps = b.swaps || []; fixAnswer = b;
      const n = b.count;
      line(out, "p", `${n} swap${n === 1 ? "" : "s"} make the board solvable (proved by the solver); ` +
        (b.fewer_ruled_out ? `no fix with fewer swaps exists.` : `fewer swaps were not ruled out.`), "fix-text");
      const list = document.createElement("ol");
      for (const s of swaps) line(list, "li", `[${s[0].join(", ")}] ↔ [${s[1].join(", ")}]`);
      out.appendChild(list);
      button(out, "apply-fix", "Apply", applyFix);
    } else {
      line(out, "p", `${b.status}: ${b.message}`, b.status === "solvable" ? "" : "error");
    }
    draw();
  }

  function applyBoard(level) {
    const keep = layer;
    const kept = new Set(slots);
    fromDoc({ rules: level.rules, board: level.board });
    slots = new Set(Array.from(kept).filter((s) => { const [x, y] = s.split(",").map(Number); return x < W && y < H && rows[y][x] === 0; }));
    layer = Math.min(keep, layers.length);
    controls();
    edited();
  }
  function applyFix() {
    if (!fixAnswer) return;
    const n = fixAnswer.count;
    applyBoard(fixAnswer.level);
    ctx.message(`applied the fix: ${n} swap${n === 1 ? "" : "s"}`);
  }

  async function fill() {
    if (!slots.size) { ctx.message("no slots to fill: paint some with the slot brush (?)", true); return; }
    const doc = toDoc();
    const cells = Array.from(slots).map((s) => s.split(",").map(Number))
      .sort((a, b) => a[1] - b[1] || a[0] - b[0]);
    ctx.message(`filling ${cells.length} slots…`);
    const got = await ctx.call("/v1/fill", { level: doc, slots: cells, kinds: null, seed: 0, time_limit: cfg.fillTimeLimit });
    if (JSON.stringify(toDoc()) !== JSON.stringify(doc)) return;
    if (!got.ok) { ctx.message(`not filled: ${ctx.problem(got)}`, true); return; }
    const b = got.body;
    if (b.status !== "filled" || !b.level) { ctx.message(`not filled: ${b.message}`, true); return; }
    slots = new Set();
    applyBoard(b.level);
    ctx.message(`filled ${(b.placed || []).length} slots: the board is solvable`);
  }

  function init(root, doc, context) {
    cfg = context.data; ctx = context; svg = $("board");
    const sel = $("slide");
    for (const s of cfg.slides) {
      const o = document.createElement("option");
      o.value = s; o.textContent = s;
      sel.appendChild(o);
    }
    fromDoc(doc);
    brushes(); choose(1); controls(); wire(); draw(); counts();
  }

  function load(doc) {
    fromDoc(doc);
    step = -1; core = []; problemCells = []; swaps = []; fixAnswer = null;
    controls(); draw(); counts();
  }

  window.LevelgenEditor.register({
    init: init,
    document: toDoc,
    load: load,
    check: check,
    show: show,
    certified: (found) => (found && found.solve && found.solve.ok && found.solve.body.level) || null,
  });
})();
