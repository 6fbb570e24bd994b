/* DRAT proof checking with drat-trim's semantics (Wetzler, Heule, Hunt, SAT 2014; docs/proofs.md),
 * and LRAT proof checking as lrat-check does it (Cruz-Filipe et al., CADE 2017):
 * check_drat(n_vars, clauses, proof_path, memory_limit, seconds, lrat) -> dict, for `check-proof`
 * and engines.  About 1,100 lines, one reason a part: types and state (~110); memory (~45: every
 * array grows through one function that counts its bytes against the limit, so any proof ends in
 * a one-line memout); clauses (~80: an arena, repeated literals dropped, a hash by literal set so
 * a deletion finds its clause); watches and propagation (~140: two watches a clause with a
 * blocking literal, a binary clause decided from its watch, and the repair that lets the
 * backward pass remove a reason); reading (~140: text and binary told apart by their first
 * bytes, 1 MiB chunks, every mistake placed); forward pass (~65: until the first conflict;
 * deletions of units or reasons ignored); core marking, RUP and RAT (~105); LRAT (~200: each
 * lemma checked forward by its hints, no propagation, no backward pass; and lrat_text, a binary
 * LRAT proof written as text); the Python functions (~190).  Memory: ~30 bytes a clause + 4 a
 * literal, 12 a deletion, ~50 a variable; the proof text is never held.  Ctrl-C (interrupt.c)
 * stops every loop. */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <errno.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engines.h"
#include "pb_common.h"

typedef uint32_t lit_t;                 /* 2 * variable + 1 if negative: binary DRAT's code */
#define NEG(l) ((l) ^ 1u)
#define VAR(l) ((l) >> 1)
#define DIMACS(l) (((l) & 1u) ? -(long long)VAR(l) : (long long)VAR(l))
#define NONE UINT32_MAX                  /* no clause */
#define DELETION 0x80000000u             /* a step's flag beside its clause id */
#define MAX_VAR 2147483647u
#define CHUNK (1u << 20)                 /* bytes of the proof read at a time */

enum { ACTIVE = 1, CORE = 2 };           /* clause flags */
enum { RUNNING, VERIFIED, NOT_VERIFIED, MALFORMED, MEMOUT, INTERRUPTED, TIMEOUT, INTERNAL };

/* A watch: the clause, and another of its literals: when that one is true the clause is
 * satisfied and propagation need not read it (a "blocking literal").  A binary clause's watch
 * says so (BINARY beside its id) and its blocker is its other literal, so that propagation
 * decides it without reading the clause: the pairwise at-most-one clauses of a puzzle's
 * encoding are nearly all of its clauses. */
typedef struct { uint32_t id; lit_t blocker; } Watch;
#define BINARY 0x80000000u               /* a watch's flag beside its clause id */
typedef struct { Watch *at; uint32_t n, cap; } Watches;

typedef struct {
    jmp_buf bail;                        /* where every stop (malformed, memout, Ctrl-C) returns */
    int outcome;
    char message[320];
    unsigned long long error_line, error_column, error_byte;   /* 0: unknown */
    size_t bytes, peak, budget;
    sig_atomic_t sigints;
    double deadline;                     /* pb_now() past which the check stops (0: none) */
    unsigned long long ticks;
    /* clauses: ids 0..n_formula-1 are the formula's, then one per lemma in proof order */
    lit_t *lits; uint64_t n_lits, lits_cap;
    uint64_t *start; uint32_t *size, *pivot, *next; uint8_t *flags;
    uint32_t n_clauses, clauses_cap, n_formula;
    uint32_t *buckets, n_buckets;        /* active clauses by literal set (forward pass only) */
    /* proof steps: clause id | DELETION, and where each starts (text: line; binary: byte) */
    uint32_t *steps; uint64_t *places; uint32_t n_steps, steps_cap;
    /* variables */
    uint32_t vars_cap;
    int8_t *val;                         /* by literal: 1 true, -1 false, 0 unassigned */
    uint8_t *mark;                       /* by literal, scratch */
    uint32_t *reason;                    /* by variable: clause id + 1, 0 none */
    uint8_t *seen;                       /* by variable, conflict analysis */
    lit_t *trail, *scratch;              /* true literals in order; top level is trail[0..n_trail) between checks */
    uint32_t n_trail, processed;
    Watches *watches;                    /* by literal: the clauses watching it */
    /* reading */
    FILE *file; unsigned char *chunk; size_t chunk_len, chunk_pos; uint64_t offset;
    int binary, reading; uint64_t line, column, step_place, step_column;
    lit_t *buffer; uint32_t n_buffer, buffer_cap;
    /* figures */
    unsigned long long lemmas, deletions, absent_deletions, unit_deletions, core_lemmas, core_formula,
        checked, rat_checks, conflict_lemma;
    int stopped_early;
    uint32_t failed_step, failed_with; const char *failure;
    /* LRAT: the lemmas' IDs (increasing; lemma i is clause n_formula + i), the step's ID and its
     * hints (or the IDs a deletion names), why it failed */
    int lrat;
    uint64_t *ids, step_id; uint32_t n_ids, ids_cap;
    int64_t *hints; uint32_t n_hints, hints_cap;
    char why[200];
    char *text; uint64_t text_cap;       /* lrat_text: a step's line */
} Checker;

static void bail(Checker *c, int outcome) { c->outcome = outcome; longjmp(c->bail, 1); }

/* A memout while the proof is read is placed at the step being read. */
static void memout(Checker *c) {
    if (c->reading && c->binary) c->error_byte = c->step_place;
    else if (c->reading) { c->error_line = c->step_place; c->error_column = c->step_column; }
    bail(c, MEMOUT);
}

/* A Ctrl-C or the deadline, looked at every 4,096 steps and every chunk read. */
static void look_up(Checker *c) {
    if (pb_sigints != c->sigints) bail(c, INTERRUPTED);
    if (c->deadline > 0 && pb_now() > c->deadline) bail(c, TIMEOUT);
}

static void tick(Checker *c) {
    if ((++c->ticks & 4095u) == 0) look_up(c);
}

/* ---- memory ---------------------------------------------------------------------------- */

/* *array (of *cap items of `item` bytes) grown to hold `need` items, new items zeroed; the
 * bytes of every array are counted against the memory limit. */
static void grow(Checker *c, void **array, uint64_t *cap, uint64_t need, size_t item) {
    if (need <= *cap) return;
    uint64_t wanted = *cap ? *cap : 16;
    while (wanted < need) wanted *= 2;
    size_t more = (size_t)((wanted - *cap) * item);
    if (c->bytes + more > c->budget) {
        snprintf(c->message, sizeof c->message, "the check needs more than the memory limit of %.0f MB",
                 c->budget / 1048576.0);
        memout(c);
    }
    void *bigger = realloc(*array, (size_t)(wanted * item));
    if (bigger == NULL) {
        snprintf(c->message, sizeof c->message, "out of memory at %.0f MB", c->bytes / 1048576.0);
        memout(c);
    }
    memset((char *)bigger + *cap * item, 0, more);
    *array = bigger;
    *cap = wanted;
    c->bytes += more;
    if (c->bytes > c->peak) c->peak = c->bytes;
}

