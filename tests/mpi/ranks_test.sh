#!/usr/bin/env bash
# apply over MPI ranks (mpirun -n 1, 2, 3 on this machine): a sum's terms dealt to ranks and a
# product's sketch columns split over them give the one-process result to 1e-12 — MPO·MPS and
# MPO·MPO sums of 1–5 terms and products, --chi, --oversample and --tol; sums by sdc and sdcr (the
# ranks meet at each cut's reduction); sums, products and evolve's steps on charges; one product by sdc and a dry run are rank 0's and equal too; /log records the ranks, their flops and peaks, and the bytes exchanged;
# --ranks plans what a dry run under mpirun shows. A rank that fails (a missing input, a budget
# too small, an Inf it reads mid-sweep) ends every rank with its exit status and leaves nothing;
# a SIGTERM to mpirun leaves nothing. Skipped (exit 77) without mpirun or without this build's MPI module.
# Usage: tests/mpi/ranks_test.sh SRC_COMPRESS WORKDIR
set -euo pipefail
bin=${1:?usage: ranks_test.sh SRC_COMPRESS WORKDIR}
work=${2:?usage: ranks_test.sh SRC_COMPRESS WORKDIR}
command -v mpirun >/dev/null || { echo "no mpirun: skipped"; exit 77; }
[ -e "$(dirname "$(dirname "$bin")")/lib/libsrcc_mpi.so" ] || { echo "no MPI module in this build: skipped"; exit 77; }
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1
export OMPI_MCA_btl=self,vader OMPI_MCA_btl_vader_single_copy_mechanism=none
rm -rf "$work" && mkdir -p "$work" && cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
mpi() { local n=$1; shift; mpirun -n "$n" "$bin" "$@"; }

"$bin" generate xxz -o in.h5:/H --sites 12 --delta 0.7 -q
"$bin" generate ising -o in.h5:/I --sites 12 --J 1 --h 0.4 -q
"$bin" generate random-mps -o in.h5:/psi --sites 12 --bond 12 --seed 3 -q
"$bin" generate random-mps -o in.h5:/phi --sites 12 --bond 10 --seed 4 -q

# Relative distance between two results, from `distance`'s own figure.
rel() { "$bin" distance "$1" "$2" --json | /usr/bin/python3 -c 'import json,sys; print(json.load(sys.stdin)["relative_distance"])'; }
check_same() {  # NAME REF OUT
  local d
  d=$(rel "$2" "$3")
  /usr/bin/python3 -c "import sys; sys.exit(0 if float('$d') <= 1e-12 else 1)" || fail "$1: relative distance $d to one process"
  echo "ok $1: $d"
}
json_field() { /usr/bin/python3 -c "import json,sys; d=json.load(open('$1')); print(d$2)"; }

sum5=(--term 1 in.h5:/H in.h5:/psi --term 0.5 in.h5:/I in.h5:/psi --term -0.25 in.h5:/H in.h5:/I in.h5:/psi
      --term 0.1j in.h5:/H in.h5:/phi --term 0.3 in.h5:/phi)
