#ifndef BATON_VFS_H
#define BATON_VFS_H
/*
 * The simulator's disk: an in-memory SQLite VFS that models durability.
 *
 * A baton_disk holds files by name. Each file has
 *   - durable bytes: what survives a power loss for sure;
 *   - an ordered list of pending operations (writes and truncations) that
 *     the OS has accepted but nobody has synced yet;
 *   - the current bytes: durable bytes with the pending operations applied
 *     in order, which is what reads see (the file as the OS shows it).
 * xSync on a file makes its pending operations durable, in order.
 *
 * Choices this model makes (read these before relying on it):
 *   - A write longer than 0x1ffff bytes writes only its length's low 17
 *     bits and fails with SQLITE_FULL, as os_unix.c's does (seekAndWrite
 *     masks the length; SQLite's own writes never come near it).
 *   - Truncation is a pending operation like a write: it changes the current
 *     bytes at once and becomes durable at the next sync of the file (the
 *     size is the inode's, which fdatasync writes when it changed); a power
 *     loss keeps or drops it as a whole (it is never torn).
 *   - Directory entries are pending until their directory is synced, as
 *     POSIX says and os_unix.c assumes. Creating a file (xOpen with
 *     SQLITE_OPEN_CREATE of a missing name) and removing one (xDelete, or
 *     baton_disk_delete_file) change the directory the OS shows at once;
 *     the platter's directory changes only when the directory is synced:
 *       - xDelete with bit 0 of syncDir set syncs it after the unlink;
 *       - a WAL, main journal or super-journal opened with
 *         SQLITE_OPEN_CREATE syncs it once, at its first xSync that
 *         succeeds (UNIXFILE_DIRSYNC), whether or not the open created it;
 *         the main database file never does;
 *       - baton_disk_flush_all writes everything back, directories too.
 *     A directory sync covers every pending change in that directory
 *     (the directory of a name is everything before its last '/').
 *     SQLITE_SYNC_DATAONLY makes no difference: the unix VFS syncs the
 *     directory after the file's fdatasync whatever the flags.
 *     A power loss decides each pending directory change (in order: a
 *     cut point, as a journaling file system commits metadata in order;
 *     independent: each on its own, with the write's keep chance): a file
 *     whose creation is lost vanishes whatever was synced into it; a file
 *     whose removal is lost comes back with its durable bytes and what
 *     the power loss leaves of its pending writes. The directory changes
 *     draw from a stream of their own, so a power loss with none pending
 *     decides the files' writes as it did before directories were
 *     modelled.
 *   - A failed xSync (an injected fault) has one of two behaviours, set
 *     per disk (baton_disk_set_sync_failure):
 *       keeps: nothing changes; the writes stay pending and a later sync
 *              persists them (what a careful OS or a retried fsync does);
 *       drops: what Linux may do after a writeback error: the dirty pages
 *              are marked clean, so the pending writes of that file stay
 *              visible to reads but never reach the platter (a power loss
 *              loses them; baton_disk_flush_all does not write them), and
 *              the next xSync succeeds having nothing to write. The file
 *              is "diverged" until its durable bytes hold what reads see
 *              again (later writes over the same bytes and a sync, or a
 *              truncation); it counts as pending meanwhile.
 *     Pages that a failed sync drops and the kernel then evicts (reads go
 *     back to the old bytes while the process runs) are not modelled: no
 *     program that trusts its reads survives that, SQLite included.
 *   - A power loss first draws a style from its seed, then decides each
 *     pending write of each file (files in name order, writes in order):
 *       in order:    per file, a cut point; writes before it are kept, the
 *                    one at it may be torn, the rest are lost (the OS wrote
 *                    back in order and stopped);
 *       independent: every write is kept, lost or torn on its own, so a
 *                    later write may survive an earlier one (the OS wrote
 *                    back in any order); the style also draws how likely
 *                    keeping and tearing are, so some power losses lose
 *                    almost nothing and others almost everything.
 *     A torn write is cut at sector boundaries (512 bytes unless
 *     baton_disk_set_device says otherwise); each piece is
 *     written, left as it was, or filled with garbage from the seed.
 *     Garbage stays inside the range the write covered: a write never
 *     damages bytes it did not cover (stricter than real hardware without
 *     power-safe overwrite, and it keeps "everything synced survives" an
 *     exact promise).
 *   - A kill (the process dies, the OS lives) keeps every pending operation
 *     pending: the OS still holds them in its cache, so a power loss after
 *     a kill can still lose them until something syncs the file.
 *     baton_disk_flush_all models the OS writing its cache back.
 *   - Shared memory (the WAL index) is volatile and per file: a kill or a
 *     power loss drops it. Temporary and delete-on-close files live only in
 *     memory and are dropped by a crash too.
 *   - Locks are tracked per file and per handle with the usual SQLite
 *     levels and shm lock slots; a conflict answers SQLITE_BUSY. The model
 *     targets one live connection per file, where nothing ever conflicts.
 *   - xDeviceCharacteristics is 0 and the sector size 512 by default:
 *     SQLite takes its most careful path (it pads WAL frames it syncs to
 *     the sector, for instance). baton_disk_set_device sets both; what the
 *     unix VFS of SQLite 3.40 answers on Linux is 4096 and
 *     SQLITE_IOCAP_POWERSAFE_OVERWRITE (nothing else on ext4 or f2fs
 *     without batch atomic writes). In both, garbage stays inside the range
 *     a torn write covered (see above), which is what power-safe overwrite
 *     promises; a real device without it may also damage the rest of the
 *     sector.
 *   - Every crash starts a new generation. A file handle opened before it is
 *     dead: every later call on it fails with SQLITE_IOERR (xClose and
 *     xShmUnmap succeed and do nothing) and never touches the disk. An
 *     abandoned connection may even be closed after its disk is destroyed.
 *     The shared memory a dead connection had mapped stays allocated until
 *     all of its handles are closed (SQLite reads it through raw pointers),
 *     so an abandoned connection that is never closed keeps it for good,
 *     as it keeps SQLite's own memory (its page cache). Closing a dead
 *     connection is safe, writes nothing and frees both: long simulations
 *     should close the old connection after each crash.
 *     Calls through the VFS object itself (xOpen, xDelete, ...) are only
 *     valid while the disk exists.
 *   - Everything is deterministic: randomness comes from the seed given at
 *     creation, time is set by the caller (xSleep advances it instead of
 *     sleeping), files are always visited in byte order of their names.
 *     One thing is outside the disk's reach: SQLite draws WAL salts from
 *     its process-wide generator, seeded from the default VFS. Compare
 *     disks with baton_disk_content_hash, which does not depend on them,
 *     or see baton_sqlite_seed_prng.
 *
 * Thread safety: a disk, its VFS and every connection opened on it must be
 * used by one thread at a time (handing a disk to another thread needs a
 * happens-before edge, as with any unsynchronized object). Different disks
 * may be used on different threads at once; the only shared state is the
 * VFS registration, which is guarded by a mutex.
 *
 * File names: the VFS turns a relative name into an absolute one by putting
 * "/" in front (xFullPathname). Every function below that takes a name does
 * the same, so "image.sqlite" and "/image.sqlite" name the same file.
 */

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct baton_disk baton_disk;

