// pipeline-shared(site) is refused where N-buffering the tiles and issuing
// the next tiles' copies early could change what the loop computes, or
// where there is no copy to pipeline, with the reason at the place that
// decides it.
// RUN: not %clang-optiml %s --arch=sm_75 --apply='pipeline-shared(site=ok/for#0)' 2>&1 | %FileCheck --check-prefix=ARCH %s
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=whiles/while#0)' 2>&1 | %FileCheck --check-prefix=WHILE %s
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=down/for#0)' 2>&1 | %FileCheck --check-prefix=DOWN %s
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=outer_iv/for#0)' 2>&1 | %FileCheck --check-prefix=OUTERIV %s
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=effects/for#0)' 2>&1 | %FileCheck --check-prefix=EFFECTS %s
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=pragma/for#0)' 2>&1 | %FileCheck --check-prefix=PRAGMA %s
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=jumps/for#0)' 2>&1 | %FileCheck --check-prefix=JUMP %s
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=no_barrier/for#0)' 2>&1 | %FileCheck --check-prefix=NOBARRIER %s
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=barrier_first/for#0)' 2>&1 | %FileCheck --check-prefix=FIRST %s
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=no_last/for#0)' 2>&1 | %FileCheck --check-prefix=NOLAST %s
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=no_copy/for#0)' 2>&1 | %FileCheck --check-prefix=NOCOPY %s
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=copy_while/for#0)' 2>&1 | %FileCheck --check-prefix=COPYWHILE %s
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=shared_inside/for#0)' 2>&1 | %FileCheck --check-prefix=INSIDE %s
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=scaled/for#0)' 2>&1 | %FileCheck --check-prefix=SCALED %s
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=converted/for#0)' 2>&1 | %FileCheck --check-prefix=CONVERT %s
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=narrow/for#0)' 2>&1 | %FileCheck --check-prefix=NARROW %s
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=unaligned/for#0)' 2>&1 | %FileCheck --check-prefix=UNALIGNED %s
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=written/for#0)' 2>&1 | %FileCheck --check-prefix=WRITTEN %s
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=moving_target/for#0)' 2>&1 | %FileCheck --check-prefix=MOVING %s
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=some_tiles/for#0)' 2>&1 | %FileCheck --check-prefix=SOMETILES %s
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=gather/for#0)' 2>&1 | %FileCheck --check-prefix=GATHER %s
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=deref/for#0)' 2>&1 | %FileCheck --check-prefix=DEREF %s
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=reads_tile/for#0)' 2>&1 | %FileCheck --check-prefix=READSTILE %s
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=counts/for#0)' 2>&1 | %FileCheck --check-prefix=COUNTS %s
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=bumped/for#0)' 2>&1 | %FileCheck --check-prefix=BUMPED %s
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=calls/for#0)' 2>&1 | %FileCheck --check-prefix=CALLS %s
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=ok/for#0)' --apply='pipeline-shared(site=ok/for#0)' 2>&1 | %FileCheck --check-prefix=TWICE %s
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=dynamic/for#0)' 2>&1 | %FileCheck --check-prefix=DYNAMIC %s
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=macro_tile/for#0)' 2>&1 | %FileCheck --check-prefix=MACRO %s
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=used_after/for#0)' 2>&1 | %FileCheck --check-prefix=AFTER %s
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=work_writes/for#0)' 2>&1 | %FileCheck --check-prefix=WORKWRITES %s
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=work_local/for#0)' 2>&1 | %FileCheck --check-prefix=WORKLOCAL %s
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=aliased/for#0)' 2>&1 | %FileCheck --check-prefix=ALIAS %s
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=big/for#0,stages=3)' 2>&1 | %FileCheck --check-prefix=BIG %s
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=near_max/for#0)' 2>&1 | %FileCheck --check-prefix=OVERFLOW %s
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=in_macro/for#0)' 2>&1 | %FileCheck --check-prefix=LOOPMACRO %s
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=header_macro/for#0)' 2>&1 | %FileCheck --check-prefix=HEADERMACRO %s
// RUN: not %clang-optiml %s --apply='pipeline-shared(site=lambda/for#0)' 2>&1 | %FileCheck --check-prefix=LAMBDA %s

#include <cuda_runtime.h>

