#!/bin/sh
# A CI job as the GitHub runner runs it, for the benchmark's section ci (ci-cases.mjs):
#   sh ci-job.sh STEPS_DIR SHELL_WORD...
# runs every STEPS_DIR/step-NN.sh in order, each as `SHELL_WORD... FILE` (the runner puts the
# script's path where the shell line says {0}, which is its last word in both lines measured), in
# GITHUB_WORKSPACE, with the per-step variables and fresh per-step files the runner hands a step.
# A step that fails ends the job, as it does on the runner.
set -e
steps=$1
shift
files=$RUNNER_TEMP/_runner_file_commands
mkdir -p "$files"
cd "$GITHUB_WORKSPACE"
n=0
for step in "$steps"/step-*.sh; do
  n=$((n + 1))
  for f in step_summary set_env add_path set_output; do : >"$files/$f"; done
  action=__run_$n
  [ "$n" -gt 1 ] || action=__run
  GITHUB_ACTION=$action GITHUB_STEP_SUMMARY=$files/step_summary GITHUB_ENV=$files/set_env \
    GITHUB_PATH=$files/add_path GITHUB_OUTPUT=$files/set_output "$@" "$step"
done
echo "job: $n steps ok"
