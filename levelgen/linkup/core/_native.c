/* levelgen.linkup.core._native: optional compiled twins of levelgen's hottest code.
 *
 * - axis_hits, link_hits, link_reach: levelgen.reach's functions of those names;
 * - remove_pair: the body of levelgen.live.LiveLinks.remove after its undo record
 *   (LiveLinks.python_remove); fill_links: LiveLinks.python_fill_links;
 * - replay_moves: the passes of the repair solver's replay (_Repairer.python_replay_moves);
 * - direct_path: levelgen.paths._direct, the best path of up to two turns.
 *
 * Each is the same algorithm as its Python function, step for step (read that function and
 * the module docstring of levelgen/reach.py first), on arrays of 64-bit words instead of
 * Python ints: the same levels, the same list lengths, the same order of updates, so the
 * answer is the same.  Two ways differ inside and not in what they give: vertical rays are
 * walked cell by cell (the Python code uses doubling fills; both give the free run beyond
 * each seed), and leftward rays are filled word by word.  tests/test_native.py compares every
 * twin with its Python function on random masks, boards, play-outs and repair runs.  Nothing
 * here keeps state between calls: the module is as pure as the Python code.
 *
 * When this file cannot be compiled, levelgen runs the Python functions alone (setuptools
 * builds it as an optional extension), and levelgen.reach uses it only when its API number
 * matches (a stale build is left unused).
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

typedef uint64_t word;

/* Room for the masks of one call: thirteen arrays of n words.  Up to STACK_WORDS words each
 * they live on the stack (a 64x64 board's layout needs 70), beyond that on the heap. */
#define STACK_WORDS 160
#define ARRAYS 13

/* Python ints <-> arrays of 64-bit words.  CPython 3.11 to 3.13 with 30-bit digits: the
 * digits are read and written directly (a tenth of the time of the byte-array functions,
 * which copy byte by byte); any other Python: the public functions. */
#if PyLong_SHIFT == 30 && PY_VERSION_HEX >= 0x030B0000 && PY_VERSION_HEX < 0x030C0000
#define DIRECT_DIGITS 1
#define NDIGITS(v) Py_SIZE(v)
#define DIGITS(v) (((PyLongObject *)(v))->ob_digit)
#elif PyLong_SHIFT == 30 && PY_VERSION_HEX >= 0x030C0000 && PY_VERSION_HEX < 0x030E0000
#define DIRECT_DIGITS 1
#define NDIGITS(v) ((Py_ssize_t)(((PyLongObject *)(v))->long_value.lv_tag >> 3))
#define DIGITS(v) (((PyLongObject *)(v))->long_value.ob_digit)
#else
#define DIRECT_DIGITS 0
#endif

/* The non-negative int ``value`` into ``out[0 .. n)``, zero-padded; its bits must fit. */
static int get_words(PyObject *value, word *out, Py_ssize_t n)
{
#if DIRECT_DIGITS
    /* Digit by digit into the cleared words, zero digits skipped (a link mask has a few bits
     * of a large board: most of its digits are zero). */
    Py_ssize_t nd = NDIGITS(value);
    const digit *d = DIGITS(value);
    memset(out, 0, (size_t)n * sizeof(word));
    for (Py_ssize_t i = 0; i < nd; i++) {
        if (!d[i])
            continue;
        Py_ssize_t pos = i * 30, w = pos >> 6;
        int off = (int)(pos & 63);
        if (w < n)
            out[w] |= (word)d[i] << off;
        if (off > 34 && w + 1 < n)
            out[w + 1] |= (word)d[i] >> (64 - off);
    }
    return 0;
#else
    memset(out, 0, (size_t)n * sizeof(word));
#if PY_VERSION_HEX >= 0x030D0000
    Py_ssize_t got = PyLong_AsNativeBytes(value, out, n * (Py_ssize_t)sizeof(word),
                                          Py_ASNATIVEBYTES_LITTLE_ENDIAN
                                              | Py_ASNATIVEBYTES_UNSIGNED_BUFFER);
    if (got < 0)
        return -1;
#else
    if (_PyLong_AsByteArray((PyLongObject *)value, (unsigned char *)out,
                            (size_t)n * sizeof(word), 1, 0) < 0)
        return -1;
#endif
#if !PY_LITTLE_ENDIAN
    for (Py_ssize_t i = 0; i < n; i++) {
        unsigned char *b = (unsigned char *)(out + i);
        word v = 0;
        for (int j = 7; j >= 0; j--)
            v = (v << 8) | b[j];
        out[i] = v;
    }
#endif
    return 0;
#endif
}

/* The int of the words ``w[0 .. n)``. */
static PyObject *to_int(const word *w, Py_ssize_t n)
{
    while (n > 0 && w[n - 1] == 0)
        n--;
    if (n == 0)
        return PyLong_FromLong(0);
#if DIRECT_DIGITS
    Py_ssize_t nbits = (n - 1) * 64 + (64 - __builtin_clzll(w[n - 1]));
    Py_ssize_t nd = (nbits + 29) / 30;
    PyLongObject *out = _PyLong_New(nd);
    if (!out)
        return NULL;
    digit *d = DIGITS(out);
    for (Py_ssize_t i = 0; i < nd; i++) {
        Py_ssize_t pos = i * 30, k = pos >> 6;
        int off = (int)(pos & 63);
        word v = w[k] >> off;
        if (off > 34 && k + 1 < n)
            v |= w[k + 1] << (64 - off);
        d[i] = (digit)(v & PyLong_MASK);
    }
    return (PyObject *)out;
#else
#if PY_LITTLE_ENDIAN
    const unsigned char *bytes = (const unsigned char *)w;
#else
    unsigned char bytes[STACK_WORDS * 8];
    unsigned char *heap = NULL, *b = bytes;
    if (n > STACK_WORDS) {
        heap = b = PyMem_Malloc((size_t)n * 8);
        if (!heap)
            return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++)
        for (int j = 0; j < 8; j++)
            b[i * 8 + j] = (unsigned char)(w[i] >> (8 * j));
#endif
#if PY_VERSION_HEX >= 0x030D0000
    PyObject *out = PyLong_FromUnsignedNativeBytes(bytes, (size_t)n * 8,
                                                   Py_ASNATIVEBYTES_LITTLE_ENDIAN);
#else
    PyObject *out = _PyLong_FromByteArray(bytes, (size_t)n * 8, 1, 0);
#endif
#if !PY_LITTLE_ENDIAN
    PyMem_Free(heap);
#endif
    return out;
#endif
}

static inline int bit(const word *a, Py_ssize_t i) { return (int)((a[i >> 6] >> (i & 63)) & 1); }
static inline void set_bit(word *a, Py_ssize_t i) { a[i >> 6] |= (word)1 << (i & 63); }

/* The set bits of a word (a plain SWAR count: no CPU flag needed, no library call). */
static inline Py_ssize_t popcount_word(word x)
{
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0f0f0f0f0f0f0f0fULL;
    return (Py_ssize_t)((x * 0x0101010101010101ULL) >> 56);
}

static inline int is_zero(const word *a, Py_ssize_t n)
{
    for (Py_ssize_t i = 0; i < n; i++)
        if (a[i])
            return 0;
    return 1;
}

static inline int equal(const word *a, const word *b, Py_ssize_t n)
{
    return memcmp(a, b, (size_t)n * sizeof(word)) == 0;
}

/* d = a << s (bits shifted past n words are dropped: every use masks them away). */
static void shl(word *d, const word *a, Py_ssize_t s, Py_ssize_t n)
{
    Py_ssize_t q = s >> 6;
    int r = (int)(s & 63);
    for (Py_ssize_t i = n - 1; i >= 0; i--) {
        word v = 0;
        if (i - q >= 0) {
            v = a[i - q] << r;
            if (r && i - q - 1 >= 0)
                v |= a[i - q - 1] >> (64 - r);
        }
        d[i] = v;
    }
}

/* d = a >> s */
static void shr(word *d, const word *a, Py_ssize_t s, Py_ssize_t n)
{
    Py_ssize_t q = s >> 6;
    int r = (int)(s & 63);
    for (Py_ssize_t i = 0; i < n; i++) {
        word v = 0;
        if (i + q < n) {
            v = a[i + q] >> r;
            if (r && i + q + 1 < n)
                v |= a[i + q + 1] << (64 - r);
        }
        d[i] = v;
    }
}

/* Horizontal rays of a level, word by word: the free run beyond each cell of ``seeds`` to the
 * right (higher bits) and to the left, OR-ed into ``out``.  Rightwards with the Python
 * function's carry, ``((free + x) ^ free) & free | x`` with ``x = (seeds << 1) & free``, the
 * carry running from word to word; leftwards with the same doubling fill inside each word
 * (six steps cover 64 bits), from the top word down, a run entering the word below through its
 * top bit. */
static void rays_h(word *out, const word *seeds, const word *free, Py_ssize_t n)
{
    word carry = 0, in = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        word x = ((seeds[i] << 1) | in) & free[i];
        in = seeds[i] >> 63;
        word s1 = free[i] + x;
        word c1 = s1 < x;
        word s2 = s1 + carry;
        carry = c1 | (s2 < carry);
        out[i] |= ((s2 ^ free[i]) & free[i]) | x;
    }
    word down = 0; /* the run reaching bit 0 of the word above */
    for (Py_ssize_t i = n - 1; i >= 0; i--) {
        word f = free[i];
        word g = ((seeds[i] >> 1) | (i + 1 < n ? seeds[i + 1] << 63 : 0) | (down << 63)) & f;
        if (!g) {
            down = 0;
            continue;
        }
        word p = f & (f >> 1);
        g |= f & (g >> 1);
        g |= p & (g >> 2);
        p &= p >> 2;
        g |= p & (g >> 4);
        p &= p >> 4;
        g |= p & (g >> 8);
        p &= p >> 8;
        g |= p & (g >> 16);
        p &= p >> 16;
        g |= p & (g >> 32);
        out[i] |= g;
        down = g & 1;
    }
}