// The loop the cases below break one rule of each.
// ARCH: :[[@LINE+5]]:3: pipeline-shared(site=ok/for#0) is not applicable: cp.async needs sm_80 or newer; the kernel is compiled for sm_75
// TWICE: illegal.cu:{{[0-9]+}}:5: pipeline-shared(site=ok/for#0) is not applicable: the loop already copies with cp.async ('__pipeline_wait_prior') (in the source after step 1)
__global__ void ok(const float *x, float *y, int n) {
  __shared__ float t[256];
  float s = 0.0f;
  for (int j = 0; j < n; j += 256) {
    t[threadIdx.x] = x[j + threadIdx.x];
    __syncthreads();
    s += t[255 - threadIdx.x];
    __syncthreads();
  }
  y[threadIdx.x] = s;
}

// WHILE: :[[@LINE+5]]:3: pipeline-shared(site=whiles/while#0) is not applicable: 'whiles/while#0' is a while-loop; pipeline-shared pipelines a counted for-loop
__global__ void whiles(const float *x, float *y, int n) {
  __shared__ float t[256];
  float s = 0.0f;
  int j = 0;
  while (j < n) {
    t[threadIdx.x] = x[j + threadIdx.x];
    __syncthreads();
    s += t[255 - threadIdx.x];
    __syncthreads();
    j += 256;
  }
  y[threadIdx.x] = s;
}

__global__ void down(const float *x, float *y, int n) {
  __shared__ float t[256];
  float s = 0.0f;
  // DOWN: :[[@LINE+1]]:25: pipeline-shared(site=down/for#0) is not applicable: the loop must count up to a bound (i < n or i <= n); the next tile is the next value
  for (int j = n - 256; j >= 0; j -= 256) {
    t[threadIdx.x] = x[j + threadIdx.x];
    __syncthreads();
    s += t[255 - threadIdx.x];
    __syncthreads();
  }
  y[threadIdx.x] = s;
}

__global__ void outer_iv(const float *x, float *y, int n) {
  __shared__ float t[256];
  float s = 0.0f;
  int j;
  // OUTERIV: :[[@LINE+1]]:8: pipeline-shared(site=outer_iv/for#0) is not applicable: the loop variable 'j' is declared outside the loop; the copies of later tiles redeclare it
  for (j = 0; j < n; j += 256) {
    t[threadIdx.x] = x[j + threadIdx.x];
    __syncthreads();
    s += t[255 - threadIdx.x];
    __syncthreads();
  }
  y[threadIdx.x] = s;
}

__global__ void effects(const float *x, float *y, int n, int *start) {
  __shared__ float t[256];
  float s = 0.0f;
  // EFFECTS: :[[@LINE+1]]:16: pipeline-shared(site=effects/for#0) is not applicable: the loop's header has side effects, which evaluating it for the first tiles would repeat
  for (int j = atomicAdd(start, 0); j < n; j += 256) {
    t[threadIdx.x] = x[j + threadIdx.x];
    __syncthreads();
    s += t[255 - threadIdx.x];
    __syncthreads();
  }
  y[threadIdx.x] = s;
}

__global__ void pragma(const float *x, float *y, int n) {
  __shared__ float t[256];
  float s = 0.0f;
  // PRAGMA: :[[@LINE+1]]:9: pipeline-shared(site=pragma/for#0) is not applicable: the loop has a pragma or attribute, which the prologue before it would separate from it
#pragma unroll 1
  for (int j = 0; j < n; j += 256) {
    t[threadIdx.x] = x[j + threadIdx.x];
    __syncthreads();
    s += t[255 - threadIdx.x];
    __syncthreads();
  }
  y[threadIdx.x] = s;
}

__global__ void jumps(const float *x, float *y, int n) {
  __shared__ float t[256];
  float s = 0.0f;
  for (int j = 0; j < n; j += 256) {
    t[threadIdx.x] = x[j + threadIdx.x];
    __syncthreads();
    s += t[255 - threadIdx.x];
    // JUMP: :[[@LINE+2]]:7: pipeline-shared(site=jumps/for#0) is illegal: a jump out of the iteration would skip the barrier and the copy of a later tile
    if (s > 1e6f)
      break;
    __syncthreads();
  }
  y[threadIdx.x] = s;
}

// A loop with no barrier has nothing to wait for.
__global__ void no_barrier(const float *x, float *y, int n) {
  float s = 0.0f;
  // NOBARRIER: :[[@LINE+1]]:3: pipeline-shared(site=no_barrier/for#0) is not applicable: the loop's body has no __syncthreads() of its own after copying a tile to shared memory
  for (int j = 0; j < n; ++j)
    s += x[j];
  y[threadIdx.x] = s;
}

