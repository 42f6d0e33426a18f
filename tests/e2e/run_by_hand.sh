#!/usr/bin/env bash
# run_by_hand.sh WORK: small programs whose results are worked out by hand in the comments below
# (independently of the compiler), at np 1, 2 and 4 on test-cluster-4 with partitions that do not
# divide the arrays: padding refreshed at two levels (padded_levels_where.it), an Epoch under a
# false `If` (guarded_epoch_lag.it) and one in a space that only reads the array
# (epoch_reader_space.it), padding refreshed along ranges that run downwards (padded_downwards.it),
# spaces dividing sub-partitions kept in their parent LPU's process (foreach_across_processes.it),
# padding refreshed in parts that stride() cuts (strided_padding.it), per-turn copies of the piece
# in spaces dividing sub-partitions (foreach_turn_copies.it), sections of strided parts as stage
# arguments (strided_sections.it), foreach loops inside one another (nested_foreach.it), an Epoch
# inside a foreach ageing the current piece (foreach_epoch_pieces.it), a movement placed before an
# Epoch around a Where (epoch_where_siblings.it), Strings in coordinator data files
# (coordinator_strings.it), turn copies below turn copies (turn_copy_chain.it), task arrays given
# by Initialize parameters (initialize_arrays.it), readers of `at (current - 1)` in other spaces
# than the writer's (epoch_lag_spaces.it), `(x at (current - 1))[i]` (epoch_subscript.it), cursors
# on environment list items in the coordinator (coordinator_env_lists.it), an item given a new
# array without ranges (environment_new_array.it), objects holding Strings in data files
# (string_objects.it), load into sections of fixed-size fields (load_static_sections.it), scalars
# that only conditions read (condition_scalars.it), Epochs of three sibling spaces with two old
# versions read (epoch_three_spaces.it), a guarded Epoch before a child space's read
# (guarded_epoch_child.it), Space blocks that skip a level (level_skip.it), conditions on array
# elements decided by their own space for spaces holding other parts (conditions_decided.it,
# conditions_decided_sub.it), Root `Repeat for` ranges read from such arrays (ranges_decided.it),
# conditions passing sections to functions (condition_sections.it), load into an element of an
# array of lists (load_elements.it), dimensions of sections (section_dimensions.it), fields of
# elements as stage arguments (element_fields.it), elements and sections of fixed-size fields as
# stage arguments (field_sections.it).
# run_by_hand2.sh has the rest; the two run side by side under ctest.
set -u
source "$(dirname "$0")/script_setup.sh" "$@"
compile_program() { # compile_program <name>: programs/<name>.it with its map, to ./<name>
  compile "$root/tests/e2e/programs/$1.it" "$root/tests/e2e/programs/$1.map" "$1"
}
printf 'Array\n0 3 6 2 5 1 4 0\n8\n' >u8.txt
# padded_levels_where, 2 rounds: round 1 pins u[0] (1 3 6 2 5 1 4 0) and sweeps (1 4 9 8 7 6 5 4);
# round 2 pins (2 4 9 8 7 6 5 4) and sweeps: 2 6 13 17 15 13 11 9. The neighbour a B part reads
# across a Space A block boundary is fresh only if both refreshes ran.
printf 'Array\n2 6 13 17 15 13 11 9\n8\n' >levels_want.txt
compile_program padded_levels_where
for np in 1 2 4; do
  for km in "1 2" "3 1" "2 2"; do
    set -- $km
    check "padding at two levels, k=$1 m=$2" $np levels_want.txt levels.txt \
      ./padded_levels_where input=u8.txt out=levels.txt steps=2 k=$1 m=$2
  done
done
# guarded_epoch_lag on 0...6: f = 2v + 1; round 1's Epoch is not entered, round 2's reads
# current - 1 = f and current - 2 = v: y = f + 100 v = 1 103 205 307 409 511 613.
printf 'Array\n0 1 2 3 4 5 6\n7\n' >v7.txt
printf 'Array\n1 103 205 307 409 511 613\n7\n' >lag_want.txt
compile_program guarded_epoch_lag
for np in 1 2 4; do check "Epoch under a false If" $np lag_want.txt lag.txt ./guarded_epoch_lag input=v7.txt out=lag.txt p=3; done
# epoch_reader_space on 0...6: y = 101 f = 101 (2v + 1); z (B's read of y at current - 1) = f.
printf 'Array\n101 303 505 707 909 1111 1313\n7\n' >reader_want.txt
printf 'Array\n1 3 5 7 9 11 13\n7\n' >reader_z_want.txt
compile_program epoch_reader_space
for np in 1 2 4; do
  check "Epoch in a space that only reads" $np reader_want.txt reader.txt \
    ./epoch_reader_space input=v7.txt out=reader.txt zout=reader_z.txt p=3
  "$ref/ref_check" equal reader_z.txt reader_z_want.txt 0 >/dev/null || { echo "FAIL (z, np $np)"; bad=1; }
