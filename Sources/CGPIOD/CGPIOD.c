/* libgpiod v1 and v2 behind CGPIOD.h. The API is chosen from the header itself: v1's <gpiod.h> defines
 * the macro GPIOD_LINE_BULK_MAX_LINES (its line-bulk type), which v2 removed along with line bulks. */
#define _GNU_SOURCE
#include "CGPIOD.h"

#include <errno.h>
#include <gpiod.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/gpio.h>
#include <sys/ioctl.h>

#if defined(GPIOD_LINE_BULK_MAX_LINES)
#define CGPIOD_V1 1
#else
#define CGPIOD_V2 1
#endif

enum { CGPIOD_EVENT_BATCH = 16 };

#if defined(CGPIOD_V1)

struct cgpiod_chip {
    struct gpiod_chip *chip;
};

struct cgpiod_request {
    struct gpiod_line *line;
    int has_events;
};

int cgpiod_api_major(void) { return 1; }

const char *cgpiod_library_version(void) { return gpiod_version_string(); }

cgpiod_chip *cgpiod_chip_open(const char *path) {
    struct gpiod_chip *raw = gpiod_chip_open(path);
    if (!raw) return NULL;
    cgpiod_chip *chip = calloc(1, sizeof *chip);
    if (!chip) {
        gpiod_chip_close(raw);
        errno = ENOMEM;
        return NULL;
    }
    chip->chip = raw;
    return chip;
}

const char *cgpiod_chip_label(cgpiod_chip *chip) { return gpiod_chip_label(chip->chip); }

unsigned int cgpiod_chip_num_lines(cgpiod_chip *chip) { return gpiod_chip_num_lines(chip->chip); }

void cgpiod_chip_close(cgpiod_chip *chip) {
    if (!chip) return;
    gpiod_chip_close(chip->chip);
    free(chip);
}

static int v1_bias_flags(cgpiod_bias bias) {
    switch (bias) {
    case CGPIOD_BIAS_DISABLED: return GPIOD_LINE_REQUEST_FLAG_BIAS_DISABLE;
    case CGPIOD_BIAS_PULL_UP: return GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_UP;
    case CGPIOD_BIAS_PULL_DOWN: return GPIOD_LINE_REQUEST_FLAG_BIAS_PULL_DOWN;
    default: return 0;
    }
}

static int v1_request_type(cgpiod_edge edge) {
    switch (edge) {
    case CGPIOD_EDGE_RISING: return GPIOD_LINE_REQUEST_EVENT_RISING_EDGE;
    case CGPIOD_EDGE_FALLING: return GPIOD_LINE_REQUEST_EVENT_FALLING_EDGE;
    case CGPIOD_EDGE_BOTH: return GPIOD_LINE_REQUEST_EVENT_BOTH_EDGES;
    default: return GPIOD_LINE_REQUEST_DIRECTION_INPUT;
    }
}

static cgpiod_request *v1_request(cgpiod_chip *chip, const char *consumer, unsigned int offset, int type, int flags,
                                  int value, int has_events) {
    struct gpiod_line *line = gpiod_chip_get_line(chip->chip, offset);
    if (!line) return NULL;
    struct gpiod_line_request_config config = {.consumer = consumer, .request_type = type, .flags = flags};
    if (gpiod_line_request(line, &config, value) != 0) return NULL;
    cgpiod_request *request = calloc(1, sizeof *request);
    if (!request) {
        gpiod_line_release(line);
        errno = ENOMEM;
        return NULL;
    }
    request->line = line;
    request->has_events = has_events;
    return request;
}

cgpiod_request *cgpiod_request_input(cgpiod_chip *chip, const char *consumer, unsigned int offset, cgpiod_bias bias,
                                     cgpiod_edge edge) {
    return v1_request(chip, consumer, offset, v1_request_type(edge), v1_bias_flags(bias), 0,
                      edge != CGPIOD_EDGE_NONE);
}

cgpiod_request *cgpiod_request_output(cgpiod_chip *chip, const char *consumer, unsigned int offset, int value,
                                      int open_drain) {
    return v1_request(chip, consumer, offset, GPIOD_LINE_REQUEST_DIRECTION_OUTPUT,
                      open_drain ? GPIOD_LINE_REQUEST_FLAG_OPEN_DRAIN : 0, value ? 1 : 0, 0);
}

int cgpiod_request_fd(cgpiod_request *request) {
    if (!request->has_events) {
        errno = EPERM;
        return -1;
    }
    return gpiod_line_event_get_fd(request->line);
}

int cgpiod_request_get_value(cgpiod_request *request) { return gpiod_line_get_value(request->line); }

int cgpiod_request_set_value(cgpiod_request *request, int value) {
    return gpiod_line_set_value(request->line, value ? 1 : 0);
}

