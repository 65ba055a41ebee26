// The JSON form of --list-kernels is one document with every field a tool
// needs; it must parse as JSON.
// RUN: %clang-optiml %s --list-kernels --format=json > %t.json
// RUN: %python -m json.tool %t.json > /dev/null
// RUN: %FileCheck %s < %t.json

// CHECK:      "file": "{{.*}}list-kernels-json.cu",
// CHECK:      "kernels": [
// CHECK:          "address_taken": false,
// CHECK:          "launch_bounds": {
// CHECK-NEXT:       "max_threads": "128",
// CHECK-NEXT:       "min_blocks": null
// CHECK:          "launches": [
// CHECK:              "block": "128",
// CHECK-NEXT:         "callee": "axpy",
// CHECK-NEXT:         "caller": "run",
// CHECK-NEXT:         "grid": "(n + 127) / 128",
// CHECK:          "loops": [],
// CHECK:          "mark": {
// CHECK-NEXT:       "clauses": "kernel sizes(N = 1000)",
// CHECK-NEXT:       "location": {
// CHECK-NEXT:         "column": 1,
// CHECK-NEXT:         "file": "{{.*}}list-kernels-json.cu",
// CHECK-NEXT:         "line": [[@LINE+24]]
// CHECK:          "name": "axpy",
// CHECK-NEXT:     "params": [
// CHECK-NEXT:       {
// CHECK-NEXT:         "const": false,
// CHECK-NEXT:         "name": "n",
// CHECK-NEXT:         "pointer": false,
// CHECK-NEXT:         "restrict": false,
// CHECK-NEXT:         "type": "int"
// CHECK-NEXT:       },
// CHECK-NEXT:       {
// CHECK-NEXT:         "const": true,
// CHECK-NEXT:         "element_type": "float",
// CHECK-NEXT:         "name": "x",
// CHECK-NEXT:         "pointer": true,
// CHECK-NEXT:         "restrict": true,
// CHECK-NEXT:         "type": "const float *__restrict"
// CHECK:          "qualified_name": "axpy",
// CHECK:          "template_parameters": []
// An incomplete mark is listed, with a warning that says what it lacks.
// CHECK:      "warnings": [
// CHECK-NEXT:   "{{.*}}list-kernels-json.cu:[[@LINE+3]]:1: warning: missing required clause 'grid' for kernel 'axpy'
// CHECK-NEXT: {{^ *\]$}}

#pragma optiml kernel sizes(N = 1000)
__global__ void __launch_bounds__(128) axpy(int n, const float *__restrict__ x,
                                            float *y) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n)
    y[i] += 2.0f * x[i];
}

void run(int n, const float *x, float *y) { axpy<<<(n + 127) / 128, 128>>>(n, x, y); }
