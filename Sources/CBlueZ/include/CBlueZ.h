/*
 * CBlueZ: the kernel Bluetooth socket interface, as static inline wrappers Swift can call.
 * Headers come from libbluetooth-dev; libbluetooth itself is never linked (only socket(2) calls,
 * constants and address structures are used). Every function returns -1 with errno set on failure.
 * Addresses are 6 bytes in wire order (least significant byte first), as in bdaddr_t.
 */
#ifndef CBLUEZ_H
#define CBLUEZ_H

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <fcntl.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <bluetooth/bluetooth.h>
#include <bluetooth/hci.h>
#include <bluetooth/l2cap.h>

/* The fixed L2CAP channel of the Attribute Protocol on LE links (Bluetooth Core 5.3 Vol 3 Part A §2.1). */
#define CBLUEZ_ATT_CID 4
#define CBLUEZ_HCI_DEV_NONE 0xffff

/* Address types of sockaddr_l2.l2_bdaddr_type (the same numbers the management interface uses). */
#define CBLUEZ_ADDR_BREDR BDADDR_BREDR
#define CBLUEZ_ADDR_LE_PUBLIC BDADDR_LE_PUBLIC
#define CBLUEZ_ADDR_LE_RANDOM BDADDR_LE_RANDOM

static inline void cbluez_close_keeping_errno(int fd) {
    int saved = errno;
    close(fd);
    errno = saved;
}

/* Binds an HCI socket to a device and channel; returns fd, or -1 (the socket closed) on failure. */
static inline int cbluez_hci_bind(int fd, uint16_t dev, uint16_t channel) {
    struct sockaddr_hci address;
    memset(&address, 0, sizeof address);
    address.hci_family = AF_BLUETOOTH;
    address.hci_dev = dev;
    address.hci_channel = channel;
    if (bind(fd, (struct sockaddr *)&address, sizeof address) < 0) {
        cbluez_close_keeping_errno(fd);
        return -1;
    }
    return fd;
}

/* The management interface: a raw HCI socket bound to HCI_CHANNEL_CONTROL on no device.
 * Without CAP_NET_ADMIN the kernel opens it "untrusted": only read commands are allowed. */
static inline int cbluez_management_socket(void) {
    int fd = socket(PF_BLUETOOTH, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, BTPROTO_HCI);
    if (fd < 0) return -1;
    return cbluez_hci_bind(fd, CBLUEZ_HCI_DEV_NONE, HCI_CHANNEL_CONTROL);
}

/* A non-blocking L2CAP socket for LE (SOCK_SEQPACKET: one ATT PDU per record). */
static inline int cbluez_l2cap_socket(void) {
    return socket(PF_BLUETOOTH, SOCK_SEQPACKET | SOCK_CLOEXEC | SOCK_NONBLOCK, BTPROTO_L2CAP);
}

static inline struct sockaddr_l2 cbluez_sockaddr_l2(const uint8_t address[6], uint8_t addressType, uint16_t cid) {
    struct sockaddr_l2 l2;
    memset(&l2, 0, sizeof l2);
    l2.l2_family = AF_BLUETOOTH;
    memcpy(&l2.l2_bdaddr, address, 6);
    l2.l2_cid = htobs(cid);
    l2.l2_bdaddr_type = addressType;
    return l2;
}

/* Binds to a local adapter address with an LE address type and a fixed channel (CID). */
static inline int cbluez_l2cap_bind(int fd, const uint8_t address[6], uint8_t addressType, uint16_t cid) {
    struct sockaddr_l2 l2 = cbluez_sockaddr_l2(address, addressType, cid);
    return bind(fd, (struct sockaddr *)&l2, sizeof l2);
}

/* Starts connecting to a peer; on a non-blocking socket -1/EINPROGRESS means "wait for writable". */
static inline int cbluez_l2cap_connect(int fd, const uint8_t address[6], uint8_t addressType, uint16_t cid) {
    struct sockaddr_l2 l2 = cbluez_sockaddr_l2(address, addressType, cid);
    return connect(fd, (struct sockaddr *)&l2, sizeof l2);
}