/* Vertical rays of a level from every seed of ``seeds``, one direction ``d`` (+stride: up the
 * bits, -stride: down): each seed's cells d, 2d, ... away while free, OR-ed into ``out``.
 * Seeds are taken farthest-first along d, so a walk that reaches another seed stops there:
 * that seed's own walk already went on to the end of the run.  The Python function's doubling
 * fills compute the same runs (a walk took fewer instructions than word-parallel doubling in
 * callgrind: on a full board the runs are short). */
static void rays_v(word *out, const word *seeds, const word *free, Py_ssize_t d, Py_ssize_t n)
{
    Py_ssize_t nbits = n * 64;
    if (d > 0) {
        for (Py_ssize_t i = n - 1; i >= 0; i--) {
            word w = seeds[i];
            while (w) {
                int top = 63 - __builtin_clzll(w);
                w &= ~((word)1 << top);
                for (Py_ssize_t k = i * 64 + top + d; k < nbits && bit(free, k); k += d) {
                    set_bit(out, k);
                    if (bit(seeds, k))
                        break;
                }
            }
        }
    } else {
        for (Py_ssize_t i = 0; i < n; i++) {
            word w = seeds[i];
            while (w) {
                Py_ssize_t start = i * 64 + __builtin_ctzll(w);
                w &= w - 1;
                for (Py_ssize_t k = start + d; k >= 0 && bit(free, k); k += d) {
                    set_bit(out, k);
                    if (bit(seeds, k))
                        break;
                }
            }
        }
    }
}

/* The next level of a fill: ``nh = h | rays_h(hseeds)``, ``nv = v | rays_v(vseeds)`` (up and
 * down), as one turn of the loops of levelgen.reach. */
static void next_level(word *nh, word *nv, const word *h, const word *v, const word *hseeds,
                       const word *vseeds, const word *free, Py_ssize_t stride, Py_ssize_t n)
{
    size_t bytes = (size_t)n * sizeof(word);
    memcpy(nh, h, bytes);
    if (!is_zero(hseeds, n))
        rays_h(nh, hseeds, free, n);
    memcpy(nv, v, bytes);
    if (!is_zero(vseeds, n)) {
        rays_v(nv, vseeds, free, stride, n);
        rays_v(nv, vseeds, free, -stride, n);
    }
}

/* out = ((xh << 1) | (xh >> 1) | (xv << stride) | (xv >> stride)), & targets unless NULL:
 * the four shifts in one pass. */
static void step_out(word *out, const word *xh, const word *xv, const word *targets,
                     Py_ssize_t stride, Py_ssize_t n)
{
    Py_ssize_t q = stride >> 6;
    int r = (int)(stride & 63);
    for (Py_ssize_t i = 0; i < n; i++) {
        word v = (xh[i] << 1) | (xh[i] >> 1);
        if (i > 0)
            v |= xh[i - 1] >> 63;
        if (i + 1 < n)
            v |= xh[i + 1] << 63;
        if (i - q >= 0) {
            v |= xv[i - q] << r;
            if (r && i - q - 1 >= 0)
                v |= xv[i - q - 1] >> (64 - r);
        }
        if (i + q < n) {
            v |= xv[i + q] >> r;
            if (r && i + q + 1 < n)
                v |= xv[i + q + 1] << (64 - r);
        }
        out[i] = targets ? v & targets[i] : v;
    }
}

#define SWAP(a, b)                                                                             \
    do {                                                                                       \
        word *tmp_ = (a);                                                                      \
        (a) = (b);                                                                             \
        (b) = tmp_;                                                                            \
    } while (0)

/* One axis of axis_hits (see the Python function): its levels 0 .. max_turns written to
 * ``levels`` (max_turns + 1 arrays of n words); returns how many the Python function's list
 * holds (max_turns + 1, or max_turns when the last level is left out: that one is then
 * written empty).  ``mem``: room for ARRAYS arrays. */
static Py_ssize_t axis_levels(int horizontal, Py_ssize_t c, const word *free,
                              const word *targets, Py_ssize_t max_turns, Py_ssize_t stride,
                              word *mem, word *levels, Py_ssize_t n)
{
    size_t bytes = (size_t)n * sizeof(word);
    word *ray = mem, *h = mem + n, *v = mem + 2 * n, *hp = mem + 3 * n, *vp = mem + 4 * n;
    word *hseeds = mem + 5 * n, *vseeds = mem + 6 * n, *nh = mem + 7 * n, *nv = mem + 8 * n;
    word *xh = mem + 9 * n, *xv = mem + 10 * n, *g = mem + 11 * n, *t = mem + 12 * n;
    Py_ssize_t nbits = n * 64;
    memset(mem, 0, 7 * bytes); /* ray, h, v, hp, vp, hseeds, vseeds: the others are written */
    /* Level 0: the straight run of free cells on both sides of c along the axis. */
    Py_ssize_t d = horizontal ? 1 : stride;
    for (Py_ssize_t k = c + d; k < nbits && bit(free, k); k += d)
        set_bit(ray, k);
    for (Py_ssize_t k = c - d; k >= 0 && bit(free, k); k -= d)
        set_bit(ray, k);
    /* The targets next to src | ray along the axis. */
    word *first = levels;
    memcpy(g, ray, bytes);
    set_bit(g, c);
    shl(first, g, d, n);
    shr(t, g, d, n);
    for (Py_ssize_t i = 0; i < n; i++)
        first[i] = (first[i] | t[i]) & targets[i];
    Py_ssize_t count = 1;
    if (is_zero(ray, n)) {
        for (; count <= max_turns; count++)
            memcpy(levels + count * n, first, bytes);
        return count;
    }
    Py_ssize_t last = (max_turns && is_zero(first, n)) ? max_turns - 1 : max_turns;
    if (last < max_turns) /* the last level, left out, reads as empty */
        memset(levels + max_turns * n, 0, bytes);
    if (last == 0)
        return count;
    memcpy(horizontal ? h : v, ray, bytes);
    memcpy(horizontal ? vseeds : hseeds, ray, bytes);
    for (;;) {
        next_level(nh, nv, h, v, hseeds, vseeds, free, stride, n);
        SWAP(hp, h); /* hp = h, h = nh (the old hp becomes the next nh) */
        SWAP(h, nh);
        SWAP(vp, v);
        SWAP(v, nv);
        /* xh = sh | vp | h, xv = sv | hp | v (src starts paths along its axis only) */
        for (Py_ssize_t i = 0; i < n; i++) {
            xh[i] = vp[i] | h[i];
            xv[i] = hp[i] | v[i];
        }
        set_bit(horizontal ? xh : xv, c);
        step_out(levels + count * n, xh, xv, targets, stride, n);
        count++;
        if (count > last)
            break;
        int any = 0;
        for (Py_ssize_t i = 0; i < n; i++) {
            hseeds[i] = v[i] ^ vp[i];
            vseeds[i] = h[i] ^ hp[i];
            any |= (hseeds[i] | vseeds[i]) != 0;
        }
        if (!any) {
            for (; count <= last; count++)
                memcpy(levels + count * n, levels + (count - 1) * n, bytes);
            break;
        }
    }
    return count;
}

/* The Python list of the first ``count`` levels. */
static PyObject *level_list(const word *levels, Py_ssize_t count, Py_ssize_t n)
{
    PyObject *out = PyList_New(count);
    if (!out)
        return NULL;
    for (Py_ssize_t i = 0; i < count; i++) {
        PyObject *v = to_int(levels + i * n, n);
        if (!v) {
            Py_DECREF(out);
            return NULL;
        }
        PyList_SET_ITEM(out, i, v);
    }
    return out;
}

static int sign(PyObject *value)
{
#if PY_VERSION_HEX >= 0x030E0000
    int s = 0;
    PyLong_GetSign(value, &s);
    return s;
#else
    return _PyLong_Sign(value);
#endif
}

/* The ints of a call: checked (non-negative ints), their largest bit count in ``*top``. */
static int check_masks(PyObject *const *masks, int count, const char *name, int64_t *top)
{
    *top = 0;
    for (int i = 0; i < count; i++) {
        if (!PyLong_Check(masks[i]) || sign(masks[i]) < 0) {
            PyErr_Format(PyExc_TypeError, "%s: masks must be non-negative ints", name);
            return -1;
        }
        int64_t bits = (int64_t)_PyLong_NumBits(masks[i]);
        if (bits < 0)
            return -1;
        if (bits > *top)
            *top = bits;
    }
    return 0;
}

static int get_count(PyObject *value, const char *name, const char *what, Py_ssize_t low,
                     Py_ssize_t *out)
{
    Py_ssize_t v = PyLong_Check(value) ? PyLong_AsSsize_t(value) : -1;
    if (v == -1 && PyErr_Occurred())
        return -1;
    if (v < low) {
        PyErr_Format(PyExc_ValueError, "%s: %s must be an int >= %zd", name, what, low);
        return -1;
    }
    *out = v;
    return 0;
}

