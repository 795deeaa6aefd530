/** Small statistics over samples: median and p90 (nearest rank), and formatting helpers. */

export function quantile(samples, q) {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.ceil(q * sorted.length) - 1;
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank))];
}

export function summary(samples) {
  return { median: quantile(samples, 0.5), p90: quantile(samples, 0.9), n: samples.length };
}

export const ms = (value) => (Number.isFinite(value) ? (value >= 10 ? value.toFixed(1) : value.toFixed(2)) : 'n/a');
export const mb = (bytes) => (Number.isFinite(bytes) ? (bytes / (1024 * 1024)).toFixed(1) : 'n/a');
export const ratio = (value) => (Number.isFinite(value) ? `${value.toFixed(2)}x` : 'n/a');
