#!/usr/bin/env bash
# run_by_hand.sh WORK: small programs whose results are worked out by hand in the comments below
# (independently of the compiler), at np 1, 2 and 4 on test-cluster-4 with partitions that do
# not divide the arrays: padding refreshed at two levels (padded_levels_where.it), an Epoch
# under a false `If` (guarded_epoch_lag.it) and one in a space that only reads the array
# (epoch_reader_space.it), padding refreshed along ranges that run downwards (padded_downwards.it),
# spaces dividing sub-partitions kept in their parent LPU's process (foreach_across_processes.it),
# padding refreshed in parts that stride() cuts (strided_padding.it), per-turn copies of the
# piece in spaces dividing sub-partitions (foreach_turn_copies.it), sections of strided parts as
# stage arguments (strided_sections.it), foreach loops inside one another (nested_foreach.it),
# an Epoch inside a foreach ageing the current piece (foreach_epoch_pieces.it), a movement placed
# before an Epoch around a Where (epoch_where_siblings.it), Strings in coordinator data files
# (coordinator_strings.it), turn copies below turn copies (turn_copy_chain.it), task arrays
# given by Initialize parameters (initialize_arrays.it), readers of `at (current - 1)` in other
# spaces than the writer's (epoch_lag_spaces.it), `(x at (current - 1))[i]` (epoch_subscript.it),
# cursors on environment list items in the coordinator (coordinator_env_lists.it), an item given a
# new array without ranges (environment_new_array.it), objects holding Strings in data files
# (string_objects.it), load into sections of fixed-size fields (load_static_sections.it),
# scalars that only conditions read (condition_scalars.it), Epochs of three sibling spaces with
# two old versions read (epoch_three_spaces.it), a guarded Epoch before a child space's read
# (guarded_epoch_child.it), Space blocks that skip a level (level_skip.it), conditions on array
# elements decided by their own space for spaces holding other parts (conditions_decided.it,
# conditions_decided_sub.it), Root `Repeat for` ranges read from such arrays (ranges_decided.it),
# conditions passing sections to functions (condition_sections.it), load into an element of an
# array of lists (load_elements.it), dimensions of sections (section_dimensions.it),
# fields of elements as stage arguments (element_fields.it), elements and sections of fixed-size
# fields as stage arguments (field_sections.it), a row of a view of a section, load into a shared
# item and advance of a cursor that is no variable (coordinator_edges.it), padded turn copies filled
# before a sibling returns its own (turn_copy_siblings.it), copies into sections along a stride()
# dimension (strided_section_copy.it), sections of `(v at (current - 1))` (epoch_sections.it),
# whole arrays copied in stages (whole_copies.it) and into columns of stride() rows
# (strided_column_copy.it), Integer shifts, overflow and
# unary minus on command-line values (integer_edges.it), conditions on a loop variable after the
# loop (loop_variable_conditions.it), a row copied into a stride() part
# (strided_row_copy.it), sections running downwards in stages (reversed_sections.it),
# sections of fixed-size arrays copied (static_sections.it) and copied into in stages
# (static_global_sections.it), shared list items replaced in one environment
# (shared_list_replaced.it), sections and elements written back
# through `&` (reference_sections.it),
# reductions that no LPU makes (reduction_skipped.it), a movement into a block entered after a
# sibling block's write (scatter_after_sibling.it), two spaces
# sub-partitioning one array (sibling_subpartitions.it), loop variables kept by the environment
# (loop_variable_env.it), movements around a per-LPU Repeat while (loop_movements.it), padded
# parts read from a binary file by several processes (padded_bin_input.it), elements of sections
# of parts (section_elements.it), dimensions of sections of an older version and epochs of epoch
# expressions (epoch_nested_forms.it), older versions of task-global scalars (epoch_scalars.it),
# environment views running upwards of arrays whose ranges run downwards (inverted_views.it),
# fields of one object written by stages of different spaces (object_field_writes.it), `&`
# arguments of one coordinator call naming one environment item twice (coordinator_ref_args.it),
# and of one stage's function call passing one part or section twice (stage_ref_aliases.it), a
# scalar written in an Epoch by one LPU and read by all (epoch_scalar_broadcast.it), replicated
# data written by one LPU of a space working in views of its parent's parts
# (replicated_child_writes.it), sub-partitions of parts dealt by stride() and block_stride()
# (strided_subpartitions.it), Real operations each rounded to the type, never fused
# (rounded_reals.it), range ends assigned in chains (chained_range_ends.it), bound inputs that no
# task reads written as bound outputs (bound_input_unread.it), IT_STATS's peak of the parts alive
# at once (live_parts.it), command-line keys spelled like dimension attributes
# (property_arg_keys.it).
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
# coordinator_edges: a.m[i][j] = 10i + j on 0...5 x 0...6, row 2 columns 1...5 + 1000 through the
# view of a view; f.v = 0...5 + 1 = 1...6, shared by h, which adds 100 (the list has an element
# after its first) after f.v was loaded with 7 8 9 10: fv = 7 8 9 10, hv = 101 ... 106.
{
  printf 'Array\n'
  for i in 0 1 2 3 4 5; do
    row=""
    for j in 0 1 2 3 4 5 6; do
      x=$((10 * i + j))
      if [ $i = 2 ] && [ $j -ge 1 ] && [ $j -le 5 ]; then x=$((x + 1000)); fi
      row="$row${row:+ }$x"
    done
    printf '%s\n' "$row"
  done
  printf '6*7\n'
} >cedge_m_want.txt
printf 'Array\n0 1 2 3 4 5\n6\n' >cedge_v.txt
printf 'Array\n7 8 9 10\n4\n' >cedge_w.txt
printf 'Array\n7 8 9 10\n4\n' >cedge_fv_want.txt
printf 'Array\n101 102 103 104 105 106\n6\n' >cedge_hv_want.txt
compile_program coordinator_edges
for np in 1 2 4; do
  check "a row of a view of a section" $np cedge_m_want.txt cedge_m.txt \
    ./coordinator_edges m=cedge_m.txt v=cedge_v.txt w=cedge_w.txt fv=cedge_fv.txt hv=cedge_hv.txt
  check_also "load into a shared item, np $np" cedge_fv_want.txt cedge_fv.txt
  check_also "the other environment keeps the shared array, np $np" cedge_hv_want.txt cedge_hv.txt