sum2=(--term 1 in.h5:/H in.h5:/psi --term -0.5 in.h5:/psi)
sum1=(--term 0.5 in.h5:/H in.h5:/I in.h5:/psi)
mposum=(--term 1 in.h5:/H in.h5:/I --term 0.5 in.h5:/I in.h5:/H --term 2 in.h5:/H)
cases=(
  "sum5 --chi 20"
  "sum5 --chi 16 --oversample"
  "sum5 --tol 1e-6 --chi 64"
  "sum2 --chi 18"
  "sum1 --chi 18"
  "mposum --chi 24"
  "product --chi 20"
  "product --chi 12 --oversample"
  "product --tol 1e-6 --chi 64"
  "mpompo --chi 16"
  "sdc --chi 20"
  "sdc --chi 16 --oversample"
  "sdc --tol 1e-6 --chi 64"
  "sdcr --chi 20"
  "mposdc --chi 24"
  "sdcproduct --chi 20"
)
for c in "${cases[@]}"; do
  read -r kind flags <<<"$c"
  case $kind in
    sum5) args=("${sum5[@]}") ;;
    sum2) args=("${sum2[@]}") ;;
    sum1) args=("${sum1[@]}") ;;
    mposum) args=("${mposum[@]}") ;;
    product) args=(in.h5:/H in.h5:/psi) ;;
    mpompo) args=(in.h5:/H in.h5:/I) ;;
    sdc) args=("${sum5[@]}" --method sdc) ;;
    sdcr) args=("${sum5[@]}" --method sdcr) ;;
    mposdc) args=("${mposum[@]}" --method sdc) ;;
    sdcproduct) args=(in.h5:/H in.h5:/psi --method sdc) ;;
  esac
  # shellcheck disable=SC2086
  "$bin" apply "${args[@]}" $flags --seed 11 -o "ref_$kind.h5" --force -q
  for n in 1 2 3; do
    # shellcheck disable=SC2086
    mpi "$n" apply "${args[@]}" $flags --seed 11 -o "r${n}_$kind.h5" --force -q --json > "r${n}_$kind.json"
    check_same "$kind $flags, $n rank(s)" "ref_$kind.h5" "r${n}_$kind.h5"
    ranks=$(json_field "r${n}_$kind.json" '["ranks"]')
    case $kind in
      sum5 | mposum | product | mpompo | sum1 | sdc | sdcr | mposdc) want=$n ;;  # a one-term sum splits its columns
      sum2) want=$((n < 2 ? n : 2)) ;;
      *) want=1 ;;
    esac
    [ "$ranks" = "$want" ] || fail "$kind on $n ranks: the summary says ranks = $ranks, expected $want"
  done
done

# On charges (generate xxz and charged-random carry U(1)): by src a sum has its terms dealt as
# the dense one does, each rank reading and sweeping its own in their blocks, and one product its
# sketch columns split; each cut's sector SVDs are dealt to the ranks too. A sum by sdc or sdcr
# deals its terms as well.
"$bin" generate charged-random -o q.h5:/a --sites 12 --bond 16 --seed 3 -q
"$bin" generate charged-random -o q.h5:/b --sites 12 --bond 12 --seed 4 -q
qsum=(--term 1 in.h5:/H q.h5:/a --term 0.5 in.h5:/H in.h5:/H q.h5:/a --term -0.3 q.h5:/b --term 0.2 in.h5:/H q.h5:/b)
qproduct=(in.h5:/H q.h5:/a)
for kind in qsum qproduct; do
  declare -n qargs=$kind
  for flags in "--chi 20" "--chi 12 --oversample" "--tol 1e-6 --chi 64" "--chi 2"; do
    # shellcheck disable=SC2086
    "$bin" apply "${qargs[@]}" $flags --seed 11 -o ref_q.h5 --force -q
    for n in 1 2 3; do
      # shellcheck disable=SC2086
      mpi "$n" apply "${qargs[@]}" $flags --seed 11 -o "r${n}_q.h5" --force -q --json > "r${n}_q.json"
      check_same "charged $kind $flags, $n rank(s)" ref_q.h5 "r${n}_q.h5"
      [ "$(json_field "r${n}_q.json" '["symmetry"]')" = "U(1)" ] || fail "charged $kind on $n ranks: not computed on charges"
      [ "$(json_field "r${n}_q.json" '["ranks"]')" = "$n" ] || fail "charged $kind on $n ranks: not shared by $n ranks"
    done
  done
  unset -n qargs
done
# A charged sum by sdc or sdcr deals its terms too (sdc: each rank its terms' R factors to all at
# every cut; sdcr: every term's blocks' shapes to all, every rank drawing every term's test).
for flags in "--method sdc --chi 20" "--method sdc --chi 12 --oversample" "--method sdc --tol 1e-6 --chi 64" \
             "--method sdcr --chi 20" "--method sdcr --chi 12 --oversample"; do
  # shellcheck disable=SC2086
  "$bin" apply "${qsum[@]}" $flags --seed 11 -o ref_qsdc.h5 --force -q
  for n in 2 3; do
    # shellcheck disable=SC2086
    mpi "$n" apply "${qsum[@]}" $flags --seed 11 -o "r${n}_qsdc.h5" --force -q --json > "r${n}_qsdc.json"
    check_same "charged sum $flags, $n ranks" ref_qsdc.h5 "r${n}_qsdc.h5"
    [ "$(json_field "r${n}_qsdc.json" '["ranks"]')" = "$n" ] || fail "a charged sum ($flags) on $n ranks: not shared by $n ranks"
  done
done

