/* The compiled twin of levelgen.sliding.space.python_build: the distance of every frame of a
 * sliding puzzle's whole space to its goal, one byte a frame, by breadth-first search from the
 * goal (moves are reversible, so the distance from the goal is the distance to it).
 *
 * A frame is ranked as levelgen/sliding/space.py explains: its blank cell b and the sequence of
 * its W*H - 1 tiles in reading order (codes 1..K, the goal's tile sequence sorted), index
 * b * S + r.  Numbered (K = W*H - 1, every code once): r is the lexicographic rank of the tile
 * permutation halved, S = (W*H - 1)! / 2 (of two permutations that differ by their last two
 * tiles exactly one can be reached with the blank at b).  Colour (a code repeats): r is the
 * rank of the tile sequence among the arrangements of the multiset, S their number.  A move
 * along a row leaves the tile sequence as it is; a move along a column moves one tile W - 1
 * places in it.
 *
 * build(width, height, goal) -> bytes: 255 for a frame never reached (none, on a reachable
 * space), else its distance.  The search lets go of the interpreter while it works.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#define MAXC 64
#define UNSEEN 255

typedef struct {
    int w, h, n, m, k; /* cells, tiles (m = n - 1), kinds of tile */
    int numbered;
    int counts[MAXC];  /* per code 0..k-1 */
    uint64_t span;     /* S: indices per blank cell */
    uint64_t fact[MAXC];
} Space;

/* ---- numbered: the lexicographic rank of a permutation of 0..m-1, and its parity ---- */
static uint64_t perm_rank(const Space *s, const uint8_t *seq, int *parity) {
    uint64_t used = 0, r = 0;
    int par = 0;
    for (int i = 0; i < s->m; i++) {
        uint64_t below = ((uint64_t)1 << seq[i]) - 1;
        int d = seq[i] - __builtin_popcountll(used & below);
        par += d;
        r += (uint64_t)d * s->fact[s->m - 1 - i];
        used |= (uint64_t)1 << seq[i];
    }
    *parity = par & 1;
    return r;
}

static void perm_unrank(const Space *s, uint64_t r, uint8_t *seq, int *parity) {
    uint8_t left[MAXC];
    int par = 0;
    for (int i = 0; i < s->m; i++) left[i] = (uint8_t)i;
    int rem = s->m;
    int small = r <= UINT32_MAX;
    uint32_t r32 = (uint32_t)r;
    for (int i = 0; i < s->m; i++) {
        int d;
        if (small) { /* 32-bit division: much faster, and r < 12! fits */
            uint32_t f = (uint32_t)s->fact[s->m - 1 - i];
            d = (int)(r32 / f);
            r32 %= f;
        } else {
            uint64_t f = s->fact[s->m - 1 - i];
            d = (int)(r / f);
            r %= f;
        }
        par += d;
        seq[i] = left[d];
        memmove(left + d, left + d + 1, (size_t)(rem - d - 1));
        rem--;
    }
    *parity = par & 1;
}

/* ---- colour: the rank of a sequence among the arrangements of its multiset ---- */
static uint64_t multi_rank(const Space *s, const uint8_t *seq) {
    int c[MAXC];
    memcpy(c, s->counts, sizeof(int) * (size_t)s->k);
    uint64_t total = s->span, r = 0; /* arrangements of what is left */
    for (int i = 0; i < s->m; i++) {
        int left = s->m - i;
        for (int l = 0; l < seq[i]; l++)
            if (c[l]) r += total * (uint64_t)c[l] / (uint64_t)left;
        total = total * (uint64_t)c[seq[i]] / (uint64_t)left;
        c[seq[i]]--;
    }
    return r;
}