done
# padded_downwards, 2 rounds. x[i] = i*i on 7...0: round 1 gives 1 5 14 29 50 77 110 85 for
# i = 0...7, round 2 gives 6 20 48 93 156 237 272 195, written in the range's order (7 first).
# m[i][j] = 10i + j, i in 0...5, j in 3...0: round 1 gives 10+2j, 30i+3j (i = 1...4), 90+2j;
# round 2 gives 40+5j, 100+8j, 180+9j, 270+9j, 300+8j, 210+5j (rows of j = 3, 2, 1, 0).
printf 'Array\n195 272 237 156 93 48 20 6\n8\n' >down_x_want.txt
printf 'Array\n55 50 45 40\n124 116 108 100\n207 198 189 180\n297 288 279 270\n324 316 308 300\n225 220 215 210\n6*4\n' \
  >down_m_want.txt
compile_program padded_downwards
for np in 1 2 4; do
  for p in 2 3; do
    check "padding along downward ranges, p=$p" $np down_x_want.txt down_x.txt \
      ./padded_downwards rounds=2 p=$p xout=down_x.txt mout=down_m.txt
    "$ref/ref_check" equal down_m.txt down_m_want.txt 0 >/dev/null || { echo "FAIL (m, np $np, p=$p)"; bad=1; }
  done
done
# cpp_names on 1...5: 10 v + 12 + (v % 2) + 3 = 26 35 46 55 66
printf 'Array\n1 2 3 4 5\n5\n' >names_in.txt
printf 'Array\n26 35 46 55 66\n5\n' >names_want.txt
compile_program cpp_names
for np in 1 2 4; do check "names C++ uses" $np names_want.txt names.txt ./cpp_names input=names_in.txt out=names.txt p=3; done
# store_after_execute: the second task reads 10 20 30 40 (not the stored 1000...1003) and adds 1
printf 'Array\n1 2 3 4\n4\n' >first_in.txt
printf 'Array\n11 21 31 41\n4\n' >store_want.txt
compile_program store_after_execute
for np in 1 2 4; do
  printf 'Array\n10 20 30 40\n4\n' >shared.txt
  check "store after execute" $np store_want.txt stored.txt \
    ./store_after_execute input=first_in.txt shared=shared.txt output=stored.txt p=2
done
# where_around_foreach on 1...12 (3 x 4): cell (i, c) gets 10 i + c
printf 'Array\n1 2 3 4\n5 6 7 8\n9 10 11 12\n3*4\n' >m34.txt
printf 'Array\n1 3 5 7\n15 17 19 21\n29 31 33 35\n3*4\n' >bumps_want.txt
compile_program where_around_foreach
for np in 1 2 4; do
  for pq in "2 2" "3 1" "1 3"; do
    set -- $pq
    check "Where around a foreach, p=$1 q=$2" $np bumps_want.txt bumps.txt ./where_around_foreach input=m34.txt out=bumps.txt p=$1 q=$2
  done
done
# env_objects: e1.c = 1 shared by e2, incremented by both tasks: 3 and 3; e1.cfg.scale 2 + 10;
# w[1] = 7.5; w[2] = the scale when the task ran, 2; cells[3].k = 99; cells[2].k = 2 + 100 * 2
# (e1's task ran with c = 2); e2's cells[3].k = 3 + 100 * 3; the loop's sum 1 + 2 + 3
printf 'Array\n3 3 12 7.5 2 99 202 303 6\n9\n' >objects_want.txt
compile_program env_objects
for np in 1 2 4; do check "scalar and object items" $np objects_want.txt objects.txt ./env_objects out=objects.txt p=3; done
# gather_to_viewed_parent on 1...6: each Space B block's maximum after +100: blocks {1,2,3},
# {4,5,6} (p=2) give 103 106; {1,2}, {3,4}, {5,6} (p=3) give 102 104 106
printf 'Array\n1 2 3 4 5 6\n6\n' >x6.txt
printf 'Array\n103 106\n2\n' >bm2_want.txt
printf 'Array\n102 104 106\n3\n' >bm3_want.txt
compile_program gather_to_viewed_parent
for np in 1 2 4; do
  check "gather into viewed parts, p=2" $np bm2_want.txt bm2.txt ./gather_to_viewed_parent x_file=x6.txt bm_file=bm2.txt p=2
  check "gather into viewed parts, p=3" $np bm3_want.txt bm3.txt ./gather_to_viewed_parent x_file=x6.txt bm_file=bm3.txt p=3
