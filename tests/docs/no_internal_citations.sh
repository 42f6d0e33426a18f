#!/usr/bin/env bash
# no_internal_citations.sh ROOT ITC: users only have the language guide (docs/language/), so
# nothing they read may cite the rule numbers (R-n) or section numbers (§n) of the internal
# language document. Fails when
#  - the acceptance grep finds a citation in frontend/diagnostics, semantic or backend (the
#    diagnostic texts, `itc plan` and the generated C++ come from there; comments too);
#  - `itc plan` of an example (without and with its mapping) prints one;
#  - `itc --help` or `itc COMMAND --help` prints one.
# Cite a guide section instead, e.g. "(see the guide: Partition functions)".
set -uo pipefail
root=${1:?usage: no_internal_citations.sh ROOT ITC}; itc=${2:?usage: no_internal_citations.sh ROOT ITC}
pattern='R-[0-9]+|§[0-9]'
cd "$root" || exit 2
bad=0

if hits=$(grep -rnE "$pattern" frontend/diagnostics semantic backend); then
  echo "internal citations in frontend/diagnostics, semantic or backend:"; echo "$hits"; bad=1
fi

machine=pcubes-models/test-cluster-4.pcubes
for it in examples/*/*.it; do
  map=${it%.it}.map
  runs=("$it")
  [[ -f $map ]] && runs+=("$it $map --machine $machine")
  for args in "${runs[@]}"; do
    # shellcheck disable=SC2086
    out=$("$itc" plan $args 2>&1); code=$?
    if ((code != 0)); then
      echo "itc plan $args failed (exit $code):"; echo "$out"; bad=1
    fi
    if hits=$(grep -nE "$pattern" <<<"$out"); then
      echo "internal citations in the output of itc plan $args:"; echo "$hits"; bad=1
    fi
  done
done

for cmd in "" check compile data machine parse plan; do
  # shellcheck disable=SC2086
  out=$("$itc" $cmd --help 2>&1)
  if hits=$(grep -nE "$pattern" <<<"$out"); then
    echo "internal citations in itc $cmd --help:"; echo "$hits"; bad=1
  fi
done

((bad == 0)) && echo "no internal citations"
exit $bad
