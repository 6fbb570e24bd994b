/* A proof written by a search as it goes, in binary DRAT form ('a', each literal as
 * 2 * variable + (1 if negative) in 7-bit groups, low first, the high bit saying more
 * follow, then 0: drat-trim's binary format, the cheapest to write and to read), or in binary
 * LRAT (clause learning's: 'a', its ID, its literals, 0, its hints, 0, every number in the same
 * code; 'd', the IDs deleted, 0).
 *
 * The depth-first search (sudoku9_proof.c) keeps its decisions D (the literals assumed on the
 * path from the root) as the clause not-D, already encoded (the context); each lemma it states
 * is the context and at most one literal more: not-D when the node fails, (not-D or not-x) when
 * a rule that unit propagation does not reproduce removes candidate x.  Clause learning
 * (sudokun_cdcl_proof.c) states its learnt clauses whole instead, each with the IDs of the clauses
 * that derive it, and deletes those it forgets.
 * Nothing here is Python's: the searches write with the GIL released; a failed allocation is
 * remembered and ends the proof. */
#ifndef PUZZLEBENCH_PB_PROOF_H
#define PUZZLEBENCH_PB_PROOF_H
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { PB_PROOF_DEPTH = 4096 };   /* decisions on one path: one a cell at most (64 x 64) */

typedef struct PBProof {
    uint8_t *bytes; size_t len, cap;         /* the proof so far (malloc'd; the caller frees) */
    uint8_t *context; size_t context_len;    /* not-D, encoded (PB_PROOF_DEPTH * 5 bytes) */
    uint32_t ends[PB_PROOF_DEPTH + 1];       /* context_len after each decision */
    int depth, out_of_memory;
    const int32_t *formula; size_t formula_len;   /* clause learning's LRAT: the claim's formula (DIMACS
                                                      literals, each clause closed by 0), for its clause IDs */
} PBProof;

/* A literal's code: 2 * variable, + 1 when negative. */
static inline uint32_t pb_literal_code(int64_t literal) {
    return literal < 0 ? (uint32_t)(2 * -literal + 1) : (uint32_t)(2 * literal);
}

static inline size_t pb_put_code(uint8_t *out, uint32_t code) {
    size_t n = 0;
    while (code > 127) { out[n++] = (uint8_t)(code | 128); code >>= 7; }
    out[n++] = (uint8_t)code;
    return n;
}

/* 0 with an empty proof and context, -1 when they cannot be allocated. */
static inline int pb_proof_open(PBProof *p) {
    memset(p, 0, sizeof *p);
    p->cap = 1 << 16;
    p->bytes = malloc(p->cap);
    p->context = malloc((size_t)PB_PROOF_DEPTH * 5);
    if (!p->bytes || !p->context) { free(p->bytes); free(p->context); p->bytes = p->context = NULL; return -1; }
    return 0;
}

static inline void pb_proof_close(PBProof *p) {
    free(p->bytes);
    free(p->context);
    p->bytes = p->context = NULL;
}

static inline int pb_proof_reserve(PBProof *p, size_t more) {
    if (p->len + more <= p->cap) return 1;
    if (p->out_of_memory) return 0;
    size_t cap = p->cap;
    while (cap < p->len + more) cap *= 2;
    uint8_t *bytes = realloc(p->bytes, cap);
    if (!bytes) { p->out_of_memory = 1; return 0; }
    p->bytes = bytes;
    p->cap = cap;
    return 1;
}

/* The lemma (not-D or the literal of `code`); code 0: not-D alone. */
static inline void pb_proof_lemma(PBProof *p, uint32_t code) {
    if (!pb_proof_reserve(p, p->context_len + 7)) return;
    uint8_t *out = p->bytes + p->len;
    *out++ = 'a';
    memcpy(out, p->context, p->context_len);
    out += p->context_len;
    if (code) out += pb_put_code(out, code);
    *out++ = 0;
    p->len = (size_t)(out - p->bytes);
}

/* A step of whole literals (clause learning's, sudokun_cdcl_proof.c), written literal by
 * literal: pb_proof_begin with kind 'a' (a lemma) or 'd' (a deletion) and room for `most`
 * literals (0 when it cannot be had: the step is left out and the proof ends unfinished),
 * pb_proof_put for each literal's code, pb_proof_end. */
static inline int pb_proof_begin(PBProof *p, uint8_t kind, size_t most) {
    if (!pb_proof_reserve(p, 5 * most + 2)) return 0;
    p->bytes[p->len++] = kind;
    return 1;
}
static inline void pb_proof_put(PBProof *p, uint32_t code) { p->len += pb_put_code(p->bytes + p->len, code); }
static inline void pb_proof_end(PBProof *p) { p->bytes[p->len++] = 0; }

/* Assume the literal whose negation has code `negated` (a decision): it joins not-D. */
static inline void pb_proof_assume(PBProof *p, uint32_t negated) {
    p->ends[p->depth++] = (uint32_t)p->context_len;
    p->context_len += pb_put_code(p->context + p->context_len, negated);
}

/* Take the last decision back. */
static inline void pb_proof_retract(PBProof *p) { p->context_len = p->ends[--p->depth]; }

#endif
