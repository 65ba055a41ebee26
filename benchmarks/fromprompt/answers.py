#!/usr/bin/env python3
"""Writes the recorded answers of the --from-prompt benchmarks.

Each set is what a model could answer to the five --from-prompt prompts
for one description (DESCRIPTION.md beside this file): the interface, the
strategies, the reference and one kernel per strategy, keyed by what the
prompt asks ("match", see test/LLM/Inputs/fake_llm.py). The kernels are
written here, readable, and dumped to answers/NAME.json for the fake
endpoint; record.sh turns them into a database for --llm-replay on a GPU
machine. softmax, stencil5 and matvec are honest answers; wrongref (a
reference that skips the last column) and nocons (candidates that all
compute something else) exercise the cross-check.

Usage: answers.py [OUT_DIR]   (default: answers/ beside this file)
"""
import json
import os
import sys

STRATEGIES = "TASK: the strategies."


def fence(code, launch):
    return "```cuda\n%s```\n```launch\n%s\n```\n" % (code, launch)


def answers(interface, strategies, reference, kernels):
    out = [{"match": "TASK: the interface.",
            "content": "```cuda\n%s```\n" % interface},
           {"match": STRATEGIES,
            "content": json.dumps({"strategies": [
                {"name": n, "plan": p} for n, p in strategies]})},
           {"match": "TASK: the reference kernel.",
            "content": fence(*reference)}]
    for i, k in enumerate(kernels):
        out.append({"match": "TASK: the kernel for strategy %d of" % (i + 1),
                    "content": fence(*k)})
    return out


# Row softmax -------------------------------------------------------------

SOFTMAX_IF = r"""#pragma optiml kernel sizes(R = 4096, C = 4096) in(x[R * C]) out(y[R * C]) \
    scalar(rows = R, cols = C) grid(ceil_div(R, 128)) block(128) \
    tolerance(rtol = 1e-4, atol = 1e-6) instance(odd: R = 97, C = 1000)
__global__ void softmax_rows(const float *x, float *y, int rows, int cols) {}
"""

SOFTMAX_REF = (r"""__global__ void softmax_rows(const float *x, float *y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  const float *in = x + (size_t)r * cols;
  float *out = y + (size_t)r * cols;
  float m = in[0];
  for (int c = 1; c < cols; ++c)
    m = fmaxf(m, in[c]);
  float s = 0.0f;
  for (int c = 0; c < cols; ++c)
    s += expf(in[c] - m);
  for (int c = 0; c < cols; ++c)
    out[c] = expf(in[c] - m) / s;
}
""", "grid(ceil_div(R, 128)) block(128)")

SOFTMAX_S1 = (r"""__global__ void softmax_rows(const float *x, float *y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  const float *in = x + (size_t)r * cols;
  float *out = y + (size_t)r * cols;
  // One pass for the maximum and the sum (online softmax), one to write.
  float m = -3.0e38f, s = 0.0f;
  for (int c = 0; c < cols; ++c) {
    float v = in[c];
    if (v > m) {
      s = s * expf(m - v) + 1.0f;
      m = v;
    } else {
      s += expf(v - m);
    }
  }
  float inv = 1.0f / s;
  for (int c = 0; c < cols; ++c)
    out[c] = expf(in[c] - m) * inv;
}
""", "grid(ceil_div(R, 256)) block(256)")

SOFTMAX_S2 = (r"""__device__ float warp_max(float v) {
  for (int o = 16; o > 0; o /= 2)
    v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
  return v;
}

__device__ float warp_sum(float v) {
  for (int o = 16; o > 0; o /= 2)
    v += __shfl_xor_sync(0xffffffffu, v, o);
  return v;
}

__global__ void softmax_rows(const float *x, float *y, int rows, int cols) {
  int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (r >= rows)
    return;
  const float *in = x + (size_t)r * cols;
  float *out = y + (size_t)r * cols;
  float m = -3.0e38f;
  for (int c = lane; c < cols; c += 32)
    m = fmaxf(m, in[c]);
  m = warp_max(m);
  float s = 0.0f;
  for (int c = lane; c < cols; c += 32)
    s += expf(in[c] - m);
  float inv = 1.0f / warp_sum(s);
  for (int c = lane; c < cols; c += 32)
    out[c] = expf(in[c] - m) * inv;
}
""", "grid(ceil_div(R, 8)) block(256)")