done
# turn_copy_siblings on 0 10 ... 70: one piece of 8 (s = 8), whatever q, every cell but the ends
# is x[i-1] + x[i+1] + 1 of the old values: 0 21 41 61 81 101 121 70; pieces of 3 cut in 2
# (q = 2): [0] [1 2] | [3] [4 5] | [6] [7], each padded inside its piece; only 1 (0 + 20 + 1) and
# 4 (30 + 50 + 1) are interior: 0 21 20 30 81 50 60 70.
printf 'Array\n0 10 20 30 40 50 60 70\n8\n' >tcs_x.txt
printf 'Array\n0 21 41 61 81 101 121 70\n8\n' >tcs_8_want.txt
printf 'Array\n0 21 20 30 81 50 60 70\n8\n' >tcs_3_want.txt
compile_program turn_copy_siblings
for np in 1 2 4; do
  for sq in "8 2" "8 8" "3 2"; do
    set -- $sq
    check "turn copies of padded siblings in an Epoch, s=$1 q=$2" $np tcs_$1_want.txt tcs_out.txt \
      ./turn_copy_siblings input=tcs_x.txt output=tcs_out.txt s=$1 q=$2
  done
done
# strided_section_copy, m[i][j] = 100 i + j on 0...3 x 0...7, columns dealt out by stride() to
# the 4 Nodes (LPU p holds columns p and p + 4): row 2 gets (7, 9) in each LPU's columns in order,
# row 3 (7...0 runs downwards) gets 7 in p + 4 and 9 in p.
printf 'Array\n0 1 2 3 4 5 6 7\n100 101 102 103 104 105 106 107\n7 7 7 7 9 9 9 9\n9 9 9 9 7 7 7 7\n4*8\n' >sscp_want.txt
compile_program strided_section_copy
for np in 1 2 4; do
  check "copies into sections along a stride() dimension" $np sscp_want.txt sscp.txt ./strided_section_copy m=sscp.txt
done
# epoch_sections: v = 10 i on 0...5, then v + 1 in the Epoch; t = the old v, t[0] = 10 + 20 + 30,
# t[4...5] = old v[2...3] = 20 30, t[1] = total(old v[1...3]) = 60.
printf 'Array\n1 11 21 31 41 51\n6\n' >epsec_v_want.txt
printf 'Array\n60 60 20 30 20 30\n6\n' >epsec_t_want.txt
compile_program epoch_sections
for np in 1 2 4; do
  check "sections of an older version" $np epsec_v_want.txt epsec_v.txt ./epoch_sections v=epsec_v.txt t=epsec_t.txt
  check_also "sections of an older version copied and passed, np $np" epsec_t_want.txt epsec_t.txt
done
# epoch_nested_forms: v = 10 i on 0...5, then v + 1, then v[0...1] = old v[4...5] and v[2...3] =
# old v[0...1]: 40 50 0 10 41 51; the inner `at` of nested ones applies, so
# every read is of the old v: t[0] = max of 1...3, t[1] = the first index LPU 0 (holding all)
# holds of 2...4, t[2] = w[4] = 40, t[3] = old v[5], t[4] = total(old v) = 150, t[5] = 10 + 20;
# u = old v, then u[0...1] = old v[4...5], u[2] = old q[1] + 1 = 7, u[3] = 6 + 7, u[4...5] = 5 6.
printf 'Array\n40 50 0 10 41 51\n6\n' >enf_v_want.txt
printf 'Array\n3 2 40 50 150 30\n6\n' >enf_t_want.txt
printf 'Array\n40 50 7 13 5 6\n6\n' >enf_u_want.txt
compile_program epoch_nested_forms
for np in 1 2 4; do
  check "epochs of epoch expressions" $np enf_v_want.txt enf_v.txt ./epoch_nested_forms v=enf_v.txt t=enf_t.txt u=enf_u.txt
  check_also "dimensions of sections of an older version, np $np" enf_t_want.txt enf_t.txt
  check_also "an epoch of an epoch copied, np $np" enf_u_want.txt enf_u.txt