/* Accepts one connection (non-blocking, close-on-exec) and reports the peer's address and type. */
static inline int cbluez_l2cap_accept(int fd, uint8_t peer[6], uint8_t *peerType) {
    struct sockaddr_l2 l2;
    socklen_t length = sizeof l2;
    memset(&l2, 0, sizeof l2);
    int client = accept(fd, (struct sockaddr *)&l2, &length);
    if (client < 0) return -1;
    if (fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK) < 0
        || fcntl(client, F_SETFD, FD_CLOEXEC) < 0) {
        cbluez_close_keeping_errno(client);
        return -1;
    }
    memcpy(peer, &l2.l2_bdaddr, 6);
    *peerType = l2.l2_bdaddr_type;
    return client;
}

/* A raw HCI socket on controller `dev` (HCI_CHANNEL_RAW; needs CAP_NET_RAW), seeing every event
 * and, since binding makes the device promiscuous, the ACL data it receives. For the virtual
 * strap's peripheral-side commands, which the management interface does not offer. */
static inline int cbluez_hci_raw_socket(uint16_t dev) {
    int fd = socket(PF_BLUETOOTH, SOCK_RAW | SOCK_CLOEXEC | SOCK_NONBLOCK, BTPROTO_HCI);
    if (fd < 0) return -1;
    struct hci_filter filter;
    memset(&filter, 0, sizeof filter);
    filter.type_mask = (1u << HCI_EVENT_PKT) | (1u << HCI_ACLDATA_PKT);
    filter.event_mask[0] = 0xffffffffu;
    filter.event_mask[1] = 0xffffffffu;
    if (setsockopt(fd, SOL_HCI, HCI_FILTER, &filter, sizeof filter) < 0) {
        cbluez_close_keeping_errno(fd);
        return -1;
    }
    return cbluez_hci_bind(fd, dev, HCI_CHANNEL_RAW);
}

/* The HCI connection handle under a connected L2CAP socket (L2CAP_CONNINFO). */
static inline int cbluez_l2cap_connection_handle(int fd) {
    struct l2cap_conninfo info;
    socklen_t length = sizeof info;
    memset(&info, 0, sizeof info);
    if (getsockopt(fd, SOL_L2CAP, L2CAP_CONNINFO, &info, &length) < 0) return -1;
    return info.hci_handle;
}

/* What `recoverydeck doctor` reads of one controller (HCIGETDEVINFO on a raw HCI socket). */
typedef struct {
    /* The controller's address, least significant byte first (bdaddr_t). */
    uint8_t address[6];
    /* 1 when the controller is up (HCI_UP in the device flags). */
    uint8_t is_up;
} cbluez_adapter_facts;

/* Fills `out` for controller `dev` (hciN); -1 with errno when there is no such controller or no
 * Bluetooth in the kernel. The ioctl number and struct hci_dev_info come from <bluetooth/hci.h>. */
static inline int cbluez_adapter_facts_read(uint16_t dev, cbluez_adapter_facts *out) {
    int fd = socket(PF_BLUETOOTH, SOCK_RAW | SOCK_CLOEXEC, BTPROTO_HCI);
    if (fd < 0) return -1;
    struct hci_dev_info info;
    memset(&info, 0, sizeof info);
    info.dev_id = dev;
    int result = ioctl(fd, HCIGETDEVINFO, &info);
    cbluez_close_keeping_errno(fd);
    if (result < 0) return -1;
    memcpy(out->address, &info.bdaddr, 6);
    out->is_up = (info.flags & (1u << HCI_UP)) != 0;
    return 0;
}

/* The pending error of a socket (SO_ERROR): 0 when a non-blocking connect succeeded. */
static inline int cbluez_socket_error(int fd) {
    int value = 0;
    socklen_t length = sizeof value;
    if (getsockopt(fd, SOL_SOCKET, SO_ERROR, &value, &length) < 0) return -1;
    return value;
}

#endif
