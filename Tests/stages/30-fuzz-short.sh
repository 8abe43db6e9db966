#!/usr/bin/env bash
# Short seeded fuzzing of the Bluetooth decoders (HR Measurement, ATT, advertising/EIR,
# management, the virtual strap's raw HCI input) with libFuzzer + AddressSanitizer from the Swift toolchain: one instrumented build
# (~20 s on 2 cores), then 12 s per target. Then the input-file readers (the restore document, CSV history, RR
# files, spool files and the settings rows: 5 s each): a second instrumented build over RecoveryCore and the readers (about 60 s of CPU), then 10 s per
# target. Any crash fails the stage.
# Long runs: Tests/Fuzz/run.sh TARGET -runs=10000000 (see Tests/Fuzz/run.sh).
. "$(dirname "$0")/preamble.bash"
if ! ls /opt/swift/usr/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a >/dev/null 2>&1 \
    && ! ls "$(dirname "$(command -v swiftc)")"/../lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a >/dev/null 2>&1; then
    echo "30-fuzz-short: the Swift toolchain has no libFuzzer runtime (libclang_rt.fuzzer); install the swift.org toolchain" >&2
    exit 1
fi
for target in heart-rate att advertising mgmt hci restore csv rr spool settings; do
    # The decoders have had millions of runs from these seeds; 12 s each keeps the stage near 90 s of fuzzing.
    case "$target" in restore|csv|rr) seconds=10 ;; spool|settings) seconds=5 ;; *) seconds=12 ;; esac
    echo "30-fuzz-short: $target, $seconds s" >&2
    if ! Tests/Fuzz/run.sh "$target" -max_total_time="$seconds" -seed=1 -timeout=10 >".build/fuzz-$target.log" 2>&1; then
        tail -40 ".build/fuzz-$target.log" >&2
        echo "30-fuzz-short: libFuzzer found a failing input for $target (kept in .build/fuzz/artifacts-$target/)" >&2
        exit 1
    fi
    grep -E "stat::number_of_executed_units" ".build/fuzz-$target.log" | sed "s/^/30-fuzz-short: $target /" >&2
done
echo "30-fuzz-short: no crashes" >&2
