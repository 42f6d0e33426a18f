#!/usr/bin/env bash
# run_sharing.sh WORK: environment items shared between environments keep their sharing while
# the coordinator and tasks change them (programs/env_sharing.it), at np 1, 2 and 4 with a
# partition that does not divide the arrays. The expected files are worked out by hand in the
# comments below, independently of the compiler.
set -u
source "$(dirname "$0")/script_setup.sh" "$@"
compile "$root/tests/e2e/programs/env_sharing.it" "$root/tests/e2e/programs/env_sharing.map" env_sharing
# g.u: zeros (created, never written); the view of cells 0..2, incremented by two tasks
printf 'Array\n2 2 2 0 0 0\n6\n' >views_want.txt
# g.c = 0..5; g.c[0] = 50; bump (+100): 150 101 102 103 104 105; Inc through h.v (shared): +1;
# bump of the view of cells 1..2: 202 203; Inc through that view: 203 204
printf 'Array\n151 203 204 104 105 106\n6\n' >shared_want.txt
# Next: y = x + 10 from g.u; then x = the first y, y made anew: y = 22..., x (and k.v) keep 12...
printf 'Array\n22 22 22 20 20 20\n6\n' >created_want.txt
printf 'Array\n12 12 12 10 10 10\n6\n' >kept_want.txt
cp kept_want.txt other_want.txt
for np in 1 2 4; do
  rm -f views.txt shared.txt created.txt kept.txt other.txt
  if timeout 60 $mpirun -np $np ./env_sharing p=4 views=views.txt shared=shared.txt created=created.txt \
       kept=kept.txt other=other.txt >run.log 2>&1; then
    for f in views shared created kept other; do
      if "$ref/ref_check" equal $f.txt ${f}_want.txt 0 >/dev/null; then echo "ok ($f, np $np)"
      else echo "FAIL ($f, np $np): got"; cat $f.txt; echo "want"; cat ${f}_want.txt; bad=1; fi
    done
  else echo "FAIL (np $np): the program failed:"; cat run.log; bad=1; fi
done
exit $bad