int cgpiod_request_read_events(cgpiod_request *request, cgpiod_edge_event *out, int capacity) {
    if (!request->has_events) {
        errno = EPERM;
        return -1;
    }
    struct timespec zero = {0, 0};
    int pending = gpiod_line_event_wait(request->line, &zero);
    if (pending <= 0) return pending;
    struct gpiod_line_event events[CGPIOD_EVENT_BATCH];
    if (capacity > CGPIOD_EVENT_BATCH) capacity = CGPIOD_EVENT_BATCH;
    int n = gpiod_line_event_read_multiple(request->line, events, (unsigned int)capacity);
    for (int i = 0; i < n; i++) {
        out[i].timestamp_ns = (uint64_t)events[i].ts.tv_sec * 1000000000u + (uint64_t)events[i].ts.tv_nsec;
        out[i].offset = gpiod_line_offset(request->line);
        out[i].rising = events[i].event_type == GPIOD_LINE_EVENT_RISING_EDGE;
    }
    return n;
}

void cgpiod_request_release(cgpiod_request *request) {
    if (!request) return;
    gpiod_line_release(request->line);
    free(request);
}

#else /* CGPIOD_V2 */

struct cgpiod_chip {
    struct gpiod_chip *chip;
    char *label;
    unsigned int num_lines;
};

struct cgpiod_request {
    struct gpiod_line_request *request;
    struct gpiod_edge_event_buffer *events;
    unsigned int offset;
};

int cgpiod_api_major(void) { return 2; }

const char *cgpiod_library_version(void) { return gpiod_api_version(); }

cgpiod_chip *cgpiod_chip_open(const char *path) {
    struct gpiod_chip *raw = gpiod_chip_open(path);
    if (!raw) return NULL;
    struct gpiod_chip_info *info = gpiod_chip_get_info(raw);
    if (!info) {
        gpiod_chip_close(raw);
        return NULL;
    }
    cgpiod_chip *chip = calloc(1, sizeof *chip);
    char *label = strdup(gpiod_chip_info_get_label(info));
    if (!chip || !label) {
        free(chip);
        free(label);
        gpiod_chip_info_free(info);
        gpiod_chip_close(raw);
        errno = ENOMEM;
        return NULL;
    }
    chip->chip = raw;
    chip->label = label;
    chip->num_lines = (unsigned int)gpiod_chip_info_get_num_lines(info);
    gpiod_chip_info_free(info);
    return chip;
}

const char *cgpiod_chip_label(cgpiod_chip *chip) { return chip->label; }

unsigned int cgpiod_chip_num_lines(cgpiod_chip *chip) { return chip->num_lines; }

void cgpiod_chip_close(cgpiod_chip *chip) {
    if (!chip) return;
    gpiod_chip_close(chip->chip);
    free(chip->label);
    free(chip);
}

static enum gpiod_line_bias v2_bias(cgpiod_bias bias) {
    switch (bias) {
    case CGPIOD_BIAS_DISABLED: return GPIOD_LINE_BIAS_DISABLED;
    case CGPIOD_BIAS_PULL_UP: return GPIOD_LINE_BIAS_PULL_UP;
    case CGPIOD_BIAS_PULL_DOWN: return GPIOD_LINE_BIAS_PULL_DOWN;
    default: return GPIOD_LINE_BIAS_AS_IS;
    }
}

static enum gpiod_line_edge v2_edge(cgpiod_edge edge) {
    switch (edge) {
    case CGPIOD_EDGE_RISING: return GPIOD_LINE_EDGE_RISING;
    case CGPIOD_EDGE_FALLING: return GPIOD_LINE_EDGE_FALLING;
    case CGPIOD_EDGE_BOTH: return GPIOD_LINE_EDGE_BOTH;
    default: return GPIOD_LINE_EDGE_NONE;
    }
}

/* Builds the three configuration objects v2 asks for, requests the one line, frees the objects. */
static cgpiod_request *v2_request(cgpiod_chip *chip, const char *consumer, unsigned int offset,
                                  struct gpiod_line_settings *settings, int wants_events) {
    struct gpiod_line_config *line_config = gpiod_line_config_new();
    struct gpiod_request_config *request_config = gpiod_request_config_new();
    cgpiod_request *result = NULL;
    int saved = 0;
    if (!line_config || !request_config) {
        saved = ENOMEM;
        goto done;
    }
    if (gpiod_line_config_add_line_settings(line_config, &offset, 1, settings) != 0) {
        saved = errno;
        goto done;
    }
    gpiod_request_config_set_consumer(request_config, consumer);
    struct gpiod_line_request *request = gpiod_chip_request_lines(chip->chip, request_config, line_config);
    if (!request) {
        saved = errno;
        goto done;
    }
    result = calloc(1, sizeof *result);
    struct gpiod_edge_event_buffer *events = wants_events ? gpiod_edge_event_buffer_new(CGPIOD_EVENT_BATCH) : NULL;
    if (!result || (wants_events && !events)) {
        free(result);
        result = NULL;
        if (events) gpiod_edge_event_buffer_free(events);
        gpiod_line_request_release(request);
        saved = ENOMEM;
        goto done;
    }
    result->request = request;
    result->events = events;
    result->offset = offset;
done:
    if (line_config) gpiod_line_config_free(line_config);
    if (request_config) gpiod_request_config_free(request_config);
    gpiod_line_settings_free(settings);
    if (!result) errno = saved;
    return result;
}

