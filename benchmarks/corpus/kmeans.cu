// k-means assignment step, Rodinia kmeans style: features stored
// transposed (feature-major, `features[l * npoints + point_id]`, so
// neighbouring threads read neighbouring addresses), a small cluster table
// read by every thread, an early `return` for threads past the end, a
// nested loop over clusters and features tracking the nearest, and an int
// membership output. No launch in this file.
#include <cfloat>
#include <cuda_runtime.h>

#pragma optiml kernel sizes(NP = 1 << 20, NF = 34, NC = 8) \
    in(features[NF * NP], clusters[NC * NF]) out(membership[NP]) \
    scalar(npoints = NP, nclusters = NC, nfeatures = NF) \
    grid((NP + 255) / 256) block(256) tolerance(rtol = 0, atol = 0) \
    instance(odd: NP = 10007, NC = 5)
__global__ void kmeans_assign(const float *features, const float *clusters,
                              int *membership, int npoints, int nclusters,
                              int nfeatures) {
  int point_id = blockDim.x * blockIdx.x + threadIdx.x;
  if (point_id >= npoints)
    return;

  int index = -1;
  float min_dist = FLT_MAX;
  for (int i = 0; i < nclusters; i++) {
    float dist = 0;
    for (int l = 0; l < nfeatures; l++) {
      float diff = features[l * npoints + point_id] - clusters[i * nfeatures + l];
      dist += diff * diff;
    }
    if (dist < min_dist) {
      min_dist = dist;
      index = i;
    }
  }
  membership[point_id] = index;
}
