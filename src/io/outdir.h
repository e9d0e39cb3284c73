/* Outputs written as one transaction: a run either replaces what it writes
 * whole, or leaves it exactly as it was.
 *
 * Output directories (-o DIR). A run writes a complete new tree in a
 * staging directory beside DIR, on DIR's file system, named
 * .NAME.railyard-stage-<pid>-<random> and made with mkdir (which never
 * follows a planted link). At commit, the user's own files of the old DIR
 * are carried into the new tree as hard links (copies where a link is
 * refused), and the new tree is swapped with the old one by a single
 * renameat2(RENAME_EXCHANGE) (a plain rename when DIR is new); the old tree,
 * now under the staging name, is then removed. At every instant DIR holds
 * either the complete previous output or the complete new one. A symbolic
 * link named as DIR is followed: its target is replaced, the link stays.
 * A carried file is copied only when the copy keeps its owner, group and
 * mode (the file is the user's; root keeps any owner), and a directory of
 * another user's (DIR itself too) is not made anew as this user's: else
 * the commit is refused (exit 3, the first paths named) unless
 * RY_OUT_FORCE, which copies.
 *
 * Ownership. DIR/.railyard-manifest lists, sorted, the files railyard wrote
 * there; railyard replaces or removes no other file unless RY_OUT_FORCE.
 * An existing DIR without a manifest must be empty: railyard wrote none of
 * it, and begin refuses it (naming its first entries) unless RY_OUT_FORCE.
 * A run replaces whole groups: the top-level names it writes into, and
 * those it declares with ry_outdir_own (build declares each group it does
 * not skip, so a group the spec no longer has disappears). Files of a
 * replaced group that the manifest lists and the new run does not write are
 * dropped (the opensm/plane1 of an earlier two-plane spec); files of other
 * groups stay, and the new manifest lists them under a comment saying they
 * are from an earlier run. A file the manifest does not list is the
 * user's: it is carried over untouched, and where railyard needs to write
 * the same path the commit is refused (exit 3, the first paths named)
 * unless RY_OUT_FORCE, which replaces it. Names starting with .railyard- at
 * DIR's top level are railyard's bookkeeping.
 *
 * Limits. When DIR is a mount point, or its parent is not writable, the
 * staging directory goes inside DIR and each replaced group is renamed into
 * place in turn, under a journal (DIR/.railyard-journal) that the next run
 * completes if this one is killed half-way: a group is then old or new
 * whole, but two groups may briefly belong to two runs. That run completes
 * it only when it is one railyard wrote: a regular file of this user's,
 * each line one name at DIR's top (the manifest's rule for a path, and no
 * '/'), its staging directory this user's inside DIR, removing or
 * replacing only what the manifest lists, and in a DIR without a manifest
 * publishing all DIR holds (unless RY_OUT_FORCE); else begin refuses it,
 * naming it, before anything is moved. On a file system
 * without RENAME_EXCHANGE, DIR is renamed aside and the new tree renamed in
 * (DIR is briefly absent; the next run completes an interrupted swap). A
 * DIR that contains a mount point is refused. Data are not fsync'ed: the
 * guarantee covers a killed or failing run, not a power cut.
 *
 * Single files (-o FILE). An existing regular file, or a new one, is
 * written to a same-directory temporary made with O_CREAT|O_EXCL|O_NOFOLLOW
 * under an unpredictable name, which is renamed over it (keeping its
 * mode). The file carries the extended attribute user.railyard (its size
 * and modification time as written); an existing non-empty file without
 * that mark, or changed since, is the user's and is replaced only with
 * RY_OUT_FORCE (else refused, exit 3, nothing written). A device, FIFO or socket is written through, never replaced
 * (-o /dev/null discards); /dev/stdout, /dev/stderr and /dev/fd/N write to
 * that descriptor. A symbolic link is followed: its target is replaced.
 *
 * Symbolic links in -o. The path of FILE or DIR is walked here, a component
 * at a time (openat, O_NOFOLLOW), and a link in any component is followed
 * only where the kernel's protected_symlinks rule would, whatever the
 * sysctl says: the link is the euid's, or its directory is not sticky and
 * world-writable, or the link's owner owns the directory. Another user's
 * link in /tmp is refused (exit 3), so root never writes through it. A
 * single file is then written by descriptors of its directory.
 *
 * Temporary names carry the pid: what a killed run (kill -9) leaves, the
 * next run into the same place removes. On SIGINT, SIGTERM and SIGHUP the
 * staging area and temporaries are removed (util/cleanup.h).
 *
 * Memory: ry_outdir_begin returns an object that ry_outdir_commit or
 * ry_outdir_abort frees (both NULL-safe); paths returned by ry_outdir_path
 * are the caller's to free. Every function prints its own errors. */
