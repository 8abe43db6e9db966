/* A run of the C shims without Bluetooth or GPIO hardware, for the host and (under qemu-user) for
 * aarch64: the pure functions give the expected bytes, the hardware calls fail cleanly with errno, the
 * system calls of the Platform shim work, SQLite opens and binds through the CSQLite shim. Then it
 * prints the layout figures, one "NAME VALUE" a line on standard output, for the stage to compare with
 * Tests/abi/expected-figures.txt. Exits 1 after the first failed check, naming it on standard error. */
#include "abi_asserts.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>


#define CHECK(condition)                                                                          \
    do {                                                                                          \
        if (!(condition)) {                                                                       \
            fprintf(stderr, "shim-test: failed: %s (line %d, errno %d: %s)\n", #condition, __LINE__, \
                    errno, strerror(errno));                                                      \
            exit(1);                                                                              \
        }                                                                                         \
    } while (0)

/* A hardware call with no hardware behind it: -1 with errno set, or success where the host has the
 * device (a machine with hci0 or a gpiochip); never a crash or a value without errno. */
#define FAILS_CLEANLY_OR_WORKS(result) CHECK((result) >= 0 || errno != 0)

static void bluez(void) {
    const uint8_t address[6] = {0x01, 0x02, 0x03, 0x04, 0x05, 0xC6};
    struct sockaddr_l2 l2 = cbluez_sockaddr_l2(address, CBLUEZ_ADDR_LE_RANDOM, CBLUEZ_ATT_CID);
    const uint8_t *raw = (const uint8_t *)&l2;
    CHECK(l2.l2_family == AF_BLUETOOTH);
    CHECK(memcmp(&l2.l2_bdaddr, address, 6) == 0);
    CHECK(raw[10] == 4 && raw[11] == 0); /* the CID little-endian on the wire */
    CHECK(l2.l2_bdaddr_type == 2);
    CHECK(l2.l2_psm == 0);

    errno = 0;
    int fd = cbluez_management_socket();
    FAILS_CLEANLY_OR_WORKS(fd);
    if (fd >= 0) close(fd);
    errno = 0;
    fd = cbluez_l2cap_socket();
    FAILS_CLEANLY_OR_WORKS(fd);
    if (fd >= 0) close(fd);
    errno = 0;
    cbluez_adapter_facts facts;
    memset(&facts, 0xAA, sizeof facts);
    /* No controller has index 0xFFFE on any machine. */
    CHECK(cbluez_adapter_facts_read(0xFFFE, &facts) == -1 && errno != 0);
    errno = 0;
    CHECK(cbluez_socket_error(-1) == -1 && errno == EBADF);
}

static void gpio(void) {
    CHECK(cgpiod_api_major() == 1 || cgpiod_api_major() == 2);
    CHECK(cgpiod_library_version() != NULL && cgpiod_library_version()[0] != '\0');
    errno = 0;
    CHECK(cgpiod_chip_open("/dev/null") == NULL && errno != 0);
    int fd = open("/dev/null", O_RDONLY | O_CLOEXEC);
    CHECK(fd >= 0);
    cgpiod_chip_facts chip;
    cgpiod_line_facts line;
    /* Not a GPIO chip: the kernel says ENOTTY; qemu-user, which does not translate the GPIO ioctls,
     * refuses them with ENOSYS before the kernel sees them. */
    errno = 0;
    CHECK(cgpiod_chip_facts_read(fd, &chip) == -1 && (errno == ENOTTY || errno == ENOSYS));
    errno = 0;
    CHECK(cgpiod_line_facts_read(fd, 0, &line) == -1 && (errno == ENOTTY || errno == ENOSYS));
    close(fd);
}