done
# foreach_across_processes on 1...6: each turn gives 2x + 1 (3 5 7 9 11 13), summed along each
# Space A block: p=2 blocks {1,2,3} {4,5,6}: 3 8 15 9 20 33; p=3: 3 8 7 16 11 24; p=1: the
# running sum of all six, 3 8 15 24 35 48.
printf 'Array\n3 8 15 9 20 33\n6\n' >turn2_want.txt
printf 'Array\n3 8 7 16 11 24\n6\n' >turn3_want.txt
printf 'Array\n3 8 15 24 35 48\n6\n' >turn1_want.txt
compile_program foreach_across_processes
for np in 1 2 4; do
  check "foreach spaces kept in process, p=2" $np turn2_want.txt turn.txt ./foreach_across_processes input=x6.txt out=turn.txt p=2 s=2 r=2
  check "foreach spaces kept in process, p=3" $np turn3_want.txt turn.txt ./foreach_across_processes input=x6.txt out=turn.txt p=3 s=1 r=2
  check "foreach spaces kept in process, p=1" $np turn1_want.txt turn.txt ./foreach_across_processes input=x6.txt out=turn.txt p=1 s=4 r=3
done
# strided_padding on 0...9, y[i] = x[i - 2] + x[i + 2] where both exist (i = 2...7), then x = y,
# twice (cells 0, 1, 8, 9 end 0): round 1 gives 0 0 4 6 8 10 12 14 0 0, round 2
# 0 0 8 10 16 20 8 10 0 0. A Space A LPU of cells 3...5 (k=3) holds 1...7; its B LPU with the
# even cells computes 4 from 2 and 6, which Space A LPUs 0 and 2 own: stale padding gives 0 there.
printf 'Array\n0 1 2 3 4 5 6 7 8 9\n10\n' >x10.txt
printf 'Array\n0 0 8 10 16 20 8 10 0 0\n10\n' >strided_pad_want.txt
compile_program strided_padding
for np in 1 2 4; do
  for k in 3 2 4; do
    check "padding refreshed in strided parts, k=$k" $np strided_pad_want.txt strided_pad.txt ./strided_padding input=x10.txt out=strided_pad.txt k=$k
  done
done
# foreach_turn_copies on u = w = 1...7 (indices 0...6). block_count(p) gives the last part the
# extra cells (p=2: 0...2, 3...6; p=3: 0...1, 2...3, 4...6); pieces of 4; Space B halves each
# piece (the first half the larger), each half padded by one cell inside the piece, and t[i] =
# u[i - 1] + u[i + 1] for the cells strictly inside a half's padded range. p=1: pieces 0...3
# (t[1] = 1 + 3, t[2] = 2 + 4) and 4...6 (t[5] = 5 + 7): 0 4 6 0 0 12 0. p=2: 0...2 (t[1] = 4)
# and 3...6 (t[4] = 4 + 6, t[5] = 12): 0 4 0 0 10 12 0. p=3: only 4...6 has an inner cell, t[5]
# = 12. w: two rounds of 2w + 1, 4w + 3 = 7 11 ... 31, whatever p.
printf 'Array\n1 2 3 4 5 6 7\n7\n' >in7.txt
printf 'Array\n0 4 6 0 0 12 0\n7\n' >tcopy1_want.txt
printf 'Array\n0 4 0 0 10 12 0\n7\n' >tcopy2_want.txt
printf 'Array\n0 0 0 0 0 12 0\n7\n' >tcopy3_want.txt
printf 'Array\n7 11 15 19 23 27 31\n7\n' >wcopy_want.txt
compile_program foreach_turn_copies
for np in 1 2 4; do
  for p in 1 2 3; do
    check "turn copies of padded parts, p=$p" $np tcopy${p}_want.txt tcopy.txt \
      ./foreach_turn_copies u_in=in7.txt w_in=in7.txt t_out=tcopy.txt w_out=wcopy.txt p=$p
    check_also "turn copies of epoch versions, p=$p, np $np" wcopy_want.txt wcopy.txt
  done