SOFTMAX_S3 = (r"""__global__ void softmax_rows(const float *x, float *y, int rows, int cols) {
  __shared__ float red[256];
  int r = blockIdx.x;
  const float *in = x + (size_t)r * cols;
  float *out = y + (size_t)r * cols;
  float m = -3.0e38f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    m = fmaxf(m, in[c]);
  red[threadIdx.x] = m;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w)
      red[threadIdx.x] = fmaxf(red[threadIdx.x], red[threadIdx.x + w]);
    __syncthreads();
  }
  m = red[0];
  __syncthreads();
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    s += expf(in[c] - m);
  red[threadIdx.x] = s;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w)
      red[threadIdx.x] += red[threadIdx.x + w];
    __syncthreads();
  }
  float inv = 1.0f / red[0];
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    out[c] = expf(in[c] - m) * inv;
}
""", "grid(R) block(256)")

SOFTMAX = answers(SOFTMAX_IF, [
    ("thread per row", "Each thread owns one row: an online pass for the "
     "maximum and the sum of exponentials, then a pass that writes."),
    ("warp per row", "Each warp owns one row, lanes striding by 32 for "
     "coalesced loads; maximum and sum reduced with xor shuffles; 8 rows per "
     "256-thread block."),
    ("block per row", "Each 256-thread block owns one row; maximum and sum "
     "reduced through a shared-memory tree.")],
    SOFTMAX_REF, [SOFTMAX_S1, SOFTMAX_S2, SOFTMAX_S3])

# 2-D 5-point stencil -------------------------------------------------------

STENCIL_IF = r"""#pragma optiml kernel sizes(H = 4096, W = 4096) in(a[H * W]) out(b[H * W]) \
    scalar(h = H, w = W) grid(ceil_div(W, 16), ceil_div(H, 16)) block(16, 16) \
    tolerance(rtol = 1e-5, atol = 1e-6) instance(odd: H = 101, W = 77)
__global__ void stencil5(const float *a, float *b, int h, int w) {}
"""

STENCIL_POINT = r"""  size_t i = (size_t)y * w + x;
  if (y == 0 || x == 0 || y == h - 1 || x == w - 1)
    b[i] = a[i];
  else
    b[i] = 0.2f * (a[i] + a[i - w] + a[i + w] + a[i - 1] + a[i + 1]);
"""

STENCIL_REF = (r"""__global__ void stencil5(const float *a, float *b, int h, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
""" + STENCIL_POINT + "}\n", "grid(ceil_div(W, 16), ceil_div(H, 16)) block(16, 16)")

STENCIL_S1 = (STENCIL_REF[0], "grid(ceil_div(W, 64), ceil_div(H, 4)) block(64, 4)")

STENCIL_S2 = (r"""__global__ void stencil5(const float *a, float *b, int h, int w) {
  __shared__ float tile[8 + 2][32 + 2];
  int x = blockIdx.x * 32 + threadIdx.x;
  int y = blockIdx.y * 8 + threadIdx.y;
  int tx = threadIdx.x + 1, ty = threadIdx.y + 1;
  bool in = x < w && y < h;
  size_t i = (size_t)y * w + x;
  if (in) {
    tile[ty][tx] = a[i];
    if (threadIdx.x == 0 && x > 0)
      tile[ty][0] = a[i - 1];
    if ((threadIdx.x == 31 || x == w - 1) && x + 1 < w)
      tile[ty][tx + 1] = a[i + 1];
    if (threadIdx.y == 0 && y > 0)
      tile[0][tx] = a[i - w];
    if ((threadIdx.y == 7 || y == h - 1) && y + 1 < h)
      tile[ty + 1][tx] = a[i + w];
  }
  __syncthreads();
  if (!in)
    return;
  if (y == 0 || x == 0 || y == h - 1 || x == w - 1)
    b[i] = tile[ty][tx];
  else
    b[i] = 0.2f * (tile[ty][tx] + tile[ty - 1][tx] + tile[ty + 1][tx] +
                   tile[ty][tx - 1] + tile[ty][tx + 1]);
}
""", "grid(ceil_div(W, 32), ceil_div(H, 8)) block(32, 8)")