static void platform(void) {
    int ep = cplatform_epoll_create();
    CHECK(ep >= 0);
    int ev = cplatform_eventfd_create(1);
    CHECK(ev >= 0);
    CHECK(cplatform_epoll_ctl(ep, CPLATFORM_EPOLL_CTL_ADD, ev, CPLATFORM_EPOLLIN) == 0);
    cplatform_ready ready[4];
    CHECK(cplatform_epoll_wait(ep, ready, 4, 1000) == 1);
    CHECK(ready[0].fd == ev && (ready[0].events & CPLATFORM_EPOLLIN) != 0);
    CHECK(cplatform_epoll_ctl(ep, CPLATFORM_EPOLL_CTL_MOD, ev, CPLATFORM_EPOLLOUT) == 0);
    CHECK(cplatform_epoll_ctl(ep, CPLATFORM_EPOLL_CTL_DEL, ev, 0) == 0);
    errno = 0;
    CHECK(cplatform_epoll_wait(ep, ready, 0, 0) == -1 && errno == EINVAL);

    /* A monotonic timer whose deadline has passed is readable at once. */
    int timer = cplatform_timerfd_create(CLOCK_MONOTONIC);
    CHECK(timer >= 0);
    struct timespec now;
    CHECK(clock_gettime(CLOCK_MONOTONIC, &now) == 0);
    CHECK(cplatform_timerfd_settime_absolute(timer, CLOCK_MONOTONIC, now.tv_sec, now.tv_nsec) == 0);
    CHECK(cplatform_epoll_ctl(ep, CPLATFORM_EPOLL_CTL_ADD, timer, CPLATFORM_EPOLLIN) == 0);
    CHECK(cplatform_epoll_wait(ep, ready, 4, 1000) == 1 && ready[0].fd == timer);
    int wall = cplatform_timerfd_create(CLOCK_REALTIME);
    CHECK(wall >= 0);
    CHECK(clock_gettime(CLOCK_REALTIME, &now) == 0);
    CHECK(cplatform_timerfd_settime_absolute(wall, CLOCK_REALTIME, now.tv_sec + 3600, 0) == 0);

    /* A blocked signal raised in this thread arrives on the signalfd. */
    int signals[1] = {SIGUSR1};
    CHECK(cplatform_sigmask(signals, 1, 1) == 0);
    int sfd = cplatform_signalfd_create(signals, 1);
    CHECK(sfd >= 0);
    CHECK(cplatform_raise_in_thread(SIGUSR1) == 0);
    cplatform_siginfo info;
    CHECK(cplatform_signalfd_read(sfd, &info) == (ssize_t)sizeof(struct signalfd_siginfo));
    CHECK(info.signo == SIGUSR1 && info.pid == getpid());

    int pair[2];
    CHECK(socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, pair) == 0);
    cplatform_credentials credentials;
    CHECK(cplatform_peer_credentials(pair[0], &credentials) == 0);
    CHECK(credentials.pid == getpid() && credentials.uid == getuid());
    uint32_t groups[256];
    int needed = 0;
    errno = 0;
    /* qemu-user may not pass SO_PEERGROUPS through: a count or a clean failure. */
    FAILS_CLEANLY_OR_WORKS(cplatform_peer_groups(pair[0], groups, 256, &needed));

    errno = 0;
    int synchronized = cplatform_kernel_clock_synchronized();
    CHECK(synchronized == 0 || synchronized == 1 || (synchronized == -1 && errno != 0));

    CHECK(cplatform_set_dumpable(0) == 0 && cplatform_get_dumpable() == 0);
    CHECK(cplatform_set_dumpable(1) == 0 && cplatform_get_dumpable() == 1);
    close(pair[0]);
    close(pair[1]);
    close(sfd);
    close(wall);
    close(timer);
    close(ev);
    close(ep);
}

static void sqlite(void) {
    sqlite3 *db = NULL;
    CHECK(sqlite3_open(":memory:", &db) == SQLITE_OK);
    sqlite3_stmt *statement = NULL;
    CHECK(sqlite3_prepare_v2(db, "SELECT length(?1)", -1, &statement, NULL) == SQLITE_OK);
    char text[] = "morning";
    CHECK(sqlite3_bind_text(statement, 1, text, -1, csqlite_transient()) == SQLITE_OK);
    text[0] = '\0'; /* SQLITE_TRANSIENT: SQLite kept its own copy */
    CHECK(sqlite3_step(statement) == SQLITE_ROW && sqlite3_column_int(statement, 0) == 7);
    sqlite3_finalize(statement);
    sqlite3_close(db);
}

