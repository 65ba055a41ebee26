"""Lays out a CUDA toolkit in DEST from the real one at SRC, by symbolic links.

  toolkit-layout.py SRC DEST 12    CCCL's folders directly in include/ (CUDA 12)
  toolkit-layout.py SRC DEST 13    CCCL in include/cccl, no bin/nvcc.profile
  toolkit-layout.py SRC DEST none  no CCCL at all

Clang's CUDA driver needs bin/, include/, lib64/ and nvvm/libdevice.
"""
import os
import sys

src, dest, layout = sys.argv[1:4]
real_include = os.path.realpath(os.path.join(src, "include"))
cccl = os.path.join(real_include, "cccl")
os.makedirs(os.path.join(dest, "include"), exist_ok=True)
os.makedirs(os.path.join(dest, "bin"), exist_ok=True)
for name in ("nvvm", "lib64"):
    os.symlink(os.path.realpath(os.path.join(src, name)), os.path.join(dest, name))


def link_all(folder, skip=()):
    for name in sorted(os.listdir(folder)):
        target = os.path.join(dest, "include", name)
        if name in skip or os.path.lexists(target):
            continue
        os.symlink(os.path.join(folder, name), target)


if layout == "12":
    link_all(cccl)
    link_all(real_include, skip=("cccl",))
elif layout == "13":
    link_all(real_include)
else:
    # The toolkit's own headers without CCCL.
    link_all(real_include, skip=("cccl",))
