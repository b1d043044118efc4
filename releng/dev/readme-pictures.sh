#!/usr/bin/env bash
# Makes the pictures of the workbench in README.md (docs/img/workbench-*.png) with `./workbench snapshot`, on a
# recorded sample trace with ground truth. Re-run after changing a view; it needs no display (Xvfb is used).
#   releng/dev/readme-pictures.sh [TRACE] [LAUNCH]
set -euo pipefail
cd "$(dirname "$0")/../.."
trace="${1:-sample-traces/cupy-ops.phos}"
launch="${2:-9}"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
./workbench snapshot "$trace" --launch "$launch" --theme light \
  --view overview --view launches --view accesses --view buffers --view timeline --view accuracy --view kernels \
  --out "$tmp/light"
./workbench snapshot "$trace" --launch "$launch" --theme dark --view accesses --view buffers --out "$tmp/dark"
mkdir -p docs/img
cp "$tmp/light/window.png" docs/img/workbench-window.png
for v in overview launches accesses buffers timeline accuracy kernels; do
  cp "$tmp/light/$v.png" "docs/img/workbench-$v.png"
done
cp "$tmp/dark/window.png" docs/img/workbench-window-dark.png
# the C/R Timeline alone (its stack maximized) over the snapshot's experiment (stop-the-world and soft-cow at the
# middle launch, SnapshotExperiment); the New Experiment picture is the dialog's UI-test screenshot
# (ExperimentsUiTest/NewExperimentDialogUiTest write experiment-dialog-light.png), not made here
./workbench snapshot "$trace" --launch "$launch" --theme light --view cr-timeline --out "$tmp/cr"
cp "$tmp/cr/cr-timeline.png" docs/img/workbench-cr-timeline.png
echo "readme-pictures: wrote docs/img/workbench-*.png from $trace, launch $launch"