#define FIGURE(name, value) printf("%s %llu\n", name, (unsigned long long)(value))
#define FIGURE_HEX(name, value) printf("%s 0x%llX\n", name, (unsigned long long)(value))

static void figures(void) {
    FIGURE("pointer_bytes", sizeof(void *));
    FIGURE_HEX("HCIGETDEVINFO", HCIGETDEVINFO);
    FIGURE("hci_dev_info.bdaddr", offsetof(struct hci_dev_info, bdaddr));
    FIGURE("hci_dev_info.flags", offsetof(struct hci_dev_info, flags));
    FIGURE_HEX("HCI_DEV_NONE", HCI_DEV_NONE);
    FIGURE("BDADDR_BREDR", BDADDR_BREDR);
    FIGURE("BDADDR_LE_PUBLIC", BDADDR_LE_PUBLIC);
    FIGURE("BDADDR_LE_RANDOM", BDADDR_LE_RANDOM);
    FIGURE("sizeof.sockaddr_l2", sizeof(struct sockaddr_l2));
    FIGURE("sizeof.sockaddr_hci", sizeof(struct sockaddr_hci));
    FIGURE_HEX("GPIO_GET_CHIPINFO_IOCTL", GPIO_GET_CHIPINFO_IOCTL);
    FIGURE("gpiochip_info.label", offsetof(struct gpiochip_info, label));
    FIGURE("gpiochip_info.lines", offsetof(struct gpiochip_info, lines));
    FIGURE_HEX("GPIO_GET_LINEINFO_IOCTL", GPIO_GET_LINEINFO_IOCTL);
    FIGURE("gpioline_info.flags", offsetof(struct gpioline_info, flags));
    FIGURE("gpioline_info.consumer", offsetof(struct gpioline_info, consumer));
    FIGURE("timex.status", offsetof(struct timex, status));
    FIGURE("sizeof.timex", sizeof(struct timex));
    FIGURE_HEX("STA_UNSYNC", STA_UNSYNC);
    FIGURE("TIME_ERROR", TIME_ERROR);
    FIGURE("CAP_NET_ADMIN", CAP_NET_ADMIN);
    FIGURE("EPOLLIN", EPOLLIN);
    FIGURE("EPOLLPRI", EPOLLPRI);
    FIGURE("EPOLLOUT", EPOLLOUT);
    FIGURE("EPOLLERR", EPOLLERR);
    FIGURE("EPOLLHUP", EPOLLHUP);
    FIGURE_HEX("EPOLLRDHUP", EPOLLRDHUP);
    FIGURE("SO_PEERGROUPS", SO_PEERGROUPS);
    FIGURE("PR_SET_DUMPABLE", PR_SET_DUMPABLE);
    FIGURE("TFD_TIMER_CANCEL_ON_SET", TFD_TIMER_CANCEL_ON_SET);
    FIGURE("sizeof.signalfd_siginfo", sizeof(struct signalfd_siginfo));
    FIGURE("sizeof.cbluez_adapter_facts", sizeof(cbluez_adapter_facts));
    FIGURE("sizeof.cgpiod_chip_facts", sizeof(cgpiod_chip_facts));
    FIGURE("sizeof.cgpiod_line_facts", sizeof(cgpiod_line_facts));
    FIGURE("sizeof.cplatform_ready", sizeof(cplatform_ready));
    FIGURE("sizeof.cplatform_siginfo", sizeof(cplatform_siginfo));
}

int main(void) {
    bluez();
    gpio();
    platform();
    sqlite();
    figures();
    fprintf(stderr, "shim-test: every check passed\n");
    return 0;
}
