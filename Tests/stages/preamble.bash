# Sourced first thing by every stage in Tests/stages (and by Tests/vm/prepare.sh): strict mode, $repo and a
# move there, the Swift toolchain on PATH, the Swift runtime's backtracer off (tests compare stderr; on
# 16 KiB pages it warns), $stage_start, and the packages the tests need — once per `Tests/run-all`, which
# runs `deploy/dev-setup --tests` itself and says so in RECOVERYDECK_DEV_SETUP_DONE; a stage run alone does it.
set -euo pipefail
repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$repo"
export PATH="/opt/swift/usr/bin:$PATH"
export SWIFT_BACKTRACE=enable=no
stage_start=$(date +%s)
if [ "${RECOVERYDECK_DEV_SETUP_DONE:-}" != 1 ]; then
    deploy/dev-setup --tests >&2
fi
