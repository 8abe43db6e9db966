#!/usr/bin/env bash
# Builds libgpiod 2.1 (the series Debian 13 ships) from the C sources in the pinned Python-bindings sdist
# (requirements.txt) into a static library, and the GPIO shim (Sources/CGPIOD) against its header:
#   build-v2.sh OUT   → OUT/libgpiod-v2.a, OUT/shim-v2.o, OUT/version (the library's version string)
# Used by 15-libgpiod-v2 (the shim builds and links on v2) and 45-gpio-vm (the daemon linked against v2).
# Takes a few seconds (download ~50 kB, compile ~2 s). Warnings are errors for the shim.
set -euo pipefail
out=$1
repo=$(cd "$(dirname "$0")/../../.." && pwd)
here=$repo/Tests/stages/gpiod
mkdir -p "$out"
work=$(mktemp -d /tmp/recoverydeck-gpiod-v2.XXXXXX)
trap 'rm -rf "$work"' EXIT

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
    cc -std=gnu11 -O1 -fPIC -D_GNU_SOURCE -DGPIOD_VERSION_STR="\"$version\"" -I"$src/include" -I"$src/lib" \
        -c "$f" -o "$work/obj/$(basename "$f" .c).o"
done
rm -f "$out/libgpiod-v2.a"
ar rcs "$out/libgpiod-v2.a" "$work"/obj/*.o

echo "libgpiod v2 ($version): shim against its header" >&2
cc -std=c11 -Wall -Wextra -Werror -O1 -fPIC -I"$src/include" -I"$repo/Sources/CGPIOD/include" \
    -c "$repo/Sources/CGPIOD/CGPIOD.c" -o "$out/shim-v2.o"
echo "$version" > "$out/version"
