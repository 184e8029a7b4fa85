"use strict";
// The sliding-puzzle editor (levelgen/sliding/editor.py) inside the editor's shell
// (levelgen/player/editor.js).  Two SVG boards (a viewBox each: they scale to any width), the
// start and the goal frames, cells numbered in reading order.  Edits:
//   drag a tile onto another cell of its frame (pointer events: mouse, pen, touch): they swap;
//   click a cell (or move with the arrows), then type its label: in a numbered frame the tile
//   of that label swaps in, 0 / Space / Backspace moves the blank there; with a colour brush
//   (colour puzzles) a click paints the cell; the blank only moves, it is never painted over;
//   type a frame's rows ("1 2 3 / 4 5 6 / 7 8 0", or JSON rows), applied on Enter or blur;
//   the size and kind menus and the helpers reset or rearrange the frames.
// Each change is checked with POST /v1/solve {level, time_limit}.  Marks on the boards:
// .sp-misplaced (tiles out of place in an unsolvable numbered puzzle), .sp-pair (two tiles
// whose exchange fixes its parity), .sp-count (tiles of a label whose counts differ between
// the frames), .sp-bad (a cell a problem points at), .sp-next (the tile the next move of the
// solution slides, when stepping through it).
(() => {
  const SVGNS = "http://www.w3.org/2000/svg";
  const FRAMES = ["start", "goal"];
  const STEP = { U: [0, -1], D: [0, 1], L: [-1, 0], R: [1, 0] };
  const WAY = { U: "down", D: "up", L: "right", R: "left" }; // the tile's way when the blank goes U...
  let ctx = null;
  let cfg = null;
  let st = null; // {width, height, start: [labels], goal: [labels]} (cells in reading order)
  let colours = 3; // the colours of a colour puzzle made by the kind menu
  let brush = null; // null: select; 0: the blank; k: paint label k
  let cursor = null; // {frame, cell}: the selected cell
  let typed = ""; // digits typed into the selected cell, not yet applied
  let typedTimer = 0;
  let drag = null; // {frame, from, to, id}
  let marks = { start: {}, goal: {} }; // cell -> class names, from the latest answer
  let bad = { start: false, goal: false }; // a problem points at the whole frame
  let solution = null; // the solution of the latest answer (a string of U D L R), or null
  let stepAt = 0; // moves of the solution shown on the start board
  const longAnswers = new Map(); // document text -> the answer of "think longer"
  const $ = (id) => document.getElementById(id);
  const moves = (n) => `${n} move${n === 1 ? "" : "s"}`;

  // ----- frames ---------------------------------------------------------------------------
  const cells = () => st.width * st.height;

  function counts(frame) {
    const found = new Map();
    for (const v of frame) if (v) found.set(v, (found.get(v) || 0) + 1);
    return found;
  }

  // A numbered puzzle: no label of the start repeats.
  function isNumbered() {
    for (const n of counts(st.start).values()) if (n > 1) return false;
    return true;
  }

  function standard(kind, n, k) {
    const out = [];
    for (let i = 0; i < n - 1; i++) out.push(kind === "numbered" ? i + 1 : 1 + Math.floor((i * k) / (n - 1)));
    out.push(0);
    return out;
  }

  function rows(frame) {
    const out = [];
    for (let y = 0; y < st.height; y++) out.push(frame.slice(y * st.width, (y + 1) * st.width));
    return out;
  }

  function rowsText(frame) {
    return rows(frame).map((r) => r.join(" ")).join(" / ");
  }

  function moved(frame, move) {
    const b = frame.indexOf(0), W = st.width, H = st.height;
    const [dx, dy] = STEP[move];
    const x = (b % W) + dx, y = Math.floor(b / W) + dy;
    if (b < 0 || x < 0 || x >= W || y < 0 || y >= H) return null;
    const out = frame.slice();
    out[b] = out[y * W + x];
    out[y * W + x] = 0;
    return out;
  }

  function shownStart() {
    if (!solution || !stepAt) return st.start;
    let frame = st.start;
    for (const m of solution.slice(0, stepAt)) frame = moved(frame, m) || frame;
    return frame;
  }

  // A frame of the file: `height` rows of `width` whole numbers 0..limit; an Error otherwise.
  function checkRows(value, where, W, H) {
    if (!Array.isArray(value)) throw new Error(`${where}: expected rows (a list of lists)`);
    if (value.length !== H) throw new Error(`${where}: ${value.length} rows, but height is ${H}`);
    const out = [];
    value.forEach((row, y) => {
      if (!Array.isArray(row)) throw new Error(`${where}/${y}: expected a row (a list)`);
      if (row.length !== W) throw new Error(`${where}/${y}: ${row.length} cells, but width is ${W}`);
      row.forEach((v, x) => {
        if (!Number.isInteger(v) || v < 0 || v > cfg.limits.label) {
          throw new Error(`${where}/${y}/${x}: expected a label 0..${cfg.limits.label}`);
        }
        out.push(v);
      });
    });
    return out;
  }

  // The frame typed in a text field: rows split by "/", ";" or new lines, cells by spaces or
  // commas (or JSON rows); an Error saying what is wrong.
  function parseTyped(text) {
    const W = st.width, H = st.height;
    const t = text.trim();
    if (t.startsWith("[")) {
      let value;
      try {
        value = JSON.parse(t);
      } catch (error) {
        throw new Error(`not JSON rows: ${error.message}`);
      }
      return checkRows(value, "rows", W, H);
    }
    const lines = t.split(/\s*[/;\n]\s*/).filter((r) => r.length);
    if (lines.length !== H) {
      throw new Error(`${lines.length} rows, but the board is ${H} high (rows are split by "/"; change Height first for another size)`);
    }
    const out = [];
    lines.forEach((line, y) => {
      const tokens = line.split(/[\s,]+/).filter((x) => x.length);
      if (tokens.length !== W) throw new Error(`row ${y + 1} has ${tokens.length} cells, but the board is ${W} wide`);
      tokens.forEach((token, x) => {
        const v = /^\d+$/.test(token) ? Number(token) : NaN;
        if (!(v >= 0 && v <= cfg.limits.label)) {
          throw new Error(`row ${y + 1}, cell ${x + 1}: "${token}" is not a label (a whole number 0..${cfg.limits.label}; 0 is the blank)`);
        }
        out.push(v);
      });
    });
    return out;
  }

  // ----- edits ----------------------------------------------------------------------------
  function edited() {
    stepAt = 0;
    render();
    ctx.changed();
  }

  function swap(frame, a, b) {
    const f = st[frame];
    [f[a], f[b]] = [f[b], f[a]];
    edited();
  }

  // Label v into cell i of a frame: the blank (and a numbered frame's tile) swaps in; a
  // colour is painted; the blank is never painted over.
  function put(frame, i, v) {
    const f = st[frame];
    if (f[i] === v) return;
    const j = v === 0 || isNumbered() ? f.indexOf(v) : -1;
    if (j >= 0) {
      swap(frame, i, j);
      return;
    }
    if (f[i] === 0) {
      ctx.message("the blank is not painted over: drag it away, or put the blank on another cell", true);
      return;
    }
    f[i] = v;
    edited();
  }

  function reset(kind) {
    const n = cells();
    st.goal = standard(kind, n, colours);
    st.start = st.goal.slice();
    cursor = null;
    edited();
  }

  function resize() {
    const w = Number($("sp-width").value), h = Number($("sp-height").value);
    if (w === st.width && h === st.height) return;
    const kind = isNumbered() ? "numbered" : "colour";
    st.width = w;
    st.height = h;
    reset(kind);
  }

  function standardGoal() {
    const labels = st.start.filter((v) => v).sort((a, b) => a - b);
    st.goal = labels.concat([0]);
    edited();
  }

  function shuffleStart() {
    let frame = st.goal.slice(), last = "";
    const back = { U: "D", D: "U", L: "R", R: "L", "": "" };
    for (let k = 0; k < 4 * cells(); k++) {
      const options = "UDLR".split("").filter((m) => m !== back[last] && moved(frame, m));
      last = options[Math.floor(Math.random() * options.length)];
      frame = moved(frame, last);
    }
    st.start = frame;
    edited();
  }

  function flushTyped() {
    clearTimeout(typedTimer);
    if (!typed || !cursor) {
      typed = "";
      return;
    }
    const v = Number(typed);
    typed = "";
    if (v > cfg.limits.label) {
      ctx.message(`labels are 0..${cfg.limits.label}`, true);
      return;
    }
    put(cursor.frame, cursor.cell, v);
  }

  function applyText(frame) {
    const input = $(`sp-${frame}-text`), error = $(`sp-${frame}-error`);
    if (input.value === rowsText(st[frame])) {
      error.textContent = "";
      input.removeAttribute("aria-invalid");
      return;
    }
    let found;
    try {
      found = parseTyped(input.value);
    } catch (e) {
      error.textContent = `${frame} not changed: ${e.message}`;
      input.setAttribute("aria-invalid", "true");
      return;
    }
    error.textContent = "";
    input.removeAttribute("aria-invalid");
    st[frame] = found;
    edited();
  }

  // ----- drawing --------------------------------------------------------------------------
  function el(name, attrs, parent) {
    const e = document.createElementNS(SVGNS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }

  function fill(v, numbered) {
    return numbered ? "#fff4dc" : cfg.palette[(v - 1) % cfg.palette.length];
  }

  function drawFrame(frame) {
    const svg = $(`sp-${frame}`), CS = cfg.cell, W = st.width, H = st.height;
    const shown = frame === "start" ? shownStart() : st.goal;
    const numbered = isNumbered();
    const next = frame === "start" && solution && stepAt < solution.length ? moved(shown, solution[stepAt]) : null;
    const nextCell = next ? next.indexOf(0) : -1;
    while (svg.firstChild) svg.removeChild(svg.firstChild);
    svg.setAttribute("viewBox", `0 0 ${W * CS + 8} ${H * CS + 8}`);
    el("rect", { x: 1, y: 1, width: W * CS + 6, height: H * CS + 6, rx: 6, class: "sp-back" }, svg);
    shown.forEach((v, i) => {
      const x = 4 + (i % W) * CS, y = 4 + Math.floor(i / W) * CS;
      const cls = ["sp-cell", v ? "sp-tile" : "sp-blank"];
      if (!stepAt || frame === "goal") cls.push(...(marks[frame][i] || []));
      if (i === nextCell) cls.push("sp-next");
      if (cursor && cursor.frame === frame && cursor.cell === i) cls.push("sp-cursor");
      if (drag && drag.frame === frame && drag.from === i) cls.push("sp-from");
      if (drag && drag.frame === frame && drag.to === i && drag.to !== drag.from) cls.push("sp-to");
      const where = `row ${Math.floor(i / W) + 1}, column ${(i % W) + 1}`;
      const g = el("g", { class: cls.join(" "), "data-cell": i, "data-label": v, role: "gridcell",
        "aria-label": v ? `tile ${v} at ${where}` : `the blank at ${where}` }, svg);
      el("rect", { x: x + 3, y: y + 3, width: CS - 6, height: CS - 6, rx: 8, fill: v ? fill(v, numbered) : "#d9d9d9" }, g);
      if (v) {
        el("text", { x: x + CS / 2, y: y + CS / 2, "font-size": numbered ? 26 : 20,
          "text-anchor": "middle", "dominant-baseline": "central" }, g).textContent = String(v);
      }
    });
    $(`sp-${frame}-frame`).classList.toggle("sp-frame-bad", bad[frame] && !stepAt);
  }

  function drawBrushes() {
    const box = $("sp-brushes"), list = $("sp-brush-list");
    const numbered = isNumbered();
    box.hidden = numbered;
    if (numbered) {
      brush = null;
      return;
    }
    let top = Math.max(colours, 0);
    for (const f of FRAMES) for (const v of st[f]) top = Math.max(top, v);
    if (brush !== null && brush > top) brush = null;
    while (list.firstChild) list.removeChild(list.firstChild);
    const add = (value, text, colour) => {
      const b = document.createElement("button");
      b.type = "button";
      b.className = "sp-brush";
      b.dataset.brush = value === null ? "select" : String(value);
      b.setAttribute("role", "radio");
      b.setAttribute("aria-checked", String(brush === value));
      b.textContent = text;
      if (colour) b.style.background = colour;
      b.addEventListener("click", () => {
        brush = value;
        drawBrushes();
      });
      list.appendChild(b);
    };
    add(null, "select", "");
    add(0, "blank", "#d9d9d9");
    for (let v = 1; v <= top; v++) add(v, String(v), fill(v, false));
  }

  function render(forceText) {
    for (const f of FRAMES) {
      drawFrame(f);
      const input = $(`sp-${f}-text`);
      if (forceText || document.activeElement !== input) {
        input.value = rowsText(st[f]);
        input.removeAttribute("aria-invalid");
        $(`sp-${f}-error`).textContent = "";
      }
    }
    $("sp-width").value = String(st.width);
    $("sp-height").value = String(st.height);
    const numbered = isNumbered();
    $("sp-kind").value = numbered ? "numbered" : "colour";
    $("sp-colours").hidden = numbered;
    const caption = $("sp-start-caption");
    caption.textContent = solution && stepAt
      ? `Start, after ${stepAt} of ${solution.length} moves (edits go back to the start)`
      : "Start";
    drawBrushes();
    drawSteps();
  }

  // ----- pointer and keyboard -------------------------------------------------------------
  function cellAt(svg, event) {
    const m = svg.getScreenCTM();
    if (!m) return -1;
    const p = svg.createSVGPoint();
    p.x = event.clientX;
    p.y = event.clientY;
    const q = p.matrixTransform(m.inverse());
    const x = Math.floor((q.x - 4) / cfg.cell), y = Math.floor((q.y - 4) / cfg.cell);
    return x >= 0 && x < st.width && y >= 0 && y < st.height ? y * st.width + x : -1;
  }

  function wireBoard(frame) {
    const svg = $(`sp-${frame}`);
    svg.addEventListener("pointerdown", (event) => {
      if (event.button > 0) return;
      const i = cellAt(svg, event);
      if (i < 0) return;
      event.preventDefault();
      svg.focus({ preventScroll: true });
      if (frame === "start" && stepAt) {
        stepAt = 0; // back to the start frame before it is edited
        render();
      }
      flushTyped();
      drag = { frame, from: i, to: i, id: event.pointerId };
      svg.setPointerCapture(event.pointerId);
      drawFrame(frame);
    });
    svg.addEventListener("pointermove", (event) => {
      if (!drag || drag.id !== event.pointerId) return;
      const i = cellAt(svg, event);
      if (i !== drag.to) {
        drag.to = i;
        drawFrame(frame);
      }
    });
    const end = (event, cancelled) => {
      if (!drag || drag.id !== event.pointerId) return;
      const { from, to } = drag;
      drag = null;
      if (cancelled || to < 0) {
        drawFrame(frame);
      } else if (to !== from) {
        cursor = { frame, cell: to };
        swap(frame, from, to);
      } else {
        cursor = { frame, cell: from };
        if (brush !== null && !isNumbered()) put(frame, from, brush);
        else render();
      }
    };
    svg.addEventListener("pointerup", (event) => end(event, false));
    svg.addEventListener("pointercancel", (event) => end(event, true));
    svg.addEventListener("keydown", (event) => {
      if (event.ctrlKey || event.metaKey || event.altKey) return;
      const arrows = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
      const key = event.key;
      if (!cursor || cursor.frame !== frame) {
        if (!(key in arrows)) return;
        cursor = { frame, cell: 0 };
        event.preventDefault();
        render();
        return;
      }
      if (key in arrows) {
        flushTyped();
        const [dx, dy] = arrows[key];
        const x = Math.min(st.width - 1, Math.max(0, (cursor.cell % st.width) + dx));
        const y = Math.min(st.height - 1, Math.max(0, Math.floor(cursor.cell / st.width) + dy));
        cursor = { frame, cell: y * st.width + x };
        render();
      } else if (/^\d$/.test(key)) {
        typed += key;
        clearTimeout(typedTimer);
        // Applied at once when no further digit could follow, else after a pause or Enter.
        if (Number(typed) * 10 > cfg.limits.label || Number(typed) * 10 > Math.max(...st[frame])) flushTyped();
        else typedTimer = setTimeout(flushTyped, 700);
      } else if (key === " " || key === "Backspace" || key === "Delete") {
        typed = "";
        put(frame, cursor.cell, 0);
      } else if (key === "Enter") {
        flushTyped();
      } else if (key === "Escape") {
        typed = "";
        cursor = null;
        render();
      } else {
        return;
      }
      event.preventDefault();
    });
    svg.addEventListener("blur", () => flushTyped());
    const input = $(`sp-${frame}-text`);
    input.addEventListener("keydown", (event) => {
      if (event.key === "Enter") {
        event.preventDefault();
        applyText(frame);
      }
    });
    input.addEventListener("blur", () => applyText(frame));
  }

  // ----- the answer -----------------------------------------------------------------------
  function node(tag, attrs, text, parent) {
    const e = document.createElement(tag);
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    if (text !== undefined && text !== null) e.textContent = text;
    if (parent) parent.appendChild(e);
    return e;
  }

  function table(parent, rowsOf) {
    const t = node("table", {}, null, parent);
    for (const [name, value, id] of rowsOf) {
      const tr = node("tr", {}, null, t);
      node("th", {}, name, tr);
      node("td", id ? { id } : {}, String(value), tr);
    }
    return t;
  }

  function mark(frame, i, cls) {
    (marks[frame][i] = marks[frame][i] || []).push(cls);
  }

  function drawSteps() {
    const box = $("sp-steps");
    if (!box) return;
    if (!solution) { // the level changed since: its solution is gone
      box.remove();
      $("sp-moves").remove();
      return;
    }
    box.querySelector("#sp-step").textContent = `${stepAt} / ${solution.length}`;
    box.querySelectorAll("button").forEach((b) => {
      const back = b.dataset.go === "first" || b.dataset.go === "back";
      b.disabled = back ? stepAt === 0 : stepAt === solution.length;
    });
    document.querySelectorAll("#sp-moves span").forEach((s, k) => s.classList.toggle("sp-done", k < stepAt));
  }

  function stepper(parent) {
    const box = node("div", { id: "sp-steps", class: "bar" }, null, parent);
    const go = { first: () => 0, back: () => stepAt - 1, next: () => stepAt + 1, last: () => solution.length };
    const text = { first: "« start", back: "‹ back", next: "next ›", last: "end »" };
    for (const name of ["first", "back"]) addStep(box, name, text[name], go[name]);
    node("span", { id: "sp-step", "aria-live": "polite" }, "", box);
    for (const name of ["next", "last"]) addStep(box, name, text[name], go[name]);
    const list = node("p", { id: "sp-moves", class: "sp-moves" }, null, parent);
    let frame = st.start;
    for (const m of solution) {
      const after = moved(frame, m);
      const tile = after ? frame[after.indexOf(0)] : "?";
      node("span", { title: `tile ${tile} slides ${WAY[m]}` }, m, list);
      if (after) frame = after;
    }
  }

  function addStep(box, name, text, to) {
    const b = node("button", { type: "button", "data-go": name }, text, box);
    b.addEventListener("click", () => {
      stepAt = Math.max(0, Math.min(solution.length, to()));
      render();
    });
  }

  function showSolved(a, details) {
    const n = a.optimal_length;
    ctx.verdict("solvable", n === 0 ? "solved already: the start is the goal" : `optimal: ${moves(n)}`);
    const count = a.optimal_solutions === null || a.optimal_solutions === undefined
      ? "not counted within the time limit"
      : a.optimal_solutions >= a.solutions_cap ? `${a.solutions_cap} or more` : String(a.optimal_solutions);
    table(details, [
      ["Optimal length", `${moves(n)} (proved)`, "sp-optimal"],
      ["Optimal solutions", count],
      ["Lower bound at the start", a.heuristic_bound],
      ["Band", a.level && a.level.metrics ? a.level.metrics.band : "-"],
      ["Method", `${a.method}, ${a.nodes} nodes`],
    ]);
    solution = a.solution || "";
    if (solution.length) {
      node("p", { class: "meta" }, "The least optimal solution (the blank's moves): step through it on the start board.", details);
      stepper(details);
    }
  }

  function showUnsolvable(a, doc, details) {
    const inv = a.invariant || {};
    if (inv.invariant !== "parity") {
      ctx.verdict("unsolvable", a.message);
      return;
    }
    const start = doc.start.flat(), goal = doc.goal.flat();
    const misplaced = [];
    start.forEach((v, i) => {
      if (v && v !== goal[i]) misplaced.push(i);
    });
    // A pair whose exchange flips the permutation alone: a misplaced tile and the tile on its
    // goal cell (the first then lands home), else any two tiles.
    let pair = null;
    for (const i of misplaced) {
      const j = goal.indexOf(start[i]);
      if (start[j]) {
        pair = [i, j];
        break;
      }
    }
    if (!pair) {
      const tiles = start.map((v, i) => (v ? i : -1)).filter((i) => i >= 0);
      pair = [tiles[0], tiles[1]];
    }
    misplaced.forEach((i) => mark("start", i, "sp-misplaced"));
    pair.forEach((i) => mark("start", i, "sp-pair"));
    ctx.verdict("unsolvable", `unsolvable: the permutation is ${inv.permutation_parity}, the blank's distance ${inv.blank_distance_parity}`);
    table(details, [
      ["Invariant", "parity", "sp-invariant"],
      ["Permutation start → goal", inv.permutation_parity],
      ["Blank's distance to its goal cell", `${inv.blank_distance} (${inv.blank_distance_parity})`],
      ["Tiles out of place", misplaced.map((i) => start[i]).join(", ") || "none", "sp-misplaced-list"],
    ]);
    node("p", { class: "sp-why" },
      "Every move swaps the blank with a neighbouring tile: it flips the parity of the permutation"
      + " that takes the start to the goal and the parity of the blank's distance to its goal cell."
      + " At the goal both are even, so they must agree; here one is odd and the other even, and"
      + " no sequence of moves changes that.", details);
    const [a1, b1] = pair.map((i) => start[i]);
    node("p", { id: "sp-pair-text" },
      `The ${misplaced.length} tiles out of place are marked. Exchanging two tiles flips the`
      + ` permutation's parity alone: exchange tiles ${a1} and ${b1} (outlined) and the goal can be reached.`, details);
    const fix = node("button", { type: "button", id: "sp-fix" }, `Exchange ${a1} and ${b1} in the start`, details);
    fix.addEventListener("click", () => swap("start", pair[0], pair[1]));
  }

  function showUndecided(a, details, doc, limit) {
    const found = (a.level && a.level.solution) || a.solution;
    const best = typeof found === "string" ? found.length : null;
    const tables = a.method === "tables";
    ctx.verdict("unknown", `undecided within ${limit} s: at least ${a.lower_bound} moves`
      + (best !== null ? `, a solution of ${best} found` : ""));
    table(details, [
      ["Lower bound (proved)", `${a.lower_bound} moves`, "sp-lower"],
      ["Best solution found", best === null ? "none" : `${best} moves (not proved optimal)`],
      ["Method", `${a.method}, ${a.nodes} nodes`],
    ]);
    node("p", { class: "meta" }, tables
      ? "The pattern databases of this board and goal blank are not built yet (built once, then kept on disk)."
      : "The optimal search needs more time than the check after each change is given.", details);
    const more = node("button", { type: "button", id: "sp-longer" }, `Think longer (up to ${cfg.longTimeLimit} s)`, details);
    more.addEventListener("click", () => thinkLonger(doc));
  }

  async function thinkLonger(doc) {
    const text = JSON.stringify(doc);
    const verdictBox = ctx.element("verdict");
    ctx.verdict("pending", `thinking longer (up to ${cfg.longTimeLimit} s)…`);
    verdictBox.classList.add("busy");
    let result;
    try {
      result = await ctx.call("/v1/solve", { level: doc, time_limit: cfg.longTimeLimit });
    } catch (error) {
      result = null;
      ctx.verdict("error", `no answer from the service: ${error.message || error}`);
    }
    verdictBox.classList.remove("busy");
    if (result === null) return;
    const answer = { result, doc, limit: cfg.longTimeLimit };
    if (result.ok && result.body && ["solved", "unsolvable"].includes(result.body.status)) longAnswers.set(text, answer);
    if (JSON.stringify(levelDocument()) === text) show(answer, ctx);
  }

  function pointerCell(pointer) {
    const m = /^(?:\/level)?\/(start|goal)(?:\/(\d+)(?:\/(\d+))?)?$/.exec(pointer || "");
    if (!m) return null;
    return { frame: m[1], y: m[2] === undefined ? null : Number(m[2]), x: m[3] === undefined ? null : Number(m[3]) };
  }

  function showInvalid(r, doc, details) {
    const body = r.body || {};
    const problems = Array.isArray(body.problems) && body.problems.length
      ? body.problems.map((p) => ({ pointer: p.pointer, reason: p.reason }))
      : [{ pointer: body.pointer || "", reason: (body.detail || "").replace(/^[^:]*: /, "") }];
    ctx.verdict("invalid", ctx.problem(r));
    const list = node("ul", { id: "sp-problems" }, null, details);
    for (const p of problems) {
      const li = node("li", {}, null, list);
      node("code", {}, (p.pointer || "/").replace(/^\/level/, ""), li);
      li.appendChild(document.createTextNode(` ${p.reason}`));
      const at = pointerCell(p.pointer);
      if (!at) continue;
      if (at.x !== null) mark(at.frame, at.y * st.width + at.x, "sp-bad");
      else if (at.y !== null) for (let x = 0; x < st.width; x++) mark(at.frame, at.y * st.width + x, "sp-bad");
      else bad[at.frame] = true;
    }
    // The labels whose counts differ between the frames (what a move can never change).
    const start = counts(doc.start.flat()), goal = counts(doc.goal.flat());
    const labels = Array.from(new Set([...start.keys(), ...goal.keys()])).sort((a, b) => a - b);
    const differ = labels.filter((v) => (start.get(v) || 0) !== (goal.get(v) || 0));
    if (!differ.length) return;
    for (const f of FRAMES) doc[f].flat().forEach((v, i) => {
      if (differ.includes(v)) mark(f, i, "sp-count");
    });
    const t = table(details, [["Label", "start / goal", null]]);
    t.id = "sp-counts";
    for (const v of labels) {
      const tr = node("tr", differ.includes(v) ? { class: "sp-differ", "data-label": v } : { "data-label": v }, null, t);
      const th = node("th", {}, null, tr);
      if (!isNumbered()) node("span", { class: "sp-swatch", style: `background:${fill(v, false)}` }, null, th);
      th.appendChild(document.createTextNode(String(v)));
      node("td", {}, `${start.get(v) || 0} / ${goal.get(v) || 0}`, tr);
    }
    node("p", { class: "sp-why", id: "sp-count-text" },
      "A move only slides a tile: the number of tiles of each label never changes, so a goal whose"
      + ` counts differ from the start's can never be reached. Label${differ.length > 1 ? "s" : ""}`
      + ` ${differ.join(", ")} differ${differ.length > 1 ? "" : "s"}: their tiles are marked in both frames.`, details);
  }

  function show(answer, c) {
    const details = c.details;
    while (details.firstChild) details.removeChild(details.firstChild);
    marks = { start: {}, goal: {} };
    bad = { start: false, goal: false };
    solution = null;
    stepAt = 0;
    const r = answer.result, doc = answer.doc;
    if (!r.ok) {
      if (r.status === 422 || r.status === 400) showInvalid(r, doc, details);
      else c.verdict("error", `the service answered ${r.status}: ${c.problem(r)}`);
    } else {
      const a = r.body || {};
      if (a.status === "solved") showSolved(a, details);
      else if (a.status === "unsolvable") showUnsolvable(a, doc, details);
      else if (a.status === "undecided" || a.status === "unknown") showUndecided(a, details, doc, answer.limit);
      else if (a.status === "invalid") showInvalid({ status: 422, body: { problems: a.problems } }, doc, details);
      else c.verdict("error", `an answer the page does not know: ${a.status}`);
    }
    render();
  }

  // ----- the shell's interface ------------------------------------------------------------
  function levelDocument() {
    return { game: "sliding-puzzle", format_version: 1, width: st.width, height: st.height,
      start: rows(st.start), goal: rows(st.goal) };
  }

  function load(doc) {
    const [low, high] = cfg.limits.side;
    for (const side of ["width", "height"]) {
      const v = doc[side];
      if (!Number.isInteger(v) || v < low || v > high) throw new Error(`/${side}: expected a whole number ${low}..${high}`);
    }
    const next = {
      width: doc.width,
      height: doc.height,
      start: checkRows(doc.start, "/start", doc.width, doc.height),
      goal: checkRows(doc.goal, "/goal", doc.width, doc.height),
    };
    st = next;
    cursor = null;
    typed = "";
    stepAt = 0;
    solution = null;
    marks = { start: {}, goal: {} };
    bad = { start: false, goal: false };
    const top = Math.max(...st.start);
    if (!isNumbered()) colours = Math.min(cfg.limits.colours[1], Math.max(cfg.limits.colours[0], top));
    $("sp-colours").value = String(colours);
    render(true);
  }

  function init(root, doc, c) {
    ctx = c;
    cfg = c.data;
    colours = cfg.defaults.colours;
    const d = cfg.defaults, n = d.width * d.height;
    const goal = standard("numbered", n, colours);
    st = { width: d.width, height: d.height, start: goal.slice(), goal };
    FRAMES.forEach(wireBoard);
    $("sp-width").addEventListener("change", resize);
    $("sp-height").addEventListener("change", resize);
    $("sp-kind").addEventListener("change", () => reset($("sp-kind").value));
    $("sp-colours").addEventListener("change", () => {
      colours = Number($("sp-colours").value);
      reset("colour");
    });
    $("sp-standard").addEventListener("click", standardGoal);
    $("sp-shuffle").addEventListener("click", shuffleStart);
    $("sp-copy").addEventListener("click", () => {
      st.start = st.goal.slice();
      edited();
    });
    if (doc) load(doc);
    else render(true);
  }

  LevelgenEditor.register({
    init,
    document: levelDocument,
    load,
    async check(doc, c) {
      const cached = longAnswers.get(JSON.stringify(doc));
      if (cached) return cached;
      let limit = cfg.timeLimit;
      let result = await c.call("/v1/solve", { level: doc, time_limit: limit });
      const a = result.body;
      if (result.ok && a && a.method === "tables" && ["undecided", "unknown"].includes(a.status)) {
        // The pattern databases of this goal are not built yet: they are built once (then
        // kept), so the check waits for them, up to the longer limit.
        c.message(`building the pattern databases of this goal (once, up to ${cfg.longTimeLimit} s)…`);
        limit = cfg.longTimeLimit;
        result = await c.call("/v1/solve", { level: doc, time_limit: limit });
        c.message("");
      }
      return { result, doc, limit };
    },
    show,
    certified(answer) {
      const r = answer && answer.result;
      return r && r.ok && r.body && r.body.status === "solved" ? r.body.level : null;
    },
  });
})();