# evolve: a --taylor step's terms dealt to the ranks (by src or sdc, dense or on charges), a
# product step's columns split; rank 0 writes.
"$bin" generate random-mps -o ev.h5:/psi --sites 12 --bond 8 --seed 3 --dtype complex128 -q
"$bin" generate xxz -o ev.h5:/H --sites 12 -q
"$bin" generate step --from ev.h5:/H --dt 0.05 -o ev.h5:/U -q
"$bin" generate charged-random -o ev.h5:/q --sites 12 --bond 8 --seed 3 --dtype complex128 -q
for kind in taylor taylorsdc taylorq taylorqsdc taylorqsdcr step stepq; do
  case $kind in
    taylorqsdcr) args=(ev.h5:/H ev.h5:/q --taylor 4 --dt 0.05 --method sdcr) ;;
    stepq) args=(ev.h5:/U ev.h5:/q) ;;
    taylorqsdc) args=(ev.h5:/H ev.h5:/q --taylor 4 --dt 0.05 --method sdc) ;;
    taylor) args=(ev.h5:/H ev.h5:/psi --taylor 4 --dt 0.05) ;;
    taylorq) args=(ev.h5:/H ev.h5:/q --taylor 4 --dt 0.05) ;;
    taylorsdc) args=(ev.h5:/H ev.h5:/psi --taylor 4 --dt 0.05 --method sdc) ;;
    step) args=(ev.h5:/U ev.h5:/psi) ;;
  esac
  "$bin" evolve "${args[@]}" --steps 3 --chi 16 --seed 5 -o "ev_ref_$kind.h5" -q
  for n in 2 3; do
    mpi "$n" evolve "${args[@]}" --steps 3 --chi 16 --seed 5 -o "ev${n}_$kind.h5" -q
    check_same "evolve $kind, $n ranks" "ev_ref_$kind.h5" "ev${n}_$kind.h5"
  done
done
# ... and the sdc steps and those on charges were shared, not rank 0's alone (which says so in a note).
mpi 2 evolve ev.h5:/H ev.h5:/psi --taylor 4 --dt 0.05 --method sdc --steps 1 --chi 16 --seed 5 -o ev_note.h5 \
  > ev_note.txt 2>&1
if grep -q "wait" ev_note.txt; then cat ev_note.txt; fail "a --taylor step by sdc was not shared over the ranks"; fi
mpi 2 evolve ev.h5:/H ev.h5:/q --taylor 4 --dt 0.05 --steps 1 --chi 16 --seed 5 -o ev_note_q.h5 --json \
  > ev_note_q.json 2> ev_note_q.txt
if grep -q "wait" ev_note_q.txt; then cat ev_note_q.txt; fail "a --taylor step on charges was not shared over the ranks"; fi
[ "$(json_field ev_note_q.json '["symmetry"]')" = "U(1)" ] || fail "the --taylor evolution of a charged state was not computed on charges"

# /log/transfers of a spread run records what the ranks exchanged, and the summary each rank's peak.
"$bin" inspect r3_sum5.h5 --json > inspect.json 2>/dev/null || true
exchanged=$(json_field r3_sum5.json '["bytes_by_mechanism"].get("rank exchange", 0)')
[ "$exchanged" -gt 0 ] || fail "no 'rank exchange' bytes in the summary of a 3-rank sum"
peaks=$(json_field r3_sum5.json '["rank_peak_rss_bytes"]')
/usr/bin/python3 -c "import sys; p=$peaks; sys.exit(0 if len(p)==3 and min(p)>0 else 1)" || fail "rank peaks $peaks"
echo "ok log: $exchanged bytes exchanged, peaks $peaks"

# The dry run under 3 ranks: each rank's terms, and the bytes exchanged (the sketches and the cores).
mpi 3 apply "${sum5[@]}" --chi 20 -o dry.h5 --dry-run > dry.txt 2>&1
grep -q "rank 2: term(s) 3" dry.txt || { cat dry.txt; fail "the dry run does not show rank 2's terms"; }
grep -q "exchanged: about" dry.txt || fail "the dry run does not show the bytes exchanged"
[ ! -e dry.h5 ] || fail "the dry run wrote an output"
# The same plan from a plain process with --ranks 3 (a job sized from a login shell).
"$bin" apply "${sum5[@]}" --chi 20 -o dry.h5 --dry-run --ranks 3 > dry_planned.txt 2>&1
plan_lines() { grep -E '^(over [0-9]+ ranks|  rank|  exchanged)' "$1" | sort -u; }
[ -n "$(plan_lines dry.txt)" ] && [ "$(plan_lines dry.txt)" = "$(plan_lines dry_planned.txt)" ] ||
  { diff <(plan_lines dry.txt) <(plan_lines dry_planned.txt); fail "--ranks 3 plans otherwise than a dry run over 3 ranks"; }
