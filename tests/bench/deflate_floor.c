/* Benchmark: the floor of a workbook's compression. Reads every member of
 * the given .xlsx files (inflating them, untimed) and deflates their XML
 * again at LEVEL with its CRC-32, as the workbook writers do (raw deflate,
 * zlib's default window and memory level); only the deflating is timed.
 * usage: deflate_floor LEVEL FILE.xlsx...
 * Prints: seconds deflating, XML bytes, deflated bytes. */
#include <stdio.h>
#include <stdlib.h>

#include <zlib.h>
#include <unzip.h>

#include "clock.h"

#define CHUNK ((size_t)1 << 18)

static unsigned char in[CHUNK], out[CHUNK];

/* Deflates n bytes of in[] into z (flush as deflate takes it); returns
 * the bytes it gave. */
static unsigned long long pump(z_stream *z, size_t n, int flush)
{
    unsigned long long got = 0;
    z->next_in = in;
    z->avail_in = (uInt)n;
    int rc;
    do {
        z->next_out = out;
        z->avail_out = (uInt)CHUNK;
        rc = deflate(z, flush);
        got += CHUNK - z->avail_out;
    } while (z->avail_out == 0 || (flush == Z_FINISH && rc != Z_STREAM_END));
    return got;
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: deflate_floor LEVEL FILE.xlsx...\n");
        return 2;
    }
    int level = atoi(argv[1]);
    double secs = 0;
    unsigned long long xml = 0, zb = 0;
    uLong crc = 0;
    for (int a = 2; a < argc; a++) {
        unzFile uf = unzOpen64(argv[a]);
        if (!uf) {
            fprintf(stderr, "deflate_floor: cannot open '%s'\n", argv[a]);
            return 1;
        }
        for (int r = unzGoToFirstFile(uf); r == UNZ_OK; r = unzGoToNextFile(uf)) {
            if (unzOpenCurrentFile(uf) != UNZ_OK) {
                fprintf(stderr, "deflate_floor: cannot read '%s'\n", argv[a]);
                return 1;
            }
            z_stream z = { 0 };
            if (deflateInit2(&z, level, Z_DEFLATED, -MAX_WBITS, 8, Z_DEFAULT_STRATEGY) != Z_OK)
                return 1;
            crc = crc32(0L, Z_NULL, 0);
            int n;
            while ((n = unzReadCurrentFile(uf, in, (unsigned)CHUNK)) > 0) {
                double t0 = bench_now();
                crc = crc32(crc, in, (uInt)n);
                zb += pump(&z, (size_t)n, Z_NO_FLUSH);
                secs += bench_now() - t0;
                xml += (unsigned long long)n;
            }
            double t0 = bench_now();
            zb += pump(&z, 0, Z_FINISH);
            deflateEnd(&z);
            secs += bench_now() - t0;
            unzCloseCurrentFile(uf);
            if (n < 0) {
                fprintf(stderr, "deflate_floor: '%s' is damaged\n", argv[a]);
                return 1;
            }
        }
        unzClose(uf);
    }
    printf("%.3f %llu %llu\n", secs, xml, zb);
    return crc == 0xFFFFFFFFu;     /* keeps the CRC computed */
}
