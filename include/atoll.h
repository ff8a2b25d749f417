/*
 * atoll.h -- the C ABI of Atoll's shared arrays (crate atoll-capi, library libatoll_capi).
 *
 * A shared array is made by an Atoll program (Rust: atoll_share::SharedArray; Python:
 * atoll.share). Its per-locale blocks are memory-mapped files in a directory (default
 * /dev/shm) named by a metadata file atoll-<name>.meta. Any process opens it by name, reads
 * and writes the blocks in place (zero copy) and synchronizes with the Atoll side through
 * the array's signals (futex-based counting semaphores in the shared mapping: they work
 * across PID, IPC and mount namespaces; waits take a timeout, so a dead peer is an error,
 * not a hang).
 *
 * Every function returns an atoll_status; on failure atoll_last_error() is the calling
 * thread's message. Handles are opaque. Kept in sync with crates/atoll-capi/src/lib.rs by
 * crates/atoll-capi/tests/header.rs.
 */
#ifndef ATOLL_H
#define ATOLL_H

#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Status codes. */
#define ATOLL_OK 0
#define ATOLL_E_INVALID 1 /* bad argument: NULL pointer, index out of range, bad name */
#define ATOLL_E_FILE 2    /* missing, truncated, foreign or corrupt file */
#define ATOLL_E_TIMEOUT 3 /* a signal wait timed out (the peer may be gone) */
#define ATOLL_E_IO 4      /* operating-system error */
#define ATOLL_E_OTHER 5   /* internal error */

/* Element type codes. */
#define ATOLL_I8 1
#define ATOLL_I16 2
#define ATOLL_I32 3
#define ATOLL_I64 4
#define ATOLL_U8 5
#define ATOLL_U16 6
#define ATOLL_U32 7
#define ATOLL_U64 8
#define ATOLL_F32 9
#define ATOLL_F64 10

/* Number of signals of each shared array (indices 0 .. ATOLL_NUM_SIGNALS-1). */
#define ATOLL_NUM_SIGNALS 32

/* An open shared array. */
typedef struct AtollArray atoll_array;

/* The calling thread's last error message ("" if none). */
const char *atoll_last_error(void);

/* Opens array `name` in `dir` (NULL: /dev/shm); writable != 0 maps it shared read-write,
 * otherwise private copy-on-write (the files never change). */
int atoll_open(const char *name, const char *dir, int32_t writable, atoll_array **out);

/* Unmaps the array (the files stay). NULL is a no-op. */
int atoll_close(atoll_array *a);

/* Element type code. */
int atoll_dtype(const atoll_array *a, uint32_t *dtype);

/* Bytes per element of a type code (0 if unknown). */
uint64_t atoll_dtype_size(uint32_t dtype);

/* Rank (1 to 3). */
int atoll_rank(const atoll_array *a, uint32_t *rank);

/* Global shape: `rank` entries. */
int atoll_shape(const atoll_array *a, uint64_t *shape);

/* Number of blocks (one per locale of the Atoll job that made the array). */
int atoll_nblocks(const atoll_array *a, uint64_t *n);

/* Block b: global box lo[d]..hi[d] (rank entries each; either may be NULL), data pointer
 * (row-major over the box; valid until atoll_close) and length in elements. */
int atoll_block(const atoll_array *a, uint64_t b, uint64_t *lo, uint64_t *hi, void **data, uint64_t *len);

/* Adds n to signal k and wakes up to n waiters in any process. */
int atoll_signal_post(const atoll_array *a, uint32_t k, uint32_t n);

/* Takes one post of signal k, sleeping at most timeout_ms (then ATOLL_E_TIMEOUT). */
int atoll_signal_wait(const atoll_array *a, uint32_t k, uint64_t timeout_ms);

/* Generation counter (bumped by the producer after each update). */
int atoll_generation(const atoll_array *a, uint64_t *g);

/* Adds one to the generation counter; the new value into *g (may be NULL). */
int atoll_bump_generation(const atoll_array *a, uint64_t *g);

#ifdef __cplusplus
}
#endif

#endif /* ATOLL_H */
