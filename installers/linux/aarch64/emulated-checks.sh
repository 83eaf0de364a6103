#!/bin/sh
# The aarch64 command line run under emulation (Debian's qemu-user-static through binfmt_misc; issue 27), held against
# the x86-64 image on the same inputs: --version, the probe's no-driver path (exit 3, one line), the replay of a real
# trace, a sample, and an HTML report. Exits non-zero on the first difference.
# With --desktop SHOT.png also the desktop app: it opens a sample under Xvfb (aarch64 GTK 3 and GL libraries installed
# as :arm64 packages) and the screen is saved as SHOT.png. Every aarch64 library of both images, JNA's and JavaFX's
# included, needs at most GLIBC_2.35 (Ubuntu 22.04, the usual OS of GB200 trays).
#   sh installers/linux/aarch64/emulated-checks.sh INSTALLER_DIR [--desktop SHOT.png]   (repository root; root, for binfmt)
set -eu
dir="$1"; shot="${3:-}"
[ "${2:-}" = --desktop ] && [ -n "$shot" ] || [ $# -eq 1 ] || { echo "usage: $0 INSTALLER_DIR [--desktop SHOT.png]" >&2; exit 2; }
glibc_floor=2.35
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

# the newest glibc symbol version any aarch64 code of the images asks for, the jars' native libraries included
for jar in "$dir"/image-aarch64/*/lib/app/*.jar "$dir"/javafx-aarch64/*.jar; do
  unzip -qo "$jar" '*.so' -d "$tmp/so/$(basename "$jar")" 2>/dev/null || :
done
need=$(find "$dir/image-aarch64" "$tmp/so" -type f \( -name '*.so*' -o -path '*/bin/*' \) -exec sh -c \
  'for f; do file -b "$f" | grep -q "ARM aarch64" && readelf -V "$f"; done' sh {} + 2>/dev/null \
  | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -t. -k1,1n -k2,2n -u | tail -1)
[ -n "$need" ] || fail "no aarch64 library found to read its glibc needs"
[ "$(printf '%s\n%s\n' "$need" "$glibc_floor" | sort -t. -k1,1n -k2,2n | tail -1)" = "$glibc_floor" ] \
  || fail "the aarch64 images need glibc $need, newer than $glibc_floor (Ubuntu 22.04)"
echo "aarch64 (emulated): the images need glibc $need at most (floor $glibc_floor)"

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

[ -n "$shot" ] || exit 0
# the desktop app: a window of the GB200 tray sample under Xvfb, then a screenshot of the whole screen
gui="$dir/image-aarch64/fabricscope/bin/fabricscope"
display=:$((90 + $$ % 9))
Xvfb "$display" -screen 0 1440x920x24 -nolisten tcp >/dev/null 2>&1 &
xvfb=$!
trap 'kill "$xvfb" "${app:-}" 2>/dev/null; rm -rf "$tmp"' EXIT
sleep 1
DISPLAY=$display "$gui" --sample gb200-nvl72-tray > "$tmp/gui.log" 2>&1 &
app=$!
titled=""
for _ in $(seq 1 60); do
  sleep 5
  kill -0 "$app" 2>/dev/null || fail "the desktop app exited: $(head -5 "$tmp/gui.log")"
  titled=$(DISPLAY=$display xwininfo -root -tree 2>/dev/null | grep -o '"Fabricscope — sample gb200-nvl72-tray[^"]*"' | head -1)
  [ -n "$titled" ] && break
done
[ -n "$titled" ] || fail "no Fabricscope window within 300 s: $(head -5 "$tmp/gui.log")"
sleep 20   # the first layout and paint, emulated
DISPLAY=$display import -window root "$shot"
echo "aarch64 (emulated): desktop window $titled; screenshot $shot"
