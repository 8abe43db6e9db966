#!/usr/bin/env bash
# Prints the daemon-side CPU time per notification of the BlueZ edge's StrapLink (release build).
#   Tests/Benchmarks/BlueZBench/run.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
export PATH="/opt/swift/usr/bin:$PATH"
swift build -c release --product bluez-bench
"$(swift build -c release --show-bin-path)/bluez-bench"
