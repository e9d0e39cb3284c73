#include "util/hash.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <threads.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#define ROTL(x, b) (((x) << (b)) | ((x) >> (64 - (b))))

#define SIPROUND                                                                  \
    do {                                                                          \
        v0 += v1; v1 = ROTL(v1, 13); v1 ^= v0; v0 = ROTL(v0, 32);                 \
        v2 += v3; v3 = ROTL(v3, 16); v3 ^= v2;                                    \
        v0 += v3; v3 = ROTL(v3, 21); v3 ^= v0;                                    \
        v2 += v1; v1 = ROTL(v1, 17); v1 ^= v2; v2 = ROTL(v2, 32);                 \
    } while (0)

static uint64_t load_le64(const unsigned char *p)
{
    uint64_t x = 0;
    for (int i = 7; i >= 0; i--)
        x = x << 8 | p[i];
    return x;
}

uint64_t ry_siphash(const uint64_t k[2], const void *data, size_t n)
{
    const unsigned char *p = data;
    uint64_t v0 = 0x736f6d6570736575ULL ^ k[0], v1 = 0x646f72616e646f6dULL ^ k[1];
    uint64_t v2 = 0x6c7967656e657261ULL ^ k[0], v3 = 0x7465646279746573ULL ^ k[1];
    size_t whole = n - n % 8;
    for (size_t i = 0; i < whole; i += 8) {
        uint64_t m = load_le64(p + i);
        v3 ^= m;
        SIPROUND;
        SIPROUND;
        v0 ^= m;
    }
    uint64_t b = (uint64_t)n << 56;
    for (size_t i = 0; i < n % 8; i++)
        b |= (uint64_t)p[whole + i] << (8 * i);
    v3 ^= b;
    SIPROUND;
    SIPROUND;
    v0 ^= b;
    v2 ^= 0xff;
    SIPROUND;
    SIPROUND;
    SIPROUND;
    SIPROUND;
    return v0 ^ v1 ^ v2 ^ v3;
}

static uint64_t key[2];
static once_flag key_once = ONCE_FLAG_INIT;

/* The process's key: from getrandom, else /dev/urandom, else the clock and
 * the process id (still unknown to whoever wrote the input file). */
static void make_key(void)
{
    size_t got = 0;
    while (got < sizeof key) {
        ssize_t r = getrandom((char *)key + got, sizeof key - got, 0);
        if (r < 0 && errno == EINTR)
            continue;
        if (r <= 0)
            break;
        got += (size_t)r;
    }
    if (got < sizeof key) {
        int fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC);
        if (fd >= 0) {
            got = read(fd, key, sizeof key) == (ssize_t)sizeof key ? sizeof key : 0;
            close(fd);
        }
    }
    if (got < sizeof key) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        key[0] = (uint64_t)ts.tv_nsec * 0x9e3779b97f4a7c15ULL ^ (uint64_t)getpid();
        key[1] = (uint64_t)ts.tv_sec ^ (uint64_t)(uintptr_t)&got;
    }
}

static const uint64_t *process_key(void)
{
    call_once(&key_once, make_key);
    return key;
}

uint64_t ry_hash_bytes(const void *data, size_t n)
{
    return ry_siphash(process_key(), data, n);
}

uint64_t ry_hash_str(const char *s)
{
    return ry_hash_bytes(s, strlen(s));
}

uint64_t ry_hash_u64(uint64_t x)
{
    unsigned char b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (unsigned char)(x >> (8 * i));
    return ry_hash_bytes(b, sizeof b);
}
