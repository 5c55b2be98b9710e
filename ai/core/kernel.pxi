# The contract between the one compiled search (search.pxi) and a game's kernel (kalah.pxi, oware.pxi, ...).
#
# A kernel is three C functions over a fixed-size position (`Pos`, a union each game reads in its own way)
# and a context of its own (its variant and evaluator weights):
#   expand(ctx, position, line, children) -> number of children written, in the kernel's preferred order
#   evaluate(ctx, position)               -> the heuristic score from the side to move
#   key(ctx, position)                    -> the 64-bit transposition key (what the table may see)
# Finished games never become positions: a move that ends the game is a child of kind FINAL with its exact
# score from the mover's side.  A child of kind SAME is searched without negation (the mover moves again).
# Every function is `noexcept nogil`: nothing inside the search touches a Python object.
from libc.stdint cimport uint8_t, uint16_t, int16_t, int32_t, uint32_t, int64_t, uint64_t

cdef enum:
    MAX_MOVES = 64        # more than any game's legal moves (Hus 32, the cave 16, Kalah 12)
    MAX_PLY = 256         # deeper than the deepest iteration (ai.search.MAX_DEPTH is 200)
    MAX_LINE = 1024       # keys of the positions before the root (a game's history) plus the search line
    POS_WORDS = 10        # 80 bytes of position

cdef enum ChildKind:
    KIND_OTHER = 0        # the opponent moves next: the child's score is negated
    KIND_SAME = 1         # the mover moves again (Kalah's extra turn): not negated
    KIND_FINAL = 2        # the move ends the game: `final` is its exact score for the mover

cdef union Pos:
    uint64_t q[POS_WORDS]
    uint16_t w[POS_WORDS * 4]
    uint8_t b[POS_WORDS * 8]

cdef struct Child:
    double final          # KIND_FINAL: the exact score from the mover's side
    int64_t order         # the kernel's ordering hint: larger is tried first among equals
    int32_t move          # the rules' move id (a pit index, a cell index)
    uint8_t kind
    uint8_t path          # the score or the child depends on the path (a repetition, a move counter)
    uint8_t reset         # an irreversible move (a capture): an earlier position cannot repeat past it
    Pos pos

cdef struct Line:
    # The keys of the line from the start of the game's relevant history to the position being expanded
    # (its own key last), for kernels whose rules look back (Oware's repetition).  `start` is the index of
    # the first position after the last irreversible move; positions before it cannot repeat.
    uint64_t keys[MAX_LINE]
    int length
    int start

ctypedef int (*expand_fn)(const void* ctx, const Pos* position, const Line* line, Child* out) noexcept nogil
ctypedef double (*evaluate_fn)(const void* ctx, const Pos* position) noexcept nogil
ctypedef uint64_t (*key_fn)(const void* ctx, const Pos* position) noexcept nogil
# Optional: a depth-1 node's best child value, scored from the mover's side without building the children
# (the evaluation is antisymmetric, so a child after which the opponent moves needs no turning round),
# stopping at the first that reaches `beta`; `best_move` and `leaves` (children evaluated) are written back,
# and `path` is set when a path-dependent end was counted.  NULL: the search expands and evaluates.
ctypedef double (*leaf_fn)(const void* ctx, const Pos* position, const Line* line, double beta,
                           int32_t* best_move, int64_t* leaves, int* path) noexcept nogil

# Optional: bounds certain to hold for the exact value of a position under perfect play (from the side to
# move, on the scale of the finished games' scores), e.g. Kalah's "the seeds already in the stores stay
# there".  The search stops at a position whose bounds already decide the window.  NULL: no such knowledge
# (a fixed-depth search then is exactly depth-limited minimax; with bounds it can end lines earlier).
ctypedef void (*bounds_fn)(const void* ctx, const Pos* position, double* lower, double* upper) noexcept nogil

cdef struct KernelVT:
    const void* ctx
    expand_fn expand
    evaluate_fn evaluate
    key_fn key
    leaf_fn leaf          # may be NULL
    bounds_fn bounds      # may be NULL
    int uses_line         # 1: keep `Line` up to date while searching (costs a key per node)


cdef inline uint64_t mix64(uint64_t x) noexcept nogil:
    # splitmix64's finaliser: every input bit changes about half the output bits.
    x ^= x >> 30
    x *= <uint64_t>0xbf58476d1ce4e5b9ULL
    x ^= x >> 27
    x *= <uint64_t>0x94d049bb133111ebULL
    x ^= x >> 31
    return x


cdef inline uint64_t hash_words(const uint64_t* words, int count) noexcept nogil:
    # A key for a position held in `count` 64-bit words (the rest of the union must not matter).
    cdef uint64_t h = <uint64_t>0x9e3779b97f4a7c15ULL
    cdef int i
    for i in range(count):
        h = mix64(h ^ words[i]) + <uint64_t>i
    return h
