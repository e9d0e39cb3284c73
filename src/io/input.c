#include "io/input.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* What a file that is not a regular one is, for the message. */
static const char *not_regular(mode_t m)
{
    if (S_ISDIR(m))
        return strerror(EISDIR);
    if (S_ISFIFO(m))
        return "a FIFO, not a regular file";
    if (S_ISCHR(m))
        return "a character device, not a regular file";
    if (S_ISBLK(m))
        return "a block device, not a regular file";
    if (S_ISSOCK(m))
        return "a socket, not a regular file";
    return "not a regular file";
}

int ry_input_open(const char *path, const char **why)
{
    struct stat st;
    /* stat first: a device is not even opened */
    if (stat(path, &st) < 0) {
        *why = strerror(errno);
        return -1;
    }
    if (!S_ISREG(st.st_mode)) {
        *why = not_regular(st.st_mode);
        errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
        return -1;
    }
    /* O_NONBLOCK: a FIFO put in the file's place meanwhile does not block
     * the open; fstat then refuses it */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
    if (fd < 0) {
        *why = strerror(errno);
        return -1;
    }
    int bad = fstat(fd, &st) < 0;
    if (bad || !S_ISREG(st.st_mode)) {
        *why = bad ? strerror(errno) : not_regular(st.st_mode);
        close(fd);
        errno = EINVAL;
        return -1;
    }
    int fl = fcntl(fd, F_GETFL);
    if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0) {
        *why = strerror(errno);
        close(fd);
        return -1;
    }
    return fd;
}

FILE *ry_input_fopen(const char *path, const char **why)
{
    int fd = ry_input_open(path, why);
    if (fd < 0)
        return NULL;
    FILE *fp = fdopen(fd, "rb");
    if (!fp) {
        *why = strerror(errno);
        close(fd);
    }
    return fp;
}
