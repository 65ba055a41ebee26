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
INSERT INTO "llm_calls" VALUES(1,'88d334bb257ab166391d979e398b13672b993a777c8d22b8dda28d735e8795aa','openai','http://127.0.0.1:18431/nocons/v1','recorded','fromprompt-interface/1','2a8f5299ce5c7a914c397a0c8f7f662f9617d501c145cfaff21c4b4965b14867',0.2,2048,0,'```cuda
#pragma optiml kernel sizes(R = 512, C = 1000) in(x[R * C]) out(y[R]) \
    scalar(rows = R, cols = C) grid(ceil_div(R, 128)) block(128) \
    tolerance(rtol = 1e-4, atol = 1e-5) instance(odd: R = 97, C = 33)
__global__ void row_sum(const float *x, float *y, int rows, int cols) {}
```
','stop',100,20,0.003656865,0.0,1795609498);
INSERT INTO "llm_calls" VALUES(2,'7464ad08a1168074a1050826804b5be7d744be0c25e7aeb494004be59be085dc','openai','http://127.0.0.1:18431/nocons/v1','recorded','fromprompt-strategies/1','ed9a23c699e894bd9959dc690e19b23f8c6a1e5df2c6405fcab80faf27c198f1',0.2,2048,0,'{"strategies": [{"name": "thread per row", "plan": "Each thread sums one row."}, {"name": "warp per row", "plan": "Each warp sums one row, then shuffles."}, {"name": "block per row", "plan": "Each block sums one row through shared memory."}]}','stop',100,20,0.001606017,0.0,1795609499);
INSERT INTO "llm_calls" VALUES(3,'0cb7387cb84f84cd262b57f5874c5e27b187ce37a6ded78dfdec618a4e29c9f1','openai','http://127.0.0.1:18431/nocons/v1','recorded','fromprompt-reference/1','f825a2f3cc738cd37c89cd55474534c2a319585dd80e02c7b4866c1a20787414',0.2,2048,0,'```cuda
__global__ void row_sum(const float *x, float *y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float s = 0.0f;
  for (int c = 0; c < cols; ++c)
    s += x[(size_t)r * cols + c];
  y[r] = s;
}
```
```launch
grid(ceil_div(R, 256)) block(256)
```
','stop',100,20,0.001574989,0.0,1795609499);
INSERT INTO "llm_calls" VALUES(4,'7c2ac1fedb3db6f73655a0237ab3ee18bc8f6adad5f7b93f4e2eb2db917d50c6','openai','http://127.0.0.1:18431/nocons/v1','recorded','fromprompt-kernel/1','b0b3d8ec3eb1cb8398947935fbfda7bb9fe2d2008621fbacc66d5d240a4d9f47',0.2,2048,0,'```cuda
__global__ void row_sum(const float *x, float *y, int rows, int cols) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= rows)
    return;
  float s = 0.0f;
  for (int c = 0; c < cols - 1; ++c)
    s += x[(size_t)r * cols + c];
  y[r] = s;
}
```
```launch
grid(ceil_div(R, 256)) block(256)
```
','stop',100,20,0.006530066,0.0,1795609502);
INSERT INTO "llm_calls" VALUES(5,'fd2011fc80ce250a01340c2ef49cdf5cd54bfc368c65f85bf21c5a710c5808aa','openai','http://127.0.0.1:18431/nocons/v1','recorded','fromprompt-kernel/1','f5ba6a5e2a92820c41bc3131a679623bad7ec5219ed3971eec1fb0aaa9722d49',0.5,2048,1,'```cuda
__global__ void row_sum(const float *x, float *y, int rows, int cols) {
  int r = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
  int lane = threadIdx.x % 32;
  if (r >= rows)
    return;
  float s = 0.0f;
  for (int c = lane; c < cols; c += 32)
    s += x[(size_t)r * cols + c];
  for (int o = 16; o > 0; o /= 2)
    s += __shfl_down_sync(0xffffffffu, s, o);
  if (lane == 0)
    y[r] = 2.0f * s;
}
```
```launch
grid(ceil_div(R, 8)) block(256)
```
','stop',100,20,0.005946326,0.0,1795609506);
INSERT INTO "llm_calls" VALUES(6,'409343a3d73b52944b3fc8a16807b1fdd535ca3f5f17927d3480050790d48b24','openai','http://127.0.0.1:18431/nocons/v1','recorded','fromprompt-kernel/1','a84d798ad4fa5bb91631abbc66555f5495873cc63ce6db7b18494b11caca04a8',0.8,2048,2,'```cuda
__global__ void row_sum(const float *x, float *y, int rows, int cols) {
  __shared__ float part[256];
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
    y[r] = part[0] + 1.0f;
}
```
```launch
grid(R) block(256)
```
','stop',100,20,0.001460356,0.0,1795609510);
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
