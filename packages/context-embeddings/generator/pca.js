// PCA by the cyclic Jacobi eigenvalue method on the covariance matrix (small: dims × dims).

/** Eigenvalues and eigenvectors (columns of `vectors`, row-major dims × dims) of a symmetric matrix. */
export function symmetricEigen(matrix, dims) {
  const a = Float64Array.from(matrix);
  const v = new Float64Array(dims * dims);
  for (let i = 0; i < dims; i++) v[i * dims + i] = 1;
  for (let sweep = 0; sweep < 50; sweep++) {
    let off = 0;
    for (let p = 0; p < dims; p++) for (let q = p + 1; q < dims; q++) off += a[p * dims + q] ** 2;
    if (off < 1e-22) break;
    for (let p = 0; p < dims; p++) {
      for (let q = p + 1; q < dims; q++) {
        const apq = a[p * dims + q];
        if (Math.abs(apq) < 1e-30) continue;
        const theta = (a[q * dims + q] - a[p * dims + p]) / (2 * apq);
        const t = Math.sign(theta || 1) / (Math.abs(theta) + Math.sqrt(theta * theta + 1));
        const c = 1 / Math.sqrt(t * t + 1);
        const s = t * c;
        for (let k = 0; k < dims; k++) {
          const akp = a[k * dims + p];
          const akq = a[k * dims + q];
          a[k * dims + p] = c * akp - s * akq;
          a[k * dims + q] = s * akp + c * akq;
        }
        for (let k = 0; k < dims; k++) {
          const apk = a[p * dims + k];
          const aqk = a[q * dims + k];
          a[p * dims + k] = c * apk - s * aqk;
          a[q * dims + k] = s * apk + c * aqk;
        }
        for (let k = 0; k < dims; k++) {
          const vkp = v[k * dims + p];
          const vkq = v[k * dims + q];
          v[k * dims + p] = c * vkp - s * vkq;
          v[k * dims + q] = s * vkp + c * vkq;
        }
      }
    }
  }
  const values = Array.from({ length: dims }, (_, i) => a[i * dims + i]);
  return { values, vectors: v };
}

/** The mean and the top `keep` principal directions of `rows` vectors of `dims` values each. */
export function fitPca(data, rows, dims, keep) {
  const mean = new Float64Array(dims);
  for (let r = 0; r < rows; r++) for (let d = 0; d < dims; d++) mean[d] += data[r * dims + d] / rows;
  const cov = new Float64Array(dims * dims);
  const centered = new Float64Array(dims);
  for (let r = 0; r < rows; r++) {
    for (let d = 0; d < dims; d++) centered[d] = data[r * dims + d] - mean[d];
    for (let i = 0; i < dims; i++) {
      const ci = centered[i] / rows;
      for (let j = i; j < dims; j++) cov[i * dims + j] += ci * centered[j];
    }
  }
  for (let i = 0; i < dims; i++) for (let j = 0; j < i; j++) cov[i * dims + j] = cov[j * dims + i];
  const { values, vectors } = symmetricEigen(cov, dims);
  const order = values.map((value, index) => [value, index]).sort((x, y) => y[0] - x[0]);
  const total = values.reduce((sum, value) => sum + value, 0);
  const kept = order.slice(0, keep);
  const components = new Float64Array(keep * dims);
  kept.forEach(([, index], k) => {
    for (let d = 0; d < dims; d++) components[k * dims + d] = vectors[d * dims + index];
  });
  return { mean, components, explained: kept.reduce((sum, [value]) => sum + value, 0) / total };
}

/** (x - mean) projected on the components. */
export function project(pca, vector, dims, keep) {
  const out = new Float32Array(keep);
  for (let k = 0; k < keep; k++) {
    let sum = 0;
    for (let d = 0; d < dims; d++) sum += (vector[d] - pca.mean[d]) * pca.components[k * dims + d];
    out[k] = sum;
  }
  return out;
}
