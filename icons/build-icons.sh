#!/bin/sh
# Rebuilds every raster icon from fabricscope.svg. Needs rsvg-convert (librsvg2-bin) and ImageMagick.
set -eu
cd "$(dirname "$0")"
mkdir -p png
for s in 16 24 32 48 64 128 256 512 1024; do
  rsvg-convert -w $s -h $s fabricscope.svg -o png/fabricscope-$s.png
done
convert png/fabricscope-16.png png/fabricscope-24.png png/fabricscope-32.png png/fabricscope-48.png \
        png/fabricscope-64.png png/fabricscope-128.png png/fabricscope-256.png fabricscope.ico
python3 - <<'PY'
# ICNS: 'icns' + total length, then entries (type, length incl. 8-byte header, PNG data).
import struct
entries = [(b'icp4', 16), (b'icp5', 32), (b'icp6', 64), (b'ic07', 128), (b'ic08', 256), (b'ic09', 512), (b'ic10', 1024)]
body = b''
for kind, size in entries:
    data = open(f'png/fabricscope-{size}.png', 'rb').read()
    body += kind + struct.pack('>I', len(data) + 8) + data
open('fabricscope.icns', 'wb').write(b'icns' + struct.pack('>I', len(body) + 8) + body)
PY
ls -la png fabricscope.ico fabricscope.icns
