#ifndef BATON_CRC32C_H
#define BATON_CRC32C_H
/*
 * CRC-32C with the processor's own instruction (SSE 4.2's crc32 on x86-64,
 * the CRC extension's crc32c on ARMv8), for the image's row checksums.
 *
 * The state is the raw running value, as Baton's CRC32C.update keeps it: no
 * inversion before or after (the caller starts from 0xFFFFFFFF and inverts
 * at the end). Where the instruction is missing, baton_crc32c_available()
 * answers 0 and Swift's table-driven code runs instead.
 */
#include <stddef.h>
#include <stdint.h>

/* Nonzero when baton_crc32c_update may be called on this processor. */
int baton_crc32c_available(void);

/* Feeds count bytes at bytes into the running state crc. */
uint32_t baton_crc32c_update(uint32_t crc, const void *bytes, size_t count);

#endif