cgpiod_request *cgpiod_request_input(cgpiod_chip *chip, const char *consumer, unsigned int offset, cgpiod_bias bias,
                                     cgpiod_edge edge) {
    struct gpiod_line_settings *settings = gpiod_line_settings_new();
    if (!settings) return NULL;
    if (gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_INPUT) != 0 ||
        gpiod_line_settings_set_bias(settings, v2_bias(bias)) != 0 ||
        gpiod_line_settings_set_edge_detection(settings, v2_edge(edge)) != 0 ||
        gpiod_line_settings_set_event_clock(settings, GPIOD_LINE_CLOCK_MONOTONIC) != 0) {
        int saved = errno;
        gpiod_line_settings_free(settings);
        errno = saved;
        return NULL;
    }
    return v2_request(chip, consumer, offset, settings, edge != CGPIOD_EDGE_NONE);
}

cgpiod_request *cgpiod_request_output(cgpiod_chip *chip, const char *consumer, unsigned int offset, int value,
                                      int open_drain) {
    struct gpiod_line_settings *settings = gpiod_line_settings_new();
    if (!settings) return NULL;
    if (gpiod_line_settings_set_direction(settings, GPIOD_LINE_DIRECTION_OUTPUT) != 0 ||
        gpiod_line_settings_set_drive(settings, open_drain ? GPIOD_LINE_DRIVE_OPEN_DRAIN : GPIOD_LINE_DRIVE_PUSH_PULL) !=
            0 ||
        gpiod_line_settings_set_output_value(settings, value ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE) !=
            0) {
        int saved = errno;
        gpiod_line_settings_free(settings);
        errno = saved;
        return NULL;
    }
    return v2_request(chip, consumer, offset, settings, 0);
}

int cgpiod_request_fd(cgpiod_request *request) {
    if (!request->events) {
        errno = EPERM;
        return -1;
    }
    return gpiod_line_request_get_fd(request->request);
}

int cgpiod_request_get_value(cgpiod_request *request) {
    enum gpiod_line_value value = gpiod_line_request_get_value(request->request, request->offset);
    if (value == GPIOD_LINE_VALUE_ERROR) return -1;
    return value == GPIOD_LINE_VALUE_ACTIVE ? 1 : 0;
}

int cgpiod_request_set_value(cgpiod_request *request, int value) {
    return gpiod_line_request_set_value(request->request, request->offset,
                                        value ? GPIOD_LINE_VALUE_ACTIVE : GPIOD_LINE_VALUE_INACTIVE);
}

int cgpiod_request_read_events(cgpiod_request *request, cgpiod_edge_event *out, int capacity) {
    if (!request->events) {
        errno = EPERM;
        return -1;
    }
    int pending = gpiod_line_request_wait_edge_events(request->request, 0);
    if (pending <= 0) return pending;
    if (capacity > CGPIOD_EVENT_BATCH) capacity = CGPIOD_EVENT_BATCH;
    int n = gpiod_line_request_read_edge_events(request->request, request->events, (size_t)capacity);
    for (int i = 0; i < n; i++) {
        struct gpiod_edge_event *event = gpiod_edge_event_buffer_get_event(request->events, (unsigned long)i);
        out[i].timestamp_ns = gpiod_edge_event_get_timestamp_ns(event);
        out[i].offset = gpiod_edge_event_get_line_offset(event);
        out[i].rising = gpiod_edge_event_get_event_type(event) == GPIOD_EDGE_EVENT_RISING_EDGE;
    }
    return n;
}

void cgpiod_request_release(cgpiod_request *request) {
    if (!request) return;
    gpiod_line_request_release(request->request);
    if (request->events) gpiod_edge_event_buffer_free(request->events);
    free(request);
}

#endif

int cgpiod_chip_facts_read(int fd, cgpiod_chip_facts *out) {
    struct gpiochip_info info;
    memset(&info, 0, sizeof info);
    if (ioctl(fd, GPIO_GET_CHIPINFO_IOCTL, &info) < 0) return -1;
    memset(out, 0, sizeof *out);
    memcpy(out->label, info.label, sizeof info.label);
    out->lines = info.lines;
    return 0;
}

int cgpiod_line_facts_read(int fd, uint32_t offset, cgpiod_line_facts *out) {
    struct gpioline_info info;
    memset(&info, 0, sizeof info);
    info.line_offset = offset;
    if (ioctl(fd, GPIO_GET_LINEINFO_IOCTL, &info) < 0) return -1;
    memset(out, 0, sizeof *out);
    out->used = (info.flags & GPIOLINE_FLAG_KERNEL) != 0;
    memcpy(out->consumer, info.consumer, sizeof info.consumer);
    return 0;
}