#define GROW32(c, array, cap, need) do { uint64_t cap64 = (cap); \
    grow((c), (void **)&(array), &cap64, (need), sizeof *(array)); (cap) = (uint32_t)cap64; } while (0)

/* Room for variable `var` in every array indexed by variable or literal. */
static void ensure_var(Checker *c, uint32_t var) {
    if (var < c->vars_cap) return;
    uint64_t cap = c->vars_cap, need = cap ? cap : 16, lits = 2 * cap;
    while (need <= var) need *= 2;   /* the same capacity for every array below */
    grow(c, (void **)&c->val, &lits, 2 * need, sizeof *c->val);
    lits = 2 * cap; grow(c, (void **)&c->mark, &lits, 2 * need, sizeof *c->mark);
    lits = 2 * cap; grow(c, (void **)&c->watches, &lits, 2 * need, sizeof *c->watches);
    uint64_t v = cap; grow(c, (void **)&c->reason, &v, need, sizeof *c->reason);
    v = cap; grow(c, (void **)&c->seen, &v, need, sizeof *c->seen);
    v = cap; grow(c, (void **)&c->trail, &v, need, sizeof *c->trail);
    v = cap; grow(c, (void **)&c->scratch, &v, need, sizeof *c->scratch);
    c->vars_cap = (uint32_t)v;
}

/* ---- clauses --------------------------------------------------------------------------- */

static lit_t *lits_of(Checker *c, uint32_t id) { return c->lits + c->start[id]; }

static uint32_t hash_of(const lit_t *lits, uint32_t n) {   /* independent of the order */
    uint32_t sum = n, x = 0;
    for (uint32_t i = 0; i < n; i++) { uint32_t h = lits[i] * 2654435761u; sum += h ^ (h >> 15); x ^= h; }
    return sum * 31u + x;
}

static void hash_insert(Checker *c, uint32_t id) {
    uint32_t b = hash_of(lits_of(c, id), c->size[id]) & (c->n_buckets - 1);
    c->next[id] = c->buckets[b];
    c->buckets[b] = id;
}

/* At least `need` buckets (a power of two), every active clause hashed again. */
static void hash_rebuild(Checker *c, uint64_t need) {
    uint64_t cap = c->n_buckets;
    grow(c, (void **)&c->buckets, &cap, need, sizeof *c->buckets);
    c->n_buckets = (uint32_t)cap;
    for (uint32_t b = 0; b < c->n_buckets; b++) c->buckets[b] = NONE;
    for (uint32_t id = 0; id < c->n_clauses; id++) if (c->flags[id] & ACTIVE) hash_insert(c, id);
}

/* The active clause with the literals of c->buffer (as a set), taken out of the hash; NONE. */
static uint32_t hash_take(Checker *c) {
    uint32_t n = c->n_buffer, *link = &c->buckets[hash_of(c->buffer, n) & (c->n_buckets - 1)];
    for (uint32_t i = 0; i < n; i++) c->mark[c->buffer[i]] = 1;
    uint32_t found = NONE;
    for (; *link != NONE; link = &c->next[*link]) {
        uint32_t id = *link, k = 0;
        if (c->size[id] != n) continue;
        const lit_t *lits = lits_of(c, id);
        while (k < n && c->mark[lits[k]]) k++;
        if (k == n) { found = id; *link = c->next[id]; break; }
    }
    for (uint32_t i = 0; i < n; i++) c->mark[c->buffer[i]] = 0;
    return found;
}

/* c->buffer without its repeated literals (drat-trim drops them too); returns the new size. */
static uint32_t drop_repeats(Checker *c) {
    uint32_t n = 0;
    for (uint32_t i = 0; i < c->n_buffer; i++) {
        lit_t l = c->buffer[i];
        if (!c->mark[l]) { c->mark[l] = 1; c->buffer[n++] = l; }
    }
    for (uint32_t i = 0; i < n; i++) c->mark[c->buffer[i]] = 0;
    return c->n_buffer = n;
}

/* A new active clause holding c->buffer, its pivot the first literal as written. */
static uint32_t store_clause(Checker *c) {
    uint32_t n = c->n_buffer, id = c->n_clauses;
    if (id == DELETION) { snprintf(c->message, sizeof c->message, "more than 2^31 clauses"); memout(c); }
    grow(c, (void **)&c->lits, &c->lits_cap, c->n_lits + n, sizeof *c->lits);
    uint32_t cap = c->clauses_cap;
    GROW32(c, c->start, cap, (uint64_t)id + 1); cap = c->clauses_cap;
    GROW32(c, c->size, cap, (uint64_t)id + 1); cap = c->clauses_cap;
    GROW32(c, c->pivot, cap, (uint64_t)id + 1); cap = c->clauses_cap;
    GROW32(c, c->next, cap, (uint64_t)id + 1); cap = c->clauses_cap;
    GROW32(c, c->flags, cap, (uint64_t)id + 1);
    c->clauses_cap = cap;
    memcpy(c->lits + c->n_lits, c->buffer, n * sizeof *c->lits);
    c->start[id] = c->n_lits; c->size[id] = n; c->pivot[id] = n ? c->buffer[0] : 0;
    c->flags[id] = ACTIVE;
    c->n_lits += n;
    c->n_clauses++;
    return id;
}

static void add_step(Checker *c, uint32_t step) {
    uint32_t cap = c->steps_cap;
    GROW32(c, c->steps, cap, (uint64_t)c->n_steps + 1); cap = c->steps_cap;
    GROW32(c, c->places, cap, (uint64_t)c->n_steps + 1);
    c->steps_cap = cap;
    c->steps[c->n_steps] = step;
    c->places[c->n_steps++] = c->step_place;
}

/* ---- watches and propagation ----------------------------------------------------------- */

static void watch(Checker *c, lit_t l, uint32_t id, lit_t blocker) {
    Watches *w = &c->watches[l];
    GROW32(c, w->at, w->cap, (uint64_t)w->n + 1);
    w->at[w->n++] = (Watch){c->size[id] == 2 ? id | BINARY : id, blocker};
}

static void unwatch(Checker *c, lit_t l, uint32_t id) {
    Watches *w = &c->watches[l];
    for (uint32_t i = 0; i < w->n; i++)
        if ((w->at[i].id & ~BINARY) == id) { w->at[i] = w->at[--w->n]; return; }
}

static void assign(Checker *c, lit_t l, uint32_t reason) {
    c->val[l] = 1; c->val[NEG(l)] = -1;
    c->reason[VAR(l)] = reason == NONE ? 0 : reason + 1;
    c->trail[c->n_trail++] = l;
}

/* Unassign the trail down to `length` (a check's own assignments, or a backtrack). */
static void undo(Checker *c, uint32_t length) {
    while (c->n_trail > length) {
        lit_t l = c->trail[--c->n_trail];
        c->val[l] = c->val[NEG(l)] = 0;
        c->reason[VAR(l)] = 0;
    }
    if (c->processed > length) c->processed = length;
}

