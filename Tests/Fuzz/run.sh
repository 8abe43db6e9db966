#!/usr/bin/env bash
# Builds the libFuzzer targets (once each, into .build/fuzz): the Bluetooth decoders over HeartRateProtocol's
# sources (.build/fuzz/decoders), and the input-file readers (.build/fuzz/inputs: RecoveryCore's sources with the
# Store's export reader and the Admin history readers, one module, since swiftc builds them without the database
# or the disk), and runs one target.
#   Tests/Fuzz/run.sh TARGET [libFuzzer options…]
#   TARGET: heart-rate | att | advertising | mgmt | hci | restore | csv | rr | spool | settings
# e.g. Tests/Fuzz/run.sh att -runs=10000000   or   Tests/Fuzz/run.sh mgmt -max_total_time=20
# The seed corpus in Tests/Fuzz/corpus/TARGET is copied to a scratch corpus under .build/fuzz, so a
# run never writes into the repository. Exits non-zero when libFuzzer finds a crash; the input is
# kept in .build/fuzz/artifacts-TARGET/.
set -euo pipefail
cd "$(dirname "$0")/../.."
export PATH="/opt/swift/usr/bin:$PATH"

target="${1:?usage: Tests/Fuzz/run.sh heart-rate|att|advertising|mgmt|hci|restore|csv|rr|spool|settings [libFuzzer options]}"
shift
case "$target" in
    heart-rate|att|advertising|mgmt|hci)
        binary=decoders module=HeartRateProtocol
        sources=$(find Sources/HeartRateProtocol Tests/Fuzz -path Tests/Fuzz/Inputs -prune -o -name '*.swift' -print | sort) ;;
    restore|csv|rr|spool|settings)
        # The pure readers only: the export reader's files, and the history readers without ImportFiles (the disk).
        binary=inputs module=RecoveryCore
        json=1
        sources="$(find Sources/RecoveryCore Tests/Fuzz/Inputs -name '*.swift' | sort) $(printf 'Sources/Store/%s.swift ' \
            ExportDocument ExportDocument+Reading ExportDocumentReader AnalyticsEvent SettingKey \
            StoredExperiment Store+HabitName SpoolRecord Settings) $(find Sources/Admin/HistoryImport -name '*.swift' ! -name ImportFiles.swift | sort)" ;;
    *) echo "run.sh: unknown target '$target' (heart-rate, att, advertising, mgmt, hci, restore, csv, rr, spool, settings)" >&2; exit 64 ;;
esac

out=.build/fuzz
mkdir -p "$out/corpus-$target" "$out/artifacts-$target"
binary="$out/$binary"
# Rebuild when any source, or this script, is newer than the binary.
# shellcheck disable=SC2086
if [ ! -x "$binary" ] || [ -n "$(find $sources ${json:+Sources/JSON} "$0" -newer "$binary" | head -1)" ]; then
    echo "run.sh: building $binary" >&2
    # The export reader's files import JSON: it is built first as a module of its own.
    linked=
    if [ -n "${json:-}" ]; then
        swiftc -sanitize=fuzzer,address -parse-as-library -O -swift-version 6 -module-name JSON -wmo \
            -emit-module -emit-module-path "$out/JSON.swiftmodule" -suppress-warnings -c Sources/JSON/*.swift \
            -o "$out/JSON.o"
        linked="-I $out $out/JSON.o"
    fi
    # Files of other modules import RecoveryCore: in one module that import names the module itself.
    # shellcheck disable=SC2086
    swiftc -sanitize=fuzzer,address -parse-as-library -O -swift-version 6 -module-name "$module" \
        -suppress-warnings $linked $sources -o "$binary.tmp"
    mv "$binary.tmp" "$binary"
fi
cp -n "Tests/Fuzz/corpus/$target"/* "$out/corpus-$target/" 2>/dev/null || true
# Swift's own backtracer would race AddressSanitizer on a trap; let libFuzzer report it.
export SWIFT_BACKTRACE=enable=no
# Swift seeds its hashing afresh in every process, so Set and Dictionary orders, and with them the coverage libFuzzer
# steers by, differ from run to run; fixed, a run with the same -seed and -runs reaches the same coverage again.
export SWIFT_DETERMINISTIC_HASHING=1
export RECOVERYDECK_FUZZ_TARGET="$target"
exec "$binary" -artifact_prefix="$out/artifacts-$target/" -print_final_stats=1 "$@" "$out/corpus-$target"
