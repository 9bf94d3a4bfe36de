#!/bin/sh
# tests/solib_example.sh — the solib_example test: a policy built outside
# the tree against the installed interface only.
#
#   sh tests/solib_example.sh SOURCE BUILD CMAKE TESTS
#
# Installs BUILD into a temporary prefix (cmake --install), checks that it
# holds the executable, the two interface headers and batchlab.pc and
# nothing else, builds examples/sjf-backfill with its Makefile (cc and
# pkg-config, PKG_CONFIG_PATH at the prefix, -Wall -Wextra -Werror) from a
# copy outside the tree, then:
#   - runs the conformance suite on it (BL_POLICY_LIBS, test_pol_registry.c);
#   - replays a four-job workload with the installed batchlab under easy and
#     under the library, and compares each job's wait with the one computed
#     by hand (below);
#   - checks that the manifest records the library's path and SHA-256;
#   - checks that the same source built for interface version 999, and a
#     library without the symbols, are refused with the message and exit
#     status 2, nothing written.
# Exit 0 when all holds, 1 with the reason otherwise.
set -eu
src=$1 build=$2 cmake=$3 tests=$4
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() {
    echo "solib_example: $*" >&2
    exit 1
}

prefix=$tmp/prefix
"$cmake" --install "$build" --prefix "$prefix" > "$tmp/install.log" ||
    fail "cmake --install failed: $(cat "$tmp/install.log")"
(cd "$prefix" && find . -type f | LC_ALL=C sort) > "$tmp/files"
printf '%s\n' ./bin/batchlab ./include/batchlab/eng_error.h ./include/batchlab/eng_policy.h \
    ./share/pkgconfig/batchlab.pc > "$tmp/want"
cmp -s "$tmp/files" "$tmp/want" || fail "installed files differ: $(cat "$tmp/files")"

PKG_CONFIG_PATH=$prefix/share/pkgconfig
export PKG_CONFIG_PATH
inc=$(pkg-config --cflags batchlab | sed 's/^-I//; s/ *$//')
[ -f "$inc/eng_policy.h" ] && [ "$(cd "$inc" && pwd -P)" = "$(cd "$prefix/include/batchlab" && pwd -P)" ] ||
    fail "pkg-config --cflags batchlab gives '$(pkg-config --cflags batchlab)'"
version=$(sed -n 's/^#define POL_INTERFACE_VERSION \([0-9]*\)u*$/\1/p' "$inc/eng_policy.h")
[ -n "$version" ] || fail "no POL_INTERFACE_VERSION in the installed eng_policy.h"
cp -R "$src/examples/sjf-backfill" "$tmp/example"
rm -f "$tmp/example/sjf-backfill.so"
make -s -C "$tmp/example" CC=cc CFLAGS="-O2 -Wall -Wextra -Werror" > "$tmp/make.log" 2>&1 ||
    fail "the example does not build against the installed headers: $(cat "$tmp/make.log")"
lib=$tmp/example/sjf-backfill.so

BL_POLICY_LIBS=$lib "$tests" pol_registry > "$tmp/conformance.log" 2>&1 ||
    fail "conformance suite on the library: $(cat "$tmp/conformance.log")"
grep -q "library $lib: policy sjf-backfill" "$tmp/conformance.log" ||
    fail "the conformance suite did not run the library: $(cat "$tmp/conformance.log")"

# The known answer: 4 single-core hosts. Job 1 (3 hosts, 100 s) starts at
# 0; job 2 (4 hosts) arrives at 1 and waits for the shadow time 100 with
# no extra unit; jobs 3 (1 host, 80 s) and 4 (1 host, 10 s) arrive at 2,
# with one host free. EASY tries 3 first: it ends at 82 <= 100 and
# starts (wait 0); 4 starts at 82 (ends 92, wait 80). SJF tries 4 first:
# it starts at 2 (wait 0) and ends at 12; 3 then starts at 12 (ends 92,
# wait 10). Job 2 starts at 100 under both (wait 99).
cat > "$tmp/kat.swf" << 'EOF'
1 0 -1 100 3 -1 -1 3 100 -1 1 1 1 -1 -1 -1 -1 -1
2 1 -1 100 4 -1 -1 4 100 -1 1 1 1 -1 -1 -1 -1 -1
3 2 -1 80 1 -1 -1 1 80 -1 1 1 1 -1 -1 -1 -1 -1
4 2 -1 10 1 -1 -1 1 10 -1 1 1 1 -1 -1 -1 -1 -1
EOF
bl=$prefix/bin/batchlab
platform=$src/platforms/test/tiny-4.xml
for p in easy "$lib"; do
    name=$(basename "$p")
    "$bl" run --platform "$platform" --workload "$tmp/kat.swf" --policy "$p" --check \
        --out "$tmp/out-$name" > "$tmp/run.log" 2>&1 || fail "run --policy $p: $(cat "$tmp/run.log")"
    grep -v '^;' "$tmp/out-$name/schedule.swf" | awk '{ printf "%s %s\n", $1, $3 }' > "$tmp/wait-$name"
done
printf '1 0\n2 99\n3 0\n4 80\n' | cmp -s - "$tmp/wait-easy" ||
    fail "easy's waits: $(cat "$tmp/wait-easy")"
printf '1 0\n2 99\n3 10\n4 0\n' | cmp -s - "$tmp/wait-sjf-backfill.so" ||
    fail "sjf-backfill's waits: $(cat "$tmp/wait-sjf-backfill.so")"
sha=$(sha256sum "$lib" | cut -d' ' -f1)
tr -d ' \n' < "$tmp/out-sjf-backfill.so/summary.json" |
    grep -q "\"policy_library\":{\"path\":\"$lib\",\"sha256\":\"$sha\"}" ||
    fail "the manifest does not record the library: $(cat "$tmp/out-sjf-backfill.so/summary.json")"

cc -std=c11 -shared -fPIC -Wall -Wextra -Werror -DPOL_INTERFACE_VERSION=999 \
    $(pkg-config --cflags batchlab) "$tmp/example/sjf_backfill.c" -o "$tmp/v999.so"
rc=0
"$bl" run --platform "$platform" --workload "$tmp/kat.swf" --policy "$tmp/v999.so" \
    --out "$tmp/out-v999" > "$tmp/v999.log" 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "a library built for version 999: exit $rc, expected 2"
grep -q "batchlab run: $tmp/v999.so: built for policy interface version 999; this batchlab has version $version" \
    "$tmp/v999.log" || fail "a library built for version 999: $(cat "$tmp/v999.log")"
[ ! -e "$tmp/out-v999" ] || fail "a refused library left $tmp/out-v999 behind"
printf 'int batchlab_something_else = 1;\n' > "$tmp/nosym.c"
cc -shared -fPIC "$tmp/nosym.c" -o "$tmp/nosym.so"
rc=0
"$bl" run --platform "$platform" --workload "$tmp/kat.swf" --policy "$tmp/nosym.so" \
    --out "$tmp/out-nosym" > "$tmp/nosym.log" 2>&1 || rc=$?
[ "$rc" = 2 ] || fail "a library without the symbols: exit $rc, expected 2"
grep -q "batchlab run: $tmp/nosym.so: not a batchlab policy library (no symbol batchlab_policy_interface" \
    "$tmp/nosym.log" || fail "a library without the symbols: $(cat "$tmp/nosym.log")"
[ ! -e "$tmp/out-nosym" ] || fail "a refused library left $tmp/out-nosym behind"
echo "solib_example: installed, built with pkg-config, conformance passed, known answer held"
