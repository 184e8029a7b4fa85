"use strict";
// The editor's shell (levelgen/player/editor.py): history, files, the library, and a check
// through the service's public API after every change; the last change's answer alone is shown.
//
// A family's script calls LevelgenEditor.register(part) with:
//   init(root, doc, ctx)  build its controls in root from doc (a level file, or null: a new one)
//   document()            the level being edited, as the game's file (no certificate needed)
//   load(doc)             show another level (throw an Error whose message says why it cannot)
//   check(doc, ctx)       a Promise of the answer: it calls ctx.call(path, body)
//   show(answer, ctx)     the verdict (ctx.verdict(state, text)), details and board highlights
//   certified(answer)     the level file with its certificate from the answer, or null
// and calls ctx.changed() after each edit.
(() => {
  const DATA = JSON.parse(document.getElementById("levelgen-level").textContent);
  const API = DATA.apiBase || "";
  const DEBOUNCE_MS = 60; // edits closer than this are checked once
  const SPINNER_MS = 250; // a check slower than this shows the spinner
  const HISTORY = 500; // undo steps kept
  const PENDING = "levelgen-edit:"; // sessionStorage: a file opened for another game's editor
  const $ = (id) => document.getElementById(id);

  let part = null;
  let current = null; // the JSON text of the level being edited
  let undoStack = [];
  let redoStack = [];
  let seq = 0; // the number of the latest change; only its answer is shown
  let timer = 0;
  let changedAt = 0;
  let answer = null; // the latest answer and the text it answers
  let answered = null;
  const latencies = [];

  function verdict(state, text) {
    $("verdict").dataset.state = state;
    $("verdict-text").textContent = text;
  }

  function message(text, isError) {
    const box = $("message");
    box.textContent = text;
    box.classList.toggle("error", Boolean(isError));
  }

  // One call to the service that served the page: {status, ok, body} (body: JSON or null).
  async function call(path, body, method) {
    const headers = { Accept: "application/json, application/problem+json" };
    const key = $("api-key").value.trim();
    if (key) headers["X-API-Key"] = key;
    const init = { method: method || (body === undefined ? "GET" : "POST"), headers };
    if (body !== undefined) {
      headers["Content-Type"] = "application/json";
      init.body = JSON.stringify(body);
    }
    const response = await fetch(API + path, init);
    let parsed = null;
    try {
      parsed = await response.json();
    } catch (_) {
      parsed = null;
    }
    return { status: response.status, ok: response.ok, body: parsed };
  }

  // The one line of a problem document (RFC 9457), with the place it names.
  function problem(result) {
    const body = result && result.body;
    if (!body || typeof body !== "object") return `the service answered ${result.status}`;
    const where = body.pointer ? ` (at ${body.pointer})` : "";
    if (Array.isArray(body.problems) && body.problems.length) {
      return body.problems.map((p) => `${p.pointer || "/"}: ${p.reason}`).join("; ");
    }
    return `${body.detail || body.message || body.title || result.status}${where}`;
  }

  const ctx = {
    data: DATA.family,
    game: DATA.game,
    details: null,
    call,
    problem,
    verdict,
    message,
    changed,
    element: $,
  };

  function updateButtons() {
    $("undo").disabled = undoStack.length === 0;
    $("redo").disabled = redoStack.length === 0;
  }

  function schedule() {
    changedAt = performance.now();
    updateButtons();
    clearTimeout(timer);
    const mine = ++seq;
    $("verdict").dataset.state = "pending";
    timer = setTimeout(() => run(mine), DEBOUNCE_MS);
  }

  async function run(mine) {
    const text = current;
    const spin = setTimeout(() => {
      if (mine === seq) $("verdict").classList.add("busy");
    }, Math.max(0, SPINNER_MS - DEBOUNCE_MS));
    let found;
    try {
      found = await part.check(JSON.parse(text), ctx);
    } catch (error) {
      found = { error: String((error && error.message) || error) };
    }
    clearTimeout(spin);
    if (mine !== seq) return; // a newer change is being checked: its answer wins
    $("verdict").classList.remove("busy");
    answer = found;
    answered = text;
    if (found && found.error) {
      verdict("error", `no answer from the service: ${found.error}`);
    } else {
      try {
        part.show(found, ctx);
      } catch (error) {
        verdict("error", `the answer could not be shown: ${error.message || error}`);
      }
    }
    const took = performance.now() - changedAt;
    latencies.push(took);
    $("latency").textContent = `${Math.round(took)} ms`;
    document.body.dataset.checked = String(mine);
  }

  // After an edit: keep the previous level for undo and check the new one.
  function changed() {
    const now = JSON.stringify(part.document());
    if (now === current) return;
    if (current !== null) {
      undoStack.push(current);
      if (undoStack.length > HISTORY) undoStack.shift();
    }
    redoStack = [];
    current = now;
    schedule();
  }

  function travel(from, to) {
    if (!from.length) return;
    to.push(current);
    current = from.pop();
    part.load(JSON.parse(current));
    schedule();
  }

  function openDocument(doc, origin) {
    if (!doc || typeof doc !== "object" || Array.isArray(doc)) {
      message(`${origin}: not a level file (a JSON object)`, true);
      return;
    }
    const game = typeof doc.game === "string" ? doc.game : DATA.game;
    if (game !== DATA.game) {
      if (!DATA.games.includes(game)) {
        message(`${origin}: a level of game ${JSON.stringify(game)}, which has no editor`, true);
        return;
      }
      sessionStorage.setItem(PENDING + game, JSON.stringify(doc));
      location.assign(encodeURIComponent(game));
      return;
    }
    try {
      part.load(doc);
    } catch (error) {
      message(`${origin}: ${error.message || error}`, true);
      return;
    }
    message(`opened ${origin}`);
    changed();
  }

  // The level with its certificate, from the answer to the current level (asked again when the
  // latest answer is for an older one); null when the service gives none (not proved solvable).
  async function certified() {
    let found = answered === current ? answer : null;
    if (!found || found.error) found = await part.check(JSON.parse(current), ctx);
    return part.certified(found);
  }

  function download(doc, name) {
    const blob = new Blob([JSON.stringify(doc, null, 2) + "\n"], { type: "application/json" });
    const link = document.createElement("a");
    link.href = URL.createObjectURL(blob);
    link.download = name;
    document.body.appendChild(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(link.href), 1000);
  }

  function wire() {
    $("undo").addEventListener("click", () => travel(undoStack, redoStack));
    $("redo").addEventListener("click", () => travel(redoStack, undoStack));
    document.addEventListener("keydown", (event) => {
      const target = event.target;
      if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA")) return;
      if (!(event.ctrlKey || event.metaKey)) return;
      const key = event.key.toLowerCase();
      if (key === "z" && !event.shiftKey) travel(undoStack, redoStack);
      else if ((key === "z" && event.shiftKey) || key === "y") travel(redoStack, undoStack);
      else return;
      event.preventDefault();
    });
    $("open-file").addEventListener("change", (event) => {
      const file = event.target.files && event.target.files[0];
      if (!file) return;
      file.text().then((text) => {
        let doc;
        try {
          doc = JSON.parse(text);
        } catch (error) {
          message(`${file.name}: not JSON (${error.message})`, true);
          return;
        }
        openDocument(doc, file.name);
      });
      event.target.value = "";
    });
    $("open-stored").addEventListener("click", async () => {
      const id = $("level-id").value.trim();
      if (!id) return;
      const got = await call(`/v1/levels/${encodeURIComponent(id)}`);
      if (!got.ok) message(`stored level ${id}: ${problem(got)}`, true);
      else openDocument(got.body, id);
    });
    $("download").addEventListener("click", async () => {
      const level = await certified();
      if (level) {
        download(level, `${DATA.game}-level.json`);
        message("downloaded with its certificate");
      } else {
        download(JSON.parse(current), `${DATA.game}-draft.json`);
        message("downloaded as a draft: not proved solvable, so no certificate");
      }
    });
    $("save").addEventListener("click", async () => {
      const level = await certified();
      if (!level) {
        message("not saved: only a level proved solvable (with its certificate) is stored", true);
        return;
      }
      const put = await call(`/v1/levels/${encodeURIComponent(level.id)}`, level, "PUT");
      if (put.ok) message(`saved to the library as ${level.id}`);
      else message(`not saved: ${problem(put)}`, true);
    });
  }

  function start(registered) {
    part = registered;
    ctx.details = $("details");
    let doc = DATA.document;
    const pending = sessionStorage.getItem(PENDING + DATA.game);
    if (pending) {
      sessionStorage.removeItem(PENDING + DATA.game);
      doc = JSON.parse(pending);
    }
    part.init($("family"), doc, ctx);
    wire();
    changed();
  }

  window.LevelgenEditor = {
    register: start,
    // For tests and measurements: the level, the latest answer, the times from change to verdict.
    level: () => JSON.parse(current),
    answer: () => answer,
    latencies: () => latencies.slice(),
  };
})();
