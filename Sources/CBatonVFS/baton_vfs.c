/*
 * The simulator's disk: an in-memory SQLite VFS that models durability.
 * The contract and the modelling choices are described in baton_vfs.h.
 *
 * Layout of the state:
 *   baton_disk  owns the sqlite3_vfs it registers, a directory of files
 *               sorted by name, a list of unlinked files that handles still
 *               use (temporary files start there), the generator behind
 *               xRandomness, the simulated clock, armed faults, counters,
 *               and the current epoch.
 *   bnode       one file: durable bytes, pending operations, current bytes,
 *               file-lock state, shared-memory regions and shm-lock state.
 *   bepoch      one process lifetime ("generation"). Every handle points at
 *               the epoch it was opened in and checks `alive` before doing
 *               anything else. A crash marks the epoch dead and starts a new
 *               one. The epoch is reference counted (the disk holds one
 *               reference while it is current, every open handle one), so a
 *               dead handle can always read `alive`, even after the disk is
 *               gone. Shared-memory regions a dead epoch had mapped are
 *               parked on it ("graves") because SQLite keeps raw pointers
 *               into them; they are freed with the epoch.
 *   bfile       SQLite's sqlite3_file for one open handle.
 */
#include "baton_vfs.h"

#include <sqlite3.h>

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The sector size and device characteristics a new disk reports. */
#define BDISK_DEFAULT_SECTOR 512
#define BDISK_MAX_PATH 512
/* Largest file the model accepts; beyond it a write answers SQLITE_FULL. */
#define BDISK_MAX_FILE ((size_t)1 << 36)
/* Julian day of the Unix epoch, in milliseconds. */
#define BDISK_UNIX_EPOCH_JD_MS INT64_C(210866760000000)

/* ------------------------------------------------------------------------ */
/* Small helpers                                                             */

_Noreturn static void bdisk_out_of_memory(void) {
    fputs("baton_vfs: out of memory in an operation that cannot fail\n", stderr);
    abort();
}

/* SplitMix64: small, fast, and good enough to drive choices. */
static uint64_t bdisk_next(uint64_t *state) {
    uint64_t z = (*state += UINT64_C(0x9E3779B97F4A7C15));
    z = (z ^ (z >> 30)) * UINT64_C(0xBF58476D1CE4E5B9);
    z = (z ^ (z >> 27)) * UINT64_C(0x94D049BB133111EB);
    return z ^ (z >> 31);
}

static uint64_t bdisk_below(uint64_t *state, uint64_t bound) {
    return bdisk_next(state) % bound;
}

static void bdisk_fill_random(uint64_t *state, unsigned char *dst, size_t n) {
    size_t i = 0;
    while (i < n) {
        uint64_t word = bdisk_next(state);
        for (int k = 0; k < 8 && i < n; k++, i++) {
            dst[i] = (unsigned char)(word & 0xFF);
            word >>= 8;
        }
    }
}

#define BDISK_FNV_OFFSET UINT64_C(0xcbf29ce484222325)
#define BDISK_FNV_PRIME UINT64_C(0x100000001b3)

static uint64_t bdisk_fnv(uint64_t h, const unsigned char *bytes, size_t n) {
    for (size_t i = 0; i < n; i++) {
        h ^= bytes[i];
        h *= BDISK_FNV_PRIME;
    }
    return h;
}

static uint64_t bdisk_fnv_u64(uint64_t h, uint64_t value) {
    unsigned char le[8];
    for (int i = 0; i < 8; i++) {
        le[i] = (unsigned char)((value >> (8 * i)) & 0xFF);
    }
    return bdisk_fnv(h, le, sizeof le);
}

/* Makes a name absolute by putting "/" in front when it is relative.
 * Returns 0, or -1 when the result would not fit in `cap` bytes. */
