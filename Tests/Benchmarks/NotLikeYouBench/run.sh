#!/usr/bin/env bash
# The "Not like you" calibration (docs/not-like-you.md): builds and runs not-like-you-bench.
# Arguments: people per arm (default 300), seed (default 35).
set -euo pipefail
cd "$(dirname "$0")/../../.."
export PATH="/opt/swift/usr/bin:$PATH"
swift build -c release --product not-like-you-bench >&2
"$(swift build -c release --show-bin-path)/not-like-you-bench" "$@"
