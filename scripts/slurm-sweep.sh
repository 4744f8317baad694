#!/usr/bin/env bash
# scripts/slurm-sweep.sh -- run a `blsim sweep` as a Slurm job array, then merge it
# (docs/sweeps.md, "Running on a Slurm cluster").
#
# Usage:
#   scripts/slurm-sweep.sh submit SPEC --out DIR --shards N [--blsim PATH] [-j J]
#                          [--throttle M] [--dry-run] [-- SBATCH_ARG...]
#
# `submit` (run it on a login node) submits two jobs with `sbatch --parsable`:
#   1. a job array of N tasks, `--array=1-N` (`1-N%M` with --throttle M: at most M at once),
#      each asking for J CPUs (`--cpus-per-task=J`, default 1). Task K runs
#        BLSIM sweep SPEC --out DIR/shards/K --shard K/N -j ${SLURM_CPUS_PER_TASK:-1}
#   2. a merge job, `--dependency=afterany:<array job id>`, one CPU, which runs
#        BLSIM sweep merge --out DIR DIR/shards/1 ... DIR/shards/N
#      and leaves DIR/results.csv and DIR/results.json, byte-identical to a single machine's.
# It prints both job ids (`array job <id>: ...`, `merge job <id>: ...`) and exits 0.
#
# Why afterany and not afterok: a sweep exits 1 when one of its runs failed (the others ran
# and their results are kept), so with afterok a single failed run would leave the merge
# pending forever (DependencyNeverSatisfied). With afterany the merge always runs, and it
# checks for itself: it exits 1 when a run failed (the results are written, with `failed`
# counted) and 2, writing nothing, when a shard is missing or incomplete (a task that was
# cancelled, hit its time limit or died), naming the missing runs in its log.
#
# To resume or repair, run the same `submit` command again: every shard skips the runs it has
# finished (docs/sweeps.md, "Running, progress, resuming"), so only what is missing runs.
#
# The jobs run on other machines, in another directory: DIR, SPEC, the base scenario it names
# (and the files that refers to) and BLSIM must be at the same absolute paths on every node,
# on a shared file system. `submit` makes every path absolute and creates DIR and DIR/logs
# before submitting. The jobs' output goes to DIR/logs/shard-<array job>_<task>.out and
# DIR/logs/merge-<job>.out; each job runs in DIR (--chdir).
#
# Options of submit:
#   --out DIR       where the sweep goes (required)
#   --shards N      how many array tasks (required, 1..100000; more than the sweep's points
#                   leaves the extra shards with nothing to run, which is harmless)
#   --blsim PATH    the blsim binary (default: build/blsim of this checkout when it exists,
#                   else `blsim` on PATH)
#   -j J            CPUs per array task, passed to sbatch as --cpus-per-task=J (default 1);
#                   each task runs at most that many runs at once
#   --throttle M    at most M array tasks at once (sbatch --array=1-N%M)
#   --dry-run       print the sbatch commands instead of running them
#   -- ARG...       everything after `--` is passed to both sbatch commands, before the
#                   script: --partition=..., --account=..., --time=..., --qos=..., ...
#
# The other roles, `shard BLSIM SPEC DIR N` and `merge BLSIM DIR N`, are what the jobs run
# (Slurm runs a copy of this script as the batch script); they are not meant to be typed.
#
# Exit status: 0 submitted; 1 sbatch failed (its message printed; if the array job was
# submitted and the merge job was not, the array job is cancelled); 2 bad usage, nothing
# submitted. In the job roles, blsim's own exit status.
#
# The #SBATCH lines below are the defaults of both jobs; the command line of submit
# overrides them (sbatch gives its command-line options precedence over #SBATCH lines).
#SBATCH --job-name=blsim-sweep
#SBATCH --nodes=1
#SBATCH --ntasks=1
#SBATCH --cpus-per-task=1
#SBATCH --open-mode=append
set -euo pipefail