/* Words for masks of ``top`` bits shifted by up to ``stride`` more. */
static Py_ssize_t words_for(int64_t top, Py_ssize_t stride)
{
    return (Py_ssize_t)((top + stride + 2 + 63) / 64);
}

/* A scratch area of ``count`` arrays of ``n`` words: ``stack`` when it fits, else the heap. */
static word *scratch(word *stack, size_t stack_words, Py_ssize_t n, int count, word **heap)
{
    *heap = NULL;
    if ((size_t)(n * count) <= stack_words)
        return stack;
    *heap = PyMem_Malloc((size_t)(n * count) * sizeof(word));
    if (!*heap)
        PyErr_NoMemory();
    return *heap;
}

#define STACK_AREA (STACK_WORDS * (ARRAYS + 22))

/* The arguments ``(src, free, targets, max_turns, stride)`` of ``name``, checked: the masks'
 * largest bit count in ``*top``. */
static int five_args(PyObject *const *args, Py_ssize_t nargs, const char *name, int64_t *top,
                     Py_ssize_t *max_turns, Py_ssize_t *stride)
{
    if (nargs != 5) {
        PyErr_Format(PyExc_TypeError, "%s(src, free, targets, max_turns, stride)", name);
        return -1;
    }
    if (check_masks(args, 3, name, top) < 0
        || get_count(args[3], name, "max_turns", 0, max_turns) < 0
        || get_count(args[4], name, "stride", 1, stride) < 0)
        return -1;
    return 0;
}

/* The most turns the compiled functions take (the rules allow 8). */
#define MAX_TURNS 1000

static PyObject *axis_hits(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    Py_ssize_t max_turns, stride;
    int64_t top;
    if (five_args(args, nargs, "axis_hits", &top, &max_turns, &stride) < 0)
        return NULL;
    int64_t cbits = (int64_t)_PyLong_NumBits(args[0]);
    if (cbits <= 0) {
        PyErr_SetString(PyExc_ValueError, "axis_hits: src must be a one-bit mask");
        return NULL;
    }
    if (max_turns > MAX_TURNS) {
        PyErr_Format(PyExc_ValueError, "axis_hits: max_turns must be <= %d", MAX_TURNS);
        return NULL;
    }
    Py_ssize_t c = (Py_ssize_t)cbits - 1;
    Py_ssize_t n = words_for(top, 0);
    int count = 2 + ARRAYS + 2 * (int)(max_turns + 1);
    word stack[STACK_AREA], *heap;
    word *base = scratch(stack, STACK_AREA, n, count, &heap);
    if (!base)
        return NULL;
    word *free = base, *targets = base + n, *mem = base + 2 * n;
    word *by_h = mem + ARRAYS * n, *by_v = by_h + (max_turns + 1) * n;
    PyObject *lh = NULL, *lv = NULL, *result = NULL;
    if (get_words(args[1], free, n) < 0 || get_words(args[2], targets, n) < 0)
        goto done;
    targets[c >> 6] &= ~((word)1 << (c & 63)); /* targets ^= targets & src */
    Py_ssize_t count_h = axis_levels(1, c, free, targets, max_turns, stride, mem, by_h, n);
    Py_ssize_t count_v = axis_levels(0, c, free, targets, max_turns, stride, mem, by_v, n);
    lh = level_list(by_h, count_h, n);
    lv = lh ? level_list(by_v, count_v, n) : NULL;
    if (lv)
        result = PyTuple_Pack(2, lh, lv);
done:
    Py_XDECREF(lh);
    Py_XDECREF(lv);
    PyMem_Free(heap);
    return result;
}

/* Arrays of n words link_hits_words needs in ``mem``. */
#define LINK_HITS_ARRAYS 10

/* ``hit`` = link_hits(src, free, targets) on word arrays (see the Python function). */
static void link_hits_words(word *hit, const word *src, const word *free, const word *targets,
                            Py_ssize_t max_turns, Py_ssize_t stride, word *mem, Py_ssize_t n)
{
    memset(mem, 0, (size_t)(4 * n) * sizeof(word)); /* h, v, hp, vp: the others are written */
    word *h = mem, *v = mem + n, *hp = mem + 2 * n, *vp = mem + 3 * n, *nh = mem + 4 * n;
    word *nv = mem + 5 * n, *hseeds = mem + 6 * n, *vseeds = mem + 7 * n, *xh = mem + 8 * n;
    word *xv = mem + 9 * n;
    memcpy(hseeds, src, (size_t)n * sizeof(word));
    memcpy(vseeds, src, (size_t)n * sizeof(word));
    for (Py_ssize_t level = 0;; level++) {
        next_level(nh, nv, h, v, hseeds, vseeds, free, stride, n);
        SWAP(hp, h);
        SWAP(h, nh);
        SWAP(vp, v);
        SWAP(v, nv);
        for (Py_ssize_t i = 0; i < n; i++) {
            xh[i] = src[i] | vp[i] | h[i];
            xv[i] = src[i] | hp[i] | v[i];
        }
        step_out(hit, xh, xv, targets, stride, n);
        if (equal(hit, targets, n) || level == max_turns || (equal(h, hp, n) && equal(v, vp, n))) {
            for (Py_ssize_t i = 0; i < n; i++)
                hit[i] &= ~src[i];
            return;
        }
        for (Py_ssize_t i = 0; i < n; i++) {
            hseeds[i] = v[i] ^ vp[i];
            vseeds[i] = h[i] ^ hp[i];
        }
    }
}

static PyObject *link_hits(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    Py_ssize_t max_turns, stride;
    int64_t top;
    if (five_args(args, nargs, "link_hits", &top, &max_turns, &stride) < 0)
        return NULL;
    Py_ssize_t n = words_for(top, 0);
    enum { COUNT = 4 + LINK_HITS_ARRAYS };
    word stack[STACK_AREA], *heap;
    word *m = scratch(stack, STACK_AREA, n, COUNT, &heap);
    if (!m)
        return NULL;
    word *src = m, *free = m + n, *targets = m + 2 * n, *hit = m + 3 * n, *mem = m + 4 * n;
    PyObject *result = NULL;
    if (get_words(args[0], src, n) >= 0 && get_words(args[1], free, n) >= 0
        && get_words(args[2], targets, n) >= 0) {
        link_hits_words(hit, src, free, targets, max_turns, stride, mem, n);
        result = to_int(hit, n);
    }
    PyMem_Free(heap);
    return result;
}

/* Arrays of n words reach_words needs in ``mem``. */
#define REACH_ARRAYS 16

/* link_reach(src, free, targets, max_turns, stride, toward, stop) on word arrays (see the
 * Python function): ``hits``, ``reach`` and ``frontier`` written (n words each; n must leave
 * room for a shift by stride past the top of the masks: the frontier is not masked).
 * ``stop`` NULL or empty: none; ``toward`` NULL or four arrays. */
static void reach_words(word *hits, word *reach, word *frontier, const word *src,
                        const word *free, const word *targets, const word *stop,
                        word *const *toward, Py_ssize_t max_turns, Py_ssize_t stride, word *mem,
                        Py_ssize_t n)
{
    word *h = mem, *v = mem + n, *hp = mem + 2 * n, *vp = mem + 3 * n, *hpp = mem + 4 * n;
    word *vpp = mem + 5 * n, *nh = mem + 6 * n, *nv = mem + 7 * n, *hseeds = mem + 8 * n;
    word *vseeds = mem + 9 * n, *xh = mem + 10 * n, *xv = mem + 11 * n, *stop_h = mem + 12 * n;
    word *stop_v = mem + 13 * n, *t = mem + 14 * n, *t2 = mem + 15 * n;
    memset(h, 0, (size_t)(6 * n) * sizeof(word)); /* h .. vpp: the others are written first */
    int use_toward = toward != NULL, any_stop = stop != NULL && !is_zero(stop, n);
    if (any_stop) {
        /* Cells from which a step right or left / down or up lands on a cell of stop. */
        shl(stop_h, stop, 1, n);
        shr(t, stop, 1, n);
        for (Py_ssize_t i = 0; i < n; i++)
            stop_h[i] |= t[i];
        shl(stop_v, stop, stride, n);
        shr(t, stop, stride, n);
        for (Py_ssize_t i = 0; i < n; i++)
            stop_v[i] |= t[i];
    }
    memcpy(hseeds, src, (size_t)n * sizeof(word));
    memcpy(vseeds, src, (size_t)n * sizeof(word));
    for (Py_ssize_t level = 0;; level++) {
        next_level(nh, nv, h, v, hseeds, vseeds, free, stride, n);
        SWAP(hpp, hp); /* hpp = hp, hp = h, h = nh */
        SWAP(hp, h);
        SWAP(h, nh);
        SWAP(vpp, vp);
        SWAP(vp, v);
        SWAP(v, nv);
        int hit = 0;
        if (any_stop)
            for (Py_ssize_t i = 0; i < n && !hit; i++)
                hit = (((src[i] | vp[i] | h[i]) & stop_h[i]) | ((src[i] | hp[i] | v[i]) & stop_v[i]))
                      != 0;
        if (hit || (equal(h, hp, n) && equal(v, vp, n))) {
            use_toward = 0;
            break;
        }
        if (level == max_turns)
            break;
        for (Py_ssize_t i = 0; i < n; i++) {
            hseeds[i] = v[i] ^ vp[i];
            vseeds[i] = h[i] ^ hp[i];
        }
    }
    if (!use_toward) {
        for (Py_ssize_t i = 0; i < n; i++) {
            xh[i] = src[i] | vp[i] | h[i];
            xv[i] = src[i] | hp[i] | v[i];
        }
        step_out(frontier, xh, xv, NULL, stride, n);
    } else {
        /* Steps with a turn to spare (from src, H[k-1], V[k-2] horizontally; src, V[k-1],
         * H[k-2] vertically), then those that use the last turn or follow it. */
        const word *right = toward[0], *left = toward[1], *down = toward[2], *up = toward[3];
        for (Py_ssize_t i = 0; i < n; i++) {
            xh[i] = src[i] | vpp[i] | hp[i];
            xv[i] = src[i] | hpp[i] | vp[i];
        }
        step_out(frontier, xh, xv, NULL, stride, n);
        for (Py_ssize_t i = 0; i < n; i++) {
            xh[i] = vp[i] | h[i];
            xv[i] = hp[i] | v[i];
        }
        shl(t, xh, 1, n);
        shr(t2, xh, 1, n);
        for (Py_ssize_t i = 0; i < n; i++)
            frontier[i] |= (t[i] & right[i]) | (t2[i] & left[i]);
        shl(t, xv, stride, n);
        shr(t2, xv, stride, n);
        for (Py_ssize_t i = 0; i < n; i++)
            frontier[i] |= (t[i] & down[i]) | (t2[i] & up[i]);
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        frontier[i] &= ~src[i];
        hits[i] = frontier[i] & targets[i];
        reach[i] = h[i] | v[i];
    }
}

