#!/usr/bin/env bash
# The virtual strap (h10sim) for the arm64 box's bench: cross-built for aarch64 exactly as
# `deploy/build-deb --arch arm64` builds the box's programs (the same trixie root, Swift 6.0.3, static runtime),
# since the image has no Swift runtime. Kept in OUT_DIR, keyed by the committed sources.
#
#   build-h10sim.sh OUT_DIR   → prints the path of the aarch64 h10sim (OUT_DIR/h10sim-arm64-KEY/h10sim)
set -euo pipefail
repo=$(cd "$(dirname "$0")/../.." && pwd)
out=$1
mkdir -p "$out"
key=$(git -C "$repo" rev-parse HEAD:Sources HEAD:Package.swift | sha256sum | cut -c1-12)
exe=$out/h10sim-arm64-$key/h10sim
if [ -x "$exe" ]; then echo "$exe"; exit 0; fi
troot=$("$repo/deploy/trixie-root" --cross arm64)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir "$work/tree"
git -C "$repo" ls-files -z | (cd "$repo" && tar --null -cf - -T -) | tar -C "$work/tree" -xf -
echo "arm64box: cross-building h10sim for aarch64 in $troot" >&2
"$repo/deploy/in-root" "$troot" --src "$work" "cd tree && swift build -c release --product h10sim --triple aarch64-unknown-linux-gnu \
    --static-swift-stdlib --scratch-path /src/tree/.build-arm64 --pkg-config-path /usr/lib/aarch64-linux-gnu/pkgconfig \
    -Xswiftc -resource-dir -Xswiftc /opt/swift-aarch64/usr/libexec/swift/lib/swift_static -Xswiftc -use-ld=lld \
    -Xlinker -z -Xlinker max-page-size=65536 >&2 && aarch64-linux-gnu-strip --strip-unneeded .build-arm64/aarch64-unknown-linux-gnu/release/h10sim"
rm -rf "$out"/h10sim-arm64-*
install -D -m 0755 "$work/tree/.build-arm64/aarch64-unknown-linux-gnu/release/h10sim" "$exe"
echo "$exe"