done
# epoch_scalars, 4 rounds, 6 values per round r = 1...4 (versions start equal to Initialize's
# values: s 0, cfg.a 5, total 50, bs[1].b 0): s at current - 1 and - 2 (r - 1, r - 2 from 0),
# cfg.a at current - 1 and - 2 (5 + 10 (r - 1), 5 + 10 (r - 2) from 5), total at current - 1
# (50 + 100 (r - 1)), bs[1].b at current - 1 (1000 (r - 1)).
printf 'Array\n0 0 5 5 50 0 1 0 15 5 150 1000 2 1 25 15 250 2000 3 2 35 25 350 3000\n24\n' >escal_want.txt
compile_program epoch_scalars
for np in 1 2 4; do
  check "older versions of task-global scalars" $np escal_want.txt escal.txt ./epoch_scalars rounds=4 h=escal.txt
done
# The same with the Epoch under `Where k > 1` in Space A: round 1 enters nothing and ages nothing,
# so rounds 2...4 give the values of rounds 1...3 above, and round 4's six stay 0.
sed -e 's/Epoch { Space A { advance(s, cfg, bs\[1\].b, h) } }/Space A { Where k > 1 { Epoch { advance(s, cfg, bs[1].b, h) } } }/' \
  "$root/tests/e2e/programs/epoch_scalars.it" >epoch_scalars_guarded.it
grep -q "Where k > 1" epoch_scalars_guarded.it || { echo "FAIL: epoch_scalars_guarded.it not made"; bad=1; }
printf 'Array\n0 0 5 5 50 0 1 0 15 5 150 1000 2 1 25 15 250 2000 0 0 0 0 0 0\n24\n' >escalg_want.txt
compile epoch_scalars_guarded.it "$root/tests/e2e/programs/epoch_scalars.map" epoch_scalars_guarded
for np in 1 2 4; do
  check "older versions of task-global scalars under Where" $np escalg_want.txt escalg.txt ./epoch_scalars_guarded rounds=4 h=escalg.txt
done
# section_elements, hi = 7: v = 10 i on 0...7, then + 1; t[i] = new v[i] + 1000 old v[i] +
# 10^6 old v[i] = 10 i + 1 + 10010000 i. m[i][j] = 100 i + j on 0...3 x 0...5; s = u =
# m[i][j] + 10000 m[i][j] = 10001 m[i][j] (Space A blocks, Space B stride() rows).
printf 'Array\n1 10010011 20020021 30030031 40040041 50050051 60060061 70070071\n8\n' >sel_t_want.txt
printf 'Array\n0 10001 20002 30003 40004 50005\n1000100 1010101 1020102 1030103 1040104 1050105\n' >sel_s_want.txt
printf '2000200 2010201 2020202 2030203 2040204 2050205\n3000300 3010301 3020302 3030303 3040304 3050305\n4*6\n' >>sel_s_want.txt
compile_program section_elements
for np in 1 2 4; do
  check "elements of sections of parts" $np sel_t_want.txt sel_t.txt ./section_elements hi=7 t=sel_t.txt s=sel_s.txt u=sel_u.txt
  check_also "elements of rows and columns of blocks, np $np" sel_s_want.txt sel_s.txt
  check_also "elements of rows and columns of stride() rows, np $np" sel_s_want.txt sel_u.txt
done
# whole_copies on 3 1 4 1 5 9 2 6 5 3: w = v, t = v before the Epoch, s = w: all the input;
# v doubled: 6 2 8 2 10 18 4 12 10 6.
printf 'Array\n3 1 4 1 5 9 2 6 5 3\n10\n' >wcp_v.txt
printf 'Array\n6 2 8 2 10 18 4 12 10 6\n10\n' >wcp_v_want.txt
compile_program whole_copies
for np in 1 2 4; do
  for p in 1 3 4; do
    check "whole arrays copied in stages, p=$p" $np wcp_v_want.txt wcp_vo.txt \
      ./whole_copies v=wcp_v.txt p=$p v_out=wcp_vo.txt w_out=wcp_w.txt t_out=wcp_t.txt s_out=wcp_s.txt
    for o in w t s; do check_also "whole copy into $o, p=$p, np $np" wcp_v.txt wcp_$o.txt; done
  done
done
# strided_column_copy, c = 2: m[i][j] = 10 i + j on 0...4 x 0...2, column 2 = 100 + i (stride()
# rows), column 0 = 200 + i (block_count(3) rows).
printf 'Array\n200 1 100\n201 11 101\n202 21 102\n203 31 103\n204 41 104\n5*3\n' >scol_want.txt
compile_program strided_column_copy
for np in 1 2 4; do
  check "a whole part copied into a column" $np scol_want.txt scol.txt ./strided_column_copy c=2 out=scol.txt
