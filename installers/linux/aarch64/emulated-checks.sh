#!/bin/sh
# The aarch64 command line run under emulation (Debian's qemu-user-static through binfmt_misc; issue 27), held against
# the x86-64 image on the same inputs: --version, the probe's no-driver path (exit 3, one line), the replay of a real
# trace, a sample, and an HTML report. Exits non-zero on the first difference.
#   sh installers/linux/aarch64/emulated-checks.sh INSTALLER_DIR        (from the repository root; root, for binfmt)
set -eu
dir="$1"
arm="$dir/image-aarch64/fabricscope-cli/bin/fabricscope-cli"
x86="$dir/image/fabricscope-cli/bin/fabricscope-cli"
trace=probe/src/test/resources/captured/h200-nvswitch-2gpu-2026-12-01/trace.json
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "aarch64 (emulated): $*" >&2; exit 1; }

# binfmt_misc: the kernel hands aarch64 executables to qemu (mounted and registered here when missing)
[ -e /proc/sys/fs/binfmt_misc/register ] || mount -t binfmt_misc binfmt_misc /proc/sys/fs/binfmt_misc
[ -e /proc/sys/fs/binfmt_misc/qemu-aarch64 ] || update-binfmts --enable qemu-aarch64
file -L "$dir/image-aarch64/fabricscope-cli/lib/runtime/bin/java" | grep -q 'ARM aarch64' || fail "the runtime is not aarch64"

"$arm" --version > "$tmp/version"
grep -q '^fabricscope [0-9]' "$tmp/version" || fail "--version printed: $(cat "$tmp/version")"
grep -q 'aarch64\|Java:' "$tmp/version" || fail "--version names no Java"

set +e
env -u DISPLAY -u WAYLAND_DISPLAY "$arm" probe > "$tmp/probe.out" 2> "$tmp/probe.err"
rc=$?
set -e
[ "$rc" -eq 3 ] && [ "$(wc -l < "$tmp/probe.err")" -eq 1 ] && grep -q 'NVIDIA driver not found' "$tmp/probe.err" \
  || fail "probe without a driver: exit $rc, stderr: $(cat "$tmp/probe.err")"

# the same words on both architectures, but for the line that names the time the replay took
for cmd in "probe --replay $trace" "probe --replay $trace --json" "show --sample gb200-nvl72-tray"; do
  # shellcheck disable=SC2086
  "$arm" $cmd | grep -v '^Fabricscope .* (.* ms)$' > "$tmp/arm.txt"
  # shellcheck disable=SC2086
  "$x86" $cmd | grep -v '^Fabricscope .* (.* ms)$' > "$tmp/x86.txt"
  sed -i -E 's/"(elapsedMs|durationMs|probeMs)" *: *[0-9.]+/"\1": _/' "$tmp/arm.txt" "$tmp/x86.txt"
  diff -u "$tmp/x86.txt" "$tmp/arm.txt" > "$tmp/diff" || fail "'$cmd' differs from x86-64: $(head -20 "$tmp/diff")"
  echo "aarch64 (emulated): $cmd: same as x86-64 ($(wc -l < "$tmp/arm.txt") lines)"
done

"$arm" report --sample gb200-nvl72-tray --format html --out "$tmp/report.html"
grep -q '</html>' "$tmp/report.html" || fail "report --format html wrote no complete page"
echo "aarch64 (emulated): report --format html: $(wc -c < "$tmp/report.html") bytes"
