/* One small GPIO API over libgpiod, whichever major version the build machine's <gpiod.h> is:
 * v1 (1.6: Debian 12, Raspberry Pi OS bookworm) or v2 (2.x: Debian 13). The choice is made at compile
 * time in CGPIOD.c; this header does not include <gpiod.h>, so Swift sees the same API on both.
 * Failures return NULL or -1 with errno set, as libgpiod does. */
#ifndef CGPIOD_H
#define CGPIOD_H

#include <stddef.h>
#include <stdint.h>

typedef struct cgpiod_chip cgpiod_chip;
typedef struct cgpiod_request cgpiod_request;

typedef enum {
    CGPIOD_BIAS_AS_IS = 0,
    CGPIOD_BIAS_DISABLED = 1,
    CGPIOD_BIAS_PULL_UP = 2,
    CGPIOD_BIAS_PULL_DOWN = 3,
} cgpiod_bias;

typedef enum {
    CGPIOD_EDGE_NONE = 0,
    CGPIOD_EDGE_RISING = 1,
    CGPIOD_EDGE_FALLING = 2,
    CGPIOD_EDGE_BOTH = 3,
} cgpiod_edge;

typedef struct {
    /* Kernel timestamp of the edge, CLOCK_MONOTONIC on kernels ≥ 5.7 with either API. */
    uint64_t timestamp_ns;
    uint32_t offset;
    /* 1 for a rising edge (line went high), 0 for a falling edge. */
    int32_t rising;
} cgpiod_edge_event;

/* 1 or 2: which libgpiod API this build was compiled against. */
int cgpiod_api_major(void);
/* The linked library's own version string. */
const char *cgpiod_library_version(void);

/* Opens the chip device at `path` (e.g. "/dev/gpiochip0"). */
cgpiod_chip *cgpiod_chip_open(const char *path);
/* The label the kernel driver gives the chip ("pinctrl-rp1" on a Raspberry Pi 5). */
const char *cgpiod_chip_label(cgpiod_chip *chip);
unsigned int cgpiod_chip_num_lines(cgpiod_chip *chip);
/* Release every request made on the chip first. */
void cgpiod_chip_close(cgpiod_chip *chip);

/* One input line with bias and edge detection. */
cgpiod_request *cgpiod_request_input(cgpiod_chip *chip, const char *consumer, unsigned int offset,
                                     cgpiod_bias bias, cgpiod_edge edge);
/* One output line driven to `value` (0 or 1) from the moment it is requested; `open_drain` nonzero: it drives
 * low only, and a high value releases the line (the kernel emulates this where the pin has no such mode). */
cgpiod_request *cgpiod_request_output(cgpiod_chip *chip, const char *consumer, unsigned int offset, int value,
                                      int open_drain);
/* A descriptor that is readable while edge events are pending; -1 for a request without edge detection. */
int cgpiod_request_fd(cgpiod_request *request);
/* 0 or 1; -1 on failure. */
int cgpiod_request_get_value(cgpiod_request *request);
int cgpiod_request_set_value(cgpiod_request *request, int value);
/* Reads up to `capacity` pending edge events without blocking; returns the count (0 when none). */
int cgpiod_request_read_events(cgpiod_request *request, cgpiod_edge_event *out, int capacity);
void cgpiod_request_release(cgpiod_request *request);

/* What `recoverydeck doctor` reads of a chip and its lines straight from the kernel (the character
 * device's v1 ioctls, <linux/gpio.h>), on a descriptor of /dev/gpiochipN opened read-only; no line is
 * requested. Strings are NUL-terminated. -1 with errno on failure. */
typedef struct {
    char label[33];
    uint32_t lines;
} cgpiod_chip_facts;

typedef struct {
    /* 1 when the line is in use (GPIOLINE_FLAG_KERNEL: by a driver or another process). */
    int32_t used;
    char consumer[33];
} cgpiod_line_facts;

int cgpiod_chip_facts_read(int fd, cgpiod_chip_facts *out);
int cgpiod_line_facts_read(int fd, uint32_t offset, cgpiod_line_facts *out);

#endif
