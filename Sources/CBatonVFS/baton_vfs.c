#include "baton_vfs.h"
int baton_vfs_placeholder(void) { return 0; }
