# Sourced by a trial's run.sh on the GPU host (as .gpu/a/common.sh, beside it):
# moves to the repository root and sets ROOT, A (the trial's folder), BASE (the
# committed fatbin, the baseline) and TRIAL (the trial's sm_90 fatbin), and says
# which GPU and driver ran it.
cd "$(dirname "${BASH_SOURCE[0]}")/../.."
ROOT=$PWD
A=.gpu/a
BASE=$ROOT/kernels/gpuimg.fatbin
TRIAL=$ROOT/$A/trial90.fatbin
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