done
# integer_edges, k = 33 and -3, big = 2147483647: 1 << 33 = 0; 1 << k, -8 >> k, 5 << -k: 0 -1 0
# (k = 33) and 0 -64 40 (k = -3); -k twice; big + 1 wraps to -2147483648 and is not bigger; -9 >> 2
# = floor(-2.25) = -3; 3 << 30 = 3 * 2^30 mod 2^32 = -1073741824. The stage: (i + 1) << (k - 8i),
# k = 33: 0 (a count of 33), 2 << 25, 3 << 17, 4 << 9, 5 << 1, 6 >> 7; k = -3: right shifts, all 0.
printf 'Array\n0 0 -1 0 -33 -33 -2147483648 0 -3 -1073741824\n10\n' >iedg33_c_want.txt
printf 'Array\n0 67108864 393216 2048 10 0\n6\n' >iedg33_t_want.txt
printf 'Array\n0 0 -64 40 3 3 -2147483648 0 -3 -1073741824\n10\n' >iedg-3_c_want.txt
printf 'Array\n0 0 0 0 0 0\n6\n' >iedg-3_t_want.txt
compile_program integer_edges
for np in 1 2; do
  for k in 33 -3; do
    check "Integer shifts, overflow and unary minus, k=$k" $np iedg${k}_c_want.txt iedg_c.txt ./integer_edges k=$k big=2147483647 p=4 c=iedg_c.txt t=iedg_t.txt
    check_also "Integer shifts in a stage, k=$k, np $np" iedg${k}_t_want.txt iedg_t.txt
  done
done
# loop_variable_conditions: k = 4 after [2...4]; Root's If k == 4 counts one hit, none stale;
# Space B's Where k > 3 marks w[i] = 40 + i.
printf 'Array\n4 1 0\n3\n' >lvc_r_want.txt
printf 'Array\n40 41 42 43 44 45\n6\n' >lvc_w_want.txt
compile_program loop_variable_conditions
for np in 1 2 4; do
  for p in 1 2 4; do
    check "conditions on a loop variable after the loop, p=$p" $np lvc_r_want.txt lvc_r.txt ./loop_variable_conditions p=$p r=lvc_r.txt w=lvc_w.txt
    check_also "a Space B condition on the loop variable, p=$p, np $np" lvc_w_want.txt lvc_w.txt
  done
done
# strided_row_copy: m[i][j] = 100 i + j, then rows 1...3 replaced by 10 k + j; s = row sums.
printf 'Array\n0 1 2 3\n10 11 12 13\n20 21 22 23\n30 31 32 33\n400 401 402 403\n500 501 502 503\n6*4\n' >srow_want.txt
printf 'Array\n6 46 86 126 1606 2006\n6\n' >srow_s_want.txt
compile_program strided_row_copy
for np in 1 2 4; do
  check "a row copied into a stride() part" $np srow_want.txt srow.txt ./strided_row_copy m=srow.txt s=srow_s.txt
  check_also "rows of a stride() part passed to a function, np $np" srow_s_want.txt srow_s.txt
done
# reversed_sections: b[i] = 10 i + 1; a[0...3] = b[3...0] and a[7...4] = b[0...3] both give
# 31 21 11 1; the first element of b[6...4] is b[6] = 61, of b[4...6] b[4] = 41; b[6...4].local
# is 6...4: 64.
printf 'Array\n31 21 11 1 31 21 11 1\n8\n' >rsec_a_want.txt
printf 'Array\n61 41 64\n3\n' >rsec_c_want.txt
compile_program reversed_sections
for np in 1 2; do
  check "sections running downwards in a stage" $np rsec_a_want.txt rsec_a.txt ./reversed_sections a=rsec_a.txt c=rsec_c.txt
  check_also "downward sections passed to a function, np $np" rsec_c_want.txt rsec_c.txt
done
# static_sections: g = 1 2 3 4, h.v = g[1...3] = 2 3 4, out = 10 h.v; then the coordinator's
# e.g[1...2] = e.g[0...1] (the values 1 2, read first): g = 1 1 2 4.
printf 'Array\n1 1 2 4\n4\n' >ssec_g_want.txt
printf 'Array\n20 30 40\n3\n' >ssec_o_want.txt
compile_program static_sections
for np in 1 2; do
  check "sections of fixed-size arrays, the coordinator's copy" $np ssec_g_want.txt ssec_g.txt ./static_sections g=ssec_g.txt out=ssec_o.txt
  check_also "sections of fixed-size arrays in a stage, np $np" ssec_o_want.txt ssec_o.txt
done
# static_global_sections: a = 10 11 12 13, b = 20 ... 25; b[1...4] = a[3...0] gives
# b = 20 13 12 11 10 25, then a[0...1] = b[5...4] gives a = 25 10 12 13; v[i] = 100 b[i] + a[i % 4].
printf 'Array\n2025 1310 1212 1113 1025 2510\n6\n' >sgs_want.txt
compile_program static_global_sections
for np in 1 2 4; do
  check "sections of fixed-size task-globals copied in a stage" $np sgs_want.txt sgs.txt ./static_global_sections p=3 o=sgs.txt
done
# shared_list_replaced: k's `create` leaves a.lst = 7 and gives k.lst = -1; j's first Twice
# doubles the shared list (14 in both), b.lst = eight replaces b's only (8), j's second Twice: 28.
printf 'List\n7\n1\n' >slr1_want.txt
printf 'List\n-1\n1\n' >slr2_want.txt
printf 'List\n8\n1\n' >slr3_want.txt
printf 'List\n28\n1\n' >slr4_want.txt
compile_program shared_list_replaced
for np in 1 2; do
  check "a shared list kept by the environment that did not create it" $np slr1_want.txt slr1.txt \
    ./shared_list_replaced o1=slr1.txt o2=slr2.txt o3=slr3.txt o4=slr4.txt
  check_also "the list the task created, np $np" slr2_want.txt slr2.txt
  check_also "a shared list replaced by the coordinator in one environment, np $np" slr3_want.txt slr3.txt
  check_also "the other environment's list, doubled twice, np $np" slr4_want.txt slr4.txt