static PyObject *link_reach(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    Py_ssize_t max_turns, stride;
    int64_t top;
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError,
                        "link_reach(src, free, targets, max_turns, stride, toward, stop)");
        return NULL;
    }
    PyObject *masks[8] = {args[0], args[1], args[2], args[6]};
    int count = 4;
    PyObject *toward = args[5];
    if (toward != Py_None) {
        if (!PyTuple_Check(toward) || PyTuple_GET_SIZE(toward) != 4) {
            PyErr_SetString(PyExc_TypeError, "link_reach: toward must be None or 4 masks");
            return NULL;
        }
        for (int i = 0; i < 4; i++)
            masks[count++] = PyTuple_GET_ITEM(toward, i);
    }
    if (check_masks(masks, count, "link_reach", &top) < 0
        || get_count(args[3], "link_reach", "max_turns", 0, &max_turns) < 0
        || get_count(args[4], "link_reach", "stride", 1, &stride) < 0)
        return NULL;
    /* The frontier is not masked: room for the shifts past the top. */
    Py_ssize_t n = words_for(top, stride);
    enum { COUNT = 11 + REACH_ARRAYS };
    word stack[STACK_AREA], *heap;
    word *m = scratch(stack, STACK_AREA, n, COUNT, &heap);
    if (!m)
        return NULL;
    word *src = m, *free = m + n, *targets = m + 2 * n, *stop = m + 3 * n, *hits = m + 4 * n;
    word *reach = m + 5 * n, *frontier = m + 6 * n, *mem = m + 11 * n;
    word *dirs[4] = {m + 7 * n, m + 8 * n, m + 9 * n, m + 10 * n};
    PyObject *result = NULL;
    if (get_words(args[0], src, n) < 0 || get_words(args[1], free, n) < 0
        || get_words(args[2], targets, n) < 0 || get_words(args[6], stop, n) < 0)
        goto done;
    if (toward != Py_None)
        for (int i = 0; i < 4; i++)
            if (get_words(PyTuple_GET_ITEM(toward, i), dirs[i], n) < 0)
                goto done;
    reach_words(hits, reach, frontier, src, free, targets, stop,
                toward != Py_None ? dirs : NULL, max_turns, stride, mem, n);
    result = Py_BuildValue("(NNN)", to_int(hits, n), to_int(reach, n), to_int(frontier, n));
done:
    PyMem_Free(heap);
    return result;
}

/* The number of set bits. */
static Py_ssize_t popcount(const word *a, Py_ssize_t n)
{
    Py_ssize_t count = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        count += popcount_word(a[i]);
    return count;
}

static inline void clear_bit(word *a, Py_ssize_t i) { a[i >> 6] &= ~((word)1 << (i & 63)); }

/* A mask of the live move list into ``out`` (n words), checked: a non-negative int within the
 * layout. */
static int load(PyObject *value, word *out, Py_ssize_t n)
{
    if (!PyLong_Check(value) || sign(value) < 0) {
        PyErr_SetString(PyExc_TypeError, "remove_pair: masks must be non-negative ints");
        return -1;
    }
    if ((int64_t)_PyLong_NumBits(value) > (int64_t)n * 64) {
        PyErr_SetString(PyExc_ValueError, "remove_pair: a mask goes past the layout");
        return -1;
    }
    return get_words(value, out, n);
}

/* The tiles of ``kind`` (``kind_mask[kind]``) into ``out``; -1 (KeyError) when missing. */
static int load_kind(PyObject *kind_mask, PyObject *kind, word *out, Py_ssize_t n)
{
    PyObject *mask = PyDict_GetItemWithError(kind_mask, kind);
    if (!mask) {
        if (!PyErr_Occurred())
            PyErr_SetObject(PyExc_KeyError, kind);
        return -1;
    }
    return load(mask, out, n);
}

/* ``list[i] = int(w)``; -1 on error. */
static int store(PyObject *list, Py_ssize_t i, const word *w, Py_ssize_t n)
{
    PyObject *v = to_int(w, n);
    return v ? PyList_SetItem(list, i, v) : -1;
}

/* The highest set bit of ``a``, -1 when none; ``a`` keeps it. */
static Py_ssize_t top_bit(const word *a, Py_ssize_t n)
{
    for (Py_ssize_t i = n - 1; i >= 0; i--)
        if (a[i])
            return i * 64 + 63 - __builtin_clzll(a[i]);
    return -1;
}

/* True when the words of ``a`` equal those of ``mask`` with bit ``x`` flipped. */
static int equal_but(const word *a, word *mask, Py_ssize_t x, Py_ssize_t n)
{
    mask[x >> 6] ^= (word)1 << (x & 63);
    int same = equal(a, mask, n);
    mask[x >> 6] ^= (word)1 << (x & 63);
    return same;
}

/* remove_pair(links, kind_of, kind_mask, left, a, b, free, open_mask, total, max_turns,
 * stride, gained) -> (free, open_mask, total): the body of levelgen.live.LiveLinks.remove
 * after its undo record, step for step (read that method and its module docstring): the
 * links of a and b dropped at both ends, the tiles of their kind that close, then the new
 * links found from the two freed cells with the levels of axis_hits, kept in word arrays.
 * ``links`` and ``kind_mask`` are updated in place, each new link appended to ``gained`` as
 * ``(tile, partners)`` when it is a list. */
