"use strict";
// The snakes-and-ladders editor (levelgen/ladders/editor.py) inside the editor's shell
// (levelgen/player/editor.js).  The board is SVG (a viewBox: it scales to any width), squares
// numbered boustrophedon from the bottom left as in levelgen.ladders.rules.square_cell.
// A drag from square a to square b (pointer events: mouse, pen, touch) adds the jump a -> b:
// a ladder when b > a, a snake when b < a (replacing a jump that starts on a).  A click or tap
// selects a jump (its drawing, or a square it starts or ends on); Delete removes it.  The
// From/To form adds a jump from the keyboard; on the focused board the arrows select one.  Each change is checked with POST /v1/solve.
// On the board: .sl-path (squares the fewest rolls visit), .sl-trap (trapped squares of an
// unsolvable board), .sl-bad (a jump a problem points at), .sl-selected (the selected jump).
(() => {
  const SVGNS = "http://www.w3.org/2000/svg";
  let ctx = null;
  let cfg = null;
  let state = null; // {width, height, faces, overshoot, ladders: [[a, b]], snakes: [[a, b]]}
  let selected = null; // {kind: "ladders" | "snakes", index}
  let marks = { path: [], trap: [], bad: [] }; // from the latest answer
  let drag = null; // {from, x, y, moved, jump}
  const $ = (id) => document.getElementById(id);

  function el(name, attrs, parent) {
    const e = document.createElementNS(SVGNS, name);
    for (const k in attrs) e.setAttribute(k, attrs[k]);
    if (parent) parent.appendChild(e);
    return e;
  }

  const squares = () => state.width * state.height;

  function cell(square) {
    const W = state.width, H = state.height, CS = cfg.cell, M = cfg.margin;
    const row = Math.floor((square - 1) / W), off = (square - 1) % W;
    const x = row % 2 === 0 ? off : W - 1 - off;
    return [M + x * CS, M + (H - 1 - row) * CS];
  }

  function centre(square) {
    const [x, y] = cell(square);
    return [x + cfg.cell / 2, y + cfg.cell / 2];
  }

  // The square under a point of the page, or 0 off the board.
  function squareAt(clientX, clientY) {
    const board = $("sl-board");
    const m = board.getScreenCTM();
    if (!m) return 0;
    const p = board.createSVGPoint();
    p.x = clientX;
    p.y = clientY;
    const q = p.matrixTransform(m.inverse());
    const col = Math.floor((q.x - cfg.margin) / cfg.cell);
    const top = Math.floor((q.y - cfg.margin) / cfg.cell);
    if (col < 0 || col >= state.width || top < 0 || top >= state.height) return 0;
    const row = state.height - 1 - top;
    const off = row % 2 === 0 ? col : state.width - 1 - col;
    return row * state.width + off + 1;
  }

  function allJumps() {
    const out = [];
    state.ladders.forEach((j, index) => out.push({ kind: "ladders", index, from: j[0], to: j[1] }));
    state.snakes.forEach((j, index) => out.push({ kind: "snakes", index, from: j[0], to: j[1] }));
    return out;
  }

  function isBad(kind, index) {
    return marks.bad.some((b) => b.kind === kind && b.index === index);
  }

  function drawLadder(g, a, b) {
    const CS = cfg.cell;
    const [x0, y0] = centre(a), [x1, y1] = centre(b);
    const len = Math.hypot(x1 - x0, y1 - y0) || 1;
    const ox = ((-(y1 - y0) / len) * CS) / 6, oy = (((x1 - x0) / len) * CS) / 6;
    el("line", { x1: x0, y1: y0, x2: x1, y2: y1, class: "sl-hit" }, g);
    el("line", { x1: x0 + ox, y1: y0 + oy, x2: x1 + ox, y2: y1 + oy }, g);
    el("line", { x1: x0 - ox, y1: y0 - oy, x2: x1 - ox, y2: y1 - oy }, g);
    const rungs = Math.max(2, Math.floor(len / (CS / 2)));
    for (let i = 1; i < rungs; i++) {
      const fx = x0 + ((x1 - x0) * i) / rungs, fy = y0 + ((y1 - y0) * i) / rungs;
      el("line", { x1: fx + ox, y1: fy + oy, x2: fx - ox, y2: fy - oy }, g);
    }
  }

  function drawSnake(g, a, b) {
    // A gentle S from the head (a) to the tail (b): two cubic curves bent either side.
    const CS = cfg.cell;
    const [x0, y0] = centre(a), [x1, y1] = centre(b);
    const len = Math.hypot(x1 - x0, y1 - y0) || 1;
    const nx = (-(y1 - y0) / len) * CS * 0.45, ny = ((x1 - x0) / len) * CS * 0.45;
    const mx = (x0 + x1) / 2, my = (y0 + y1) / 2;
    const at = (f, s) => `${(x0 + (x1 - x0) * f + nx * s).toFixed(1)} ${(y0 + (y1 - y0) * f + ny * s).toFixed(1)}`;
    const d = `M${x0.toFixed(1)} ${y0.toFixed(1)}C${at(0.2, 1)} ${at(0.3, 1)} ${mx.toFixed(1)} ${my.toFixed(1)}` +
      `C${at(0.7, -1)} ${at(0.8, -1)} ${x1.toFixed(1)} ${y1.toFixed(1)}`;
    el("path", { d, class: "sl-hit" }, g);
    el("path", { d, class: "sl-body-edge" }, g);
    el("path", { d, class: "sl-body" }, g);
    el("circle", { cx: x0, cy: y0, r: CS / 6, class: "sl-head" }, g);
  }

  function draw() {
    const board = $("sl-board");
    const W = state.width, H = state.height, CS = cfg.cell, M = cfg.margin, N = squares();
    while (board.firstChild) board.removeChild(board.firstChild);
    board.setAttribute("viewBox", `0 0 ${2 * M + W * CS} ${2 * M + H * CS}`);
    const path = new Map();
    marks.path.forEach((s, i) => {
      if (!path.has(s)) path.set(s, i);
    });
    const trap = new Set(marks.trap);
    for (let s = 1; s <= N; s++) {
      const [x, y] = cell(s);
      const shade = ((x - M) / CS + (y - M) / CS) % 2 ? "sl-dark" : "sl-light";
      let cls = `sl-square ${s === N ? "sl-goal" : shade}`;
      if (trap.has(s)) cls += " sl-trap";
      if (path.has(s)) cls += " sl-path";
      el("rect", { x, y, width: CS, height: CS, class: cls, "data-square": s }, board);
      el("text", { x: x + 3, y: y + 12, class: "sl-number" }, board).textContent = s;
    }
    for (const j of allJumps()) {
      let cls = `sl-jump sl-${j.kind === "ladders" ? "ladder" : "snake"}`;
      if (isBad(j.kind, j.index)) cls += " sl-bad";
      if (selected && selected.kind === j.kind && selected.index === j.index) cls += " sl-selected";
      const g = el("g", { class: cls, "data-kind": j.kind, "data-index": j.index }, board);
      const ok = (s) => s >= 1 && s <= N;
      if (!ok(j.from) || !ok(j.to)) continue;
      if (j.kind === "ladders") drawLadder(g, j.from, j.to);
      else drawSnake(g, j.from, j.to);
    }
    for (const [s, i] of path) {
      if (s < 1 || s > N) continue;
      const [x, y] = centre(s);
      el("circle", { cx: x + CS / 4, cy: y + CS / 4, r: CS / 6, class: "sl-step" }, board);
      el("text", { x: x + CS / 4, y: y + CS / 4 + 4, class: "sl-step-text" }, board).textContent = i;
    }
    if (drag && drag.to && drag.to !== drag.from) {
      const [x0, y0] = centre(drag.from), [x1, y1] = centre(drag.to);
      el("line", { x1: x0, y1: y0, x2: x1, y2: y1, class: drag.to > drag.from ? "sl-preview up" : "sl-preview down" }, board);
    }
    const sel = selected && state[selected.kind][selected.index];
    $("sl-selected").textContent = sel
      ? `selected: ${selected.kind === "ladders" ? "ladder" : "snake"} ${sel[0]} → ${sel[1]}`
      : "no jump selected";
    $("sl-delete").disabled = !sel;
  }

  function addJump(from, to) {
    if (!from || !to || from === to) return;
    const kind = to > from ? "ladders" : "snakes";
    let replaced = false;
    for (const k of ["ladders", "snakes"]) {
      const i = state[k].findIndex((j) => j[0] === from);
      if (i >= 0) {
        state[k].splice(i, 1);
        replaced = true;
      }
    }
    state[kind].push([from, to]);
    selected = { kind, index: state[kind].length - 1 };
    ctx.message(`${replaced ? "replaced the jump from" : "added"} ${kind === "ladders" ? "a ladder" : "a snake"} ${from} → ${to}`);
    marks = { path: [], trap: [], bad: [] };
    draw();
    ctx.changed();
  }

  function deleteSelected() {
    if (!selected || !state[selected.kind][selected.index]) return;
    const [a, b] = state[selected.kind].splice(selected.index, 1)[0];
    ctx.message(`deleted the ${selected.kind === "ladders" ? "ladder" : "snake"} ${a} → ${b}`);
    selected = null;
    marks = { path: [], trap: [], bad: [] };
    draw();
    ctx.changed();
  }

  function selectAt(square, target) {
    const g = target && target.closest ? target.closest(".sl-jump") : null;
    if (g) {
      selected = { kind: g.dataset.kind, index: Number(g.dataset.index) };
    } else {
      const found = allJumps().find((j) => j.from === square) || allJumps().find((j) => j.to === square);
      selected = found ? { kind: found.kind, index: found.index } : null;
    }
    draw();
  }

  function wire() {
    const board = $("sl-board");
    board.addEventListener("pointerdown", (event) => {
      const from = squareAt(event.clientX, event.clientY);
      if (!from) return;
      event.preventDefault();
      try {
        board.setPointerCapture(event.pointerId);
      } catch (_) {
        // a pointer the browser no longer tracks: the drag still ends on pointerup
      }
      drag = { from, to: from, target: event.target, id: event.pointerId };
    });
    board.addEventListener("pointermove", (event) => {
      if (!drag || event.pointerId !== drag.id) return;
      const to = squareAt(event.clientX, event.clientY);
      if (to && to !== drag.to) {
        drag.to = to;
        draw();
      }
    });
    const finish = (event, cancelled) => {
      if (!drag || event.pointerId !== drag.id) return;
      const done = drag;
      drag = null;
      const to = cancelled ? 0 : squareAt(event.clientX, event.clientY) || done.to;
      if (!to) draw();
      else if (to === done.from) selectAt(done.from, done.target);
      else addJump(done.from, to);
    };
    board.addEventListener("pointerup", (event) => finish(event, false));
    board.addEventListener("pointercancel", (event) => finish(event, true));
    $("sl-delete").addEventListener("click", deleteSelected);
    document.addEventListener("keydown", (event) => {
      const t = event.target;
      if (t && (t.tagName === "INPUT" || t.tagName === "SELECT" || t.tagName === "TEXTAREA")) return;
      if (event.key === "Delete" || event.key === "Backspace") {
        if (!selected) return;
        event.preventDefault();
        deleteSelected();
      } else if (event.key === "Escape") {
        selected = null;
        draw();
      } else if (t === $("sl-board") && (event.key === "ArrowRight" || event.key === "ArrowLeft")) {
        // From the keyboard: the arrows step through the jumps, Delete removes the one selected.
        const jumps = allJumps();
        if (!jumps.length) return;
        event.preventDefault();
        const at = selected ? jumps.findIndex((j) => j.kind === selected.kind && j.index === selected.index) : -1;
        const step = event.key === "ArrowRight" ? 1 : jumps.length - 1;
        const next = jumps[at < 0 ? (step === 1 ? 0 : jumps.length - 1) : (at + step) % jumps.length];
        selected = { kind: next.kind, index: next.index };
        draw();
      }
    });
    const add = () => {
      const from = parseInt($("sl-from").value, 10), to = parseInt($("sl-to").value, 10);
      const N = squares();
      if (!(from >= 1 && from <= N && to >= 1 && to <= N) || from === to) {
        ctx.message(`a jump goes between two different squares 1..${N}`, true);
        return;
      }
      addJump(from, to);
    };
    $("sl-add").addEventListener("click", add);
    for (const id of ["sl-from", "sl-to"]) {
      $(id).addEventListener("keydown", (event) => {
        if (event.key === "Enter") add();
      });
    }
    const settings = () => {
      const [lo, hi] = cfg.limits.faces;
      const side = (v, old) => Math.max(1, Math.min(cfg.limits.side, parseInt(v, 10) || old));
      const width = side($("sl-width").value, state.width);
      const height = side($("sl-height").value, state.height);
      const faces = Math.max(lo, Math.min(hi, parseInt($("sl-faces").value, 10) || state.faces));
      const N = width * height;
      const keep = (j) => j[0] <= N && j[1] <= N;
      const dropped = state.ladders.filter((j) => !keep(j)).length + state.snakes.filter((j) => !keep(j)).length;
      state = {
        width, height, faces, overshoot: $("sl-overshoot").value,
        ladders: state.ladders.filter(keep), snakes: state.snakes.filter(keep),
      };
      if (dropped) ctx.message(`removed ${dropped} jump${dropped > 1 ? "s" : ""} off the ${width}x${height} board`);
      selected = null;
      marks = { path: [], trap: [], bad: [] };
      syncControls();
      draw();
      ctx.changed();
    };
    for (const id of ["sl-width", "sl-height", "sl-faces", "sl-overshoot"]) $(id).addEventListener("change", settings);
  }

  function syncControls() {
    $("sl-width").value = state.width;
    $("sl-height").value = state.height;
    $("sl-faces").value = state.faces;
    $("sl-overshoot").value = state.overshoot;
    $("sl-from").max = $("sl-to").max = squares();
  }

  const pairs = (list, where) => {
    if (list === undefined) return [];
    if (!Array.isArray(list)) throw new Error(`${where}: expected a list of [from, to] pairs`);
    return list.map((j, i) => {
      if (!Array.isArray(j) || j.length !== 2 || !j.every(Number.isInteger)) {
        throw new Error(`${where}/${i}: expected [from, to], two whole numbers`);
      }
      return [j[0], j[1]];
    });
  };

  function fromDoc(doc) {
    const d = cfg.defaults;
    if (!doc) return { ...d, ladders: [], snakes: [] };
    const board = doc.board, rules = doc.rules || {};
    if (!board || typeof board !== "object") throw new Error("/board: missing");
    const int = (v, where) => {
      if (!Number.isInteger(v)) throw new Error(`${where}: expected a whole number`);
      return v;
    };
    const overshoot = rules.overshoot === undefined ? d.overshoot : rules.overshoot;
    if (!cfg.overshoots.includes(overshoot)) throw new Error(`/rules/overshoot: one of ${cfg.overshoots.join(", ")}`);
    const width = int(board.width, "/board/width"), height = int(board.height, "/board/height");
    if (width < 1 || height < 1 || width > cfg.limits.side || height > cfg.limits.side) {
      throw new Error(`/board: sides 1..${cfg.limits.side}, got ${width}x${height}`);
    }
    return {
      width, height,
      faces: rules.faces === undefined ? d.faces : int(rules.faces, "/rules/faces"),
      overshoot,
      ladders: pairs(board.ladders, "/board/ladders"),
      snakes: pairs(board.snakes, "/board/snakes"),
    };
  }

  function documentOf() {
    return {
      game: ctx.game,
      format_version: 1,
      rules: { faces: state.faces, overshoot: state.overshoot },
      board: {
        width: state.width, height: state.height,
        ladders: state.ladders.map((j) => j.slice()), snakes: state.snakes.map((j) => j.slice()),
      },
    };
  }

  // Where a token goes with each roll of the sequence: [0, square after roll 1, ...].
  function visits(rolls) {
    const N = squares(), jumps = new Map([...state.ladders, ...state.snakes]);
    let at = 0;
    const out = [0];
    for (const r of rolls) {
      let t = at + r;
      if (t > N) t = state.overshoot === "exact" ? at : state.overshoot === "bounce" ? 2 * N - t : N;
      at = jumps.has(t) ? jumps.get(t) : t;
      out.push(at);
    }
    return out;
  }

  function node(tag, text, attrs) {
    const e = document.createElement(tag);
    if (text !== undefined) e.textContent = text;
    for (const k in attrs || {}) e.setAttribute(k, attrs[k]);
    return e;
  }

  function fractionNode(fraction) {
    const box = node("div", undefined, { id: "sl-fraction", "data-fraction": fraction, class: "sl-fraction" });
    const [p, q] = fraction.split("/");
    if (fraction.length <= 40) {
      box.textContent = fraction;
      return box;
    }
    const cut = (s) => (s.length > 14 ? `${s.slice(0, 6)}…${s.slice(-6)} (${s.length} digits)` : s);
    const more = node("details");
    more.appendChild(node("summary", `${cut(p)} / ${cut(q)}`));
    more.appendChild(node("code", fraction, { class: "sl-full" }));
    box.appendChild(more);
    return box;
  }

  // The cumulative chance to have finished after n rolls, with the median and p90 marked.
  function plot(distribution, median, p90) {
    const Wd = 320, Ht = 170, L = 34, R = 8, T = 10, B = 30;
    const svg = el("svg", { id: "sl-plot", viewBox: `0 0 ${Wd} ${Ht}`, role: "img",
      "aria-label": `chance to have finished after n rolls; median ${median}, p90 ${p90}` });
    const n = Math.max(1, distribution.length);
    const X = (k) => L + ((Wd - L - R) * k) / n, Y = (v) => T + (Ht - T - B) * (1 - v);
    el("rect", { x: L, y: T, width: Wd - L - R, height: Ht - T - B, class: "sl-plot-frame" }, svg);
    for (const v of [0, 0.5, 0.9, 1]) {
      el("line", { x1: L, x2: Wd - R, y1: Y(v), y2: Y(v), class: "sl-plot-grid" }, svg);
      el("text", { x: L - 4, y: Y(v) + 4, class: "sl-plot-label end" }, svg).textContent = v;
    }
    const pts = [`${X(0)},${Y(0)}`].concat(distribution.map((v, k) => `${X(k + 1).toFixed(1)},${Y(v).toFixed(1)}`));
    el("polyline", { points: pts.join(" "), class: "sl-plot-line" }, svg);
    for (const [name, k] of [["median", median], ["p90", p90]]) {
      if (!(k >= 1)) continue;
      el("line", { x1: X(k), x2: X(k), y1: T, y2: Ht - B, class: `sl-plot-mark sl-${name}` }, svg);
      el("text", { x: X(k) + 2, y: name === "median" ? T + 12 : T + 24, class: "sl-plot-label" }, svg).textContent = `${name} ${k}`;
    }
    el("text", { x: L, y: Ht - 8, class: "sl-plot-label" }, svg).textContent = "0";
    el("text", { x: Wd - R, y: Ht - 8, class: "sl-plot-label end" }, svg).textContent = `${n} rolls`;
    return svg;
  }

  function badJumps(problems) {
    const out = [];
    for (const p of problems || []) {
      const m = /^\/board\/(ladders|snakes)\/(\d+)/.exec(p.pointer || "");
      if (m) out.push({ kind: m[1], index: Number(m[2]) });
    }
    return out;
  }

  // The problems of a 422 answer: its list, or its one pointer and reason.
  function problemsOf(body) {
    if (Array.isArray(body.problems) && body.problems.length) return body.problems;
    if (typeof body.pointer !== "string") return [];
    const detail = String(body.detail || body.title || "");
    const prefix = `${body.pointer}: `;
    return [{ pointer: body.pointer, reason: detail.startsWith(prefix) ? detail.slice(prefix.length) : detail }];
  }

  function show(answer, c) {
    const details = c.details;
    details.textContent = "";
    marks = { path: [], trap: [], bad: [] };
    const body = answer.body || {};
    if (!answer.ok) {
      const problems = problemsOf(body);
      if (answer.status === 422 && problems.length) {
        c.verdict("invalid", `invalid: ${problems.map((p) => `${p.pointer || "/"}: ${p.reason}`).join("; ")}`);
        marks.bad = badJumps(problems);
        const list = node("ul", undefined, { id: "sl-problems" });
        for (const p of problems) {
          const li = node("li");
          li.appendChild(node("code", p.pointer || "/"));
          li.appendChild(document.createTextNode(` ${p.reason}`));
          list.appendChild(li);
        }
        details.appendChild(list);
      } else {
        c.verdict("error", c.problem(answer));
      }
      draw();
      return;
    }
    if (body.status === "solved" && body.level && body.level.analysis) {
      const a = body.level.analysis;
      const e = a.expected_rolls;
      c.verdict("solvable", `solvable: expected ${e.value.toFixed(4)} rolls, fewest ${a.fewest_rolls}`);
      const table = node("table");
      const row = (name, value, id) => {
        const tr = node("tr");
        tr.appendChild(node("th", name));
        const td = node("td", undefined, id ? { id } : {});
        if (value instanceof Node) td.appendChild(value);
        else td.textContent = value;
        tr.appendChild(td);
        table.appendChild(tr);
      };
      row("expected rolls", fractionNode(e.fraction));
      row("as a decimal", String(e.value), "sl-decimal");
      row("fewest rolls", String(a.fewest_rolls), "sl-fewest");
      const squaresVisited = visits(a.fewest_sequence);
      marks.path = squaresVisited;
      row("rolls", a.fewest_sequence.join(", "), "sl-sequence");
      row("squares", squaresVisited.join(" → "), "sl-visits");
      row("median, p90", `${a.median}, ${a.p90} rolls`);
      details.appendChild(table);
      details.appendChild(node("p", "Chance to have finished after n rolls:", { class: "meta" }));
      details.appendChild(plot(a.distribution, a.median, a.p90));
    } else if (body.status === "unsolvable") {
      c.verdict("unsolvable", body.message || "unsolvable");
      marks.trap = Array.isArray(body.trapped) ? body.trapped : [];
      const onBoard = marks.trap.filter((s) => s >= 1);
      details.appendChild(node("p", `Trapped squares (highlighted): ${onBoard.length}${marks.trap.includes(0) ? " and the start" : ""}.`, { id: "sl-trapped" }));
      const rolls = Array.isArray(body.rolls) ? body.rolls : [];
      details.appendChild(node("p", rolls.length ? `Rolls from the start to the first: ${rolls.join(", ")} (squares ${visits(rolls).join(" → ")}).` : "The token is trapped from the start."));
    } else {
      c.verdict("unknown", body.message || "undecided");
    }
    draw();
  }

  LevelgenEditor.register({
    init(root, doc, c) {
      ctx = c;
      cfg = c.data;
      state = fromDoc(doc);
      syncControls();
      wire();
      draw();
    },
    document: documentOf,
    load(doc) {
      const next = fromDoc(doc);
      state = next;
      selected = null;
      marks = { path: [], trap: [], bad: [] };
      syncControls();
      draw();
    },
    check(doc, c) {
      return c.call("/v1/solve", doc);
    },
    show,
    certified(answer) {
      return answer && answer.ok && answer.body && answer.body.status === "solved" ? answer.body.level : null;
    },
  });
})();