done
# reference_sections: q.v[1...2] gets its indices added (0 1 2); e.x = 0 0 7 0 with e.x[2] times
# ten; c = q.v, e.x. The stage: loc = x, loc[1...2] plus indices (0 1 72 0), h.v[0...1] plus
# indices (0 1).
printf 'Array\n0 1 2 0 0 70 0\n7\n' >rfs_c_want.txt
printf 'Array\n0 1 72 0 0 1\n6\n' >rfs_t_want.txt
compile_program reference_sections
for np in 1 2; do
  check "sections and elements written back through & (coordinator)" $np rfs_c_want.txt rfs_c.txt ./reference_sections c=rfs_c.txt t=rfs_t.txt
  check_also "sections written back through & (stage), np $np" rfs_t_want.txt rfs_t.txt
done
# reduction_skipped on 3 9 4, best linked from start, total from 100: start = 5000 fails the Root
# Where, so best stays 5000; start = 5 gives max 9. With p = 1 the only Space A LPU is excluded
# (lpuId 0): total stays 100; with p = 3, LPUs 1 and 2 hold 9 and 4: total = 13.
printf 'Array\n3 9 4\n3\n' >rsk_x.txt
compile_program reduction_skipped
for np in 1 2 4; do
  for case in "5000 1 5000 100" "5000 3 5000 13" "5 1 9 100" "5 3 9 13"; do
    set -- $case
    printf 'Array\n%s %s\n2\n' "$3" "$4" >rsk_want.txt
    check "reductions no LPU makes, start=$1 p=$2" $np rsk_want.txt rsk.txt ./reduction_skipped input=rsk_x.txt start=$1 p=$2 output=rsk.txt
  done
done
# scatter_after_sibling on 1...5: two rounds of v = (v + 1) * 10 give 100 v + 110 (probe AI's itc:
# 100 v, S's writes lost).
printf 'Array\n1 2 3 4 5\n5\n' >sas_in.txt
printf 'Array\n210 310 410 510 610\n5\n' >sas_want.txt
compile_program scatter_after_sibling
for np in 1 2 4; do
  for p in 1 2; do
    check "movement into a block entered after a sibling's write, p=$p" $np sas_want.txt sas.txt ./scatter_after_sibling input=sas_in.txt p=$p output=sas.txt
  done
done
# sibling_subpartitions on 1...8: p = 2, s = 2 gives pieces 1 2 | 3 4 and 5 6 | 7 8, so out =
# 3 * 100 + 7 = 307 and 11 * 100 + 15 = 1115; p = 4, s = 1 gives one-element pieces: 102 304 506
# 708; B doubles every element once: 2 4 ... 16 (probe AJ's itc at np 2: 307 2626).
printf 'Array\n1 2 3 4 5 6 7 8\n8\n' >sib_x.txt
printf 'Array\n2 4 6 8 10 12 14 16\n8\n' >sib_x_want.txt
printf 'Array\n307 1115\n2\n' >sib_2_want.txt
printf 'Array\n102 304 506 708\n4\n' >sib_4_want.txt
compile_program sibling_subpartitions
for np in 1 2 4; do
  for ps in "2 2" "4 1"; do
    set -- $ps
    check "two spaces sub-partitioning one array, p=$1 s=$2" $np sib_$1_want.txt sib_out.txt \
      ./sibling_subpartitions x_file=sib_x.txt p=$1 s=$2 out_file=sib_out.txt x_out=sib_xo.txt
    check_also "two spaces sub-partitioning one array, x, p=$1 s=$2, np $np" sib_x_want.txt sib_xo.txt
  done
done
# loop_variable_env, n = 6: k runs 1...6 (last 6, inside = 21), j runs 6...1 (last 1), m runs
# 1, 3, 5 (last 5); a Root stage after the Space A loops copies j: the coordinator reads 6 1 5 21 1
# (probe AJ's itc: 0 0 0 21 0).
printf 'Array\n6 1 5 21 1\n5\n' >lve_want.txt
compile_program loop_variable_env
for np in 1 2 4; do
  for p in 1 3; do
    check "loop variables kept by the environment, p=$p" $np lve_want.txt lve.txt ./loop_variable_env n=6 p=$p out=lve.txt
  done
done
# loop_movements, n = 8, lim = 10: seed x = i, doubled 2i; each Space A block adds i until its first
# element reaches 10, then Space C adds i. pa = 2: block 1...4 turns 8 times (10i), block 5...8
# none (x[5] = 10): 11 22 33 44 15 18 21 24. pa = 4: 10 20 | 12 16 | 10 12 | 14 16, then + i:
# 11 22 15 20 15 18 21 24.
printf 'Array\n11 22 33 44 15 18 21 24\n8\n' >lm2_want.txt
printf 'Array\n11 22 15 20 15 18 21 24\n8\n' >lm4_want.txt
compile_program loop_movements
for np in 1 2 4; do
  for pa in 2 4; do
    check "movements around a per-LPU Repeat while, pa=$pa" $np lm${pa}_want.txt lm.txt ./loop_movements n=8 lim=10 pa=$pa out=lm.txt
  done
