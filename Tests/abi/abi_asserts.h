/* Every kernel constant and struct layout the box relies on, fixed at compile time. Built for the host
 * (x86-64) and for aarch64 (a Raspberry Pi) against that architecture's Debian headers by
 * Tests/stages/16-arm64-abi.sh; a header that disagrees fails the build.
 *
 * Two kinds of figures are here: the values the Swift sources use by name or by number (the shims'
 * own constants, which must equal the kernel's, and the Swift literals noted beside them), and the
 * kernel ABI the shims themselves use (ioctl numbers and the layouts behind them), pinned so that a
 * header or architecture that laid them out otherwise is caught here rather than on a Pi.
 * Tests/abi/expected-figures.txt lists the main ones again for the run-time comparison under qemu-user. */
#ifndef RECOVERYDECK_ABI_ASSERTS_H
#define RECOVERYDECK_ABI_ASSERTS_H

#define _GNU_SOURCE 1
#include <stddef.h>
#include <stdint.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <sys/timex.h>
#include <sys/un.h>
#include <linux/capability.h>
#include <linux/gpio.h>

#include "CBlueZ.h"
#include "CGPIOD.h"
#include "CPlatform.h"
#include "shim.h"

#define ABI_ASSERT(condition) _Static_assert(condition, #condition)

/* CPlatform's epoll values (Swift: IOEvents, EventLoop) are the kernel's. */
ABI_ASSERT((int)CPLATFORM_EPOLLIN == (int)EPOLLIN);
ABI_ASSERT((int)CPLATFORM_EPOLLPRI == (int)EPOLLPRI);
ABI_ASSERT((int)CPLATFORM_EPOLLOUT == (int)EPOLLOUT);
ABI_ASSERT((int)CPLATFORM_EPOLLERR == (int)EPOLLERR);
ABI_ASSERT((int)CPLATFORM_EPOLLHUP == (int)EPOLLHUP);
ABI_ASSERT((int)CPLATFORM_EPOLLRDHUP == (int)EPOLLRDHUP);
ABI_ASSERT(CPLATFORM_EPOLL_CTL_ADD == EPOLL_CTL_ADD);
ABI_ASSERT(CPLATFORM_EPOLL_CTL_DEL == EPOLL_CTL_DEL);
ABI_ASSERT(CPLATFORM_EPOLL_CTL_MOD == EPOLL_CTL_MOD);

/* Bluetooth names Swift uses (BlueZ: ControllerIndex.none = 0xFFFF, BluetoothAddressType 0/1/2,
 * the ATT channel 4; Admin: BTPROTO_HCI on AF_BLUETOOTH). */
ABI_ASSERT(CBLUEZ_HCI_DEV_NONE == HCI_DEV_NONE);
ABI_ASSERT(HCI_DEV_NONE == 0xFFFF);
ABI_ASSERT(CBLUEZ_ADDR_BREDR == 0 && CBLUEZ_ADDR_LE_PUBLIC == 1 && CBLUEZ_ADDR_LE_RANDOM == 2);
ABI_ASSERT(CBLUEZ_ATT_CID == 4);
ABI_ASSERT(AF_BLUETOOTH == 31 && BTPROTO_HCI == 1 && BTPROTO_L2CAP == 0);
ABI_ASSERT(HCI_CHANNEL_RAW == 0 && HCI_CHANNEL_CONTROL == 3);
ABI_ASSERT(SOL_HCI == 0 && HCI_FILTER == 2 && SOL_L2CAP == 6 && L2CAP_CONNINFO == 2);

/* The capability doctor tests in /proc/PID/status CapEff (Admin: bit 12). */
ABI_ASSERT(CAP_NET_ADMIN == 12);

/* HCIGETDEVINFO and struct hci_dev_info, read by cbluez_adapter_facts_read. */
ABI_ASSERT(HCIGETDEVINFO == 0x800448D3u);
ABI_ASSERT(offsetof(struct hci_dev_info, dev_id) == 0);
ABI_ASSERT(offsetof(struct hci_dev_info, name) == 2);
ABI_ASSERT(offsetof(struct hci_dev_info, bdaddr) == 10);
ABI_ASSERT(offsetof(struct hci_dev_info, flags) == 16);
ABI_ASSERT(sizeof(bdaddr_t) == 6);
ABI_ASSERT(HCI_UP == 0);

/* The socket addresses and options of the BlueZ shim. */
ABI_ASSERT(sizeof(struct sockaddr_hci) == 6);
ABI_ASSERT(sizeof(struct sockaddr_l2) == 14);
ABI_ASSERT(offsetof(struct sockaddr_l2, l2_cid) == 10);
ABI_ASSERT(offsetof(struct sockaddr_l2, l2_bdaddr_type) == 12);
ABI_ASSERT(sizeof(struct hci_filter) == 16);
ABI_ASSERT(offsetof(struct l2cap_conninfo, hci_handle) == 0);

/* The GPIO character device's v1 ioctls and structs, read by cgpiod_chip_facts_read and
 * cgpiod_line_facts_read. */
ABI_ASSERT(GPIO_GET_CHIPINFO_IOCTL == 0x8044B401u);
ABI_ASSERT(sizeof(struct gpiochip_info) == 68);
ABI_ASSERT(offsetof(struct gpiochip_info, label) == 32);
ABI_ASSERT(offsetof(struct gpiochip_info, lines) == 64);
ABI_ASSERT(GPIO_GET_LINEINFO_IOCTL == 0xC048B402u);
ABI_ASSERT(sizeof(struct gpioline_info) == 72);
ABI_ASSERT(offsetof(struct gpioline_info, flags) == 4);
ABI_ASSERT(offsetof(struct gpioline_info, consumer) == 40);
ABI_ASSERT(GPIOLINE_FLAG_KERNEL == 1);
ABI_ASSERT(sizeof(((cgpiod_chip_facts *)0)->label) == sizeof(((struct gpiochip_info *)0)->label) + 1);
ABI_ASSERT(sizeof(((cgpiod_line_facts *)0)->consumer) == sizeof(((struct gpioline_info *)0)->consumer) + 1);

/* adjtimex, read by cplatform_kernel_clock_synchronized (on LP64: x86-64 and aarch64 alike). */
ABI_ASSERT(TIME_ERROR == 5 && STA_UNSYNC == 0x0040);
#if defined(__LP64__)
ABI_ASSERT(offsetof(struct timex, status) == 40);
ABI_ASSERT(sizeof(struct timex) == 208);
#endif

/* The options and flags the Platform shim passes. */
ABI_ASSERT(SO_PEERGROUPS == 59);
ABI_ASSERT(PR_SET_DUMPABLE == 4 && PR_GET_DUMPABLE == 3);
ABI_ASSERT(TFD_TIMER_ABSTIME == 1 && TFD_TIMER_CANCEL_ON_SET == 2);
ABI_ASSERT(sizeof(struct signalfd_siginfo) == 128);
ABI_ASSERT(sizeof(struct ucred) == 12);
ABI_ASSERT(offsetof(struct sockaddr_un, sun_path) == 2);

/* The shims' own structs, as Swift imports them. */
ABI_ASSERT(sizeof(cplatform_ready) == 8);
ABI_ASSERT(sizeof(cplatform_credentials) == 12);
ABI_ASSERT(sizeof(cplatform_siginfo) == 16);
ABI_ASSERT(sizeof(cgpiod_edge_event) == 16);
ABI_ASSERT(sizeof(cbluez_adapter_facts) == 7);

#endif