static PyObject *remove_pair(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 12) {
        PyErr_SetString(PyExc_TypeError,
                        "remove_pair(links, kind_of, kind_mask, left, a, b, free, open_mask, "
                        "total, max_turns, stride, gained)");
        return NULL;
    }
    PyObject *links = args[0], *kind_of = args[1], *kind_mask = args[2], *left = args[3];
    PyObject *gained = args[11];
    Py_ssize_t a, b, total, k, stride;
    if (!PyList_Check(links) || !PyList_Check(kind_of) || !PyDict_Check(kind_mask)
        || !PyList_Check(left) || (gained != Py_None && !PyList_Check(gained))) {
        PyErr_SetString(PyExc_TypeError, "remove_pair: links, kind_of and left must be lists, "
                                         "kind_mask a dict, gained a list or None");
        return NULL;
    }
    Py_ssize_t size = PyList_GET_SIZE(links);
    if (get_count(args[4], "remove_pair", "a", 0, &a) < 0
        || get_count(args[5], "remove_pair", "b", 0, &b) < 0
        || get_count(args[8], "remove_pair", "total", 0, &total) < 0
        || get_count(args[9], "remove_pair", "max_turns", 0, &k) < 0
        || get_count(args[10], "remove_pair", "stride", 1, &stride) < 0)
        return NULL;
    if (a >= size || b >= size || a == b || PyList_GET_SIZE(kind_of) < size
        || PyList_GET_SIZE(left) < stride || k > MAX_TURNS) {
        PyErr_SetString(PyExc_ValueError,
                        "remove_pair: a and b must be two tiles of the layout, kind_of cover it, "
                        "left hold a mask per column, max_turns be at most 1000");
        return NULL;
    }
    Py_ssize_t n = words_for(size, 0);
    enum { OWN = 12 };
    int count = OWN + ARRAYS + 2 * (int)(k + 1);
    word stack[STACK_AREA], *heap;
    word *m = scratch(stack, STACK_AREA, n, count, &heap);
    if (!m)
        return NULL;
    /* (No array needs clearing first: each is loaded or written in full before it is read.) */
    word *free = m, *open = m + n, *wa = m + 2 * n, *wb = m + 3 * n, *wx = m + 4 * n;
    word *mask = m + 5 * n, *rest = m + 6 * n, *ends = m + 7 * n, *partners = m + 8 * n;
    word *more = m + 9 * n, *side = m + 10 * n, *hit = m + 11 * n, *mem = m + OWN * n;
    word *by_h = mem + ARRAYS * n, *by_v = by_h + (k + 1) * n;
    PyObject *result = NULL, *kind, *mobj;
    if (load(args[6], free, n) < 0 || load(args[7], open, n) < 0
        || load(PyList_GET_ITEM(links, a), wa, n) < 0
        || load(PyList_GET_ITEM(links, b), wb, n) < 0)
        goto done;
    /* The links of a and b vanish, at both of their ends. */
    total -= popcount(wa, n) + popcount(wb, n);
    for (Py_ssize_t i = 0; i < n; i++)
        rest[i] = wa[i] | wb[i];
    clear_bit(rest, a);
    clear_bit(rest, b);
    memset(wx, 0, (size_t)n * sizeof(word));
    if (store(links, a, wx, n) < 0 || store(links, b, wx, n) < 0)
        goto done;
    for (Py_ssize_t x; (x = top_bit(rest, n)) >= 0;) {
        clear_bit(rest, x);
        if (load(PyList_GET_ITEM(links, x), wx, n) < 0)
            goto done;
        int lost = bit(wx, a) + bit(wx, b);
        if (lost) {
            clear_bit(wx, a);
            clear_bit(wx, b);
            total -= lost;
            if (store(links, x, wx, n) < 0)
                goto done;
        }
    }
    /* Open tiles of their kind whose only missing partners were a and b close. */
    kind = PyList_GET_ITEM(kind_of, a);
    if (load_kind(kind_mask, kind, mask, n) < 0)
        goto done;
    clear_bit(mask, a);
    clear_bit(mask, b);
    mobj = to_int(mask, n);
    if (!mobj || PyDict_SetItem(kind_mask, kind, mobj) < 0) {
        Py_XDECREF(mobj);
        goto done;
    }
    Py_DECREF(mobj);
    for (Py_ssize_t i = 0; i < n; i++)
        rest[i] = mask[i] & open[i];
    for (Py_ssize_t x; (x = top_bit(rest, n)) >= 0;) {
        clear_bit(rest, x);
        if (load(PyList_GET_ITEM(links, x), wx, n) < 0)
            goto done;
        if (equal_but(wx, mask, x, n))
            clear_bit(open, x);
    }
    clear_bit(open, a);
    clear_bit(open, b);
    set_bit(free, a);
    set_bit(free, b);
    /* New links across a or b, between open tiles of one kind (see LiveLinks.remove). */
    for (int which = 0; which < 2 && !is_zero(open, n); which++) {
        Py_ssize_t c = which ? b : a, half = k / 2, column = c % stride;
        axis_levels(1, c, free, open, k, stride, mem, by_h, n);
        axis_levels(0, c, free, open, k, stride, mem, by_v, n);
        for (int axis = 0; axis < 2; axis++) {
            const word *hits = axis ? by_v : by_h, *other = axis ? by_h : by_v;
            for (Py_ssize_t t = 0; t <= half; t++) {
                const word *before = t ? hits + (t - 1) * n : hits, *hk = hits + (k - t) * n;
                int any = 0;
                for (Py_ssize_t i = 0; i < n; i++) {
                    ends[i] = hits[t * n + i] & open[i] & (t ? ~before[i] : ~(word)0);
                    any |= ends[i] != 0;
                }
                if (!any)
                    continue;
                for (Py_ssize_t i = 0; i < n; i++)
                    partners[i] = hk[i] & (t ? ~before[i] : ~(word)0);
                if (k - 1 - t >= t) {
                    const word *o = other + (k - 1 - t) * n, *ob = t ? other + (t - 1) * n : other;
                    for (Py_ssize_t i = 0; i < n; i++) {
                        more[i] = o[i] & (t ? ~ob[i] : ~(word)0);
                        partners[i] |= more[i];
                    }
                }
                for (Py_ssize_t i = 0; i < n; i++)
                    partners[i] &= open[i];
                word *e = ends, *pt = partners;
                if (t == 1 && k == 2) {
                    /* Both ends one turn away: a new link leaves c in opposite directions;
                     * the tiles one turn away lie on their path's side of c. */
                    if (axis == 0) {
                        if (load(PyList_GET_ITEM(left, column), side, n) < 0)
                            goto done;
                    } else {
                        Py_ssize_t below = c - column;
                        memset(side, 0, (size_t)n * sizeof(word));
                        for (Py_ssize_t i = 0; i < below / 64; i++)
                            side[i] = ~(word)0;
                        if (below % 64)
                            side[below / 64] = ((word)1 << (below % 64)) - 1;
                    }
                    for (Py_ssize_t i = 0; i < n; i++) {
                        e[i] &= side[i];
                        pt[i] &= ~side[i];
                    }
                    if (popcount(e, n) > popcount(pt, n))
                        SWAP(e, pt);
                }
                if (is_zero(pt, n))
                    continue;
                for (Py_ssize_t x; (x = top_bit(e, n)) >= 0;) {
                    clear_bit(e, x);
                    if (load_kind(kind_mask, PyList_GET_ITEM(kind_of, x), mask, n) < 0)
                        goto done;
                    any = 0;
                    for (Py_ssize_t i = 0; i < n; i++) {
                        hit[i] = mask[i] & pt[i];
                        any |= hit[i] != 0;
                    }
                    if (!any)
                        continue;
                    if (load(PyList_GET_ITEM(links, x), wx, n) < 0)
                        goto done;
                    any = 0;
                    for (Py_ssize_t i = 0; i < n; i++) {
                        hit[i] &= ~wx[i];
                        any |= hit[i] != 0;
                    }
                    clear_bit(hit, x);
                    if (!any || is_zero(hit, n))
                        continue;
                    if (gained != Py_None) {
                        PyObject *h = to_int(hit, n);
                        PyObject *entry = h ? Py_BuildValue("(nN)", x, h) : NULL;
                        if (!entry || PyList_Append(gained, entry) < 0) {
                            Py_XDECREF(entry);
                            goto done;
                        }
                        Py_DECREF(entry);
                    }
                    for (Py_ssize_t i = 0; i < n; i++)
                        wx[i] |= hit[i];
                    if (store(links, x, wx, n) < 0)
                        goto done;
                    total += 2 * popcount(hit, n);
                    if (equal_but(wx, mask, x, n))
                        clear_bit(open, x);
                    for (Py_ssize_t y; (y = top_bit(hit, n)) >= 0;) {
                        clear_bit(hit, y);
                        if (load(PyList_GET_ITEM(links, y), wx, n) < 0)
                            goto done;
                        set_bit(wx, x);
                        if (store(links, y, wx, n) < 0)
                            goto done;
                        if (equal_but(wx, mask, y, n))
                            clear_bit(open, y);
                    }
                }
            }
        }
    }
    {
        PyObject *f = to_int(free, n), *o = f ? to_int(open, n) : NULL;
        if (o)
            result = Py_BuildValue("(NNn)", f, o, total);
        else
            Py_XDECREF(f);
    }
done:
    PyMem_Free(heap);
    return result;
}

static int cmp_index(const void *x, const void *y)
{
    Py_ssize_t a = *(const Py_ssize_t *)x, b = *(const Py_ssize_t *)y;
    return (a > b) - (a < b);
}

/* fill_links(links, kind_of, kind_mask, free, linked, fill_kinds, even_tiles, max_turns,
 * stride) -> (open_mask, total): the body of levelgen.live.LiveLinks.python_fill_links, step
 * for step (read it): the links of a fresh position (``links`` all zero) from a link_hits
 * fill from each tile of ``linked`` (-1: every tile) toward the tiles of its kind not yet
 * tested, written into ``links``; ``kind_of`` filled when ``fill_kinds``; ``even_tiles``
 * None or the tiles of a position whose kinds are all even (then only the kinds of the
 * tiles of ``linked`` are looked at). */
