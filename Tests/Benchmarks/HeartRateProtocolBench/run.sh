#!/usr/bin/env bash
# Prints the CPU cost per notification of the pure protocol code (release build, -O).
#   Tests/Benchmarks/HeartRateProtocolBench/run.sh
set -euo pipefail
cd "$(dirname "$0")/../../.."
export PATH="/opt/swift/usr/bin:$PATH"
mkdir -p .build/bench
# shellcheck disable=SC2046
swiftc -O -wmo -parse-as-library -swift-version 6 -module-name HeartRateProtocol \
    $(find Sources/HeartRateProtocol -name '*.swift' | sort) Tests/Benchmarks/HeartRateProtocolBench/Bench.swift \
    -o .build/bench/heart-rate-protocol
.build/bench/heart-rate-protocol
