#!/bin/sh
# The conformance gate for any CI, in POSIX sh: installs the runner unless it is on the PATH,
# runs the whole suite against the implementation at BASE_URL (start it first), and leaves the
# JUnit and HTML reports in $REPORTS for the CI to keep. Extra arguments go to conformance
# (--without tickets, --level must, ...). Exit status: 0 when every case passed or failed as
# the expectations file says, 101 when a case failed, 2 when the run proves nothing.
#
#   BASE_URL                  the implementation's {base_url}, e.g. http://127.0.0.1:8080/wp-json
#   CONFORMANCE_AUTH_ADMINISTRATOR, CONFORMANCE_AUTH_EDITOR, CONFORMANCE_AUTH_AUTHOR,
#   CONFORMANCE_AUTH_CONTRIBUTOR, CONFORMANCE_AUTH_SUBSCRIBER
#                             USER:PASSWORD of a user of each role, from the CI's secrets
#                             (the runner reads them: no password on a command line)
#   CONFORMANCE_EXPECTATIONS  known failures, one test name a line (by default
#                             conformance-known-failures.txt, when there is one)
#   CONFORMANCE_GIT           the git URL of the conformance repository, and
#   CONFORMANCE_REV           the commit to install: the suite's version you gate on
#   REPORTS                   where the reports go (default conformance-reports)
set -eu

if ! command -v conformance >/dev/null 2>&1; then
    cargo install --locked --git "${CONFORMANCE_GIT:?the conformance repository}" \
        --rev "${CONFORMANCE_REV:?a commit of it}" conformance
fi
conformance --version

reports=${REPORTS:-conformance-reports}
mkdir -p "$reports"
if [ -n "${CONFORMANCE_EXPECTATIONS:-}" ]; then
    set -- --expectations "$CONFORMANCE_EXPECTATIONS" "$@"
elif [ -f conformance-known-failures.txt ]; then
    set -- --expectations conformance-known-failures.txt "$@"
fi
exec conformance --base-url "${BASE_URL:?the implementation under test}" \
    --junit "$reports/conformance.xml" --html "$reports/conformance.html" "$@"