static void detach(Checker *c, uint32_t id) {
    const lit_t *lits = lits_of(c, id);
    if (c->size[id] >= 1) unwatch(c, lits[0], id);
    if (c->size[id] >= 2) unwatch(c, lits[1], id);
    c->flags[id] &= ~ACTIVE;
}

/* Watch clause `id` on its first two literals that are not false, and assign its last one when
 * it is unit.  Returns 1 when every literal is false (a conflict). */
static int attach(Checker *c, uint32_t id) {
    lit_t *lits = lits_of(c, id);
    uint32_t n = c->size[id], k = 0;
    c->flags[id] |= ACTIVE;
    for (uint32_t i = 0; i < n && k < 2; i++)
        if (c->val[lits[i]] >= 0) { lit_t t = lits[k]; lits[k++] = lits[i]; lits[i] = t; }
    if (n >= 1) watch(c, lits[0], id, lits[n > 1]);
    if (n >= 2) watch(c, lits[1], id, lits[0]);
    if (k == 0) return 1;
    if (k == 1 && c->val[lits[0]] == 0) assign(c, lits[0], id);
    return 0;
}

/* Unit propagation of trail[processed..]: the falsified clause, or NONE.  A clause's watched
 * literals are lits[0] and lits[1]; the literal a reason implies is its lits[0].  At a conflict
 * the literal being processed stays queued, so that a backtrack above it visits the rest of
 * its watches. */
static uint32_t propagate(Checker *c) {
    while (c->processed < c->n_trail) {
        lit_t falsified = NEG(c->trail[c->processed]);
        Watches *w = &c->watches[falsified];
        uint32_t i = 0, j = 0, conflict = NONE;
        while (i < w->n) {
            tick(c);
            Watch seen = w->at[i++];
            if (c->val[seen.blocker] > 0) { w->at[j++] = seen; continue; }
            if (seen.id & BINARY) {
                uint32_t id = seen.id & ~BINARY;
                w->at[j++] = seen;
                if (c->val[seen.blocker] < 0) { conflict = id; break; }
                lit_t *lits = lits_of(c, id);   /* the literal a reason implies is its lits[0] */
                if (lits[0] != seen.blocker) { lits[1] = lits[0]; lits[0] = seen.blocker; }
                assign(c, seen.blocker, id);
                continue;
            }
            uint32_t id = seen.id, n = c->size[id];
            lit_t *lits = lits_of(c, id);
            if (n == 1) { w->at[j++] = seen; conflict = id; break; }
            if (lits[0] == falsified) { lits[0] = lits[1]; lits[1] = falsified; }
            if (c->val[lits[0]] > 0) { w->at[j++] = (Watch){id, lits[0]}; continue; }
            uint32_t k = 2;
            while (k < n && c->val[lits[k]] < 0) k++;
            if (k < n) {
                lits[1] = lits[k]; lits[k] = falsified;
                watch(c, lits[1], id, lits[0]);   /* another list: w stays valid */
                continue;
            }
            w->at[j++] = (Watch){id, lits[0]};
            if (c->val[lits[0]] < 0) { conflict = id; break; }
            assign(c, lits[0], id);
        }
        while (i < w->n) w->at[j++] = w->at[i++];
        w->n = j;
        if (conflict != NONE) return conflict;
        c->processed++;
    }
    return NONE;
}

/* After a backtrack unassigned the literals in c->scratch[0..n): every clause that watched one
 * of them beside a false literal is unit again or must watch another literal, so that the
 * propagation that follows reaches the fixpoint of the active clauses. */
static void repair(Checker *c, uint32_t n) {
    for (uint32_t s = 0; s < n; s++) {
        lit_t x = c->scratch[s];
        Watches *w = &c->watches[x];
        for (uint32_t i = 0; i < w->n; i++) {
            tick(c);
            uint32_t id = w->at[i].id & ~BINARY, size = c->size[id];
            lit_t *lits = lits_of(c, id);
            if (size >= 2) {
                if (lits[1] == x) { lits[1] = lits[0]; lits[0] = x; }
                if (c->val[lits[1]] >= 0) continue;
                uint32_t k = 2;
                while (k < size && c->val[lits[k]] < 0) k++;
                if (k < size) {
                    unwatch(c, lits[1], id);
                    lit_t t = lits[1]; lits[1] = lits[k]; lits[k] = t;
                    watch(c, lits[1], id, x);
                    continue;
                }
            }
            if (c->val[x] == 0) assign(c, x, id);
        }
    }
}

/* Backward: the reason of `l` removed, the trail goes back to before `l` and is completed again. */
static void backtrack(Checker *c, lit_t l) {
    uint32_t at = c->n_trail;
    while (c->trail[--at] != l) {}
    uint32_t n = c->n_trail - at;
    memcpy(c->scratch, c->trail + at, n * sizeof *c->trail);
    undo(c, at);
    repair(c, n);
    if (propagate(c) != NONE) bail(c, INTERNAL);   /* the forward pass had no conflict here */
}

/* ---- reading the proof ----------------------------------------------------------------- */

static int peek(Checker *c) {
    if (c->chunk_pos == c->chunk_len) {
        if (c->file == NULL) return EOF;
        c->offset += c->chunk_len;
        c->chunk_len = fread(c->chunk, 1, CHUNK, c->file);
        c->chunk_pos = 0;
        look_up(c);
        if (c->chunk_len == 0) {
            if (ferror(c->file)) { snprintf(c->message, sizeof c->message, "cannot read the proof"); bail(c, MALFORMED); }
            return EOF;
        }
    }
    return c->chunk[c->chunk_pos];
}

static int next(Checker *c) {
    int ch = peek(c);
    if (ch == EOF) return EOF;
    c->chunk_pos++;
    if (ch == '\n') { c->line++; c->column = 1; } else c->column++;
    return ch;
}

static uint64_t byte_number(Checker *c) { return c->offset + c->chunk_pos + 1; }   /* of peek() */

static void malformed(Checker *c, uint64_t line, uint64_t column, const char *what) {
    if (c->binary) c->error_byte = line; else { c->error_line = line; c->error_column = column; }
    snprintf(c->message, sizeof c->message, "%s", what);
    bail(c, MALFORMED);
}

static void push_literal(Checker *c, lit_t l) {
    ensure_var(c, VAR(l));
    GROW32(c, c->buffer, c->buffer_cap, (uint64_t)c->n_buffer + 1);
    c->buffer[c->n_buffer++] = l;
}

/* drat-trim's test: text when the first bytes are digits, '-', 'd', spaces and line ends, or
 * when the proof opens with a comment; binary otherwise. */
static int looks_binary(Checker *c) {
    if (peek(c) == EOF || peek(c) == 'c') return 0;
    size_t n = c->chunk_len < 12 ? c->chunk_len : 12;
    for (size_t i = 0; i < n; i++)
        if (!strchr("0123456789-d \t\r\n", c->chunk[i]) || c->chunk[i] == 0) return 1;
    return 0;
}

static int is_space(int ch) { return ch == ' ' || ch == '\t' || ch == '\r' || ch == '\n'; }

