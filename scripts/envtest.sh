#!/usr/bin/env bash
# Builds the binaries that io.fabric8:kube-api-test needs (kube-apiserver, etcd,
# kubectl) and those of the tests' whole control plane (kube-controller-manager,
# kube-scheduler, kwok and kwok's stage definitions) from source, using nothing
# but the Go module proxy, and puts them where kube-api-test looks for them:
#
#   <dir>/k8s/<k8s version without "v">-linux-amd64/{kube-apiserver,etcd,kubectl,
#       kube-controller-manager,kube-scheduler,kwok,kwok-stages/}
#
# <dir> is, in this order: the first non-option argument, $KUBEAPITEST_DIR,
# $KUBE_API_TEST_DIR (kube-api-test's own env var), $HOME/.kubeapitest.
#
# The versions are pinned in scripts/envtest/go.mod (k8s.io/kubernetes),
# scripts/envtest/etcd/go.mod (go.etcd.io/etcd/server/v3) and
# scripts/envtest/kwok/go.mod (sigs.k8s.io/kwok); those files (with their
# go.sum) are the single source of truth. To move to another Kubernetes
# release, run `scripts/envtest.sh --pin v1.X.Y`, to another kwok release
# `scripts/envtest.sh --pin-kwok v0.X.Y`, and commit the result.
#
# Usage:
#   scripts/envtest.sh [DIR]                build (or verify) the binaries
#   scripts/envtest.sh --core-only [DIR]    only kube-apiserver, etcd and kubectl (what
#                                           kube-api-test needs; no kwok/go.mod needed)
#   scripts/envtest.sh --print-dir [DIR]    print the binary directory, build nothing
#   scripts/envtest.sh --print-version      print the pinned Kubernetes version (e.g. 1.37.2)
#   scripts/envtest.sh --pin v1.X.Y         regenerate the pinned go.mod/go.sum files
#   scripts/envtest.sh --pin-kwok v0.X.Y    regenerate scripts/envtest/kwok/go.mod/go.sum
set -euo pipefail

SCRIPT_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
K8S_MOD_DIR="$SCRIPT_DIR/envtest"
ETCD_MOD_DIR="$SCRIPT_DIR/envtest/etcd"
KWOK_MOD_DIR="$SCRIPT_DIR/envtest/kwok"
K8S_MODULE="k8s.io/kubernetes"
ETCD_MODULE="go.etcd.io/etcd/server/v3"
APISERVER_PKG="k8s.io/kubernetes/cmd/kube-apiserver"
KUBECTL_PKG="k8s.io/kubernetes/cmd/kubectl"
CONTROLLER_MANAGER_PKG="k8s.io/kubernetes/cmd/kube-controller-manager"
SCHEDULER_PKG="k8s.io/kubernetes/cmd/kube-scheduler"
KWOK_MODULE="sigs.k8s.io/kwok"
KWOK_PKG="sigs.k8s.io/kwok/cmd/kwok"
# kwok's stages (how fake nodes and their pods move through their lifecycle) are
# YAML files in its module, not in the binary: copied next to it at build time.
KWOK_STAGES_DIR="kustomize/stage"
# The etcd server's main package is the module root in etcd 3.5+ (server/main.go).
ETCD_PKG="go.etcd.io/etcd/server/v3"

log() { printf '[envtest] %s\n' "$*" >&2; }
die() { printf '[envtest] ERROR: %s\n' "$*" >&2; exit 1; }

usage() { sed -n '2,/^set -euo/p' "${BASH_SOURCE[0]}" | sed -e '$d' -e 's/^# \{0,1\}//'; }

# Version of a module required in a go.mod (first `require` match), e.g. v1.37.2.
pinned_version() { # <go.mod> <module>
  awk -v m="$2" '
    $1 == "require" && $2 == m { print $3; exit }
    $1 == m && $2 ~ /^v/      { print $2; exit }' "$1"
}
# `go` directive of a go.mod, e.g. 1.26.0.
go_directive() { awk '$1 == "go" { print $2; exit }' "$1"; }

version_ge() { # <a> <b>: a >= b (dotted numeric versions)
  [ "$(printf '%s\n%s\n' "$1" "$2" | sort -V | head -n1)" = "$2" ]
}

# Don't let an old local go silently fetch a newer toolchain; an explicit
# GOTOOLCHAIN from the caller is respected.
export GOTOOLCHAIN="${GOTOOLCHAIN:-local}"

