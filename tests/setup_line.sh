#!/usr/bin/env bash
# setup_line.sh REPO - the set-up line the README gives works for root and for sudo users.
#
# Takes the first command of the README's "Set up and test" block and checks
# that CONTRIBUTING.md's getting-started block, docs/install.md and CI
# (.ci/run) give the same line; then runs that line in a shell whose PATH has
# no sudo (a fresh root shell of a Debian image), with stand-ins for id,
# dpkg-query (nothing installed), apt-get, sudo, npm and cmake that record
# their arguments and fail, so that nothing is installed or built:
#   * with --check: it only reports what is missing, as root or not;
#   * as root: it runs apt-get itself, never sudo;
#   * as a user with sudo: it runs apt-get through sudo;
#   * as a user without sudo: it stops before changing anything and says
#     how to run it instead.
set -u
repo=$1
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
status=0
fail() { echo "FAIL: $*"; status=1; }

# The first command line of the README's set-up block, without its comment.
line=$(awk '/^## Set up and test/ { s = 1 } s && /^```sh/ { getline; print; exit }' \
    "$repo/README.md" | sed 's/[[:space:]]*#.*//; s/[[:space:]]*$//')
[ -n "$line" ] || { echo "FAIL: README.md has no set-up line in its 'Set up and test' block"; exit 1; }
echo "README's set-up line: $line"
first_of() { # FILE: the first command line of its first ```sh block
    awk '/^```sh/ { getline; print; exit }' "$1" | sed 's/[[:space:]]*#.*//; s/[[:space:]]*$//'
}
[ "$(first_of "$repo/CONTRIBUTING.md")" = "$line" ] ||
    fail "CONTRIBUTING.md's getting-started line is '$(first_of "$repo/CONTRIBUTING.md")', not '$line'"
[ "$(first_of "$repo/docs/install.md")" = "$line" ] ||
    fail "docs/install.md's set-up line is '$(first_of "$repo/docs/install.md")', not '$line'"
grep -qxF "$line" "$repo/.ci/run" || fail ".ci/run does not run the README's line '$line'"

# A PATH of every program on this one's but sudo, and the stand-ins.
bin=$work/bin
mkdir -p "$bin"
IFS=: read -r -a dirs <<<"$PATH"
for d in "${dirs[@]}"; do
    [ -d "$d" ] || continue
    for f in "$d"/*; do
        n=${f##*/}
        [ "$n" != sudo ] && [ -x "$f" ] && [ ! -e "$bin/$n" ] && ln -s "$f" "$bin/$n"
    done
done
real_id=$(command -v id)
rm -f "$bin/id" "$bin/dpkg-query" "$bin/apt-get" "$bin/npm" "$bin/cmake"
# shellcheck disable=SC2016 # the stand-ins' own $1, $* and $LOG
printf '#!/bin/sh\n[ "$1" = -u ] && { echo "$FAKE_UID"; exit 0; }\nexec %s "$@"\n' "$real_id" >"$bin/id"
printf '#!/bin/sh\nexit 1\n' >"$bin/dpkg-query" # nothing is installed
for p in apt-get npm cmake sudo-standin; do
    # shellcheck disable=SC2016
    printf '#!/bin/sh\necho "%s $*" >>"$LOG"\nexit 1\n' "$p" >"$bin/$p"
done
chmod +x "$bin"/*

# run NAME UID [sudo]: the README's line ($line, plus $extra) with that PATH.
run() {
    local name=$1 uid=$2
    rm -f "$bin/sudo"
    [ "${3:-}" = sudo ] && ln -s sudo-standin "$bin/sudo"
    : >"$work/$name.log"
    (cd "$repo" && env PATH="$bin" FAKE_UID="$uid" LOG="$work/$name.log" \
        bash -c "$line ${extra:-}" >"$work/$name.out" 2>&1)
    echo $? >"$work/$name.status"
    echo "== $name: exit $(cat "$work/$name.status")"
    sed 's/^/   /' "$work/$name.out" "$work/$name.log"
}
no_command_missing() { # NAME
    ! grep -q "command not found\|No such file" "$work/$1.out" ||
        fail "$1: a command is missing: $(grep -m1 "command not found\|No such file" "$work/$1.out")"
}
never_ran() { # NAME PROGRAM
    ! grep -q "^$2 " "$work/$1.log" || fail "$1: $2 ran: $(grep -m1 "^$2 " "$work/$1.log")"
}

extra=--check run check_root 0
extra=--check run check_user 1000
for c in check_root check_user; do
    no_command_missing $c
    [ "$(cat "$work/$c.status")" = 1 ] || fail "$c: --check exits $(cat "$work/$c.status"), not 1"
    grep -q "^setup: missing Debian packages: .*cmake" "$work/$c.out" ||
        fail "$c: --check does not list the missing packages"
    for p in apt-get sudo-standin npm cmake; do never_ran $c $p; done
done

run root 0
no_command_missing root
grep -q "^apt-get update" "$work/root.log" || fail "root: apt-get did not run"
never_ran root sudo-standin

run user_with_sudo 1000 sudo
no_command_missing user_with_sudo
grep -q "^sudo-standin env DEBIAN_FRONTEND=noninteractive apt-get update" "$work/user_with_sudo.log" ||
    fail "user with sudo: apt-get did not run through sudo"
never_ran user_with_sudo apt-get

run user_without_sudo 1000
no_command_missing user_without_sudo
[ "$(cat "$work/user_without_sudo.status")" = 1 ] ||
    fail "user without sudo: exit $(cat "$work/user_without_sudo.status"), not 1"
if ! grep -q "not root and has no sudo" "$work/user_without_sudo.out" ||
    ! grep -q "su -c tools/setup.sh" "$work/user_without_sudo.out"; then
    fail "user without sudo: no message saying how to run it"
fi
for p in apt-get npm cmake; do never_ran user_without_sudo $p; done

[ $status = 0 ] && echo "ok: '$line' is the line everywhere, and runs as root without sudo, as a user through sudo, and says what to do without either"
exit $status
