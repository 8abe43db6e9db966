#!/usr/bin/env bash
# The whole test suite as arm64: cross-built for aarch64 (debug, with the tests) in stage 17's Debian 13 root
# (deploy/trixie-root --cross arm64: Debian's swiftlang 6.0.3, the arm64 libraries by multiarch, the aarch64
# Swift runtime from swiftlang:arm64 and libswiftlang:arm64), then run there under qemu-user: the test binary
# with qemu-aarch64-static named on the command line, the arm64 programs the tests start (recoverydeck,
# recoverydeckd, h10sim) through binfmt_misc, registered here if the machine has not (qemu-user-static's own
# entry, with the F flag so that it works inside the root). The Swift runtime is the shared one (Swift Testing
# has no static library), found by the rpath the swift driver gives the binary: the root's /opt/swift-aarch64.
#
# A test that cannot run under qemu-user (a kernel interface qemu-user does not translate) is skipped by name
# below, with its reason printed; `bash Tests/stages/18-arm64-tests.sh --skipped` prints those names, one a
# line (--skipped-regex: as one --filter expression). They run as arm64 in the arm64 box's VM instead (stage
# 36, Tests/arm64box/run.sh): the same test binary, on Debian's arm64 kernel under qemu-system-aarch64, in the
# boot on the 4 KiB kernel, which fails unless the runner says exactly those tests passed. The build
# (Tests/arm64box/build-tests.sh, shared with stage 36) is kept in /var/cache/recoverydeck/arm64-tests (the
# sources in tree/, the build in scratch/; the test binary is scratch/aarch64-unknown-linux-gnu/debug/
# RecoveryDeckPackageTests.xctest), so that the next run builds only what changed and one test can be run again:
#   deploy/in-root ROOT --src /var/cache/recoverydeck/arm64-tests 'cd tree && /src/qemu-aarch64-static \
#       /src/scratch/aarch64-unknown-linux-gnu/debug/RecoveryDeckPackageTests.xctest \
#       --testing-library swift-testing --filter "StoreTests\.MorningSpoolTests"'
# On 2 cores: about 5 minutes to build from nothing (seconds when little changed), 11 to 16 to run (943 s on a
# loaded machine); the run keeps both cores busy, so beside other stages it would only slow them: not alongside.

# Each entry: a test's ID as Swift Testing's --list-tests prints it, a tab, why it cannot run under qemu-user.
skipped=(
    "PlatformTests.FileReadingTests/interruptedRead()	it waits until /proc/thread-self/syscall shows its thread blocked in read(2) by arm64's number (63), and under qemu-user that file shows the host's system call (0 on x86-64), so it would wait for ever"
    "PanelTests.PanelErrorTests/chipListing()	it asks files that are not GPIO chips for their chip information (the GPIO_GET_CHIPINFO_IOCTL ioctl) and expects the kernel's ENOTTY; qemu-user does not translate that ioctl and answers ENOSYS itself"
)
# The skipped tests as one regular expression over the IDs, as Swift Testing's --skip and --filter take it.
skipped_regex() {
    local entry regex=""
    for entry in "${skipped[@]}"; do regex+="${regex:+|}$(sed 's/[].()[\\*+?{}|^$]/\\&/g' <<<"${entry%%	*}")"; done
    echo "$regex"
}
case "${1:-}" in
    --skipped) printf '%s\n' "${skipped[@]%%	*}"; exit 0 ;;
    --skipped-regex) skipped_regex; exit 0 ;;
esac

. "$(dirname "$0")/preamble.bash"
qemu=$(command -v qemu-aarch64-static) || {
    echo "18-arm64-tests: qemu-aarch64-static is missing (deploy/dev-packages.txt: qemu-user-static)" >&2
    exit 1
}
command -v mmdebstrap >/dev/null || { echo "18-arm64-tests: mmdebstrap is missing (deploy/dev-packages.txt)" >&2; exit 1; }
root=$(deploy/trixie-root --cross arm64)

