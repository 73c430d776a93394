#!/usr/bin/env bash
# Times N compiles (default 20, N=... to change) of a fixture module with
# slangc-wasm: one process per compile against one `slangc-wasm --serve`
# process answering N jobs.  Prints wall seconds for each and their ratio,
# and checks that both ways wrote the same bytes.
#
#   bench/slangc-wasm-bench.sh            N=50 bench/slangc-wasm-bench.sh
#   FIXTURE=path/to/m.slang ENTRIES="a b" TARGET=wgsl bench/slangc-wasm-bench.sh

set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
tool="$root/tools/slangc-wasm/slangc-wasm"
N=${N:-20}
FIXTURE=${FIXTURE:-$root/fixtures/slangc-wasm/basic.slang}
ENTRIES=${ENTRIES:-scale fill}
TARGET=${TARGET:-spirv}

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

args=(-target "$TARGET")
for e in $ENTRIES; do args+=(-entry "$e" -stage compute); done

now() { date +%s.%N; }

# One process per compile.
t0=$(now)
for ((i = 0; i < N; i++)); do
  "$tool" "$FIXTURE" "${args[@]}" -o "$tmp/p$i.out" -reflection-json "$tmp/p$i.json"
done
t1=$(now)

# One --serve process, N job lines (each a JSON array of the same arguments).
json_str() { local s=${1//\\/\\\\}; s=${s//\"/\\\"}; printf '"%s"' "$s"; }
for ((i = 0; i < N; i++)); do
  line="[$(json_str "$FIXTURE")"
  for a in "${args[@]}" -o "$tmp/s$i.out" -reflection-json "$tmp/s$i.json"; do line+=",$(json_str "$a")"; done
  printf '%s]\n' "$line"
done >"$tmp/jobs"
t2=$(now)
"$tool" --serve <"$tmp/jobs" >"$tmp/answers"
t3=$(now)

ok=$(grep -c '^{"status":0,' "$tmp/answers" || true)
if [[ $ok -ne $N ]]; then
  echo "slangc-wasm-bench: error: $((N - ok)) of $N serve jobs failed" >&2
  exit 1
fi
for ((i = 0; i < N; i++)); do
  cmp -s "$tmp/p$i.out" "$tmp/s$i.out" || { echo "slangc-wasm-bench: error: job $i differs" >&2; exit 1; }
done

awk -v n="$N" -v a="$t0" -v b="$t1" -v c="$t2" -v d="$t3" -v f="$(basename "$FIXTURE")" -v t="$TARGET" 'BEGIN {
  p = b - a; s = d - c
  printf "fixture %s, target %s, %d compiles\n", f, t, n
  printf "one process per compile: %7.2f s  (%.3f s per compile)\n", p, p / n
  printf "one --serve process:     %7.2f s  (%.3f s per compile)\n", s, s / n
  printf "ratio:                   %7.1fx\n", p / s
}'