echo "ok dry run over 3 ranks, and planned with --ranks 3"

# An unseeded run draws one seed for all ranks: the result is that seed's one-process result.
# The reference runs on one thread, as each rank does here: the seed is drawn anew each time, and
# some seeds meet a truncation that one process's 1- and 2-thread rounding already tips apart
# (1.2e-12 seen), where the ranks and the one-thread process agree to 2e-15.
mpi 3 apply "${sum5[@]}" --chi 20 -o unseeded.h5 -q --json > unseeded.json
seed=$(json_field unseeded.json '["seed"]')
"$bin" apply "${sum5[@]}" --chi 20 --seed "$seed" --threads 1 -o unseeded_ref.h5 -q
check_same "unseeded (seed $seed), 3 ranks" unseeded_ref.h5 unseeded.h5

# A rank that cannot read its input: every rank ends with exit 3, nothing is written.
set +e
mpirun -n 2 bash -c 'f=in.h5; [ "$OMPI_COMM_WORLD_RANK" = 1 ] && f=missing.h5
  exec "$0" apply --term 1 in.h5:/H in.h5:/psi --term 0.5 "$f":/H in.h5:/psi --chi 8 --seed 1 -o bad.h5 -q' "$bin" \
  > missing.out 2>&1
code=$?
set -e
[ "$code" = 3 ] || { cat missing.out; fail "a missing input on rank 1: exit $code, expected 3"; }
grep -q "missing.h5" missing.out || fail "the message does not name the missing file"
[ ! -e bad.h5 ] || fail "an output was left after a rank failed"
echo "ok missing input on one rank: exit 3"

# An error on one rank alone: rank 1's own term's file holds an Inf at site 7 (put there by
# inf_on_rank1 FILE DATASET), which it reads while rank 0 has swept its term and waits for the
# exchange. Every rank ends with that error's status (through MPI_Abort), the message names the
# rank, file and site, nothing is written.
inf_on_rank1() {  # WHAT FILE DATASET APPLY-ARGS…
  local what=$1 file=$2 dataset=$3 code
  shift 3
  /usr/bin/python3 -c "import h5py, numpy; f = h5py.File('$file', 'r+'); d = f['$dataset'][...]; d.flat[0] = numpy.inf; f['$dataset'][...] = d"
  set +e
  mpirun -n 2 "$bin" apply "$@" --chi 8 --seed 1 -o inf_out.h5 -q > inf.out 2>&1
  code=$?
  set -e
  [ "$code" = 3 ] || { cat inf.out; fail "$what: exit $code, expected 3"; }
  grep -q "rank 1: $file:/$dataset: non-finite value" inf.out || { cat inf.out; fail "$what: the message does not name rank 1's file and site"; }
  [ ! -e inf_out.h5 ] || fail "$what: an output was left after a rank failed"
  echo "ok $what: exit 3"
}
# Dense: read when rank 1's left sweep gets to site 7.
"$bin" generate random-mps -o mid.h5:/psi --sites 10 --bond 8 --seed 1 -q
"$bin" generate random-mpo -o mid.h5:/H --sites 10 --bond 3 --seed 2 -q
"$bin" generate random-mpo -o mid.h5:/Z --sites 10 --bond 3 --seed 3 -q
inf_on_rank1 "an Inf read by rank 1 mid-sweep" mid.h5 Z/7 --term 1 mid.h5:/H mid.h5:/psi --term 0.5 mid.h5:/Z mid.h5:/psi
# On charges: rank 1 alone reads its term's blocks, and finds the Inf.
"$bin" generate charged-random -o midq.h5:/a --sites 10 --bond 8 --seed 1 -q
"$bin" generate charged-random -o midq.h5:/b --sites 10 --bond 8 --seed 2 -q
"$bin" generate xxz -o midq.h5:/H --sites 10 -q
inf_on_rank1 "an Inf in rank 1's charged term" midq.h5 b/7 --term 1 midq.h5:/H midq.h5:/a --term 0.5 midq.h5:/H midq.h5:/b

