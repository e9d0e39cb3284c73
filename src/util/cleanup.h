/* Temporary files and directories that a signal must not leave behind.
 *
 * A path registered here (a staging directory, a temporary file, a
 * library's scratch directory) is removed, whole, when SIGINT, SIGTERM or
 * SIGHUP ends the run; the handler then exits with 128 + the signal's
 * number (130, 143, 129). SIGXFSZ is ignored, so a write past the file-size
 * limit fails with EFBIG like any other write error and the run cleans up
 * on its own path. What a kill -9 leaves carries the dead process's pid in
 * its name, and the next run that uses the same place removes it
 * (ry_sweep_stale).
 *
 * The handler is async-signal-safe: registered paths sit in static
 * storage, and removal walks directories with openat, getdents64 and
 * unlinkat, never following a symbolic link and never entering another
 * mounted file system. A signal that was ignored when railyard started
 * (nohup, a shell's background job) stays ignored. */
#ifndef RY_CLEANUP_H
#define RY_CLEANUP_H

#include <signal.h>
#include <stddef.h>

/* Installs the handlers; main() calls it once. Without it, registrations
 * still work but nothing is removed on a signal. */
void ry_cleanup_init(void);

/* Registers path (copied) for removal on a signal. Returns a handle for
 * ry_cleanup_forget, or -1 when the table is full or the path too long
 * (the run goes on: only the removal on a signal is lost). */
int ry_cleanup_add(const char *path);
/* Replaces the path of a registration (after a rename); -1 as above. */
int ry_cleanup_move(int handle, const char *path);
/* Forgets a registration without removing anything; -1 is a no-op. */
void ry_cleanup_forget(int handle);

/* Blocks the three signals around a step that must not be cut in two
 * (publishing an output); ry_cleanup_unblock restores the previous mask. */
void ry_cleanup_block(sigset_t *saved);
void ry_cleanup_unblock(const sigset_t *saved);

/* Removes path: a file, or a directory and everything below it. Symbolic
 * links are removed, not followed; a directory that is another mount's
 * root is left alone (and so is everything above it). Async-signal-safe.
 * 0 when path is gone, else -1 with errno set. */
int ry_rmtree(const char *path);

/* Fills buf with n-1 random lowercase hex digits and a NUL, from
 * getrandom() (else /dev/urandom, else the clock and pid). */
void ry_random_hex(char *buf, size_t n);

/* 1 when a process with this pid exists (or might: EPERM), else 0. */
int ry_pid_alive(long pid);

/* In directory dir, removes every entry named PREFIX<pid>-<hex> (prefix
 * exactly, then a decimal pid, '-', and hex digits only) whose process is
 * gone: what a killed run left. Returns how many it removed. */
int ry_sweep_stale(const char *dir, const char *prefix);

/* A private scratch directory, mode 0700, named railyard-TAG-<pid>-<random>
 * under $TMPDIR (else /dev/shm when shm_ok and writable, else /tmp); stale
 * ones of dead processes are removed first. Registered for removal on a
 * signal. Returns a heap path, or NULL with an error printed. */
char *ry_tmpdir_new(const char *tag, int shm_ok);
/* Removes the directory made by ry_tmpdir_new, forgets it and frees dir.
 * NULL-safe. */
void ry_tmpdir_free(char *dir);
/* Removes the scratch directories of dead processes, of every tag, from
 * the places ry_tmpdir_new uses: any run that writes calls it, so a killed
 * run's workbook scratch goes even if no workbook is written again. */
void ry_tmpdir_sweep(void);

#endif
