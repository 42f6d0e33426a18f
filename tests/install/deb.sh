#!/usr/bin/env bash
# deb.sh BUILD_DIR WORK_DIR: `cpack -G DEB` makes a Debian package of the install tree whose
# contents (dpkg-deb -c) hold the driver, libitrt and the runtime headers under /usr, and whose
# Depends name the shared libraries itc runs with (computed by dpkg-shlibdeps) and the packages
# generated programs are compiled with (mpicxx, a C++ compiler, the fmt and hwloc headers), and
# whose itc, unpacked, finds the packaged runtime.
set -euo pipefail
build=${1:?usage: deb.sh BUILD_DIR WORK_DIR}
work=${2:?usage: deb.sh BUILD_DIR WORK_DIR}
rm -rf "$work"
mkdir -p "$work"
cpack -G DEB --config "$build/CPackConfig.cmake" -B "$work" >"$work/cpack.log" 2>&1 ||
  { cat "$work/cpack.log"; exit 1; }
deb=$(ls "$work"/*.deb)
echo "package: $(basename "$deb") ($(du -h "$deb" | cut -f1))"
contents=$(dpkg-deb -c "$deb" | awk '{print $NF}')
fail=0
for f in ./usr/bin/itc ./usr/lib/itc/libitrt_task.a ./usr/lib/itc/libitrt_data.a \
         ./usr/lib/itc/libitrt_engine.a ./usr/include/itc/runtime/task/program.h \
         ./usr/include/itc/runtime/engine/reduce_ops.def ./usr/share/doc/itc/language/tutorial.md \
         ./usr/share/itc/pcubes-models/test-cluster-4.pcubes; do
  grep -qxF -- "$f" <<<"$contents" && echo "ok: contains $f" || { echo "FAIL: no $f in the package"; fail=1; }
done
depends=$(dpkg-deb -f "$deb" Depends)
echo "Depends: $depends"
for d in libopenmpi-dev openmpi-bin 'g\+\+' libfmt-dev libhwloc-dev libantlr4-runtime libclang-cpp libhwloc15 libfmt9; do
  grep -Eq "(^|, )$d" <<<"$depends" && echo "ok: depends on $d" || { echo "FAIL: Depends lacks $d"; fail=1; }
done
[[ $(dpkg-deb -f "$deb" Package) == itc ]] || { echo "FAIL: the package is not named itc"; fail=1; }
# Unpacked anywhere (not installed: the test leaves the system alone), the packaged itc finds the
# packaged runtime beside itself.
dpkg-deb -x "$deb" "$work/root"
root=$(cd "$work/root" && pwd)
if "$root/usr/bin/itc" --version | grep -qxF "libitrt installed: $root/usr/include/itc, $root/usr/lib/itc"; then
  echo "ok: the unpacked itc uses the packaged runtime"
else
  echo "FAIL: the unpacked itc does not find the packaged runtime"; fail=1
fi
exit $fail