__global__ void barrier_first(const float *x, float *y, int n) {
  __shared__ float t[256];
  float s = 0.0f;
  for (int j = 0; j < n; j += 256) {
    // FIRST: :[[@LINE+1]]:5: pipeline-shared(site=barrier_first/for#0) is not applicable: nothing comes before the loop's first barrier: there is no copy to pipeline
    __syncthreads();
    t[threadIdx.x] = x[j + threadIdx.x];
    __syncthreads();
    s += t[255 - threadIdx.x];
  }
  y[threadIdx.x] = s;
}

// Without a barrier after the work, the work of one tile and the copy of
// the next are already ordered otherwise (or racing).
__global__ void no_last(const float *x, float *y, int n) {
  __shared__ float t[256];
  float s = 0.0f;
  for (int j = 0; j < n; j += 256) {
    t[threadIdx.x] = x[j + threadIdx.x];
    __syncthreads();
    // NOLAST: :[[@LINE+1]]:5: pipeline-shared(site=no_last/for#0) is not applicable: the loop's body does not end with a __syncthreads() after its work; the copy of the next tile must not overwrite a tile in use
    s += t[255 - threadIdx.x];
  }
  y[threadIdx.x] = s;
}

__global__ void no_copy(float *y, int n) {
  __shared__ float t[256];
  float s = 0.0f;
  for (int j = 0; j < n; j += 256) {
    // NOCOPY: :[[@LINE+1]]:5: pipeline-shared(site=no_copy/for#0) is not applicable: nothing before the loop's first barrier copies an element of global memory to a __shared__ array
    int k = j + threadIdx.x;
    __syncthreads();
    s += t[255 - threadIdx.x] + k;
    __syncthreads();
  }
  y[threadIdx.x] = s;
}

__global__ void copy_while(const float *x, float *y, int n) {
  __shared__ float t[256];
  float s = 0.0f;
  for (int j = 0; j < n; j += 256) {
    int e = threadIdx.x;
    // COPYWHILE: :[[@LINE+1]]:5: pipeline-shared(site=copy_while/for#0) is not applicable: the copy phase holds a while-loop; only declarations, for-loops, ifs and assignments may make up a copy
    while (e < 256) {
      t[e] = x[j + e];
      e += blockDim.x;
    }
    __syncthreads();
    s += t[255 - threadIdx.x];
    __syncthreads();
  }
  y[threadIdx.x] = s;
}

__global__ void shared_inside(const float *x, float *y, int n) {
  float s = 0.0f;
  for (int j = 0; j < n; j += 256) {
    // INSIDE: :[[@LINE+1]]:22: pipeline-shared(site=shared_inside/for#0) is not applicable: 't' is declared in the loop with a storage the block or every iteration shares
    __shared__ float t[256];
    t[threadIdx.x] = x[j + threadIdx.x];
    __syncthreads();
    s += t[255 - threadIdx.x];
    __syncthreads();
  }
  y[threadIdx.x] = s;
}

__global__ void scaled(const float *x, float *y, int n, float a) {
  __shared__ float t[256];
  float s = 0.0f;
  for (int j = 0; j < n; j += 256) {
    // SCALED: :[[@LINE+1]]:22: pipeline-shared(site=scaled/for#0) is not applicable: the value stored to 't' is not an element of a buffer parameter copied unchanged (optionally under a condition); cp.async only copies bytes
    t[threadIdx.x] = a * x[j + threadIdx.x];
    __syncthreads();
    s += t[255 - threadIdx.x];
    __syncthreads();
  }
  y[threadIdx.x] = s;
}

__global__ void converted(const double *x, float *y, int n) {
  __shared__ float t[256];
  float s = 0.0f;
  for (int j = 0; j < n; j += 256) {
    // CONVERT: :[[@LINE+1]]:22: pipeline-shared(site=converted/for#0) is not applicable: the copy converts 'const double' to 'float'; cp.async copies bytes unchanged
    t[threadIdx.x] = x[j + threadIdx.x];
    __syncthreads();
    s += t[255 - threadIdx.x];
    __syncthreads();
  }
  y[threadIdx.x] = s;
}

