#include "baton_crc32c.h"

#include <string.h>

#if defined(__x86_64__)

int baton_crc32c_available(void) {
    return __builtin_cpu_supports("sse4.2");
}

__attribute__((target("sse4.2")))
uint32_t baton_crc32c_update(uint32_t crc, const void *bytes, size_t count) {
    const unsigned char *p = bytes;
    unsigned long long state = crc;
    while (count >= 8) {
        unsigned long long word;
        memcpy(&word, p, 8);
        state = __builtin_ia32_crc32di(state, word);
        p += 8;
        count -= 8;
    }
    uint32_t tail = (uint32_t)state;
    while (count > 0) {
        tail = __builtin_ia32_crc32qi(tail, *p);
        p += 1;
        count -= 1;
    }
    return tail;
}

#elif defined(__aarch64__) && defined(__ARM_FEATURE_CRC32)

#include <arm_acle.h>

int baton_crc32c_available(void) {
    return 1;
}

uint32_t baton_crc32c_update(uint32_t crc, const void *bytes, size_t count) {
    const unsigned char *p = bytes;
    while (count >= 8) {
        uint64_t word;
        memcpy(&word, p, 8);
        crc = __crc32cd(crc, word);
        p += 8;
        count -= 8;
    }
    while (count > 0) {
        crc = __crc32cb(crc, *p);
        p += 1;
        count -= 1;
    }
    return crc;
}

#else

int baton_crc32c_available(void) {
    return 0;
}

uint32_t baton_crc32c_update(uint32_t crc, const void *bytes, size_t count) {
    (void)bytes;
    (void)count;
    return crc;
}

#endif