#ifndef RY_OUTDIR_H
#define RY_OUTDIR_H

#include <stdio.h>

typedef struct ry_outdir ry_outdir;

/* Flags of ry_outdir_begin. */
enum {
    RY_OUT_FORCE = 1    /* write into a DIR railyard did not write, replacing the
                           user's files at paths railyard writes */
};

/* Starts a run writing into dir. NULL (error printed) when dir is empty,
 * is not a directory, exists non-empty without a manifest (unless
 * RY_OUT_FORCE), or the staging directory cannot be made. */
ry_outdir *ry_outdir_begin(const char *dir, unsigned flags);

/* A run kept in memory, for a harness that must write no file: each file
 * opened is a buffer (ry_outdir_file reads them back), ry_outdir_path
 * fails (there is no path to give), and commit or abort frees it all. */
ry_outdir *ry_outdir_begin_memory(void);

/* The i-th file written in memory (from 0, in the order opened, once
 * closed): its relpath and bytes, borrowed until commit or abort. 0 past
 * the last, or for a run on disk. */
int ry_outdir_file(const ry_outdir *o, size_t i, const char **relpath, const char **data,
                   size_t *len);

/* Declares that this run replaces the group at top-level name `group`
 * ("opensm", "sweep.png") even if it writes nothing there. */
void ry_outdir_own(ry_outdir *o, const char *group);

/* 1 when DIR's manifest lists files of the group at top-level name group
 * (written by an earlier run), else 0. */
int ry_outdir_earlier(const ry_outdir *o, const char *group);

/* Opens relpath ("opensm/rail0/lfts.dump") for writing in the staging area;
 * subdirectories are created. NULL with an error printed on failure. */
FILE *ry_outdir_open(ry_outdir *o, const char *relpath);

/* Closes a file from ry_outdir_open; -1 (error printed) on a write error. */
int ry_outdir_close(ry_outdir *o, FILE *fp);

/* Writes a whole file of len bytes at relpath in the staging area; -1 (error
 * printed) on failure. */
int ry_outdir_put(ry_outdir *o, const char *relpath, const void *data, size_t len);

/* The staged path of relpath (parents made), for a library that writes a
 * file by name; the caller writes it and frees the path. NULL on failure. */
char *ry_outdir_path(ry_outdir *o, const char *relpath);

/* Runs fn(arg) on a thread of its own while the run goes on, for a file
 * that takes long to write (a large workbook through ry_outdir_path): fn
 * may not call the outdir, and owns arg. Commit and abort first wait for
 * every job; commit fails (DIR as it was) when a job returned < 0. Where
 * no thread can be started, fn runs here (-1 when it failed). */
int ry_outdir_spawn(ry_outdir *o, int (*fn)(void *), void *arg);
/* The same three for the file NAME in directory DIR of the run
 * ("cabling", "cabling.csv"): DIR/NAME. */
FILE *ry_outdir_open_in(ry_outdir *o, const char *dir, const char *name);
int ry_outdir_put_in(ry_outdir *o, const char *dir, const char *name, const void *data,
                     size_t len);
char *ry_outdir_path_in(ry_outdir *o, const char *dir, const char *name);
/* Publishes the run (see above) and frees o. -1 (error printed, DIR as it
 * was) on failure, also when an earlier write failed. */
int ry_outdir_commit(ry_outdir *o);

/* Removes everything staged and frees o; DIR stays as it was. */
void ry_outdir_abort(ry_outdir *o);

/* Writes a whole file to a path atomically, or to standard output when
 * path is "-" or NULL. -1 (error printed) on failure or when refused
 * (a file railyard did not write, without RY_OUT_FORCE in flags), nothing
 * left. */
int ry_write_file_atomic(const char *path, const char *data, size_t len, unsigned flags);

/* Whether -o FILE may be written, asked before a run does its work: -1
 * (error printed) when path is a file railyard would refuse to replace
 * (see ry_write_file_atomic), or a link it would not follow; else 0 (a
 * failure to write is the write's to report). */
int ry_output_file_check(const char *path, unsigned flags);

/* The same for output produced by write(fp, arg) (which returns -1 on a
 * write error), for files too large to hold in memory. */
int ry_write_stream_atomic(const char *path, int (*write)(FILE *fp, const void *arg),
                           const void *arg, unsigned flags);

#endif