/* The next token of a text proof: 'n' a number (*value), 'd', or 0 at the proof's end; spaces
 * and comment lines skipped, *line and *column where it starts.  `limit` the largest magnitude,
 * `beyond` the complaint past it, `noun` what a number is here. */
static int text_token(Checker *c, int64_t *value, uint64_t *line, uint64_t *column, uint64_t limit,
                      const char *beyond, const char *noun) {
    char what[160];
    for (;;) {
        int ch = peek(c);
        if (is_space(ch)) { next(c); continue; }
        if (ch == 'c') { while (ch != EOF && ch != '\n') { next(c); ch = peek(c); } continue; }
        if (ch == EOF) return 0;
        *line = c->line; *column = c->column;
        if (ch == 'd') { next(c); return 'd'; }
        int negative = ch == '-';
        if (negative) { next(c); ch = peek(c); }
        if (ch < '0' || ch > '9') {
            if (negative) malformed(c, *line, *column, "'-' without a number");
            snprintf(what, sizeof what, (ch > 32 && ch < 127) ? "unexpected character '%c'" : "unexpected byte 0x%02x", ch);
            malformed(c, c->line, c->column, what);
        }
        uint64_t number = 0;
        while (ch >= '0' && ch <= '9') {
            number = number * 10 + (uint64_t)(ch - '0');
            if (number > limit) malformed(c, *line, *column, beyond);
            next(c); ch = peek(c);
        }
        if (ch != EOF && !is_space(ch)) {
            snprintf(what, sizeof what, (ch > 32 && ch < 127) ? "unexpected character '%c' in a %s"
                                                               : "unexpected byte 0x%02x in a %s", ch, noun);
            malformed(c, c->line, c->column, what);
        }
        *value = negative ? -(int64_t)number : (int64_t)number;
        return 'n';
    }
}

static const char BEYOND_VAR[] = "literal beyond 2147483647, the largest DIMACS variable";
static const char ENDS_INSIDE[] = "the proof ends inside this step: it has no terminating 0";

static lit_t literal_code(int64_t x) { return x > 0 ? 2u * (lit_t)x : 2u * (lit_t)(-x) + 1u; }

/* The next step of a text proof into c->buffer: 'a' a lemma, 'd' a deletion, 0 at the end. */
static int read_text_step(Checker *c) {
    int deletion = 0;
    c->n_buffer = 0;
    for (;;) {
        int64_t x;
        uint64_t line, column;
        int token = text_token(c, &x, &line, &column, MAX_VAR, BEYOND_VAR, "literal");
        if (token == 0) {
            if (c->n_buffer || deletion) malformed(c, c->step_place, c->step_column, ENDS_INSIDE);
            return 0;
        }
        if (!c->n_buffer && !deletion) { c->step_place = line; c->step_column = column; }
        if (token == 'd') {
            if (c->n_buffer || deletion) malformed(c, line, column, "unexpected character 'd'");
            deletion = 1;
            continue;
        }
        if (x == 0) return deletion ? 'd' : 'a';
        push_literal(c, literal_code(x));
    }
}

/* The next number of a binary proof: 7 bits a byte, low first, the high bit saying more follow;
 * *first the byte it starts at.  More than `most_bytes` bytes: malformed with `beyond`. */
static uint64_t read_code(Checker *c, uint64_t *first, int most_bytes, const char *beyond) {
    uint64_t code = 0;
    int shift = 0, ch;
    *first = byte_number(c);
    do {
        ch = next(c);
        if (ch == EOF) malformed(c, c->step_place, 0, ENDS_INSIDE);
        if (shift >= 7 * most_bytes) malformed(c, *first, 0, beyond);
        code |= (uint64_t)(ch & 127) << shift;
        shift += 7;
    } while (ch & 128);
    return code;
}

/* The opening byte of a binary step: 'a' or 'd', or 0 at the proof's end. */
static int binary_kind(Checker *c, const char *added) {
    if (peek(c) == EOF) return 0;
    c->step_place = byte_number(c);
    int kind = next(c);
    if (kind != 'a' && kind != 'd') {
        char what[160];
        snprintf(what, sizeof what, "byte 0x%02x is neither 'a' (%s) nor 'd' (a deletion)%s", kind, added,
                 c->step_place == 1 ? c->lrat ? " (read as binary LRAT: the first bytes are not all LRAT text)"
                                     : " (read as binary DRAT: the first bytes are not all DRAT text)" : "");
        malformed(c, c->step_place, 0, what);
    }
    return kind;
}

/* The next literal of a binary step onto c->buffer; 0 at the 0 that ends the clause. */
static int push_code(Checker *c) {
    uint64_t first, code = read_code(c, &first, 5, BEYOND_VAR);
    if (code == 0) return 0;
    if (code == 1) malformed(c, first, 0, "literal code 1 names variable 0");
    if ((code >> 1) > MAX_VAR) malformed(c, first, 0, BEYOND_VAR);
    push_literal(c, (lit_t)code);
    return 1;
}

/* The next step of a binary proof: 'a' or 'd', literals of 7 bits a byte (high bit: more
 * follow), 0 closing it. */
static int read_binary_step(Checker *c) {
    c->n_buffer = 0;
    int kind = binary_kind(c, "a lemma");
    while (kind && push_code(c)) {}
    return kind;
}

/* ---- forward pass ---------------------------------------------------------------------- */

/* A lemma added and propagated: 1 when it brings a conflict (its own, or by propagation). */
static int add_lemma(Checker *c) {
    drop_repeats(c);
    uint32_t id = store_clause(c);
    c->lemmas++;
    add_step(c, id);
    if (c->n_clauses > c->n_buckets) hash_rebuild(c, 2 * (uint64_t)c->n_buckets);
    else hash_insert(c, id);
    if (attach(c, id)) { c->failed_with = id; return 1; }
    uint32_t conflict = propagate(c);
    if (conflict != NONE) { c->failed_with = conflict; return 1; }
    return 0;
}

/* A deletion applied, or ignored as drat-trim ignores it: a unit clause, a reason. */
static void delete_clause(Checker *c) {
    if (drop_repeats(c) <= 1) { c->unit_deletions++; return; }
    uint32_t id = hash_take(c);
    if (id == NONE) { c->absent_deletions++; return; }
    lit_t implied = lits_of(c, id)[0];
    if (c->val[implied] > 0 && c->reason[VAR(implied)] == id + 1) {
        c->unit_deletions++;
        hash_insert(c, id);
        return;
    }
    detach(c, id);
    c->deletions++;
    add_step(c, id | DELETION);
}

/* The formula's clauses (each ended by 0) stored in order; with `attach_them` (DRAT) each watched
 * as it comes, and 1 returned at the first one falsified (c->failed_with). */
static int load_formula(Checker *c, const int32_t *formula, Py_ssize_t n_formula_lits, int attach_them) {
    for (Py_ssize_t i = 0; i < n_formula_lits; i++) {
        if (formula[i] != 0) { push_literal(c, literal_code(formula[i])); continue; }
        drop_repeats(c);
        uint32_t id = store_clause(c);
        c->n_buffer = 0;
        if (attach_them && attach(c, id)) { c->failed_with = id; c->n_formula = c->n_clauses; return 1; }
    }
    c->n_formula = c->n_clauses;
    return 0;
}

