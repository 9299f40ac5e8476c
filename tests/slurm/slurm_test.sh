#!/usr/bin/env bash
# A real single-node SLURM cluster on 127.0.0.1, started and stopped by this test: munged,
# slurmctld and slurmd with their own config, state and spool under a temporary folder. It runs
# a 3-task job array from scripts/slurm (manifest, sbatch template), checks every output and
# the collected CSV, resubmits the array (all skipped), then sends SIGTERM to a running job and
# checks that nothing is left under its final name.
# Usage: slurm_test.sh SRC_COMPRESS_BINARY SOURCE_DIR. Exits 77 (skipped) only when the slurm-wlm
# and munge packages are not installed.
set -uo pipefail
bin=$(realpath "$1")
src=$(realpath "$2")
for tool in munged slurmctld slurmd sbatch squeue sinfo scancel scontrol; do
  if ! command -v "$tool" >/dev/null; then
    echo "SKIPPED: $tool not found; install the Debian packages slurm-wlm and munge (scripts/setup.sh does)"
    exit 77
  fi
done

T=$(mktemp -d /tmp/srcc-slurm-XXXXXX)
chmod 755 "$T"
pids=()
cleanup() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  sleep 0.5
  for p in "${pids[@]}"; do kill -9 "$p" 2>/dev/null; done
  rm -rf "$T"
}
trap cleanup EXIT
fail() {
  echo "FAIL: $*"
  for f in "$T"/*.log; do echo "--- $f"; tail -n 20 "$f"; done
  exit 1
}

# --- munge -------------------------------------------------------------------------------
mkdir -p "$T/munge" && chmod 700 "$T/munge"
dd if=/dev/urandom of="$T/munge/munge.key" bs=1024 count=1 status=none
chmod 400 "$T/munge/munge.key"
munged -f --key-file="$T/munge/munge.key" --socket="$T/munge/munge.sock" \
  --pid-file="$T/munge/munged.pid" --log-file="$T/munged.log" --seed-file="$T/munge/seed" ||
  fail "munged did not start"
pids+=("$(cat "$T/munge/munged.pid")")

# --- slurm ---------------------------------------------------------------------------------
port=$((20000 + RANDOM % 20000))
mkdir -p "$T/state" "$T/spool" "$T/jobs"
cat >"$T/slurm.conf" <<CONF
ClusterName=srcc-test
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$T/munge/munge.sock
StateSaveLocation=$T/state
SlurmdSpoolDir=$T/spool
SlurmctldPidFile=$T/slurmctld.pid
SlurmdPidFile=$T/slurmd.pid
SlurmctldLogFile=$T/slurmctld.log
SlurmdLogFile=$T/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SwitchType=switch/none
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MinJobAge=600
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$(nproc) RealMemory=1000 State=UNKNOWN
PartitionName=test Nodes=localhost Default=YES MaxTime=INFINITE State=UP
CONF
export SLURM_CONF="$T/slurm.conf"
slurmctld -D -f "$SLURM_CONF" >"$T/slurmctld.out.log" 2>&1 &
pids+=($!)
slurmd -D -N localhost -f "$SLURM_CONF" >"$T/slurmd.out.log" 2>&1 &
pids+=($!)
for _ in $(seq 60); do
  state=$(sinfo -h -o %T 2>/dev/null | head -n 1)
  [ "$state" = idle ] && break
  sleep 0.5
done
[ "$state" = idle ] || fail "the node did not come up (state '$state')"
echo "cluster up on port $port"

# --- a 3-task array from a manifest ---------------------------------------------------------
cd "$T/jobs"
"$bin" -q generate ising -o H.h5 --sites 12 >/dev/null || fail "generate"
"$bin" -q generate random-mps -o psi.h5 --sites 12 --bond 6 --seed 3 >/dev/null || fail "generate"
bash "$src/scripts/slurm/make_manifest.sh" -o manifest.txt --outdir out --inputs "H.h5 psi.h5" \
  --chis "4 8 16" --seed-base 11 --extra "--threads 1" >/dev/null || fail "make_manifest"
[ "$(wc -l <manifest.txt)" -eq 3 ] || fail "manifest should have 3 lines"
export SRC_COMPRESS="$bin"
sbatch --wait --array=0-2 --output="$T/jobs/array-%a.log" \
  "$src/scripts/slurm/array.sbatch" "$T/jobs/manifest.txt" >sbatch.out 2>&1 ||
  { cat sbatch.out "$T"/jobs/array-*.log; fail "the array job failed"; }
for f in out/chi4_task0.h5 out/chi8_task1.h5 out/chi16_task2.h5; do
  [ -f "$f" ] || fail "missing output $f"
done
"$bin" collect out/*.h5 -o table.csv || fail "collect"
[ "$(grep -c ',1,MPS,12,' table.csv)" -eq 3 ] || { cat table.csv; fail "table.csv: 3 complete rows expected"; }
seeds=$(cut -d, -f9 table.csv | tail -n +2 | sort -u | wc -l)
[ "$seeds" -eq 3 ] || fail "the three tasks should have three different seeds"
for chi in 4 8 16; do
  grep -q "\"out/chi${chi}_task[0-9].h5\",1,MPS,12,$chi," table.csv || { cat table.csv; fail "max bond $chi"; }
done
before=$(md5sum out/*.h5)
sbatch --wait --array=0-2 --output="$T/jobs/again-%a.log" \
  "$src/scripts/slurm/array.sbatch" "$T/jobs/manifest.txt" >/dev/null 2>&1 || fail "resubmission"
[ "$before" = "$(md5sum out/*.h5)" ] || fail "a resubmitted array must leave complete outputs alone"
grep -q "skipped" again-0.log || fail "resubmitted task 0 did not report a skip"
echo "array: 3 outputs, collected CSV, resubmission skipped"

# --- SIGTERM to a running job ---------------------------------------------------------------
"$bin" -q generate random-mps -o big_psi.h5 --sites 400 --bond 96 --seed 1 >/dev/null
"$bin" -q generate random-mpo -o big_H.h5 --sites 400 --bond 8 --seed 2 >/dev/null
echo "apply big_H.h5 big_psi.h5 -o out/big.h5 --chi 256 --threads 1" >big.txt
job=$(sbatch --parsable --array=0-0 --output="$T/jobs/big.log" "$src/scripts/slurm/array.sbatch" "$T/jobs/big.txt")
for _ in $(seq 60); do
  [ "$(squeue -h -j "$job" -o %T 2>/dev/null)" = RUNNING ] && break
  sleep 0.25
done
sleep 1.5
scancel --signal=TERM --full "$job" || fail "scancel"
for _ in $(seq 120); do
  [ -z "$(squeue -h -j "$job" 2>/dev/null)" ] && break
  sleep 0.25
done
[ -z "$(squeue -h -j "$job" 2>/dev/null)" ] || fail "the signalled job did not end"
[ ! -e out/big.h5 ] || fail "a signalled job left out/big.h5"
ls -a out | grep -q '\.tmp-' && fail "a signalled job left a temporary file"
grep -q "stopped by SIGTERM" big.log || { cat big.log; fail "src-compress did not report the SIGTERM"; }
# After its clean-up src-compress ends as killed by the SIGTERM (ExitCode exit:signal).
exit_code=$(scontrol show job "$job" | grep -o 'ExitCode=[0-9]*:[0-9]*' | head -n 1)
[ "$exit_code" = "ExitCode=0:15" ] || fail "exit code $exit_code, expected 0:15 (killed by SIGTERM)"
echo "SIGTERM: clean stop, ended by the signal, no output"
echo "1 passed, 0 failed"
