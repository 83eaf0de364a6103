#!/bin/sh
# Rebuilds probe/src/main/resources/dev/fabricscope/check/oneshot_allreduce.ptx (or $PTX_OUT) from oneshot_allreduce.cu.
# Target: PTX ISA 8.0, .target sm_70 (loads on every driver from R525 / CUDA 12.0, every GPU from Volta on).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out="${PTX_OUT:-$here/../probe/src/main/resources/dev/fabricscope/check/oneshot_allreduce.ptx}"
NVCC=${NVCC:-nvcc}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# CUDA 13 dropped compute_70: build for compute_75 there and retarget (the source uses sm_70 features only).
if "$NVCC" --list-gpu-arch 2>/dev/null | grep -qx compute_70; then arch=compute_70; else arch=compute_75; fi
"$NVCC" -ptx -O3 -arch=$arch "$here/oneshot_allreduce.cu" -o "$tmp/raw.ptx"

# Lower the declared ISA to 8.0 and the target to sm_70; ptxas below rejects the result if an instruction needs more.
sed -e 's/^\.version [0-9][0-9]*\.[0-9][0-9]*$/.version 8.0/' -e 's/^\.target sm_[0-9a-z]*$/.target sm_70/' \
    "$tmp/raw.ptx" > "$tmp/out.ptx"
grep -qx '.version 8.0' "$tmp/out.ptx" || { echo "no .version line rewritten" >&2; exit 1; }
grep -qx '.target sm_70' "$tmp/out.ptx" || { echo "no .target line rewritten" >&2; exit 1; }

# Check it assembles: for sm_70 where ptxas still knows it, else for the oldest target it knows and for sm_90.
PTXAS=${PTXAS:-$(dirname "$(command -v "$NVCC")")/ptxas}
for sm in sm_70 sm_75 sm_90; do
  if "$PTXAS" -v -arch=$sm "$tmp/out.ptx" -o "$tmp/check.cubin" 2>"$tmp/ptxas.err"; then
    echo "ptxas -arch=$sm: ok"; grep -E "Compiling|Used" "$tmp/ptxas.err" | sed 's/^/  /' 
  elif grep -q "is not defined for option" "$tmp/ptxas.err"; then
    echo "ptxas -arch=$sm: not supported by this toolkit, skipped"
  else
    cat "$tmp/ptxas.err" >&2; exit 1
  fi
done
mkdir -p "$(dirname "$out")"
cp "$tmp/out.ptx" "$out"
echo "wrote $out ($(grep -E '^\.(version|target)' "$out" | tr '\n' ' '))"