require_go() { # <minimum version, e.g. 1.26.0>
  local need="$1" have
  if ! command -v go >/dev/null 2>&1; then
    die "'go' not found in PATH. Install Go >= $need (https://go.dev/doc/install: unpack go$need.linux-amd64.tar.gz into /usr/local and put /usr/local/go/bin on PATH) and re-run."
  fi
  have="$(go env GOVERSION 2>/dev/null || true)"
  have="${have#go}"
  have="${have%%[!0-9.]*}"   # strip suffixes like "rc1" or " X:..."
  if [ -z "$have" ] || ! version_ge "$have" "$need"; then
    die "Go >= $need is required, found '$(go version 2>/dev/null || echo unknown)'.
  Install Go >= $need (https://go.dev/doc/install), or, with any Go >= 1.21, let go fetch
  the toolchain from the module proxy: re-run as 'GOTOOLCHAIN=go$need $0 ...'."
  fi
}

# ---------------------------------------------------------------- --pin mode
pin() { # <k8s version, e.g. v1.37.2>
  local kv="$1" minor patch major kdir etcd_v etcd_dir gover egover m
  [[ "$kv" =~ ^v1\.([0-9]+)\.([0-9]+)$ ]] || die "--pin needs a release version like v1.37.2, got '$kv'"
  minor="${BASH_REMATCH[1]}"; patch="${BASH_REMATCH[2]}"; major=1
  require_go 1.24.0   # `tool` directives
  log "pinning $K8S_MODULE $kv (staging modules v0.$minor.$patch)"
  kdir="$(go mod download -json "$K8S_MODULE@$kv" | awk -F'"' '$2 == "Dir" { print $4 }')"
  [ -d "$kdir" ] || die "could not download $K8S_MODULE@$kv"
  etcd_v="$(awk '/name: "etcd"/ { f = 1; next } f && $1 == "version:" { print $2; exit }' "$kdir/build/dependencies.yaml")"
  [[ "$etcd_v" =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || die "cannot find the etcd version in $kdir/build/dependencies.yaml"
  gover="$(go_directive "$kdir/go.mod")"

  mkdir -p "$K8S_MOD_DIR" "$ETCD_MOD_DIR"
  {
    echo "// Generated by scripts/envtest.sh --pin $kv; edit by re-running it."
    echo "// Builds kube-apiserver and kubectl $kv for io.fabric8:kube-api-test, and"
    echo "// kube-controller-manager and kube-scheduler for the tests' control plane."
    echo "module envtest/kubernetes"
    echo
    echo "go $gover"
    echo
    echo "tool ("
    echo "	$APISERVER_PKG"
    echo "	$KUBECTL_PKG"
    echo "	$CONTROLLER_MANAGER_PKG"
    echo "	$SCHEDULER_PKG"
    echo ")"
    echo
    echo "require $K8S_MODULE $kv"
    echo
    echo "// $K8S_MODULE requires its staging modules at v0.0.0 and replaces them with"
    echo "// ./staging/...; those replaces don't apply to a dependent, so map them to the"
    echo "// published releases matching $kv."
    echo "replace ("
    for m in $(awk '$1 ~ /^k8s\.io\// && $2 == "v0.0.0" { print $1 }' "$kdir/go.mod" | sort -u); do
      printf '\t%s => %s v0.%s.%s\n' "$m" "$m" "$minor" "$patch"
    done
    echo ")"
  } > "$K8S_MOD_DIR/go.mod"
  rm -f "$K8S_MOD_DIR/go.sum"
  log "go mod tidy in $K8S_MOD_DIR (downloads the module graph; takes a while the first time)"
  (cd "$K8S_MOD_DIR" && go mod tidy)

  egover="$(go mod download -json "$ETCD_MODULE@v$etcd_v" | awk -F'"' '$2 == "GoMod" { print $4 }')"
  egover="$(go_directive "$egover")"
  {
    echo "// Generated by scripts/envtest.sh --pin $kv; edit by re-running it."
    echo "// Builds etcd v$etcd_v, the version $K8S_MODULE $kv uses (build/dependencies.yaml)."
    echo "// A separate module so etcd gets its own dependency versions, not Kubernetes'."
    echo "module envtest/etcd"
    echo
    echo "go $egover"
    echo
    echo "tool $ETCD_PKG"
    echo
    echo "require $ETCD_MODULE v$etcd_v"
  } > "$ETCD_MOD_DIR/go.mod"
  rm -f "$ETCD_MOD_DIR/go.sum"
  log "go mod tidy in $ETCD_MOD_DIR"
  (cd "$ETCD_MOD_DIR" && go mod tidy)
  log "pinned kubernetes $kv, etcd v$etcd_v (major $major). Commit scripts/envtest/."
}

pin_kwok() { # <kwok version, e.g. v0.8.0>
  local kv="$1" gomod gover
  [[ "$kv" =~ ^v0\.[0-9]+\.[0-9]+$ ]] || die "--pin-kwok needs a release version like v0.8.0, got '$kv'"
  require_go 1.24.0   # `tool` directives
  gomod="$(go mod download -json "$KWOK_MODULE@$kv" | awk -F'"' '$2 == "GoMod" { print $4 }')"
  [ -f "$gomod" ] || die "could not download $KWOK_MODULE@$kv"
  gover="$(go_directive "$gomod")"
  mkdir -p "$KWOK_MOD_DIR"
  {
    echo "// Generated by scripts/envtest.sh --pin-kwok $kv; edit by re-running it."
    echo "// Builds kwok $kv (fake nodes and pod lifecycle) for the tests' control plane."
    echo "// A separate module so kwok gets its own dependency versions, not Kubernetes'."
    echo "module envtest/kwok"
    echo
    echo "go $gover"
    echo
    echo "tool $KWOK_PKG"
    echo
    echo "require $KWOK_MODULE $kv"
  } > "$KWOK_MOD_DIR/go.mod"
  rm -f "$KWOK_MOD_DIR/go.sum"
  log "go mod tidy in $KWOK_MOD_DIR"
  (cd "$KWOK_MOD_DIR" && go mod tidy)
  log "pinned kwok $kv. Commit scripts/envtest/kwok."
}

# ---------------------------------------------------------------- arguments
MODE=build
CORE_ONLY=false
BASE_DIR=""
while [ $# -gt 0 ]; do
  case "$1" in
    --print-dir) MODE=print-dir ;;
    --print-version) MODE=print-version ;;
    --core-only) CORE_ONLY=true ;;
    --pin) [ $# -ge 2 ] || die "--pin needs a version"; pin "$2"; exit 0 ;;
    --pin-kwok) [ $# -ge 2 ] || die "--pin-kwok needs a version"; pin_kwok "$2"; exit 0 ;;
    -h|--help) usage; exit 0 ;;
    -*) die "unknown option '$1' (see --help)" ;;
    *) [ -z "$BASE_DIR" ] || die "only one directory argument allowed"; BASE_DIR="$1" ;;
  esac
  shift
