#!/usr/bin/env bash
# bench/plain-module.sh [COUNT] - prints plain32 (COUNT, default 32): compute
# entries sharing a helper, as a plain Slang module writes them (no guards).
# Each entry calls its own function own<i> and the shared helper, times SCALE,
# a macro its build defines with -D. bench/edit-bench.sh times edits to it;
# tests/cache_edits.sh counts what they recompile.
set -euo pipefail
COUNT=${1:-32}
echo '// Entries that share a helper, as a plain Slang module writes them.'
echo 'RWStructuredBuffer<float> data;'
echo 'struct Params { float scale; float bias; };'
echo 'ConstantBuffer<Params> params;'
echo 'float helper(float x) { return x * params.scale + params.bias; }'
for ((i = 0; i < COUNT; i++)); do
    echo "float own$i(float x) { return x + $i.0; }"
    echo '[shader("compute")]'
    echo '[numthreads(64, 1, 1)]'
    echo "void entry$i(uint3 id : SV_DispatchThreadID)"
    echo '{'
    echo "    data[id.x] = helper(own$i(data[id.x])) * SCALE;"
    echo '}'
done