__global__ void narrow(const short *x, float *y, int n) {
  __shared__ short t[256];
  float s = 0.0f;
  for (int j = 0; j < n; j += 256) {
    // NARROW: :[[@LINE+1]]:5: pipeline-shared(site=narrow/for#0) is not applicable: the elements of 't' take 2 bytes; cp.async copies 4, 8 or 16
    t[threadIdx.x] = x[j + threadIdx.x];
    __syncthreads();
    s += t[255 - threadIdx.x];
    __syncthreads();
  }
  y[threadIdx.x] = s;
}

struct Pair {
  float a, b;
};

__global__ void unaligned(const Pair *x, float *y, int n) {
  __shared__ Pair t[256];
  float s = 0.0f;
  for (int j = 0; j < n; j += 256) {
    // UNALIGNED: :[[@LINE+1]]:5: pipeline-shared(site=unaligned/for#0) is not applicable: the elements of 't' are aligned to 4 bytes, less than their size; cp.async needs addresses aligned to the size copied
    t[threadIdx.x] = x[j + threadIdx.x];
    __syncthreads();
    s += t[255 - threadIdx.x].a;
    __syncthreads();
  }
  y[threadIdx.x] = s;
}

__global__ void written(float *x, int n) {
  __shared__ float t[256];
  for (int j = 0; j < n; j += 256) {
    t[threadIdx.x] = x[j + threadIdx.x];
    __syncthreads();
    // WRITTEN: :[[@LINE+1]]:5: pipeline-shared(site=written/for#0) is illegal: the kernel may write through 'x' here; the next tile's copy, issued before this tile's work, could read it too early
    x[j + threadIdx.x] = t[255 - threadIdx.x];
    __syncthreads();
  }
}

__global__ void moving_target(const float *x, float *y, int n) {
  __shared__ float t[512];
  float s = 0.0f;
  for (int j = 0; j < n; j += 256) {
    // MOVING: :[[@LINE+1]]:7: pipeline-shared(site=moving_target/for#0) is illegal: which element of 't' is written depends on the tile; with several buffers, an element one tile leaves unwritten would hold another tile's value
    t[(j / 256) % 2 * 256 + threadIdx.x] = x[j + threadIdx.x];
    __syncthreads();
    s += t[threadIdx.x];
    __syncthreads();
  }
  y[threadIdx.x] = s;
}

__global__ void some_tiles(const float *x, float *y, int n) {
  __shared__ float t[256];
  float s = 0.0f;
  for (int j = 0; j < n; j += 256) {
    // SOMETILES: :[[@LINE+1]]:9: pipeline-shared(site=some_tiles/for#0) is illegal: whether the copy to 't' runs depends on the tile; with several buffers, an element one tile leaves unwritten would hold another tile's value
    if (j + threadIdx.x < n)
      t[threadIdx.x] = x[j + threadIdx.x];
    __syncthreads();
    s += t[255 - threadIdx.x];
    __syncthreads();
  }
  y[threadIdx.x] = s;
}

__global__ void gather(const float *x, const int *idx, float *y, int n) {
  __shared__ float t[256];
  float s = 0.0f;
  for (int j = 0; j < n; j += 256) {
    // GATHER: :[[@LINE+1]]:24: pipeline-shared(site=gather/for#0) is not applicable: the copy phase reads 'idx[j + threadIdx.x]' besides the elements it copies
    t[threadIdx.x] = x[idx[j + threadIdx.x]];
    __syncthreads();
    s += t[255 - threadIdx.x];
    __syncthreads();
  }
  y[threadIdx.x] = s;
}

__global__ void deref(const float *x, const int *off, float *y, int n) {
  __shared__ float t[256];
  float s = 0.0f;
  for (int j = 0; j < n; j += 256) {
    // DEREF: :[[@LINE+1]]:28: pipeline-shared(site=deref/for#0) is not applicable: the copy phase reads memory through a pointer besides the elements it copies
    t[threadIdx.x] = x[j + *off + threadIdx.x];
    __syncthreads();
    s += t[255 - threadIdx.x];
    __syncthreads();
  }
  y[threadIdx.x] = s;
}

__global__ void reads_tile(const float *x, float *y, int n) {
  __shared__ float t[256];
  float s = 0.0f;
  for (int j = 0; j < n; j += 256) {
    // READSTILE: :[[@LINE+1]]:9: pipeline-shared(site=reads_tile/for#0) is not applicable: the copy phase uses __shared__ 't' other than to store a copied element
    if (t[0] < 1e6f)
      t[threadIdx.x] = x[j + threadIdx.x];
    __syncthreads();
    s += t[255 - threadIdx.x];
    __syncthreads();
  }
  y[threadIdx.x] = s;
}

