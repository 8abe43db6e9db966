#!/usr/bin/env bash
# Pi-ready C shims: compiles Sources/CBlueZ, CGPIOD, CPlatform and the CSQLite shim, warnings as errors, for
# the host and for aarch64-linux-gnu (clang-14 against Debian's arm64 headers and libraries, multiarch), each
# with Tests/abi/abi_asserts.h: a static assertion for every kernel constant and struct offset the Swift side
# and the shims rely on (HCIGETDEVINFO and struct hci_dev_info, the GPIO chip/line info ioctls and structs,
# struct timex's status, epoll, the Bluetooth address types, CAP_NET_ADMIN, ...). Then it links
# Tests/abi/shim_test.c against each build, runs the aarch64 one under qemu-user, and compares the layout
# figures both print with Tests/abi/expected-figures.txt (the values the Swift code and its tests expect).
# Installs what it lacks itself: clang-14, lld-14 and qemu-user-static (listed in deploy/dev-packages.txt) and
# the arm64 -dev packages, which are co-installable with the amd64 ones (Multi-Arch: same) but have no place on
# a Pi, so they are not listed there. Takes about 4 s with the packages present (compiles ~3 s, the qemu run
# <1 s); 23 s with clang-14, lld-14 and the arm64 runtime libraries to install from apt's cache (LLVM 14's
# library and the rest already there). From a bare Debian 12 the packages come to ~124 MB: most of the
# time is apt's download and unpacking, about a minute on a 2-core machine with a fast mirror.
. "$(dirname "$0")/preamble.bash"
start=$SECONDS
work=$(mktemp -d /tmp/recoverydeck-arm64-abi.XXXXXX)
trap 'rm -rf "$work"' EXIT

cross=(libc6-dev:arm64 linux-libc-dev:arm64 libbluetooth-dev:arm64 libgpiod-dev:arm64 libsqlite3-dev:arm64
    libgcc-12-dev:arm64)
native=(clang-14 lld-14 qemu-user-static gcc libc6-dev libbluetooth-dev libgpiod-dev libsqlite3-dev)
if [ "$(dpkg --print-architecture)" != arm64 ] && ! dpkg --print-foreign-architectures | grep -qx arm64; then
    [ "$(id -u)" = 0 ] || { echo "16-arm64-abi: adding the arm64 architecture needs root" >&2; exit 1; }
    dpkg --add-architecture arm64
fi
missing=()
for p in "${native[@]}" "${cross[@]}"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
    [ "$(id -u)" = 0 ] || { echo "16-arm64-abi: installing ${missing[*]} needs root" >&2; exit 1; }
    echo "16-arm64-abi: installing ${missing[*]}" >&2
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >&2
fi
apt_seconds=$((SECONDS - start))

includes=(-ISources/CBlueZ/include -ISources/CGPIOD/include -ISources/CPlatform/include -ISources/CSQLite -ITests/abi)
cflags=(-std=c11 -Wall -Wextra -Werror -O1 "${includes[@]}")
shims=(Sources/CBlueZ/CBlueZ.c Sources/CGPIOD/CGPIOD.c Sources/CPlatform/CPlatform.c)
libraries=(-lgpiod -lsqlite3)
arm64=(clang-14 --target=aarch64-linux-gnu)

# The cross build must read the arm64 headers (/usr/include/aarch64-linux-gnu: bits/, sys/, asm/), not the host's.
"${arm64[@]}" "${cflags[@]}" -M Tests/abi/abi_asserts.c >"$work/headers-arm64.txt"
for header in aarch64-linux-gnu/sys/timex.h aarch64-linux-gnu/asm/ioctl.h aarch64-linux-gnu/bits/wordsize.h; do
    grep -q "/usr/include/$header" "$work/headers-arm64.txt" || {
        echo "16-arm64-abi: the aarch64 build does not read /usr/include/$header" >&2
        exit 1
    }
done
if grep -q x86_64-linux-gnu "$work/headers-arm64.txt"; then
    echo "16-arm64-abi: the aarch64 build reads x86-64 headers" >&2
    exit 1
fi

for target in host arm64; do
    if [ $target = host ]; then
        compile=(cc)
        link=(cc)
    else
        compile=("${arm64[@]}")
        link=("${arm64[@]}" -fuse-ld=lld)
    fi
    echo "16-arm64-abi: $target: the shims and the assertions" >&2
    "${compile[@]}" "${cflags[@]}" -c Tests/abi/abi_asserts.c -o "$work/asserts-$target.o"
    for shim in "${shims[@]}"; do
        "${compile[@]}" "${cflags[@]}" -c "$shim" -o "$work/$(basename "$shim" .c)-$target.o"
    done
    "${compile[@]}" "${cflags[@]}" -c Tests/abi/shim_test.c -o "$work/shim_test-$target.o"
    "${link[@]}" "$work"/*-"$target".o "${libraries[@]}" -o "$work/shim-test-$target"
done
# The aarch64 program really is one (and linked against the arm64 libraries, or the link had failed).
head -c 20 "$work/shim-test-arm64" | od -An -tx1 | tr -d ' \n' | grep -q '^7f454c460201.*b700$' || {
    echo "16-arm64-abi: the cross build is not an aarch64 ELF executable" >&2
    exit 1
}

"$work/shim-test-host" >"$work/figures-host.txt"
qemu-aarch64-static "$work/shim-test-arm64" >"$work/figures-arm64.txt"
grep -v '^#' Tests/abi/expected-figures.txt >"$work/expected.txt"
for target in host arm64; do
    diff -u "$work/expected.txt" "$work/figures-$target.txt" || {
        echo "16-arm64-abi: the $target layout figures differ from Tests/abi/expected-figures.txt (above)" >&2
        exit 1
    }
done
echo "16-arm64-abi: $(wc -l <"$work/expected.txt") figures agree on the host and on aarch64 (qemu-user);" \
    "apt ${apt_seconds} s, total $((SECONDS - start)) s" >&2