done
# strided_sections on m[i][j] = 10 i + j, 11 x 11 (8 cores: some LPUs hold two columns). Step k
# doubles row k from column k on, adds 1 to rows and columns k...10, then adds k to column k. A
# cell with j >= i has i bumps before step i, is doubled and bumped at step i and gets j at step
# j: 2 (10 i + j + i) + 1 + j = 22 i + 3 j + 1. One with j < i has j bumps, then at step j a bump
# and j: 10 i + 3 j + 1.
{
  echo Array
  for i in $(seq 0 10); do
    row=""
    for j in $(seq 0 10); do
      if [ "$j" -ge "$i" ]; then v=$((22 * i + 3 * j + 1)); else v=$((10 * i + 3 * j + 1)); fi
      row="$row${row:+ }$v"
    done
    echo "$row"
  done
  echo '11*11'
} >sections_want.txt
{
  echo Array
  for i in $(seq 0 10); do
    row=""
    for j in $(seq 0 10); do row="$row${row:+ }$((10 * i + j))"; done
    echo "$row"
  done
  echo '11*11'
} >m11.txt
compile_program strided_sections
for np in 1 2 4; do
  check "sections of strided parts as stage arguments" $np sections_want.txt sections.txt ./strided_sections input=m11.txt out=sections.txt
done
# nested_foreach on seven ones. x gets 1 in A's turn and 1 in C's: 3 everywhere. y is doubled
# once per turn of its Space A LPU (B's own loop visits each of its cells once): 2^(pieces of the
# A LPU), and so is z (the inner loop of the same space visits every piece once per outer turn).
# block_count(p) puts the extra cells last: p=2 gives parts of 3 and 4 cells, p=3 of 2, 2, 3.
# p=2 s=2: 2 pieces each, 4 everywhere; p=3 s=1: 2, 2, 3 pieces, 4 4 4 4 8 8 8; p=1 s=3: 3 pieces, 8.
printf 'Array\n1 1 1 1 1 1 1\n7\n' >ones7.txt
printf 'Array\n3 3 3 3 3 3 3\n7\n' >nested_x_want.txt
printf 'Array\n4 4 4 4 4 4 4\n7\n' >nested_2_2_want.txt
printf 'Array\n4 4 4 4 8 8 8\n7\n' >nested_3_1_want.txt
printf 'Array\n8 8 8 8 8 8 8\n7\n' >nested_1_3_want.txt
compile_program nested_foreach
for np in 1 2 4; do
  for ps in "2 2" "3 1" "1 3"; do
    set -- $ps
    check "nested foreach loops, x, p=$1 s=$2" $np nested_x_want.txt nested_x.txt \
      ./nested_foreach input=ones7.txt x_out=nested_x.txt y_out=nested_y.txt z_out=nested_z.txt p=$1 s=$2
    check_also "nested foreach loops, y, p=$1 s=$2, np $np" nested_$1_$2_want.txt nested_y.txt
    check_also "nested foreach loops, z, p=$1 s=$2, np $np" nested_$1_$2_want.txt nested_z.txt
  done
done
# foreach_epoch_pieces on 1...8, 3 steps of z = z(-1) + z(-2) + k from versions all x: 2x + 1,
# 3x + 3, 5x + 7 = 12 17 22 27 32 37 42 47, whatever the pieces.
printf 'Array\n1 2 3 4 5 6 7 8\n8\n' >x8.txt
printf 'Array\n12 17 22 27 32 37 42 47\n8\n' >pieces_want.txt
compile_program foreach_epoch_pieces
for np in 1 2 4; do
  for ps in "1 3" "2 2" "3 1"; do
    set -- $ps
    check "Epoch ages the current piece, p=$1 s=$2" $np pieces_want.txt pieces.txt ./foreach_epoch_pieces input=x8.txt out=pieces.txt steps=3 p=$1 s=$2
  done
done
# epoch_where_siblings on x = 1 2 3, two steps. Step 1: D's versions are all x, z1 = x + 2x + 1;
# B ages (z1, z1, x) and w = z1 - x = 2x + 1. Step 2: D gets B's two newest versions (z1, z1)
# before its Epoch ages them to (z1, z1, z1): z2 = 3 z1 + 2 = 9x + 5 = 14 23 32; B has
# (z2, z2, z1) after its entry: w = 10 (2x + 1) + z2 - z1 = 26x + 14 = 40 66 92.
printf 'Array\n1 2 3\n3\n' >x3.txt
printf 'Array\n14 23 32\n3\n' >growth_z_want.txt
printf 'Array\n40 66 92\n3\n' >growth_w_want.txt
compile_program epoch_where_siblings
for np in 1 2 4; do
  for pq in "1 1" "2 3" "3 2"; do
    set -- $pq
    check "movement before a guarded Epoch, p=$1 q=$2" $np growth_z_want.txt growth_z.txt \
      ./epoch_where_siblings input=x3.txt z_out=growth_z.txt w_out=growth_w.txt steps=2 p=$1 q=$2
    check_also "movement before a guarded Epoch, w, p=$1 q=$2, np $np" growth_w_want.txt growth_w.txt
  done
