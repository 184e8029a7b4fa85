/* levelgen player: the sliding rules of Onet, a port of levelgen.slide.slide_cells.
 *
 * Cells are a row-major array of width * height values: -1 a wall (never moves, blocks), 0 an
 * empty cell (holes too: tiles may slide into them), >= 1 a tile.  The functions never compare
 * two tile values, so the player slides tile identities and reads their kinds afterwards.
 * Tiles never enter the ring: they stop at the board edge, at walls and at other tiles.
 *
 * down / up / left / right: every tile moves that way as far as it can within its column or
 *   row, keeping its order; walls cut a line into segments, each packed against its end.
 * center / apart: each row is cut into a left half, columns 0 .. ceil(W / 2) - 1 (the middle
 *   column of an odd width is in the left half), and a right half; center packs both halves
 *   against the middle, apart against the edges; walls cut halves into segments as above.
 * up-left / up-right / down-left / down-right: rounds of one-cell steps until a round moves
 *   nothing; a round visits the rows from the corner's row side and in each row the cells
 *   from the corner's column side; a tile steps diagonally when that cell is empty, else
 *   vertically, else horizontally, else stays.
 */
(function (root) {
  "use strict";

  const CORNERS = { "up-left": [-1, -1], "up-right": [1, -1], "down-left": [-1, 1], "down-right": [1, 1] };
  const RULES = ["none", "down", "up", "left", "right", "up-left", "up-right", "down-left",
    "down-right", "center", "apart"];

  /* The wall-free runs of cells tiles pack along, each listed from its packing end. */
  function segments(cells, width, height, rule) {
    const lines = [];
    const range = (n, f) => Array.from({ length: n }, (_, i) => f(i));
    if (rule === "down" || rule === "up") {
      for (let x = 0; x < width; x++) {
        const col = range(height, (y) => y * width + x);
        lines.push(rule === "down" ? col.reverse() : col);
      }
    } else if (rule === "left" || rule === "right") {
      for (let y = 0; y < height; y++) {
        const row = range(width, (x) => y * width + x);
        lines.push(rule === "left" ? row : row.reverse());
      }
    } else { // center, apart: the middle column of an odd width belongs to the left half
      const split = Math.floor((width + 1) / 2);
      for (let y = 0; y < height; y++) {
        const left = range(split, (x) => y * width + x);
        const right = range(width - split, (x) => y * width + split + x);
        if (rule === "center") lines.push(left.reverse(), right);
        else lines.push(left, right.reverse());
      }
    }
    const out = [];
    for (const line of lines) {
      let run = [];
      for (const i of line) {
        if (cells[i] === -1) { if (run.length > 1) out.push(run); run = []; }
        else run.push(i);
      }
      if (run.length > 1) out.push(run);
    }
    return out;
  }

  function slideSegments(cells, segs) {
    const out = cells.slice();
    for (const seg of segs) {
      const tiles = seg.filter((i) => cells[i] > 0).map((i) => cells[i]);
      seg.forEach((i, k) => { out[i] = k < tiles.length ? tiles[k] : 0; });
    }
    return out;
  }

  function slideCorner(cells, width, height, dx, dy) {
    const out = cells.slice(), order = [];
    for (let r = 0; r < height; r++) {
      const y = dy > 0 ? height - 1 - r : r;
      for (let c = 0; c < width; c++) order.push(y * width + (dx > 0 ? width - 1 - c : c));
    }
    const diag = dy * width + dx, vert = dy * width, horiz = dx;
    let moved = true;
    while (moved) {
      moved = false;
      for (const i of order) {
        const v = out[i];
        if (v <= 0) continue;
        const x = i % width, y = (i - x) / width;
        const vy = y + dy >= 0 && y + dy < height, hx = x + dx >= 0 && x + dx < width;
        let j;
        if (vy && hx && out[i + diag] === 0) j = i + diag;
        else if (vy && out[i + vert] === 0) j = i + vert;
        else if (hx && out[i + horiz] === 0) j = i + horiz;
        else continue;
        out[j] = v;
        out[i] = 0;
        moved = true;
      }
    }
    return out;
  }

  /* The cells after every tile has slid under `rule` (a new array; "none" gives a copy). */
  function slideCells(cells, width, height, rule) {
    if (rule === "none") return cells.slice();
    if (CORNERS[rule]) return slideCorner(cells, width, height, CORNERS[rule][0], CORNERS[rule][1]);
    if (RULES.indexOf(rule) < 0) throw new Error(`unknown slide rule ${rule}`);
    return slideSegments(cells, segments(cells, width, height, rule));
  }

  root.LinkupSlide = { slideCells: slideCells, rules: RULES };
})(typeof window !== "undefined" ? window : globalThis);