static int bdisk_full_path(const char *in, char *out, size_t cap) {
    size_t n = strlen(in);
    size_t slash = (in[0] == '/') ? 0 : 1;
    if (n + slash + 1 > cap) {
        return -1;
    }
    if (slash) {
        out[0] = '/';
    }
    memcpy(out + slash, in, n + 1);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Growable byte buffers                                                     */

typedef struct bbuf {
    unsigned char *data;
    size_t size;
    size_t cap;
} bbuf;

static int bbuf_reserve(bbuf *b, size_t need) {
    if (need <= b->cap) {
        return 0;
    }
    size_t cap = b->cap ? b->cap : 4096;
    while (cap < need) {
        cap = (cap > SIZE_MAX / 2) ? need : cap * 2;
    }
    unsigned char *p = realloc(b->data, cap);
    if (p == NULL) {
        return -1;
    }
    b->data = p;
    b->cap = cap;
    return 0;
}

/* Sets the size; bytes gained read as zero. */
static int bbuf_resize(bbuf *b, size_t size) {
    if (size > b->size) {
        if (bbuf_reserve(b, size) != 0) {
            return -1;
        }
        memset(b->data + b->size, 0, size - b->size);
    }
    b->size = size;
    return 0;
}

/* Writes n bytes at off, growing the buffer (with zeros in any gap). The
 * caller has checked that off + n does not overflow. */
static int bbuf_put(bbuf *b, size_t off, const unsigned char *src, size_t n) {
    if (n == 0) {
        return 0;
    }
    if (off + n > b->size && bbuf_resize(b, off + n) != 0) {
        return -1;
    }
    memcpy(b->data + off, src, n);
    return 0;
}

static int bbuf_assign(bbuf *b, const unsigned char *src, size_t n) {
    if (bbuf_reserve(b, n) != 0) {
        return -1;
    }
    if (n > 0) {
        memcpy(b->data, src, n);
    }
    b->size = n;
    return 0;
}

static void bbuf_free(bbuf *b) {
    free(b->data);
    b->data = NULL;
    b->size = 0;
    b->cap = 0;
}

/* ------------------------------------------------------------------------ */
/* Files                                                                     */

enum { BOP_WRITE = 0, BOP_TRUNCATE = 1 };

/* One pending operation. A write carries its bytes; a truncation carries
 * the new size in `off`. */
typedef struct bop {
    int kind;
    size_t off;
    size_t len;
    unsigned char *data;
} bop;

typedef struct bnode {
    char *name;            /* NULL for a temporary (anonymous) file      */
    int linked;            /* listed in the directory                    */
    int64_t open_handles;  /* live handles of the current epoch          */
    struct bnode *next_unlinked; /* list of unlinked files still open    */

    bbuf durable;
    bbuf current;
    bop *ops;
    size_t nops;
    size_t capops;

    /* File locks: how many handles hold SHARED or more, and the one handle
     * (by id) that holds RESERVED, PENDING or EXCLUSIVE. */
    int64_t shared_holders;
    uint64_t writer_id;
    int writer_level;

    /* The directory entry: whether the directory as it is on the platter
     * names this file (`linked` is the directory as the OS shows it), and
     * how many pending directory changes refer to it. A file is kept while
     * either holds it, so a lost unlink can bring it back. */
    int durable_linked;
    int64_t dir_refs;
    /* A failed sync dropped pending writes (the "drops" sync-failure
     * mode): the current bytes hold data the durable bytes never got and
     * no later sync will write. Cleared when both agree again. */
    int diverged;

    /* Shared memory (the WAL index) and its lock slots. */
    void **shm;
    int nshm;
    int shm_region_size;
    int64_t shm_users;
    int64_t shm_shared[SQLITE_SHM_NLOCK];
    uint64_t shm_excl[SQLITE_SHM_NLOCK];
} bnode;

typedef struct bepoch {
    int alive;
    int64_t refs;
    struct baton_disk *disk; /* only meaningful while alive */
    void **graves;
    size_t ngraves;
    size_t capgraves;
} bepoch;

typedef struct bfault {
    uint32_t skip;
    uint32_t count; /* 0: disarmed; BATON_DISK_FAULT_FOREVER: until cleared */
    int code;
} bfault;

#define BDISK_FAULT_KINDS 6

/* One pending directory change: a file's entry created or removed. */
enum { BDIR_CREATE = 0, BDIR_REMOVE = 1 };
typedef struct bdirop {
    int kind;
    struct bnode *node;
} bdirop;

struct baton_disk {
    sqlite3_vfs vfs;
    char vfs_name[32];
    int registered;
    uint64_t random_state;
    int64_t time_us;
    bepoch *epoch;
    uint64_t next_handle_id;
    bnode **files; /* sorted by strcmp of names */
    size_t nfiles;
    size_t capfiles;
    bnode *unlinked;
    bfault faults[BDISK_FAULT_KINDS];
    baton_disk_counters counters;
    /* Directory changes not yet synced, oldest first (all directories). */
    bdirop *dirops;
    size_t ndirops;
    size_t capdirops;
    int sync_failure;   /* BATON_DISK_SYNC_FAILURE_*                    */
    size_t sector;      /* xSectorSize, and the unit a torn write is cut in */
    int device;         /* xDeviceCharacteristics                        */
    /* A crash armed at a disk-changing operation (baton_disk_arm_crash):
     * how many more may happen first (-1: none armed), whether it is a
     * power loss and its seed, and whether it struck (the disk then refuses
     * everything until baton_disk_thaw). */
    int64_t crash_left;
    int crash_power_loss;
    uint64_t crash_seed;
    int frozen;
};

typedef struct bfile {
    sqlite3_file base;
    bepoch *epoch; /* NULL once closed */
    bnode *node;
    uint64_t id;
    int readonly;
    int lock_level;
    int shm_mapped;
    /* Opened with SQLITE_OPEN_CREATE as a WAL or journal: the first sync
     * that succeeds also syncs the directory (UNIXFILE_DIRSYNC). */
    int dirsync;
    unsigned shm_shared_mask;
    unsigned shm_excl_mask;
} bfile;

static void bop_clear_all(bnode *n) {
    for (size_t i = 0; i < n->nops; i++) {
        free(n->ops[i].data);
    }
    n->nops = 0;
}

static void bnode_free_shm(bnode *n) {
    for (int i = 0; i < n->nshm; i++) {
        free(n->shm[i]);
    }
    free(n->shm);
    n->shm = NULL;
    n->nshm = 0;
    n->shm_region_size = 0;
}

static void bnode_reset_shm_locks(bnode *n) {
    n->shm_users = 0;
    for (int i = 0; i < SQLITE_SHM_NLOCK; i++) {
        n->shm_shared[i] = 0;
        n->shm_excl[i] = 0;
    }
}

static void bnode_free(bnode *n) {
    if (n == NULL) {
        return;
    }
    bop_clear_all(n);
    free(n->ops);
    bbuf_free(&n->durable);
    bbuf_free(&n->current);
    bnode_free_shm(n);
    free(n->name);
    free(n);
}

static bnode *bnode_new(const char *name) {
    bnode *n = calloc(1, sizeof *n);
    if (n == NULL) {
        return NULL;
    }
    if (name != NULL) {
        size_t len = strlen(name);
        n->name = malloc(len + 1);
        if (n->name == NULL) {
            free(n);
            return NULL;
        }
        memcpy(n->name, name, len + 1);
    }
    return n;
}

static int bop_apply(bbuf *b, const bop *op) {
    if (op->kind == BOP_TRUNCATE) {
        return bbuf_resize(b, op->off);
    }
    return bbuf_put(b, op->off, op->data, op->len);
}

/* Records a write: the current bytes change now, the durable bytes at the
 * next sync. Temporary files have no durability to model. */
static int bnode_write(bnode *n, size_t off, const unsigned char *src, size_t len) {
    if (n->name == NULL) {
        return bbuf_put(&n->current, off, src, len);
    }
    if (n->nops == n->capops) {
        size_t cap = n->capops ? n->capops * 2 : 16;
        bop *ops = realloc(n->ops, cap * sizeof *ops);
        if (ops == NULL) {
            return -1;
        }
        n->ops = ops;
        n->capops = cap;
    }
    unsigned char *copy = malloc(len ? len : 1);
    if (copy == NULL) {
        return -1;
    }
    if (len > 0) {
        memcpy(copy, src, len);
    }
    if (bbuf_put(&n->current, off, src, len) != 0) {
        free(copy);
        return -1;
    }
    n->ops[n->nops].kind = BOP_WRITE;
    n->ops[n->nops].off = off;
    n->ops[n->nops].len = len;
    n->ops[n->nops].data = copy;
    n->nops++;
    return 0;
}

static int bnode_truncate(bnode *n, size_t size) {
    if (n->name == NULL) {
        return bbuf_resize(&n->current, size);
    }
    if (n->nops == n->capops) {
        size_t cap = n->capops ? n->capops * 2 : 16;
        bop *ops = realloc(n->ops, cap * sizeof *ops);
        if (ops == NULL) {
            return -1;
        }
        n->ops = ops;
        n->capops = cap;
    }
    if (bbuf_resize(&n->current, size) != 0) {
        return -1;
    }
    n->ops[n->nops].kind = BOP_TRUNCATE;
    n->ops[n->nops].off = size;
    n->ops[n->nops].len = 0;
    n->ops[n->nops].data = NULL;
    n->nops++;
    return 0;
}

/* A file whose failed sync dropped writes stops being diverged once its
 * durable bytes hold what reads see (later writes and a sync covered the
 * lost ones, or a truncation cut them off). */
static void bnode_check_diverged(bnode *n) {
    if (!n->diverged || n->nops > 0) {
        return;
    }
    if (n->durable.size == n->current.size &&
        (n->current.size == 0 || memcmp(n->durable.data, n->current.data, n->current.size) == 0)) {
        n->diverged = 0;
    }
}

/* Makes the pending operations durable, in order. On running out of memory
 * part way, the applied ones are removed, so durable bytes plus pending
 * operations still give the current bytes. */
static int bnode_sync(bnode *n) {
    size_t done = 0;
    int rc = 0;
    while (done < n->nops) {
        if (bop_apply(&n->durable, &n->ops[done]) != 0) {
            rc = -1;
            break;
        }
        free(n->ops[done].data);
        done++;
    }
    if (done > 0 && done < n->nops) {
        memmove(n->ops, n->ops + done, (n->nops - done) * sizeof *n->ops);
    }
    n->nops -= done;
    bnode_check_diverged(n);
    return rc;
}

/* ------------------------------------------------------------------------ */
/* Directory                                                                 */

/* Binary search; returns the index of the name or where it would go. */
static size_t bdir_search(const baton_disk *d, const char *path, int *found) {
    size_t lo = 0;
    size_t hi = d->nfiles;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcmp(d->files[mid]->name, path);
        if (c == 0) {
            *found = 1;
            return mid;
        }
        if (c < 0) {
            lo = mid + 1;
        } else {
            hi = mid;
        }
    }
    *found = 0;
    return lo;
}

static bnode *bdir_find(const baton_disk *d, const char *path) {
    int found = 0;
    size_t i = bdir_search(d, path, &found);
    return found ? d->files[i] : NULL;
}

/* Looks a caller-given name up after making it absolute. */
static bnode *bdir_find_name(const baton_disk *d, const char *name) {
    char path[BDISK_MAX_PATH + 1];
    if (name == NULL || bdisk_full_path(name, path, sizeof path) != 0) {
        return NULL;
    }
    return bdir_find(d, path);
}

static bnode *bdir_create(baton_disk *d, const char *path) {
    int found = 0;
    size_t at = bdir_search(d, path, &found);
    if (found) {
        return d->files[at];
    }
    if (d->nfiles == d->capfiles) {
        size_t cap = d->capfiles ? d->capfiles * 2 : 8;
        bnode **files = realloc(d->files, cap * sizeof *files);
        if (files == NULL) {
            return NULL;
        }
        d->files = files;
        d->capfiles = cap;
    }
    bnode *n = bnode_new(path);
    if (n == NULL) {
        return NULL;
    }
    n->linked = 1;
    memmove(d->files + at + 1, d->files + at, (d->nfiles - at) * sizeof *d->files);
    d->files[at] = n;
    d->nfiles++;
    return n;
}

static void bdisk_unlinked_push(baton_disk *d, bnode *n) {
    n->linked = 0;
    n->next_unlinked = d->unlinked;
    d->unlinked = n;
}

static void bdisk_unlinked_remove(baton_disk *d, bnode *n) {
    bnode **link = &d->unlinked;
    while (*link != NULL) {
        if (*link == n) {
            *link = n->next_unlinked;
            n->next_unlinked = NULL;
            return;
        }
        link = &(*link)->next_unlinked;
    }
}

/* A file is kept while a handle has it open, the durable directory names
 * it, or a pending directory change refers to it. */
static int bnode_held(const bnode *n) {
    return n->open_handles > 0 || n->durable_linked || n->dir_refs > 0;
}

/* Frees every unlinked file nothing holds any more. */
static void bdisk_sweep_unlinked(baton_disk *d) {
    bnode **link = &d->unlinked;
    while (*link != NULL) {
        bnode *n = *link;
        if (!bnode_held(n)) {
            *link = n->next_unlinked;
            bnode_free(n);
        } else {
            link = &n->next_unlinked;
        }
    }
}

/* Records a directory change as pending until its directory is synced. */
static void bdisk_dirop_push(baton_disk *d, int kind, bnode *n) {
    if (d->ndirops == d->capdirops) {
        size_t cap = d->capdirops ? d->capdirops * 2 : 8;
        bdirop *ops = realloc(d->dirops, cap * sizeof *ops);
        if (ops == NULL) {
            bdisk_out_of_memory();
        }
        d->dirops = ops;
        d->capdirops = cap;
    }
    d->dirops[d->ndirops].kind = kind;
    d->dirops[d->ndirops].node = n;
    d->ndirops++;
    n->dir_refs++;
}

/* The durable directory names `n`: any other file it named so before
 * loses its entry (a name has one entry). */
