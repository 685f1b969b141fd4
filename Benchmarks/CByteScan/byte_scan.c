#include "byte_scan.h"

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
