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
INSERT INTO "llm_calls" VALUES(1,'4d5eed195e04c701f46cc6c0ac076fe7ab225fa312c6a888ebdeb670b91a77c9','openai','http://127.0.0.1:18431/wrongref/v1','recorded','fromprompt-interface/1','010c636eb811f751b1f96ed3113b840b7c4989273789e9cbb6dcc8f3159fb4a1',0.2,2048,0,'```cuda
#pragma optiml kernel sizes(R = 512, C = 1000) in(x[R * C]) out(y[R]) \
    scalar(rows = R, cols = C) grid(ceil_div(R, 128)) block(128) \
    tolerance(rtol = 1e-4, atol = 1e-5) instance(odd: R = 97, C = 33)
__global__ void row_sum(const float *x, float *y, int rows, int cols) {}
```
','stop',100,20,0.005355306,0.0,1795609484);
INSERT INTO "llm_calls" VALUES(2,'8250575f24a82610f1bf65ccc3a31e99e211c2a90ddc62e0d946def1b5411b27','openai','http://127.0.0.1:18431/wrongref/v1','recorded','fromprompt-strategies/1','fadf731d8c88afda32375be5046d04b2f7ad54e26156568b509955a9dc5cb61e',0.2,2048,0,'{"strategies": [{"name": "thread per row", "plan": "Each thread sums one row."}, {"name": "warp per row", "plan": "Each warp sums one row, then shuffles."}, {"name": "block per row", "plan": "Each block sums one row through shared memory."}]}','stop',100,20,0.001732262,0.0,1795609484);
INSERT INTO "llm_calls" VALUES(3,'a7b786cba7e4868bcbf17a367abc32b6b61a05abee1bb4aa298e8ea9a6565f12','openai','http://127.0.0.1:18431/wrongref/v1','recorded','fromprompt-reference/1','366f75c18f3f63268dda855c4e9f169afed58edc7636958ac5403f4d2513997b',0.2,2048,0,'```cuda
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
','stop',100,20,0.000876766,0.0,1795609485);
INSERT INTO "llm_calls" VALUES(4,'61ef16bdce980a56b2c64e1358a6b9201ddac4f4b4b933598e9a2f4879012fa5','openai','http://127.0.0.1:18431/wrongref/v1','recorded','fromprompt-kernel/1','d24714d8f6639ca38871ca303323676441098c573e58ce078142b6e665333f68',0.2,2048,0,'```cuda
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
','stop',100,20,0.002579694,0.0,1795609488);
INSERT INTO "llm_calls" VALUES(5,'121b0b59ff35086e18c85ba4f7bd40d379bf3331d3c1ef58b0b972e4e9e8253a','openai','http://127.0.0.1:18431/wrongref/v1','recorded','fromprompt-kernel/1','f7272f0daa6fe1834cda7d834ffb992893724d45bebb690d85f7ed77be14b984',0.5,2048,1,'```cuda
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
    y[r] = s;
}
```
```launch
grid(ceil_div(R, 8)) block(256)
```
','stop',100,20,0.00119537,0.0,1795609492);
INSERT INTO "llm_calls" VALUES(6,'de1dd1c1f0f9767b71407626e88f1645dec6cafd692f335368cf6b01a0746268','openai','http://127.0.0.1:18431/wrongref/v1','recorded','fromprompt-kernel/1','7fc94759fd76e2ea6f745fb2b9f7583acfb20cccb8e2a560875258758310eced',0.8,2048,2,'```cuda
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
    y[r] = part[0];
}
```
```launch
grid(R) block(256)
```
','stop',100,20,0.001326185,0.0,1795609495);
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