/* Counters since creation. Calls that failed by an injected fault are not
 * counted as writes/syncs/reads/truncates; they count in injected_faults. */
typedef struct baton_disk_counters {
    uint64_t writes;          /* successful xWrite calls, any file        */
    uint64_t bytes_written;   /* bytes those writes carried               */
    uint64_t reads;           /* xRead calls (short reads included)       */
    uint64_t syncs;           /* successful xSync calls                   */
    uint64_t truncates;       /* successful xTruncate calls               */
    uint64_t opens;           /* successful xOpen calls                   */
    uint64_t deletes;         /* files removed (xDelete or the API)       */
    uint64_t kills;           /* baton_disk_kill                          */
    uint64_t power_losses;    /* baton_disk_power_loss                    */
    uint64_t injected_faults; /* operations failed on purpose             */
    uint64_t writes_kept;     /* power loss: pending writes kept whole    */
    uint64_t writes_dropped;  /* power loss: pending writes lost whole    */
    uint64_t writes_torn;     /* power loss: pending writes torn          */
    uint64_t directory_syncs; /* directories synced (xDelete, DIRSYNC)    */
    uint64_t entries_kept;    /* power loss: pending entry changes kept   */
    uint64_t entries_lost;    /* power loss: pending entry changes lost   */
    uint64_t failed_syncs_dropping;      /* failed syncs that dropped writes */
    uint64_t writes_lost_to_failed_sync; /* the pending writes they dropped  */
} baton_disk_counters;

