# bash completion for recoverydeck(1); installed as
# /usr/share/bash-completion/completions/recoverydeck.
# Every command of `recoverydeck --help` is listed here (the packaging stage checks it).

_recoverydeck() {
    local cur prev words cword
    _init_completion || return

    # Top-level words, and the members of command groups.
    local commands="analytics calibrate cancel checkin compare delete demo doctor experiment export findings history import lights measure pair report restore rr scan settings status strap watch"
    local -A members=([import]="csv elitehrv hrv4training rr" [rr]="analyze" [experiment]="plan start tonight result stop")
    local global="--db --help"

    # The command typed so far: its first word, and the member for a group.
    local command="" member="" i
    for ((i = 1; i < cword; i++)); do
        case "${words[i]}" in
            --db) ((i++)) ;;
            -*) ;;
            *)
                if [ -z "$command" ]; then
                    command=${words[i]}
                elif [ -n "${members[$command]}" ] && [ -z "$member" ]; then
                    member=${words[i]}
                fi
                ;;
        esac
    done

    case "$prev" in
        --format)
            COMPREPLY=($(compgen -W "json csv intervals goldencheetah" -- "$cur"))
            return
            ;;
        --metric)
            COMPREPLY=($(compgen -W "rmssd lying-hr gap-peak gap-avg subjective" -- "$cur"))
            return
            ;;
        --window)
            COMPREPLY=($(compgen -W "whole morning" -- "$cur"))
            return
            ;;
        --address-type)
            COMPREPLY=($(compgen -W "public random" -- "$cur"))
            return
            ;;
        --rule | --artifact-rule)
            COMPREPLY=($(compgen -W "pattern spec-20" -- "$cur"))
            return
            ;;
        --date-format)
            COMPREPLY=($(compgen -W "YYYY-MM-DD YYYY-DD-MM DD/MM/YYYY MM/DD/YYYY" -- "$cur"))
            return
            ;;
        --adapter)
            local adapters
            adapters=$(command ls /sys/class/bluetooth 2>/dev/null | grep -E '^hci[0-9]+$')
            COMPREPLY=($(compgen -W "$adapters" -- "$cur"))
            return
            ;;
        --db | --svg | --output | -o | --socket)
            _filedir
            return
            ;;
        --map | --days | --fatigue | --mood | --soreness | --stress | --sleep | --caffeine-time | \
            --caffeine-mg | --last-meal | --note | --habit | --day | --seed | --habits | --display-name | --reminder | \
            --seconds | --address | --rho | --n | --trials | --resamples | --effect | --speed)
            return
            ;;
    esac

    if [ -z "$command" ]; then
        COMPREPLY=($(compgen -W "$commands $global" -- "$cur"))
        return
    fi
    if [ -n "${members[$command]}" ] && [ -z "$member" ]; then
        COMPREPLY=($(compgen -W "${members[$command]} --help" -- "$cur"))
        return
    fi

    local opts=""
    case "$command${member:+ $member}" in
        checkin) opts="--fatigue --mood --soreness --stress --sleep --habit --caffeine-time --caffeine-mg --last-meal --note" ;;
        doctor | status | analytics) opts="--json" ;;
        findings) opts="--json --resamples --seed" ;;
        calibrate) opts="--rho --n --trials --resamples --seed --effect --json" ;;
        "experiment plan") opts="--days --change --block --metric" ;;
        "experiment start") opts="--days --block --metric" ;;
        "experiment tonight" | "experiment result") opts="--json" ;;
        scan) opts="--seconds --adapter --json" ;;
        pair) opts="--address-type --seconds --adapter" ;;
        strap) opts="--address --address-type --seconds --adapter --json" ;;
        history) opts="--days --json" ;;
        export) opts="--format --rr --full --output -o" ;;
        delete) opts="--all --day --yes" ;;
        settings) opts="--habits --display-name --reminder --band-edges --artifact-rule --json" ;;
        lights) opts="--try --days --json" ;;
        demo) opts="--seed --speed --keep" ;;
        measure) opts="--overwrite --wait --json --socket" ;;
        watch) opts="--json --follow --socket" ;;
        cancel) opts="--socket" ;;
        compare)
            opts="--json"
            if [[ "$cur" != -* ]]; then
                _filedir
                return
            fi
            ;;
        "rr analyze")
            opts="--window --rule --json"
            if [[ "$cur" != -* ]]; then
                _filedir
                return
            fi
            ;;
        report) opts="--days --svg" ;;
        "import csv" | "import elitehrv" | "import hrv4training")
            opts="--date-format --dry-run --force"
            [ "$member" = csv ] && opts="--map $opts"
            if [[ "$cur" != -* ]]; then
                _filedir csv
                return
            fi
            ;;
        restore)
            opts="--replace --socket"
            if [[ "$cur" != -* ]]; then
                _filedir json
                return
            fi
            ;;
        "import rr")
            opts="--dry-run --force"
            if [[ "$cur" != -* ]]; then
                _filedir -d
                return
            fi
            ;;
    esac
    COMPREPLY=($(compgen -W "$opts $global" -- "$cur"))
}
complete -F _recoverydeck recoverydeck