me=slurm-sweep.sh

usage() {
  cat <<'EOF'
usage: scripts/slurm-sweep.sh submit SPEC --out DIR --shards N [--blsim PATH] [-j J]
                              [--throttle M] [--dry-run] [-- SBATCH_ARG...]
(see the header of scripts/slurm-sweep.sh and docs/sweeps.md)
EOF
}

die_usage() {
  echo "$me: $*" >&2
  usage >&2
  exit 2
}

# is_count VALUE: a whole number from 1 to 100000, written without leading zeros.
is_count() {
  [[ $1 =~ ^[1-9][0-9]{0,5}$ ]] && (( $1 <= 100000 ))
}

# abspath PATH: PATH made absolute, without resolving symbolic links (the nodes see the same
# names); the directory part must exist.
abspath() {
  local p=$1
  if [[ $p != /* ]]; then
    p=$PWD/$p
  fi
  printf '%s\n' "$p"
}

submit() {
  local spec='' out='' shards='' blsim='' cpus=1 throttle='' dry_run=0
  local -a sbatch_args=()
  while (( $# > 0 )); do
    case $1 in
      --out|--shards|--blsim|-j|--throttle)
        (( $# >= 2 )) || die_usage "$1 needs a value"
        case $1 in
          --out) out=$2 ;;
          --shards) shards=$2 ;;
          --blsim) blsim=$2 ;;
          -j) cpus=$2 ;;
          --throttle) throttle=$2 ;;
        esac
        shift 2 ;;
      --out=*) out=${1#*=}; shift ;;
      --shards=*) shards=${1#*=}; shift ;;
      --blsim=*) blsim=${1#*=}; shift ;;
      --throttle=*) throttle=${1#*=}; shift ;;
      -j?*) cpus=${1#-j}; shift ;;
      --dry-run) dry_run=1; shift ;;
      --) shift; sbatch_args=("$@"); break ;;
      -*) die_usage "unknown option '$1' (sbatch's options go after '--')" ;;
      *)
        [[ -z $spec ]] || die_usage "more than one spec: '$spec' and '$1'"
        spec=$1; shift ;;
    esac
  done

  [[ -n $spec ]] || die_usage "no spec given"
  [[ -n $out ]] || die_usage "no --out DIR given"
  [[ -n $shards ]] || die_usage "no --shards N given"
  is_count "$shards" || die_usage "--shards: expected a whole number 1..100000, got '$shards'"
  is_count "$cpus" || die_usage "-j: expected a whole number 1..100000, got '$cpus'"
  if [[ -n $throttle ]]; then
    is_count "$throttle" || die_usage "--throttle: expected a whole number 1..100000, got '$throttle'"
  fi
  [[ -f $spec && -r $spec ]] || die_usage "spec '$spec': no such readable file"

  if [[ -z $blsim ]]; then
    local here
    here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
    if [[ -x $here/build/blsim ]]; then
      blsim=$here/build/blsim
    elif blsim=$(command -v blsim); then
      :
    else
      die_usage "no blsim binary: build/blsim does not exist and blsim is not on PATH; give --blsim PATH"
    fi
  fi
  [[ -f $blsim && -x $blsim ]] || die_usage "--blsim '$blsim': not an executable file"
  if (( dry_run == 0 )) && ! command -v sbatch >/dev/null 2>&1; then
    echo "$me: sbatch not found: run this on a Slurm submit host (or install slurm-client)" >&2
    exit 2
  fi

  spec=$(abspath "$spec")
  blsim=$(abspath "$blsim")
  out=$(abspath "$out")
  out=${out%/}
  [[ -n $out ]] || die_usage "--out: '/' is not a sweep directory"
  local self
  self=$(abspath "${BASH_SOURCE[0]}")

  if (( dry_run == 0 )); then
    if ! mkdir -p -- "$out/logs"; then
      echo "$me: cannot create '$out/logs'" >&2
      exit 2
    fi
  fi

  local array=1-$shards
  [[ -z $throttle ]] || array+=%$throttle
  local -a array_cmd=(sbatch --parsable --array="$array" --cpus-per-task="$cpus"
    --job-name=blsim-sweep --chdir="$out" --output="$out/logs/shard-%A_%a.out"
    "${sbatch_args[@]}" "$self" shard "$blsim" "$spec" "$out" "$shards")

  if (( dry_run == 1 )); then
    printf '%q ' "${array_cmd[@]}"; echo
    local -a merge_cmd=(sbatch --parsable --dependency=afterany:ARRAY_JOB_ID --cpus-per-task=1
      --job-name=blsim-sweep-merge --chdir="$out" --output="$out/logs/merge-%j.out"
      "${sbatch_args[@]}" "$self" merge "$blsim" "$out" "$shards")
    printf '%q ' "${merge_cmd[@]}"; echo
    return 0
  fi

  local array_id merge_id
  if ! array_id=$("${array_cmd[@]}"); then
    echo "$me: sbatch refused the array job; nothing submitted" >&2
    exit 1
  fi
  array_id=${array_id%%;*} # "id;cluster" on a multi-cluster system
  if [[ ! $array_id =~ ^[0-9]+$ ]]; then
    echo "$me: sbatch printed '$array_id', not a job id" >&2
    exit 1
  fi
  if ! merge_id=$(sbatch --parsable --dependency=afterany:"$array_id" --cpus-per-task=1 \
      --job-name=blsim-sweep-merge --chdir="$out" --output="$out/logs/merge-%j.out" \
      "${sbatch_args[@]}" "$self" merge "$blsim" "$out" "$shards"); then
    echo "$me: sbatch refused the merge job; cancelling array job $array_id" >&2
    scancel "$array_id" || true
    exit 1
  fi
  merge_id=${merge_id%%;*}
  echo "array job $array_id: $shards shards of $spec, $cpus CPU(s) each, into $out/shards/"
  echo "merge job $merge_id: after array job $array_id ends (afterany), into $out/results.csv"
  echo "logs: $out/logs/"
}

# shard BLSIM SPEC DIR N: one array task (Slurm sets SLURM_ARRAY_TASK_ID).
shard() {
  (( $# == 4 )) || die_usage "shard: expected BLSIM SPEC DIR N (this role is run by Slurm)"
  local blsim=$1 spec=$2 out=$3 n=$4
  local k=${SLURM_ARRAY_TASK_ID:-}
  [[ -n $k ]] || die_usage "shard: SLURM_ARRAY_TASK_ID is not set (this role is run by Slurm)"
  echo "$me: shard $k/$n on $(hostname) (job ${SLURM_JOB_ID:-?}, ${SLURM_CPUS_PER_TASK:-1} CPU(s))"
  exec "$blsim" sweep "$spec" --out "$out/shards/$k" --shard "$k/$n" -j "${SLURM_CPUS_PER_TASK:-1}"
}

# merge BLSIM DIR N: the merge job.
merge() {
  (( $# == 3 )) || die_usage "merge: expected BLSIM DIR N (this role is run by Slurm)"
  local blsim=$1 out=$2 n=$3 k
  local -a dirs=()
  for (( k = 1; k <= n; k++ )); do
    dirs+=("$out/shards/$k")
  done
  echo "$me: merging $n shards on $(hostname) (job ${SLURM_JOB_ID:-?})"
  exec "$blsim" sweep merge --out "$out" "${dirs[@]}"
}

(( $# > 0 )) || die_usage "no command given"
role=$1
shift
case $role in
  submit) submit "$@" ;;
  shard) shard "$@" ;;
  merge) merge "$@" ;;
  -h|--help) usage; exit 0 ;;
  *) die_usage "unknown command '$role' (expected submit)" ;;
esac
