#!/usr/bin/env bash
# with_service.sh BUILD DIR -- COMMAND... - runs COMMAND with a compile service of
# its own (docs/service.md): DGPB_SERVICE=auto and DGPB_SERVICE_DIR=DIR (made
# anew, mode 0700), so that the many dgpb-build runs of a fixture builder share
# warm compiler workers instead of starting their own each (docs/testing.md,
# "Where the time goes"); the service is stopped at the end, whatever COMMAND
# did, and COMMAND's exit status is the script's. The bundles are the bytes a
# build without a service writes (tests/service proves it).
set -u
build=$1 dir=$2
shift 2
[ "${1:-}" = -- ] && shift
rm -rf "$dir"
mkdir -p "$(dirname "$dir")" && mkdir -m 0700 "$dir" || { echo "with_service.sh: cannot make $dir" >&2; exit 2; }
status=0
DGPB_SERVICE=auto DGPB_SERVICE_DIR=$dir "$@" || status=$?
DGPB_SERVICE_DIR=$dir "$build" --service-stop >/dev/null 2>&1
rm -rf "$dir"
exit $status
