/* The topology reader: ibnetdiscover output or an ibsim netfile. */
#include "fuzz.h"

#include "ibfmt/netfile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char path[64];
    int fd = fuzz_file(data, size, path, sizeof path);
    if (fd < 0)
        return 0;
    ry_netfile nf;
    ry_netfile_load(path, &nf);
    ry_netfile_free(&nf);
    close(fd);
    fuzz_done();
    return 0;
}