done
# coordinator_strings: the three Strings written, read back from binary; the list in insertion
# order (each insert goes before the first element); the section 1...3 of a 4-element array
# whose element 0 was set first.
printf 'Array\n"odd" "even" "with spaces inside"\n3\n' >strings_want.txt
printf 'List\n"first" "second"\n2\n' >strings_list_want.txt
printf 'Array\n"kept" "odd" "even" "with spaces inside"\n4\n' >strings_section_want.txt
compile_program coordinator_strings
for np in 1 2; do # Strings are no numbers for ref_check: the files must be the same bytes
  rm -f strings_[abms].txt
  timeout 60 $mpirun -np $np ./coordinator_strings a_txt=strings_a.txt a_bin=strings_a.bin b_txt=strings_b.txt \
    l_bin=strings_l.bin m_txt=strings_m.txt s_txt=strings_s.txt >run.log 2>&1 || { echo "FAIL (Strings, np $np)"; cat run.log; bad=1; }
  for pair in "strings_want.txt strings_a.txt" "strings_want.txt strings_b.txt" "strings_list_want.txt strings_m.txt" \
    "strings_section_want.txt strings_s.txt"; do
    set -- $pair
    if cmp -s "$1" "$2"; then echo "ok (Strings: $2, np $np)"; else echo "FAIL (Strings: $2, np $np)"; cat "$2"; bad=1; fi
  done
done
# turn_copy_chain on 1...7: x gets 10 in Space B and 1 in Space D, y 1 in D: 12...18 and 2...8,
# whatever the partition.
printf 'Array\n12 13 14 15 16 17 18\n7\n' >chain_x_want.txt
printf 'Array\n2 3 4 5 6 7 8\n7\n' >chain_y_want.txt
compile_program turn_copy_chain
for np in 1 2 4; do
  for psr in "2 3 2" "1 7 3" "3 2 1"; do
    set -- $psr
    check "copies of turn copies, x, p=$1 s=$2 r=$3" $np chain_x_want.txt chain_x.txt \
      ./turn_copy_chain input=in7.txt x_out=chain_x.txt y_out=chain_y.txt p=$1 s=$2 r=$3
    check_also "copies of turn copies, y, p=$1 s=$2 r=$3, np $np" chain_y_want.txt chain_y.txt
  done
done
# initialize_arrays, second execution: y[i] = w[i] * 1 + k[i % 3] with w = i * i (w[1] = 1000)
# and k = 10 20 30: 1020 34 19 36 55 46 69; z[i][j] = 2 (i + j / 2) = 2i + j.
printf 'Array\n1020 34 19 36 55 46 69\n7\n' >init_y_want.txt
printf 'Array\n0 1\n2 3\n4 5\n3*2\n' >init_z_want.txt
compile_program initialize_arrays
for np in 1 2 4; do
  for p in 1 3 8; do
    check "arrays given by Initialize parameters, y, p=$p" $np init_y_want.txt init_y.txt \
      ./initialize_arrays n=7 p=$p y_file=init_y.txt z_file=init_z.txt
    check_also "arrays given by Initialize parameters, z, p=$p, np $np" init_z_want.txt init_z.txt
  done
done
# epoch_lag_spaces on 1...7, 3 rounds: x = input + 1 + 3 * 11; both measures of
# x - x at (current - 1) are 10 (the probe's itc read the task-start version: 11).
printf 'Array\n35 36 37 38 39 40 41\n7\n' >lag_x_want.txt
printf 'Array\n10 10\n2\n' >lag_d_want.txt
compile_program epoch_lag_spaces
for np in 1 2 4; do
  for pq in "3 2" "1 7" "4 3"; do
    set -- $pq
    check "lagged readers in other spaces, d, p=$1 q=$2" $np lag_d_want.txt lag_d.txt \
      ./epoch_lag_spaces input=in7.txt rounds=3 p=$1 q=$2 x_out=lag_x.txt d_out=lag_d.txt
    check_also "lagged readers in other spaces, x, p=$1 q=$2, np $np" lag_x_want.txt lag_x.txt
  done
done
# epoch_subscript on 1...7, 2 rounds of +5: y = 10 * (6...12), z = 5 everywhere.
printf 'Array\n60 70 80 90 100 110 120\n7\n' >esub_y_want.txt
printf 'Array\n5 5 5 5 5 5 5\n7\n' >esub_z_want.txt
compile_program epoch_subscript
for np in 1 2 4; do
  for p in 1 3; do
    check "subscripts of epoch expressions, y, p=$p" $np esub_y_want.txt esub_y.txt \
      ./epoch_subscript input=in7.txt p=$p y_out=esub_y.txt z_out=esub_z.txt
    check_also "subscripts of epoch expressions, z, p=$p, np $np" esub_z_want.txt esub_z.txt
  done