done
# padded_bin_input: u[i][j] = 10 i + j read from a .bin file into padded block_count(r, c)
# blocks, plus one. 4 x 4 in 3 x 3 blocks puts the last rows of two processes' parts in one
# stretch of the file (Open MPI's collective read lost it, probe AX); 6 x 5 in 3 x 2.
printf 'Array\n0 1 2 3 10 11 12 13 20 21 22 23 30 31 32 33\n4*4\n' >pb44.txt
printf 'Array\n1 2 3 4 11 12 13 14 21 22 23 24 31 32 33 34\n4*4\n' >pb44_want.txt
printf 'Array\n0 1 2 3 4 10 11 12 13 14 20 21 22 23 24 30 31 32 33 34 40 41 42 43 44 50 51 52 53 54\n6*5\n' >pb65.txt
printf 'Array\n1 2 3 4 5 11 12 13 14 15 21 22 23 24 25 31 32 33 34 35 41 42 43 44 45 51 52 53 54 55\n6*5\n' >pb65_want.txt
"$itc" data convert pb44.txt pb44.bin --type int && "$itc" data convert pb65.txt pb65.bin --type int ||
  { echo "FAIL: itc data convert"; exit 1; }
compile_program padded_bin_input
for np in 1 2 4; do
  check "padded parts read from a .bin file, 4 x 4 in 3 x 3" $np pb44_want.txt pb.txt ./padded_bin_input input=pb44.bin r=3 c=3 out=pb.txt
  check "padded parts read from a .bin file, 6 x 5 in 3 x 2" $np pb65_want.txt pb.txt ./padded_bin_input input=pb65.bin r=3 c=2 out=pb.txt
done
# inverted_views, n = 10: w = i on 9...0, m = 10 i + j on 3...0 x 0...4 (written from the first
# index of each range). The views x = w[2...6] and y = m[1...2][1...3] sum to 2 + ... + 6 = 20
# and 3 (10 + 20) + 2 (1 + 2 + 3) = 102; x gains 100 and y 1000, in w and m.
printf 'Array\n9 8 7 106 105 104 103 102 1 0\n10\n' >iv_w_want.txt
printf 'Array\n30 31 32 33 34\n20 1021 1022 1023 24\n10 1011 1012 1013 14\n0 1 2 3 4\n4*5\n' >iv_m_want.txt
printf 'Array\n20 102\n2\n' >iv_t_want.txt
compile_program inverted_views
for np in 1 2 4; do
  for p in 1 3; do
    check "views of sections of downward arrays, p=$p" $np iv_w_want.txt iv_w.txt \
      ./inverted_views n=10 p=$p w_file=iv_w.txt m_file=iv_m.txt total_file=iv_t.txt
    check_also "a 2d view of a downward dimension, np $np p=$p" iv_m_want.txt iv_m.txt
    check_also "sums over views of downward arrays, np $np p=$p" iv_t_want.txt iv_t.txt
  done
done
# object_field_writes, v on 0...7: LPU 0 of Space A sets cfg.scale = 7, Root cfg.shift = 9 (the
# scale kept), so v[i] = 700 + 9 + i; Root then counts 0 + 1 and sets cfg.inner.k = 5.
printf 'Array\n709 710 711 712 713 714 715 716\n8\n' >ofw_v_want.txt
printf 'Array\n7 9 1 5\n4\n' >ofw_f_want.txt
compile_program object_field_writes
for np in 1 2 4; do
  check "fields of one object written by stages of two spaces" $np ofw_v_want.txt ofw_v.txt \
    ./object_field_writes p=3 out=ofw_v.txt fields=ofw_f.txt
  check_also "the object's fields in the environment, np $np" ofw_f_want.txt ofw_f.txt
done
# coordinator_ref_args: v = 10 11 12 13; swapping v[0], v[1] gives 11 10 12 13; addAll adds 1 to
# each (12 11 13 14), then multiplies v[2], the same cell, by 100: 1300. cfg (1, 2) swapped: 2 1.
# cells k = 0 1 2, cells[1].k + 5: 0 6 2, doubled through one parameter (0 12 4), plus 1 through
# the other naming the same item: 1 13 5. s = 7 8 swapped: 8 7.
printf 'Array\n12 11 1300 14 2 1 1 13 5 8 7\n11\n' >cra_want.txt
compile_program coordinator_ref_args
for np in 1 2 4; do
  check "\`&\` arguments naming one environment item twice" $np cra_want.txt cra.txt ./coordinator_ref_args out=cra.txt
