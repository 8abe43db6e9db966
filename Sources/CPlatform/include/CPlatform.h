/* Linux system interfaces that Swift's Glibc module does not import (epoll, timerfd, signalfd,
 * eventfd, SO_PEERCRED need headers or _GNU_SOURCE it leaves out). Each function is one system
 * call and keeps its C contract: -1 with errno set on failure. */
#ifndef CPLATFORM_H
#define CPLATFORM_H

#include <stdint.h>
#include <sys/types.h>

/* epoll event bits, as values (the kernel ABI; identical on every Linux architecture). */
enum {
    CPLATFORM_EPOLLIN = 0x001,
    CPLATFORM_EPOLLPRI = 0x002,
    CPLATFORM_EPOLLOUT = 0x004,
    CPLATFORM_EPOLLERR = 0x008,
    CPLATFORM_EPOLLHUP = 0x010,
    CPLATFORM_EPOLLRDHUP = 0x2000,
};

/* epoll_ctl operations (EPOLL_CTL_*). */
enum {
    CPLATFORM_EPOLL_CTL_ADD = 1,
    CPLATFORM_EPOLL_CTL_DEL = 2,
    CPLATFORM_EPOLL_CTL_MOD = 3,
};

typedef struct {
    int32_t fd;
    uint32_t events;
} cplatform_ready;

typedef struct {
    int32_t pid;
    uint32_t uid;
    uint32_t gid;
} cplatform_credentials;

typedef struct {
    uint32_t signo;
    int32_t code;
    int32_t pid;
    uint32_t uid;
} cplatform_siginfo;

int cplatform_epoll_create(void);
/* op: 1 add, 2 delete, 3 modify (EPOLL_CTL_*). The fd itself is the event's data. */
int cplatform_epoll_ctl(int epfd, int op, int fd, uint32_t events);
/* Fills at most `capacity` (≤ 64) entries. */
int cplatform_epoll_wait(int epfd, cplatform_ready *out, int capacity, int timeout_ms);

/* A timer on `clock` (CLOCK_MONOTONIC or CLOCK_REALTIME), non-blocking, close-on-exec. */
int cplatform_timerfd_create(int clock);
/* Absolute deadline on the timer's `clock`, one-shot; (0, 0) disarms. A CLOCK_REALTIME timer is armed with
   TFD_TIMER_CANCEL_ON_SET: a read fails with ECANCELED when the wall clock is set (timerfd_create(2)). */
int cplatform_timerfd_settime_absolute(int fd, int clock, int64_t seconds, int64_t nanoseconds);

/* Adds (`block` != 0) or removes the signals from the calling thread's mask. */
int cplatform_sigmask(const int *signals, int count, int block);
int cplatform_signalfd_create(const int *signals, int count);
/* Reads one record; returns bytes read (sizeof the kernel record) or -1. */
ssize_t cplatform_signalfd_read(int fd, cplatform_siginfo *out);
/* Sends `signo` to the calling thread only (tgkill to self). */
int cplatform_raise_in_thread(int signo);

int cplatform_eventfd_create(unsigned int initial);

/* Accepts a connection, non-blocking and close-on-exec. */
int cplatform_accept(int fd);

int cplatform_peer_credentials(int fd, cplatform_credentials *out);

/* The peer's supplementary groups at connect time (SO_PEERGROUPS, Linux 4.13): up to `capacity` into
   `out`; returns the count, or -1 with errno (ERANGE: `*needed` holds the count). */
int cplatform_peer_groups(int fd, uint32_t *out, int capacity, int *needed);

/* adjtimex(2) with no changes: 1 when the kernel's clock is synchronised, 0 when it says it is not
   (TIME_ERROR, or STA_UNSYNC in the status), -1 with errno when it will not say (EPERM under ProtectClock). */
int cplatform_kernel_clock_synchronized(void);

/* prctl(PR_SET_DUMPABLE, value): 0 refuses core dumps and ptrace by the same user. */
int cplatform_set_dumpable(int value);
int cplatform_get_dumpable(void);

/* Takes the permission bits outside `keep` away from the regular file at `path`, without opening it for
   reading or writing: an O_PATH descriptor (a final link is never followed), fstat, chmod through
   /proc/self/fd. A process loses every POSIX record lock it holds on a file when it closes any ordinary
   descriptor of that file; closing an O_PATH one releases none (fs/open.c, filp_close), so SQLite's locks
   on the same file survive. 0 when done or nothing to take away (also for a file that is not regular),
   -1 with errno. */
int cplatform_narrow_mode(const char *path, unsigned int keep);

#endif