done
# coordinator_env_lists: see the program's comment for the order.
printf 'List\n20 10 30 200 20 10\n6\n' >envlist_want.txt
compile_program coordinator_env_lists
for np in 1 2; do
  check "list functions on an environment item in the coordinator" $np envlist_want.txt envlist.txt \
    ./coordinator_env_lists out=envlist.txt
done
# environment_new_array, n = 5: squares of 5...1, then twice them.
printf 'Array\n25 16 9 4 1\n5\n' >ena_x_want.txt
printf 'Array\n50 32 18 8 2\n5\n' >ena_y_want.txt
compile_program environment_new_array
for np in 1 2 4; do
  for p in 1 2 7; do
    check "an item given a new array, p=$p" $np ena_x_want.txt ena_x.txt \
      ./environment_new_array n=5 p=$p x_out=ena_x.txt y_out=ena_y.txt
    check_also "an item given a new array, shared, p=$p, np $np" ena_y_want.txt ena_y.txt
  done
done
# string_objects: two Tags stored as text, the same loaded back from binary; the list the task
# extended (its Tag has empty Strings), written to binary and loaded back. Compared byte for byte.
printf 'Array\n"one" "ann" 10 "first" "with spaces in it" 0.5 "two" "bob" 20 "first" "with spaces in it" 1\n2\n' >so_a_want.txt
printf 'List\n"from the task" "" 1 "" "" 0 "seven" "cy" 70 "first" "with spaces in it" 3.5\n2\n' >so_l_want.txt
compile_program string_objects
for np in 1 2; do
  rm -f so_[abl].txt so_[al].bin
  timeout 60 $mpirun -np $np ./string_objects a_txt=so_a.txt a_bin=so_a.bin b_txt=so_b.txt l_bin=so_l.bin \
    l_txt=so_l.txt >run.log 2>&1 || { echo "FAIL (objects with Strings, np $np)"; cat run.log; bad=1; }
  for pair in "so_a_want.txt so_a.txt" "so_a_want.txt so_b.txt" "so_l_want.txt so_l.txt"; do
    set -- $pair
    if cmp -s "$1" "$2"; then echo "ok (objects with Strings: $2, np $np)"; else echo "FAIL (objects with Strings: $2, np $np)"; cat "$2"; bad=1; fi
  done
done
# load_static_sections: w = 9 5 6 8, row 1 of m = 1.5 2 3 read into Integers (1 2 3).
printf 'Array\n5 6\n2\n' >lss_f.txt
printf 'Array\n1.5 2 3\n3\n' >lss_g.txt
printf 'Array\n9 5 6 8 1 2 3\n7\n' >lss_want.txt
compile_program load_static_sections
for np in 1 2; do
  check "load into sections of fixed-size fields" $np lss_want.txt lss.txt ./load_static_sections f=lss_f.txt g=lss_g.txt o=lss.txt
done
# condition_scalars on 1...7, k = 6, lim = 11: s = 7 > 0 adds 1 (2...8), then rounds of +1 until
# x[6] reaches 11: 5...11 (the probe's itc: 1...7 plus only the writer's part, or no end).
printf 'Array\n5 6 7 8 9 10 11\n7\n' >cs_want.txt
compile_program condition_scalars
for np in 1 2 4; do
  for pb in "2 3" "1 7" "3 1"; do
    set -- $pb
    check "scalars only conditions read, p=$1 b=$2" $np cs_want.txt cs.txt \
      ./condition_scalars x_file=in7.txt k=6 lim=11 p=$1 b=$2 x_out=cs.txt
  done
done
# epoch_three_spaces on 8 zeros: x = 50, y = 1000 * 50 + 20.
printf 'Array\n0 0 0 0 0 0 0 0\n8\n' >z8.txt
printf 'Array\n50 50 50 50 50 50 50 50\n8\n' >e3_x_want.txt
printf 'Array\n50020 50020 50020 50020 50020 50020 50020 50020\n8\n' >e3_y_want.txt
compile_program epoch_three_spaces
for np in 1 2 4; do
  for p in 2 3; do
    check "Epochs of three sibling spaces, y, p=$p" $np e3_y_want.txt e3_y.txt ./epoch_three_spaces input=z8.txt p=$p xout=e3_x.txt yout=e3_y.txt
    check_also "Epochs of three sibling spaces, x, p=$p, np $np" e3_x_want.txt e3_x.txt
  done
