// All-pairs n-body, GPU Gems 3 ch. 31 style but without the shared-memory
// tiles: body_forces gives each thread one body and loops over all others
// with a softened 1 / sqrtf(r^3) through a __device__ helper returning a
// float3, positions and masses in separate arrays (SoA). integrate is the
// elementwise leapfrog update that follows. Launched from main with ints.
#include <cstdio>
#include <cuda_runtime.h>

#define SOFTENING 1e-3f

__device__ float3 body_body(float3 ai, float xi, float yi, float zi, float xj,
                            float yj, float zj, float mj) {
  float3 r;
  r.x = xj - xi;
  r.y = yj - yi;
  r.z = zj - zi;
  float distSqr = r.x * r.x + r.y * r.y + r.z * r.z + SOFTENING;
  float invDist3 = 1.0f / sqrtf(distSqr * distSqr * distSqr);
  float s = mj * invDist3;
  ai.x += r.x * s;
  ai.y += r.y * s;
  ai.z += r.z * s;
  return ai;
}

#pragma optiml kernel sizes(N = 32768) in(px[N], py[N], pz[N], m[N]) \
    out(ax[N], ay[N], az[N]) scalar(n = N) grid((N + 255) / 256) block(256) \
    dist(m = uniform(0.5, 1.5)) tolerance(rtol = 1e-3, atol = 1e-1, norm = 1e-4) \
    instance(odd: N = 1001)
__global__ void body_forces(const float *px, const float *py, const float *pz,
                            const float *m, float *ax, float *ay, float *az,
                            int n) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < n) {
    float xi = px[i], yi = py[i], zi = pz[i];
    float3 acc = make_float3(0.0f, 0.0f, 0.0f);
    for (int j = 0; j < n; j++)
      acc = body_body(acc, xi, yi, zi, px[j], py[j], pz[j], m[j]);
    ax[i] = acc.x;
    ay[i] = acc.y;
    az[i] = acc.z;
  }
}

#pragma optiml kernel sizes(N = 1 << 24) in(ax[N], ay[N], az[N]) \
    inout(px[N], py[N], pz[N], vx[N], vy[N], vz[N]) \
    scalar(n = N, dt = 0.01) grid((N + 255) / 256) block(256) \
    tolerance(rtol = 1e-6, atol = 1e-6) instance(odd: N = 100003)
__global__ void integrate(float *px, float *py, float *pz, float *vx,
                          float *vy, float *vz, const float *ax,
                          const float *ay, const float *az, float dt, int n) {
  int i = blockDim.x * blockIdx.x + threadIdx.x;
  if (i < n) {
    vx[i] += dt * ax[i];
    vy[i] += dt * ay[i];
    vz[i] += dt * az[i];
    px[i] += dt * vx[i];
    py[i] += dt * vy[i];
    pz[i] += dt * vz[i];
  }
}

int main() {
  const int n = 32768;
  float *buf;
  cudaMalloc(&buf, sizeof(float) * n * 13);
  cudaMemset(buf, 0, sizeof(float) * n * 13);
  float *p = buf, *v = buf + 3 * n, *a = buf + 6 * n, *mass = buf + 9 * n;
  int threads = 256, blocks = (n + threads - 1) / threads;
  body_forces<<<blocks, threads>>>(p, p + n, p + 2 * n, mass, a, a + n,
                                   a + 2 * n, n);
  integrate<<<blocks, threads>>>(p, p + n, p + 2 * n, v, v + n, v + 2 * n, a,
                                 a + n, a + 2 * n, 0.01f, n);
  cudaError_t err = cudaDeviceSynchronize();
  std::printf("nbody: %s\n", cudaGetErrorString(err));
  cudaFree(buf);
  return err == cudaSuccess ? 0 : 1;
}
