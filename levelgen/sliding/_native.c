/* levelgen.sliding._native: optional compiled twins of the sliding-puzzle searches.
 *
 * - build_table: levelgen.sliding.pdb.build_table, a pattern database by breadth-first search
 *   over (placement, blank region) states;
 * - search: levelgen.sliding.idastar.python_bounded_search, one IDA* iteration with the
 *   additive heuristic (pattern tables, crossing counts, the mirror image when it applies).
 *
 * Each is the same algorithm as its Python function, step for step (read those functions and
 * their module docstrings first): the same ranking of placements, the same move order
 * (U D L R, the undoing move skipped), the same node counting, so the answers are the same:
 * the same table bytes, and the same first solution, count, nodes and next threshold.
 * tests/sliding/test_native.py compares them.  Cells are at most 64, so a class's cells fit in
 * one 64-bit mask.  Nothing here keeps state between calls.
 *
 * When this file cannot be compiled, levelgen runs the Python functions alone (an optional
 * extension), and uses this module only when its API number matches levelgen.sliding.native.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define API 3
#define MAXCELLS 64
#define MAXCLASSES 65
#define MAXPATH 4096
#define POLL_NODES (1LL << 16)
#define MAX_VALUE 255

typedef uint64_t mask;

static uint64_t BIN[65][65];

static void init_binomials(void)
{
    for (int n = 0; n <= 64; n++) {
        BIN[n][0] = 1;
        for (int k = 1; k <= 64; k++)
            BIN[n][k] = n == 0 ? 0 : BIN[n - 1][k - 1] + BIN[n - 1][k];
    }
}

/* A plain SWAR popcount: without -mpopcnt the builtin is a library call. */
static inline int popcount(mask m)
{
    m = m - ((m >> 1) & 0x5555555555555555ULL);
    m = (m & 0x3333333333333333ULL) + ((m >> 2) & 0x3333333333333333ULL);
    m = (m + (m >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((m * 0x0101010101010101ULL) >> 56);
}
static inline int lowest(mask m) { return __builtin_ctzll(m); }
static inline mask below(int p) { return p >= 64 ? ~(mask)0 : (((mask)1 << p) - 1); }

/* Boards of at most 16 cells rank and unrank classes of several tiles by tables:
 * PEXT8[m][x] gathers the bits of x at the set bits of m (low first), PDEP8[m][x] scatters the
 * low bits of x to the set bits of m, and RANK16[x] is the colex rank of the 16-bit mask x
 * (the sum of C(position, t) over its set bits, as in rank_of).  Filled once at import. */
static uint8_t PEXT8[256][256], PDEP8[256][256];
static uint32_t RANK16[1 << 16];

static void init_tables(void)
{
    for (int m = 0; m < 256; m++) {
        for (int x = 0; x < 256; x++) {
            int out = 0, k = 0;
            for (int b = 0; b < 8; b++) {
                if ((m >> b) & 1) {
                    if ((x >> b) & 1)
                        out |= 1 << k;
                    k++;
                }
            }
            PEXT8[m][x] = (uint8_t)out;
            out = 0;
            k = 0;
            for (int b = 0; b < 8; b++) {
                if ((m >> b) & 1) {
                    if ((x >> k) & 1)
                        out |= 1 << b;
                    k++;
                }
            }
            PDEP8[m][x] = (uint8_t)out;
        }
    }
    for (uint32_t x = 0; x < (1u << 16); x++) {
        uint32_t r = 0;
        int t = 0;
        for (int b = 0; b < 16; b++)
            if ((x >> b) & 1)
                r += (uint32_t)BIN[b][++t];
        RANK16[x] = r;
    }
}

static inline uint32_t pext16(uint32_t x, uint32_t m)
{
    uint32_t lo = PEXT8[m & 255][x & 255];
    uint32_t hi = PEXT8[m >> 8][(x >> 8) & 255];
    return lo | (hi << __builtin_popcount(m & 255));
}

static inline uint32_t pdep16(uint32_t x, uint32_t m)
{
    int low = __builtin_popcount(m & 255);
    uint32_t lo = PDEP8[m & 255][x & ((1u << low) - 1) & 255];
    uint32_t hi = PDEP8[m >> 8][(x >> low) & 255];
    return lo | (hi << 8);
}

typedef struct {
    int k;                   /* classes in the pattern */
    int cls[MAXCLASSES];     /* their ids, in ranking order */
    int cnt[MAXCLASSES];     /* tiles per class */
    uint64_t radix[MAXCLASSES];
    uint64_t entries;
    int small;               /* at most 16 cells: classes of several tiles go by the tables */
    const uint8_t *table;    /* entries bytes (search only) */
} Pattern;

static int make_pattern(Pattern *p, const uint8_t *cls, Py_ssize_t k, const uint8_t *cnt, int n)
{
    int free_cells = n;
    p->k = (int)k;
    p->entries = 1;
    p->small = n <= 16;
    for (Py_ssize_t j = 0; j < k; j++) {
        if (cls[j] == 0 || cls[j] >= MAXCLASSES || cnt[j] > free_cells) {
            PyErr_SetString(PyExc_ValueError, "bad pattern classes or counts");
            return -1;
        }
        p->cls[j] = cls[j];
        p->cnt[j] = cnt[j];
        p->radix[j] = BIN[free_cells][cnt[j]];
        free_cells -= cnt[j];
        if (p->radix[j] && p->entries > UINT64_MAX / p->radix[j]) {
            PyErr_SetString(PyExc_OverflowError, "pattern too large");
            return -1;
        }
        p->entries *= p->radix[j];
    }
    return 0;
}

/* pdb.rank: the index of the placement whose class j has the cells masks[cls[j]]. */
static uint64_t rank_of(const Pattern *p, const mask *masks)
{
    uint64_t index = 0;
    mask used = 0;
    for (int j = 0; j < p->k; j++) {
        mask m = masks[p->cls[j]];
        if (p->small && p->cnt[j] > 1) {
            uint32_t free_cells = (uint32_t)(~used & 0xFFFF);
            index = index * p->radix[j] + RANK16[pext16((uint32_t)m, free_cells)];
            used |= m;
            continue;
        }
        uint64_t r = 0;
        int t = 0;
        mask rest = m;
        while (rest) {
            int pos = lowest(rest);
            t++;
            int compact = pos - popcount(used & below(pos));
            r += BIN[compact][t];
            rest &= rest - 1;
        }
        index = index * p->radix[j] + r;
        used |= m;
    }
    return index;
}

/* pdb.unrank: the cell masks (out[j] for the pattern's j-th class) of placement `index`. */
static void unrank_of(const Pattern *p, uint64_t index, mask *out)
{
    uint64_t digits[MAXCLASSES];
    for (int j = p->k - 1; j >= 0; j--) {
        digits[j] = index % p->radix[j];
        index /= p->radix[j];
    }
    mask used = 0;
    for (int j = 0; j < p->k; j++) {
        uint64_t r = digits[j];
        mask m = 0;
        for (int t = p->cnt[j]; t > 0; t--) {
            int q = t - 1;
            while (BIN[q + 1][t] <= r)
                q++;
            r -= BIN[q][t];
            /* the cell that is the q-th (from 0) among the cells not in used */
            int cell = -1, seen = -1;
            while (seen < q) {
                cell++;
                if (!((used >> cell) & 1))
                    seen++;
            }
            m |= (mask)1 << cell;
        }
        out[j] = m;
        used |= m;
    }
}

/* Each class's combinations by rank, for the builder: combos[j][r] is the mask of compact
 * positions of rank r (colex order is increasing mask order, which Gosper's step walks).
 * NULL for a class of more than COMBO_LIMIT combinations (then unrank_of's loop is used). */
#define COMBO_LIMIT (1 << 20)

typedef struct {
    mask *combos[MAXCLASSES];
} Combos;

static int make_combos(Combos *c, const Pattern *p)
{
    for (int j = 0; j < p->k; j++) {
        c->combos[j] = NULL;
        uint64_t size = p->radix[j];
        int k = p->cnt[j];
        if (size <= COMBO_LIMIT && k >= 1) {
            mask *list = malloc(size * sizeof(mask));
            if (!list)
                return -1;
            mask m = ((mask)1 << k) - 1;
            for (uint64_t r = 0; r < size; r++) {
                list[r] = m;
                mask low = m & (~m + 1), ripple = m + low;
                m = ripple | (((m ^ ripple) >> 2) / low);
            }
            c->combos[j] = list;
        }
    }
    return 0;
}

static void free_combos(Combos *c, int k)
{
    for (int j = 0; j < k; j++)
        free(c->combos[j]);
}

/* unrank_of by the tabulated combinations (the same answer); every class must have its table. */
static void unrank_fast(const Pattern *p, const Combos *c, int n, uint64_t index, mask *out)
{
    uint64_t digits[MAXCLASSES];
    for (int j = p->k - 1; j >= 0; j--) {
        digits[j] = index % p->radix[j];
        index /= p->radix[j];
    }
    mask used = 0;
    for (int j = 0; j < p->k; j++) {
        mask compact = c->combos[j][digits[j]], m = 0;
        if (n <= 16) {
            m = pdep16((uint32_t)compact, (uint32_t)(~used & 0xFFFF));
        } else {
            /* pdep of compact over the free cells, a byte of cells at a time */
            mask open = ~used & below(n);
            for (int shift = 0; shift < n && compact; shift += 8) {
                int byte = (int)((open >> shift) & 255);
                m |= (mask)PDEP8[byte][compact & 255] << shift;
                compact >>= popcount((mask)byte);
            }
        }
        out[j] = m;
        used |= m;
    }
}

static void neighbour_masks(int w, int h, mask *nb)
{
    for (int i = 0; i < w * h; i++) {
        int x = i % w, y = i / w;
        mask m = 0;
        if (y > 0) m |= (mask)1 << (i - w);
        if (y < h - 1) m |= (mask)1 << (i + w);
        if (x > 0) m |= (mask)1 << (i - 1);
        if (x < w - 1) m |= (mask)1 << (i + 1);
        nb[i] = m;
    }
}

static mask flood(int cell, mask blocked, const mask *nb)
{
    mask region = (mask)1 << cell, todo = region;
    while (todo) {
        int c = lowest(todo);
        todo &= todo - 1;
        mask grow = nb[c] & ~blocked & ~region;
        region |= grow;
        todo |= grow;
    }
    return region;
}

/* ----- build_table ------------------------------------------------------------------------ */

/* For large tables of boards of at most REGION_CELLS cells the blank regions of every
 * occupancy are tabulated once per build: rep[occ][cell] is the lowest cell of the region of `cell` among the cells
 * not in `occ`, region[occ][cell] that region (the same answers as flood, by lookup). */
#define REGION_CELLS 16
/* Tables of at least this many (placement, blank region) states are built layer by layer over
 * bit sets (build_layered) instead of through a queue of states. */
#define LAYERED_STATES ((uint64_t)1 << 31)

typedef struct {
    uint8_t *rep;
    uint16_t *region;
} Regions;

static int make_regions(Regions *r, int n, const mask *nb)
{
    size_t count = ((size_t)1 << n) * (size_t)n;
    r->rep = malloc(count);
    r->region = malloc(count * sizeof(uint16_t));
    if (!r->rep || !r->region)
        return -1;
    for (mask occ = 0; occ < ((mask)1 << n); occ++) {
        mask left = ~occ & below(n);
        uint8_t *rep = r->rep + occ * (size_t)n;
        uint16_t *reg = r->region + occ * (size_t)n;
        while (left) {
            int c = lowest(left);
            mask part = flood(c, occ, nb);
            left &= ~part;
            for (mask m = part; m; m &= m - 1) {
                rep[lowest(m)] = (uint8_t)c;
                reg[lowest(m)] = (uint16_t)part;
            }
        }
    }
    return 0;
}

static int check_board(int w, int h, Py_ssize_t len)
{
    if (w < 2 || h < 2 || w * h > MAXCELLS || len != w * h) {
        PyErr_SetString(PyExc_ValueError, "a board of 2..64 cells, the goal one byte per cell");
        return -1;
    }
    return 0;
}

/* should_stop (a callable or None) asked every POLL_STATES states; 1 when it said stop
 * (or raised: error set to 1), 0 to go on.  Called with the interpreter released. */
#define POLL_STATES (1ULL << 12)

static int poll_stop(PyObject *should_stop, int *error)
{
    if (!should_stop)
        return 0;
    PyGILState_STATE gil = PyGILState_Ensure();
    int stop = 0;
    PyObject *r = PyObject_CallNoArgs(should_stop);
    if (!r) {
        *error = 1;
        stop = 1;
    } else {
        stop = PyObject_IsTrue(r);
        Py_DECREF(r);
        if (stop < 0) {
            *error = 1;
            stop = 1;
        }
    }
    PyGILState_Release(gil);
    return stop;
}

static PyObject *build_layered(const Pattern *p, int w, int h, const mask *masks, int blank,
                               PyObject *should_stop);

static PyObject *build_table(PyObject *self, PyObject *args)
{
    int w, h, method = 0;
    Py_buffer goal, cls, cnt;
    PyObject *should_stop = Py_None;
    if (!PyArg_ParseTuple(args, "iiy*y*y*|Oi", &w, &h, &goal, &cls, &cnt, &should_stop, &method))
        return NULL;
    if (should_stop == Py_None)
        should_stop = NULL;
    PyObject *result = NULL;
    uint8_t *table = NULL, *seen = NULL;
    uint32_t *queue = NULL;
    Pattern p;
    int n = w * h, oom = 0;
    Regions regions = {NULL, NULL};
    Combos combos;
    memset(&combos, 0, sizeof combos);
    p.k = 0;
    if (check_board(w, h, goal.len) < 0)
        goto done;
    if (cls.len != cnt.len || cls.len < 1 || cls.len >= MAXCLASSES) {
        PyErr_SetString(PyExc_ValueError, "classes and counts differ in length");
        goto done;
    }
    if (make_pattern(&p, cls.buf, cls.len, cnt.buf, n) < 0)
        goto done;
    uint64_t states = p.entries * (uint64_t)n;
    mask nb[MAXCELLS];
    neighbour_masks(w, h, nb);
    mask masks[MAXCLASSES];
    memset(masks, 0, sizeof masks);
    const uint8_t *g = goal.buf;
    int blank = -1;
    for (int i = 0; i < n; i++) {
        if (g[i] == 0)
            blank = i;
        for (int j = 0; j < p.k; j++)
            if (g[i] == p.cls[j])
                masks[j] |= (mask)1 << i;
    }
    if (blank < 0) {
        PyErr_SetString(PyExc_ValueError, "the goal has no blank");
        goto done;
    }
    if (method == 2 || (method == 0 && states >= LAYERED_STATES)) {
        if (states >= ((uint64_t)1 << 38)) {
            PyErr_SetString(PyExc_OverflowError, "pattern too large to build");
            goto done;
        }
        result = build_layered(&p, w, h, masks, blank, should_stop);
        goto done;
    }
    if (states >= ((uint64_t)1 << 32)) {
        PyErr_SetString(PyExc_OverflowError, "pattern too large to build");
        goto done;
    }
    int error = 0, stopped = 0;
    uint64_t popped = 0;
    /* Worth its 65,536 x 16 floods only for large tables. */
    int tabulated = n <= REGION_CELLS && states >= ((uint64_t)1 << 22);
    if (tabulated && make_regions(&regions, n, nb) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    int fast = make_combos(&combos, &p) == 0;
    for (int j = 0; fast && j < p.k; j++)
        fast = combos.combos[j] != NULL;
    table = malloc(p.entries);
    seen = calloc((size_t)(states / 8 + 1), 1);
    size_t cap = 1024, head = 0, tail = 0;
    queue = malloc(cap * sizeof(uint32_t));
    if (!table || !seen || !queue) {
        PyErr_NoMemory();
        goto done;
    }
    memset(table, MAX_VALUE, p.entries);
    Py_BEGIN_ALLOW_THREADS
    mask occupied = 0;
    for (int j = 0; j < p.k; j++)
        occupied |= masks[j];
    mask region = flood(blank, occupied, nb);
    /* rank_of reads masks by class id; here masks are by position j: map through a scratch */
    mask byclass[MAXCLASSES];
    memset(byclass, 0, sizeof byclass);
    for (int j = 0; j < p.k; j++)
        byclass[p.cls[j]] = masks[j];
    uint64_t start = rank_of(&p, byclass) * n + lowest(region);
    table[start / n] = 0;
    seen[start >> 3] |= (uint8_t)(1 << (start & 7));
    queue[tail++] = (uint32_t)start;
    /* Layer by layer: [head, layer_end) is the current layer. */
    size_t layer_end = tail;
    int depth = 0;
    while (head < tail) {
        depth++;
        uint8_t value = depth < MAX_VALUE ? (uint8_t)depth : MAX_VALUE;
        size_t end = layer_end;
        for (; head < end; head++) {
            if (++popped % POLL_STATES == 0 && poll_stop(should_stop, &error)) {
                stopped = 1;
                goto out_of_memory;
            }
            uint64_t state = queue[head];
            uint64_t index = state / n;
            int rep = (int)(state % n);
            mask pm[MAXCLASSES];
            if (fast)
                unrank_fast(&p, &combos, n, index, pm);
            else
                unrank_of(&p, index, pm);
            mask occ = 0;
            for (int j = 0; j < p.k; j++)
                occ |= pm[j];
            mask reg = tabulated ? regions.region[occ * (size_t)n + rep] : flood(rep, occ, nb);
            /* The successors first (with their visited bits and table bytes fetched ahead:
             * the build waits on memory more than it computes), then the new ones kept. */
            uint64_t found[4 * MAXCELLS];
            int nfound = 0;
            for (int j = 0; j < p.k; j++) {
                mask rest = pm[j];
                while (rest) {
                    int q = lowest(rest);
                    rest &= rest - 1;
                    mask targets = nb[q] & reg;
                    while (targets) {
                        int r = lowest(targets);
                        targets &= targets - 1;
                        mask moved = ((mask)1 << q) | ((mask)1 << r);
                        for (int i = 0; i < p.k; i++)
                            byclass[p.cls[i]] = pm[i];
                        byclass[p.cls[j]] = pm[j] ^ moved;
                        mask after = occ ^ moved;
                        int nrep = tabulated ? regions.rep[after * (size_t)n + q]
                                             : lowest(flood(q, after, nb));
                        uint64_t ns = rank_of(&p, byclass) * n + nrep;
                        __builtin_prefetch(&seen[ns >> 3], 1);
                        __builtin_prefetch(&table[ns / n], 1);
                        found[nfound++] = ns;
                    }
                }
            }
            for (int f = 0; f < nfound; f++) {
                uint64_t ns = found[f];
                if (seen[ns >> 3] & (1 << (ns & 7)))
                    continue;
                seen[ns >> 3] |= (uint8_t)(1 << (ns & 7));
                if (tail == cap) {
                    size_t bigger = cap * 2;
                    uint32_t *grown = realloc(queue, bigger * sizeof(uint32_t));
                    if (!grown) {
                        oom = 1;
                        goto out_of_memory;
                    }
                    queue = grown;
                    cap = bigger;
                }
                queue[tail++] = (uint32_t)ns;
                uint64_t ni = ns / n;
                if (table[ni] == MAX_VALUE && value < MAX_VALUE)
                    table[ni] = value;
            }
        }
        layer_end = tail;
    }
out_of_memory:
    Py_END_ALLOW_THREADS
    if (oom) {
        PyErr_NoMemory();
        goto done;
    }
    if (error)
        goto done;
    if (stopped) {
        Py_INCREF(Py_None);
        result = Py_None;
        goto done;
    }
    result = PyBytes_FromStringAndSize((const char *)table, (Py_ssize_t)p.entries);
done:
    free(regions.rep);
    free(regions.region);
    free_combos(&combos, p.k);
    free(table);
    free(seen);
    free(queue);
    PyBuffer_Release(&goal);
    PyBuffer_Release(&cls);
    PyBuffer_Release(&cnt);
    return result;
}

/* ----- build_layered ---------------------------------------------------------------------- */

/* The flood of `cell` among the cells not in `blocked`, all cells of a row at once: the same
 * region as flood, by shifts of the whole mask. */
static inline mask flood_rows(int cell, mask blocked, int w, mask all, mask not_left,
                              mask not_right)
{
    mask open = all & ~blocked, region = (mask)1 << cell, before;
    do {
        before = region;
        region |= ((region << w) | (region >> w) | ((region & not_right) << 1) |
                   ((region & not_left) >> 1)) & open;
    } while (region != before);
    return region;
}

/* build_table's breadth-first search for tables too large for a queue of states (the 6-tile
 * patterns of the 5x5 board: 127,512,000 placements times 25 blank cells): the same states
 * (placement index * n + the lowest cell of the blank's region), the same layers, so the same
 * table bytes, kept as three bit sets of every state (seen, this layer, the next) and the
 * table; each layer is a scan of its bit set.  should_stop is asked every POLL_STATES states
 * (None returned when it says stop). */
static PyObject *build_layered(const Pattern *p, int w, int h, const mask *masks, int blank,
                               PyObject *should_stop)
{
    int n = w * h, k = p->k, error = 0, stopped = 0;
    uint64_t states = p->entries * (uint64_t)n, words = states / 64 + 1, popped = 0;
    uint8_t *table = malloc(p->entries);
    uint64_t *seen = calloc(words, 8), *layer = calloc(words, 8), *next = calloc(words, 8);
    Combos combos;
    memset(&combos, 0, sizeof combos);
    PyObject *result = NULL;
    int fast = make_combos(&combos, p) == 0;
    for (int j = 0; fast && j < k; j++)
        fast = combos.combos[j] != NULL;
    if (!table || !seen || !layer || !next) {
        PyErr_NoMemory();
        goto done;
    }
    memset(table, MAX_VALUE, p->entries);
    mask all = below(n), not_left = 0, not_right = 0;
    for (int i = 0; i < n; i++) {
        if (i % w)
            not_left |= (mask)1 << i;
        if (i % w != w - 1)
            not_right |= (mask)1 << i;
    }
    Py_BEGIN_ALLOW_THREADS
    mask occupied = 0, byclass[MAXCLASSES];
    memset(byclass, 0, sizeof byclass);
    for (int j = 0; j < k; j++) {
        occupied |= masks[j];
        byclass[p->cls[j]] = masks[j];
    }
    mask region = flood_rows(blank, occupied, w, all, not_left, not_right);
    uint64_t start = rank_of(p, byclass) * n + lowest(region);
    table[start / n] = 0;
    seen[start >> 6] |= (uint64_t)1 << (start & 63);
    layer[start >> 6] |= (uint64_t)1 << (start & 63);
    int depth = 0, more = 1;
    while (more && !stopped) {
        depth++;
        more = 0;
        uint8_t value = depth < MAX_VALUE ? (uint8_t)depth : MAX_VALUE;
        for (uint64_t word = 0; word < words && !stopped; word++) {
            uint64_t bits = layer[word];
            while (bits) {
                uint64_t state = word * 64 + (uint64_t)lowest(bits);
                bits &= bits - 1;
                if (++popped % POLL_STATES == 0 && poll_stop(should_stop, &error)) {
                    stopped = 1;
                    break;
                }
                uint64_t index = state / n;
                int rep = (int)(state % n);
                mask pm[MAXCLASSES];
                if (fast)
                    unrank_fast(p, &combos, n, index, pm);
                else
                    unrank_of(p, index, pm);
                mask occ = 0;
                for (int j = 0; j < k; j++) {
                    occ |= pm[j];
                    byclass[p->cls[j]] = pm[j];
                }
                mask reg = flood_rows(rep, occ, w, all, not_left, not_right);
                /* The successors first, their bits fetched ahead (the build waits on memory
                 * more than it computes), then the new ones kept. */
                uint64_t found[4 * MAXCELLS];
                int nfound = 0;
                for (int j = 0; j < k; j++) {
                    mask rest = pm[j];
                    while (rest) {
                        int q = lowest(rest);
                        rest &= rest - 1;
                        mask targets = 0, qbit = (mask)1 << q;
                        targets = ((qbit << w) | (qbit >> w) | ((qbit & not_right) << 1) |
                                   ((qbit & not_left) >> 1)) & reg;
                        while (targets) {
                            int r = lowest(targets);
                            targets &= targets - 1;
                            mask moved = qbit | ((mask)1 << r);
                            byclass[p->cls[j]] = pm[j] ^ moved;
                            mask after = occ ^ moved;
                            int nrep = lowest(flood_rows(q, after, w, all, not_left, not_right));
                            uint64_t ns = rank_of(p, byclass) * n + (uint64_t)nrep;
                            byclass[p->cls[j]] = pm[j];
                            __builtin_prefetch(&seen[ns >> 6], 1);
                            found[nfound++] = ns;
                        }
                    }
                }
                for (int f = 0; f < nfound; f++) {
                    uint64_t ns = found[f], bit = (uint64_t)1 << (ns & 63);
                    if (seen[ns >> 6] & bit)
                        continue;
                    seen[ns >> 6] |= bit;
                    next[ns >> 6] |= bit;
                    more = 1;
                    uint64_t ni = ns / n;
                    if (table[ni] == MAX_VALUE && value < MAX_VALUE)
                        table[ni] = value;
                }
            }
        }
        uint64_t *swap = layer;
        layer = next;
        next = swap;
        memset(next, 0, words * 8);
    }
    Py_END_ALLOW_THREADS
    if (error)
        goto done;
    if (stopped) {
        Py_INCREF(Py_None);
        result = Py_None;
        goto done;
    }
    result = PyBytes_FromStringAndSize((const char *)table, (Py_ssize_t)p->entries);
done:
    free_combos(&combos, k);
    free(table);
    free(seen);
    free(layer);
    free(next);
    return result;
}

/* ----- search ----------------------------------------------------------------------------- */

typedef struct {
    int w, h, n;
    uint8_t cells[MAXCELLS];
    uint8_t goal[MAXCELLS];
    mask masks[MAXCLASSES];
    mask mirror[MAXCLASSES];
    int npat;
    Pattern *pats;
    int group_of[MAXCLASSES];
    int values[MAXCLASSES], mvalues[MAXCLASSES];
    int sum, msum, cross_sum;
    int is_cross[MAXCLASSES];
    int cross[MAXCLASSES];
    mask goal_mask[MAXCLASSES];
    int nlines;
    mask lines[16];
    int reflect, nmirror, blank0;
    uint8_t tcell[MAXCELLS], tclass[MAXCLASSES];
    long long threshold;
    long long count_cap, count, nodes, node_limit;
    long long next;
    int wnum, wden; /* f = g * wden + h * wnum (1 and 1: IDA*) */
    PyObject *should_stop;
    int stopped, done, error;
    int depth;
    char path[MAXPATH];
    int have_first, first_len;
    char first[MAXPATH];
    int steps[MAXCELLS][4]; /* per blank cell: target per direction U D L R, -1 when none */
} Ctx;

static const char DIRS[4] = {'U', 'D', 'L', 'R'};
static const int OPP[5] = {1, 0, 3, 2, -1}; /* index 4: no last move */

static int lookup(const Ctx *c, int g, const mask *m)
{
    const Pattern *p = &c->pats[g];
    return p->table[rank_of(p, m)];
}

static int crossing_term(const Ctx *c, int cls, mask m)
{
    int total = 0;
    for (int i = 0; i < c->nlines; i++) {
        int d = popcount(m & c->lines[i]) - popcount(c->goal_mask[cls] & c->lines[i]);
        total += d < 0 ? -d : d;
    }
    return total;
}

static inline int hvalue(const Ctx *c)
{
    if (c->reflect)
        return c->cross_sum + (c->sum > c->msum ? c->sum : c->msum);
    return c->cross_sum + c->sum;
}

typedef struct {
    int cls, gi, old_value, gm, old_mirror, old_cross;
} Saved;

/* Slide the tile at t into the blank at blank, the heuristic's terms updated. */
static inline void slide(Ctx *c, int blank, int t, Saved *sv)
{
    int cls = c->cells[t];
    mask moved = ((mask)1 << t) | ((mask)1 << blank);
    c->cells[blank] = (uint8_t)cls;
    c->cells[t] = 0;
    c->masks[cls] ^= moved;
    c->masks[0] ^= moved;
    sv->cls = cls;
    sv->gi = c->group_of[cls];
    sv->gm = -1;
    sv->old_value = sv->old_mirror = sv->old_cross = 0;
    if (sv->gi >= 0) {
        sv->old_value = c->values[sv->gi];
        c->values[sv->gi] = lookup(c, sv->gi, c->masks);
        c->sum += c->values[sv->gi] - sv->old_value;
    }
    if (c->reflect) {
        int mc = c->tclass[cls];
        c->mirror[mc] ^= ((mask)1 << c->tcell[t]) | ((mask)1 << c->tcell[blank]);
        sv->gm = c->group_of[mc];
        if (sv->gm >= 0) {
            sv->old_mirror = c->mvalues[sv->gm];
            c->mvalues[sv->gm] = lookup(c, sv->gm, c->mirror);
            c->msum += c->mvalues[sv->gm] - sv->old_mirror;
        }
    }
    if (c->is_cross[cls]) {
        sv->old_cross = c->cross[cls];
        c->cross[cls] = crossing_term(c, cls, c->masks[cls]);
        c->cross_sum += c->cross[cls] - sv->old_cross;
    }
}

/* Undo slide(c, blank, t, sv). */
static inline void unslide(Ctx *c, int blank, int t, const Saved *sv)
{
    int cls = sv->cls;
    mask moved = ((mask)1 << t) | ((mask)1 << blank);
    c->cells[t] = (uint8_t)cls;
    c->cells[blank] = 0;
    c->masks[cls] ^= moved;
    c->masks[0] ^= moved;
    if (sv->gi >= 0) {
        c->sum += sv->old_value - c->values[sv->gi];
        c->values[sv->gi] = sv->old_value;
    }
    if (c->reflect) {
        int mc = c->tclass[cls];
        c->mirror[mc] ^= ((mask)1 << c->tcell[t]) | ((mask)1 << c->tcell[blank]);
        if (sv->gm >= 0) {
            c->msum += sv->old_mirror - c->mvalues[sv->gm];
            c->mvalues[sv->gm] = sv->old_mirror;
        }
    }
    if (c->is_cross[cls]) {
        c->cross_sum += sv->old_cross - c->cross[cls];
        c->cross[cls] = sv->old_cross;
    }
}

static void visit(Ctx *c, int g, int blank, int last)
{
    c->nodes++;
    if (c->node_limit >= 0 && c->nodes > c->node_limit) {
        c->stopped = 1;
        return;
    }
    if (c->should_stop && c->nodes % POLL_NODES == 0) {
        PyObject *r = PyObject_CallNoArgs(c->should_stop);
        if (!r) {
            c->error = 1;
            return;
        }
        int stop = PyObject_IsTrue(r);
        Py_DECREF(r);
        if (stop < 0) {
            c->error = 1;
            return;
        }
        if (stop) {
            c->stopped = 1;
            return;
        }
    }
    int hv = hvalue(c);
    long long f = (long long)g * c->wden + (long long)hv * c->wnum;
    if (f > c->threshold) {
        if (c->next < 0 || f < c->next)
            c->next = f;
        return;
    }
    if (hv == 0 && memcmp(c->cells, c->goal, (size_t)c->n) == 0) {
        c->count++;
        if (!c->have_first) {
            c->have_first = 1;
            c->first_len = c->depth;
            memcpy(c->first, c->path, (size_t)c->depth);
        }
        if (c->count >= c->count_cap)
            c->done = 1;
        return;
    }
    /* The moves in the order U D L R; a weighted search (wnum > wden) tries the children
     * of smaller h first (ties in that order): it dives towards the goal. */
    int order[4], nmoves = 0;
    for (int d = 0; d < 4; d++)
        if (d != OPP[last] && c->steps[blank][d] >= 0)
            order[nmoves++] = d;
    if (c->wnum > c->wden && nmoves > 1) {
        int hs[4];
        for (int i = 0; i < nmoves; i++) {
            Saved sv;
            int t = c->steps[blank][order[i]];
            slide(c, blank, t, &sv);
            hs[i] = hvalue(c);
            unslide(c, blank, t, &sv);
        }
        for (int i = 1; i < nmoves; i++) {
            int d = order[i], hv2 = hs[i], j = i - 1;
            while (j >= 0 && hs[j] > hv2) {
                order[j + 1] = order[j];
                hs[j + 1] = hs[j];
                j--;
            }
            order[j + 1] = d;
            hs[j + 1] = hv2;
        }
    }
    for (int i = 0; i < nmoves; i++) {
        int d = order[i], t = c->steps[blank][d];
        Saved sv;
        slide(c, blank, t, &sv);
        c->path[c->depth++] = DIRS[d];
        visit(c, g + 1, t, d);
        c->depth--;
        unslide(c, blank, t, &sv);
        if (c->stopped || c->done || c->error)
            return;
    }
}

/* What setup borrowed for a search: the patterns, their tables' buffers, the sequence. */
typedef struct {
    Pattern *pats;
    Py_buffer *tables;
    Py_ssize_t ntables;
    PyObject *seq;
} Held;

static void release_held(Held *hd)
{
    for (Py_ssize_t g = 0; g < hd->ntables; g++)
        PyBuffer_Release(&hd->tables[g]);
    free(hd->tables);
    free(hd->pats);
    Py_XDECREF(hd->seq);
}

/* The heuristic's terms (masks, mirror image, pattern values, crossing terms) of the frame in
 * c->cells, computed from scratch. */
static void load_terms(Ctx *c)
{
    memset(c->masks, 0, sizeof c->masks);
    for (int i = 0; i < c->n; i++)
        c->masks[c->cells[i]] |= (mask)1 << i;
    if (c->reflect) {
        memset(c->mirror, 0, sizeof c->mirror);
        for (int k = 1; k < c->nmirror; k++) {
            mask m = c->masks[c->tclass[k]], t = 0;
            while (m) {
                t |= (mask)1 << c->tcell[lowest(m)];
                m &= m - 1;
            }
            c->mirror[k] = t;
        }
    }
    c->sum = c->msum = c->cross_sum = 0;
    for (int g = 0; g < c->npat; g++) {
        c->values[g] = lookup(c, g, c->masks);
        c->sum += c->values[g];
        if (c->reflect) {
            c->mvalues[g] = lookup(c, g, c->mirror);
            c->msum += c->mvalues[g];
        }
    }
    for (int k = 1; k < MAXCLASSES; k++) {
        if (c->is_cross[k]) {
            c->cross[k] = crossing_term(c, k, c->masks[k]);
            c->cross_sum += c->cross[k];
        }
    }
}

/* Fill c from the arguments search and astar share (the board, goal, start, patterns with
 * their tables, crossing classes, transposition): 0, or -1 with the error set. */
static int setup(Ctx *c, int w, int h, Py_buffer *goal, Py_buffer *start, PyObject *patterns,
                 Py_buffer *crossing, Py_buffer *tcell, Py_buffer *tclass, Held *hd)
{
    if (check_board(w, h, goal->len) < 0)
        return -1;
    int n = w * h;
    if (start->len != n) {
        PyErr_SetString(PyExc_ValueError, "the start is not one byte per cell");
        return -1;
    }
    c->w = w;
    c->h = h;
    c->n = n;
    memcpy(c->goal, goal->buf, (size_t)n);
    memcpy(c->cells, start->buf, (size_t)n);
    int blank = -1;
    for (int i = 0; i < n; i++) {
        if (c->cells[i] >= MAXCLASSES || c->goal[i] >= MAXCLASSES) {
            PyErr_SetString(PyExc_ValueError, "a class out of range");
            return -1;
        }
        if (c->cells[i] == 0)
            blank = i;
        c->goal_mask[c->goal[i]] |= (mask)1 << i;
    }
    if (blank < 0) {
        PyErr_SetString(PyExc_ValueError, "the start has no blank");
        return -1;
    }
    c->blank0 = blank;
    for (int i = 0; i < n; i++) {
        int x = i % w, y = i / w;
        c->steps[i][0] = y > 0 ? i - w : -1;
        c->steps[i][1] = y < h - 1 ? i + w : -1;
        c->steps[i][2] = x > 0 ? i - 1 : -1;
        c->steps[i][3] = x < w - 1 ? i + 1 : -1;
    }
    for (int k = 0; k < w - 1; k++) {
        mask m = 0;
        for (int y = 0; y < h; y++)
            for (int x = 0; x <= k; x++)
                m |= (mask)1 << (y * w + x);
        c->lines[c->nlines++] = m;
    }
    for (int k = 0; k < h - 1; k++) {
        mask m = 0;
        for (int y = 0; y <= k; y++)
            for (int x = 0; x < w; x++)
                m |= (mask)1 << (y * w + x);
        c->lines[c->nlines++] = m;
    }
    for (int i = 0; i < MAXCLASSES; i++)
        c->group_of[i] = -1;
    hd->seq = PySequence_Fast(patterns, "patterns must be a sequence");
    if (!hd->seq)
        return -1;
    Py_ssize_t np = PySequence_Fast_GET_SIZE(hd->seq);
    if (np >= MAXCLASSES) {
        PyErr_SetString(PyExc_ValueError, "too many patterns");
        return -1;
    }
    hd->pats = calloc((size_t)(np ? np : 1), sizeof(Pattern));
    hd->tables = calloc((size_t)(np ? np : 1), sizeof(Py_buffer));
    if (!hd->pats || !hd->tables) {
        PyErr_NoMemory();
        return -1;
    }
    Pattern *pats = hd->pats;
    for (Py_ssize_t g = 0; g < np; g++) {
        PyObject *item = PySequence_Fast_GET_ITEM(hd->seq, g);
        Py_buffer pc, pn;
        if (!PyArg_ParseTuple(item, "y*y*y*", &pc, &pn, &hd->tables[g]))
            return -1;
        hd->ntables++;
        int bad = pc.len != pn.len || pc.len < 1 || pc.len >= MAXCLASSES;
        if (!bad && make_pattern(&pats[g], pc.buf, pc.len, pn.buf, n) < 0)
            bad = 2;
        if (!bad && (uint64_t)hd->tables[g].len != pats[g].entries)
            bad = 1;
        for (int j = 0; !bad && j < pats[g].k; j++) {
            if (c->group_of[pats[g].cls[j]] >= 0)
                bad = 1;
            c->group_of[pats[g].cls[j]] = (int)g;
        }
        PyBuffer_Release(&pc);
        PyBuffer_Release(&pn);
        if (bad) {
            if (bad == 1)
                PyErr_SetString(PyExc_ValueError, "a pattern's classes, counts or table are wrong");
            return -1;
        }
        pats[g].table = hd->tables[g].buf;
    }
    c->npat = (int)np;
    c->pats = pats;
    const uint8_t *cr = crossing->buf;
    for (Py_ssize_t i = 0; i < crossing->len; i++) {
        if (cr[i] == 0 || cr[i] >= MAXCLASSES) {
            PyErr_SetString(PyExc_ValueError, "a crossing class out of range");
            return -1;
        }
        c->is_cross[cr[i]] = 1;
    }
    if (tcell->len) {
        if (tcell->len != n || tclass->len < 1 || tclass->len > MAXCLASSES) {
            PyErr_SetString(PyExc_ValueError, "the transposition does not fit the board");
            return -1;
        }
        c->reflect = 1;
        c->nmirror = (int)tclass->len;
        memcpy(c->tcell, tcell->buf, (size_t)n);
        memcpy(c->tclass, tclass->buf, (size_t)tclass->len);
        for (int i = 0; i < n; i++) {
            if (c->tcell[i] >= n) {
                PyErr_SetString(PyExc_ValueError, "the transposition does not fit the board");
                return -1;
            }
        }
        for (int k = 0; k < c->nmirror; k++) {
            if (c->tclass[k] >= MAXCLASSES) {
                PyErr_SetString(PyExc_ValueError, "the transposition does not fit the board");
                return -1;
            }
        }
    }
    load_terms(c);
    return 0;
}

static PyObject *search(PyObject *self, PyObject *args)
{
    int w, h, wnum = 1, wden = 1;
    long long threshold, count_cap, node_limit;
    Py_buffer goal, start, crossing, tcell, tclass;
    PyObject *patterns, *should_stop;
    if (!PyArg_ParseTuple(args, "iiy*y*Oy*y*y*LLLO|ii", &w, &h, &goal, &start, &patterns,
                          &crossing, &tcell, &tclass, &threshold, &count_cap, &node_limit,
                          &should_stop, &wnum, &wden))
        return NULL;
    PyObject *result = NULL;
    Held hd = {NULL, NULL, 0, NULL};
    Ctx *c = calloc(1, sizeof(Ctx));
    if (!c) {
        PyErr_NoMemory();
        goto done;
    }
    if (wnum < 1 || wden < 1 || wnum > 1000 || wden > 1000) {
        PyErr_SetString(PyExc_ValueError, "the weight must be a ratio of 1..1000");
        goto done;
    }
    if (threshold < 0 || threshold >= (long long)MAXPATH * wden) {
        PyErr_SetString(PyExc_ValueError, "threshold out of range");
        goto done;
    }
    if (count_cap < 1) {
        PyErr_SetString(PyExc_ValueError, "count_cap must be at least 1");
        goto done;
    }
    if (setup(c, w, h, &goal, &start, patterns, &crossing, &tcell, &tclass, &hd) < 0)
        goto done;
    c->threshold = threshold;
    c->wnum = wnum;
    c->wden = wden;
    c->count_cap = count_cap;
    c->node_limit = node_limit;
    c->next = -1;
    c->should_stop = should_stop == Py_None ? NULL : should_stop;
    visit(c, 0, c->blank0, 4);
    if (c->error)
        goto done;
    PyObject *path = Py_None;
    if (c->have_first)
        path = PyUnicode_FromStringAndSize(c->first, c->first_len);
    else
        Py_INCREF(path);
    if (!path)
        goto done;
    PyObject *next = c->next < 0 ? (Py_INCREF(Py_None), Py_None) : PyLong_FromLongLong(c->next);
    if (!next) {
        Py_DECREF(path);
        goto done;
    }
    result = Py_BuildValue("(NLLNO)", path, c->count, c->nodes, next,
                           c->stopped ? Py_True : Py_False);
done:
    release_held(&hd);
    free(c);
    PyBuffer_Release(&goal);
    PyBuffer_Release(&start);
    PyBuffer_Release(&crossing);
    PyBuffer_Release(&tcell);
    PyBuffer_Release(&tclass);
    return result;
}

/* ----- astar: weighted A* with duplicate detection ----------------------------------------- */

/* A frame reached: its cells, the frame it was reached from, its depth, the move that led
 * here (an index of DIRS; 4 at the start), its blank cell and the hash of its cells. */
typedef struct {
    uint8_t cells[MAXCELLS];
    uint32_t parent;
    uint16_t g;
    uint8_t move, blank;
    uint32_t hash;
} Node;

/* The open list's keys: f (g * wden + h * wnum) first, then the deeper frame, then the
 * earlier one: f << 40 | (4095 - g) << 28 | id, so the order is total and deterministic. */
#define ID_BITS 28
#define MAX_FRAMES ((1LL << ID_BITS) - 1)

typedef struct {
    Node *nodes;
    long long count, cap;
    uint32_t *slots; /* hash set of frames: id + 1, 0 when empty */
    uint64_t nslots;
    uint64_t *heap;
    long long hlen, hcap;
} Open;

static uint32_t hash_cells(const uint8_t *cells, int n)
{
    uint64_t x = 1469598103934665603ULL;
    for (int i = 0; i < n; i++)
        x = (x ^ cells[i]) * 1099511628211ULL;
    return (uint32_t)(x ^ (x >> 32));
}

static int grow_slots(Open *o)
{
    uint64_t size = o->nslots ? o->nslots * 2 : 1 << 16;
    uint32_t *slots = calloc(size, sizeof(uint32_t));
    if (!slots)
        return -1;
    for (long long id = 0; id < o->count; id++) {
        uint64_t at = o->nodes[id].hash & (size - 1);
        while (slots[at])
            at = (at + 1) & (size - 1);
        slots[at] = (uint32_t)(id + 1);
    }
    free(o->slots);
    o->slots = slots;
    o->nslots = size;
    return 0;
}

/* The slot of the frame `cells` (hash `hv`): the frame's own when it is there, else the
 * empty slot where it goes. */
static uint64_t find_slot(const Open *o, const uint8_t *cells, uint32_t hv, int n)
{
    uint64_t at = hv & (o->nslots - 1);
    while (o->slots[at]) {
        const Node *x = &o->nodes[o->slots[at] - 1];
        if (x->hash == hv && memcmp(x->cells, cells, (size_t)n) == 0)
            return at;
        at = (at + 1) & (o->nslots - 1);
    }
    return at;
}

/* `items` (of `*cap` elements of `size` bytes) reallocated to twice as many, or to `first`
 * when empty: the new array (`*cap` updated), or NULL out of memory (`items` kept). */
static void *grown(void *items, long long *cap, size_t size, long long first)
{
    long long bigger = *cap ? *cap * 2 : first;
    void *out = realloc(items, (size_t)bigger * size);
    if (out)
        *cap = bigger;
    return out;
}

static int heap_push(Open *o, uint64_t key)
{
    if (o->hlen == o->hcap) {
        uint64_t *heap = grown(o->heap, &o->hcap, sizeof(uint64_t), 1 << 16);
        if (!heap)
            return -1;
        o->heap = heap;
    }
    long long i = o->hlen++;
    while (i > 0) {
        long long up = (i - 1) / 2;
        if (o->heap[up] <= key)
            break;
        o->heap[i] = o->heap[up];
        i = up;
    }
    o->heap[i] = key;
    return 0;
}

static uint64_t heap_pop(Open *o)
{
    uint64_t top = o->heap[0], last = o->heap[--o->hlen];
    long long i = 0, n = o->hlen;
    while (2 * i + 1 < n) {
        long long k = 2 * i + 1;
        if (k + 1 < n && o->heap[k + 1] < o->heap[k])
            k++;
        if (last <= o->heap[k])
            break;
        o->heap[i] = o->heap[k];
        i = k;
    }
    if (n)
        o->heap[i] = last;
    return top;
}

/* Add the frame in c->cells (hash hv, into slot at) reached from parent by move d at depth g;
 * its id, or -1 out of memory. */
static long long add_node(Open *o, const Ctx *c, uint32_t hv, uint64_t at, long long parent,
                          int g, int d, int blank)
{
    if (o->count == o->cap) {
        Node *nodes = grown(o->nodes, &o->cap, sizeof(Node), 1 << 14);
        if (!nodes)
            return -1;
        o->nodes = nodes;
    }
    long long id = o->count++;
    Node *x = &o->nodes[id];
    memcpy(x->cells, c->cells, (size_t)c->n);
    x->parent = (uint32_t)parent;
    x->g = (uint16_t)g;
    x->move = (uint8_t)d;
    x->blank = (uint8_t)blank;
    x->hash = hv;
    o->slots[at] = (uint32_t)(id + 1);
    if ((uint64_t)o->count * 2 > o->nslots && grow_slots(o) < 0)
        return -1;
    return id;
}

static PyObject *astar(PyObject *self, PyObject *args)
{
    int w, h, wnum, wden, bound, partial = 0;
    long long node_limit;
    unsigned long long frozen = 0;
    Py_buffer goal, start, crossing, tcell, tclass;
    PyObject *patterns, *should_stop;
    if (!PyArg_ParseTuple(args, "iiy*y*Oy*y*y*iiiLO|Kp", &w, &h, &goal, &start, &patterns,
                          &crossing, &tcell, &tclass, &wnum, &wden, &bound, &node_limit,
                          &should_stop, &frozen, &partial))
        return NULL;
    PyObject *result = NULL;
    Held hd = {NULL, NULL, 0, NULL};
    Open o;
    memset(&o, 0, sizeof o);
    char *path = NULL;
    Ctx *c = calloc(1, sizeof(Ctx));
    if (!c) {
        PyErr_NoMemory();
        goto done;
    }
    if (wnum < 1 || wden < 1 || wnum > 64 || wden > 64) {
        PyErr_SetString(PyExc_ValueError, "the weight must be a ratio of 1..64");
        goto done;
    }
    if (bound > MAXPATH || bound < 0)
        bound = MAXPATH;
    if (node_limit < 0 || node_limit > MAX_FRAMES)
        node_limit = MAX_FRAMES;
    if (setup(c, w, h, &goal, &start, patterns, &crossing, &tcell, &tclass, &hd) < 0)
        goto done;
    if (should_stop == Py_None)
        should_stop = NULL;
    int n = c->n, stopped = 0, oom = 0, length = -1;
    long long expanded = 0, found = -1;
    if (grow_slots(&o) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    uint32_t hv0 = hash_cells(c->cells, n);
    uint64_t at0 = find_slot(&o, c->cells, hv0, n);
    long long root = add_node(&o, c, hv0, at0, 0, 0, 4, c->blank0);
    if (root < 0 || heap_push(&o, (uint64_t)hvalue(c) * wnum << 40 | (uint64_t)4095 << ID_BITS) < 0) {
        PyErr_NoMemory();
        goto done;
    }
    if (partial ? hvalue(c) == 0 : memcmp(c->cells, c->goal, (size_t)n) == 0)
        length = 0, found = root;
    while (found < 0 && o.hlen > 0) {
        if (should_stop && (expanded & 4095) == 0 && expanded) {
            PyObject *r = PyObject_CallNoArgs(should_stop);
            if (!r)
                goto done;
            int stop = PyObject_IsTrue(r);
            Py_DECREF(r);
            if (stop < 0)
                goto done;
            if (stop) {
                stopped = 1;
                break;
            }
        }
        long long id = (long long)(heap_pop(&o) & MAX_FRAMES);
        expanded++;
        const Node *x = &o.nodes[id];
        int g = x->g, blank = x->blank, last = x->move;
        if (g + 1 >= MAXPATH)
            continue;
        memcpy(c->cells, x->cells, (size_t)n);
        load_terms(c);
        for (int d = 0; d < 4 && found < 0; d++) {
            int t = c->steps[blank][d];
            if (d == OPP[last] || t < 0 || ((frozen >> t) & 1))
                continue;
            Saved sv;
            slide(c, blank, t, &sv);
            int hc = hvalue(c);
            if (g + 1 + hc < bound) {
                uint32_t hv = hash_cells(c->cells, n);
                uint64_t at = find_slot(&o, c->cells, hv, n);
                if (!o.slots[at]) {
                    if (o.count >= node_limit) {
                        stopped = 1;
                        unslide(c, blank, t, &sv);
                        break;
                    }
                    long long child = add_node(&o, c, hv, at, id, g + 1, d, t);
                    uint64_t f = (uint64_t)(g + 1) * wden + (uint64_t)hc * wnum;
                    uint64_t key = f << 40 | (uint64_t)(4095 - (g + 1)) << ID_BITS | (uint64_t)child;
                    if (child < 0 || heap_push(&o, key) < 0) {
                        oom = 1;
                        unslide(c, blank, t, &sv);
                        break;
                    }
                    if (hc == 0 && (partial || memcmp(c->cells, c->goal, (size_t)n) == 0)) {
                        found = child;
                        length = g + 1;
                    }
                }
            }
            unslide(c, blank, t, &sv);
        }
        if (oom) {
            PyErr_NoMemory();
            goto done;
        }
        if (stopped)
            break;
    }
    PyObject *moves = Py_None;
    if (found >= 0) {
        path = malloc((size_t)length + 1);
        if (!path) {
            PyErr_NoMemory();
            goto done;
        }
        long long at = found;
        for (int i = length - 1; i >= 0; i--) {
            path[i] = DIRS[o.nodes[at].move];
            at = o.nodes[at].parent;
        }
        moves = PyUnicode_FromStringAndSize(path, length);
        if (!moves)
            goto done;
    } else {
        Py_INCREF(moves);
    }
    result = Py_BuildValue("(NLLO)", moves, expanded, o.count, stopped ? Py_True : Py_False);
done:
    free(path);
    free(o.nodes);
    free(o.slots);
    free(o.heap);
    release_held(&hd);
    free(c);
    PyBuffer_Release(&goal);
    PyBuffer_Release(&start);
    PyBuffer_Release(&crossing);
    PyBuffer_Release(&tcell);
    PyBuffer_Release(&tclass);
    return result;
}

static PyMethodDef methods[] = {
    {"build_table", build_table, METH_VARARGS,
     "build_table(width, height, goal, classes, counts, should_stop=None, method=0) -> bytes or"
     " None (should_stop said stop): a pattern database (method 1: a queue of states,"
     " 2: layers of bit sets, 0: by size)"},
    {"search", search, METH_VARARGS,
     "search(width, height, goal, start, patterns, crossing, tcell, tclass, threshold,"
     " count_cap, node_limit, should_stop, wnum=1, wden=1) -> (path, count, nodes, next,"
     " stopped): f = g * wden + h * wnum against the threshold (1 and 1: IDA*)"},
    {"astar", astar, METH_VARARGS,
     "astar(width, height, goal, start, patterns, crossing, tcell, tclass, wnum, wden, bound,"
     " node_limit, should_stop, frozen=0, partial=False) -> (path, expanded, frames,"
     " stopped): weighted A* with duplicate detection, frames of g + h >= bound left out, no"
     " tile moved out of the cells of the mask frozen; partial: any frame of h 0 is a goal"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "levelgen.sliding._native",
    "Compiled twins of levelgen.sliding's pattern database builder and IDA* iteration.", -1,
    methods,
};

PyMODINIT_FUNC PyInit__native(void)
{
    init_binomials();
    init_tables();
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddIntConstant(m, "API", API) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