static void multi_unrank(const Space *s, uint64_t r, uint8_t *seq) {
    int c[MAXC];
    memcpy(c, s->counts, sizeof(int) * (size_t)s->k);
    uint64_t total = s->span;
    for (int i = 0; i < s->m; i++) {
        int left = s->m - i;
        for (int l = 0; l < s->k; l++) {
            if (!c[l]) continue;
            uint64_t here = total * (uint64_t)c[l] / (uint64_t)left;
            if (r < here) {
                seq[i] = (uint8_t)l;
                total = here;
                c[l]--;
                break;
            }
            r -= here;
        }
    }
}

/* Whether a numbered frame with the blank at b and tile parity par can be reached. */
static int reachable(const Space *s, int b, int par, int goal_row) {
    int row = b / s->w;
    int need = ((s->w - 1) * (row - goal_row)) & 1;
    return par == need;
}

static uint64_t index_of(const Space *s, int b, const uint8_t *seq) {
    if (s->numbered) {
        int par;
        uint64_t r = perm_rank(s, seq, &par);
        return (uint64_t)b * s->span + (r >> 1);
    }
    return (uint64_t)b * s->span + multi_rank(s, seq);
}

static void frame_of(const Space *s, uint64_t index, int goal_row, int *b, uint8_t *seq) {
    *b = (int)(index / s->span);
    uint64_t r = index % s->span;
    if (s->numbered) {
        int par;
        perm_unrank(s, 2 * r, seq, &par);
        if (!reachable(s, *b, par, goal_row)) {
            uint8_t t = seq[s->m - 1];
            seq[s->m - 1] = seq[s->m - 2];
            seq[s->m - 2] = t;
        }
    } else {
        multi_unrank(s, r, seq);
    }
}

