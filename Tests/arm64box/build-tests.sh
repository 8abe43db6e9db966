#!/usr/bin/env bash
# The whole test suite cross-built for aarch64 (debug, with the tests) in the Debian 13 root
# (deploy/trixie-root --cross arm64: Debian's swiftlang 6.0.3, the arm64 libraries by multiarch, the aarch64
# Swift runtime from swiftlang:arm64 and libswiftlang:arm64), with the shared runtime: Swift Testing has no
# static library. Stage 18 runs the suite under qemu-user; the arm64 box (stage 36) runs in its VM the tests
# qemu-user cannot run.
#
#   build-tests.sh ROOT   → prints the kept folder: tree/ (the sources), scratch/ (the build; the test binary
#                           is scratch/aarch64-unknown-linux-gnu/debug/RecoveryDeckPackageTests.xctest)
#
# The build is kept between runs beside the root (a CI clone starts without .build), one build at a time
# (an exclusive lock on FOLDER.lock; whoever runs or copies the binary holds a shared one). The sources are
# copied over the kept ones file by file, and only where they differ: an unchanged file keeps its inode and
# time, so SwiftPM rebuilds only what changed since the last build on this machine.
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
cd "$repo"
root=$1
work=${RECOVERYDECK_CACHE:-/var/cache/recoverydeck}/arm64-tests
mkdir -p "$work/tree"
exec 9>"$work.lock"
flock 9
fresh=$(mktemp -d /tmp/recoverydeck-arm64-tests.XXXXXX)
trap 'rm -rf "$fresh"' EXIT
git ls-files -z | tar --null -cf - -T - | tar -C "$fresh" -xf -
(cd "$fresh" && find . -type f) | while IFS= read -r file; do
    cmp -s "$fresh/$file" "$work/tree/$file" || { mkdir -p "$(dirname "$work/tree/$file")" && cp -p "$fresh/$file" "$work/tree/$file"; }
done
(cd "$work/tree" && find . -type f) | while IFS= read -r file; do [ -e "$fresh/$file" ] || rm -f "$work/tree/$file"; done

# The cross flags of deploy/build-deb --arch arm64 (it says why each is needed), with the shared runtime; a
# failed build fails here, before a test binary kept from an earlier run could be run.
deploy/in-root "$root" --src "$work" 'set -o pipefail; cd tree && swift build --build-tests --triple aarch64-unknown-linux-gnu \
    --scratch-path /src/scratch --pkg-config-path /usr/lib/aarch64-linux-gnu/pkgconfig \
    -Xswiftc -resource-dir -Xswiftc /opt/swift-aarch64/usr/libexec/swift/lib/swift -Xswiftc -use-ld=lld 2>&1 | tail -3' >&2
[ -x "$work/scratch/aarch64-unknown-linux-gnu/debug/RecoveryDeckPackageTests.xctest" ] \
    || { echo "build-tests: the arm64 test binary was not built" >&2; exit 1; }
echo "$work"