STENCIL_S3 = (r"""__global__ void stencil5(const float *a, float *b, int h, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y0 = blockIdx.y * 4;
  if (x >= w)
    return;
  // Four rows per thread: the centre column slides down in registers.
  float up = y0 > 0 ? a[(size_t)(y0 - 1) * w + x] : 0.0f;
  float mid = y0 < h ? a[(size_t)y0 * w + x] : 0.0f;
  for (int y = y0; y < y0 + 4 && y < h; ++y) {
    size_t i = (size_t)y * w + x;
    float down = y + 1 < h ? a[i + w] : 0.0f;
    if (y == 0 || x == 0 || y == h - 1 || x == w - 1)
      b[i] = mid;
    else
      b[i] = 0.2f * (mid + up + down + a[i - 1] + a[i + 1]);
    up = mid;
    mid = down;
  }
}
""", "grid(ceil_div(W, 128), ceil_div(H, 4)) block(128)")

STENCIL = answers(STENCIL_IF, [
    ("thread per point, wide blocks", "One thread per output point in "
     "64x4 blocks so that each warp reads two full 128-byte rows."),
    ("shared-memory tile", "32x8 blocks stage their tile and a one-point halo "
     "in shared memory, then every thread reads its five neighbours from "
     "there."),
    ("register column", "Each thread walks four rows of one column, keeping "
     "the points above, at and below in registers, so each input is loaded "
     "once per column.")],
    STENCIL_REF, [STENCIL_S1, STENCIL_S2, STENCIL_S3])

# Matrix-vector product ------------------------------------------------------

MATVEC_IF = r"""#pragma optiml kernel sizes(M = 8192, N = 8192) in(A[M * N], x[N]) out(y[M]) \
    scalar(m = M, n = N) grid(ceil_div(M, 128)) block(128) \
    tolerance(rtol = 1e-4, atol = 1e-3, norm = 1e-4) instance(odd: M = 1001, N = 333)
__global__ void matvec(const float *A, const float *x, float *y, int m, int n) {}
"""

MATVEC_REF = (r"""__global__ void matvec(const float *A, const float *x, float *y, int m, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= m)
    return;
  float s = 0.0f;
  for (int c = 0; c < n; ++c)
    s += A[(size_t)r * n + c] * x[c];
  y[r] = s;
}
""", "grid(ceil_div(M, 128)) block(128)")

MATVEC_S1 = (r"""__global__ void matvec(const float *A, const float *x, float *y, int m, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= m)
    return;
  const float *row = A + (size_t)r * n;
  float s0 = 0.0f, s1 = 0.0f, s2 = 0.0f, s3 = 0.0f;
  int c = 0;
  for (; c + 3 < n; c += 4) {
    s0 += row[c] * x[c];
    s1 += row[c + 1] * x[c + 1];
    s2 += row[c + 2] * x[c + 2];
    s3 += row[c + 3] * x[c + 3];
  }
  for (; c < n; ++c)
    s0 += row[c] * x[c];
  y[r] = (s0 + s1) + (s2 + s3);
}
""", "grid(ceil_div(M, 64)) block(64)")

MATVEC_S2 = (r"""__global__ void matvec(const float *A, const float *x, float *y, int m, int n) {
  int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (r >= m)
    return;
  const float *row = A + (size_t)r * n;
  float s = 0.0f;
  for (int c = lane; c < n; c += 32)
    s += row[c] * x[c];
  for (int o = 16; o > 0; o /= 2)
    s += __shfl_down_sync(0xffffffffu, s, o);
  if (lane == 0)
    y[r] = s;
}
""", "grid(ceil_div(M, 8)) block(256)")

MATVEC_S3 = (r"""__global__ void matvec(const float *A, const float *x, float *y, int m, int n) {
  __shared__ float part[256];
  int r = blockIdx.x;
  const float *row = A + (size_t)r * n;
  float s = 0.0f;
  for (int c = threadIdx.x; c < n; c += blockDim.x)
    s += row[c] * x[c];
  part[threadIdx.x] = s;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w)
      part[threadIdx.x] += part[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    y[r] = part[0];
}
""", "grid(M) block(256)")