static PyObject *build(PyObject *self, PyObject *args) {
    int w, h;
    Py_buffer goal;
    if (!PyArg_ParseTuple(args, "iiy*", &w, &h, &goal)) return NULL;
    Space s;
    memset(&s, 0, sizeof s);
    s.w = w;
    s.h = h;
    s.n = w * h;
    s.m = s.n - 1;
    const uint8_t *g = (const uint8_t *)goal.buf;
    if (w < 2 || h < 2 || s.n > MAXC || goal.len != s.n) {
        PyBuffer_Release(&goal);
        PyErr_SetString(PyExc_ValueError, "a goal of W*H codes on a board of 2..64 cells");
        return NULL;
    }
    int goal_blank = -1;
    uint8_t gseq[MAXC];
    int j = 0;
    for (int i = 0; i < s.n; i++) {
        if (g[i] == 0) {
            goal_blank = i;
            continue;
        }
        if (g[i] > MAXC || j >= s.m) break;
        gseq[j++] = (uint8_t)(g[i] - 1);
        if (g[i] > s.k) s.k = g[i];
        s.counts[g[i] - 1]++;
    }
    int ok = goal_blank >= 0 && j == s.m;
    for (int l = 0; ok && l < s.k; l++) ok = s.counts[l] > 0;
    s.numbered = s.k == s.m;
    if (ok && s.numbered)
        for (int i = 0; i < s.m; i++) ok = ok && gseq[i] == i;
    PyBuffer_Release(&goal);
    if (!ok) {
        PyErr_SetString(PyExc_ValueError,
                        "the goal's codes: one blank 0, tiles 1..K each present (numbered: in order)");
        return NULL;
    }
    /* The span: (m)!/2 numbered, the multinomial of the counts for colour. */
    s.fact[0] = 1;
    for (int i = 1; i < MAXC && i <= s.m; i++) {
        s.fact[i] = s.fact[i - 1] * (uint64_t)i;
    }
    if (s.numbered) {
        if (s.m > 20) {
            PyErr_SetString(PyExc_ValueError, "the space is too large");
            return NULL;
        }
        s.span = s.fact[s.m] / 2;
    } else {
        uint64_t total = 1;
        int placed = 0;
        for (int l = 0; l < s.k; l++)
            for (int i = 1; i <= s.counts[l]; i++) {
                placed++;
                if (total > UINT64_MAX / 64) {
                    PyErr_SetString(PyExc_ValueError, "the space is too large");
                    return NULL;
                }
                total = total * (uint64_t)placed / (uint64_t)i;
            }
        s.span = total;
    }
    if (s.span > ((uint64_t)1 << 40) / (uint64_t)s.n) {
        PyErr_SetString(PyExc_ValueError, "the space is too large");
        return NULL;
    }
    uint64_t size = s.span * (uint64_t)s.n;
    PyObject *out = PyBytes_FromStringAndSize(NULL, (Py_ssize_t)size);
    if (out == NULL) return NULL;
    uint8_t *t = (uint8_t *)PyBytes_AS_STRING(out);
    int goal_row = goal_blank / w;
    Py_BEGIN_ALLOW_THREADS
    memset(t, UNSEEN, (size_t)size);
    t[index_of(&s, goal_blank, gseq)] = 0;
    uint64_t frontier = 1;
    for (int depth = 0; frontier && depth < UNSEEN - 1; depth++) {
        frontier = 0;
        uint8_t seq[MAXC], nseq[MAXC];
        for (uint64_t idx = 0; idx < size; idx++) {
            if (t[idx] != depth) { /* skip to the next frame of this layer */
                const uint8_t *hit = memchr(t + idx, depth, (size_t)(size - idx));
                if (hit == NULL) break;
                idx = (uint64_t)(hit - t);
            }
            int b;
            frame_of(&s, idx, goal_row, &b, seq);
            uint64_t r = idx % s.span;
            int x = b % w, y = b / w;
            uint64_t next[4];
            int count = 0;
            if (x > 0) next[count++] = (uint64_t)(b - 1) * s.span + r;
            if (x < w - 1) next[count++] = (uint64_t)(b + 1) * s.span + r;
            if (y > 0) { /* the tile above (sequence place b - w) comes down to place b - 1 */
                int from = b - w, to = b - 1;
                memcpy(nseq, seq, (size_t)s.m);
                uint8_t tile = seq[from];
                memmove(nseq + from, seq + from + 1, (size_t)(to - from));
                nseq[to] = tile;
                next[count++] = index_of(&s, b - w, nseq);
            }
            if (y < h - 1) { /* the tile below (place b + w - 1) goes up to place b */
                int from = b + w - 1, to = b;
                memcpy(nseq, seq, (size_t)s.m);
                uint8_t tile = seq[from];
                memmove(nseq + to + 1, seq + to, (size_t)(from - to));
                nseq[to] = tile;
                next[count++] = index_of(&s, b + w, nseq);
            }
            for (int i = 0; i < count; i++) {
                if (t[next[i]] == UNSEEN) {
                    t[next[i]] = (uint8_t)(depth + 1);
                    frontier++;
                }
            }
        }
    }
    Py_END_ALLOW_THREADS
    return out;
}

static PyObject *histogram(PyObject *self, PyObject *args) {
    Py_buffer table;
    if (!PyArg_ParseTuple(args, "y*", &table)) return NULL;
    uint64_t counts[256] = {0};
    const uint8_t *t = (const uint8_t *)table.buf;
    Py_BEGIN_ALLOW_THREADS
    for (Py_ssize_t i = 0; i < table.len; i++) counts[t[i]]++;
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&table);
    PyObject *out = PyList_New(256);
    if (out == NULL) return NULL;
    for (int i = 0; i < 256; i++) PyList_SET_ITEM(out, i, PyLong_FromUnsignedLongLong(counts[i]));
    return out;
}

static PyMethodDef methods[] = {
    {"histogram", histogram, METH_VARARGS,
     "histogram(table) -> list of 256 counts: how many frames have each byte."},
    {"build", build, METH_VARARGS,
     "build(width, height, goal) -> bytes: every frame's distance to the goal (255: unseen)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {PyModuleDef_HEAD_INIT, "_space", NULL, -1, methods,
                                    NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__space(void) {
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (PyModule_AddIntConstant(m, "API", 1) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