/* The formula and then the proof, step by step, until a conflict (c->failed_with, the clause
 * falsified) or the proof's end.  Returns 1 at a conflict. */
static int forward(Checker *c, const int32_t *formula, Py_ssize_t n_formula_lits) {
    if (load_formula(c, formula, n_formula_lits, 1)) return 1;
    uint32_t conflict = propagate(c);
    if (conflict != NONE) { c->failed_with = conflict; return 1; }
    hash_rebuild(c, c->n_clauses > 1024 ? c->n_clauses : 1024);
    c->binary = looks_binary(c);
    c->reading = 1;
    for (;;) {
        int kind = c->binary ? read_binary_step(c) : read_text_step(c);
        if (kind == 0) { c->reading = 0; return 0; }
        if (kind == 'd') delete_clause(c);
        else if (add_lemma(c)) {
            c->conflict_lemma = c->lemmas;
            c->stopped_early = peek(c) != EOF;
            c->reading = 0;
            return 1;
        }
    }
}

/* ---- core marking, RUP and RAT --------------------------------------------------------- */

static void mark_core(Checker *c, uint32_t id) {
    if (c->flags[id] & CORE) return;
    c->flags[id] |= CORE;
    if (id < c->n_formula) c->core_formula++; else c->core_lemmas++;
}

/* Mark the clauses that made clause `conflict` false (or literal `l` true, conflict NONE):
 * the conflict and the reasons of every literal its falsity depends on.  The cone is walked
 * from the conflict through the reasons (c->scratch the queue of variables met), not down the
 * trail: a check's cone is small beside a top level of thousands of literals. */
static void analyze(Checker *c, uint32_t conflict, lit_t l) {
    uint32_t met = 0;
    if (conflict == NONE) { c->seen[VAR(l)] = 1; c->scratch[met++] = VAR(l); }
    else {
        mark_core(c, conflict);
        const lit_t *lits = lits_of(c, conflict);
        for (uint32_t i = 0; i < c->size[conflict]; i++)
            if (!c->seen[VAR(lits[i])]) { c->seen[VAR(lits[i])] = 1; c->scratch[met++] = VAR(lits[i]); }
    }
    for (uint32_t next = 0; next < met; next++) {
        uint32_t reason = c->reason[c->scratch[next]];
        if (!reason) continue;
        mark_core(c, reason - 1);
        const lit_t *lits = lits_of(c, reason - 1);
        for (uint32_t i = 1; i < c->size[reason - 1]; i++)
            if (!c->seen[VAR(lits[i])]) { c->seen[VAR(lits[i])] = 1; c->scratch[met++] = VAR(lits[i]); }
    }
    while (met) c->seen[c->scratch[--met]] = 0;
}

/* Whether assuming every literal of `lits` false (those not false already) propagates to a
 * conflict, the clauses used then marked.  Without a conflict the assumptions stay. */
static int refutes(Checker *c, const lit_t *lits, uint32_t n, lit_t except) {
    for (uint32_t i = 0; i < n; i++) {
        if (lits[i] == except) continue;
        if (c->val[lits[i]] > 0) { analyze(c, NONE, lits[i]); return 1; }
        if (c->val[lits[i]] == 0) assign(c, NEG(lits[i]), NONE);
    }
    uint32_t conflict = propagate(c);
    if (conflict == NONE) return 0;
    analyze(c, conflict, 0);
    return 1;
}

static int contains(Checker *c, uint32_t id, lit_t l) {
    const lit_t *lits = lits_of(c, id);
    for (uint32_t i = 0; i < c->size[id]; i++) if (lits[i] == l) return 1;
    return 0;
}

/* Lemma `id` (removed from the formula already) RUP, or RAT on its pivot: for every marked
 * active clause D holding the pivot's negation, the lemma and D without it refuted together.
 * Fails with c->failure (and c->failed_with, the clause D whose resolvent is not RUP). */
static int redundant(Checker *c, uint32_t id) {
    uint32_t top = c->n_trail, n = c->size[id];
    lit_t pivot = c->pivot[id];
    int pivot_false = n > 0 && c->val[pivot] < 0;
    c->checked++;
    if (refutes(c, lits_of(c, id), n, NONE)) { undo(c, top); return 1; }
    if (n == 0 || pivot_false) {
        undo(c, top);
        c->failure = n == 0 ? "the empty clause is not RUP: unit propagation reaches no conflict"
                            : "it is not RUP, and its first literal is false at the top level: no RAT";
        return 0;
    }
    c->rat_checks++;
    uint32_t assumed = c->n_trail;
    for (uint32_t d = 0; d < c->n_clauses; d++) {
        tick(c);
        if ((c->flags[d] & (ACTIVE | CORE)) != (ACTIVE | CORE) || !contains(c, d, NEG(pivot))) continue;
        int ok = refutes(c, lits_of(c, d), c->size[d], NEG(pivot));
        undo(c, assumed);
        if (!ok) {
            undo(c, top);
            c->failure = "it is neither RUP nor RAT on its first literal";
            c->failed_with = d;
            return 0;
        }
    }
    undo(c, top);
    return 1;
}

/* From the conflict back to the first step: deletions undone, lemmas removed, marked ones checked. */
static void backward(Checker *c) {
    analyze(c, c->failed_with, 0);
    c->failed_with = NONE;
    for (uint32_t s = c->n_steps; s-- > 0;) {
        tick(c);
        uint32_t id = c->steps[s] & ~DELETION;
        if (c->steps[s] & DELETION) {
            if (attach(c, id) || propagate(c) != NONE) bail(c, INTERNAL);
            continue;
        }
        detach(c, id);
        lit_t implied = c->size[id] ? lits_of(c, id)[0] : 0;
        if (c->size[id] && c->val[implied] > 0 && c->reason[VAR(implied)] == id + 1) backtrack(c, implied);
        if ((c->flags[id] & CORE) && !redundant(c, id)) { c->failed_step = s; bail(c, NOT_VERIFIED); }
    }
}

/* ---- LRAT: each lemma checked forward by its hints ------------------------------------- */

static const char BEYOND_ID[] = "number beyond 2^62";
static const char OPENS_WITH_ID[] = "a step opens with its clause ID, a positive number";
static const char DELETES_IDS[] = "a deletion names clause IDs, positive numbers";

static void push_hint(Checker *c, int64_t hint) {
    GROW32(c, c->hints, c->hints_cap, (uint64_t)c->n_hints + 1);
    c->hints[c->n_hints++] = hint;
}

/* The next text LRAT step, `ID literals 0 hints 0` or `ID d IDs 0`: 'a' (its literals in
 * c->buffer) or 'd', its hints or the IDs deleted in c->hints, 0 at the proof's end. */
