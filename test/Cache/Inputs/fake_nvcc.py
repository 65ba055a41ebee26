"""A stand-in for nvcc in the launcher test: records its arguments and
copies the .cu file it was asked to compile to the object (-o), so the test
can tell which file would have been compiled. Fails when told to."""
import shutil
import sys

args = sys.argv[1:]
out = args[args.index("-o") + 1]
with open(out + ".args", "w") as f:
    f.write("\n".join(args) + "\n")
if "--fail" in args:
    sys.exit(7)
shutil.copyfile([a for a in args if a.endswith(".cu")][-1], out)