__global__ void counts(const float *x, float *y, int n) {
  __shared__ float t[256];
  float s = 0.0f;
  int copies = 0;
  for (int j = 0; j < n; j += 256) {
    t[threadIdx.x] = x[j + threadIdx.x];
    // COUNTS: :[[@LINE+1]]:5: pipeline-shared(site=counts/for#0) is illegal: the copy phase changes 'copies', declared outside it; the copy of a later tile, issued early, would change it at another time
    copies++;
    __syncthreads();
    s += t[255 - threadIdx.x];
    __syncthreads();
  }
  y[threadIdx.x] = s + copies;
}

// The textbook form that walks a pointer along the row.
__global__ void bumped(const float *x, float *y, int n) {
  __shared__ float t[256];
  float s = 0.0f;
  int base = 0;
  for (int j = 0; j < n; j += 256) {
    // BUMPED: :[[@LINE+1]]:24: pipeline-shared(site=bumped/for#0) is not applicable: the copy reads 'base', which the loop changes: the next tile's copy, issued an iteration early, would read this iteration's value
    t[threadIdx.x] = x[base + threadIdx.x];
    __syncthreads();
    s += t[255 - threadIdx.x];
    base += 256;
    __syncthreads();
  }
  y[threadIdx.x] = s;
}

__device__ int column(int j) { return j + threadIdx.x; }

__global__ void calls(const float *x, float *y, int n) {
  __shared__ float t[256];
  float s = 0.0f;
  for (int j = 0; j < n; j += 256) {
    // CALLS: :[[@LINE+1]]:24: pipeline-shared(site=calls/for#0) is not applicable: the copy phase calls 'column', which may do more than compute a copy's place
    t[threadIdx.x] = x[column(j)];
    __syncthreads();
    s += t[255 - threadIdx.x];
    __syncthreads();
  }
  y[threadIdx.x] = s;
}

__global__ void dynamic(const float *x, float *y, int n) {
  // DYNAMIC: :[[@LINE+1]]:27: pipeline-shared(site=dynamic/for#0) is not applicable: 't' is not a statically sized __shared__ array declared in the kernel
  extern __shared__ float t[];
  float s = 0.0f;
  for (int j = 0; j < n; j += 256) {
    t[threadIdx.x] = x[j + threadIdx.x];
    __syncthreads();
    s += t[255 - threadIdx.x];
    __syncthreads();
  }
  y[threadIdx.x] = s;
}

#define DECLARE_TILE(name) __shared__ float name[256]

__global__ void macro_tile(const float *x, float *y, int n) {
  // MACRO: :[[@LINE+1]]:3: pipeline-shared(site=macro_tile/for#0) is not applicable: 't' is declared inside a macro
  DECLARE_TILE(t);
  float s = 0.0f;
  for (int j = 0; j < n; j += 256) {
    t[threadIdx.x] = x[j + threadIdx.x];
    __syncthreads();
    s += t[255 - threadIdx.x];
    __syncthreads();
  }
  y[threadIdx.x] = s;
}

__global__ void used_after(const float *x, float *y, int n) {
  __shared__ float t[256];
  float s = 0.0f;
  for (int j = 0; j < n; j += 256) {
    t[threadIdx.x] = x[j + threadIdx.x];
    __syncthreads();
    s += t[255 - threadIdx.x];
    __syncthreads();
  }
  // AFTER: :[[@LINE+1]]:24: pipeline-shared(site=used_after/for#0) is illegal: 't' is used outside the loop, which would see only one of its buffers
  y[threadIdx.x] = s + t[threadIdx.x];
}

__global__ void work_writes(const float *x, float *y, int n) {
  __shared__ float t[256];
  float s = 0.0f;
  for (int j = 0; j < n; j += 256) {
    t[threadIdx.x] = x[j + threadIdx.x];
    __syncthreads();
    // WORKWRITES: :[[@LINE+1]]:5: pipeline-shared(site=work_writes/for#0) is illegal: the work uses 't' other than by reading an element; only the copy phase may write the tiles
    t[255 - threadIdx.x] += 1.0f;
    s += t[threadIdx.x];
    __syncthreads();
  }
  y[threadIdx.x] = s;
}