done
# guarded_epoch_child on 8 zeros: 100 from C, 10 from B, 1 more in A's LPU 1 (cells 4...7 for
# p = 2; block_count(3) of 8 gives 0...1, 2...3, 4...7: cells 2...3 for p = 3).
printf 'Array\n110 110 110 110 111 111 111 111\n8\n' >gec2_want.txt
printf 'Array\n110 110 111 111 110 110 110 110\n8\n' >gec3_want.txt
compile_program guarded_epoch_child
for np in 1 2 4; do
  for p in 2 3; do
    check "guarded Epoch before a child's read, p=$p" $np gec${p}_want.txt gec.txt ./guarded_epoch_child input=z8.txt p=$p out=gec.txt
  done
done
# level_skip on 1...7, k = 6: x = (x + 1) * 2 + 3 = 7 9 ... 19, and the Root stage reads 19
# (the probe's itc: 2 4 ... 14, B's writes lost).
printf 'Array\n7 9 11 13 15 17 19\n7\n' >lsk_x_want.txt
printf 'Array\n19\n1\n' >lsk_s_want.txt
compile_program level_skip
for np in 1 2 4; do
  for pb in "2 3" "3 2" "1 7"; do
    set -- $pb
    check "Space blocks skipping a level, x, p=$1 b=$2" $np lsk_x_want.txt lsk_x.txt \
      ./level_skip x_file=in7.txt k=6 p=$1 b=$2 x_out=lsk_x.txt s_out=lsk_s.txt
    check_also "Space blocks skipping a level, Root's read, p=$1 b=$2, np $np" lsk_s_want.txt lsk_s.txt
  done
done
# conditions_decided on 0...6: fill 1...7; v[0] == 1 so mark gives 100...700; v[1] = 200 is not 1;
# Repeat while v[0] < 5000 doubles six times (100 -> 6400): v = 6400 (i + 1), w = v + 1.
printf 'Array\n6400 12800 19200 25600 32000 38400 44800\n7\n' >cdec_v_want.txt
printf 'Array\n6401 12801 19201 25601 32001 38401 44801\n7\n' >cdec_w_want.txt
compile_program conditions_decided
for np in 1 2 4; do
  for p in 2 3 7; do
    check "Root conditions on v around Space A, p=$p" $np cdec_v_want.txt cdec_v.txt ./conditions_decided p=$p o=cdec_v.txt w=cdec_w.txt
    check_also "Root conditions on v around Space A, w, p=$p, np $np" cdec_w_want.txt cdec_w.txt
  done
done
# conditions_decided_sub on 0...11 (v[i] = i), blocks of pa. k = 1, 2, 3: a block whose first
# element has k's parity adds k. pa = 3: k = 1 adds 1 to 3...5 and 9...11, k = 2 adds 2 to all
# (firsts 0 4 6 10), k = 3 none (firsts 2 6 8 12); + 100: 102 103 104 106 107 108 108 109 110
# 112 113 114; lasts > 111: the last block negated; then each block adds 1 until its first
# element is a multiple of 7: +3, +6, +4, and none for -112: 105 106 107 112 113 114 112 113 114
# -112 -113 -114. pa = 5: k = 1 adds 1 to 5...9, k = 2 adds 2 to all; + 100: 102...106 108...112
# 112 113; blocks 2 and 3 negated; +3 (102 -> 105), +3 (-108 -> -105), none (-112).
printf 'Array\n105 106 107 112 113 114 112 113 114 -112 -113 -114\n12\n' >cds3_want.txt
printf 'Array\n105 106 107 108 109 -105 -106 -107 -108 -109 -112 -113\n12\n' >cds5_want.txt
compile_program conditions_decided_sub
for np in 1 2 4; do
  for pa in 3 5; do
    check "Space A conditions on v around Space B, pa=$pa" $np cds${pa}_want.txt cds.txt ./conditions_decided_sub pa=$pa pb=2 o=cds.txt
  done
done
# ranges_decided on 0...6: v[i] = i + 3, w = 0. v[1] = 4 > 3: k = 3, 2, 1 gives w = 321; span(v)
# = 0...6 step v[0] = 3: k = 0, 3, 6 gives 321036; [1...3] step count(v) = 7: k = 1 gives
# 3210361; [1...v[0]] is evaluated once, before bump changes v[0]: three bumps, v = i + 6.
printf 'Array\n6 7 8 9 10 11 12\n7\n' >rdec_v_want.txt
printf 'Array\n3210361 3210361 3210361 3210361 3210361 3210361 3210361\n7\n' >rdec_w_want.txt
compile_program ranges_decided
for np in 1 2 4; do
  for p in 2 3 7; do
    check "Root Repeat for ranges on v, p=$p" $np rdec_w_want.txt rdec_w.txt ./ranges_decided p=$p v=rdec_v.txt w=rdec_w.txt
    check_also "Root Repeat for ranges on v, v, p=$p, np $np" rdec_v_want.txt rdec_v.txt
  done