static PyObject *fill_links(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 9) {
        PyErr_SetString(PyExc_TypeError, "fill_links(links, kind_of, kind_mask, free, linked, "
                                         "fill_kinds, even_tiles, max_turns, stride)");
        return NULL;
    }
    PyObject *links = args[0], *kind_of = args[1], *kind_mask = args[2], *even = args[6];
    Py_ssize_t k, stride;
    if (!PyList_Check(links) || !PyList_Check(kind_of) || !PyDict_Check(kind_mask)) {
        PyErr_SetString(PyExc_TypeError,
                        "fill_links: links and kind_of must be lists, kind_mask a dict");
        return NULL;
    }
    int fill_kinds = PyObject_IsTrue(args[5]);
    if (fill_kinds < 0 || get_count(args[7], "fill_links", "max_turns", 0, &k) < 0
        || get_count(args[8], "fill_links", "stride", 1, &stride) < 0)
        return NULL;
    Py_ssize_t size = PyList_GET_SIZE(links);
    if (PyList_GET_SIZE(kind_of) < size) {
        PyErr_SetString(PyExc_ValueError, "fill_links: kind_of must cover the layout");
        return NULL;
    }
    int all_linked = PyLong_Check(args[4]) && sign(args[4]) < 0;
    Py_ssize_t n = words_for(size, 0);
    /* The kinds to look at, as (kind, mask) items. */
    PyObject *kinds = NULL, *result = NULL, *seen = NULL;
    word *m = NULL, *lk = NULL;
    Py_ssize_t *tiles = NULL;
    enum { OWN = 10 };
    m = PyMem_Malloc((size_t)((OWN + LINK_HITS_ARRAYS) * n) * sizeof(word));
    if (!m) {
        PyErr_NoMemory();
        goto done;
    }
    memset(m, 0, (size_t)((OWN + LINK_HITS_ARRAYS) * n) * sizeof(word));
    word *free = m, *linked = m + n, *edge = m + 2 * n, *open = m + 3 * n, *mask = m + 4 * n;
    word *done_ = m + 5 * n, *targets = m + 6 * n, *near = m + 7 * n, *hit = m + 8 * n;
    word *low = m + 9 * n, *mem = m + OWN * n;
    Py_ssize_t total = 0;
    if (load(args[3], free, n) < 0)
        goto done;
    if (all_linked)
        memset(linked, 0xff, (size_t)n * sizeof(word));
    else if (load(args[4], linked, n) < 0)
        goto done;
    if (even == Py_None) {
        kinds = PyDict_Items(kind_mask);
        if (!kinds)
            goto done;
    } else {
        /* Only the kinds of the tiles of ``linked``: the others' tiles are all open. */
        if (load(even, open, n) < 0)
            goto done;
        kinds = PyList_New(0);
        seen = PySet_New(NULL);
        if (!kinds || !seen)
            goto done;
        for (Py_ssize_t i = 0; i < n; i++)
            for (word w = linked[i]; w; w &= w - 1) {
                Py_ssize_t x = i * 64 + __builtin_ctzll(w);
                if (x >= size)
                    break;
                PyObject *kind = PyList_GET_ITEM(kind_of, x);
                int had = PySet_Contains(seen, kind);
                if (had < 0 || (!had && PySet_Add(seen, kind) < 0))
                    goto done;
                if (had)
                    continue;
                PyObject *mobj = PyDict_GetItemWithError(kind_mask, kind);
                if (!mobj) {
                    if (!PyErr_Occurred())
                        PyErr_SetObject(PyExc_KeyError, kind);
                    goto done;
                }
                PyObject *item = PyTuple_Pack(2, kind, mobj);
                if (!item || PyList_Append(kinds, item) < 0) {
                    Py_XDECREF(item);
                    goto done;
                }
                Py_DECREF(item);
                if (load(mobj, mask, n) < 0)
                    goto done;
                for (Py_ssize_t j = 0; j < n; j++)
                    open[j] &= ~mask[j];
            }
    }
    /* The cells with a free neighbour. */
    shl(edge, free, 1, n);
    shr(hit, free, 1, n);
    for (Py_ssize_t i = 0; i < n; i++)
        edge[i] |= hit[i];
    shl(hit, free, stride, n);
    for (Py_ssize_t i = 0; i < n; i++)
        edge[i] |= hit[i];
    shr(hit, free, stride, n);
    for (Py_ssize_t i = 0; i < n; i++)
        edge[i] |= hit[i];
    Py_ssize_t tiles_room = 0;
    for (Py_ssize_t item = 0; item < PyList_GET_SIZE(kinds); item++) {
        PyObject *kind = PyTuple_GET_ITEM(PyList_GET_ITEM(kinds, item), 0);
        if (load(PyTuple_GET_ITEM(PyList_GET_ITEM(kinds, item), 1), mask, n) < 0)
            goto done;
        Py_ssize_t count = popcount(mask, n);
        int touches = 0;
        for (Py_ssize_t i = 0; i < n && !touches; i++)
            touches = (mask[i] & linked[i]) != 0;
        if (!touches && !fill_kinds) {
            /* No tile to test: no links, so every tile with another of its kind is open. */
            if (count >= 2)
                for (Py_ssize_t i = 0; i < n; i++)
                    open[i] |= mask[i];
            continue;
        }
        if (count > tiles_room) {
            PyMem_Free(tiles);
            PyMem_Free(lk);
            tiles = PyMem_Malloc((size_t)count * sizeof(Py_ssize_t));
            lk = PyMem_Malloc((size_t)(count * n) * sizeof(word));
            if (!tiles || !lk) {
                PyErr_NoMemory();
                goto done;
            }
            tiles_room = count;
        }
        Py_ssize_t t = 0;
        for (Py_ssize_t i = 0; i < n; i++)
            for (word w = mask[i]; w; w &= w - 1)
                tiles[t++] = i * 64 + __builtin_ctzll(w);
        memset(lk, 0, (size_t)(count * n) * sizeof(word));
        memset(done_, 0, (size_t)n * sizeof(word));
        for (Py_ssize_t j = 0; j < count; j++) {
            Py_ssize_t x = tiles[j];
            if (x >= size) {
                PyErr_SetString(PyExc_ValueError, "fill_links: a mask goes past the layout");
                goto done;
            }
            if (PyList_GET_ITEM(kind_of, x) != kind) {
                Py_INCREF(kind);
                if (PyList_SetItem(kind_of, x, kind) < 0)
                    goto done;
            }
            if (!bit(linked, x))
                continue;
            int any = 0;
            for (Py_ssize_t i = 0; i < n; i++) {
                targets[i] = mask[i] & ~done_[i];
                any |= targets[i] != 0;
            }
            clear_bit(targets, x);
            set_bit(done_, x);
            if (!any || is_zero(targets, n))
                continue;
            memset(near, 0, (size_t)n * sizeof(word));
            set_bit(near, x + 1);
            if (x >= 1)
                set_bit(near, x - 1);
            if (x + stride < n * 64)
                set_bit(near, x + stride);
            if (x >= stride)
                set_bit(near, x - stride);
            if (bit(edge, x)) {
                any = 0;
                for (Py_ssize_t i = 0; i < n; i++) {
                    targets[i] &= edge[i] | near[i];
                    any |= targets[i] != 0;
                }
                if (any) {
                    memset(low, 0, (size_t)n * sizeof(word));
                    set_bit(low, x);
                    link_hits_words(hit, low, free, targets, k, stride, mem, n);
                } else
                    memset(hit, 0, (size_t)n * sizeof(word));
            } else
                for (Py_ssize_t i = 0; i < n; i++)
                    hit[i] = near[i] & targets[i];
            Py_ssize_t gained = popcount(hit, n);
            if (!gained)
                continue;
            total += 2 * gained;
            word *own = lk + j * n;
            for (Py_ssize_t i = 0; i < n; i++)
                own[i] |= hit[i];
            for (Py_ssize_t i = 0; i < n; i++)
                for (word w = hit[i]; w; w &= w - 1) {
                    Py_ssize_t y = i * 64 + __builtin_ctzll(w);
                    Py_ssize_t *at = bsearch(&y, tiles, (size_t)count, sizeof(Py_ssize_t),
                                             cmp_index);
                    set_bit(lk + (at - tiles) * n, x);
                }
        }
        /* The links written (``links`` starts all zero), and the open tiles: those not
         * linked to every other tile of their kind. */
        for (Py_ssize_t j = 0; j < count; j++) {
            Py_ssize_t x = tiles[j];
            word *own = lk + j * n;
            if (!is_zero(own, n) && store(links, x, own, n) < 0)
                goto done;
            if (!equal_but(own, mask, x, n))
                set_bit(open, x);
        }
    }
    {
        PyObject *o = to_int(open, n);
        if (o)
            result = Py_BuildValue("(Nn)", o, total);
    }
done:
    Py_XDECREF(kinds);
    Py_XDECREF(seen);
    PyMem_Free(m);
    PyMem_Free(lk);
    PyMem_Free(tiles);
    return result;
}

/* A path's cells as its nonzero words (a few: the subset test looks at those only). */
typedef struct {
    Py_ssize_t count; /* -1: no cells known (the support -1: the test always fails) */
    Py_ssize_t *index;
    word *bits;
} Cells;

