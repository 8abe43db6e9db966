#!/usr/bin/env bash
# The GPIO shim (Sources/CGPIOD) must build on libgpiod v1 (Debian 12, checked by `swift build`) and
# v2 (Debian 13). This stage compiles it, warnings as errors, against both: v1 from the installed
# libgpiod-dev, v2 from libgpiod 2.1's own sources (carried in the pinned Python bindings sdist,
# built by gpiod/build-v2.sh into a temporary static library), links a check program against each and runs it.
# No GPIO hardware is needed: the check covers the API choice and the failure path of a device that is no chip.
# Takes about 10 s (download ~50 kB, compile ~2 s).
. "$(dirname "$0")/preamble.bash"
here=Tests/stages/gpiod
work=$(mktemp -d /tmp/recoverydeck-gpiod-v2.XXXXXX)
trap 'rm -rf "$work"' EXIT
cflags=(-std=c11 -Wall -Wextra -Werror -O1)

echo "libgpiod v1: shim against the system header" >&2
cc "${cflags[@]}" -ISources/CGPIOD/include -c Sources/CGPIOD/CGPIOD.c -o "$work/shim-v1.o"
cc "${cflags[@]}" -ISources/CGPIOD/include "$here/shim-check.c" "$work/shim-v1.o" -lgpiod -o "$work/check-v1"
"$work/check-v1" 1 /dev/null

"$here/build-v2.sh" "$work"
cc "${cflags[@]}" -ISources/CGPIOD/include "$here/shim-check.c" "$work/shim-v2.o" "$work/libgpiod-v2.a" \
    -o "$work/check-v2"
"$work/check-v2" 2 /dev/null
echo "CGPIOD builds and links on libgpiod v1 and v2" >&2
