#define _GNU_SOURCE
#include "CTestSupport.h"

#include <fcntl.h>
#include <spawn.h>
#include <unistd.h>

int cts_spawn(pid_t *pid, const char *path, char *const argv[], char *const envp[], const char *directory,
              int in, int out, int err, int own_group) {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attributes;
    int rc = posix_spawn_file_actions_init(&actions);
    if (rc != 0) return rc;
    rc = posix_spawnattr_init(&attributes);
    if (rc != 0) {
        posix_spawn_file_actions_destroy(&actions);
        return rc;
    }
    const int from[3] = {in, out, err};
    for (int target = 0; target < 3 && rc == 0; target++) {
        if (from[target] >= 0) rc = posix_spawn_file_actions_adddup2(&actions, from[target], target);
    }
    if (rc == 0 && directory != NULL) rc = posix_spawn_file_actions_addchdir_np(&actions, directory);
    if (rc == 0) rc = posix_spawn_file_actions_addclosefrom_np(&actions, 3);
    if (rc == 0 && own_group) {
        rc = posix_spawnattr_setflags(&attributes, POSIX_SPAWN_SETPGROUP);
        if (rc == 0) rc = posix_spawnattr_setpgroup(&attributes, 0);
    }
    if (rc == 0) rc = posix_spawn(pid, path, &actions, &attributes, argv, envp);
    posix_spawnattr_destroy(&attributes);
    posix_spawn_file_actions_destroy(&actions);
    return rc;
}

int cts_pipe(int fds[2]) { return pipe2(fds, O_CLOEXEC); }
