#ifndef BATON_VFS_H
#define BATON_VFS_H
/* The simulator's in-memory SQLite VFS (work in progress). */
int baton_vfs_placeholder(void);
#endif
