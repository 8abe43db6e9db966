# Sourced by Tests/stages/10-hrv-oracles.sh and Tests/Benchmarks/RMSSDRobustness/run.sh.
venv() {  # venv DIR REQUIREMENTS: create once, then keep it at the pinned closure
    local dir=$1 requirements=$2
    [ -x "$dir/bin/python" ] || python3 -m venv "$dir"
    if ! cmp -s "$requirements" "$dir/.pinned"; then
        "$dir/bin/pip" install --quiet --disable-pip-version-check --no-deps -r "$requirements"
        cp "$requirements" "$dir/.pinned"
    fi
}
