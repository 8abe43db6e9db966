"""What the packaging stage checks in pictures rendered by rsvg-convert (8-bit RGB/RGBA PNG).

  70-packaging-png.py report PNG     the report chart shows its band, values and lights
  70-packaging-png.py same A.png B.png
                                     B is A as rendered again: same size, and < 0.2 % of pixels
                                     differ by more than 48 in a channel (room for anti-aliasing
                                     of another rasteriser; recolouring the traffic light's LEDs
                                     changes 0.9 %). Labels are checked in the SVG itself
                                     (Tests/AdminTests/HardwareDocumentsTests.swift).
Exits non-zero with the reason on a failed check. Standard library only.
"""
import struct
import sys
import zlib


def decode(path):
    """(width, height, rows of (r, g, b) tuples)."""
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", f"{path} is not a PNG"
    pos, idat = 8, b""
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body[:13])
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    assert depth == 8 and color in (2, 6) and interlace == 0, f"{path}: unexpected PNG format {depth}/{color}"
    bpp = 4 if color == 6 else 3
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev, i = [], bytearray(stride), 0
    for _ in range(height):
        f = raw[i]
        line = bytearray(raw[i + 1:i + 1 + stride])
        i += 1 + stride
        for x in range(stride):
            a = line[x - bpp] if x >= bpp else 0
            b = prev[x]
            c = prev[x - bpp] if x >= bpp else 0
            if f == 1:
                line[x] = (line[x] + a) & 255
            elif f == 2:
                line[x] = (line[x] + b) & 255
            elif f == 3:
                line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append([tuple(line[x:x + 3]) for x in range(0, stride, bpp)])
        prev = line
    return width, height, rows


def report(path):
    width, height, rows = decode(path)

    def count(rgb):
        return sum(row.count(rgb) for row in rows)

    total = width * height
    white = count((255, 255, 255))
    band = count((0xC6, 0xDB, 0xEF))
    green = count((0x2B, 0x8A, 0x2B))
    print(f"report.png {width}x{height}: band {100 * band / total:.1f} %, "
          f"non-white {100 * (total - white) / total:.1f} %, green {green} px")
    assert width == 960 and height > 900, f"size {width}x{height}"
    assert total - white > 0.10 * total, "the picture is almost blank"
    assert band > 0.05 * total, "the 60-day band is missing"
    assert green > 200, "the lights row has no green day"


def same(path_a, path_b):
    wa, ha, a = decode(path_a)
    wb, hb, b = decode(path_b)
    assert (wa, ha) == (wb, hb), f"{path_b} is {wb}x{hb}, {path_a} is {wa}x{ha}"
    differing = sum(1 for ra, rb in zip(a, b) for pa, pb in zip(ra, rb)
                    if max(abs(x - y) for x, y in zip(pa, pb)) > 48)
    share = differing / (wa * ha)
    print(f"{path_b}: {100 * share:.2f} % of pixels differ from a fresh rendering")
    assert share < 0.002, f"{path_b} is not what its SVG renders to ({100 * share:.1f} % of pixels differ)"


if __name__ == "__main__":
    try:
        if sys.argv[1] == "report":
            report(sys.argv[2])
        elif sys.argv[1] == "same":
            same(sys.argv[2], sys.argv[3])
        else:
            sys.exit(f"unknown check {sys.argv[1]}")
    except AssertionError as e:
        sys.exit(str(e))
