#!/usr/bin/env bash
# Builds one libFuzzer target over HeartRateProtocol's sources and runs it.
#   Tests/Fuzz/run.sh TARGET [libFuzzer options…]      TARGET: heart-rate | att | advertising | mgmt
# e.g. Tests/Fuzz/run.sh att -runs=10000000   or   Tests/Fuzz/run.sh mgmt -max_total_time=20
# The seed corpus in Tests/Fuzz/corpus/TARGET is copied to a scratch corpus under .build/fuzz, so a
# run never writes into the repository. Exits non-zero when libFuzzer finds a crash.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="/opt/swift/usr/bin:$PATH"

target="${1:?usage: Tests/Fuzz/run.sh heart-rate|att|advertising|mgmt [libFuzzer options]}"
shift
case "$target" in
    heart-rate) entry=FuzzHeartRate ;;
    att) entry=FuzzATT ;;
    advertising) entry=FuzzAdvertising ;;
    mgmt) entry=FuzzManagement ;;
    *) echo "run.sh: unknown target '$target' (heart-rate, att, advertising, mgmt)" >&2; exit 64 ;;
esac

out=.build/fuzz
mkdir -p "$out/corpus-$target" "$out/artifacts-$target"
binary="$out/$target"
sources=$(find Sources/HeartRateProtocol -name '*.swift' | sort)
newest=$(ls -t $sources "Tests/Fuzz/$entry.swift" "$0" | head -1)
if [ ! -x "$binary" ] || [ "$newest" -nt "$binary" ]; then
    echo "run.sh: building $binary" >&2
    # shellcheck disable=SC2086
    swiftc -sanitize=fuzzer,address -parse-as-library -O -swift-version 6 -module-name HeartRateProtocol \
        $sources "Tests/Fuzz/$entry.swift" -o "$binary"
fi
if [ -d "Tests/Fuzz/corpus/$target" ]; then
    cp -n "Tests/Fuzz/corpus/$target"/* "$out/corpus-$target/" 2>/dev/null || true
fi
# Swift's own backtracer would race AddressSanitizer on a trap; let libFuzzer report it.
export SWIFT_BACKTRACE=enable=no
exec "$binary" -artifact_prefix="$out/artifacts-$target/" -print_final_stats=1 "$@" "$out/corpus-$target"
