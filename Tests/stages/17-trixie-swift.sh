#!/usr/bin/env bash
# The box as a Raspberry Pi OS owner builds it: in a Debian 13 "trixie" root (deploy/trixie-root: mmdebstrap from
# Debian's archive, the machine's own apt sources untouched) with Debian's own Swift, swiftlang 6.0.3, and
# libgpiod 2: the whole test suite built and run there, the demo run, and then the arm64 package cross-built
# there with `deploy/build-deb --arch arm64` (a release build with 6.0.3: static Swift runtime, LOAD segments
# aligned to 64 KiB, dpkg-shlibdeps for arm64), checked with readelf and dpkg-deb, and kept for the run
# (RECOVERYDECK_ARTIFACTS, default .build/artifacts). The root is made once and kept in /var/cache/recoverydeck
# (about 3 minutes and 1 GB of downloads the first time).
. "$(dirname "$0")/preamble.bash"
command -v mmdebstrap >/dev/null || { echo "17-trixie-swift: mmdebstrap is missing (deploy/dev-packages.txt)" >&2; exit 1; }
root=$(deploy/trixie-root --cross arm64)
echo "17-trixie-swift: $(deploy/in-root "$root" 'swift --version 2>&1 | head -1') in $root" >&2

# The sources as committed, copied: the root's build must not share .build with the host's Swift 6.3.
work=$(mktemp -d /tmp/recoverydeck-trixie.XXXXXX)
trap 'rm -rf "$work"' EXIT
git ls-files -z | tar --null -cf - -T - | tar -C "$work" -xf -

t0=$SECONDS
deploy/in-root "$root" --src "$work" 'swift build --build-tests 2>&1 | tail -3' >&2
t1=$SECONDS
# Each failure's lines and swift test's closing lines; its exit status is the stage's.
deploy/in-root "$root" --src "$work" 'swift test --skip-build >/tmp/test.log 2>&1; rc=$?
    grep -E -A6 "recorded an issue|error:|fatal|Fatal" /tmp/test.log | head -150; tail -3 /tmp/test.log; exit $rc' >&2
t2=$SECONDS
demo=$(deploy/in-root "$root" --src "$work" '.build/debug/recoverydeck demo --speed 40 2>&1 | tail -5')
echo "$demo" >&2
t3=$SECONDS

artifacts=${RECOVERYDECK_ARTIFACTS:-$repo/.build/artifacts}
mkdir -p "$artifacts"
deb=$(deploy/build-deb --arch arm64 --out "$artifacts")
t4=$SECONDS
echo "17-trixie-swift: $deb" >&2
info=$(dpkg-deb --field "$deb" Architecture Depends)
echo "$info" >&2
grep -qx 'Architecture: arm64' <<<"$info" || { echo "17-trixie-swift: the package is not for arm64" >&2; exit 1; }
grep -q 'libgpiod3' <<<"$info" || { echo "17-trixie-swift: the package does not depend on trixie's libgpiod3" >&2; exit 1; }
unpacked="$work/deb"
dpkg-deb -x "$deb" "$unpacked"
for exe in recoverydeck recoverydeckd; do
    file=$unpacked/usr/bin/$exe
    header=$(readelf -hW "$file")
    grep -q 'Machine:.*AArch64' <<<"$header" || { echo "17-trixie-swift: $exe is not an AArch64 program" >&2; exit 1; }
    # Every LOAD segment aligned to at least 16 KiB (a Pi 5's pages); build-deb asks for 64 KiB.
    while read -r align; do
        [ $((align)) -ge 65536 ] || { echo "17-trixie-swift: $exe has a LOAD segment aligned to $align" >&2; exit 1; }
    done < <(readelf -lW "$file" | awk '$1 == "LOAD" {print $NF}')
    # No Swift runtime library is needed at run time: the Pi gets no toolchain.
    if readelf -dW "$file" | grep -q 'NEEDED.*libswift'; then
        echo "17-trixie-swift: $exe needs a Swift runtime library" >&2
        exit 1
    fi
    printf '17-trixie-swift: %-14s %6s KiB stripped, arm64\n' "$exe" $(( $(stat -c %s "$file") / 1024 )) >&2
done
# Neither program links Foundation: any of its classic API brings all of it with ICU's data, about 45 MB more
# of the SD card and of the memory map (deploy/README.md, section 2).
for exe in recoverydeck recoverydeckd; do
    kib=$(( $(stat -c %s "$unpacked/usr/bin/$exe") / 1024 ))
    [ "$kib" -lt 20480 ] || {
        echo "17-trixie-swift: $exe is $kib KiB: a module it links imports Foundation (and ICU)" >&2
        exit 1
    }
done
# The arm64 command line under qemu-user (the root's arm64 libraries) prints what amd64 prints, to the byte.
for rr in Tests/stages/daemon/morning-rr.txt Tests/vm/data/rr-replay.txt; do
    amd64=$(deploy/in-root "$root" --src "$work" ".build/debug/recoverydeck rr analyze $rr --json")
    arm64=$(cd "$work" && qemu-aarch64-static -L "$root" "$unpacked/usr/bin/recoverydeck" rr analyze "$rr" --json)
    [ "$amd64" = "$arm64" ] || {
        echo "17-trixie-swift: rr analyze $rr differs on arm64:" >&2
        diff <(echo "$amd64") <(echo "$arm64") >&2 || true
        exit 1
    }
done
echo "17-trixie-swift: the arm64 rr analyze prints what amd64 prints (2 files)" >&2
printf '17-trixie-swift: build --build-tests %d s, swift test %d s, demo %d s, arm64 package %d s\n' \
    $((t1 - t0)) $((t2 - t1)) $((t3 - t2)) $((t4 - t3)) >&2
