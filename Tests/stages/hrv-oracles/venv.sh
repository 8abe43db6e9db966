# Sourced by Tests/stages/10-hrv-oracles.sh and Tests/Benchmarks/RMSSDRobustness/run.sh.
venv() {  # venv DIR REQUIREMENTS: create once, then keep it at the pinned closure
    local dir=$1 requirements=$2
    [ -x "$dir/bin/python" ] || python3 -m venv "$dir"
    if ! cmp -s "$requirements" "$dir/.pinned"; then
        echo "$(basename "$0" .sh): installing $requirements into $dir (a minute or so the first time)" >&2
        "$dir/bin/pip" install --quiet --disable-pip-version-check --no-deps -r "$requirements"
        cp "$requirements" "$dir/.pinned"
    fi
}