done
# stage_ref_aliases, p = 2: addBoth(v, v) gives (x + 1) 2 on 1...8; m = 1 2 / 3 4 / 5 6 / 7 8 in
# two blocks of rows, whose first rows (0 and 2) become (x + 1) 2: 4 6 and 12 14.
printf 'Array\n1 2 3 4 5 6 7 8\n8\n' >sra_v.txt
printf 'Array\n1 2\n3 4\n5 6\n7 8\n4*2\n' >sra_m.txt
printf 'Array\n4 6 8 10 12 14 16 18\n8\n' >sra_v_want.txt
printf 'Array\n4 6\n3 4\n12 14\n7 8\n4*2\n' >sra_m_want.txt
compile_program stage_ref_aliases
for np in 1 2 4; do
  check "one part passed twice to \`&\` parameters in a stage" $np sra_v_want.txt sra_vo.txt \
    ./stage_ref_aliases v_file=sra_v.txt m_file=sra_m.txt p=2 v_out=sra_vo.txt m_out=sra_mo.txt
  check_also "one section passed twice to \`&\` parameters in a stage, np $np" sra_m_want.txt sra_mo.txt
done
# epoch_scalar_broadcast on u = 0...7: c = 2 c + t for t = 1...5 by the LPU holding index t:
# 1 4 11 26 57, each added to every u[i] by every LPU: u[i] + 99, c ends 57.
printf 'Array\n0 1 2 3 4 5 6 7\n8\n' >esb_u.txt
printf 'Array\n99 100 101 102 103 104 105 106\n8\n' >esb_want.txt
printf 'Array\n57\n1\n' >esb_s_want.txt
compile_program epoch_scalar_broadcast
for np in 1 2 4; do
  for q in 2 3; do
    check "a scalar written in an Epoch by one LPU, q=$q" $np esb_want.txt esb.txt \
      ./epoch_scalar_broadcast input=esb_u.txt q=$q out=esb.txt summary=esb_s.txt
    check_also "its final value in the environment, np $np q=$q" esb_s_want.txt esb_s.txt
  done
done
# replicated_child_writes on 8 zeros: the Space B LPU holding index t adds t to h[1] and 10 t to
# d[0], t = 1...4: 10 and 100; every Space A LPU then writes h[1] 1000 + d[0] = 10100.
printf 'Array\n0 0 0 0 0 0 0 0\n8\n' >rcw_v.txt
printf 'Array\n10100 10100 10100 10100 10100 10100 10100 10100\n8\n' >rcw_want.txt
printf 'Array\n10 100\n2\n' >rcw_s_want.txt
compile_program replicated_child_writes
for np in 1 2 4; do
  for pq in "2 2" "4 1"; do
    set -- $pq
    check "replicated data written by one LPU of a viewing space, p=$1 q=$2" $np rcw_want.txt rcw.txt \
      ./replicated_child_writes input=rcw_v.txt p=$1 q=$2 out=rcw.txt summary=rcw_s.txt
    check_also "the replicated data in the environment, np $np p=$1 q=$2" rcw_s_want.txt rcw_s.txt
  done
done
# strided_subpartitions: each element once, + 1: x = 0...19 -> 1...20, y = 0 10 ... 190 ->
# 1 11 ... 191, m[r][c] = 100 r + c (11 x 3) -> 100 r + c + 1.
printf 'Array\n%s\n20\n' "$(seq -s ' ' 0 19)" >ss_x.txt
printf 'Array\n%s\n20\n' "$(seq -s ' ' 0 10 190)" >ss_y.txt
{ echo Array; for r in $(seq 0 10); do echo "$((100 * r)) $((100 * r + 1)) $((100 * r + 2))"; done; echo '11*3'; } >ss_m.txt
printf 'Array\n%s\n20\n' "$(seq -s ' ' 1 20)" >ss_x_want.txt
printf 'Array\n%s\n20\n' "$(seq -s ' ' 1 10 191)" >ss_y_want.txt
{ echo Array; for r in $(seq 0 10); do echo "$((100 * r + 1)) $((100 * r + 2)) $((100 * r + 3))"; done; echo '11*3'; } >ss_m_want.txt
compile_program strided_subpartitions
for np in 1 2 4; do
  for q in 1 2 3; do
    check "sub-partitions of stride() parts, q=$q" $np ss_x_want.txt ss_xo.txt \
      ./strided_subpartitions x_in=ss_x.txt y_in=ss_y.txt m_in=ss_m.txt q=$q x_out=ss_xo.txt y_out=ss_yo.txt m_out=ss_mo.txt
    check_also "sub-partitions of block_stride() parts, np $np q=$q" ss_y_want.txt ss_yo.txt
    check_also "sub-partitions of rows dealt by stride(), np $np q=$q" ss_m_want.txt ss_mo.txt
  done
done
# rounded_reals: y = x * 0.1 + 0.7 with the product rounded, then the sum (Python's floats are
# IEEE doubles, each operation rounded); about a quarter of these x give another y when fused.
python3 - <<'PY'
xs = [k * 7919.25 - 50000 for k in range(200)]
with open("rr_x.txt", "w") as f:
    f.write("Array\n" + " ".join(repr(x) for x in xs) + "\n200\n")
with open("rr_want.txt", "w") as f:
    f.write("Array\n" + " ".join(repr(x * 0.1 + 0.7) for x in xs) + "\n200\n")
PY
compile_program rounded_reals
for np in 1 2 4; do
  check "Real operations rounded one by one" $np rr_want.txt rr_y.txt ./rounded_reals x_file=rr_x.txt y_file=rr_y.txt p=5
