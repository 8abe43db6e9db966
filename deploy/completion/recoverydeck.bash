# bash completion for recoverydeck(1); installed as
# /usr/share/bash-completion/completions/recoverydeck.

_recoverydeck() {
    local cur prev words cword
    _init_completion || return

    local commands="doctor help"
    local common="--db --help"

    local command="" i
    for ((i = 1; i < cword; i++)); do
        case "${words[i]}" in
            --db) ((i++)) ;;
            -*) ;;
            *) command=${words[i]}; break ;;
        esac
    done

    case "$prev" in
        --db)
            _filedir db
            return
            ;;
    esac

    if [ -z "$command" ]; then
        COMPREPLY=($(compgen -W "$commands $common" -- "$cur"))
        return
    fi

    local opts=""
    case "$command" in
        doctor) opts="--json" ;;
    esac
    COMPREPLY=($(compgen -W "$opts $common" -- "$cur"))
}
complete -F _recoverydeck recoverydeck
