#!/bin/sh
# Regenerates the golden outputs checked by tests/test_golden.c. Run it only
# after a change that is meant to alter the schedules or the file formats,
# and review the diff before committing it.
#   tests/golden/regenerate.sh [path/to/batchlab]
set -eu
here=$(cd "$(dirname "$0")" && pwd)
src=$(cd "$here/../.." && pwd)
exe=${1:-$src/build/batchlab}
cd "$src"
# Paths relative to the source tree, so that the manifests' command lines
# name no folder outside it.
for policy in fcfs easy conservative; do
    out="tests/golden/small-kth-$policy"
    rm -rf "$out"
    "$exe" run --platform platforms/kth-sp2.xml --workload traces/fixtures/small.swf \
        --policy "$policy" --check -q --out "$out" > /dev/null
done
echo "golden outputs written under $here"