static int read_lrat_text_step(Checker *c) {
    int64_t x;
    uint64_t line, column;
    c->n_buffer = c->n_hints = 0;
#define TOKEN() text_token(c, &x, &line, &column, 1ull << 62, BEYOND_ID, "number")
    int token = TOKEN(), kind = 'a';
    if (token == 0) return 0;
    c->step_place = line; c->step_column = column;
    if (token == 'd' || x <= 0) malformed(c, line, column, OPENS_WITH_ID);
    c->step_id = (uint64_t)x;
    for (int hints = 0;;) {
        token = TOKEN();
        if (token == 0) malformed(c, c->step_place, c->step_column, ENDS_INSIDE);
        if (token == 'd' && !hints && !c->n_buffer && kind == 'a') { kind = 'd'; hints = 1; continue; }
        if (token == 'd') malformed(c, line, column, "unexpected character 'd'");
        if (x == 0 && hints) return kind;
        if (x == 0) { hints = 1; continue; }
        if (!hints) {
            if (x > (int64_t)MAX_VAR || x < -(int64_t)MAX_VAR) malformed(c, line, column, BEYOND_VAR);
            push_literal(c, literal_code(x));
        } else {
            if (kind == 'd' && x < 0) malformed(c, line, column, DELETES_IDS);
            push_hint(c, x);
        }
    }
#undef TOKEN
}

/* The next binary LRAT step: 'a' ID literals 0 hints 0, or 'd' IDs 0, every number in binary
 * DRAT's code (2x, 2x + 1 when negative). */
static int read_lrat_binary_step(Checker *c) {
    c->n_buffer = c->n_hints = 0;
    int kind = binary_kind(c, "a clause added");
    uint64_t first, code;
    if (kind == 'a') {
        code = read_code(c, &first, 9, BEYOND_ID);
        if (code < 2 || (code & 1)) malformed(c, first, 0, OPENS_WITH_ID);
        c->step_id = code >> 1;
        while (push_code(c)) {}
    }
    while (kind && (code = read_code(c, &first, 9, BEYOND_ID)) != 0) {
        if (code == 1 || (kind == 'd' && (code & 1)))
            malformed(c, first, 0, kind == 'd' ? DELETES_IDS : "hint code 1 names clause 0");
        push_hint(c, (code & 1) ? -(int64_t)(code >> 1) : (int64_t)(code >> 1));
    }
    return kind;
}

/* The clause of LRAT ID `id`, or NONE; *deleted whether it was there once. */
static uint32_t clause_of_id(Checker *c, uint64_t id, int *deleted) {
    uint32_t k = NONE;
    if (id >= 1 && id <= c->n_formula) k = (uint32_t)(id - 1);
    else if (id > c->n_formula && c->n_ids && id - c->ids[0] < c->n_ids && c->ids[id - c->ids[0]] == id)
        k = c->n_formula + (uint32_t)(id - c->ids[0]);   /* IDs one after another, as most proofs number them */
    else if (id > c->n_formula) {
        uint32_t low = 0, high = c->n_ids;   /* the IDs increase: a binary search */
        while (low < high) {
            uint32_t middle = low + (high - low) / 2;
            if (c->ids[middle] < id) low = middle + 1; else high = middle;
        }
        if (low < c->n_ids && c->ids[low] == id) k = c->n_formula + low;
    }
    *deleted = k != NONE && !(c->flags[k] & ACTIVE);
    return *deleted ? NONE : k;
}

/* Whether the hints of clause `id` refute its negation: each hint unit in turn under the
 * negation and the units before it (its open literal then set), up to one falsified.  A clause
 * with a literal and its negation needs none.  Otherwise c->failure says why. */
static int refuted_by_hints(Checker *c, uint32_t id) {
    const lit_t *lits = lits_of(c, id);
    int refuted = 0;
    c->failure = NULL;
    for (uint32_t i = 0; i < c->size[id] && !refuted; i++) {
        if (c->val[lits[i]] > 0) refuted = 1;
        else if (c->val[lits[i]] == 0) assign(c, NEG(lits[i]), NONE);
    }
    for (uint32_t h = 0; h < c->n_hints && !refuted && !c->failure; h++) {
        tick(c);
        int64_t hint = c->hints[h];
        int deleted;
        uint32_t k = hint < 0 ? NONE : clause_of_id(c, (uint64_t)hint, &deleted);
        c->failure = c->why;
        if (hint < 0) {
            snprintf(c->why, sizeof c->why, "hint %u (%lld) is a RAT hint: RAT hints are not supported", h + 1,
                     (long long)hint);
            break;
        }
        if (k == NONE) {
            snprintf(c->why, sizeof c->why, "hint %u names clause %lld, which %s", h + 1, (long long)hint,
                     deleted ? "was deleted" : "is neither in the formula nor added before");
            break;
        }
        mark_core(c, k);
        const lit_t *ks = lits_of(c, k);
        uint32_t open = 0, satisfied = 0;
        lit_t unit = 0;
        for (uint32_t i = 0; i < c->size[k]; i++) {
            if (c->val[ks[i]] > 0) satisfied = 1;
            else if (c->val[ks[i]] == 0) { open++; unit = ks[i]; }
        }
        if (satisfied)
            snprintf(c->why, sizeof c->why, "hint %u (clause %lld) is satisfied, not unit", h + 1, (long long)hint);
        else if (open > 1)
            snprintf(c->why, sizeof c->why, "hint %u (clause %lld) is not unit: %u of its literals are open", h + 1,
                     (long long)hint, open);
        else {
            c->failure = NULL;
            if (open == 0) refuted = 1; else assign(c, unit, NONE);
        }
    }
    if (!refuted && !c->failure) c->failure = "its hints end before a clause is falsified";
    undo(c, 0);
    return refuted;
}

/* The formula, then the proof step by step: verified when the empty clause is added and its
 * hints check. */
static void lrat_forward(Checker *c, const int32_t *formula, Py_ssize_t n_formula_lits) {
    load_formula(c, formula, n_formula_lits, 0);
    c->binary = looks_binary(c);
    c->reading = 1;
    for (;;) {
        int kind = c->binary ? read_lrat_binary_step(c) : read_lrat_text_step(c);
        if (kind == 0) {
            c->reading = 0;
            c->failure = "the proof ends before the empty clause is added";
            bail(c, NOT_VERIFIED);
        }
        if (kind == 'd') {
            for (uint32_t h = 0; h < c->n_hints; h++) {
                int deleted;
                uint32_t k = clause_of_id(c, (uint64_t)c->hints[h], &deleted);
                if (k == NONE) c->absent_deletions++;
                else { c->flags[k] &= ~ACTIVE; c->deletions++; }
            }
            continue;
        }
        c->lemmas++;
        drop_repeats(c);
        uint64_t last = c->n_ids ? c->ids[c->n_ids - 1] : c->n_formula;
        if (c->step_id <= last) {
            snprintf(c->why, sizeof c->why, "its ID is not above %s %llu",
                     c->n_ids ? "the last lemma's," : "the formula's clauses,", (unsigned long long)last);
            c->failure = c->why;
            bail(c, NOT_VERIFIED);
        }
        uint32_t id = store_clause(c);
        GROW32(c, c->ids, c->ids_cap, (uint64_t)c->n_ids + 1);
        c->ids[c->n_ids++] = c->step_id;
        c->checked++;
        if (!refuted_by_hints(c, id)) bail(c, NOT_VERIFIED);
        if (c->size[id] == 0) {
            c->conflict_lemma = c->lemmas;
            while (!c->binary && is_space(peek(c))) next(c);   /* a text proof's last line end is no step */
            c->stopped_early = peek(c) != EOF;
            c->reading = 0;
            return;
        }
    }
}