done
BASE_DIR="${BASE_DIR:-${KUBEAPITEST_DIR:-${KUBE_API_TEST_DIR:-$HOME/.kubeapitest}}}"

[ -f "$K8S_MOD_DIR/go.mod" ] && [ -f "$ETCD_MOD_DIR/go.mod" ] \
  || die "pinned modules missing: $K8S_MOD_DIR/go.mod, $ETCD_MOD_DIR/go.mod"
if [ "$CORE_ONLY" = false ] && [ "$MODE" = build ]; then
  [ -f "$KWOK_MOD_DIR/go.mod" ] || die "pinned module missing: $KWOK_MOD_DIR/go.mod (or pass --core-only)"
fi
K8S_GIT_VERSION="$(pinned_version "$K8S_MOD_DIR/go.mod" "$K8S_MODULE")"   # v1.37.2
ETCD_GIT_VERSION="$(pinned_version "$ETCD_MOD_DIR/go.mod" "$ETCD_MODULE")" # v3.7.0
[[ "$K8S_GIT_VERSION" =~ ^v([0-9]+)\.([0-9]+)\.[0-9]+$ ]] \
  || die "cannot read the $K8S_MODULE version from $K8S_MOD_DIR/go.mod"
K8S_MAJOR="${BASH_REMATCH[1]}"
K8S_MINOR="${BASH_REMATCH[2]}"
[[ "$ETCD_GIT_VERSION" =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]] \
  || die "cannot read the $ETCD_MODULE version from $ETCD_MOD_DIR/go.mod"
K8S_VERSION="${K8S_GIT_VERSION#v}"    # 1.37.2: kube-api-test's directory/version format
ETCD_VERSION="${ETCD_GIT_VERSION#v}"  # 3.7.0

# kube-api-test (BinaryManager/OSInfo/Utils.platformSuffix) uses
# "-" + lower-cased os.name + "-" + arch (amd64 | arm64 | ppc64le).
case "$(uname -s)" in
  Linux) GOOS_=linux ;;
  Darwin) GOOS_=darwin ;;
  *) die "unsupported OS $(uname -s)" ;;
esac
case "$(uname -m)" in
  x86_64|amd64) GOARCH_=amd64 ;;
  aarch64|arm64) GOARCH_=arm64 ;;
  ppc64le) GOARCH_=ppc64le ;;
  *) die "unsupported architecture $(uname -m)" ;;