/* Operations a fault can be injected into. */
enum {
    BATON_DISK_FAULT_WRITE = 0,
    BATON_DISK_FAULT_SYNC = 1,
    BATON_DISK_FAULT_READ = 2,
    BATON_DISK_FAULT_TRUNCATE = 3,
    /* xOpen of any file: SQLITE_CANTOPEN by default, as when the process
     * has no descriptor left or the device's data protection keeps the
     * file locked. */
    BATON_DISK_FAULT_OPEN = 4,
    /* xDelete: SQLITE_IOERR_DELETE by default; the file stays. */
    BATON_DISK_FAULT_DELETE = 5
};

/* What a failed xSync does to the file's pending writes. */
enum {
    BATON_DISK_SYNC_FAILURE_KEEPS = 0, /* they stay pending (the default) */
    BATON_DISK_SYNC_FAILURE_DROPS = 1  /* Linux: lost, next sync succeeds */
};

/* A count for baton_disk_fail_range meaning "until cleared". */
#define BATON_DISK_FAULT_FOREVER UINT32_MAX

/* Creates a disk and registers its VFS (not as the default) under a name
 * unique in this process, "batonsim-<n>". The seed drives xRandomness.
 * Simulated time starts at 0 ms (1970-01-01). Returns NULL when out of
 * memory or when SQLite refuses the registration. */
baton_disk *baton_disk_create(uint64_t seed);

/* Unregisters the VFS and frees the disk and all its files. Every
 * connection opened on it must be closed or abandoned for good first
 * (closing an abandoned connection afterwards is still safe). NULL is a
 * no-op. */
void baton_disk_destroy(baton_disk *disk);

/* The name to pass to sqlite3_open_v2. Valid as long as the disk. */
const char *baton_disk_vfs_name(const baton_disk *disk);

/* Simulated wall-clock time in milliseconds since the Unix epoch, as
 * answered by xCurrentTime and xCurrentTimeInt64. */
void baton_disk_set_time_ms(baton_disk *disk, int64_t unix_ms);
int64_t baton_disk_time_ms(const baton_disk *disk);

/* A process kill: every handle open now becomes dead, shared memory and
 * temporary files are dropped, and the files keep their current bytes
 * (pending operations stay pending: the OS has them). */
void baton_disk_kill(baton_disk *disk);

/* A power loss: for every file (in name order), every pending write (in
 * order) is kept, dropped or torn as chosen by a generator seeded with
 * `seed`, every pending truncation kept or dropped; the result becomes the
 * durable and current bytes of the file and nothing is pending any more.
 * Then everything a kill does. The same disk state and the same seed give
 * the same result. */
void baton_disk_power_loss(baton_disk *disk, uint64_t seed);

/* A crash at a chosen point of what a process does: after `operations`
 * more operations that change the disk (writes, syncs, truncations, file
 * creations and deletions) succeed, the next one never happens: the
 * process dies there, by a kill or, with `power_loss`, a power loss drawn
 * from `seed`. From then on the dead process can do nothing: its handles
 * are dead, and opens, deletions and access checks fail, until
 * baton_disk_thaw. Arming again replaces an armed crash. */
void baton_disk_arm_crash(baton_disk *disk, uint32_t operations, int power_loss, uint64_t seed);

/* Ends an armed crash: returns 1 when it struck (and the disk accepts
 * operations again, from a new process), 0 when it was still waiting (it
 * is disarmed). */
int baton_disk_thaw(baton_disk *disk);

/* The OS writes back its cache: every pending operation of every file
 * becomes durable, as if each file had been synced, and every pending
 * directory change too. Writes a failed sync dropped stay lost. Handles
 * stay valid. */
void baton_disk_flush_all(baton_disk *disk);

/* What a failed xSync does from now on (BATON_DISK_SYNC_FAILURE_*). */
void baton_disk_set_sync_failure(baton_disk *disk, int mode);

/* The sector size (xSectorSize, and where a power loss cuts torn writes;
 * below 512 means 512) and what xDeviceCharacteristics answers
 * (SQLITE_IOCAP_* bits). Set before opening anything. */
void baton_disk_set_device(baton_disk *disk, uint32_t sector_size, int characteristics);

/* Fault injection, on any file (temporary files included). `kind` is one
 * of BATON_DISK_FAULT_*; `code` is the SQLite result code the operation
 * returns (0 picks SQLITE_IOERR_WRITE, _FSYNC, _READ, _TRUNCATE,
 * SQLITE_CANTOPEN or SQLITE_IOERR_DELETE). A failed operation changes nothing. One arming per
 * kind: arming again
 * replaces it.
 *   fail_next:  the next operation of that kind fails, once;
 *   fail_nth:   the n-th next one fails (n = 1 is the next one), once;
 *   fail_range: `skip` operations succeed, then `count` fail in a row
 *               (BATON_DISK_FAULT_FOREVER: all of them until cleared). */
