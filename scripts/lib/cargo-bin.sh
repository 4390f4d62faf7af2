# shellcheck shell=bash
# cargo_bin PACKAGE [BIN] [CARGO BUILD OPTIONS...]: builds a binary of the workspace and prints
# its path as cargo reports it, so CARGO_TARGET_DIR, build.target-dir and the profile are
# honoured (never a hard-coded target/debug/...).
cargo_bin() {
    local package="$1" bin="${2:-$1}"
    shift $(( $# < 2 ? $# : 2 ))
    local path
    path="$(cargo build --quiet -p "$package" --bin "$bin" "$@" --message-format=json \
        | sed -n 's/.*"executable":"\([^"]*\/'"$bin"'\)".*/\1/p' | tail -n 1)"
    if [[ -z "$path" || ! -x "$path" ]]; then
        echo "cargo_bin: cargo built no executable $bin of $package" >&2
        return 1
    fi
    printf '%s\n' "$path"
}
