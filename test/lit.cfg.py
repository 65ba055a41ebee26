# -*- Python -*-
# lit configuration for OptiML. Tests are CUDA sources or .test scripts with
# RUN lines; substitutions give the tool, FileCheck, nvcc and `not`.
import os
import shutil
import subprocess

import lit.formats

config.name = "OptiML"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".cu", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.optiml_obj_root, "test")
config.environment["PATH"] = os.pathsep.join(
    [config.optiml_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])

nvcc_flags = "-arch=%s -std=c++17" % config.cuda_arch
config.substitutions += [
    ("%clang-optiml", os.path.join(config.optiml_tools_dir, "clang-optiml")),
    ("%FileCheck", config.filecheck),
    ("%nvcc", "%s %s" % (config.nvcc, nvcc_flags)),
    ("%python", config.python),
    ("%cmake", config.cmake),
    ("%cuda_compiler", config.nvcc),
    ("%examples", os.path.join(config.optiml_src_root, "examples")),
    ("%new-transform",
     os.path.join(config.optiml_src_root, "scripts", "new-transform.py")),
    ("%optiml_src", config.optiml_src_root),
    ("%optiml_obj", config.optiml_obj_root),
    ("%optiml_plugin", os.path.join(config.optiml_lib_dir, "OptimlPlugin.so")),
    # The clang that OptiML is built against, compiling CUDA as a project
    # would: the plugin loads into it.
    ("%clang_plain", os.path.join(config.llvm_tools_dir, "clang")),
    ("%cuda_path", config.cuda_path),
    ("%clang_cuda", "%s --cuda-path=%s --cuda-gpu-arch=%s -Wno-unknown-cuda-version"
     % (os.path.join(config.llvm_tools_dir, "clang"), config.cuda_path, config.cuda_arch)),
]

# Tests that need a GPU say `REQUIRES: gpu`; without one lit reports them as
# UNSUPPORTED, and we say why once.
def have_gpu():
    smi = shutil.which("nvidia-smi")
    if not smi:
        return False
    try:
        out = subprocess.run([smi, "-L"], capture_output=True, text=True, timeout=20)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return out.returncode == 0 and "GPU" in out.stdout

if have_gpu():
    config.available_features.add("gpu")
else:
    lit_config.note("no CUDA GPU found: tests marked 'REQUIRES: gpu' are skipped "
                    "(run scripts/gpu-check.sh on a GPU machine)")
if shutil.which(config.nvcc) or os.path.exists(config.nvcc):
    config.available_features.add("nvcc")

# A sanitized build (scripts/sanitize.sh) runs unoptimized with a check on
# every access, some ten times slower: a limit that is about the tool's
# speed (%{time_limit}, in seconds of the tool's CPU time, never of the wall
# clock, which a loaded machine stretches) stretches with it.
sanitized = getattr(config, "optiml_sanitize", "OFF").upper() in ("ON", "1", "TRUE", "YES")
config.substitutions.append(("%{time_limit}", "600" if sanitized else "60"))

# The Clang plugin is not built in sanitized or static builds.
if config.optiml_plugin == "ON":
    config.available_features.add("plugin")