void baton_disk_fail_next(baton_disk *disk, int kind, int code);
void baton_disk_fail_nth(baton_disk *disk, int kind, uint32_t n, int code);
void baton_disk_fail_range(baton_disk *disk, int kind, uint32_t skip,
                           uint32_t count, int code);
void baton_disk_clear_faults(baton_disk *disk);
/* Faults still armed for that kind (0: none; BATON_DISK_FAULT_FOREVER). */
uint32_t baton_disk_faults_armed(const baton_disk *disk, int kind);

void baton_disk_get_counters(const baton_disk *disk, baton_disk_counters *out);

/* Files in the directory (temporary files are not listed), sorted by the
 * bytes of their names. A name stays valid until the next call that
 * creates or deletes a file. Out of range gives NULL. */
size_t baton_disk_file_count(const baton_disk *disk);
const char *baton_disk_file_name(const baton_disk *disk, size_t index);

/* Size of the current (or durable) bytes; -1 when there is no such file. */
int64_t baton_disk_file_size(const baton_disk *disk, const char *name);
int64_t baton_disk_durable_size(const baton_disk *disk, const char *name);

/* Copies min(cap, size) bytes of the current (or durable) bytes into dst
 * and returns the full size; -1 when there is no such file. */
int64_t baton_disk_copy_file(const baton_disk *disk, const char *name,
                             void *dst, size_t cap);
int64_t baton_disk_copy_durable(const baton_disk *disk, const char *name,
                                void *dst, size_t cap);

/* Pending operations of one file; -1 when there is no such file. */
int64_t baton_disk_pending_count(const baton_disk *disk, const char *name);
/* 1 when anything is not durable yet: a file has a pending operation or
 * is diverged, or a directory change is pending; else 0. */
int baton_disk_has_pending(const baton_disk *disk);
/* Directory changes not yet synced. */
int64_t baton_disk_pending_entries(const baton_disk *disk);
/* 1 when the platter's directory names this file, 0 when its entry is
 * still pending; -1 when there is no such file. */
int baton_disk_entry_durable(const baton_disk *disk, const char *name);
/* 1 when a failed sync dropped writes reads still see; -1: no such file. */
int baton_disk_file_diverged(const baton_disk *disk, const char *name);
/* Handles open in the current generation (dead handles not counted). */
int64_t baton_disk_live_handles(const baton_disk *disk);

/* Replaces a file's bytes, durable at once (its directory entry too),
 * dropping its pending operations; creates the file when missing. For
 * tests that corrupt files. Returns 0, or -1 when out of memory or the
 * name is too long. */
int baton_disk_overwrite(baton_disk *disk, const char *name,
                         const void *bytes, size_t len);

/* Removes a file from the directory (open handles keep reading and writing
 * the unlinked file, as on POSIX). The removal is pending like xDelete's
 * without syncDir. Returns 0, or -1 when there is none. */
int baton_disk_delete_file(baton_disk *disk, const char *name);

/* FNV-1a 64 over every listed file in name order: its name, its size and
 * its current (or durable) bytes. */
uint64_t baton_disk_state_hash(const baton_disk *disk);
uint64_t baton_disk_durable_hash(const baton_disk *disk);

/* Like baton_disk_state_hash, but a file named "*-wal" that holds a WAL is
 * hashed without its salts and checksums: each frame adds its page number,
 * commit size, page bytes and whether it belongs to the valid chain
 * recovery would read. SQLite draws WAL salts from its process-wide
 * generator (seeded from the default VFS, not this one), so raw WAL bytes
 * are only reproducible when nothing else in the process uses SQLite; this
 * hash is reproducible whatever else runs. */
uint64_t baton_disk_content_hash(const baton_disk *disk);

/* SQLite's own random generator (WAL salts, random(), randomblob()) is
 * process-wide. This reseeds it deterministically (through
 * SQLITE_TESTCTRL_PRNG_SEED; it stays deterministic afterwards). Raw
 * state hashes then repeat when one simulation at a time runs in the
 * process and reseeds before each launch. Affects every connection in
 * the process. */
void baton_sqlite_seed_prng(uint32_t seed);

#ifdef __cplusplus
}
#endif

#endif
