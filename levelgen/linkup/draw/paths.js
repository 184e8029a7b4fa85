/* levelgen player: the exact path rule of Link-up, a port of levelgen.paths.find_path.
 *
 * A best path joins two tiles of one kind by horizontal and vertical unit steps whose interior
 * cells are all empty (holes; the ring of one cell around the board too when `outside`), turns
 * at most `maxTurns` times, has the fewest turns, then the fewest steps, and among those the
 * lexicographically smallest list of corner points (each point compared as [x, y]).
 *
 * How: levels from b say, for every cell c and turn budget r, whether b can be reached from c
 * with at most r turns starting along an axis (a sweep per row and column per level).  The
 * fewest turns t is the first level that reaches a; a depth-first walk from a then follows only
 * corners from which b is still reachable in the turns left, so it enumerates exactly the paths
 * of t turns, keeping the shortest and then the smallest corner list.
 */
(function (root) {
  "use strict";

  /* freeAt(x, y): whether a path may cross board cell x, y (default: it is empty, 0). */
  function Grid(rows, outside, freeAt) {
    const open = freeAt || ((x, y) => rows[y][x] === 0);
    this.h = rows.length;
    this.w = this.h ? rows[0].length : 0;
    this.pw = this.w + 3; // padded: the ring around the board and a guard column, never free,
    // so that a horizontal ray stops at the end of its row instead of wrapping into the next
    this.ph = this.h + 2;
    this.free = new Uint8Array(this.pw * this.ph);
    for (let y = -1; y <= this.h; y++) {
      for (let x = -1; x <= this.w; x++) {
        const inside = x >= 0 && y >= 0 && x < this.w && y < this.h;
        this.free[this.idx(x, y)] = inside ? (open(x, y) ? 1 : 0) : (outside ? 1 : 0);
      }
    }
  }
  Grid.prototype.idx = function (x, y) { return (y + 1) * this.pw + (x + 1); };

  /* levels[r] = [H, V]: H[c] when b is reachable from c with <= r turns starting horizontally
   * (every cell between c and the next corner free).  H[r] is H[r - 1] plus the cells seen
   * along a row from a free cell newly in V[r - 1] (they reach it straight, then turn), so
   * each level casts rays only from the cells the level before added: on a crowded board the
   * rays are short and the work is small.  stopAt: cells whose reach ends the levels early. */
  function levelsFrom(g, b, maxTurns, stopAt) {
    const n = g.pw * g.ph, free = g.free;
    const hStep = [1, -1], vStep = [g.pw, -g.pw];
    function cast(from, steps, mark, added) {
      for (const c0 of from) {
        for (const d of steps) {
          for (let c = c0 + d; c >= 0 && c < n; c += d) {
            if (!mark[c]) { mark[c] = 1; added.push(c); }
            if (!free[c]) break;
          }
        }
      }
    }
    const h0 = new Uint8Array(n), v0 = new Uint8Array(n), newH = [], newV = [];
    cast([b], hStep, h0, newH);
    cast([b], vStep, v0, newV);
    const levels = [[h0, v0]];
    let addedH = newH, addedV = newV;
    for (let r = 1; r <= maxTurns; r++) {
      const [lh, lv] = levels[r - 1];
      if (stopAt.length && stopAt.every((c) => lh[c] || lv[c])) break;
      const hr = Uint8Array.from(lh), vr = Uint8Array.from(lv), nextH = [], nextV = [];
      cast(addedV.filter((c) => free[c]), hStep, hr, nextH); // along a row, then turn
      cast(addedH.filter((c) => free[c]), vStep, vr, nextV); // along a column, then turn
      levels.push([hr, vr]);
      addedH = nextH;
      addedV = nextV;
    }
    return levels;
  }

  function lexLess(p, q) { // corner lists of one length, points as [x, y]
    for (let i = 0; i < p.length; i++) {
      if (p[i][0] !== q[i][0]) return p[i][0] < q[i][0];
      if (p[i][1] !== q[i][1]) return p[i][1] < q[i][1];
    }
    return false;
  }

  /* The best path between cells a and b ([x, y]) of a grid, kinds ignored: {corners, turns,
   * length} or null. */
  function findLink(g, a, b, maxTurns) {
    if (a[0] === b[0] && a[1] === b[1]) return null;
    const ai = g.idx(a[0], a[1]), bi = g.idx(b[0], b[1]);
    const levels = levelsFrom(g, bi, maxTurns, [ai]);
    const t = levels.length - 1;
    if (!levels[t][0][ai] && !levels[t][1][ai]) return null;
    const pw = g.pw, free = g.free;
    const pt = (c) => { const x = c % pw; return [x - 1, (c - x) / pw - 1]; };
    const bx = bi % pw, by = (bi - bx) / pw;
    const steps = [[1, 0], [-1, 0], [pw, 1], [-pw, 1]]; // [offset, axis]: 0 horizontal
    let bestLen = Infinity, best = null;
    const trail = [ai];
    function walk(at, length, r, prevAxis) {
      for (const [step, axis] of steps) {
        if (axis === prevAxis) continue;
        let c = at + step, n = length + 1;
        if (r === 0) {
          while (c >= 0 && c < free.length && free[c]) { c += step; n++; }
          if (c === bi && n <= bestLen) {
            const corners = trail.concat([bi]).map(pt);
            if (n < bestLen || lexLess(corners, best)) { bestLen = n; best = corners; }
          }
          continue;
        }
        const ok = levels[r - 1][axis === 0 ? 1 : 0];
        while (c >= 0 && c < free.length && free[c]) {
          if (ok[c]) {
            const cx = c % pw, cy = (c - cx) / pw;
            if (n + Math.abs(cx - bx) + Math.abs(cy - by) <= bestLen) {
              trail.push(c);
              walk(c, n, r - 1, axis);
              trail.pop();
            }
          }
          c += step; n++;
        }
      }
    }
    walk(ai, 0, t, -1);
    if (best === null) throw new Error("levels and walk disagree");
    return { corners: best, turns: best.length - 2, length: bestLen };
  }

  /* Stacked layers (levelgen.layers): rows is layer 0 (walls -1, holes 0), layers the layers
   * above it, bottom first.  A cell's height is the number of tiles stacked from layer 0 up; its
   * top tile plays.  Tops on layers i and j, |i - j| <= 1, link through a path at height
   * h = max(i, j): interior cells are board cells of height <= h, or the ring when outside.
   * Without layers every tile is on layer 0 and this is the classic rule. */
  function Stacks(rows, layers) {
    const h = rows.length, w = h ? rows[0].length : 0;
    this.rows = rows; this.w = w; this.h = h; this.count = 1 + (layers ? layers.length : 0);
    this.height = []; this.top = [];
    for (let y = 0; y < h; y++) {
      const hr = [], tr = [];
      for (let x = 0; x < w; x++) {
        let n = 0, top = rows[y][x];
        if (top >= 1) {
          n = 1;
          for (const layer of layers || []) { if (layer[y][x] >= 1) { n++; top = layer[y][x]; } else break; }
        }
        hr.push(n); tr.push(top);
      }
      this.height.push(hr); this.top.push(tr);
    }
    this.grids = [];
  }
  /* The grid of a path at height h: board cells whose stack is at most h high (no walls). */
  Stacks.prototype.grid = function (h, outside) {
    if (!this.grids[h]) {
      this.grids[h] = new Grid(this.rows, outside,
        (x, y) => this.rows[y][x] !== -1 && this.height[y][x] <= h);
    }
    return this.grids[h];
  };
  /* The height a path between the tops at a and b runs at, or -1 (layers too far apart). */
  Stacks.prototype.linkHeight = function (a, b) {
    const ha = this.height[a[1]][a[0]], hb = this.height[b[1]][b[0]];
    return !ha || !hb || Math.abs(ha - hb) > 1 ? -1 : Math.max(ha, hb) - 1;
  };

  /* The best path joining the top tiles a and b (layer 0 `rows`, optional upper `layers`), or
   * null when they are not two distinct tiles of one kind, their layers are more than one
   * apart, or no path of <= maxTurns turns exists. */
  function findPath(rows, a, b, maxTurns, outside, layers) {
    const s = new Stacks(rows, layers);
    const ka = s.top[a[1]][a[0]], kb = s.top[b[1]][b[0]];
    if ((a[0] === b[0] && a[1] === b[1]) || ka < 1 || ka !== kb) return null;
    const h = s.linkHeight(a, b);
    if (h < 0) return null;
    const g = s.grid(h, outside), free = Uint8Array.from(g.free);
    const ends = Object.create(g);
    ends.free = free; // the two ends are never crossed (a best path does not cross them)
    free[g.idx(a[0], a[1])] = 0;
    free[g.idx(b[0], b[1])] = 0;
    return findLink(ends, a, b, maxTurns);
  }

  /* Every linkable pair of top tiles ([[ax, ay], [bx, by]] with a before b in row order). */
  function legalPairs(rows, maxTurns, outside, layers) {
    const s = new Stacks(rows, layers), out = [], tiles = [];
    for (let y = 0; y < s.h; y++) for (let x = 0; x < s.w; x++) if (s.height[y][x]) tiles.push([x, y]);
    for (let j = 0; j < tiles.length; j++) {
      const b = tiles[j], kind = s.top[b[1]][b[0]];
      const byHeight = new Map(); // the partners of b, by the height their path runs at
      for (const a of tiles.slice(0, j)) {
        if (s.top[a[1]][a[0]] !== kind) continue;
        const h = s.linkHeight(a, b);
        if (h < 0) continue;
        if (!byHeight.has(h)) byHeight.set(h, []);
        byHeight.get(h).push(a);
      }
      const found = [];
      for (const [h, partners] of byHeight) {
        const g = s.grid(h, outside), cells = partners.map((a) => g.idx(a[0], a[1]));
        const levels = levelsFrom(g, g.idx(b[0], b[1]), maxTurns, cells);
        const [hl, vl] = levels[levels.length - 1];
        partners.forEach((a, i) => { if (hl[cells[i]] || vl[cells[i]]) found.push(a); });
      }
      found.sort((p, q) => p[1] - q[1] || p[0] - q[0]);
      for (const a of found) out.push([a, b]);
    }
    return out;
  }

  root.LinkupPaths = { findPath: findPath, legalPairs: legalPairs };
})(typeof window !== "undefined" ? window : globalThis);