done
# condition_sections on 0...6, x[i] = i: Root sums x[1...2] = 3, bump; same(x)[1...2] = 5, bump
# (x = i + 2); 7 is not 99. Space A blocks of p: a block whose first element is > 3 is scaled by
# 10, then each block adds 1 until its sum reaches 200. p = 2: 2 3 | 40 50 | 60 70 | 80 -> +98,
# +55, +35, +120; p = 3: 2 3 4 | 50 60 70 | 80 -> +64, +7, +120; p = 7: 2...8 -> +24.
printf 'Array\n100 101 95 105 95 105 200\n7\n' >csec2_want.txt
printf 'Array\n66 67 68 57 67 77 200\n7\n' >csec3_want.txt
printf 'Array\n26 27 28 29 30 31 32\n7\n' >csec7_want.txt
compile_program condition_sections
for np in 1 2 4; do
  for p in 2 3 7; do
    check "conditions passing sections to functions, p=$p" $np csec${p}_want.txt csec.txt ./condition_sections p=$p o=csec.txt
  done
done
# load_elements: the list 16 9 4 1 stored, loaded into a[1][2], its second element removed.
printf 'List\n16 4 1\n3\n' >lel_g_want.txt
printf 'List\n\n0\n' >lel_h_want.txt
compile_program load_elements
for np in 1 2; do
  check "load into an element of an array of lists" $np lel_g_want.txt lel_g.txt ./load_elements f=lel_f.txt g=lel_g.txt h=lel_h.txt
  check_also "an element never loaded, stored empty, np $np" lel_h_want.txt lel_h.txt
done
# section_dimensions on 0...9, blocks of p: for a block lo...hi, r = [3...6] and q = [2...7] clipped
# to it (max(3, lo)...min(6, hi)), z = 1...2, s = 1...2: x = r.min r.max q.min q.max as digits
# (x 10000, 1000, 100, 10) + z.max + s.min + s.max, then x * 10 + hi - lo (the older version's
# part). p = 3: blocks 0-2 3-5 6-8 9: 32225 -> 322252, 35355 -> 353552, 66675 -> 666752,
# 96975 -> 969750; p = 4: 0-3 4-7 8-9; p = 10: one block. t: k = 2, 3, 4 gives 234.
printf 'Array\n322252 322252 322252 353552 353552 353552 666752 666752 666752 969750\n10\n' >sdim3_want.txt
printf 'Array\n332353 332353 332353 332353 464753 464753 464753 464753 868751 868751\n10\n' >sdim4_want.txt
printf 'Array\n362759 362759 362759 362759 362759 362759 362759 362759 362759 362759\n10\n' >sdim10_want.txt
printf 'Array\n234 234 234 234 234 234 234 234 234 234\n10\n' >sdim_t_want.txt
compile_program section_dimensions
for np in 1 2 4; do
  for p in 3 4 10; do
    check "dimensions of sections, p=$p" $np sdim${p}_want.txt sdim_x.txt ./section_dimensions p=$p x=sdim_x.txt t=sdim_t.txt
    check_also "a section's range in a Space A Repeat for, p=$p, np $np" sdim_t_want.txt sdim_t.txt
  done
done
# element_fields on 0...6: v = i, scaled by box 1's weights (3, 10): 3i + 10; a Root stage sets
# box 0's n to v's last index, 6, which Space A adds: 3i + 16.
printf 'Array\n16 19 22 25 28 31 34\n7\n' >efld_want.txt
compile_program element_fields
for np in 1 2 4; do
  for p in 1 2 3; do
    check "fields of elements as stage arguments, p=$p" $np efld_want.txt efld.txt ./element_fields p=$p v=efld.txt
  done
done
# field_sections on 0...6: box 0's weights 0 1 2 (bumped x10 at 1...2: 0 10 20), box 1's 10 11 12
# then weights[2] = grid[1][2] = 5; cfg.k 1 2 3 4 bumped at 1...2: 1 20 30 4; shelf[1].n = box 0's
# weights[1] = 10, shelf[1].weights 1 2 3; rack[1].n = 3, rack[1].weights 4 5 6. v = i; * k[1] +
# k[2]: 20i + 30; + 5; * grid[0][1] + grid[1][1] (1, 4): 20i + 39; + 20; + 10; * 1 + 2: 20i + 71;
# + 3; * 5 + 6: 100i + 376.
printf 'Array\n376 476 576 676 776 876 976\n7\n' >fsec_want.txt
compile_program field_sections
for np in 1 2 4; do
  for p in 1 3; do
    check "sections of fixed-size fields as stage arguments, p=$p" $np fsec_want.txt fsec.txt ./field_sections p=$p v=fsec.txt
  done
done
exit $bad
