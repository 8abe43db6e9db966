/* Links against the CGPIOD shim and checks, without GPIO hardware, that the build chose the API the
 * header has and that a device that is not a GPIO chip fails cleanly: the expected major version in argv[1],
 * such a device in argv[2]. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "CGPIOD.h"

int main(int argc, char **argv) {
    int expected = argc > 1 ? atoi(argv[1]) : 0;
    int failures = 0;
    if (cgpiod_api_major() != expected) {
        fprintf(stderr, "shim compiled for API v%d, expected v%d\n", cgpiod_api_major(), expected);
        failures++;
    }
    const char *version = cgpiod_library_version();
    if (!version || version[0] != '0' + expected) {
        fprintf(stderr, "library version \"%s\" is not %d.x\n", version ? version : "(null)", expected);
        failures++;
    }
    errno = 0;
    cgpiod_chip *chip = cgpiod_chip_open(argc > 2 ? argv[2] : "/dev/null");
    if (chip) {
        fprintf(stderr, "a non-GPIO device opened as a chip\n");
        failures++;
    }
    printf("CGPIOD shim on libgpiod %s (API v%d): %s\n", version ? version : "?", cgpiod_api_major(),
           failures ? "FAILED" : "ok");
    return failures ? 1 : 0;
}
