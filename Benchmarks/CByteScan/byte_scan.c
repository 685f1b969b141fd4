#include "byte_scan.h"

/* Aligned to 64 bytes so that its loops sit at the same offsets from a cache line in every build:
   placed wherever the linker put it, the same code ran 0.378 ms or 0.387 ms on the Rick and Morty
   page and 0.396 ms or 0.503 ms on the calendar page, by build. */
__attribute__((aligned(64)))
byte_scan_tally byte_scan(const uint8_t *bytes, size_t count) {
    byte_scan_tally tally = {0, 0, 0, 0};
    int64_t depth = 0;
    size_t index = 0;
    while (index < count) {
        uint8_t byte = bytes[index++];
        switch (byte) {
        case '"':
            tally.strings += 1;
            /* Inside a string: only a quote ends it, and a backslash takes the next byte. */
            while (index < count) {
                uint8_t inner = bytes[index++];
                if (inner == '"') break;
                if (inner == '\\') {
                    tally.escapes += 1;
                    index += 1;
                }
            }
            break;
        case '{':
        case '[':
            tally.containers += 1;
            depth += 1;
            if (depth > tally.deepest) tally.deepest = depth;
            break;
        case '}':
        case ']':
            depth -= 1;
            break;
        default:
            break;
        }
    }
    return tally;
}