/* ---- the Python function --------------------------------------------------------------- */

static void release(Checker *c) {
    for (uint64_t l = 0; c->watches && l < 2 * (uint64_t)c->vars_cap; l++) free(c->watches[l].at);
    void *arrays[] = {c->lits, c->start, c->size, c->pivot, c->next, c->flags, c->buckets, c->steps, c->places,
                      c->ids, c->hints, c->val, c->mark, c->reason, c->seen, c->trail, c->scratch, c->watches,
                      c->chunk, c->buffer, c->text};
    for (size_t i = 0; i < sizeof arrays / sizeof *arrays; i++) free(arrays[i]);
    if (c->file && c->file != stdin) fclose(c->file);
}

static void run(Checker *c, const int32_t *formula, Py_ssize_t n, const char *path, uint32_t n_vars) {
    if (setjmp(c->bail)) return;
    ensure_var(c, n_vars);
    c->file = fopen(path, "rb");
    if (c->file == NULL) {
        snprintf(c->message, sizeof c->message, "cannot read %s: %s", path, strerror(errno));
        bail(c, MALFORMED);
    }
    uint64_t chunk_cap = 0;
    grow(c, (void **)&c->chunk, &chunk_cap, CHUNK, 1);
    c->line = c->column = 1;
    if (c->lrat) {
        lrat_forward(c, formula, n);
        c->outcome = VERIFIED;
        return;
    }
    if (!forward(c, formula, n)) { c->failure = "no refutation reached"; bail(c, NOT_VERIFIED); }
    free(c->buckets); c->buckets = NULL; c->bytes -= c->n_buckets * sizeof *c->buckets;
    backward(c);
    c->outcome = VERIFIED;
}

/* The LRAT step that failed: its ID, where it starts, its literals as written, why. */
static PyObject *lrat_failure_dict(Checker *c) {
    if (!c->reading) return Py_BuildValue("{s:s}", "why", c->failure);   /* no step: the proof ended */
    PyObject *lits = PyList_New(c->n_buffer);
    if (lits == NULL) return NULL;
    for (uint32_t i = 0; i < c->n_buffer; i++) {
        PyObject *x = PyLong_FromLongLong(DIMACS(c->buffer[i]));
        if (x == NULL) { Py_DECREF(lits); return NULL; }
        PyList_SET_ITEM(lits, i, x);
    }
    return Py_BuildValue("{s:s,s:K,s:K,s:N,s:s,s:L}", "why", c->failure, "lemma", (unsigned long long)c->step_id,
                         "place", (unsigned long long)c->step_place, "literals", lits, "with_kind", "", "with", -1LL);
}

static PyObject *failure_dict(Checker *c) {
    if (c->lrat) return lrat_failure_dict(c);
    if (c->failed_step >= c->n_steps) return Py_BuildValue("{s:s}", "why", c->failure ? c->failure : "");
    uint32_t id = c->steps[c->failed_step] & ~DELETION, n = c->size[id];
    PyObject *lits = PyList_New(n);   /* the pivot first, as written */
    if (lits == NULL) return NULL;
    const lit_t *ls = lits_of(c, id);
    for (uint32_t i = 0, k = 1; i < n; i++) {
        lit_t l = ls[i];
        PyObject *x = PyLong_FromLongLong(DIMACS(l));
        if (x == NULL) { Py_DECREF(lits); return NULL; }
        PyList_SET_ITEM(lits, l == c->pivot[id] ? 0 : k++, x);
    }
    long long with = -1; const char *with_kind = "";
    if (c->failed_with != NONE) {
        with_kind = c->failed_with < c->n_formula ? "formula clause" : "lemma";
        with = c->failed_with < c->n_formula ? c->failed_with + 1 : c->failed_with - c->n_formula + 1;
    }
    return Py_BuildValue("{s:s,s:K,s:K,s:N,s:s,s:L}", "why", c->failure, "lemma",
                         (unsigned long long)(id - c->n_formula + 1), "place",
                         (unsigned long long)c->places[c->failed_step], "literals", lits, "with_kind", with_kind,
                         "with", with);
}

static const char *OUTCOMES[] = {"running", "verified", "not verified", "malformed", "memout", "interrupted", "timeout",
                                  "internal"};

static PyObject *check_drat(PyObject *self, PyObject *args, PyObject *kwargs) {
    static char *keywords[] = {"n_vars", "clauses", "proof", "memory_limit", "seconds", "lrat", NULL};
    unsigned int n_vars;
    PyObject *clauses_object, *path_bytes;
    Py_buffer clauses;
    unsigned long long memory_limit = 2ull << 30;
    double seconds_left = -1.0;   /* below 0: no deadline */
    int lrat = 0;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "IOO&|Kdp", keywords, &n_vars, &clauses_object,
                                     PyUnicode_FSConverter, &path_bytes, &memory_limit, &seconds_left, &lrat))
        return NULL;
    if (PyObject_GetBuffer(clauses_object, &clauses, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        Py_DECREF(path_bytes);
        return NULL;
    }
    PyObject *result = NULL;
    Checker *c = calloc(1, sizeof *c);
    const int32_t *formula = clauses.buf;
    Py_ssize_t n = clauses.len / 4;
    const char *format = clauses.format ? clauses.format : "B";
    if (c == NULL) { PyErr_NoMemory(); goto done; }
    if (clauses.itemsize != 4 || !strchr("il", format[strlen(format) - 1]) || (n > 0 && formula[n - 1] != 0)
        || n_vars > MAX_VAR) {
        PyErr_SetString(PyExc_ValueError, "clauses: 32-bit literals, each clause closed by 0; n_vars < 2^31");
        goto done;
    }
    for (Py_ssize_t i = 0; i < n; i++)
        if (formula[i] > (int64_t)n_vars || formula[i] < -(int64_t)n_vars) {
            PyErr_Format(PyExc_ValueError, "clauses: literal %d beyond n_vars %u", formula[i], n_vars);
            goto done;
        }
    c->budget = (size_t)memory_limit;
    c->lrat = lrat;
    c->failed_with = c->failed_step = NONE;
    if (pb_interrupt_arm(&c->sigints) < 0) goto done;
    const char *path = PyBytes_AS_STRING(path_bytes);
    double started = pb_now();
    c->deadline = seconds_left < 0 ? 0 : started + (seconds_left > 0 ? seconds_left : 1e-9);
    Py_BEGIN_ALLOW_THREADS
    run(c, formula, n, path, n_vars);
    Py_END_ALLOW_THREADS
    double seconds = pb_now() - started;
    if (pb_interrupted(c->outcome == INTERRUPTED, c->sigints)) goto done;
    if (c->outcome == INTERNAL) { PyErr_SetString(PyExc_RuntimeError, "DRAT checker: inconsistent state"); goto done; }
    PyObject *failure = c->outcome == NOT_VERIFIED ? failure_dict(c) : (Py_INCREF(Py_None), Py_None);
    if (failure == NULL) goto done;
    result = Py_BuildValue(
        "{s:s,s:s,s:s,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:K,s:O,s:K,s:K,s:K,s:K,s:d,s:N}",
        "verdict", OUTCOMES[c->outcome], "message", c->message, "form", c->binary ? "binary" : "text",
        "error_line", c->error_line, "error_column", c->error_column, "error_byte", c->error_byte,
        "lemmas", c->lemmas, "deletions", c->deletions, "absent_deletions", c->absent_deletions,
        "unit_deletions", c->unit_deletions, "core_lemmas", c->core_lemmas, "core_clauses", c->core_formula,
        "checked", c->checked, "rest_unread", c->stopped_early ? Py_True : Py_False,
        "rat_checks", c->rat_checks, "conflict_lemma", c->conflict_lemma,
        "bytes_read", (unsigned long long)(c->offset + c->chunk_pos), "peak_bytes", (unsigned long long)c->peak,
        "seconds", seconds, "failure", failure);
done:
    if (c) { release(c); free(c); }
    PyBuffer_Release(&clauses);
    Py_DECREF(path_bytes);
    return result;
}