MATVEC = answers(MATVEC_IF, [
    ("thread per row, four accumulators", "Each thread computes one output "
     "with four independent partial sums for instruction-level parallelism."),
    ("warp per row", "Each warp computes one output: lanes read consecutive "
     "elements of the row (coalesced) and reduce with shuffles."),
    ("block per row", "Each 256-thread block computes one output and reduces "
     "its partial sums through shared memory.")],
    MATVEC_REF, [MATVEC_S1, MATVEC_S2, MATVEC_S3])

# The cross-check's own cases, on a row sum ----------------------------------

ROWSUM_IF = r"""#pragma optiml kernel sizes(R = 512, C = 1000) in(x[R * C]) out(y[R]) \
    scalar(rows = R, cols = C) grid(ceil_div(R, 128)) block(128) \
    tolerance(rtol = 1e-4, atol = 1e-5) instance(odd: R = 97, C = 33)
__global__ void row_sum(const float *x, float *y, int rows, int cols) {}
"""


def rowsum(body, launch, y, n="cols"):
    body = body.replace("@Y@", y).replace("@N@", n)
    return ("__global__ void row_sum(const float *x, float *y, int rows, "
            "int cols) {\n" + body + "}\n", launch)


ROWSUM_THREAD = r"""  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float s = 0.0f;
  for (int c = 0; c < @N@; ++c)
    s += x[(size_t)r * cols + c];
  y[r] = @Y@;
"""
ROWSUM_WARP = r"""  int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (r >= rows)
    return;
  float s = 0.0f;
  for (int c = lane; c < cols; c += 32)
    s += x[(size_t)r * cols + c];
  for (int o = 16; o > 0; o /= 2)
    s += __shfl_down_sync(0xffffffffu, s, o);
  if (lane == 0)
    y[r] = @Y@;
"""
ROWSUM_BLOCK = r"""  __shared__ float part[256];
  int r = blockIdx.x;
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x)
    s += x[(size_t)r * cols + c];
  part[threadIdx.x] = s;
  __syncthreads();
  for (int w = blockDim.x / 2; w > 0; w /= 2) {
    if (threadIdx.x < w)
      part[threadIdx.x] += part[threadIdx.x + w];
    __syncthreads();
  }
  if (threadIdx.x == 0)
    y[r] = @Y@;
"""
ROWSUM_STRATEGIES = [
    ("thread per row", "Each thread sums one row."),
    ("warp per row", "Each warp sums one row, then shuffles."),
    ("block per row", "Each block sums one row through shared memory.")]
T, WP, B = "grid(ceil_div(R, 256)) block(256)", "grid(ceil_div(R, 8)) block(256)", "grid(R) block(256)"

# The reference forgets the last column; the three strategies agree.
WRONGREF = answers(ROWSUM_IF, ROWSUM_STRATEGIES,
                   rowsum(ROWSUM_THREAD, T, "s", "cols - 1"),
                   [rowsum(ROWSUM_THREAD, T, "s"),
                    rowsum(ROWSUM_WARP, WP, "s"),
                    rowsum(ROWSUM_BLOCK, B, "part[0]")])
# Every kernel computes something else: nobody agrees with anybody.
NOCONS = answers(ROWSUM_IF, ROWSUM_STRATEGIES,
                 rowsum(ROWSUM_THREAD, T, "s"),
                 [rowsum(ROWSUM_THREAD, T, "s", "cols - 1"),
                  rowsum(ROWSUM_WARP, WP, "2.0f * s"),
                  rowsum(ROWSUM_BLOCK, B, "part[0] + 1.0f")])

SETS = {"softmax": SOFTMAX, "stencil5": STENCIL, "matvec": MATVEC,
        "wrongref": WRONGREF, "nocons": NOCONS}

if __name__ == "__main__":
    here = os.path.dirname(os.path.abspath(__file__))
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.join(here, "answers")
    os.makedirs(out, exist_ok=True)
    for name, answer in SETS.items():
        with open(os.path.join(out, name + ".json"), "w") as f:
            json.dump(answer, f, indent=1)
            f.write("\n")