done
# chained_range_ends: x and y run 2...5 with x[3] = 7 and y[5] = 9; a and b run lo...lo+3 with
# a[i] = i and b[i] = -i.
printf 'Array\n0 7 0 0\n4\n' >cre_x_want.txt
printf 'Array\n0 0 0 9\n4\n' >cre_y_want.txt
printf 'Array\n-3 -2 -1 0\n4\n' >cre_a_want.txt
printf 'Array\n3 2 1 0\n4\n' >cre_b_want.txt
compile_program chained_range_ends
for np in 1 2 4; do
  check "range ends assigned in a chain in Initialize" $np cre_a_want.txt cre_a.txt \
    ./chained_range_ends lo=-3 p=3 x_file=cre_x.txt y_file=cre_y.txt a_file=cre_a.txt b_file=cre_b.txt
  check_also "the chain's second array, np $np" cre_b_want.txt cre_b.txt
  check_also "range ends assigned in a chain in the coordinator, np $np" cre_x_want.txt cre_x.txt
  check_also "the coordinator chain's second array, np $np" cre_y_want.txt cre_y.txt
done
# bound_input_unread: no task runs, so each output is its input (x from a .bin file, m from text).
printf 'Array\n5 -3 0 7 11\n5\n' >biu_x_want.txt
printf 'Array\n0.5 1.25 -2\n3 4.75 -0.125\n2*3\n' >biu_m_want.txt
"$itc" data convert biu_x_want.txt biu_x.bin --type int >/dev/null
compile_program bound_input_unread
for np in 1 2 4; do
  check "a bound input no task reads, as a bound output" $np biu_x_want.txt biu_x_out.txt \
    ./bound_input_unread x_in=biu_x.bin m_in=biu_m_want.txt x_out=biu_x_out.txt m_out=biu_m_out.txt
  check_also "the same of a 2d Real item, np $np" biu_m_want.txt biu_m_out.txt
done
# view_writer_movement from zeros: element i ends as its 3-bit path (B bit, C bit, D bit); in
# "Two Views", 32 elements, as its 4-bit path i / 2.
printf 'Array\n%s\n16\n' "$(printf '0 %.0s' $(seq 16) | sed 's/ $//')" >vwm_zero.txt
printf 'Array\n%s\n32\n' "$(printf '0 %.0s' $(seq 32) | sed 's/ $//')" >vwm_zero32.txt
printf 'Array\n0 0 1 1 2 2 3 3 4 4 5 5 6 6 7 7\n16\n' >vwm_want.txt
printf 'Array\n%s\n32\n' "$(for i in $(seq 0 31); do printf '%d ' $((i / 2)); done | sed 's/ $//')" >vwm_want32.txt
compile_program view_writer_movement
for np in 1 2 4; do
  for q in 1 4; do
    check "a viewing space's write moved to a sub-partitioned space, q=$q" $np vwm_want.txt vwm_x.txt \
      ./view_writer_movement x_in=vwm_zero.txt y_in=vwm_zero.txt z_in=vwm_zero32.txt q=$q x_out=vwm_x.txt \
      y_out=vwm_y.txt z_out=vwm_z.txt
    check_also "a viewing space's write moved to a padded space, np $np q=$q" vwm_want.txt vwm_y.txt
    check_also "the write of the inner of two viewing levels moved, np $np q=$q" vwm_want32.txt vwm_z.txt
  done
done
# live_parts: three rounds each fill a new environment's c (n doubles) and store it; the earlier
# rounds' environments are gone, so the peak of parts alive on a rank is one round's share of c
# (8n bytes over the ranks), not the 24n bytes allocated in all. c[i] = i.
printf 'Array\n0 1 2 3 4 5 6 7 8 9\n10\n' >lp_want.txt
compile_program live_parts
for np in 1 2; do
  check "parts of a finished round freed" $np lp_want.txt lp_c.txt ./live_parts n=10 p=4 out=lp_c.txt
  IT_STATS=1 timeout 60 $mpirun -np $np ./live_parts n=100000 p=4 out=lp_big.bin 2>lp_stats.txt >/dev/null
  if awk '/IT_STATS rank .* memory:/ { for (i = 1; i <= NF; i++) { split($i, kv, "=");
          if (kv[1] == "c") c += kv[2]; if (kv[1] == "peak") { p += kv[2]; if (kv[2] == 0) bad = 1 } } }
          END { exit !(c == 2400000 && p > 0 && p <= 800000 + 4096 && !bad) }' lp_stats.txt; then
    echo "ok (IT_STATS peak is one round's parts, np $np)"
  else echo "FAIL (IT_STATS peak, np $np): want c=2400000 in all and a peak of at most 800000 in all"; cat lp_stats.txt; bad=1; fi
done
# property_arg_keys: v (from `local=`) times `dimension=`, written to `range=`.
printf 'Array\n1 2 3 4 5\n5\n' >pak_in.txt
printf 'Array\n3 6 9 12 15\n5\n' >pak_want.txt
compile_program property_arg_keys
for np in 1 2; do
  check "command-line keys named local, range, dimension, dimension2" $np pak_want.txt pak_out.txt \
    ./property_arg_keys local=pak_in.txt range=pak_out.txt dimension=3 dimension2=2
done
exit $bad