/* ---- binary LRAT written as text -------------------------------------------------------- */

/* The text of the numbers of one step, into out[] (at most 21 bytes a number). */
static char *put_number(char *out, int64_t x) {
    char digits[20];
    int n = 0;
    uint64_t magnitude = x < 0 ? (uint64_t)-(x + 1) + 1 : (uint64_t)x;
    if (x < 0) *out++ = '-';
    do { digits[n++] = (char)('0' + magnitude % 10); magnitude /= 10; } while (magnitude);
    while (n) *out++ = digits[--n];
    *out++ = ' ';
    return out;
}

/* The binary LRAT proof in c->file written to `out` as text, step by step (a deletion carries
 * the last added clause's ID, as drat-trim writes it); a malformed step stops it, placed. */
static void write_text(Checker *c, FILE *out) {
    uint64_t last = c->n_formula;
    c->binary = c->lrat = c->reading = 1;
    for (;;) {
        int kind = read_lrat_binary_step(c);
        if (kind == 0) break;
        tick(c);
        grow(c, (void **)&c->text, &c->text_cap, 21 * ((uint64_t)c->n_buffer + c->n_hints + 4), 1);
        char *line = c->text, *at = put_number(line, (int64_t)(kind == 'a' ? c->step_id : last));
        if (kind == 'd') { *at++ = 'd'; *at++ = ' '; }
        else {
            last = c->step_id;
            for (uint32_t i = 0; i < c->n_buffer; i++) at = put_number(at, DIMACS(c->buffer[i]));
            *at++ = '0'; *at++ = ' ';
        }
        for (uint32_t i = 0; i < c->n_hints; i++) at = put_number(at, c->hints[i]);
        *at++ = '0'; *at++ = '\n';
        if (fwrite(line, 1, (size_t)(at - line), out) != (size_t)(at - line)) {
            snprintf(c->message, sizeof c->message, "cannot write the text: %s", strerror(errno));
            bail(c, MALFORMED);
        }
    }
}

static void convert(Checker *c, FILE *out) {
    if (setjmp(c->bail)) return;
    uint64_t chunk_cap = 0;
    grow(c, (void **)&c->chunk, &chunk_cap, CHUNK, 1);
    write_text(c, out);
    c->outcome = VERIFIED;
}

/* lrat_text(proof, path, n_formula): the binary LRAT proof `proof` (bytes) written to `path` as
 * text, the form lrat-check and cake_lpr read (`n_formula`: the formula's clauses, the ID a
 * deletion before any lemma carries).  ValueError, placed at its byte, for a malformed proof. */
static PyObject *lrat_text(PyObject *self, PyObject *args) {
    Py_buffer proof;
    PyObject *path_bytes, *result = NULL;
    unsigned int n_formula;
    if (!PyArg_ParseTuple(args, "y*O&I", &proof, PyUnicode_FSConverter, &path_bytes, &n_formula)) return NULL;
    Checker *c = calloc(1, sizeof *c);
    FILE *out = NULL;
    if (c == NULL) { PyErr_NoMemory(); goto done; }
    c->budget = 2ull << 30;
    c->n_formula = n_formula;
    if (pb_interrupt_arm(&c->sigints) < 0) goto done;
    out = fopen(PyBytes_AS_STRING(path_bytes), "wb");
    if (out == NULL) { PyErr_SetFromErrnoWithFilename(PyExc_OSError, PyBytes_AS_STRING(path_bytes)); goto done; }
    c->file = proof.len ? fmemopen(proof.buf, (size_t)proof.len, "rb") : NULL;
    if (proof.len && c->file == NULL) { PyErr_SetFromErrno(PyExc_OSError); goto done; }
    Py_BEGIN_ALLOW_THREADS
    convert(c, out);
    Py_END_ALLOW_THREADS
    if (pb_interrupted(c->outcome == INTERRUPTED, c->sigints)) goto done;
    if (c->outcome == MEMOUT) { PyErr_NoMemory(); goto done; }
    if (c->outcome != VERIFIED) {
        PyErr_Format(PyExc_ValueError, "byte %llu: %s", c->error_byte, c->message);
        goto done;
    }
    Py_INCREF(Py_None);
    result = Py_None;
done:
    if (out && fclose(out) != 0 && result) { Py_CLEAR(result); PyErr_SetFromErrno(PyExc_OSError); }
    if (c) { release(c); free(c); }
    PyBuffer_Release(&proof);
    Py_DECREF(path_bytes);
    return result;
}

static PyMethodDef drat_methods[] = {
    {"check_drat", (PyCFunction)(void (*)(void))check_drat, METH_VARARGS | METH_KEYWORDS,
     "check_drat(n_vars, clauses, proof, memory_limit=2**31, seconds=-1, lrat=False) -> dict: the DRAT proof in "
     "the file `proof` (text or binary) checked against the formula `clauses` (a buffer of 32-bit DIMACS "
     "literals, each clause closed by 0) as drat-trim checks it, or with `lrat` the LRAT proof, each lemma "
     "forward by its hints as lrat-check does, within `seconds` (below 0: no "
     "limit); 'verdict' is 'verified', 'not verified' ('failure' says which lemma and why), "
     "'malformed', 'memout' ('message' and 'error_line'/'error_column' or 'error_byte' say where) "
     "or 'timeout', beside the figures.  Ctrl-C: KeyboardInterrupt."},
    {"lrat_text", lrat_text, METH_VARARGS,
     "lrat_text(proof: bytes, path, n_formula) -> None: the binary LRAT proof written to `path` as text, the form "
     "lrat-check and cake_lpr read; ValueError, placed at its byte, where it is malformed"},
    {NULL, NULL, 0, NULL},
};

int pb_register_drat(PyObject *module) {
    return PyModule_AddFunctions(module, drat_methods);
}
