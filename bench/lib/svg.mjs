/**
 * Line charts as standalone SVG: axes with ticks and units, one line per series with its points
 * marked, a legend, a title and a caption saying what the chart shows. Small on purpose: the
 * bench draws four charts, and a charting dependency would be larger than all of them.
 */
const W = 720;
const H = 420;
const PAD = { left: 78, right: 24, top: 62, bottom: 112 };
const COLORS = ['#1f6feb', '#d1242f', '#1a7f37', '#9a6700', '#8250df'];

const esc = (text) =>
  String(text).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

/** About five round steps from 0 (or min) to max. */
function ticks(min, max) {
  const span = max - min || 1;
  const raw = span / 5;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? raw;
  const out = [];
  // From at or below min to at or above max, so every point lies within the axis.
  let v = Math.floor(min / step) * step;
  for (;;) {
    out.push(Number(v.toFixed(10)));
    if (v >= max - step * 1e-9) return out;
    v += step;
  }
}

const label = (v) =>
  Math.abs(v) >= 1000 ? `${(v / 1000).toFixed(v % 1000 === 0 ? 0 : 1)}k` : String(Number(v.toPrecision(4)));

/** Wraps `text` to lines of at most `width` characters. */
function wrap(text, width) {
  const lines = [''];
  for (const word of text.split(' ')) {
    if ((lines.at(-1) + ' ' + word).trim().length > width) lines.push(word);
    else lines[lines.length - 1] = `${lines.at(-1)} ${word}`.trim();
  }
  return lines;
}

/**
 * `series`: [{ name, points: [[x, y], ...] }]. `xLog`: a log scale on x (for 1, 8, 32, 128).
 * `yFrom0`: start the y axis at zero (for quantities whose growth the chart is about).
 */
export function lineChart({ title, caption, xLabel, yLabel, series, xLog = false, yFrom0 = true }) {
  const xs = series.flatMap((s) => s.points.map(([x]) => x));
  const ys = series.flatMap((s) => s.points.map(([, y]) => y)).filter(Number.isFinite);
  const fx = xLog ? Math.log2 : (x) => x;
  const [x0, x1] = [Math.min(...xs.map(fx)), Math.max(...xs.map(fx))];
  const yTicks = ticks(yFrom0 ? 0 : Math.min(...ys), Math.max(...ys) * 1.05);
  const [y0, y1] = [yTicks[0], yTicks.at(-1)];
  const px = (x) => PAD.left + ((fx(x) - x0) / (x1 - x0 || 1)) * (W - PAD.left - PAD.right);
  const py = (y) => H - PAD.bottom - ((y - y0) / (y1 - y0 || 1)) * (H - PAD.top - PAD.bottom);
  const xTicks = xLog
    ? [...new Set(xs)].sort((a, b) => a - b)
    : ticks(Math.min(...xs), Math.max(...xs)).filter((x) => x >= Math.min(...xs) && x <= Math.max(...xs));

  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 ${W} ${H}" width="${W}" height="${H}" font-family="Helvetica, Arial, sans-serif" font-size="12" role="img" aria-label="${esc(title)}">`,
    `<rect width="${W}" height="${H}" fill="#ffffff"/>`,
    `<text x="${W / 2}" y="24" text-anchor="middle" font-size="15" font-weight="bold">${esc(title)}</text>`,
  ];
  for (const y of yTicks) {
    parts.push(`<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${py(y)}" y2="${py(y)}" stroke="#e5e7eb"/>`);
    parts.push(`<text x="${PAD.left - 8}" y="${py(y) + 4}" text-anchor="end" fill="#444">${label(y)}</text>`);
  }
  for (const x of xTicks) {
    parts.push(`<line x1="${px(x)}" x2="${px(x)}" y1="${H - PAD.bottom}" y2="${H - PAD.bottom + 5}" stroke="#444"/>`);
    parts.push(`<text x="${px(x)}" y="${H - PAD.bottom + 19}" text-anchor="middle" fill="#444">${label(x)}</text>`);
  }
  parts.push(
    `<line x1="${PAD.left}" x2="${W - PAD.right}" y1="${H - PAD.bottom}" y2="${H - PAD.bottom}" stroke="#444"/>`,
  );
  parts.push(`<line x1="${PAD.left}" x2="${PAD.left}" y1="${PAD.top}" y2="${H - PAD.bottom}" stroke="#444"/>`);
  parts.push(
    `<text x="${(PAD.left + W - PAD.right) / 2}" y="${H - PAD.bottom + 40}" text-anchor="middle">${esc(xLabel)}</text>`,
  );
  parts.push(
    `<text transform="translate(20 ${(PAD.top + H - PAD.bottom) / 2}) rotate(-90)" text-anchor="middle">${esc(yLabel)}</text>`,
  );
  series.forEach((s, i) => {
    const color = COLORS[i % COLORS.length];
    const points = s.points.filter(([, y]) => Number.isFinite(y));
    parts.push(
      `<polyline fill="none" stroke="${color}" stroke-width="2" points="${points.map(([x, y]) => `${px(x).toFixed(1)},${py(y).toFixed(1)}`).join(' ')}"/>`,
    );
    for (const [x, y] of points)
      parts.push(`<circle cx="${px(x).toFixed(1)}" cy="${py(y).toFixed(1)}" r="3" fill="${color}"/>`);
    const lx = PAD.left + 12 + i * 190;
    parts.push(`<rect x="${lx}" y="${PAD.top - 14}" width="14" height="4" fill="${color}"/>`);
    parts.push(`<text x="${lx + 20}" y="${PAD.top - 9}">${esc(s.name)}</text>`);
  });
  wrap(caption, 110).forEach((line, i) =>
    parts.push(`<text x="${PAD.left}" y="${H - PAD.bottom + 64 + i * 15}" fill="#333">${esc(line)}</text>`),
  );
  parts.push('</svg>');
  return `${parts.join('\n')}\n`;
}
