#!/usr/bin/env bash
# Installs every Debian package itc needs to build, test and run, non-interactively.
# A no-op (no apt-get at all) when everything is already present.
set -euo pipefail

packages=(
  build-essential g++ cmake ninja-build pkg-config git
  antlr4 libantlr4-runtime-dev default-jre-headless
  libclang-cpp14-dev libclang-14-dev llvm-14-dev clang-format
  clang-tidy-14                 # tools/tidy.sh (CI)
  clang-14 libclang-rt-14-dev   # libFuzzer and its sanitizers (tools/fuzz.sh)
  libopenmpi-dev openmpi-bin
  libhwloc-dev hwloc
  libfmt-dev
  libopenblas-dev
  libgtest-dev googletest
  python3
)

missing=()
for p in "${packages[@]}"; do
  if ! dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed'; then
    missing+=("$p")
  fi
done

if [ ${#missing[@]} -eq 0 ]; then
  echo "install-deps: all ${#packages[@]} packages present"
  exit 0
fi

echo "install-deps: installing ${missing[*]}"
sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}"
