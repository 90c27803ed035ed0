#!/usr/bin/env bash
# Development build: compile engine._core in place (src/engine/_core*.so) so
# that `PYTHONPATH=src` runs the tree as it is. Users install with pip.
set -euo pipefail
cd "$(dirname "$0")"
mkdir -p build/inplace
cython -3 src/engine/_core.pyx -o build/inplace/_core.c
gcc -O3 -mpopcnt -shared -fPIC -fno-strict-aliasing $(python3-config --includes) -Isrc/engine \
    build/inplace/_core.c -o build/inplace/_core.so
mv build/inplace/_core.so "src/engine/_core$(python3-config --extension-suffix)"
