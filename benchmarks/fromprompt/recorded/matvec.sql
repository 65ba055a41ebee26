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
INSERT INTO "llm_calls" VALUES(1,'9adb86327feff0d16ab9ac4e4de947f692145a03daa547c3a06a039df95fdf4f','openai','http://127.0.0.1:18431/matvec/v1','recorded','fromprompt-interface/1','8d55604540caefc4c00f8815a2b0787326c20a66cb3431e418edc9460b577dd0',0.2,2048,0,'```cuda
#pragma optiml kernel sizes(M = 8192, N = 8192) in(A[M * N], x[N]) out(y[M]) \
    scalar(m = M, n = N) grid(ceil_div(M, 128)) block(128) \
    tolerance(rtol = 1e-4, atol = 1e-3, norm = 1e-4) instance(odd: M = 1001, N = 333)
__global__ void matvec(const float *A, const float *x, float *y, int m, int n) {}
```
','stop',100,20,0.001799264,0.0,1795609467);
INSERT INTO "llm_calls" VALUES(2,'14c806a62f2408ec5637c6a17d922fd0f970c25fc32830a175dc27ad3464f5b8','openai','http://127.0.0.1:18431/matvec/v1','recorded','fromprompt-strategies/1','a53a1e984556610ce7add4677a002ea134cdccbaba375cc83755543e6b0c8f9a',0.2,2048,0,'{"strategies": [{"name": "thread per row, four accumulators", "plan": "Each thread computes one output with four independent partial sums for instruction-level parallelism."}, {"name": "warp per row", "plan": "Each warp computes one output: lanes read consecutive elements of the row (coalesced) and reduce with shuffles."}, {"name": "block per row", "plan": "Each 256-thread block computes one output and reduces its partial sums through shared memory."}]}','stop',100,20,0.001655309,0.0,1795609468);
INSERT INTO "llm_calls" VALUES(3,'cc0ab4ec39206d20a636ceee30c99d893f12a9a27131f119719999edfa87ef7a','openai','http://127.0.0.1:18431/matvec/v1','recorded','fromprompt-reference/1','955827678bae0a0ee98a99de0dbdc4fe2f1f6da6423ebb373b8cb2c3472ae68e',0.2,2048,0,'```cuda
__global__ void matvec(const float *A, const float *x, float *y, int m, int n) {
  int r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r >= m)
    return;
  float s = 0.0f;
  for (int c = 0; c < n; ++c)
    s += A[(size_t)r * n + c] * x[c];
  y[r] = s;
}
```
```launch
grid(ceil_div(M, 128)) block(128)
```
','stop',100,20,0.001861047,0.0,1795609468);
INSERT INTO "llm_calls" VALUES(4,'ce5eeb717b9b9806464c5020d56e6999c66936e26780a55c95b96531c9e0472d','openai','http://127.0.0.1:18431/matvec/v1','recorded','fromprompt-kernel/1','d6e41a52a20b82c29c8dcf0b364d60dc919aecbec51cd02ae0523da1e48cc2fc',0.2,2048,0,'```cuda
__global__ void matvec(const float *A, const float *x, float *y, int m, int n) {
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
```
```launch
grid(ceil_div(M, 64)) block(64)
```
','stop',100,20,0.001879217,0.0,1795609472);
INSERT INTO "llm_calls" VALUES(5,'4770334e1e72ac8053f42f7a761293a52523c79d43399a9b795ca39f48b8e952','openai','http://127.0.0.1:18431/matvec/v1','recorded','fromprompt-kernel/1','1fdb5cf4c5ce2ddeab83031230fd64050c5891c81927098afe1d8a6454a69eee',0.5,2048,1,'```cuda
__global__ void matvec(const float *A, const float *x, float *y, int m, int n) {
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
```
```launch
grid(ceil_div(M, 8)) block(256)
```
','stop',100,20,0.001291711,0.0,1795609476);
INSERT INTO "llm_calls" VALUES(6,'5caa22ef04127de451b93380a8f23b3af4a111b4d1995e5767dc322f5fef3c5c','openai','http://127.0.0.1:18431/matvec/v1','recorded','fromprompt-kernel/1','e13e2d41f63d861e2d60e580aa408e7cdacdef87fde8310117cdba58161abc13',0.8,2048,2,'```cuda
__global__ void matvec(const float *A, const float *x, float *y, int m, int n) {
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
```
```launch
grid(M) block(256)
```
','stop',100,20,0.003393894,0.0,1795609480);
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
