/* Starting a test's child process so that it holds no descriptor but its standard three: the glibc
 * extensions this needs (posix_spawn_file_actions_addclosefrom_np, _addchdir_np, pipe2) are declared only
 * under _GNU_SOURCE, which Swift's Glibc module leaves out. */
#ifndef CTESTSUPPORT_H
#define CTESTSUPPORT_H

#include <sys/types.h>

/* posix_spawn(3) of `path` with `argv` and `envp`: descriptors `in`, `out` and `err` become the child's 0, 1
 * and 2 (-1 leaves that one as this process has it), the child starts in `directory` (NULL: this process's),
 * in a process group of its own when `own_group` is non-zero, and every other descriptor is closed in the
 * child before exec, whatever its close-on-exec flag. Returns 0, or an errno value as posix_spawn does. */
int cts_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[], const char *directory,
              int in, int out, int err, int own_group);

/* pipe2(2) with O_CLOEXEC: neither end reaches a child that another thread starts meanwhile. */
int cts_pipe(int fds[2]);

#endif