__global__ void work_local(const float *x, float *y, int n) {
  __shared__ float t[256];
  float s = 0.0f;
  for (int j = 0; j < n; j += 256) {
    int e = j + threadIdx.x;
    t[threadIdx.x] = x[e];
    __syncthreads();
    // WORKLOCAL: :[[@LINE+1]]:33: pipeline-shared(site=work_local/for#0) is not applicable: the work reads 'e', which the copy phase declares; the copies of later tiles move into blocks of their own
    s += t[255 - threadIdx.x] * e;
    __syncthreads();
  }
  y[threadIdx.x] = s;
}

// The work stores through y, which the launch below passes as x too.
__global__ void aliased(const float *x, float *y, int n) {
  __shared__ float t[256];
  for (int j = 0; j < n; j += 256) {
    t[threadIdx.x] = x[j + threadIdx.x];
    __syncthreads();
    y[j + threadIdx.x] = t[255 - threadIdx.x];
    __syncthreads();
  }
}

void launch_aliased(float *buf, int n) {
  // ALIAS: :[[@LINE+1]]:28: pipeline-shared(site=aliased/for#0) is illegal: this launch passes 'buf' for both 'x' and 'y'
  aliased<<<1, 256>>>(buf, buf, n);
}

// 16 KiB of tiles, tripled, with 1 KiB more, pass the 48 KiB.
__global__ void big(const float *x, float *y, int n) {
  __shared__ float t[4096];
  __shared__ float other[256];
  float s = 0.0f;
  // BIG: :[[@LINE+1]]:3: pipeline-shared(site=big/for#0,stages=3) is illegal: 3 buffers of each tile bring 'big' to 50176 bytes of static shared memory, over the 49152 allowed
  for (int j = 0; j < n; j += 4096) {
    for (int e = threadIdx.x; e < 4096; e += 256)
      t[e] = x[j + e];
    __syncthreads();
    s += t[4095 - threadIdx.x];
    __syncthreads();
  }
  other[threadIdx.x] = s;
  y[threadIdx.x] = other[255 - threadIdx.x];
}

__global__ void near_max(const float *x, float *y) {
  __shared__ float t[256];
  float s = 0.0f;
  // OVERFLOW: :[[@LINE+1]]:23: pipeline-shared(site=near_max/for#0) is illegal: the test of the tile 1 steps ahead would overflow 'int' near the bound
  for (int j = 0; j < 2147483647; j += 256) {
    t[threadIdx.x] = x[j + threadIdx.x];
    __syncthreads();
    s += t[255 - threadIdx.x];
    __syncthreads();
  }
  y[threadIdx.x] = s;
}

#define TILE_LOOP(j, n) for (int j = 0; j < n; j += 256)

__global__ void in_macro(const float *x, float *y, int n) {
  __shared__ float t[256];
  float s = 0.0f;
  // LOOPMACRO: :[[@LINE+1]]:3: pipeline-shared(site=in_macro/for#0) is not applicable: 'in_macro/for#0' is written inside a macro; its copies cannot be rewritten
  TILE_LOOP(j, n) {
    t[threadIdx.x] = x[j + threadIdx.x];
    __syncthreads();
    s += t[255 - threadIdx.x];
    __syncthreads();
  }
  y[threadIdx.x] = s;
}

#define FIRST_TILE int j = 0

__global__ void header_macro(const float *x, float *y, int n) {
  __shared__ float t[256];
  float s = 0.0f;
  // HEADERMACRO: :[[@LINE+1]]:8: pipeline-shared(site=header_macro/for#0) is not applicable: part of the loop's header comes from a macro and cannot be copied
  for (FIRST_TILE; j < n; j += 256) {
    t[threadIdx.x] = x[j + threadIdx.x];
    __syncthreads();
    s += t[255 - threadIdx.x];
    __syncthreads();
  }
  y[threadIdx.x] = s;
}

__global__ void lambda(const float *x, float *y, int n) {
  __shared__ float t[256];
  float s = 0.0f;
  for (int j = 0; j < n; j += 256) {
    // LAMBDA: :[[@LINE+1]]:15: pipeline-shared(site=lambda/for#0) is not applicable: the copy phase defines a lambda
    auto at = [](int k) { return k; };
    t[threadIdx.x] = x[at(j) + threadIdx.x];
    __syncthreads();
    s += t[255 - threadIdx.x];
    __syncthreads();
  }
  y[threadIdx.x] = s;
}
