BEGIN TRANSACTION;
CREATE TABLE candidates (
  id INTEGER PRIMARY KEY,
  kernel_id INTEGER NOT NULL REFERENCES kernels(id) ON DELETE CASCADE,
  trace TEXT NOT NULL,
  source_hash TEXT NOT NULL,
  parent_hash TEXT NOT NULL,
  last_transform TEXT NOT NULL,
  status TEXT NOT NULL,
  speedup REAL NOT NULL,
  noise REAL NOT NULL,
  threshold REAL NOT NULL,
  significant INTEGER NOT NULL,
  time_ns REAL NOT NULL,
  reference_time_ns REAL NOT NULL,
  roofline REAL,
  metrics TEXT NOT NULL,
  log TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (kernel_id, source_hash));
CREATE TABLE kernels (
  id INTEGER PRIMARY KEY,
  hash TEXT NOT NULL,
  name TEXT NOT NULL,
  spec TEXT NOT NULL,
  device TEXT NOT NULL,
  toolchain TEXT NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (hash, spec, device, toolchain));
CREATE TABLE llm_calls (
  id INTEGER PRIMARY KEY,
  cache_key TEXT NOT NULL,
  provider TEXT NOT NULL,
  endpoint TEXT NOT NULL,
  model TEXT NOT NULL,
  prompt_version TEXT NOT NULL,
  prompt_hash TEXT NOT NULL,
  temperature REAL NOT NULL,
  max_tokens INTEGER NOT NULL,
  sample INTEGER NOT NULL,
  answer TEXT NOT NULL,
  finish_reason TEXT NOT NULL,
  tokens_in INTEGER NOT NULL,
  tokens_out INTEGER NOT NULL,
  latency_s REAL NOT NULL,
  cost REAL NOT NULL,
  created_at INTEGER NOT NULL);
INSERT INTO "llm_calls" VALUES(1,'4ae4c585be09371ed511ca1b5e49abc60257d74a346171b65561c77521cceaf5','openai','http://127.0.0.1:18431/softmax/v1','recorded','fromprompt-interface/1','1927d29a76d88e9e6cbe3e355f2cc70a5e8331813df62f627e69c7fc153d6a4c',0.2,2048,0,'```cuda
#pragma optiml kernel sizes(R = 4096, C = 4096) in(x[R * C]) out(y[R * C]) \
    scalar(rows = R, cols = C) grid(ceil_div(R, 128)) block(128) \
    tolerance(rtol = 1e-4, atol = 1e-6) instance(odd: R = 97, C = 1000)
__global__ void softmax_rows(const float *x, float *y, int rows, int cols) {}
```
','stop',100,20,0.001654347,0.0,1795609439);
INSERT INTO "llm_calls" VALUES(2,'6b96b28a3b903a1e305e8b260d8a33ca83ab805b4a7c75c2ecdc2cf348e71e09','openai','http://127.0.0.1:18431/softmax/v1','recorded','fromprompt-strategies/1','e3df1223b23a4c548991deb4b6e972366226823a16b8f3ad61a36ce140a1bdf7',0.2,2048,0,'{"strategies": [{"name": "thread per row", "plan": "Each thread owns one row: an online pass for the maximum and the sum of exponentials, then a pass that writes."}, {"name": "warp per row", "plan": "Each warp owns one row, lanes striding by 32 for coalesced loads; maximum and sum reduced with xor shuffles; 8 rows per 256-thread block."}, {"name": "block per row", "plan": "Each 256-thread block owns one row; maximum and sum reduced through a shared-memory tree."}]}','stop',100,20,0.001739927,0.0,1795609440);
INSERT INTO "llm_calls" VALUES(3,'6e80c594d960ea7ce2017281ed303664b28e9bb46db503430059b3688a04d17c','openai','http://127.0.0.1:18431/softmax/v1','recorded','fromprompt-reference/1','0d4a0391e6d74b06988751214f5ec73d166aac37f7d1e4e9c298a2145dc63c55',0.2,2048,0,'```cuda
__global__ void softmax_rows(const float *x, float *y, int rows, int cols) {
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
```
```launch
grid(ceil_div(R, 128)) block(128)
```
','stop',100,20,0.000936909,0.0,1795609440);
INSERT INTO "llm_calls" VALUES(4,'b65914049ae085125deba2e676df908722fb36eb608dcaecbc5af8c580acaa70','openai','http://127.0.0.1:18431/softmax/v1','recorded','fromprompt-kernel/1','3fd522fa7fa84c5b66b4ccc43bac464b0b2dc327017d6bc28333eaa722899780',0.2,2048,0,'```cuda
__global__ void softmax_rows(const float *x, float *y, int rows, int cols) {
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
```
```launch
grid(ceil_div(R, 256)) block(256)
```
','stop',100,20,0.001636524,0.0,1795609443);
INSERT INTO "llm_calls" VALUES(5,'5a551498091f4f42c92cdea0bd7694ba9401eb0a6821601923c9e6f47e0317d6','openai','http://127.0.0.1:18431/softmax/v1','recorded','fromprompt-kernel/1','20ead0cf14940673d8cc83765541ce86f01ad81668e3484549fb6eb41bda7801',0.5,2048,1,'```cuda
__device__ float warp_max(float v) {
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
```
```launch
grid(ceil_div(R, 8)) block(256)
```
','stop',100,20,0.001276652,0.0,1795609446);
INSERT INTO "llm_calls" VALUES(6,'0caede5f8673b4603483aabf71be6a28b7cc81a9bf7873ec74a9c63c0774eddb','openai','http://127.0.0.1:18431/softmax/v1','recorded','fromprompt-kernel/1','a7d75817744eb32bb0f548c99d4287da2f958a019d94b5c2d26bc1aa640e54f4',0.8,2048,2,'```cuda
__global__ void softmax_rows(const float *x, float *y, int rows, int cols) {
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
```
```launch
grid(R) block(256)
```
','stop',100,20,0.00156968,0.0,1795609449);
CREATE TABLE results (
  id INTEGER PRIMARY KEY,
  kernel TEXT NOT NULL,
  kernel_hash TEXT NOT NULL,
  spec_hash TEXT NOT NULL,
  arch TEXT NOT NULL,
  gpu TEXT NOT NULL,
  cuda TEXT NOT NULL,
  tool TEXT NOT NULL,
  flags TEXT NOT NULL,
  steps TEXT NOT NULL,
  result TEXT NOT NULL,
  speedup REAL NOT NULL,
  created_at INTEGER NOT NULL,
  UNIQUE (kernel_hash, spec_hash, arch, gpu, cuda, tool, flags));
CREATE INDEX candidates_by_status
  ON candidates (kernel_id, status);
CREATE INDEX llm_calls_by_key ON llm_calls (cache_key);
COMMIT;
PRAGMA user_version = 3;
