#!/usr/bin/env bash
# file_sizes.sh - no library source file is over 1,000 lines: a file that grows past that
# holds more than one job and is split by job (CONTRIBUTING.md, "Code conventions").
#
#   file_sizes.sh REPO_ROOT
set -u
cd "$1" || exit 2
status=0
while IFS= read -r f; do
    n=$(wc -l <"$f")
    if [ "$n" -gt 1000 ]; then
        echo "FAIL: $f has $n lines (at most 1000): split it by job"
        status=1
    fi
done < <(find src -name '*.[ch]' | sort)
[ $status -eq 0 ] && echo "src: $(find src -name '*.[ch]' | wc -l) files, none over 1000 lines"
exit $status
