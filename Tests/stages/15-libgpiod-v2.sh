#!/usr/bin/env bash
# The GPIO shim (Sources/CGPIOD) must build on libgpiod v1 (Debian 12, checked by `swift build`) and
# v2 (Debian 13). This stage compiles it, warnings as errors, against both: v1 from the installed
# libgpiod-dev, v2 from libgpiod 2.1's own sources (carried in the pinned Python bindings sdist,
# built here into a temporary static library), links a check program against each and runs it.
# No GPIO hardware is needed: the check covers the API choice and the label-search failure path.
# Takes about 10 s (download ~50 kB, compile ~2 s).
set -euo pipefail
cd "$(dirname "$0")/../.."
here=Tests/stages/gpiod
work=$(mktemp -d /tmp/recoverydeck-gpiod-v2.XXXXXX)
trap 'rm -rf "$work"' EXIT
cflags=(-std=c11 -Wall -Wextra -Werror -O1)

echo "libgpiod v1: shim against the system header" >&2
cc "${cflags[@]}" -ISources/CGPIOD/include -c Sources/CGPIOD/CGPIOD.c -o "$work/shim-v1.o"
cc "${cflags[@]}" -ISources/CGPIOD/include "$here/shim-check.c" "$work/shim-v1.o" -lgpiod -o "$work/check-v1"
mkdir -p "$work/empty"
"$work/check-v1" 1 "$work/empty" /dev/null
"$work/check-v1" 1 /dev /dev/null

echo "libgpiod v2: fetching the pinned sources" >&2
python3 -m pip download --quiet --disable-pip-version-check --no-deps --no-binary :all: --require-hashes \
    -r "$here/requirements.txt" -d "$work/dl"
tar -xzf "$work"/dl/gpiod-2.1.3.tar.gz -C "$work"
src="$work/gpiod-2.1.3"
if grep -q GPIOD_LINE_BULK_MAX_LINES "$src/include/gpiod.h"; then
    echo "the v2 header unexpectedly defines GPIOD_LINE_BULK_MAX_LINES (the shim's v1 marker)" >&2
    exit 1
fi
version=$(cat "$src/libgpiod-version.txt")
mkdir -p "$work/obj"
for f in "$src"/lib/*.c; do
    cc -std=gnu11 -O1 -D_GNU_SOURCE -DGPIOD_VERSION_STR="\"$version\"" -I"$src/include" -I"$src/lib" \
        -c "$f" -o "$work/obj/$(basename "$f" .c).o"
done
ar rcs "$work/libgpiod-v2.a" "$work"/obj/*.o

echo "libgpiod v2 ($version): shim against its header" >&2
cc "${cflags[@]}" -I"$src/include" -ISources/CGPIOD/include -c Sources/CGPIOD/CGPIOD.c -o "$work/shim-v2.o"
cc "${cflags[@]}" -ISources/CGPIOD/include "$here/shim-check.c" "$work/shim-v2.o" "$work/libgpiod-v2.a" \
    -o "$work/check-v2"
"$work/check-v2" 2 "$work/empty" /dev/null
"$work/check-v2" 2 /dev /dev/null
echo "CGPIOD builds and links on libgpiod v1 and v2" >&2
