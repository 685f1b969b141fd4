#include <sqlite3.h>

/* sqlite3_db_config is variadic, which Swift cannot call: the one use Baton makes of it.
 * With `keep` nonzero this handle's close does not checkpoint the WAL (it stays for the next
 * open); with 0 it does again, SQLite's default. */
static inline int baton_sqlite_keep_wal_at_close(sqlite3 *db, int keep) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, keep, (int *)0);
}
