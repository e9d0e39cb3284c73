/* Feeds files to a fuzz target's LLVMFuzzerTestOneInput, for builds without
 * libFuzzer: each argument is a file, or a directory whose files are read in
 * name order. Prints how many inputs ran; a crash or a sanitizer report ends
 * the run as it would under the fuzzer. */
#define _DEFAULT_SOURCE
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *fp = fopen(path, "rb");
    if (!fp) {
        perror(path);
        return -1;
    }
    size_t cap = 1 << 16, n = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + n, 1, cap - n, fp)) > 0) {
        n += got;
        if (n == cap)
            buf = realloc(buf, cap *= 2);
    }
    fclose(fp);
    if (!buf)
        return -1;
    LLVMFuzzerTestOneInput(buf, n);
    free(buf);
    return 0;
}

static int by_name(const struct dirent **a, const struct dirent **b)
{
    return strcmp((*a)->d_name, (*b)->d_name);
}

int main(int argc, char **argv)
{
    long runs = 0;
    int bad = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) < 0) {
            perror(argv[i]);
            bad = 1;
            continue;
        }
        if (!S_ISDIR(st.st_mode)) {
            bad |= run_file(argv[i]) < 0;
            runs++;
            continue;
        }
        struct dirent **ents;
        int n = scandir(argv[i], &ents, NULL, by_name);
        for (int k = 0; k < n; k++) {
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], ents[k]->d_name);
            if (ents[k]->d_name[0] != '.' && stat(path, &st) == 0 && S_ISREG(st.st_mode)) {
                bad |= run_file(path) < 0;
                runs++;
            }
            free(ents[k]);
        }
        free(ents);
    }
    printf("%ld inputs\n", runs);
    return bad;
}
