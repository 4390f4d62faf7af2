# Sourced by the scripts that need Python tools from PyPI: makes the virtual environment $VENV
# (Python 3.12 or newer where there is one) and installs a package into it once.
#
#   VENV=.venv; source scripts/lib/venv.sh; ensure_tool schemathesis 'schemathesis>=4.32,<5'

# 3.11.7 has a CPython bug (AST recursion depth tracking) that Hypothesis can trip over as
# "SystemError: AST constructor recursion depth", so a newer Python is preferred.
newer_python() {
    local candidate version
    local candidates=(python3.13 python3.12)
    if command -v pyenv >/dev/null 2>&1; then
        for version in $(pyenv versions --bare 2>/dev/null | sort -rV); do
            candidates+=("$(pyenv root)/versions/$version/bin/python3")
        done
    fi
    for candidate in "${candidates[@]}"; do
        if "$candidate" -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1; then
            echo "$candidate"
            return
        fi
    done
    echo python3
}

# ensure_tool EXECUTABLE REQUIREMENT: $VENV/bin/EXECUTABLE exists afterwards.
ensure_tool() {
    local python="${PYTHON:-$(newer_python)}"
    if [ -x "$VENV/bin/python" ] && ! "$VENV/bin/python" -c 'import sys; sys.exit(sys.version_info < (3, 12))' \
        && "$python" -c 'import sys; sys.exit(sys.version_info < (3, 12))'; then
        echo "$(basename "$0"): recreating $VENV with $python (3.12 or newer)" >&2
        rm -rf "$VENV"
    fi
    if [ ! -x "$VENV/bin/python" ]; then
        "$python" -m venv "$VENV"
    fi
    if [ ! -x "$VENV/bin/$1" ]; then
        echo "$(basename "$0"): installing $2 into $VENV (first run only)" >&2
        "$VENV/bin/pip" install --quiet --disable-pip-version-check "$2"
    fi
}