static void bdisk_durable_link(baton_disk *d, bnode *n) {
    for (size_t i = 0; i < d->nfiles; i++) {
        bnode *other = d->files[i];
        if (other != n && other->durable_linked && strcmp(other->name, n->name) == 0) {
            other->durable_linked = 0;
        }
    }
    for (bnode *other = d->unlinked; other != NULL; other = other->next_unlinked) {
        if (other != n && other->name != NULL && other->durable_linked && strcmp(other->name, n->name) == 0) {
            other->durable_linked = 0;
        }
    }
    n->durable_linked = 1;
}

/* A directory change reaches the platter. */
static void bdirop_apply(baton_disk *d, const bdirop *op) {
    if (op->kind == BDIR_CREATE) {
        bdisk_durable_link(d, op->node);
    } else {
        op->node->durable_linked = 0;
    }
}

/* Length of the directory part of an absolute path (up to its last '/'). */
static size_t bdisk_dir_len(const char *path) {
    const char *slash = strrchr(path, '/');
    return (slash != NULL) ? (size_t)(slash - path) : 0;
}

static int bdisk_same_dir(const char *a, const char *b) {
    size_t n = bdisk_dir_len(a);
    return n == bdisk_dir_len(b) && memcmp(a, b, n) == 0;
}

/* fsync on the directory holding `path`: every pending change of that
 * directory becomes durable, in order; changes of other directories stay
 * pending. */
static void bdisk_sync_directory(baton_disk *d, const char *path) {
    size_t kept = 0;
    for (size_t i = 0; i < d->ndirops; i++) {
        bdirop op = d->dirops[i];
        if (bdisk_same_dir(op.node->name, path)) {
            bdirop_apply(d, &op);
            op.node->dir_refs--;
        } else {
            d->dirops[kept++] = op;
        }
    }
    d->ndirops = kept;
    d->counters.directory_syncs++;
    bdisk_sweep_unlinked(d);
}

/* Removes a file from the directory as the OS shows it. The removal is
 * pending until the directory is synced; the file stays on the unlinked
 * list (open handles keep using it, a lost removal brings it back). */