# A budget too small on one rank: exit 5 on all, nothing written.
set +e
mpirun -n 2 bash -c 'm=8GB; [ "$OMPI_COMM_WORLD_RANK" = 1 ] && m=64KB
  exec "$0" apply --term 1 in.h5:/H in.h5:/psi --term 0.5 in.h5:/I in.h5:/psi --chi 8 --seed 1 -o bad.h5 -q --host-memory $m' "$bin" \
  > budget.out 2>&1
code=$?
set -e
[ "$code" = 5 ] || { cat budget.out; fail "a budget too small on rank 1: exit $code, expected 5"; }
[ ! -e bad.h5 ] || fail "an output was left after a rank ran out of budget"
echo "ok budget on one rank: exit 5"

# SIGTERM to mpirun mid-run: nothing under the output's name, no temporary files beside it.
"$bin" generate random-mps -o big.h5:/psi --sites 48 --bond 256 --seed 5 -q
"$bin" generate xxz -o big.h5:/H --sites 48 -q
mkdir -p term_out
mpirun -n 2 "$bin" apply --term 1 big.h5:/H big.h5:/psi --term 0.5 big.h5:/H big.h5:/H big.h5:/psi \
  --chi 256 --oversample --seed 1 -o term_out/r.h5 -q > term.out 2>&1 &  # about 13 s on 2 cores
pid=$!
sleep 2
kill -TERM "$pid"
set +e
wait "$pid"
code=$?
set -e
[ "$code" != 0 ] || fail "mpirun ended 0 after SIGTERM (the run finished within 2 s: make it larger)"
[ -z "$(ls -A term_out)" ] || { ls -la term_out; fail "SIGTERM left files: $(ls term_out)"; }
echo "ok SIGTERM to mpirun: exit $code, nothing left"
# --max-time (rank 0's clock) reached while the ranks share the sweep: every rank ends with 130
# (through MPI_Abort), nothing left.
mkdir -p max_out
set +e
mpirun -n 2 "$bin" apply --term 1 big.h5:/H big.h5:/psi --term 0.5 big.h5:/H big.h5:/H big.h5:/psi \
  --chi 256 --oversample --seed 1 -o max_out/r.h5 -q --max-time 2s > max.out 2>&1
code=$?
set -e
[ "$code" = 130 ] || { cat max.out; fail "--max-time over ranks: exit $code, expected 130"; }
grep -q "rank 0: --max-time 2s reached" max.out || { cat max.out; fail "--max-time over ranks: rank 0 does not say why"; }
[ -z "$(ls -A max_out)" ] || fail "--max-time over ranks left files: $(ls max_out)"
echo "ok --max-time over ranks: exit 130, nothing left"

# SIGTERM to mpirun mid-evolution: rank 0 saves the finished steps (the other ranks wait for it
# before they end); --resume over ranks ends where the run that was not stopped ends.
"$bin" generate random-mps -o evl.h5:/psi --sites 24 --bond 32 --seed 3 --dtype complex128 -q
"$bin" generate xxz -o evl.h5:/H --sites 24 -q
long=(evl.h5:/H evl.h5:/psi --taylor 2 --dt 0.02 --steps 200 --chi 32 --seed 5)
mpirun -n 2 "$bin" evolve "${long[@]}" -o evl_stopped.h5 -q > evl.out 2>&1 &  # about 7 s on 2 cores
pid=$!
sleep 2
kill -TERM "$pid"
set +e
wait "$pid"
set -e
grep -q "continue with --resume" evl.out || { cat evl.out; fail "a stopped evolution over ranks did not say it can be resumed"; }
mpi 2 evolve "${long[@]}" -o evl_stopped.h5 --resume -q
# The reference is the same 2 ranks unstopped: 200 truncated steps carry rounding far (one
# process on 1 and on 2 threads differ by about 1e-5 at the end), a stop and resume must not.
mpi 2 evolve "${long[@]}" -o evl_ref.h5 -q
check_same "evolve stopped by SIGTERM and resumed over 2 ranks" evl_ref.h5 evl_stopped.h5
echo "all MPI rank tests passed"
