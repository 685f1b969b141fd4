#ifndef BYTE_SCAN_H
#define BYTE_SCAN_H

#include <stddef.h>
#include <stdint.h>

/// What one scan found; the caller checks it, so the compiler cannot drop the scan.
typedef struct {
    int64_t strings;
    int64_t escapes;
    int64_t containers;
    int64_t deepest;
} byte_scan_tally;

/// The ingest benchmark's floor: one pass over JSON bytes that finds what any reader must (where
/// strings start and end, with their escapes, and the brackets' nesting), one byte at a time, and
/// builds nothing. In C so that its code does not move with the Swift code of the benchmark.
byte_scan_tally byte_scan(const uint8_t *bytes, size_t count);

#endif