# The programs the tests start are arm64 too: the kernel runs them through binfmt_misc. Debian's
# qemu-user-static registers qemu-aarch64 at boot (systemd-binfmt); a machine where that did not happen (a
# container, no systemd) gets the same entry here. F: the kernel opens the interpreter now, so it is found
# inside the root, which has no qemu of its own.
binfmt=/proc/sys/fs/binfmt_misc
if [ ! -e "$binfmt/qemu-aarch64" ]; then
    [ -e "$binfmt/register" ] || mount -t binfmt_misc binfmt_misc "$binfmt"
    conf=/usr/lib/binfmt.d/qemu-aarch64.conf
    [ -e "$conf" ] || { echo "18-arm64-tests: $conf is missing (qemu-user-static)" >&2; exit 1; }
    grep -v '^#' "$conf" | head -1 > "$binfmt/register"
    echo "18-arm64-tests: registered qemu-aarch64 with binfmt_misc from $conf" >&2
fi
grep -q '^flags:.*F' "$binfmt/qemu-aarch64" || {
    echo "18-arm64-tests: binfmt_misc's qemu-aarch64 lacks the F flag, so arm64 programs cannot start inside the root;" \
        "re-register it from /usr/lib/binfmt.d/qemu-aarch64.conf" >&2
    exit 1
}
grep -qx enabled "$binfmt/qemu-aarch64" || { echo "18-arm64-tests: binfmt_misc's qemu-aarch64 is disabled" >&2; exit 1; }

t0=$SECONDS
work=$(Tests/arm64box/build-tests.sh "$root")
t1=$SECONDS
# The run reads the kept build: no build may change it meanwhile.
exec 9>"$work.lock"
flock -s 9
cmp -s "$qemu" "$work/qemu-aarch64-static" || cp "$qemu" "$work/qemu-aarch64-static"
tests=/src/scratch/aarch64-unknown-linux-gnu/debug/RecoveryDeckPackageTests.xctest

# Swift Testing's own entry (what `swift test` runs, which cannot put qemu in front): --skip takes a regular
# expression over the tests' IDs.
for entry in "${skipped[@]}"; do
    echo "18-arm64-tests: skipped under qemu-user (the arm64 box, stage 36, runs it in its VM): ${entry%%	*}: ${entry#*	}" >&2
done
skip=$(skipped_regex)
# Each failure's lines and the run's closing lines; the run's exit status is the stage's. The run has a limit,
# three times its longest seen (943 s), so that a test that hangs fails this stage by name instead of running
# out the whole CI's time: every test it started and did not end is printed.
limit=${RECOVERYDECK_ARM64_TESTS_LIMIT:-2850}
rc=0
deploy/in-root "$root" --src "$work" "cd tree && timeout -k 20 $limit /src/qemu-aarch64-static $tests \
    --testing-library swift-testing --skip '$skip' >/src/test.log 2>&1; rc=\$?
    grep -E -A6 'recorded an issue|error:|fatal|Fatal' /src/test.log | head -150; tail -3 /src/test.log; exit \$rc" >&2 || rc=$?
t2=$SECONDS
printf '18-arm64-tests: arm64 build --build-tests %d s, the suite under qemu-user %d s\n' $((t1 - t0)) $((t2 - t1)) >&2
if [ "$rc" = 124 ] || [ "$rc" = 137 ]; then
    # The runner writes its log through a buffer, so the list is as of its last write: a test that ended after
    # it is listed too, and the one that hangs is among those listed.
    echo "18-arm64-tests: the suite did not end within $limit s; the tests its log shows started and not ended:" >&2
    Tests/stages/unfinished-tests.py "$work/test.log" | sed 's/^/    /' >&2
fi
[ "$rc" = 0 ] || { echo "18-arm64-tests: the arm64 suite failed under qemu-user (exit $rc)" >&2; exit 1; }
echo "18-arm64-tests: the arm64 suite passed under qemu-user, ${#skipped[@]} test(s) skipped as named above" >&2
