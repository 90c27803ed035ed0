# Bit helpers shared by the games: 128-bit boards (GCC/Clang __int128),
# population counts, a seeded xorshift generator for playouts and Zobrist keys.

from libc.stdint cimport uint64_t, uint32_t, int64_t
from libc.stdlib cimport malloc, calloc, free, realloc
from libc.string cimport memset, memcpy

cdef extern from *:
    """
    typedef unsigned __int128 u128;
    static inline u128 bb_bit(int i) { return ((u128)1) << i; }
    static inline int bb_popcount(u128 x) {
        return __builtin_popcountll((unsigned long long)x)
             + __builtin_popcountll((unsigned long long)(x >> 64));
    }
    static inline int bb_lsb(u128 x) {   /* x != 0 */
        unsigned long long lo = (unsigned long long)x;
        return lo ? __builtin_ctzll(lo) : 64 + __builtin_ctzll((unsigned long long)(x >> 64));
    }
    static inline int u64_popcount(unsigned long long x) { return __builtin_popcountll(x); }
    static inline int u64_lsb(unsigned long long x) { return __builtin_ctzll(x); }
    static inline u128 bb_low_bits(int n) {   /* the n lowest bits set, 0 <= n <= 127 */
        return (((u128)1) << n) - 1;
    }
    """
    ctypedef unsigned long long u128   # really unsigned __int128: only used in C arithmetic
    u128 bb_bit(int i) noexcept nogil
    int bb_popcount(u128 x) noexcept nogil
    int bb_lsb(u128 x) noexcept nogil
    int u64_popcount(uint64_t x) noexcept nogil
    int u64_lsb(uint64_t x) noexcept nogil
    u128 bb_low_bits(int n) noexcept nogil


cdef inline uint64_t splitmix64(uint64_t* state) noexcept nogil:
    """Deterministic 64-bit generator (Steele et al.): seeds and Zobrist keys."""
    state[0] += <uint64_t>0x9E3779B97F4A7C15ULL
    cdef uint64_t z = state[0]
    z = (z ^ (z >> 30)) * <uint64_t>0xBF58476D1CE4E5B9ULL
    z = (z ^ (z >> 27)) * <uint64_t>0x94D049BB133111EBULL
    return z ^ (z >> 31)


ctypedef struct Rng:
    uint64_t s


cdef inline uint64_t rng_next(Rng* r) noexcept nogil:
    """xorshift64*: fast, good enough for playouts, seeded per search."""
    cdef uint64_t x = r.s
    x ^= x >> 12
    x ^= x << 25
    x ^= x >> 27
    r.s = x
    return x * <uint64_t>0x2545F4914F6CDD1DULL


cdef inline uint32_t lemire_below(uint64_t bits, uint32_t n) noexcept nogil:
    """Uniform in [0, n) from random bits, by Lemire's multiply-shift of
    their high half (n > 0)."""
    return <uint32_t>(((bits >> 32) * <uint64_t>n) >> 32)


cdef inline uint32_t rng_below(Rng* r, uint32_t n) noexcept nogil:
    """Uniform in [0, n) (n > 0)."""
    return lemire_below(rng_next(r), n)


cdef inline void rng_seed(Rng* r, uint64_t seed) noexcept nogil:
    cdef uint64_t s = seed
    r.s = splitmix64(&s) | 1


cdef extern from "<time.h>" nogil:
    ctypedef long time_t
    struct timespec:
        time_t tv_sec
        long tv_nsec
    int clock_gettime(int clk_id, timespec* tp)
    enum: CLOCK_MONOTONIC

cdef inline double now_seconds() noexcept nogil:
    cdef timespec ts
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return ts.tv_sec + ts.tv_nsec * 1e-9


# ---------------------------------------------------------------- stop flag
# Stockfish's Threads.stop: every long C loop polls an int next to its clock
# check, and another thread (a signal handler, a GUI, crossridor.stop()) sets
# it. Each search has its own flag (a StopFlag held by its engine.stop.Stop),
# so stopping one search leaves searches in other threads running.

cdef class StopFlag:
    """The int a search polls; set() from any thread."""
    cdef volatile int flag

    def set(self):
        self.flag = 1

    def clear(self):
        self.flag = 0

    def is_set(self):
        return self.flag != 0


cdef volatile int _never_stop = 0


cdef volatile int* current_stop_flag():
    """The flag of the search running in this thread (engine.stop.scope), or
    one that is never set when a core method is called outside a search."""
    from crossridor.engine.stop import current_flag
    cdef StopFlag f = current_flag()
    if f is None:
        return &_never_stop
    return &f.flag


# The one poll of every search loop (alpha-beta nodes, MCTS simulations,
# PIMC evaluations): the stop flag at every call, the clock every `period`
# calls (the first call reads it); once stopped, it stays stopped.
ctypedef struct StopCheck:
    volatile int* flag          # the search's stop flag (never NULL)
    double deadline             # now_seconds() at which to stop; 0 = none
    int period                  # calls between two reads of the clock
    int countdown               # calls left before the clock is read again
    int stopped


cdef inline void stop_check_init(StopCheck* c, volatile int* flag, double deadline, int period) noexcept nogil:
    c.flag = flag
    c.deadline = deadline
    c.period = period
    c.countdown = 0
    c.stopped = 0


cdef inline bint stop_check(StopCheck* c) noexcept nogil:
    """True once the flag is set or the deadline has passed."""
    if c.stopped or c.flag[0]:
        c.stopped = 1
        return True
    if c.deadline > 0:
        c.countdown -= 1
        if c.countdown <= 0:
            c.countdown = c.period
            if now_seconds() >= c.deadline:
                c.stopped = 1
                return True
    return False