static int bdir_remove(baton_disk *d, const char *path) {
    int found = 0;
    size_t at = bdir_search(d, path, &found);
    if (!found) {
        return -1;
    }
    bnode *n = d->files[at];
    memmove(d->files + at, d->files + at + 1, (d->nfiles - at - 1) * sizeof *d->files);
    d->nfiles--;
    bdisk_dirop_push(d, BDIR_REMOVE, n);
    bdisk_unlinked_push(d, n);
    d->counters.deletes++;
    bdisk_sweep_unlinked(d);
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Epochs and crashes                                                        */

static bepoch *bepoch_new(baton_disk *d) {
    bepoch *e = calloc(1, sizeof *e);
    if (e == NULL) {
        return NULL;
    }
    e->alive = 1;
    e->refs = 1;
    e->disk = d;
    return e;
}

static void bepoch_release(bepoch *e) {
    e->refs--;
    if (e->refs > 0) {
        return;
    }
    for (size_t i = 0; i < e->ngraves; i++) {
        free(e->graves[i]);
    }
    free(e->graves);
    free(e);
}

/* Parks a region a dead connection may still read. If even that runs out
 * of memory, the region is leaked rather than freed under the reader. */
static void bepoch_bury(bepoch *e, void *region) {
    if (e->ngraves == e->capgraves) {
        size_t cap = e->capgraves ? e->capgraves * 2 : 4;
        void **graves = realloc(e->graves, cap * sizeof *graves);
        if (graves == NULL) {
            return;
        }
        e->graves = graves;
        e->capgraves = cap;
    }
    e->graves[e->ngraves++] = region;
}

/* Drops what a process held on a file: its handles, locks and shared
 * memory. `dying` is the epoch that ends; regions go to its graves when
 * handles of that epoch still exist. */
static void bnode_forget_process(bnode *n, bepoch *dying) {
    int keep_regions = dying->refs > 1;
    for (int i = 0; i < n->nshm; i++) {
        if (keep_regions) {
            bepoch_bury(dying, n->shm[i]);
        } else {
            free(n->shm[i]);
        }
    }
    free(n->shm);
    n->shm = NULL;
    n->nshm = 0;
    n->shm_region_size = 0;
    bnode_reset_shm_locks(n);
    n->open_handles = 0;
    n->shared_holders = 0;
    n->writer_id = 0;
    n->writer_level = SQLITE_LOCK_NONE;
}

/* Ends the current epoch: every handle becomes dead. Files keep their
 * bytes and pending operations; unlinked files (temporary ones included)
 * are freed since only dead handles knew them, unless a pending or durable
 * directory entry still names them. */
static void bdisk_end_epoch(baton_disk *d, int start_new) {
    bepoch *dying = d->epoch;
    bepoch *fresh = NULL;
    if (start_new) {
        fresh = bepoch_new(d);
        if (fresh == NULL) {
            bdisk_out_of_memory();
        }
    }
    dying->alive = 0;
    dying->disk = NULL;
    for (size_t i = 0; i < d->nfiles; i++) {
        bnode_forget_process(d->files[i], dying);
    }
    for (bnode *n = d->unlinked; n != NULL; n = n->next_unlinked) {
        bnode_forget_process(n, dying);
    }
    bdisk_sweep_unlinked(d);
    bepoch_release(dying);
    d->epoch = fresh;
}

/* ------------------------------------------------------------------------ */
/* Faults                                                                    */

static int bdisk_default_fault_code(int kind) {
    switch (kind) {
    case BATON_DISK_FAULT_WRITE: return SQLITE_IOERR_WRITE;
    case BATON_DISK_FAULT_SYNC: return SQLITE_IOERR_FSYNC;
    case BATON_DISK_FAULT_READ: return SQLITE_IOERR_READ;
    case BATON_DISK_FAULT_OPEN: return SQLITE_CANTOPEN;
    case BATON_DISK_FAULT_DELETE: return SQLITE_IOERR_DELETE;
    default: return SQLITE_IOERR_TRUNCATE;
    }
}

/* Returns the code to fail this operation with, or SQLITE_OK. */
static int bdisk_take_fault(baton_disk *d, int kind) {
    bfault *f = &d->faults[kind];
    if (f->count == 0) {
        return SQLITE_OK;
    }
    if (f->skip > 0) {
        f->skip--;
        return SQLITE_OK;
    }
    if (f->count != BATON_DISK_FAULT_FOREVER) {
        f->count--;
    }
    d->counters.injected_faults++;
    return f->code;
}

/* The crash point, asked before every operation that changes the disk
 * (write, sync, truncation, file creation, deletion): nonzero when the
 * operation must not happen, because an armed crash strikes now (the
 * process dies: a kill or a power loss) or struck before. */
static int bdisk_crash_point(baton_disk *d) {
    if (d->frozen) {
        return 1;
    }
    if (d->crash_left < 0) {
        return 0;
    }
    if (d->crash_left > 0) {
        d->crash_left--;
        return 0;
    }
    d->crash_left = -1;
    if (d->crash_power_loss) {
        baton_disk_power_loss(d, d->crash_seed);
    } else {
        baton_disk_kill(d);
    }
    d->frozen = 1;
    return 1;
}

/* ------------------------------------------------------------------------ */
/* sqlite3_io_methods                                                        */

/* The file of a handle that may still act, or NULL for a dead or closed
 * handle. Checked first by every method: a dead handle never looks at the
 * disk, which may have been destroyed. */
static bnode *bfile_live(const bfile *h) {
    if (h->epoch == NULL || !h->epoch->alive) {
        return NULL;
    }
    return h->node;
}

static baton_disk *bfile_disk(const bfile *h) {
    return h->epoch->disk;
}

static void bfile_release_file_lock(bfile *h, bnode *n) {
    if (h->lock_level > SQLITE_LOCK_SHARED && n->writer_id == h->id) {
        n->writer_id = 0;
        n->writer_level = SQLITE_LOCK_NONE;
    }
    if (h->lock_level >= SQLITE_LOCK_SHARED) {
        n->shared_holders--;
    }
    h->lock_level = SQLITE_LOCK_NONE;
}

static void bfile_release_shm_locks(bfile *h, bnode *n) {
    for (int i = 0; i < SQLITE_SHM_NLOCK; i++) {
        unsigned bit = 1u << i;
        if (h->shm_excl_mask & bit) {
            n->shm_excl[i] = 0;
        }
        if (h->shm_shared_mask & bit) {
            n->shm_shared[i]--;
        }
    }
    h->shm_excl_mask = 0;
    h->shm_shared_mask = 0;
}

/* The handle stops using shared memory; the last user drops it (as if the
 * -shm file were deleted: the next user rebuilds the index from the WAL). */
static void bfile_shm_detach(bfile *h, bnode *n) {
    bfile_release_shm_locks(h, n);
    if (h->shm_mapped) {
        h->shm_mapped = 0;
        n->shm_users--;
        if (n->shm_users == 0) {
            bnode_free_shm(n);
        }
    }
}

static int bio_close(sqlite3_file *f) {
    bfile *h = (bfile *)f;
    bepoch *e = h->epoch;
    if (e == NULL) {
        return SQLITE_OK;
    }
    bnode *n = bfile_live(h);
    if (n != NULL) {
        baton_disk *d = bfile_disk(h);
        bfile_shm_detach(h, n);
        bfile_release_file_lock(h, n);
        n->open_handles--;
        if (!n->linked && !bnode_held(n)) {
            bdisk_unlinked_remove(d, n);
            bnode_free(n);
        }
    }
    h->epoch = NULL;
    h->node = NULL;
    bepoch_release(e);
    return SQLITE_OK;
}

static int bio_read(sqlite3_file *f, void *buf, int amt, sqlite3_int64 off) {
    bfile *h = (bfile *)f;
    bnode *n = bfile_live(h);
    if (amt <= 0) {
        return (n == NULL) ? SQLITE_IOERR : SQLITE_OK;
    }
    if (n == NULL) {
        memset(buf, 0, (size_t)amt);
        return SQLITE_IOERR;
    }
    baton_disk *d = bfile_disk(h);
    if (off < 0) {
        return SQLITE_IOERR_READ;
    }
    int rc = bdisk_take_fault(d, BATON_DISK_FAULT_READ);
    if (rc != SQLITE_OK) {
        return rc;
    }
    d->counters.reads++;
    size_t want = (size_t)amt;
    size_t size = n->current.size;
    if ((uint64_t)off >= size) {
        memset(buf, 0, want);
        return SQLITE_IOERR_SHORT_READ;
    }
    size_t start = (size_t)off;
    size_t avail = size - start;
    if (avail >= want) {
        memcpy(buf, n->current.data + start, want);
        return SQLITE_OK;
    }
    memcpy(buf, n->current.data + start, avail);
    memset((unsigned char *)buf + avail, 0, want - avail);
    return SQLITE_IOERR_SHORT_READ;
}

static int bio_write(sqlite3_file *f, const void *buf, int amt, sqlite3_int64 off) {
    bfile *h = (bfile *)f;
    bnode *n = bfile_live(h);
    if (n == NULL) {
        return SQLITE_IOERR;
    }
    baton_disk *d = bfile_disk(h);
    if (h->readonly) {
        return SQLITE_READONLY;
    }
    if (bdisk_crash_point(d)) {
        return SQLITE_IOERR_WRITE;
    }
    if (amt < 0 || off < 0) {
        return SQLITE_IOERR_WRITE;
    }
    if ((uint64_t)off > BDISK_MAX_FILE || (size_t)amt > BDISK_MAX_FILE - (size_t)off) {
        return SQLITE_FULL;
    }
    int rc = bdisk_take_fault(d, BATON_DISK_FAULT_WRITE);
    if (rc != SQLITE_OK) {
        return rc;
    }
    /* os_unix.c's seekAndWrite keeps only the low 17 bits of a write's
     * length (SQLite's own writes are a page and a frame header at most),
     * and unixWrite answers SQLITE_FULL when its next try writes nothing:
     * a longer write lands that short and fails, here as there. */
    int cut = amt > 0x1ffff;
    if (cut) {
        amt &= 0x1ffff;
    }
    if (amt > 0 && bnode_write(n, (size_t)off, buf, (size_t)amt) != 0) {
        return SQLITE_IOERR_NOMEM;
    }
    if (cut) {
        d->counters.writes++;
        d->counters.bytes_written += (uint64_t)amt;
        return SQLITE_FULL;
    }
    d->counters.writes++;
    d->counters.bytes_written += (uint64_t)amt;
    return SQLITE_OK;
}

static int bio_truncate(sqlite3_file *f, sqlite3_int64 size) {
    bfile *h = (bfile *)f;
    bnode *n = bfile_live(h);
    if (n == NULL) {
        return SQLITE_IOERR;
    }
    baton_disk *d = bfile_disk(h);
    if (h->readonly) {
        return SQLITE_READONLY;
    }
    if (bdisk_crash_point(d)) {
        return SQLITE_IOERR_TRUNCATE;
    }
    if (size < 0) {
        return SQLITE_IOERR_TRUNCATE;
    }
    if ((uint64_t)size > BDISK_MAX_FILE) {
        return SQLITE_FULL;
    }
    int rc = bdisk_take_fault(d, BATON_DISK_FAULT_TRUNCATE);
    if (rc != SQLITE_OK) {
        return rc;
    }
    if (bnode_truncate(n, (size_t)size) != 0) {
        return SQLITE_IOERR_NOMEM;
    }
    d->counters.truncates++;
    return SQLITE_OK;
}

/* A failed fsync as Linux may do it: the kernel marks the dirty pages
 * clean, so the writes stay visible but never reach the platter, and the
 * next fsync has nothing to report. */
static void bnode_drop_pending(baton_disk *d, bnode *n) {
    if (n->name == NULL || n->nops == 0) {
        return;
    }
    d->counters.failed_syncs_dropping++;
    d->counters.writes_lost_to_failed_sync += n->nops;
    bop_clear_all(n);
    n->diverged = 1;
    bnode_check_diverged(n);
}

static int bio_sync(sqlite3_file *f, int flags) {
    /* Data and size are always synced together (fdatasync on Linux writes
     * the size when it changed); SQLITE_SYNC_DATAONLY changes nothing. */
    (void)flags;
    bfile *h = (bfile *)f;
    bnode *n = bfile_live(h);
    if (n == NULL) {
        return SQLITE_IOERR;
    }
    baton_disk *d = bfile_disk(h);
    if (bdisk_crash_point(d)) {
        return SQLITE_IOERR_FSYNC;
    }
    int rc = bdisk_take_fault(d, BATON_DISK_FAULT_SYNC);
    if (rc != SQLITE_OK) {
        /* The unix VFS returns before its one-time directory sync. */
        if (d->sync_failure == BATON_DISK_SYNC_FAILURE_DROPS) {
            bnode_drop_pending(d, n);
        }
        return rc;
    }
    if (bnode_sync(n) != 0) {
        return SQLITE_IOERR_NOMEM;
    }
    d->counters.syncs++;
    if (h->dirsync && n->name != NULL) {
        /* UNIXFILE_DIRSYNC: once per handle, after the file's own sync. */
        h->dirsync = 0;
        bdisk_sync_directory(d, n->name);
    }
    return SQLITE_OK;
}

static int bio_file_size(sqlite3_file *f, sqlite3_int64 *size) {
    bfile *h = (bfile *)f;
    bnode *n = bfile_live(h);
    if (n == NULL) {
        *size = 0;
        return SQLITE_IOERR;
    }
    *size = (sqlite3_int64)n->current.size;
    return SQLITE_OK;
}

static int bio_lock(sqlite3_file *f, int level) {
    bfile *h = (bfile *)f;
    bnode *n = bfile_live(h);
    if (n == NULL) {
        return SQLITE_IOERR;
    }
    if (h->lock_level >= level) {
        return SQLITE_OK;
    }
    int other_writer = n->writer_id != 0 && n->writer_id != h->id;
    switch (level) {
    case SQLITE_LOCK_SHARED:
        if (other_writer && n->writer_level >= SQLITE_LOCK_PENDING) {
            return SQLITE_BUSY;
        }
        n->shared_holders++;
        h->lock_level = SQLITE_LOCK_SHARED;
        return SQLITE_OK;
    case SQLITE_LOCK_RESERVED:
        if (h->lock_level < SQLITE_LOCK_SHARED) {
            return SQLITE_IOERR_LOCK;
        }
        if (other_writer) {
            return SQLITE_BUSY;
        }
        n->writer_id = h->id;
        n->writer_level = SQLITE_LOCK_RESERVED;
        h->lock_level = SQLITE_LOCK_RESERVED;
        return SQLITE_OK;
    case SQLITE_LOCK_EXCLUSIVE:
        if (h->lock_level < SQLITE_LOCK_SHARED) {
            return SQLITE_IOERR_LOCK;
        }
        if (other_writer) {
            return SQLITE_BUSY;
        }
        n->writer_id = h->id;
        if (n->shared_holders > 1) {
            /* Wait for the other readers, keeping them from starting anew. */
            n->writer_level = SQLITE_LOCK_PENDING;
            h->lock_level = SQLITE_LOCK_PENDING;
            return SQLITE_BUSY;
        }
        n->writer_level = SQLITE_LOCK_EXCLUSIVE;
        h->lock_level = SQLITE_LOCK_EXCLUSIVE;
        return SQLITE_OK;
    default:
        return SQLITE_IOERR_LOCK;
    }
}

static int bio_unlock(sqlite3_file *f, int level) {
    bfile *h = (bfile *)f;
    bnode *n = bfile_live(h);
    if (n == NULL) {
        return SQLITE_IOERR;
    }
    if (h->lock_level <= level) {
        return SQLITE_OK;
    }
    if (h->lock_level > SQLITE_LOCK_SHARED) {
        if (n->writer_id == h->id) {
            n->writer_id = 0;
            n->writer_level = SQLITE_LOCK_NONE;
        }
        h->lock_level = SQLITE_LOCK_SHARED;
    }
    if (level == SQLITE_LOCK_NONE && h->lock_level == SQLITE_LOCK_SHARED) {
        n->shared_holders--;
        h->lock_level = SQLITE_LOCK_NONE;
    }
    return SQLITE_OK;
}

static int bio_check_reserved(sqlite3_file *f, int *out) {
    bfile *h = (bfile *)f;
    bnode *n = bfile_live(h);
    if (n == NULL) {
        *out = 0;
        return SQLITE_IOERR;
    }
    *out = n->writer_id != 0;
    return SQLITE_OK;
}

static int bio_file_control(sqlite3_file *f, int op, void *arg) {
    bfile *h = (bfile *)f;
    bnode *n = bfile_live(h);
    if (n == NULL) {
        return SQLITE_IOERR;
    }
    switch (op) {
    case SQLITE_FCNTL_LOCKSTATE:
        *(int *)arg = h->lock_level;
        return SQLITE_OK;
    case SQLITE_FCNTL_VFSNAME: {
        char *copy = sqlite3_mprintf("%s", bfile_disk(h)->vfs_name);
        if (copy == NULL) {
            return SQLITE_NOMEM;
        }
        *(char **)arg = copy;
        return SQLITE_OK;
    }
    case SQLITE_FCNTL_HAS_MOVED:
        *(int *)arg = (n->name != NULL && !n->linked) ? 1 : 0;
        return SQLITE_OK;
    default:
        return SQLITE_NOTFOUND;
    }
}

static int bio_sector_size(sqlite3_file *f) {
    bfile *h = (bfile *)f;
    if (bfile_live(h) == NULL) {
        return BDISK_DEFAULT_SECTOR;
    }
    return (int)bfile_disk(h)->sector;
}

static int bio_device_characteristics(sqlite3_file *f) {
    bfile *h = (bfile *)f;
    if (bfile_live(h) == NULL) {
        return 0;
    }
    return bfile_disk(h)->device;
}

static int bio_shm_map(sqlite3_file *f, int region, int region_size, int extend,
                       void volatile **out) {
    bfile *h = (bfile *)f;
    bnode *n = bfile_live(h);
    *out = NULL;
    if (n == NULL) {
        return SQLITE_IOERR;
    }
    if (region < 0 || region_size <= 0) {
        return SQLITE_IOERR_SHMMAP;
    }
    if (n->shm_region_size != 0 && n->shm_region_size != region_size) {
        return SQLITE_IOERR_SHMSIZE;
    }
    if (!h->shm_mapped) {
        h->shm_mapped = 1;
        n->shm_users++;
    }
    if (region >= n->nshm) {
        if (!extend) {
            return SQLITE_OK;
        }
        void **regions = realloc(n->shm, (size_t)(region + 1) * sizeof *regions);
        if (regions == NULL) {
            return SQLITE_IOERR_NOMEM;
        }
        n->shm = regions;
        n->shm_region_size = region_size;
        while (n->nshm <= region) {
            void *mem = calloc(1, (size_t)region_size);
            if (mem == NULL) {
                return SQLITE_IOERR_NOMEM;
            }
            n->shm[n->nshm++] = mem;
        }
    }
    *out = n->shm[region];
    return SQLITE_OK;
}

static int bio_shm_lock(sqlite3_file *f, int offset, int count, int flags) {
    bfile *h = (bfile *)f;
    bnode *n = bfile_live(h);
    if (n == NULL) {
        return SQLITE_IOERR;
    }
    if (offset < 0 || count < 1 || offset + count > SQLITE_SHM_NLOCK) {
        return SQLITE_IOERR_SHMLOCK;
    }
    if (flags & SQLITE_SHM_UNLOCK) {
        for (int i = offset; i < offset + count; i++) {
            unsigned bit = 1u << i;
            if (h->shm_excl_mask & bit) {
                n->shm_excl[i] = 0;
            }
            if (h->shm_shared_mask & bit) {
                n->shm_shared[i]--;
            }
            h->shm_excl_mask &= ~bit;
            h->shm_shared_mask &= ~bit;
        }
        return SQLITE_OK;
    }
    if (flags & SQLITE_SHM_SHARED) {
        for (int i = offset; i < offset + count; i++) {
            unsigned bit = 1u << i;
            int held = ((h->shm_shared_mask | h->shm_excl_mask) & bit) != 0;
            if (!held && n->shm_excl[i] != 0) {
                return SQLITE_BUSY;
            }
        }
        for (int i = offset; i < offset + count; i++) {
            unsigned bit = 1u << i;
            if (!((h->shm_shared_mask | h->shm_excl_mask) & bit)) {
                n->shm_shared[i]++;
                h->shm_shared_mask |= bit;
            }
        }
        return SQLITE_OK;
    }
    for (int i = offset; i < offset + count; i++) {
        unsigned bit = 1u << i;
        if (h->shm_excl_mask & bit) {
            continue;
        }
        int64_t others = n->shm_shared[i] - ((h->shm_shared_mask & bit) ? 1 : 0);
        if (n->shm_excl[i] != 0 || others > 0) {
            return SQLITE_BUSY;
        }
    }
    for (int i = offset; i < offset + count; i++) {
        unsigned bit = 1u << i;
        if (h->shm_excl_mask & bit) {
            continue;
        }
        if (h->shm_shared_mask & bit) {
            n->shm_shared[i]--;
            h->shm_shared_mask &= ~bit;
        }
        n->shm_excl[i] = h->id;
        h->shm_excl_mask |= bit;
    }
    return SQLITE_OK;
}

static void bio_shm_barrier(sqlite3_file *f) {
    (void)f;
    atomic_thread_fence(memory_order_seq_cst);
}

static int bio_shm_unmap(sqlite3_file *f, int delete_flag) {
    (void)delete_flag; /* the last user always drops the memory */
    bfile *h = (bfile *)f;
    bnode *n = bfile_live(h);
    if (n != NULL) {
        bfile_shm_detach(h, n);
    }
    return SQLITE_OK;
}

static const sqlite3_io_methods bdisk_io_methods = {
    2,
    bio_close,
    bio_read,
    bio_write,
    bio_truncate,
    bio_sync,
    bio_file_size,
    bio_lock,
    bio_unlock,
    bio_check_reserved,
    bio_file_control,
    bio_sector_size,
    bio_device_characteristics,
    bio_shm_map,
    bio_shm_lock,
    bio_shm_barrier,
    bio_shm_unmap,
    NULL,
    NULL,
};

/* ------------------------------------------------------------------------ */
/* sqlite3_vfs                                                               */

static baton_disk *bvfs_disk(sqlite3_vfs *vfs) {
    return (baton_disk *)vfs->pAppData;
}

static int bvfs_open(sqlite3_vfs *vfs, sqlite3_filename name, sqlite3_file *f,
                     int flags, int *out_flags) {
    baton_disk *d = bvfs_disk(vfs);
    bfile *h = (bfile *)f;
    memset(h, 0, sizeof *h);
    if (d->frozen) {
        return SQLITE_CANTOPEN;
    }
    /* An armed open fault: the file cannot be opened now, whether it exists
     * or not (no descriptor left, a locked device's data protection). */
    int fault = bdisk_take_fault(d, BATON_DISK_FAULT_OPEN);
    if (fault != SQLITE_OK) {
        return fault;
    }
    const int memory_only = SQLITE_OPEN_DELETEONCLOSE | SQLITE_OPEN_TEMP_DB |
                            SQLITE_OPEN_TEMP_JOURNAL | SQLITE_OPEN_SUBJOURNAL |
                            SQLITE_OPEN_TRANSIENT_DB;
    bnode *n = NULL;
    if (name == NULL || (flags & memory_only) != 0) {
        n = bnode_new(NULL);
        if (n == NULL) {
            return SQLITE_NOMEM;
        }
        bdisk_unlinked_push(d, n);
    } else {
        char path[BDISK_MAX_PATH + 1];
        if (bdisk_full_path(name, path, sizeof path) != 0) {
            return SQLITE_CANTOPEN;
        }
        n = bdir_find(d, path);
        if (n != NULL) {
            if ((flags & SQLITE_OPEN_EXCLUSIVE) && (flags & SQLITE_OPEN_CREATE)) {
                return SQLITE_CANTOPEN;
            }
        } else {
            if (!(flags & SQLITE_OPEN_CREATE)) {
                return SQLITE_CANTOPEN;
            }
            if (bdisk_crash_point(d)) {
                return SQLITE_CANTOPEN;
            }
            n = bdir_create(d, path);
            if (n == NULL) {
                return SQLITE_NOMEM;
            }
            bdisk_dirop_push(d, BDIR_CREATE, n);
        }
    }
    h->epoch = d->epoch;
    h->epoch->refs++;
    h->node = n;
    h->id = ++d->next_handle_id;
    h->readonly = (flags & SQLITE_OPEN_READONLY) != 0;
    h->lock_level = SQLITE_LOCK_NONE;
    /* os_unix.c: a WAL or journal opened with SQLITE_OPEN_CREATE syncs its
     * directory at its first successful sync, whether or not the open
     * created the file. The main database file never does. */
    const int dirsync_types = SQLITE_OPEN_WAL | SQLITE_OPEN_MAIN_JOURNAL | SQLITE_OPEN_SUPER_JOURNAL;
    h->dirsync = n->name != NULL && (flags & SQLITE_OPEN_CREATE) && (flags & dirsync_types);
    n->open_handles++;
    h->base.pMethods = &bdisk_io_methods;
    if (out_flags != NULL) {
        *out_flags = flags;
    }
    d->counters.opens++;
    return SQLITE_OK;
}

static int bvfs_delete(sqlite3_vfs *vfs, const char *name, int sync_dir) {
    baton_disk *d = bvfs_disk(vfs);
    if (bdisk_crash_point(d)) {
        return SQLITE_IOERR_DELETE;
    }
    char path[BDISK_MAX_PATH + 1];
    if (bdisk_full_path(name, path, sizeof path) != 0) {
        return SQLITE_IOERR_DELETE;
    }
    /* An armed delete fault: the file stays (an I/O error, a busy or
     * protected file). */
    int fault = bdisk_take_fault(d, BATON_DISK_FAULT_DELETE);
    if (fault != SQLITE_OK) {
        return fault;
    }
    if (bdir_remove(d, path) != 0) {
        return SQLITE_IOERR_DELETE_NOENT;
    }
    if (sync_dir & 1) {
        /* unixDelete: fsync the directory after the unlink. */
        bdisk_sync_directory(d, path);
    }
    return SQLITE_OK;
}

static int bvfs_access(sqlite3_vfs *vfs, const char *name, int flags, int *out) {
    if (bvfs_disk(vfs)->frozen) {
        *out = 0;
        return SQLITE_IOERR_ACCESS;
    }
    bnode *n = bdir_find_name(bvfs_disk(vfs), name);
    if (flags == SQLITE_ACCESS_EXISTS) {
        /* Like the unix VFS: an empty file does not count as existing. */
        *out = (n != NULL && n->current.size > 0) ? 1 : 0;
    } else {
        *out = (n != NULL) ? 1 : 0;
    }
    return SQLITE_OK;
}

static int bvfs_full_pathname(sqlite3_vfs *vfs, const char *name, int n_out, char *out) {
    (void)vfs;
    if (n_out <= 0 || bdisk_full_path(name, out, (size_t)n_out) != 0) {
        return SQLITE_CANTOPEN;
    }
    return SQLITE_OK;
}

static void *bvfs_dl_open(sqlite3_vfs *vfs, const char *path) {
    (void)vfs;
    (void)path;
    return NULL;
}

static void bvfs_dl_error(sqlite3_vfs *vfs, int n, char *msg) {
    (void)vfs;
    if (n > 0) {
        snprintf(msg, (size_t)n, "%s", "the simulated disk cannot load extensions");
    }
}

static void (*bvfs_dl_sym(sqlite3_vfs *vfs, void *lib, const char *sym))(void) {
    (void)vfs;
    (void)lib;
    (void)sym;
    return NULL;
}

static void bvfs_dl_close(sqlite3_vfs *vfs, void *lib) {
    (void)vfs;
    (void)lib;
}

static int bvfs_randomness(sqlite3_vfs *vfs, int n, char *out) {
    if (n <= 0) {
        return 0;
    }
    bdisk_fill_random(&bvfs_disk(vfs)->random_state, (unsigned char *)out, (size_t)n);
    return n;
}

static int bvfs_sleep(sqlite3_vfs *vfs, int microseconds) {
    if (microseconds > 0) {
        bvfs_disk(vfs)->time_us += microseconds;
    }
    return microseconds;
}

static int bvfs_current_time_int64(sqlite3_vfs *vfs, sqlite3_int64 *out) {
    *out = BDISK_UNIX_EPOCH_JD_MS + bvfs_disk(vfs)->time_us / 1000;
    return SQLITE_OK;
}

static int bvfs_current_time(sqlite3_vfs *vfs, double *out) {
    sqlite3_int64 ms = 0;
    bvfs_current_time_int64(vfs, &ms);
    *out = (double)ms / 86400000.0;
    return SQLITE_OK;
}

static int bvfs_get_last_error(sqlite3_vfs *vfs, int n, char *out) {
    (void)vfs;
    if (n > 0 && out != NULL) {
        out[0] = '\0';
    }
    return 0;
}

/* ------------------------------------------------------------------------ */
/* Registration                                                              */

/* sqlite3_vfs_register edits a process-wide list, and the name counter is
 * process-wide too: both under this mutex. */
static pthread_mutex_t bdisk_registry_lock = PTHREAD_MUTEX_INITIALIZER;
static uint64_t bdisk_registry_next = 0;

baton_disk *baton_disk_create(uint64_t seed) {
    baton_disk *d = calloc(1, sizeof *d);
    if (d == NULL) {
        return NULL;
    }
    d->epoch = bepoch_new(d);
    d->crash_left = -1;
    if (d->epoch == NULL) {
        free(d);
        return NULL;
    }
    d->random_state = seed;
    d->sector = BDISK_DEFAULT_SECTOR;
    d->vfs.iVersion = 2;
    d->vfs.szOsFile = (int)sizeof(bfile);
    d->vfs.mxPathname = BDISK_MAX_PATH;
    d->vfs.zName = d->vfs_name;
    d->vfs.pAppData = d;
    d->vfs.xOpen = bvfs_open;
    d->vfs.xDelete = bvfs_delete;
    d->vfs.xAccess = bvfs_access;
    d->vfs.xFullPathname = bvfs_full_pathname;
    d->vfs.xDlOpen = bvfs_dl_open;
    d->vfs.xDlError = bvfs_dl_error;
    d->vfs.xDlSym = bvfs_dl_sym;
    d->vfs.xDlClose = bvfs_dl_close;
    d->vfs.xRandomness = bvfs_randomness;
    d->vfs.xSleep = bvfs_sleep;
    d->vfs.xCurrentTime = bvfs_current_time;
    d->vfs.xGetLastError = bvfs_get_last_error;
    d->vfs.xCurrentTimeInt64 = bvfs_current_time_int64;

    pthread_mutex_lock(&bdisk_registry_lock);
    bdisk_registry_next++;
    snprintf(d->vfs_name, sizeof d->vfs_name, "batonsim-%llu",
             (unsigned long long)bdisk_registry_next);
    int rc = sqlite3_vfs_register(&d->vfs, 0);
    pthread_mutex_unlock(&bdisk_registry_lock);
    if (rc != SQLITE_OK) {
        bepoch_release(d->epoch);
        free(d);
        return NULL;
    }
    d->registered = 1;
    return d;
}

void baton_disk_destroy(baton_disk *d) {
    if (d == NULL) {
        return;
    }
    if (d->registered) {
        pthread_mutex_lock(&bdisk_registry_lock);
        sqlite3_vfs_unregister(&d->vfs);
        pthread_mutex_unlock(&bdisk_registry_lock);
        d->registered = 0;
    }
    bdisk_end_epoch(d, 0);
    for (size_t i = 0; i < d->nfiles; i++) {
        bnode_free(d->files[i]);
    }
    while (d->unlinked != NULL) {
        bnode *n = d->unlinked;
        d->unlinked = n->next_unlinked;
        bnode_free(n);
    }
    free(d->dirops);
    free(d->files);
    free(d);
}

/* ------------------------------------------------------------------------ */
/* Crashes                                                                   */

const char *baton_disk_vfs_name(const baton_disk *d) {
    return d->vfs_name;
}

void baton_disk_set_time_ms(baton_disk *d, int64_t unix_ms) {
    d->time_us = unix_ms * 1000;
}

int64_t baton_disk_time_ms(const baton_disk *d) {
    return d->time_us / 1000;
}

void baton_disk_kill(baton_disk *d) {
    d->counters.kills++;
    bdisk_end_epoch(d, 1);
}

/* How a power loss treats pending writes, drawn once per power loss so
 * that some lose almost nothing and others almost everything.
 *   in order:    the OS wrote each file's pending operations back in order
 *                and stopped at a point chosen per file: everything before
 *                it is kept, the write at it may be torn, the rest is lost;
 *   independent: every operation is kept, lost or torn on its own, so a
 *                later write may survive an earlier one. */
typedef struct bpower_style {
    int in_order;
    uint64_t tear_percent; /* chance a write is torn                   */
    uint64_t keep_percent; /* independent: chance an untorn one stays  */
} bpower_style;

/* Applies one torn write to the durable bytes, a sector piece at a time:
 * each piece is written, left as it was, or filled with garbage. */
static void bdisk_tear_write(bbuf *durable, const bop *op, size_t sector, uint64_t *rng) {
    size_t end = op->off + op->len;
    size_t at = op->off;
    while (at < end) {
        size_t piece_end = (at / sector + 1) * sector;
        if (piece_end > end) {
            piece_end = end;
        }
        size_t len = piece_end - at;
        uint64_t fate = bdisk_below(rng, 100);
        if (fate < 45) {
            if (bbuf_put(durable, at, op->data + (at - op->off), len) != 0) {
                bdisk_out_of_memory();
            }
        } else if (fate >= 80) {
            if (piece_end > durable->size && bbuf_resize(durable, piece_end) != 0) {
                bdisk_out_of_memory();
            }
            bdisk_fill_random(rng, durable->data + at, len);
        }
        at = piece_end;
    }
}

enum { BFATE_KEEP, BFATE_DROP, BFATE_TEAR };

static void bdisk_apply_fate(baton_disk *d, bnode *n, const bop *op, int fate, uint64_t *rng) {
    if (op->kind == BOP_TRUNCATE) {
        /* Truncations are kept or lost whole. */
        if (fate != BFATE_DROP && bbuf_resize(&n->durable, op->off) != 0) {
            bdisk_out_of_memory();
        }
        return;
    }
    switch (fate) {
    case BFATE_KEEP:
        if (bbuf_put(&n->durable, op->off, op->data, op->len) != 0) {
            bdisk_out_of_memory();
        }
        d->counters.writes_kept++;
        break;
    case BFATE_TEAR:
        bdisk_tear_write(&n->durable, op, d->sector, rng);
        d->counters.writes_torn++;
        break;
    default:
        d->counters.writes_dropped++;
        break;
    }
}

static void bdisk_power_loss_file(baton_disk *d, bnode *n, bpower_style style, uint64_t *rng) {
    size_t cut = 0;
    if (style.in_order) {
        cut = (size_t)bdisk_below(rng, (uint64_t)n->nops + 1);
    }
    for (size_t i = 0; i < n->nops; i++) {
        int fate;
        if (style.in_order) {
            if (i < cut) {
                fate = BFATE_KEEP;
            } else if (i == cut && bdisk_below(rng, 100) < style.tear_percent) {
                fate = BFATE_TEAR;
            } else {
                fate = BFATE_DROP;
            }
        } else if (bdisk_below(rng, 100) < style.tear_percent) {
            fate = BFATE_TEAR;
        } else if (bdisk_below(rng, 100) < style.keep_percent) {
            fate = BFATE_KEEP;
        } else {
            fate = BFATE_DROP;
        }
        bdisk_apply_fate(d, n, &n->ops[i], fate, rng);
    }
    bop_clear_all(n);
    if (bbuf_assign(&n->current, n->durable.data, n->durable.size) != 0) {
        bdisk_out_of_memory();
    }
    n->diverged = 0;
}

/* Decides every pending directory change (in order: a cut point, as a
 * journaling file system commits metadata in order; independent: each on
 * its own), then makes the directory what the platter says: files whose
 * entry was never durable vanish, files whose removal was lost come back
 * with what their own pending writes left. Draws from `rng`, a stream of
 * its own, so a power loss without directory changes pending decides the
 * files' writes exactly as before directories were modelled. */
static void bdisk_power_loss_directory(baton_disk *d, bpower_style style, uint64_t *rng) {
    size_t cut = style.in_order ? (size_t)bdisk_below(rng, (uint64_t)d->ndirops + 1) : 0;
    for (size_t i = 0; i < d->ndirops; i++) {
        int keep = style.in_order ? i < cut : bdisk_below(rng, 100) < style.keep_percent;
        if (keep) {
            bdirop_apply(d, &d->dirops[i]);
            d->counters.entries_kept++;
        } else {
            d->counters.entries_lost++;
        }
        d->dirops[i].node->dir_refs--;
    }
    d->ndirops = 0;
    /* Linked files the platter does not name vanish. */
    size_t kept = 0;
    for (size_t i = 0; i < d->nfiles; i++) {
        bnode *n = d->files[i];
        if (n->durable_linked) {
            d->files[kept++] = n;
        } else {
            bdisk_unlinked_push(d, n);
        }
    }
    d->nfiles = kept;
    /* Unlinked files the platter still names come back. */
    bnode **link = &d->unlinked;
    while (*link != NULL) {
        bnode *n = *link;
        int found = 0;
        if (!n->durable_linked || n->name == NULL) {
            link = &n->next_unlinked;
            continue;
        }
        size_t at = bdir_search(d, n->name, &found);
        if (found) {
            /* Cannot happen: a name has one durable entry. */
            n->durable_linked = 0;
            link = &n->next_unlinked;
            continue;
        }
        *link = n->next_unlinked;
        n->next_unlinked = NULL;
        bdisk_power_loss_file(d, n, style, rng);
        if (d->nfiles == d->capfiles) {
            size_t cap = d->capfiles ? d->capfiles * 2 : 8;
            bnode **files = realloc(d->files, cap * sizeof *files);
            if (files == NULL) {
                bdisk_out_of_memory();
            }
            d->files = files;
            d->capfiles = cap;
        }
        memmove(d->files + at + 1, d->files + at, (d->nfiles - at) * sizeof *d->files);
        d->files[at] = n;
        d->nfiles++;
        n->linked = 1;
    }
}

void baton_disk_power_loss(baton_disk *d, uint64_t seed) {
    uint64_t rng = seed ^ UINT64_C(0x5DEECE66D2545F49);
    uint64_t directory_rng = seed ^ UINT64_C(0xD1B54A32D192ED03);
    bpower_style style;
    style.in_order = bdisk_below(&rng, 2) == 0;
    style.tear_percent = bdisk_below(&rng, 41);
    style.keep_percent = bdisk_below(&rng, 101);
    for (size_t i = 0; i < d->nfiles; i++) {
        bdisk_power_loss_file(d, d->files[i], style, &rng);
    }
    bdisk_power_loss_directory(d, style, &directory_rng);
    d->counters.power_losses++;
    bdisk_end_epoch(d, 1);
}

void baton_disk_arm_crash(baton_disk *d, uint32_t operations, int power_loss, uint64_t seed) {
    d->crash_left = (int64_t)operations;
    d->crash_power_loss = power_loss;
    d->crash_seed = seed;
    d->frozen = 0;
}

int baton_disk_thaw(baton_disk *d) {
    int struck = d->frozen;
    d->crash_left = -1;
    d->frozen = 0;
    return struck;
}

void baton_disk_flush_all(baton_disk *d) {
    for (size_t i = 0; i < d->nfiles; i++) {
        if (bnode_sync(d->files[i]) != 0) {
            bdisk_out_of_memory();
        }
    }
    for (bnode *n = d->unlinked; n != NULL; n = n->next_unlinked) {
        if (n->name != NULL && bnode_sync(n) != 0) {
            bdisk_out_of_memory();
        }
    }
    for (size_t i = 0; i < d->ndirops; i++) {
        bdirop_apply(d, &d->dirops[i]);
        d->dirops[i].node->dir_refs--;
    }
    d->ndirops = 0;
    bdisk_sweep_unlinked(d);
}

void baton_disk_set_sync_failure(baton_disk *d, int mode) {
    d->sync_failure = mode;
}

void baton_disk_set_device(baton_disk *d, uint32_t sector_size, int characteristics) {
    d->sector = (sector_size >= 512) ? sector_size : BDISK_DEFAULT_SECTOR;
    d->device = characteristics;
}

/* ------------------------------------------------------------------------ */
/* Faults                                                                    */

void baton_disk_fail_range(baton_disk *d, int kind, uint32_t skip, uint32_t count, int code) {
    if (kind < 0 || kind >= BDISK_FAULT_KINDS) {
        return;
    }
    d->faults[kind].skip = skip;
    d->faults[kind].count = count;
    d->faults[kind].code = (code != 0) ? code : bdisk_default_fault_code(kind);
}

void baton_disk_fail_next(baton_disk *d, int kind, int code) {
    baton_disk_fail_range(d, kind, 0, 1, code);
}

void baton_disk_fail_nth(baton_disk *d, int kind, uint32_t n, int code) {
    if (n == 0) {
        n = 1;
    }
    baton_disk_fail_range(d, kind, n - 1, 1, code);
}

void baton_disk_clear_faults(baton_disk *d) {
    memset(d->faults, 0, sizeof d->faults);
}

uint32_t baton_disk_faults_armed(const baton_disk *d, int kind) {
    if (kind < 0 || kind >= BDISK_FAULT_KINDS) {
        return 0;
    }
    return d->faults[kind].count;
}

/* ------------------------------------------------------------------------ */
/* Inspection                                                                */

void baton_disk_get_counters(const baton_disk *d, baton_disk_counters *out) {
    *out = d->counters;
}

size_t baton_disk_file_count(const baton_disk *d) {
    return d->nfiles;
}

const char *baton_disk_file_name(const baton_disk *d, size_t index) {
    return (index < d->nfiles) ? d->files[index]->name : NULL;
}

int64_t baton_disk_file_size(const baton_disk *d, const char *name) {
    const bnode *n = bdir_find_name(d, name);
    return (n != NULL) ? (int64_t)n->current.size : -1;
}

int64_t baton_disk_durable_size(const baton_disk *d, const char *name) {
    const bnode *n = bdir_find_name(d, name);
    return (n != NULL) ? (int64_t)n->durable.size : -1;
}

static int64_t bdisk_copy_out(const bbuf *b, void *dst, size_t cap) {
    size_t n = (b->size < cap) ? b->size : cap;
    if (n > 0) {
        memcpy(dst, b->data, n);
    }
    return (int64_t)b->size;
}

int64_t baton_disk_copy_file(const baton_disk *d, const char *name, void *dst, size_t cap) {
    const bnode *n = bdir_find_name(d, name);
    return (n != NULL) ? bdisk_copy_out(&n->current, dst, cap) : -1;
}

int64_t baton_disk_copy_durable(const baton_disk *d, const char *name, void *dst, size_t cap) {
    const bnode *n = bdir_find_name(d, name);
    return (n != NULL) ? bdisk_copy_out(&n->durable, dst, cap) : -1;
}

int64_t baton_disk_pending_count(const baton_disk *d, const char *name) {
    const bnode *n = bdir_find_name(d, name);
    return (n != NULL) ? (int64_t)n->nops : -1;
}

int baton_disk_has_pending(const baton_disk *d) {
    if (d->ndirops > 0) {
        return 1;
    }
    for (size_t i = 0; i < d->nfiles; i++) {
        if (d->files[i]->nops > 0 || d->files[i]->diverged) {
            return 1;
        }
    }
    return 0;
}

int64_t baton_disk_pending_entries(const baton_disk *d) {
    return (int64_t)d->ndirops;
}

int baton_disk_entry_durable(const baton_disk *d, const char *name) {
    const bnode *n = bdir_find_name(d, name);
    return (n != NULL) ? n->durable_linked : -1;
}

int baton_disk_file_diverged(const baton_disk *d, const char *name) {
    const bnode *n = bdir_find_name(d, name);
    return (n != NULL) ? n->diverged : -1;
}

int64_t baton_disk_live_handles(const baton_disk *d) {
    return d->epoch->refs - 1;
}

int baton_disk_overwrite(baton_disk *d, const char *name, const void *bytes, size_t len) {
    char path[BDISK_MAX_PATH + 1];
    if (name == NULL || bdisk_full_path(name, path, sizeof path) != 0) {
        return -1;
    }
    bnode *n = bdir_create(d, path);
    if (n == NULL) {
        return -1;
    }
    if (bbuf_reserve(&n->durable, len) != 0 || bbuf_reserve(&n->current, len) != 0) {
        return -1;
    }
    bop_clear_all(n);
    bbuf_assign(&n->durable, bytes, len);
    bbuf_assign(&n->current, bytes, len);
    n->diverged = 0;
    bdisk_durable_link(d, n);
    bdisk_sweep_unlinked(d);
    return 0;
}

int baton_disk_delete_file(baton_disk *d, const char *name) {
    char path[BDISK_MAX_PATH + 1];
    if (name == NULL || bdisk_full_path(name, path, sizeof path) != 0) {
        return -1;
    }
    return bdir_remove(d, path);
}

static uint64_t bdisk_hash(const baton_disk *d, int durable) {
    uint64_t h = BDISK_FNV_OFFSET;
    for (size_t i = 0; i < d->nfiles; i++) {
        const bnode *n = d->files[i];
        const bbuf *b = durable ? &n->durable : &n->current;
        h = bdisk_fnv(h, (const unsigned char *)n->name, strlen(n->name) + 1);
        h = bdisk_fnv_u64(h, (uint64_t)b->size);
        if (b->size > 0) {
            h = bdisk_fnv(h, b->data, b->size);
        }
    }
    return h;
}

/* ------------------------------------------------------------------------ */
/* Content hash: WAL files by meaning rather than by their random salts      */

static uint32_t bdisk_be32(const unsigned char *p) {
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | (uint32_t)p[3];
}

static uint32_t bdisk_le32(const unsigned char *p) {
    return ((uint32_t)p[3] << 24) | ((uint32_t)p[2] << 16) | ((uint32_t)p[1] << 8) | (uint32_t)p[0];
}

/* SQLite's WAL checksum over n bytes (a multiple of 8), continuing from
 * sum[0], sum[1]. The magic number says in which byte order words are
 * read. */
static void bdisk_wal_checksum(int big_endian, const unsigned char *p, size_t n, uint32_t sum[2]) {
    uint32_t s1 = sum[0];
    uint32_t s2 = sum[1];
    for (size_t i = 0; i + 8 <= n; i += 8) {
        uint32_t x0 = big_endian ? bdisk_be32(p + i) : bdisk_le32(p + i);
        uint32_t x1 = big_endian ? bdisk_be32(p + i + 4) : bdisk_le32(p + i + 4);
        s1 += x0 + s2;
        s2 += x1 + s1;
    }
    sum[0] = s1;
    sum[1] = s2;
}

static int bdisk_ends_with(const char *s, const char *suffix) {
    size_t n = strlen(s);
    size_t k = strlen(suffix);
    return n >= k && memcmp(s + n - k, suffix, k) == 0;
}

#define BDISK_WAL_HEADER 32
#define BDISK_WAL_FRAME_HEADER 24

/* Hashes a WAL file without its salts and checksums, which come from
 * SQLite's process-wide random generator: instead, every frame contributes
 * whether it belongs to the valid chain that recovery would read. Returns
 * 0 when the bytes are not a WAL (the caller then hashes them raw). */
static int bdisk_hash_wal(const bbuf *b, uint64_t *h) {
    if (b->size < BDISK_WAL_HEADER) {
        return 0;
    }
    const unsigned char *p = b->data;
    uint32_t magic = bdisk_be32(p);
    if ((magic & 0xFFFFFFFEu) != 0x377f0682u) {
        return 0;
    }
    size_t page = bdisk_be32(p + 8);
    if (page == 1) {
        page = 65536;
    }
    if (page < 512 || page > 65536 || (page & (page - 1)) != 0) {
        return 0;
    }
    int big = (int)(magic & 1u);
    uint32_t sum[2] = {0, 0};
    bdisk_wal_checksum(big, p, 24, sum);
    int valid = sum[0] == bdisk_be32(p + 24) && sum[1] == bdisk_be32(p + 28);
    *h = bdisk_fnv(*h, p, 16);
    *h = bdisk_fnv_u64(*h, (uint64_t)valid);
    size_t frame = BDISK_WAL_FRAME_HEADER + page;
    size_t at = BDISK_WAL_HEADER;
    while (at + frame <= b->size) {
        const unsigned char *f = p + at;
        if (valid) {
            valid = memcmp(f + 8, p + 16, 8) == 0;
        }
        if (valid) {
            bdisk_wal_checksum(big, f, 8, sum);
            bdisk_wal_checksum(big, f + BDISK_WAL_FRAME_HEADER, page, sum);
            valid = sum[0] == bdisk_be32(f + 16) && sum[1] == bdisk_be32(f + 20);
        }
        *h = bdisk_fnv(*h, f, 8);
        *h = bdisk_fnv(*h, f + BDISK_WAL_FRAME_HEADER, page);
        *h = bdisk_fnv_u64(*h, (uint64_t)valid);
        at += frame;
    }
    /* A partial frame at the end: its salts and checksums are skipped too. */
    size_t rest = b->size - at;
    size_t head = rest < 8 ? rest : 8;
    *h = bdisk_fnv(*h, p + at, head);
    if (rest > BDISK_WAL_FRAME_HEADER) {
        *h = bdisk_fnv(*h, p + at + BDISK_WAL_FRAME_HEADER, rest - BDISK_WAL_FRAME_HEADER);
    }
    return 1;
}

uint64_t baton_disk_content_hash(const baton_disk *d) {
    uint64_t h = BDISK_FNV_OFFSET;
    for (size_t i = 0; i < d->nfiles; i++) {
        const bnode *n = d->files[i];
        const bbuf *b = &n->current;
        h = bdisk_fnv(h, (const unsigned char *)n->name, strlen(n->name) + 1);
        h = bdisk_fnv_u64(h, (uint64_t)b->size);
        if (bdisk_ends_with(n->name, "-wal") && bdisk_hash_wal(b, &h)) {
            continue;
        }
        if (b->size > 0) {
            h = bdisk_fnv(h, b->data, b->size);
        }
    }
    return h;
}

void baton_sqlite_seed_prng(uint32_t seed) {
    /* 0 would mean "draw from the default VFS again", which is real
     * randomness; keep it deterministic. */
    int value = (int)(seed & 0x7FFFFFFFu);
    if (value == 0) {
        value = 1;
    }
    sqlite3_test_control(SQLITE_TESTCTRL_PRNG_SEED, value, (sqlite3 *)NULL);
}

uint64_t baton_disk_state_hash(const baton_disk *d) {
    return bdisk_hash(d, 0);
}

uint64_t baton_disk_durable_hash(const baton_disk *d) {
    return bdisk_hash(d, 1);
}