esac
BIN_DIR="$BASE_DIR/k8s/$K8S_VERSION-$GOOS_-$GOARCH_"

case "$MODE" in
  print-dir) echo "$BIN_DIR"; exit 0 ;;
  print-version) echo "$K8S_VERSION"; exit 0 ;;
esac

# ---------------------------------------------------------------- build mode
K8S_BINARIES=(kube-apiserver kubectl)
ALL_BINARIES=(kube-apiserver kubectl etcd)
MOD_DIRS=("$K8S_MOD_DIR" "$ETCD_MOD_DIR")
if [ "$CORE_ONLY" = false ]; then
  KWOK_GIT_VERSION="$(pinned_version "$KWOK_MOD_DIR/go.mod" "$KWOK_MODULE")" # v0.8.0
  [[ "$KWOK_GIT_VERSION" =~ ^v[0-9]+\.[0-9]+\.[0-9]+$ ]] \
    || die "cannot read the $KWOK_MODULE version from $KWOK_MOD_DIR/go.mod"
  K8S_BINARIES+=(kube-controller-manager kube-scheduler)
  ALL_BINARIES+=(kube-controller-manager kube-scheduler kwok)
  MOD_DIRS+=("$KWOK_MOD_DIR")
fi
need_go="$(for m in "${MOD_DIRS[@]}"; do go_directive "$m/go.mod"; done | sort -V | tail -n1)"
require_go "$need_go"

# Does <binary> exist and report the pinned version?
has_version() { # <name>
  local f="$BIN_DIR/$1" out
  [ -x "$f" ] || return 1
  case "$1" in
    kube-apiserver|kube-controller-manager|kube-scheduler)
                    out="$("$f" --version 2>/dev/null)" || return 1
                    [ "$out" = "Kubernetes $K8S_GIT_VERSION" ] ;;
    kubectl)        out="$("$f" version --client 2>/dev/null)" || return 1
                    grep -qx "Client Version: $K8S_GIT_VERSION" <<<"$out" ;;
    etcd)           out="$("$f" --version 2>/dev/null)" || return 1
                    grep -qx "etcd Version: $ETCD_VERSION" <<<"$out" ;;
    kwok)           out="$("$f" --version 2>/dev/null)" || return 1
                    grep -qw -- "$KWOK_GIT_VERSION" <<<"$out" \
                      && [ "$(cat "$BIN_DIR/kwok-stages/.version" 2>/dev/null)" = "$KWOK_GIT_VERSION" ] ;;
  esac
}

START=$(date +%s)
log "Kubernetes $K8S_GIT_VERSION, etcd $ETCD_GIT_VERSION, $(go version)"
log "target: $BIN_DIR"
mkdir -p "$BASE_DIR/k8s"

# Serialize concurrent runs (e.g. parallel CI jobs) on the same directory.
if command -v flock >/dev/null 2>&1; then
  exec 9>"$BASE_DIR/k8s/.envtest-$K8S_VERSION.lock"
  flock 9
fi

K8S_TODO=()
ETCD_TODO=()
KWOK_TODO=()
for b in "${K8S_BINARIES[@]}"; do
  if has_version "$b"; then log "$b: up to date"; else K8S_TODO+=("$b"); fi
done
if has_version etcd; then log "etcd: up to date"; else ETCD_TODO+=(etcd); fi
if [ "$CORE_ONLY" = false ]; then
  if has_version kwok; then log "kwok: up to date"; else KWOK_TODO+=(kwok); fi
fi

# Built into a staging dir whose name kube-api-test ignores (it only lists
# k8s/*-<os>-<arch>), then moved into place.
STAGE="$BASE_DIR/k8s/.stage-$K8S_VERSION-$GOOS_-$GOARCH_.$$"
cleanup() { rm -rf "$STAGE"; }
trap cleanup EXIT

export CGO_ENABLED=0 GOOS="$GOOS_" GOARCH="$GOARCH_" GOFLAGS="${GOFLAGS:+$GOFLAGS }-mod=readonly"

