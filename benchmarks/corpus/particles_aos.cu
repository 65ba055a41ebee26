// Array-of-structs kernels: the record types a simulation or a renderer
// defines for itself, passed straight to the kernel.
//
// particle_forces: n-body accelerations and potential over
// `struct Particle { float x, y, z, mass; }`, tiled: each block copies a
// tile of 128 particles (one per thread, zero-mass padding past n) into a
// __shared__ array of structs, every thread walks the tile, barrier, next
// tile. Softened with rsqrtf; the result is a float4 (ax, ay, az,
// potential). A particle meets itself (dx = 0 adds no force, only the
// softened self-potential), as the GPU Gems formulation does.
// integrate_particles: the kick-drift step after it, the Particle array and
// a float4 velocity array updated in place (mass and vel.w carried through).
// trace_spheres: primary rays `struct Ray { float ox, oy, oz, dx, dy, dz; }`
// against a small scene of spheres in a __constant__ table initialized in
// the file, nearest hit out as `struct Hit { float t; int id; }`
// (t = -1, id = -1 on a miss); directions normalized in the kernel. The
// discriminant is taken as r^2 - |oc - b*d|^2, the form renderers use for
// precision; even so hit or miss is a step, and a ray that grazes a sphere
// within rounding of its silhouette can change sides under a different
// rounding of the same arithmetic (a few rays in 33 million against a
// double-precision reference).
#include <cfloat>
#include <cuda_runtime.h>

struct Particle {
  float x, y, z, mass;
};

#define TILE 128
#define SOFTENING2 0.01f

#pragma optiml kernel sizes(N = 32768) in(p[N]) out(accel[N]) scalar(n = N) \
    grid((N + 127) / 128) block(128) \
    dist(p.x = uniform(-10, 10), p.y = uniform(-10, 10), \
         p.z = uniform(-10, 10), p.mass = uniform(0.5, 1.5)) \
    tolerance(rtol = 1e-3, atol = 1e-2, norm = 1e-4) instance(odd: N = 1001)
__global__ void particle_forces(const Particle *p, float4 *accel, int n) {
  __shared__ Particle tile[TILE];
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  Particle me = p[min(i, n - 1)];
  float ax = 0.0f, ay = 0.0f, az = 0.0f, pot = 0.0f;

  for (int base = 0; base < n; base += TILE) {
    int j = base + threadIdx.x;
    if (j < n) {
      tile[threadIdx.x] = p[j];
    } else {
      Particle none = {0.0f, 0.0f, 0.0f, 0.0f};
      tile[threadIdx.x] = none;
    }
    __syncthreads();
    for (int k = 0; k < TILE; k++) {
      float dx = tile[k].x - me.x;
      float dy = tile[k].y - me.y;
      float dz = tile[k].z - me.z;
      float r2 = dx * dx + dy * dy + dz * dz + SOFTENING2;
      float inv = rsqrtf(r2);
      float mInv3 = tile[k].mass * inv * inv * inv;
      ax += dx * mInv3;
      ay += dy * mInv3;
      az += dz * mInv3;
      pot -= tile[k].mass * inv;
    }
    __syncthreads();
  }
  if (i < n)
    accel[i] = make_float4(ax, ay, az, pot);
}

#pragma optiml kernel sizes(N = 1 << 24) in(accel[N]) inout(p[N], vel[N]) \
    scalar(n = N, dt = 0.01) grid((N + 255) / 256) block(256) \
    dist(p.mass = uniform(0.5, 1.5)) \
    tolerance(rtol = 1e-6, atol = 1e-6) instance(odd: N = 100003)
__global__ void integrate_particles(Particle *p, float4 *vel,
                                    const float4 *accel, float dt, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) {
    Particle q = p[i];
    float4 v = vel[i];
    float4 a = accel[i];
    v.x += dt * a.x;
    v.y += dt * a.y;
    v.z += dt * a.z;
    q.x += dt * v.x;
    q.y += dt * v.y;
    q.z += dt * v.z;
    p[i] = q;
    vel[i] = v;
  }
}

struct Ray {
  float ox, oy, oz, dx, dy, dz;
};

struct Hit {
  float t;
  int id;
};

struct Sphere {
  float cx, cy, cz, radius;
};

#define NUM_SPHERES 8
#define T_MIN 1e-3f

__constant__ Sphere c_spheres[NUM_SPHERES] = {
    {0.0f, 0.0f, 10.0f, 2.0f},    {-3.0f, 1.5f, 14.0f, 1.5f},
    {3.0f, -1.0f, 8.0f, 1.0f},    {1.5f, 2.5f, 6.0f, 0.75f},
    {-2.0f, -2.5f, 12.0f, 1.25f}, {2.5f, 3.0f, 16.0f, 2.0f},
    {-3.5f, -0.5f, 5.0f, 0.5f},   {0.5f, -3.5f, 18.0f, 1.75f},
};

#pragma optiml kernel sizes(N = 1 << 25) in(rays[N]) out(hits[N]) scalar(n = N) \
    grid((N + 255) / 256) block(256) \
    dist(rays.ox = uniform(-4, 4), rays.oy = uniform(-4, 4), \
         rays.oz = uniform(-1, 0), rays.dx = uniform(-0.25, 0.25), \
         rays.dy = uniform(-0.25, 0.25), rays.dz = uniform(0.5, 1.5)) \
    tolerance(rtol = 1e-4, atol = 1e-4, norm = 1e-5) instance(odd: N = 100003)
__global__ void trace_spheres(const Ray *rays, Hit *hits, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n)
    return;
  Ray r = rays[i];
  float inv = rsqrtf(r.dx * r.dx + r.dy * r.dy + r.dz * r.dz);
  float dx = r.dx * inv, dy = r.dy * inv, dz = r.dz * inv;

  float tBest = FLT_MAX;
  int idBest = -1;
  for (int s = 0; s < NUM_SPHERES; s++) {
    Sphere sp = c_spheres[s];
    float ocx = r.ox - sp.cx, ocy = r.oy - sp.cy, ocz = r.oz - sp.cz;
    float b = ocx * dx + ocy * dy + ocz * dz;
    // r^2 minus the squared distance from the centre to the ray, rather
    // than b^2 - (|oc|^2 - r^2), which cancels badly near the silhouette.
    float px = ocx - b * dx, py = ocy - b * dy, pz = ocz - b * dz;
    float disc = sp.radius * sp.radius - (px * px + py * py + pz * pz);
    if (disc > 0.0f) {
      float root = sqrtf(disc);
      float t = -b - root;
      if (t < T_MIN)
        t = -b + root;
      if (t > T_MIN && t < tBest) {
        tBest = t;
        idBest = s;
      }
    }
  }
  Hit h;
  h.t = idBest >= 0 ? tBest : -1.0f;
  h.id = idBest;
  hits[i] = h;
}

// Host side: one simulation step, then a frame of primary rays.
void simulate_step(Particle *d_p, float4 *d_vel, float4 *d_acc, int n,
                   float dt) {
  particle_forces<<<(n + TILE - 1) / TILE, TILE>>>(d_p, d_acc, n);
  integrate_particles<<<(n + 255) / 256, 256>>>(d_p, d_vel, d_acc, dt, n);
}

void render_primary(const Ray *d_rays, Hit *d_hits, int width, int height) {
  int n = width * height;
  trace_spheres<<<(n + 255) / 256, 256>>>(d_rays, d_hits, n);
}
