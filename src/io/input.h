/* Opening an input file: the spec, catalog files (-T), topology, LFT, GUID
 * and LID files, workload files. Every reader opens its file here, so all
 * refuse the same things the same way.
 *
 * Only a regular file is read. A directory, FIFO, device or socket is
 * refused at once, before anything could block or run on: a FIFO without a
 * writer would wait forever, a device may never end (/dev/zero) or act on
 * being opened (a tape). The file is opened O_NONBLOCK and checked again
 * with fstat, so one swapped in between the checks is refused too. Standard
 * input (a spec of "-") is the caller's and does not come here. */
#ifndef RY_INPUT_H
#define RY_INPUT_H

#include <stdio.h>

/* A descriptor open for reading on the regular file path, or -1 with *why
 * set to a static text saying why not ("Is a directory", "a FIFO, not a
 * regular file", or the system's reason). Refusals are I/O errors: the
 * caller reports them with ry_io_error (exit 3). */
int ry_input_open(const char *path, const char **why);

/* The same as a stdio stream opened "rb"; the caller fcloses it. */
FILE *ry_input_fopen(const char *path, const char **why);

#endif
