#define _GNU_SOURCE
#include "CPlatform.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <signal.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/eventfd.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/timex.h>
#include <unistd.h>

int cplatform_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

int cplatform_epoll_ctl(int epfd, int op, int fd, uint32_t events) {
    struct epoll_event ev;
    memset(&ev, 0, sizeof ev);
    ev.events = events;
    ev.data.fd = fd;
    return epoll_ctl(epfd, op, fd, &ev);
}

int cplatform_epoll_wait(int epfd, cplatform_ready *out, int capacity, int timeout_ms) {
    struct epoll_event evs[64];
    if (capacity > 64) capacity = 64;
    if (capacity < 1) {
        errno = EINVAL;
        return -1;
    }
    int n = epoll_wait(epfd, evs, capacity, timeout_ms);
    for (int i = 0; i < n; i++) {
        out[i].fd = evs[i].data.fd;
        out[i].events = evs[i].events;
    }
    return n;
}

int cplatform_timerfd_create(int clock) { return timerfd_create(clock, TFD_NONBLOCK | TFD_CLOEXEC); }

int cplatform_timerfd_settime_absolute(int fd, int clock, int64_t seconds, int64_t nanoseconds) {
    struct itimerspec spec;
    memset(&spec, 0, sizeof spec);
    spec.it_value.tv_sec = (time_t)seconds;
    spec.it_value.tv_nsec = (long)nanoseconds;
    /* TFD_TIMER_CANCEL_ON_SET is valid only on CLOCK_REALTIME (timerfd_create(2)). */
    int flags = TFD_TIMER_ABSTIME | (clock == CLOCK_REALTIME ? TFD_TIMER_CANCEL_ON_SET : 0);
    return timerfd_settime(fd, flags, &spec, NULL);
}

static int fill_set(sigset_t *set, const int *signals, int count) {
    if (sigemptyset(set) != 0) return -1;
    for (int i = 0; i < count; i++)
        if (sigaddset(set, signals[i]) != 0) return -1;
    return 0;
}

int cplatform_sigmask(const int *signals, int count, int block) {
    sigset_t set;
    if (fill_set(&set, signals, count) != 0) return -1;
    int rc = pthread_sigmask(block ? SIG_BLOCK : SIG_UNBLOCK, &set, NULL);
    if (rc != 0) {
        errno = rc;
        return -1;
    }
    return 0;
}

int cplatform_signalfd_create(const int *signals, int count) {
    sigset_t set;
    if (fill_set(&set, signals, count) != 0) return -1;
    return signalfd(-1, &set, SFD_NONBLOCK | SFD_CLOEXEC);
}

ssize_t cplatform_signalfd_read(int fd, cplatform_siginfo *out) {
    struct signalfd_siginfo info;
    ssize_t n = read(fd, &info, sizeof info);
    if (n == (ssize_t)sizeof info) {
        out->signo = info.ssi_signo;
        out->code = info.ssi_code;
        out->pid = (int32_t)info.ssi_pid;
        out->uid = info.ssi_uid;
    }
    return n;
}

int cplatform_raise_in_thread(int signo) { return (int)syscall(SYS_tgkill, getpid(), gettid(), signo); }

int cplatform_eventfd_create(unsigned int initial) { return eventfd(initial, EFD_NONBLOCK | EFD_CLOEXEC); }

int cplatform_accept(int fd) { return accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC); }

int cplatform_peer_credentials(int fd, cplatform_credentials *out) {
    struct ucred cred;
    socklen_t len = sizeof cred;
    if (getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &cred, &len) != 0) return -1;
    out->pid = cred.pid;
    out->uid = cred.uid;
    out->gid = cred.gid;
    return 0;
}

int cplatform_peer_groups(int fd, uint32_t *out, int capacity, int *needed) {
    socklen_t len = (socklen_t)(capacity * (int)sizeof(gid_t));
    gid_t buffer[256];
    if (capacity > 256) capacity = 256;
    len = (socklen_t)(capacity * (int)sizeof(gid_t));
    if (getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, buffer, &len) != 0) {
        if (errno == ERANGE && needed) *needed = (int)(len / sizeof(gid_t));
        return -1;
    }
    int count = (int)(len / sizeof(gid_t));
    for (int i = 0; i < count; i++) out[i] = buffer[i];
    return count;
}

int cplatform_set_dumpable(int value) { return prctl(PR_SET_DUMPABLE, (unsigned long)value, 0, 0, 0); }

int cplatform_get_dumpable(void) { return prctl(PR_GET_DUMPABLE, 0, 0, 0, 0); }

int cplatform_kernel_clock_synchronized(void) {
    struct timex tx;
    memset(&tx, 0, sizeof tx);
    int state = adjtimex(&tx);
    if (state < 0) return -1;
    return state != TIME_ERROR && (tx.status & STA_UNSYNC) == 0;
}

int cplatform_narrow_mode(const char *path, unsigned int keep) {
    int fd = open(path, O_PATH | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0) return -1;
    struct stat info;
    int result = fstat(fd, &info);
    if (result == 0 && S_ISREG(info.st_mode) && (info.st_mode & 07777 & ~keep) != 0) {
        char link[32];
        snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
        result = chmod(link, info.st_mode & 07777 & keep);
    }
    int saved = errno;
    close(fd);
    errno = saved;
    return result;
}