if [ ${#K8S_TODO[@]} -gt 0 ]; then
  mkdir -p "$STAGE"
  # Same -X values as hack/lib/version.sh; buildDate is the release's module
  # time so the build is reproducible.
  build_date="$(cd "$K8S_MOD_DIR" && go list -m -f '{{with .Time}}{{.UTC.Format "2006-01-02T15:04:05Z"}}{{end}}' "$K8S_MODULE")"
  ldflags="-s -w"
  for pkg in k8s.io/component-base/version k8s.io/client-go/pkg/version; do
    ldflags+=" -X $pkg.gitVersion=$K8S_GIT_VERSION -X $pkg.gitMajor=$K8S_MAJOR -X $pkg.gitMinor=$K8S_MINOR"
    ldflags+=" -X $pkg.gitTreeState=clean -X $pkg.buildDate=${build_date:-1970-01-01T00:00:00Z}"
  done
  pkgs=()
  for b in "${K8S_TODO[@]}"; do
    case "$b" in
      kube-apiserver) pkgs+=("$APISERVER_PKG") ;;
      kubectl) pkgs+=("$KUBECTL_PKG") ;;
      kube-controller-manager) pkgs+=("$CONTROLLER_MANAGER_PKG") ;;
      kube-scheduler) pkgs+=("$SCHEDULER_PKG") ;;
    esac
  done
  t0=$(date +%s)
  log "building ${K8S_TODO[*]} (first build: ~5-10 min on 2 cores; cached: seconds)"
  (cd "$K8S_MOD_DIR" && go build -trimpath -ldflags "$ldflags" -o "$STAGE/" "${pkgs[@]}")
  log "built ${K8S_TODO[*]} in $(( $(date +%s) - t0 ))s"
fi

if [ ${#ETCD_TODO[@]} -gt 0 ]; then
  mkdir -p "$STAGE"
  t0=$(date +%s)
  log "building etcd"
  (cd "$ETCD_MOD_DIR" && go build -trimpath -ldflags "-s -w" -o "$STAGE/etcd" "$ETCD_PKG")
  log "built etcd in $(( $(date +%s) - t0 ))s"
fi

if [ ${#KWOK_TODO[@]} -gt 0 ]; then
  mkdir -p "$STAGE"
  t0=$(date +%s)
  log "building kwok"
  (cd "$KWOK_MOD_DIR" && go build -trimpath \
    -ldflags "-s -w -X sigs.k8s.io/kwok/pkg/consts.Version=$KWOK_GIT_VERSION -X sigs.k8s.io/kwok/pkg/consts.KubeVersion=$K8S_GIT_VERSION" \
    -o "$STAGE/kwok" "$KWOK_PKG")
  # the stage definitions of the pinned module: its YAML files, without tests and
  # kustomize's own files
  kwok_dir="$(cd "$KWOK_MOD_DIR" && go list -m -f '{{.Dir}}' "$KWOK_MODULE")"
  [ -d "$kwok_dir/$KWOK_STAGES_DIR" ] || die "no $KWOK_STAGES_DIR in $kwok_dir"
  (cd "$kwok_dir/$KWOK_STAGES_DIR" && find . -name '*.yaml' ! -path '*/testdata/*' ! -name kustomization.yaml) \
    | while read -r f; do
        mkdir -p "$STAGE/kwok-stages/$(dirname "$f")"
        cp "$kwok_dir/$KWOK_STAGES_DIR/$f" "$STAGE/kwok-stages/$f"
      done
  chmod -R u+w "$STAGE/kwok-stages"
  echo "$KWOK_GIT_VERSION" > "$STAGE/kwok-stages/.version"
  log "built kwok in $(( $(date +%s) - t0 ))s"
fi

if [ -d "$STAGE" ]; then
  mkdir -p "$BIN_DIR"
  for b in "${K8S_TODO[@]}" "${ETCD_TODO[@]}" "${KWOK_TODO[@]}"; do
    [ -x "$STAGE/$b" ] || die "build produced no $STAGE/$b"
    mv -f "$STAGE/$b" "$BIN_DIR/$b"
  done
  if [ -d "$STAGE/kwok-stages" ]; then
    rm -rf "$BIN_DIR/kwok-stages"
    mv "$STAGE/kwok-stages" "$BIN_DIR/kwok-stages"
  fi
fi

for b in "${ALL_BINARIES[@]}"; do
  has_version "$b" || die "$BIN_DIR/$b does not report the pinned version"
done

log "done in $(( $(date +%s) - START ))s"
log "directory: $BIN_DIR"
log "  kube-apiserver: $("$BIN_DIR/kube-apiserver" --version)"
log "  kubectl:        $("$BIN_DIR/kubectl" version --client | head -n1)"
log "  etcd:           $("$BIN_DIR/etcd" --version | head -n1)"
if [ "$CORE_ONLY" = false ]; then
  log "  kube-controller-manager, kube-scheduler: $("$BIN_DIR/kube-scheduler" --version)"
  log "  kwok:           $("$BIN_DIR/kwok" --version | head -n1), stages in $BIN_DIR/kwok-stages"
fi
log "kube-api-test: use withTestDir(\"$BASE_DIR\") (or KUBE_API_TEST_DIR) and withApiServerVersion(\"$K8S_VERSION\")"