static int cells_set(Cells *c, PyObject *value, word *scratch_words, Py_ssize_t n)
{
    PyMem_Free(c->index);
    PyMem_Free(c->bits);
    c->index = NULL;
    c->bits = NULL;
    c->count = 0;
    if (!PyLong_Check(value)) {
        PyErr_SetString(PyExc_TypeError, "replay_moves: a support must be an int");
        return -1;
    }
    if (sign(value) < 0) {
        c->count = -1;
        return 0;
    }
    if (load(value, scratch_words, n) < 0)
        return -1;
    Py_ssize_t count = 0;
    for (Py_ssize_t i = 0; i < n; i++)
        count += scratch_words[i] != 0;
    if (!count)
        return 0;
    c->index = PyMem_Malloc((size_t)count * sizeof(Py_ssize_t));
    c->bits = PyMem_Malloc((size_t)count * sizeof(word));
    if (!c->index || !c->bits) {
        PyErr_NoMemory();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (scratch_words[i]) {
            c->index[c->count] = i;
            c->bits[c->count++] = scratch_words[i];
        }
    return 0;
}

/* replay_moves(seq, support, decided, drop, start_free, link_cells, layout, max_turns,
 * stride, size) -> (kept, kept_support, kept_decided, free): the loop of
 * levelgen.solvers.repair._Repairer.python_replay, step for step (read it): the moves of
 * ``seq`` without move ``drop``, those before it as they were, the later ones in passes, each
 * played once it links (at once when the cells of its support are all free, else after the
 * look at the cells next to its tiles, the memory of its failed reach test and a path search
 * ``link_cells(layout, free, a, b, max_turns)``, the Python function, or a reach test);
 * the supports found are written into ``support``.  ``size``: bits of the layout. */
static PyObject *replay_moves(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    if (nargs != 10) {
        PyErr_SetString(PyExc_TypeError, "replay_moves(seq, support, decided, drop, start_free, "
                                         "link_cells, layout, max_turns, stride, size)");
        return NULL;
    }
    PyObject *seq = args[0], *support = args[1], *decided = args[2], *link_cells = args[5];
    PyObject *layout = args[6];
    Py_ssize_t drop, k, stride, size;
    if (!PyList_Check(seq) || !PyList_Check(support) || !PyAnySet_Check(decided)
        || !PyCallable_Check(link_cells)) {
        PyErr_SetString(PyExc_TypeError, "replay_moves: seq and support must be lists, decided "
                                         "a set, link_cells callable");
        return NULL;
    }
    if (get_count(args[3], "replay_moves", "drop", 0, &drop) < 0
        || get_count(args[7], "replay_moves", "max_turns", 0, &k) < 0
        || get_count(args[8], "replay_moves", "stride", 1, &stride) < 0
        || get_count(args[9], "replay_moves", "size", 1, &size) < 0)
        return NULL;
    Py_ssize_t total = PyList_GET_SIZE(seq);
    if (PyList_GET_SIZE(support) != total || drop >= total) {
        PyErr_SetString(PyExc_ValueError,
                        "replay_moves: support must match seq, and drop be one of its moves");
        return NULL;
    }
    Py_ssize_t n = words_for(size, stride), nbits = n * 64;
    enum { OWN = 6 };
    PyObject *result = NULL, *kept = NULL, *kept_support = NULL, *kept_decided = NULL;
    Py_ssize_t *pending = NULL, *waiting = NULL, *ab = NULL;
    Cells *cells = NULL;
    word **failed = NULL;
    word *m = PyMem_Malloc((size_t)((OWN + REACH_ARRAYS) * n) * sizeof(word));
    if (!m) {
        PyErr_NoMemory();
        goto done;
    }
    word *free = m, *src = m + n, *target = m + 2 * n, *hits = m + 3 * n, *reach = m + 4 * n;
    word *frontier = m + 5 * n, *mem = m + OWN * n;
    if (load(args[4], free, n) < 0)
        goto done;
    pending = PyMem_Malloc((size_t)total * sizeof(Py_ssize_t));
    waiting = PyMem_Malloc((size_t)total * sizeof(Py_ssize_t));
    ab = PyMem_Malloc((size_t)(2 * total) * sizeof(Py_ssize_t));
    cells = PyMem_Calloc((size_t)total, sizeof(Cells));
    failed = PyMem_Calloc((size_t)total, sizeof(word *));
    kept = PyList_New(0);
    kept_support = PyList_New(0);
    kept_decided = PySet_New(NULL);
    if (!pending || !waiting || !ab || !cells || !failed) {
        PyErr_NoMemory();
        goto done;
    }
    if (!kept || !kept_support || !kept_decided)
        goto done;
    for (Py_ssize_t i = 0; i < total; i++) {
        PyObject *move = PyList_GET_ITEM(seq, i);
        if (!PyTuple_Check(move) || PyTuple_GET_SIZE(move) != 2
            || get_count(PyTuple_GET_ITEM(move, 0), "replay_moves", "a tile", 0, &ab[2 * i]) < 0
            || get_count(PyTuple_GET_ITEM(move, 1), "replay_moves", "a tile", 0, &ab[2 * i + 1])
                   < 0)
            goto done;
        if (ab[2 * i] + stride >= nbits || ab[2 * i + 1] + stride >= nbits
            || ab[2 * i] < stride || ab[2 * i + 1] < stride) {
            PyErr_SetString(PyExc_ValueError, "replay_moves: a move outside the layout");
            goto done;
        }
    }
    /* The moves before ``drop`` as they were. */
    for (Py_ssize_t i = 0; i < drop; i++) {
        set_bit(free, ab[2 * i]);
        set_bit(free, ab[2 * i + 1]);
        if (PyList_Append(kept, PyList_GET_ITEM(seq, i)) < 0
            || PyList_Append(kept_support, PyList_GET_ITEM(support, i)) < 0)
            goto done;
    }
    {
        PyObject *iter = PyObject_GetIter(decided), *item;
        if (!iter)
            goto done;
        while ((item = PyIter_Next(iter))) {
            Py_ssize_t i = PyLong_Check(item) ? PyLong_AsSsize_t(item) : -1;
            int bad = (i == -1 && PyErr_Occurred())
                      || (i >= 0 && i < drop && PySet_Add(kept_decided, item) < 0);
            Py_DECREF(item);
            if (bad) {
                Py_DECREF(iter);
                goto done;
            }
        }
        Py_DECREF(iter);
        if (PyErr_Occurred())
            goto done;
    }
    Py_ssize_t npending = 0;
    for (Py_ssize_t i = drop + 1; i < total; i++) {
        pending[npending++] = i;
        if (cells_set(&cells[i], PyList_GET_ITEM(support, i), hits, n) < 0)
            goto done;
    }
    while (npending) {
        Py_ssize_t nwaiting = 0;
        for (Py_ssize_t p = 0; p < npending; p++) {
            Py_ssize_t i = pending[p], a = ab[2 * i], b = ab[2 * i + 1];
            Cells *c = &cells[i];
            int all_free = c->count >= 0;
            for (Py_ssize_t j = 0; j < c->count && all_free; j++)
                all_free = (c->bits[j] & ~free[c->index[j]]) == 0;
            if (!all_free) {
                /* A look at the cells next to the two tiles, then the memory of a failed
                 * reach test, then the path search (a reach test when it finds none). */
                Py_ssize_t d = a > b ? a - b : b - a;
                if (d != 1 && d != stride
                    && !((bit(free, a + 1) || bit(free, a - 1) || bit(free, a + stride)
                          || bit(free, a - stride))
                         && (bit(free, b + 1) || bit(free, b - 1) || bit(free, b + stride)
                             || bit(free, b - stride)))) {
                    waiting[nwaiting++] = i;
                    continue;
                }
                word *before = failed[i];
                if (before) {
                    int opened = 0;
                    for (Py_ssize_t j = 0; j < n && !opened; j++)
                        opened = ((free[j] ^ before[j]) & before[n + j]) != 0;
                    if (!opened) {
                        waiting[nwaiting++] = i;
                        continue;
                    }
                }
                PyObject *found = NULL, *free_o = to_int(free, n);
                if (!free_o)
                    goto done;
                if (c->count < 0) {
                    found = PyObject_CallFunction(link_cells, "OOnnn", layout, free_o, a, b, k);
                    if (!found) {
                        Py_DECREF(free_o);
                        goto done;
                    }
                }
                if (found == NULL || found == Py_None) {
                    Py_XDECREF(found);
                    found = NULL;
                    memset(src, 0, (size_t)n * sizeof(word));
                    memset(target, 0, (size_t)n * sizeof(word));
                    set_bit(src, a);
                    set_bit(target, b);
                    reach_words(hits, reach, frontier, src, free, target, NULL, NULL, k, stride,
                                mem, n);
                    if (is_zero(hits, n)) {
                        Py_DECREF(free_o);
                        if (!before) {
                            before = failed[i] = PyMem_Malloc((size_t)(2 * n) * sizeof(word));
                            if (!before) {
                                PyErr_NoMemory();
                                goto done;
                            }
                        }
                        memcpy(before, free, (size_t)n * sizeof(word));
                        memcpy(before + n, frontier, (size_t)n * sizeof(word));
                        waiting[nwaiting++] = i;
                        continue;
                    }
                    found = PyObject_CallFunction(link_cells, "OOnnn", layout, free_o, a, b, k);
                    if (!found) {
                        Py_DECREF(free_o);
                        goto done;
                    }
                }
                Py_DECREF(free_o);
                /* ``found or 0``: any path's cells will do. */
                int truth = PyObject_IsTrue(found);
                if (truth < 0) {
                    Py_DECREF(found);
                    goto done;
                }
                if (!truth) {
                    Py_DECREF(found);
                    found = PyLong_FromLong(0);
                    if (!found)
                        goto done;
                }
                if (PyList_SetItem(support, i, found) < 0) /* steals found */
                    goto done;
                if (cells_set(c, found, hits, n) < 0)
                    goto done;
            }
            PyObject *index = PyLong_FromSsize_t(i);
            if (!index)
                goto done;
            int in = PySet_Contains(decided, index);
            Py_DECREF(index);
            if (in < 0)
                goto done;
            if (in) {
                PyObject *at = PyLong_FromSsize_t(PyList_GET_SIZE(kept));
                if (!at || PySet_Add(kept_decided, at) < 0) {
                    Py_XDECREF(at);
                    goto done;
                }
                Py_DECREF(at);
            }
            set_bit(free, a);
            set_bit(free, b);
            if (PyList_Append(kept, PyList_GET_ITEM(seq, i)) < 0
                || PyList_Append(kept_support, PyList_GET_ITEM(support, i)) < 0)
                goto done;
        }
        if (nwaiting == npending)
            break;
        Py_ssize_t *swap = pending;
        pending = waiting;
        waiting = swap;
        npending = nwaiting;
    }
    result = Py_BuildValue("(OOON)", kept, kept_support, kept_decided, to_int(free, n));
done:
    Py_XDECREF(kept);
    Py_XDECREF(kept_support);
    Py_XDECREF(kept_decided);
    if (cells)
        for (Py_ssize_t i = 0; i < total; i++) {
            PyMem_Free(cells[i].index);
            PyMem_Free(cells[i].bits);
        }
    if (failed)
        for (Py_ssize_t i = 0; i < total; i++)
            PyMem_Free(failed[i]);
    PyMem_Free(cells);
    PyMem_Free(failed);
    PyMem_Free(pending);
    PyMem_Free(waiting);
    PyMem_Free(ab);
    PyMem_Free(m);
    return result;
}

/* True when the cells strictly between ``p`` and ``q``, along bit steps of ``step`` (which
 * divides q - p), are all free: ``q`` is in the straight run from ``p``. */
static int clear_run(const word *free, Py_ssize_t p, Py_ssize_t q, Py_ssize_t step)
{
    Py_ssize_t lo = p < q ? p : q, hi = p < q ? q : p;
    for (Py_ssize_t k = lo + step; k < hi; k += step)
        if (!bit(free, k))
            return 0;
    return 1;
}

/* paths._between's test: clear_run along the row when ``p`` and ``q`` are less than
 * ``stride`` apart, else along the column. */
static int clear_between(const word *free, Py_ssize_t p, Py_ssize_t q, Py_ssize_t stride)
{
    Py_ssize_t gap = p < q ? q - p : p - q;
    return clear_run(free, p, q, gap < stride ? 1 : stride);
}

/* direct_path(free, a, b, max_turns, stride) -> (corners, length) | None: the compiled twin of
 * levelgen.paths._direct (read it): the best path of at most min(max_turns, 2) turns from bit
 * a to bit b, its corner bits (the ends included) and length; of equal lengths, the smallest
 * corner list, points compared as (x, y).  The straight runs from a and b are walked. */
static PyObject *direct_path(PyObject *self, PyObject *const *args, Py_ssize_t nargs)
{
    (void)self;
    Py_ssize_t a, b, k, stride;
    if (nargs != 5) {
        PyErr_SetString(PyExc_TypeError, "direct_path(free, a, b, max_turns, stride)");
        return NULL;
    }
    int64_t top;
    if (check_masks(args, 1, "direct_path", &top) < 0
        || get_count(args[1], "direct_path", "a", 0, &a) < 0
        || get_count(args[2], "direct_path", "b", 0, &b) < 0
        || get_count(args[3], "direct_path", "max_turns", 0, &k) < 0
        || get_count(args[4], "direct_path", "stride", 1, &stride) < 0)
        return NULL;
    if (a + 1 > top)
        top = a + 1;
    if (b + 1 > top)
        top = b + 1;
    Py_ssize_t n = words_for(top, stride), nbits = n * 64;
    word stack[STACK_WORDS], *heap = NULL, *free = stack;
    if (n > STACK_WORDS) {
        heap = free = PyMem_Malloc((size_t)n * sizeof(word));
        if (!heap)
            return PyErr_NoMemory();
    }
    PyObject *result = NULL;
    if (get_words(args[0], free, n) < 0)
        goto done;
    if (a == b)
        goto none;
    Py_ssize_t lo = a < b ? a : b, hi = a < b ? b : a;
    Py_ssize_t ay = a / stride, ax = a % stride, by = b / stride, bx = b % stride;
    Py_ssize_t corners[4] = {a, 0, 0, b}, count = 0, length = 0;
    if (ay == by || ax == bx) {
        if (clear_between(free, a, b, stride)) {
            count = 2;
            length = ay == by ? hi - lo : (hi - lo) / stride;
            goto found;
        }
    }
    if (k == 0)
        goto none;
    if (ay != by && ax != bx) {
        /* The corners (bx, ay) and (ax, by), in (x, y) order: the first that works wins. */
        Py_ssize_t first = ay * stride + bx, second = by * stride + ax;
        if (bx > ax || (bx == ax && ay > by)) {
            Py_ssize_t t = first;
            first = second;
            second = t;
        }
        Py_ssize_t both[2] = {first, second};
        for (int i = 0; i < 2; i++) {
            Py_ssize_t c = both[i];
            if (c < nbits && bit(free, c) && clear_between(free, a, c, stride)
                && clear_between(free, c, b, stride)) {
                corners[1] = c;
                corners[2] = b;
                count = 3;
                length = (ax > bx ? ax - bx : bx - ax) + (ay > by ? ay - by : by - ay);
                goto found;
            }
        }
    }
    if (k == 1)
        goto none;
    {
        Py_ssize_t best_len = (Py_ssize_t)1 << 30, best_c = -1, best_d = -1;
        for (int vertical = 0; vertical < 2; vertical++) {
            if (vertical ? ax == bx : ay == by)
                continue;
            /* a -> c (a straight run from a) -> d (the matching cell of b's run) -> b */
            Py_ssize_t step = vertical ? stride : 1;
            Py_ssize_t shift = vertical ? ax - bx : (ay - by) * stride;
            for (int dir = -1; dir <= 1; dir += 2)
                for (Py_ssize_t c = a + dir * step; c >= 0 && c < nbits && bit(free, c);
                     c += dir * step) {
                    Py_ssize_t d = c - shift;
                    /* d in b's straight run along the same axis, then c to d clear */
                    if (d < 0 || d >= nbits || d == b || !bit(free, d)
                        || !clear_run(free, d, b, step) || !clear_between(free, c, d, stride))
                        continue;
                    Py_ssize_t cx = c % stride, cy = c / stride, len;
                    if (vertical)
                        len = (ay > cy ? ay - cy : cy - ay) + (ax > bx ? ax - bx : bx - ax)
                              + (cy > by ? cy - by : by - cy);
                    else
                        len = (ax > cx ? ax - cx : cx - ax) + (ay > by ? ay - by : by - ay)
                              + (cx > bx ? cx - bx : bx - cx);
                    int better = len < best_len;
                    if (len == best_len) {
                        /* The smaller corner list, points as (x, y): c first, then d. */
                        Py_ssize_t bcx = best_c % stride, bcy = best_c / stride;
                        Py_ssize_t dx = d % stride, dy = d / stride;
                        Py_ssize_t bdx = best_d % stride, bdy = best_d / stride;
                        better = cx < bcx || (cx == bcx && cy < bcy)
                                 || (cx == bcx && cy == bcy
                                     && (dx < bdx || (dx == bdx && dy < bdy)));
                    }
                    if (better) {
                        best_len = len;
                        best_c = c;
                        best_d = d;
                    }
                }
        }
        if (best_c < 0)
            goto none;
        corners[1] = best_c;
        corners[2] = best_d;
        corners[3] = b;
        count = 4;
        length = best_len;
    }
found:
    if (count == 2)
        corners[1] = b;
    {
        PyObject *list = PyList_New(count);
        if (!list)
            goto done;
        for (Py_ssize_t i = 0; i < count; i++) {
            PyObject *v = PyLong_FromSsize_t(corners[i]);
            if (!v) {
                Py_DECREF(list);
                goto done;
            }
            PyList_SET_ITEM(list, i, v);
        }
        result = Py_BuildValue("(Nn)", list, length);
    }
    goto done;
none:
    result = Py_NewRef(Py_None);
done:
    PyMem_Free(heap);
    return result;
}

static PyMethodDef methods[] = {
    {"axis_hits", (PyCFunction)(void (*)(void))axis_hits, METH_FASTCALL,
     "axis_hits(src, free, targets, max_turns, stride) -> (by_h, by_v): the compiled twin of "
     "levelgen.reach.axis_hits (the same answer)."},
    {"link_hits", (PyCFunction)(void (*)(void))link_hits, METH_FASTCALL,
     "link_hits(src, free, targets, max_turns, stride) -> hits: the compiled twin of "
     "levelgen.reach.link_hits (the same answer)."},
    {"link_reach", (PyCFunction)(void (*)(void))link_reach, METH_FASTCALL,
     "link_reach(src, free, targets, max_turns, stride, toward, stop) -> (hits, reach, "
     "frontier): the compiled twin of levelgen.reach.link_reach (the same answer)."},
    {"fill_links", (PyCFunction)(void (*)(void))fill_links, METH_FASTCALL,
     "fill_links(links, kind_of, kind_mask, free, linked, fill_kinds, even_tiles, max_turns, "
     "stride) -> (open_mask, total): the compiled twin of the body of "
     "levelgen.live.LiveLinks.python_fill_links (the same answer)."},
    {"replay_moves", (PyCFunction)(void (*)(void))replay_moves, METH_FASTCALL,
     "replay_moves(seq, support, decided, drop, start_free, link_cells, layout, max_turns, "
     "stride, size) -> (kept, kept_support, kept_decided, free): the compiled twin of the "
     "loop of levelgen.solvers.repair._Repairer.python_replay (the same answer)."},
    {"direct_path", (PyCFunction)(void (*)(void))direct_path, METH_FASTCALL,
     "direct_path(free, a, b, max_turns, stride) -> (corners, length) | None: the compiled "
     "twin of levelgen.paths._direct (the same answer)."},
    {"remove_pair", (PyCFunction)(void (*)(void))remove_pair, METH_FASTCALL,
     "remove_pair(links, kind_of, kind_mask, left, a, b, free, open_mask, total, max_turns, "
     "stride, gained) -> (free, open_mask, total): the compiled twin of the body of "
     "levelgen.live.LiveLinks.remove (the same answer)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "levelgen.linkup.core._native",
    "Compiled twins of levelgen's hottest bitboard loops (optional; the same answers).", -1,
    methods, NULL, NULL, NULL, NULL,
};

/* The version of these functions' contract; levelgen.reach.NATIVE_API must match it, or the
 * Python code runs alone (a stale build left next to newer Python code). */
#define API 2

PyMODINIT_FUNC PyInit__native(void)
{
    PyObject *m = PyModule_Create(&module);
    if (m && PyModule_AddIntConstant(m, "API", API) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
