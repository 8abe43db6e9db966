#!/usr/bin/env python3
"""Links a daemon (OUT's name: recoverydeckd-sim, the box's daemon on a simulated box) a second time, against libgpiod v2, from the objects `swift build` already made:

    link-v2.py BUILD_DIR V2_DIR OUT

The Swift side sees only the shim's own header (Sources/CGPIOD/include/CGPIOD.h), which is the same for both
libgpiod major versions, so every Swift object is the same on v1 and v2; only the shim's object and the library
differ. This takes SwiftPM's own link command for the product (BUILD_DIR/../debug.yaml), puts V2_DIR/shim-v2.o
in place of the v1 shim object and V2_DIR/libgpiod-v2.a in place of -lgpiod, and writes OUT. A second whole
Swift build against the v2 header would give the same Swift objects and take minutes on two cores.
"""
import json
import os
import re
import subprocess
import sys


def main():
    build, v2, out = (os.path.abspath(a) for a in sys.argv[1:4])
    manifest = os.path.join(os.path.dirname(os.path.dirname(build)), os.path.basename(build) + ".yaml")
    text = open(manifest, encoding="utf-8").read()
    product = os.path.basename(out)
    m = re.search(r'"C\.' + re.escape(product) + r'-[a-z0-9_]+-unknown-linux-gnu-[a-z]+\.exe":\n(?:    .*\n)*?    args: (\[.*\])\n', text)
    if not m:
        sys.exit(f"link-v2: no link command for {product} in {manifest}")
    args = json.loads(m[1])
    lists = [a for a in args if a.startswith("@") and a.endswith("Objects.LinkFileList")]
    if len(lists) != 1 or args.count("-lgpiod") != 1 or "-o" not in args:
        sys.exit("link-v2: the link command is not the expected shape (one object list, -lgpiod, -o)")
    objects = open(lists[0][1:], encoding="utf-8").read().split()
    shim = [o for o in objects if o.endswith("/CGPIOD.build/CGPIOD.c.o")]
    if len(shim) != 1:
        sys.exit("link-v2: the object list has no single CGPIOD.c.o")
    os.makedirs(os.path.dirname(out), exist_ok=True)
    object_list = out + ".LinkFileList"
    with open(object_list, "w", encoding="utf-8") as f:
        for o in objects:
            f.write((os.path.join(v2, "shim-v2.o") if o == shim[0] else o) + "\n")
    args[args.index(lists[0])] = "@" + object_list
    args[args.index("-lgpiod")] = os.path.join(v2, "libgpiod-v2.a")
    args[args.index("-o") + 1] = out
    subprocess.run(args, check=True)
    print(f"link-v2: {out}", file=sys.stderr)


if __name__ == "__main__":
    main()
