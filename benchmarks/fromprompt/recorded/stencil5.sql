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
INSERT INTO "llm_calls" VALUES(1,'a26a7b7c5e2d327246a6289a89764365cb338739bbb30bb2b5cad36c8055780a','openai','http://127.0.0.1:18431/stencil5/v1','recorded','fromprompt-interface/1','f9243709aa21a03f19b6c6eade06de4ab35a436d57de6ac800abbcf9c32737a7',0.2,2048,0,'```cuda
#pragma optiml kernel sizes(H = 4096, W = 4096) in(a[H * W]) out(b[H * W]) \
    scalar(h = H, w = W) grid(ceil_div(W, 16), ceil_div(H, 16)) block(16, 16) \
    tolerance(rtol = 1e-5, atol = 1e-6) instance(odd: H = 101, W = 77)
__global__ void stencil5(const float *a, float *b, int h, int w) {}
```
','stop',100,20,0.001557899,0.0,1795609453);
INSERT INTO "llm_calls" VALUES(2,'b270524454ef49c1733acd224e287f42147755f9cfdddf32cac67ce14cb2100c','openai','http://127.0.0.1:18431/stencil5/v1','recorded','fromprompt-strategies/1','acee78c7b46816b248f345f7754a1c92ea163d3d7d3ad93b34ff7a2a103cdf28',0.2,2048,0,'{"strategies": [{"name": "thread per point, wide blocks", "plan": "One thread per output point in 64x4 blocks so that each warp reads two full 128-byte rows."}, {"name": "shared-memory tile", "plan": "32x8 blocks stage their tile and a one-point halo in shared memory, then every thread reads its five neighbours from there."}, {"name": "register column", "plan": "Each thread walks four rows of one column, keeping the points above, at and below in registers, so each input is loaded once per column."}]}','stop',100,20,0.001471248,0.0,1795609454);
INSERT INTO "llm_calls" VALUES(3,'b37e7950ff8d15acaf47d4070bc9164a7a5ad048a8de5dc62c9269c722803238','openai','http://127.0.0.1:18431/stencil5/v1','recorded','fromprompt-reference/1','fd05667eff9bd21548a12acf1c6b240a641a093b888a84808b1604af2b73d1d5',0.2,2048,0,'```cuda
__global__ void stencil5(const float *a, float *b, int h, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  size_t i = (size_t)y * w + x;
  if (y == 0 || x == 0 || y == h - 1 || x == w - 1)
    b[i] = a[i];
  else
    b[i] = 0.2f * (a[i] + a[i - w] + a[i + w] + a[i - 1] + a[i + 1]);
}
```
```launch
grid(ceil_div(W, 16), ceil_div(H, 16)) block(16, 16)
```
','stop',100,20,0.000985269,0.0,1795609454);
INSERT INTO "llm_calls" VALUES(4,'b96202fad6a0b91458ca45ae459b74c862f16539c41d1f27bec21519a27bcacf','openai','http://127.0.0.1:18431/stencil5/v1','recorded','fromprompt-kernel/1','cd1d8fd80c52fb141f23bc48583342f0874794cae3dc486518dbf68ba3a9182d',0.2,2048,0,'```cuda
__global__ void stencil5(const float *a, float *b, int h, int w) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x >= w || y >= h)
    return;
  size_t i = (size_t)y * w + x;
  if (y == 0 || x == 0 || y == h - 1 || x == w - 1)
    b[i] = a[i];
  else
    b[i] = 0.2f * (a[i] + a[i - w] + a[i + w] + a[i - 1] + a[i + 1]);
}
```
```launch
grid(ceil_div(W, 64), ceil_div(H, 4)) block(64, 4)
```
','stop',100,20,0.001626594,0.0,1795609457);
INSERT INTO "llm_calls" VALUES(5,'0bafe54ad6bba3a8afa22d343a6024653c537702ff922597ac8269299c38fbb3','openai','http://127.0.0.1:18431/stencil5/v1','recorded','fromprompt-kernel/1','f8d4eb5d44228d1150d0b5b7556f069f624898c95d34f63c6967584497f6c068',0.5,2048,1,'```cuda
__global__ void stencil5(const float *a, float *b, int h, int w) {
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
```
```launch
grid(ceil_div(W, 32), ceil_div(H, 8)) block(32, 8)
```
','stop',100,20,0.001305406,0.0,1795609460);
INSERT INTO "llm_calls" VALUES(6,'8cc55e87d263e8f59f77d9aee76d95ff39edb98fc5ba41b70e95cf4638666ae0','openai','http://127.0.0.1:18431/stencil5/v1','recorded','fromprompt-kernel/1','1ca95559c8d1d87db83595fc8076c1ce29d04b634280b40322075d53bbc78b9e',0.8,2048,2,'```cuda
__global__ void stencil5(const float *a, float *b, int h, int w) {
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
```
```launch
grid(ceil_div(W, 128), ceil_div(H, 4)) block(128)
```
','stop',100,20,0.001276272,0.0,1795609463);
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
