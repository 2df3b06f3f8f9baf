#!/usr/bin/env bash
# Creates .venv and installs skullcam into it.
#   install.sh       the runtime only (no torch): all `skullcam run` needs.
#   install.sh dev   adds the test tools and a training stack, plus Debian's chromium for the
#                    browser tests when run as root.
#
# Two training stacks, because the full one is big and CI once failed on a full disk (ENOSPC
# during pip install):
#   full  torch 2.14.1 / torchvision 0.29.1 (this machine's wheels, a CUDA build: 6.4 GB in the
#         venv) and ultralytics: every test runs, detector training included.
#   cpu   torch 2.13.0's CPU build (this machine's wheel, 0.9 GB) and onnx, no ultralytics:
#         enrollment's classifier fine-tune is tested; the few detector-training tests are
#         skipped and say why.
# `full` is taken when .venv already has it or the disk has FULL_STACK_FREE_GB free, and `cpu`
# after a `full` install that ran out of disk (any other failure fails).
# SKULLCAM_TRAIN_STACK=full|cpu forces one, with no fallback. pytest's header names the stack.
set -euo pipefail
cd "$(dirname "$0")/.."
FULL_STACK_FREE_GB=8

free_gb() { df -Pk . | awk 'NR == 2 { print int($4 / 1048576) }'; }

# Sets `stack` (full|cpu) and `why`; SKULLCAM_TRAIN_STACK is read here and nowhere else.
forced=${SKULLCAM_TRAIN_STACK:-}
choose_train_stack() {
  if [ -n "$forced" ]; then
    stack=$forced why="SKULLCAM_TRAIN_STACK=$forced"
  elif .venv/bin/python -c "import importlib.metadata as m; m.version('torchvision')" 2>/dev/null; then
    stack=full why=".venv already has it"
  elif [ "$(free_gb)" -ge "$FULL_STACK_FREE_GB" ]; then
    stack=full why="$(free_gb) GB free"
  else
    stack=cpu why="$(free_gb) GB free, the full training stack needs ${FULL_STACK_FREE_GB} GB"
  fi
}

# On a Raspberry Pi the camera library comes from apt (python3-picamera2), not PyPI: a venv
# made there must see the system's packages, or `skullcam run` plays the demo beside a camera.
on_pi=""
if python3 -c "import picamera2" >/dev/null 2>&1; then on_pi=1; fi
make_venv() {
  if [ -n "$on_pi" ]; then python3 -m venv --system-site-packages .venv; else python3 -m venv .venv; fi
}
[ -x .venv/bin/python ] || make_venv
if [ -n "$on_pi" ] && grep -qs "include-system-site-packages = false" .venv/pyvenv.cfg; then
  # A venv made before (by hand, or by an older install.sh) cannot see picamera2: made again
  # over itself, it keeps what is installed and sees the system's packages.
  echo "install.sh: .venv could not see the system's picamera2; making it see it" >&2
  make_venv
fi
pip_install() { .venv/bin/python -m pip install -q --disable-pip-version-check --no-cache-dir "$@"; }
# pip warns once per configured wheel folder that does not exist on this machine: noise on
# every start, not a problem. Everything else it says is passed on.
quiet() { grep -v "is ignored: it is neither a file nor a directory" >&2 || true; }

if [ "${1:-}" != "dev" ]; then
  # The install is editable: code changes need no reinstall, only pyproject.toml's do. So
  # `./scripts/run.sh` starts at once when the runtime was installed from this very file.
  stamp=.venv/.skullcam-runtime-installed
  # On a Pi the install has one step more (simplejpeg, below): a stamp from before it differs.
  wanted="$(sha256sum pyproject.toml | cut -d' ' -f1)${on_pi:+ pi}"
  if [ -x .venv/bin/skullcam ] && [ "$(cat "$stamp" 2>/dev/null)" = "$wanted" ]; then
    exit 0
  fi
  pip_install -e . 2> >(quiet)
  if [ -n "$on_pi" ]; then
    # pip's numpy 2 in the venv cannot load apt's simplejpeg (built for numpy 1.24), which
    # picamera2 imports: the venv gets PyPI's, built for numpy 2 (picamera2 issue #1211).
    pip_install --ignore-installed --no-deps simplejpeg 2> >(quiet)
    .venv/bin/python -c "import picamera2" \
      || echo "install.sh: warning: picamera2 does not load in .venv (see docs/pi.md)" >&2
  fi
  echo "$wanted" >"$stamp"
  exit 0
fi

if [ "$(id -u)" = 0 ] && ! command -v chromedriver >/dev/null 2>&1; then
  (apt-get update -qq && apt-get install -y -qq chromium chromium-driver >/dev/null) \
    || echo "warning: could not install chromium; browser tests will be skipped" >&2
fi

install_cpu_stack() {
  echo "install.sh: $1: installing torch's CPU build without ultralytics" \
    "(detector-training tests will skip)" >&2
  # Pinned here, not in pyproject: a bare torch requirement pulls the 6 GB CUDA build.
  pip_install -e ".[dev]" "torch==2.13.0" "onnx>=1.16" 2> >(quiet)
}

install_full_stack() {
  local log
  log=$(mktemp)
  if pip_install -e ".[train,dev]" 2>"$log"; then
    rm -f "$log"
    return 0
  fi
  quiet <"$log"
  if [ -z "$forced" ] && grep -q "No space left on device" "$log"; then
    rm -f "$log"
    rm -rf .venv
    make_venv
    install_cpu_stack "the disk filled up during the full install; .venv started again"
    stack=cpu
    return 0
  fi
  rm -f "$log"
  return 1
}

choose_train_stack
# As for the runtime: `./scripts/test.sh` goes straight to the tests when this stack was
# installed from this very pyproject.toml (a fresh clone, as CI's, always installs).
dev_stamp=.venv/.skullcam-dev-installed
dev_wanted="$(sha256sum pyproject.toml | cut -d' ' -f1) $stack"
if [ -x .venv/bin/pytest ] && [ "$(cat "$dev_stamp" 2>/dev/null)" = "$dev_wanted" ]; then
  exit 0
fi
case "$stack" in
  full) install_full_stack ;;
  cpu) install_cpu_stack "$why" ;;
  *)
    echo "install.sh: SKULLCAM_TRAIN_STACK must be full or cpu, not '$stack'" >&2
    exit 2
    ;;
esac
echo "$dev_wanted" >"$dev_stamp"
