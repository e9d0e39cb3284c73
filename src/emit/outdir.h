/* Output directories written atomically: every file is written into a
 * staging directory beside the target and moved into place only when the
 * whole run succeeded, so a failed or interrupted run never leaves a
 * half-written file where a subnet manager or a build script would read it. */
#ifndef RY_OUTDIR_H
#define RY_OUTDIR_H

#include <stdio.h>

typedef struct ry_outdir ry_outdir;

/* Starts a run writing into dir. NULL (error printed) when the staging
 * directory cannot be made. */
ry_outdir *ry_outdir_begin(const char *dir);

/* Opens relpath ("opensm/rail0/lfts.dump") for writing in the staging area;
 * subdirectories are created. NULL with an error printed on failure. */
FILE *ry_outdir_open(ry_outdir *o, const char *relpath);

/* Closes a file from ry_outdir_open; -1 (error printed) on a write error. */
int ry_outdir_close(ry_outdir *o, FILE *fp);

/* Writes a whole file of len bytes at relpath in the staging area; -1 (error
 * printed) on failure. */
int ry_outdir_put(ry_outdir *o, const char *relpath, const void *data, size_t len);

/* Moves every staged file into place and frees o. -1 on failure. */
int ry_outdir_commit(ry_outdir *o);

/* Removes everything staged and frees o. */
void ry_outdir_abort(ry_outdir *o);

/* Writes a whole file to a path atomically (temp file + rename), or to stdout
 * when path is "-" or NULL. Used by single-file commands. */
int ry_write_file_atomic(const char *path, const char *data, size_t len);

/* The same for output produced by write(fp, arg) (which returns -1 on a
 * write error), for files too large to hold in memory. */
int ry_write_stream_atomic(const char *path, int (*write)(FILE *fp, const void *arg),
                           const void *arg);

#endif
