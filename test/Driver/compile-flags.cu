// Flags after `--`, --extra-arg and --extra-arg-before reach the parse;
// without them the kernel guarded by the macros does not exist.
// RUN: %clang-optiml %s --list-kernels -- -DWITH_GUARDED -DWIDTH=8 | %FileCheck %s
// RUN: %clang-optiml %s --list-kernels --extra-arg=-DWITH_GUARDED --extra-arg=-DWIDTH=8 | %FileCheck %s
// RUN: %clang-optiml %s --list-kernels | %FileCheck --check-prefix=PLAIN %s
// --extra-arg-before puts its flag before the others, --extra-arg after
// them: of -U and -D of one macro, the later wins.
// RUN: %clang-optiml %s --list-kernels --extra-arg-before=-DWITH_GUARDED --extra-arg-before=-DWIDTH=8 | %FileCheck %s
// RUN: %clang-optiml %s --list-kernels --extra-arg-before=-UWITH_GUARDED -- -DWITH_GUARDED -DWIDTH=8 | %FileCheck %s
// RUN: %clang-optiml %s --list-kernels --extra-arg=-UWITH_GUARDED -- -DWITH_GUARDED -DWIDTH=8 | %FileCheck --check-prefix=PLAIN %s
// RUN: %clang-optiml %s --list-kernels --arch=sm_80 -- -DWITH_GUARDED -DWIDTH=8 | %FileCheck --check-prefix=ARCH %s

// CHECK: compile-flags.cu: 2 kernels
// PLAIN: compile-flags.cu: 1 kernel
__global__ void always(float *p) { p[threadIdx.x] = 0; }

#ifdef WITH_GUARDED
// CHECK: kernel guarded
// CHECK: guarded/for#0  line [[@LINE+2]]: for (int i = 0; i < WIDTH; ++i)
__global__ void guarded(float *p) {
  for (int i = 0; i < WIDTH; ++i)
    p[i] = 1;
}
#endif

// The device-side parse sees the architecture asked for.
// ARCH: kernel arch_80
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ == 800
__global__ void arch_80() {}
#endif
