#!/usr/bin/env bash
# Builds the libFuzzer decoder targets over HeartRateProtocol's sources (once, into
# .build/fuzz/decoders) and runs one of them.
#   Tests/Fuzz/run.sh TARGET [libFuzzer options…]      TARGET: heart-rate | att | advertising | mgmt | hci
# e.g. Tests/Fuzz/run.sh att -runs=10000000   or   Tests/Fuzz/run.sh mgmt -max_total_time=20
# The seed corpus in Tests/Fuzz/corpus/TARGET is copied to a scratch corpus under .build/fuzz, so a
# run never writes into the repository. Exits non-zero when libFuzzer finds a crash; the input is
# kept in .build/fuzz/artifacts-TARGET/.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="/opt/swift/usr/bin:$PATH"

target="${1:?usage: Tests/Fuzz/run.sh heart-rate|att|advertising|mgmt|hci [libFuzzer options]}"
shift
case "$target" in
    heart-rate|att|advertising|mgmt|hci) ;;
    *) echo "run.sh: unknown target '$target' (heart-rate, att, advertising, mgmt, hci)" >&2; exit 64 ;;
esac

out=.build/fuzz
mkdir -p "$out/corpus-$target" "$out/artifacts-$target"
binary="$out/decoders"
sources=$(find Sources/HeartRateProtocol Tests/Fuzz -name '*.swift' | sort)
# Rebuild when any source, or this script, is newer than the binary.
if [ ! -x "$binary" ] || [ -n "$(find $sources "$0" -newer "$binary" | head -1)" ]; then
    echo "run.sh: building $binary" >&2
    # shellcheck disable=SC2086
    swiftc -sanitize=fuzzer,address -parse-as-library -O -swift-version 6 -module-name HeartRateProtocol \
        $sources -o "$binary.tmp"
    mv "$binary.tmp" "$binary"
fi
cp -n "Tests/Fuzz/corpus/$target"/* "$out/corpus-$target/" 2>/dev/null || true
# Swift's own backtracer would race AddressSanitizer on a trap; let libFuzzer report it.
export SWIFT_BACKTRACE=enable=no
export RECOVERYDECK_FUZZ_TARGET="$target"
exec "$binary" -artifact_prefix="$out/artifacts-$target/" -print_final_stats=1 "$@" "$out/corpus-$target"
