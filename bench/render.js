#!/usr/bin/env node
'use strict';
// Draws a results JSON of bench/run.js as one self-contained SVG next to it
// (bench/results/<name>.svg): req/s against requests in flight, the bursts,
// CPU per request and peak RSS per client, the text bodies, and the machine
// and run it was measured on. Plain string building, no npm dependencies, so
// that it runs wherever the JSON is, before or without `npm ci`.
//
//   node bench/render.js [results.json ...]   (default: bench/results/*.json)
//
// The JSON keeps every run (`runs`), not the tables as numbers, so the
// charts are rebuilt from the runs by their `scenario` names; a part a file
// does not have is left out of its SVG.
const fs = require('fs');
const path = require('path');

const WIDTH = 1200;
const MARGIN = 28;
const FONT = "'DejaVu Sans', Verdana, Arial, sans-serif";
const INK = '#1f2328';
const GREY = '#57606a';
const FAINT = '#8c959f';
const GRID = '#e4e7eb';

// Ours strong, peers muted: the eye should find our line and bars first and
// still tell the peers apart (each also has its own marker shape and its name
// on every bar).
const OURS_COLOURS = ['#e8590c', '#c2255c', '#f59f00'];
const PEER_COLOURS = {
  'node-fetch': '#8e8e8e', undici: '#5f86b0', 'wreq-js': '#74a27a', impit: '#9583b8',
  cycletls: '#b39a62', 'node-https': '#5fa3a6', 'baseline-koffi': '#b58585',
};
const SPARE_COLOURS = ['#7d8fa3', '#a3917d', '#8fa37d', '#a37d95'];
const MARKERS = ['circle', 'square', 'triangle', 'diamond', 'down', 'cross', 'circle', 'square'];

const isOurs = (c) => c.startsWith('ours');

// --- text ------------------------------------------------------------------

const esc = (s) => String(s).replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
// No font metrics without a browser: DejaVu Sans (what Linux falls back to)
// averages about 0.6 em per character, a little more for digits, so widths
// are estimated on the wide side and space is reserved from the estimate.
const textWidth = (s, size) => String(s).length * size * 0.62;

function text(x, y, s, { size = 12, anchor = 'start', weight, fill = INK, style } = {}) {
  const attrs = [`x="${r1(x)}"`, `y="${r1(y)}"`, `font-size="${size}"`];
  if (anchor !== 'start') attrs.push(`text-anchor="${anchor}"`);
  if (weight) attrs.push(`font-weight="${weight}"`);
  if (fill !== INK) attrs.push(`fill="${fill}"`);
  if (style) attrs.push(`font-style="${style}"`);
  return `<text ${attrs.join(' ')}>${esc(s)}</text>`;
}

function wrap(s, size, width) {
  const lines = [];
  let line = '';
  for (const word of String(s).split(/\s+/)) {
    const next = line ? `${line} ${word}` : word;
    if (line && textWidth(next, size) > width) { lines.push(line); line = word; } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

const r1 = (v) => Math.round(v * 10) / 10;
const int = (v) => Math.round(v).toLocaleString('en-US');
const fixed1 = (v) => v.toLocaleString('en-US', { minimumFractionDigits: 1, maximumFractionDigits: 1 });
// CPU in µs: the decimal only where it says something
const micro = (v) => (v >= 1000 ? int(v) : fixed1(v));

// --- what a run says -------------------------------------------------------

// a client that could not speak h2 to the h2-only server (as bench/run.js
// tells it): no request answered, handshakes turned away for want of ALPN h2
const noH2 = (r) => !!(r && !r.error && r.server && !r.ok && (r.server.unknownProtocol
  || (r.server.tlsErrors && /application protocol/i.test(r.server.firstTlsError || ''))));

// ok: drawn; bound: drawn, but the run hit its time bound (its numbers are
// for what it finished); failed: not drawn, its numbers would mislead (a
// body run whose requests failed reports MB/s of bodies it never read)
function state(r) {
  if (!r) return { kind: 'missing' };
  if (r.error) return { kind: 'failed', short: 'failed', note: `the run failed: ${String(r.error).split('\n')[0]}` };
  if (noH2(r)) return { kind: 'failed', short: 'no h2', note: 'speaks no HTTP/2 (the server turned its handshakes away)' };
  if (r.errors) return { kind: 'failed', short: `${int(r.errors)}/${int(r.done)} failed`, note: `${int(r.errors)} of ${int(r.done)} requests failed (first: ${r.firstError || '?'}); not drawn` };
  if (!r.finished) return { kind: 'bound', note: `hit the time bound: ${int(r.done)} of ${int(r.requested)} requests done; its numbers are for those` };
  return { kind: 'ok' };
}

const mbps = (r) => (r.bodyBytes && r.wallMs ? (r.done * r.bodyBytes) / (r.wallMs / 1000) / 1e6 : null);

// every chart's metric: how to read it from a run, its unit, which way is good
const METRICS = {
  rps: { title: 'requests per second', unit: 'req/s', better: 'higher', get: (r) => r.rps, fmt: int },
  wall: { title: 'time until the last answer', unit: 'ms', better: 'lower', get: (r) => r.wallMs, fmt: int },
  cpu: { title: 'CPU per request', unit: 'µs', better: 'lower', get: (r) => r.cpuPerReqUs, fmt: micro },
  rss: { title: 'peak RSS', unit: 'MB', better: 'lower', get: (r) => (r.peakRssKB ? r.peakRssKB / 1024 : null), fmt: int },
  mbps: { title: 'body throughput', unit: 'MB/s', better: 'higher', get: mbps, fmt: fixed1 },
  // CPU per request grows with the body; per MB of body the three sizes
  // share one axis
  cpuPerMB: { title: 'CPU per MB of body', unit: 'ms/MB', better: 'lower', get: (r) => (r.bodyBytes ? r.cpuPerReqUs / 1000 / (r.bodyBytes / 1e6) : null), fmt: fixed1 },
};

// --- axes ------------------------------------------------------------------

function niceStep(span, count) {
  const raw = span / Math.max(1, count);
  const mag = 10 ** Math.floor(Math.log10(raw));
  for (const m of [1, 2, 2.5, 5, 10]) if (m * mag >= raw) return m * mag;
  return 10 * mag;
}

// the axis ends just past the largest bar, not at the next round tick, so
// that the bars use the width they have
function linearTicks(max, count) {
  const top = max * 1.04;
  const step = niceStep(top, count);
  const ticks = [];
  for (let v = 0; v <= top + 1e-9; v += step) ticks.push(+v.toPrecision(12));
  return { ticks, top };
}

const tickLabel = (v) => (v >= 1000 || Number.isInteger(v) ? int(v) : String(+v.toPrecision(3)));

// --- bar charts ------------------------------------------------------------

const BAR = 13; // bar thickness
const ROW = 18; // one bar's row
const GROUP_HEAD = 17; // a group's label row

// spec: {metric, title?, groups: [{label, bars: [{client, run, value?}]}]}
// Horizontal bars: client names and values stay horizontal and short, however
// many clients there are.
function barChart(x, y, w, spec, ctx) {
  const m = METRICS[spec.metric];
  const out = [];
  const title = spec.title || `${m.title} (${m.unit})`;
  out.push(text(x, y + 13, title, { size: 13, weight: 'bold' }));
  out.push(text(x, y + 29, `${m.better} is better`, { size: 11, fill: GREY }));
  let top = y + 40;

  // the groups' bars with this chart's values (the same groups serve the
  // panel's other charts)
  const groups = spec.groups.map((g) => ({
    label: g.label,
    bars: g.bars.map((b) => {
      const st = b.state || state(b.run);
      const value = b.value !== undefined ? b.value : (st.kind === 'failed' || !b.run ? null : m.get(b.run));
      if (st.kind !== 'ok' && st.kind !== 'missing' && st.note) ctx.note(b.client, st, g.label && g.label.split(',')[0]);
      return { client: b.client, st, value };
    }),
  }));
  const bars = groups.flatMap((g) => g.bars);
  const drawn = bars.filter((b) => b.value !== null && b.value !== undefined && Number.isFinite(b.value));
  const label = (b) => (b.value === null || b.value === undefined ? b.st.short || 'n/a' : `${m.fmt(b.value)}${b.st.kind === 'bound' ? ' *' : ''}`);

  // one bar far beyond the rest (a run cut at its time bound, cycletls at a
  // connection per request) would squash the others to slivers: the axis
  // stops above the second largest and that bar is drawn broken
  const sorted = drawn.map((b) => b.value).sort((a, b) => b - a);
  let max = sorted[0] || 1;
  if (sorted.length > 2 && sorted[1] > 0 && sorted[0] > 3 * sorted[1]) max = sorted[1] * 1.2;

  const nameW = Math.max(72, ...bars.map((b) => textWidth(b.client, 11) + 10));
  // room right of the bars for their values (a run not drawn says so inside
  // the plot instead)
  const valueW = Math.max(48, ...drawn.map((b) => textWidth(label(b), 11) + 14));
  const x0 = x + nameW;
  const plotW = w - nameW - valueW;
  const { ticks, top: axisTop } = linearTicks(max, Math.min(7, Math.max(2, Math.floor(plotW / 45))));
  const sx = (v) => x0 + (Math.min(v, axisTop) / axisTop) * plotW;

  let cy = top;
  const rows = [];
  for (const g of groups) {
    if (g.label) {
      // a white halo: the label crosses the gridlines
      rows.push(text(x, cy + 12, g.label, { size: 11, weight: 'bold', fill: GREY }).replace('<text ', '<text stroke="#fff" stroke-width="4" paint-order="stroke" '));
      cy += GROUP_HEAD;
    }
    for (const b of g.bars) {
      const by = cy + (ROW - BAR) / 2;
      rows.push(text(x0 - 6, by + BAR - 2.5, b.client, { size: 11, anchor: 'end', weight: isOurs(b.client) ? 'bold' : undefined }));
      if (b.value === null || b.value === undefined || !Number.isFinite(b.value)) {
        rows.push(text(x0 + 4, by + BAR - 2.5, label(b), { size: 11, fill: FAINT, style: 'italic' }));
      } else {
        const clipped = b.value > axisTop;
        const end = clipped ? x0 + plotW + 8 : sx(b.value);
        const colour = ctx.colour(b.client);
        const op = b.st.kind === 'bound' ? ' fill-opacity="0.55"' : '';
        const tip = `${b.client}${g.label ? `, ${g.label}` : ''}: ${m.fmt(b.value)} ${m.unit}${b.st.note ? ` (${b.st.note})` : ''}`;
        rows.push(`<rect x="${r1(x0)}" y="${r1(by)}" width="${r1(Math.max(1, end - x0))}" height="${BAR}" fill="${colour}"${op}><title>${esc(tip)}</title></rect>`);
        if (clipped) { // a white break across the bar: it goes on beyond the axis
          const bx = x0 + plotW - 10;
          rows.push(`<path d="M${r1(bx)},${r1(by - 2)} l6,${BAR + 4} M${r1(bx + 5)},${r1(by - 2)} l6,${BAR + 4}" stroke="#fff" stroke-width="2.5"/>`);
        }
        rows.push(text(end + 5, by + BAR - 2.5, label(b), { size: 11, weight: isOurs(b.client) ? 'bold' : undefined }));
      }
      cy += ROW;
    }
    cy += 4;
  }
  const bottom = cy;
  // gridlines under the bars, the axis and its unit below them
  for (const t of ticks) {
    const tx = sx(t);
    out.push(`<line x1="${r1(tx)}" y1="${r1(top)}" x2="${r1(tx)}" y2="${r1(bottom)}" stroke="${t === 0 ? FAINT : GRID}"/>`);
    out.push(text(tx, bottom + 13, tickLabel(t), { size: 10, anchor: 'middle', fill: GREY }));
  }
  out.push(...rows);
  out.push(text(x0 + plotW / 2, bottom + 28, m.unit + (max < sorted[0] ? ' (axis cut: broken bar goes beyond)' : ''), { size: 11, anchor: 'middle', fill: GREY }));
  return { svg: out.join('\n'), height: bottom + 34 - y };
}

// a titled block of up to three bar charts side by side, with its notes
function panel(y, { title, subtitle, charts, info = [], notes = [] }, ctx) {
  const out = [];
  let cy = y;
  out.push(text(MARGIN, cy + 18, title, { size: 17, weight: 'bold' }));
  cy += 26;
  for (const line of subtitle ? wrap(subtitle, 12, WIDTH - 2 * MARGIN) : []) {
    out.push(text(MARGIN, cy + 13, line, { size: 12, fill: GREY }));
    cy += 17;
  }
  cy += 8;
  // one note per client and what happened, naming the groups it happened in
  const panelNotes = new Map();
  const pctx = Object.assign({}, ctx, {
    note: (client, st, group) => {
      const k = `${client}|${st.note}`;
      if (!panelNotes.has(k)) panelNotes.set(k, { client, st, groups: [] });
      const n = panelNotes.get(k);
      if (group && !n.groups.includes(group)) n.groups.push(group);
    },
  });
  const gap = 36;
  const n = charts.length;
  const w = (WIDTH - 2 * MARGIN - gap * (n - 1)) / n;
  let h = 0;
  charts.forEach((c, i) => {
    const r = barChart(MARGIN + i * (w + gap), cy, w, c, pctx);
    out.push(r.svg);
    h = Math.max(h, r.height);
  });
  cy += h + 4;
  const noteLines = [...panelNotes.values()].map(({ client, st, groups }) => `${st.kind === 'bound' ? '* ' : ''}${client}${groups.length ? ` (${groups.join(', ')})` : ''}: ${st.note}`);
  for (const line of [...info, ...notes, ...noteLines]) {
    for (const l of wrap(line, 11, WIDTH - 2 * MARGIN)) {
      out.push(text(MARGIN, cy + 12, l, { size: 11, fill: GREY }));
      cy += 15;
    }
  }
  out.push(`<line x1="${MARGIN}" y1="${r1(cy + 14)}" x2="${WIDTH - MARGIN}" y2="${r1(cy + 14)}" stroke="${GRID}"/>`);
  return { svg: out.join('\n'), height: cy + 28 - y };
}

// --- the line chart: req/s against requests in flight ----------------------

function marker(shape, x, y, r, colour, hollow) {
  const fill = hollow ? '#fff' : colour;
  const a = `fill="${fill}" stroke="${colour}" stroke-width="${hollow ? 2 : 1}"`;
  switch (shape) {
    case 'square': return `<rect x="${r1(x - r * 0.85)}" y="${r1(y - r * 0.85)}" width="${r1(r * 1.7)}" height="${r1(r * 1.7)}" ${a}/>`;
    case 'triangle': return `<path d="M${r1(x)},${r1(y - r * 1.1)} L${r1(x + r)},${r1(y + r * 0.75)} L${r1(x - r)},${r1(y + r * 0.75)} Z" ${a}/>`;
    case 'down': return `<path d="M${r1(x)},${r1(y + r * 1.1)} L${r1(x + r)},${r1(y - r * 0.75)} L${r1(x - r)},${r1(y - r * 0.75)} Z" ${a}/>`;
    case 'diamond': return `<path d="M${r1(x)},${r1(y - r * 1.2)} L${r1(x + r)},${r1(y)} L${r1(x)},${r1(y + r * 1.2)} L${r1(x - r)},${r1(y)} Z" ${a}/>`;
    case 'cross': return `<path d="M${r1(x - r)},${r1(y - r)} L${r1(x + r)},${r1(y + r)} M${r1(x - r)},${r1(y + r)} L${r1(x + r)},${r1(y - r)}" stroke="${colour}" stroke-width="2.5"/>`;
    default: return `<circle cx="${r1(x)}" cy="${r1(y)}" r="${r1(r)}" ${a}/>`;
  }
}

// levels: [N...]; series: [{client, points: [{level, run}]}]
// Both axes log: the ideal (N x 1000/delay req/s) is then a straight line,
// and 20 req/s at 1 in flight stays as readable as 12,000 at 1,024.
function lineChart(y, { title, subtitle, levels, series, delayMs }, ctx) {
  const out = [];
  let cy = y;
  out.push(text(MARGIN, cy + 18, title, { size: 17, weight: 'bold' }));
  cy += 26;
  for (const line of wrap(subtitle, 12, WIDTH - 2 * MARGIN)) {
    out.push(text(MARGIN, cy + 13, line, { size: 12, fill: GREY }));
    cy += 17;
  }
  cy += 10;
  const notes = new Map();

  const plotX = MARGIN + 70;
  const labelsW = 190; // end labels: client name and its last value
  const plotW = WIDTH - MARGIN - labelsW - plotX;
  const plotY = cy + 8;
  const plotH = 400;
  const ideal = (n) => (delayMs ? (n * 1000) / delayMs : null);

  const values = [];
  for (const s of series) for (const p of s.points) if (state(p.run).kind !== 'failed') values.push(p.run.rps);
  if (delayMs) for (const n of levels) values.push(ideal(n));
  const lo = Math.min(...values.filter((v) => v > 0)) / 1.6;
  const hi = Math.max(...values) * 1.5;
  const lx0 = Math.log2(Math.min(...levels)) - 0.4;
  const lx1 = Math.log2(Math.max(...levels)) + 0.4;
  const sx = (n) => plotX + ((Math.log2(n) - lx0) / (lx1 - lx0)) * plotW;
  const sy = (v) => plotY + plotH - ((Math.log10(v) - Math.log10(lo)) / (Math.log10(hi) - Math.log10(lo))) * plotH;

  // y gridlines at 1, 2, 5 x 10^k; x gridlines at the levels measured
  for (let k = Math.floor(Math.log10(lo)); k <= Math.ceil(Math.log10(hi)); k++) {
    for (const m of [1, 2, 5]) {
      const v = m * 10 ** k;
      if (v < lo || v > hi) continue;
      const ty = sy(v);
      out.push(`<line x1="${plotX}" y1="${r1(ty)}" x2="${r1(plotX + plotW)}" y2="${r1(ty)}" stroke="${m === 1 ? '#d0d7de' : GRID}"/>`);
      out.push(text(plotX - 8, ty + 4, tickLabel(v), { size: 11, anchor: 'end', fill: GREY }));
    }
  }
  for (const n of levels) {
    const tx = sx(n);
    out.push(`<line x1="${r1(tx)}" y1="${plotY}" x2="${r1(tx)}" y2="${plotY + plotH}" stroke="${GRID}"/>`);
    out.push(text(tx, plotY + plotH + 16, int(n), { size: 11, anchor: 'middle', fill: GREY }));
  }
  out.push(`<rect x="${plotX}" y="${plotY}" width="${r1(plotW)}" height="${plotH}" fill="none" stroke="#d0d7de"/>`);
  out.push(text(plotX + plotW / 2, plotY + plotH + 36, 'requests in flight (log scale)', { size: 12, anchor: 'middle', fill: GREY }));
  const yMid = plotY + plotH / 2;
  out.push(`<text x="${MARGIN + 10}" y="${r1(yMid)}" font-size="12" fill="${GREY}" text-anchor="middle" transform="rotate(-90 ${MARGIN + 10} ${r1(yMid)})">requests per second (req/s, log scale)</text>`);

  if (delayMs) {
    const a = levels[0]; const b = levels[levels.length - 1];
    out.push(`<line x1="${r1(sx(a))}" y1="${r1(sy(ideal(a)))}" x2="${r1(sx(b))}" y2="${r1(sy(ideal(b)))}" stroke="${FAINT}" stroke-width="1.5" stroke-dasharray="6 5"/>`);
  }

  // peers first, ours on top
  const ordered = [...series].sort((a, b) => isOurs(a.client) - isOurs(b.client));
  const ends = [];
  for (const s of ordered) {
    const colour = ctx.colour(s.client);
    const ours = isOurs(s.client);
    const pts = s.points.filter((p) => state(p.run).kind !== 'failed');
    if (pts.length > 1) {
      const d = pts.map((p, i) => `${i ? 'L' : 'M'}${r1(sx(p.level))},${r1(sy(p.run.rps))}`).join(' ');
      out.push(`<path d="${d}" fill="none" stroke="${colour}" stroke-width="${ours ? 3.5 : 2}" stroke-linejoin="round"/>`);
    }
    for (const p of s.points) {
      const st = state(p.run);
      if (st.kind === 'failed') { notes.set(`${s.client}${st.note}`, `${s.client} at ${int(p.level)} in flight: ${st.note}`); continue; }
      if (st.kind === 'bound') notes.set(`${s.client}|bound`, `hollow: ${s.client} hit the time bound at ${s.points.filter((q) => state(q.run).kind === 'bound').map((q) => `${int(q.level)} (${int(q.run.done)} of ${int(q.run.requested)})`).join(', ')} in flight; its req/s is what it finished over the bound`);
      out.push(`<g>${marker(ctx.shape(s.client), sx(p.level), sy(p.run.rps), ours ? 5.5 : 4.5, colour, st.kind === 'bound')}<title>${esc(`${s.client} at ${int(p.level)} in flight: ${int(p.run.rps)} req/s${st.note ? ` (${st.note})` : ''}`)}</title></g>`);
    }
    const last = pts[pts.length - 1];
    if (last) ends.push({ client: s.client, y: sy(last.run.rps), x: sx(last.level), v: last.run.rps, bound: state(last.run).kind === 'bound' });
  }
  // end labels in the right margin, pushed apart so that none overlaps
  ends.sort((a, b) => a.y - b.y);
  const minGap = 15;
  for (let i = 1; i < ends.length; i++) ends[i].ly = Math.max(ends[i].y, (ends[i - 1].ly ?? ends[i - 1].y) + minGap);
  if (ends.length) ends[0].ly = ends[0].ly ?? ends[0].y;
  const overflow = ends.length ? ends[ends.length - 1].ly - (plotY + plotH) : 0;
  if (overflow > 0) for (const e of ends) e.ly -= overflow;
  for (let i = ends.length - 2; i >= 0; i--) ends[i].ly = Math.min(ends[i].ly, ends[i + 1].ly - minGap);
  const lx = plotX + plotW + 14;
  for (const e of ends) {
    const ours = isOurs(e.client);
    out.push(`<line x1="${r1(e.x + 7)}" y1="${r1(e.y)}" x2="${r1(lx - 3)}" y2="${r1(e.ly)}" stroke="${ctx.colour(e.client)}" stroke-width="1"/>`);
    out.push(text(lx, e.ly + 4, `${e.client} ${int(e.v)}${e.bound ? ' *' : ''}`, { size: 12, weight: ours ? 'bold' : undefined, fill: ours ? ctx.colour(e.client) : INK }));
  }

  // legend in the plot's upper left, where a rising curve leaves room
  let ly = plotY + 18;
  const lgx = plotX + 14;
  const legend = [];
  for (const s of series) {
    const colour = ctx.colour(s.client);
    legend.push(`<line x1="${lgx}" y1="${r1(ly - 4)}" x2="${lgx + 26}" y2="${r1(ly - 4)}" stroke="${colour}" stroke-width="${isOurs(s.client) ? 3.5 : 2}"/>`);
    legend.push(marker(ctx.shape(s.client), lgx + 13, ly - 4, isOurs(s.client) ? 5 : 4, colour, false));
    legend.push(text(lgx + 34, ly, s.client, { size: 12, weight: isOurs(s.client) ? 'bold' : undefined }));
    ly += 18;
  }
  const idealLabel = delayMs ? `ideal: N × ${+(1000 / delayMs).toPrecision(3)} req/s (every answer after ${delayMs} ms)` : '';
  if (delayMs) {
    legend.push(`<line x1="${lgx}" y1="${r1(ly - 4)}" x2="${lgx + 26}" y2="${r1(ly - 4)}" stroke="${FAINT}" stroke-width="1.5" stroke-dasharray="6 5"/>`);
    legend.push(text(lgx + 34, ly, idealLabel, { size: 12, fill: GREY }));
    ly += 18;
  }
  const legendW = 34 + Math.max(...series.map((s) => textWidth(s.client, 12)), textWidth(idealLabel, 12) * 0.92) + 12;
  out.push(`<rect x="${lgx - 8}" y="${plotY + 4}" width="${r1(legendW)}" height="${r1(ly - plotY - 8)}" fill="#fff" fill-opacity="0.92" stroke="${GRID}"/>`);
  out.push(...legend);

  // the numbers under the chart, each under its level's gridline
  cy = plotY + plotH + 50;
  out.push(text(plotX - 8, cy + 12, 'req/s', { size: 11, anchor: 'end', weight: 'bold', fill: GREY }));
  for (const n of levels) out.push(text(sx(n), cy + 12, int(n), { size: 11, anchor: 'middle', weight: 'bold', fill: GREY }));
  cy += 16;
  for (const s of series) {
    const ours = isOurs(s.client);
    out.push(text(plotX - 8, cy + 12, s.client, { size: 11, anchor: 'end', weight: ours ? 'bold' : undefined, fill: ours ? ctx.colour(s.client) : INK }));
    for (const p of s.points) {
      const st = state(p.run);
      const v = st.kind === 'failed' ? st.short : `${int(p.run.rps)}${st.kind === 'bound' ? ' *' : ''}`;
      out.push(text(sx(p.level), cy + 12, v, { size: 11, anchor: 'middle', weight: ours ? 'bold' : undefined }));
    }
    cy += 16;
  }
  cy += 4;
  for (const line of notes.values()) {
    for (const l of wrap(line, 11, WIDTH - 2 * MARGIN)) {
      out.push(text(MARGIN, cy + 12, l, { size: 11, fill: GREY }));
      cy += 15;
    }
  }
  out.push(`<line x1="${MARGIN}" y1="${r1(cy + 14)}" x2="${WIDTH - MARGIN}" y2="${r1(cy + 14)}" stroke="${GRID}"/>`);
  return { svg: out.join('\n'), height: cy + 28 - y };
}

// --- from the JSON to the panels -------------------------------------------

// the clients of some runs, in the order they first ran (round 1 first)
function clientsOf(runs) {
  const seen = [];
  for (const r of [...runs].sort((a, b) => (a.round || 1) - (b.round || 1))) if (!seen.includes(r.client)) seen.push(r.client);
  return seen;
}

const delayOf = (runs) => {
  for (const r of runs) { const m = /\/delay\/(\d+)/.exec(r.url || ''); if (m) return Number(m[1]); }
  return null;
};

const sizeName = (bytes) => (bytes >= 1 << 20 ? `${+(bytes / (1 << 20)).toFixed(2)} MiB` : `${+(bytes / 1024).toFixed(2)} KiB`);

// the fastest of a client's runs of one scenario (as run.js's part-5 table:
// the run least disturbed by other processes)
function fastest(runs) {
  const ok = runs.filter((r) => !r.error);
  return ok.length ? ok.reduce((a, b) => (b.wallMs < a.wallMs ? b : a)) : runs[0];
}

// groups of bars: one per round if a scenario ran in rounds (each shown, as
// in run.js's tables), else one unlabelled group
function roundGroups(runs, clients) {
  const rounds = [...new Set(runs.map((r) => r.round || 1))].sort((a, b) => a - b);
  return rounds.map((round) => ({
    label: rounds.length > 1 ? `run ${round}${round % 2 === 0 ? ' (clients in reverse order)' : ''}` : '',
    bars: clients.map((c) => ({ client: c, run: runs.find((r) => r.client === c && (r.round || 1) === round) })).filter((b) => b.run),
  }));
}

// what the server counted, per client: segments [{label, runs}] (one per
// round or per group of the panel)
function serverLine(what, segments, clients, cell) {
  const segs = segments.map(({ label, runs }) => {
    const parts = clients.map((c) => {
      const r = runs.find((x) => x.client === c && x.server);
      return r ? `${c} ${cell(r)}` : null;
    }).filter(Boolean);
    return parts.length ? `${label ? `${label}: ` : ''}${parts.join(', ')}` : null;
  }).filter(Boolean);
  return segs.length ? `${what}${segments.length > 1 ? ', ' : ': '}${segs.join('; ')}` : null;
}
const byRound = (runs) => {
  const rounds = [...new Set(runs.map((r) => r.round || 1))].sort((a, b) => a - b);
  return rounds.map((n) => ({ label: rounds.length > 1 ? `run ${n}` : '', runs: runs.filter((r) => (r.round || 1) === n) }));
};
const handshakes = (r) => `${int(r.server.connectionsOpened)}${r.server.resumed ? ` (${int(r.server.resumed)} resumed)` : ''}`;
const h2conns = (r) => `${int(r.server.tcpConnections ?? r.server.connectionsOpened)} (${int(r.server.peakInflight)})`;

function panelsOf(j) {
  const runs = j.runs || [];
  const cfg = j.config || {};
  const by = new Map();
  for (const r of runs) { if (!by.has(r.scenario)) by.set(r.scenario, []); by.get(r.scenario).push(r); }
  const find = (re) => [...by.keys()].map((k) => [k, re.exec(k)]).filter(([, m]) => m);
  const out = [];
  const metrics3 = (groups, first) => [first, 'cpu', 'rss'].map((metric) => ({ metric, groups }));

  // 1. plain HTTP: req/s against requests in flight
  const levels = find(/^inflight-(\d+)$/).map(([k, m]) => ({ k, n: Number(m[1]) })).sort((a, b) => a.n - b.n);
  if (levels.length) {
    const all = levels.flatMap((l) => by.get(l.k));
    const delayMs = delayOf(all) ?? cfg.delayMs;
    const series = clientsOf(all).map((c) => ({
      client: c,
      points: levels.map((l) => ({ level: l.n, run: by.get(l.k).find((r) => r.client === c) })).filter((p) => p.run),
    }));
    const b = cfg.runSeconds ? `, bounded to ${cfg.runSeconds} s` : '';
    out.push({
      kind: 'line', title: 'Plain HTTP: requests per second at N requests in flight',
      subtitle: `Against /delay/${delayMs} (every answer comes ${delayMs} ms after its request). A closed loop keeps N requests in flight until max(${cfg.minRequests ?? 200}, ${cfg.perInflight ?? 20} × N) have finished, after a warm-up round of N${b}. Each point is a fresh client process.`,
      levels: levels.map((l) => l.n), series, delayMs,
    });
  }

  // 2. bursts: N requests started at once, cold
  const bursts = [
    [/^burst-(\d+)$/, 'Plain HTTP', 'connections opened', (r) => int(r.server.connectionsOpened), cfg.burstSeconds],
    [/^https-burst-(\d+)$/, 'HTTPS/1.1', 'TLS handshakes', handshakes, cfg.https && cfg.https.burstSeconds],
    [/^h2-burst-(\d+)$/, 'HTTPS/2', 'connections (peak streams in flight)', h2conns, cfg.h2 && cfg.h2.burstSeconds],
    // part h3 keeps no server counts (they would be Caddy's backend's)
    [/^h3-burst-(\d+)$/, 'HTTPS/3 through Caddy', '', () => '', cfg.h3 && cfg.h3.burstSeconds],
  ];
  for (const [re, proto, what, cell, bound] of bursts) {
    for (const [k, m] of find(re)) {
      const rs = by.get(k);
      const clients = clientsOf(rs);
      const delayMs = delayOf(rs);
      const h2 = proto === 'HTTPS/2';
      const notes = [];
      if (h2 && j.h2Bar) {
        for (const b of j.h2Bar) {
          notes.push(`run ${b.round}: ${b.client} ${b.ok ? `${int(b.wallMs)} ms` : 'did not finish cleanly'}, the fastest peer ${b.fastestPeer ? `${b.fastestPeer} ${int(b.peerWallMs)} ms` : 'none'}: ${b.holds ? 'at least as fast as every peer' : 'NOT as fast as the fastest peer'}`);
        }
      }
      out.push({
        title: `${proto}: ${int(Number(m[1]))} requests started at once, cold`,
        subtitle: `Against /delay/${delayMs}, no warm-up and no open connection: the time until the last answer, CPU per request (user + system, all threads${clients.includes('cycletls') ? ' and child processes' : ''}) and the client's peak RSS${bound ? `; bounded to ${bound} s` : ''}.${h2 ? h2Server(cfg) : ''}`,
        charts: metrics3(roundGroups(rs, clients), 'wall'),
        info: [serverLine(what, byRound(rs), clients, cell)].filter(Boolean),
        notes,
      });
    }
  }

  // 3. steady load: N in flight on kept-alive connections
  const cpuScen = find(/^cpu-(.+)$/);
  if (cpuScen.length) {
    const rs = cpuScen.flatMap(([k]) => by.get(k));
    const clients = clientsOf(rs);
    const groups = cpuScen.map(([k, m]) => ({
      label: m[1] === 'instant' ? '/fixed (answers at once)' : `/delay/${m[1].replace(/ms$/, '')}`,
      bars: clients.map((c) => ({ client: c, run: by.get(k).find((r) => r.client === c) })).filter((b) => b.run),
    }));
    const n = rs[0].inflight;
    out.push({
      title: `Plain HTTP: ${int(n)} requests in flight, ${int(rs[0].requested)} requests`,
      subtitle: `After a warm-up round of ${int(n)}, on kept-alive connections: CPU per request of the whole client process (user + system), req/s and peak RSS, against a server that answers after a delay and one that answers at once.`,
      charts: ['cpu', 'rps', 'rss'].map((metric) => ({ metric, groups })),
      info: [serverLine('connections opened', cpuScen.map(([k], i) => ({ label: groups[i].label, runs: by.get(k) })), clients, (r) => int(r.server.connectionsOpened))].filter(Boolean),
    });
  }
  const steady = [
    [/^https-inflight-(\d+)$/, 'HTTPS/1.1', 'TLS handshakes', handshakes],
    [/^h2-inflight-(\d+)$/, 'HTTPS/2', 'connections (peak streams in flight)', h2conns],
    [/^h3-inflight-(\d+)$/, 'HTTPS/3 through Caddy', '', () => ''],
  ];
  for (const [re, proto, what, cell] of steady) {
    for (const [k, m] of find(re)) {
      const rs = by.get(k);
      const clients = clientsOf(rs);
      out.push({
        title: `${proto}: ${int(Number(m[1]))} requests in flight, ${int(rs[0].requested)} requests`,
        subtitle: `Against /delay/${delayOf(rs)}, a closed loop after a warm-up round of ${m[1]} (which opens the connections), kept alive.${proto === 'HTTPS/2' ? h2Server(cfg) : ''}`,
        charts: metrics3(roundGroups(rs, clients), 'rps'),
        info: [serverLine(`${what}, warm-up included`, byRound(rs), clients, cell)].filter(Boolean),
      });
    }
  }

  // 4. CPU per new TLS connection (each client's fastest run of each way)
  const ways = [['resume', 'new connection each, resumable'], ['full', 'new connection each, full handshake'], ['keepalive', 'one kept-alive connection']]
    .filter(([tag]) => by.has(`tlsconn-${tag}`));
  if (ways.length) {
    const rs = ways.flatMap(([tag]) => by.get(`tlsconn-${tag}`));
    const clients = clientsOf(rs);
    const best = (tag, c) => { const x = by.get(`tlsconn-${tag}`).filter((r) => r.client === c); return x.length ? fastest(x) : null; };
    const groups = ways.map(([tag, label]) => ({ label, bars: clients.map((c) => ({ client: c, run: best(tag, c) })).filter((b) => b.run) }));
    const cpuGroups = [...groups];
    if (by.has('tlsconn-full') && by.has('tlsconn-keepalive')) {
      cpuGroups.push({
        label: 'full handshake − kept-alive: what a handshake adds',
        bars: clients.map((c) => {
          const a = best('full', c); const b = best('keepalive', c);
          const ok = a && b && state(a).kind === 'ok' && state(b).kind === 'ok';
          return { client: c, run: a, value: ok ? a.cpuPerReqUs - b.cpuPerReqUs : null, state: ok ? { kind: 'ok' } : { kind: 'missing', short: 'n/a' } };
        }),
      });
    }
    const rounds = Math.max(...rs.map((r) => r.round || 1));
    out.push({
      title: `HTTPS/1.1: CPU per new TLS connection, ${int(rs[0].requested)} sequential requests to /fixed`,
      subtitle: `A new TCP + TLS connection per request (sessions resumed as each client does by default, or against a port that never resumes), and the same requests on one kept-alive connection.${rounds > 1 ? ` Each client ran each way ${rounds} times; its fastest run is shown.` : ''}`,
      charts: [{ metric: 'cpu', groups: cpuGroups }, { metric: 'rps', title: 'requests per second, sequential (req/s)', groups }],
      info: ways[0][0] !== 'resume' ? [] : [serverLine('TLS handshakes (new connection each, resumable), warm-up included', [{ label: '', runs: groups[0].bars.map((b) => b.run) }], clients, handshakes)].filter(Boolean),
    });
  }

  // 5. text bodies, grouped by size, one panel per protocol
  for (const [proto, name] of [['h1', 'HTTPS/1.1'], ['h2', 'HTTPS/2']]) {
    const sizes = find(new RegExp(`^body-${proto}-(\\d+)$`)).map(([k, m]) => ({ k, bytes: Number(m[1]) })).sort((a, b) => a.bytes - b.bytes);
    if (!sizes.length) continue;
    const rs = sizes.flatMap((s) => by.get(s.k));
    const clients = clientsOf(rs);
    const groups = sizes.map((s) => {
      const x = by.get(s.k);
      return {
        label: `${sizeName(s.bytes)}, ${x[0].inflight} in flight, ${int(x[0].requested)} requests`,
        bars: clients.map((c) => ({ client: c, run: x.find((r) => r.client === c) })).filter((b) => b.run),
      };
    });
    const notes = (j.bodyBar || []).filter((b) => b.row.startsWith(`${name} `)).map((b) => `${b.row}: ours-koffi's MB/s ${b.mbpsRatio.toFixed(2)} × ${b.fastestPeer}'s (the fastest peer), CPU per request ${b.cpuRatio.toFixed(2)} × ${b.leanestPeer}'s (the leanest)${b.peakRssOverBody !== null && / MiB$/.test(b.row) ? `, peak RSS grew by ${b.peakRssOverBody.toFixed(1)} × the body` : ''}`);
    out.push({
      title: `Text bodies over ${name}`,
      subtitle: `GET /body/<bytes>: HTML-like text read whole as a string by every client. MB/s of body (10⁶ bytes per second of wall time), CPU per MB of body (CPU per request ÷ body size, so that the sizes share an axis), peak RSS.${sizes.some((s) => s.bytes >= 1 << 20) ? ' Sizes of 1 MiB and more run without warm-up.' : ''}`,
      charts: ['mbps', 'cpuPerMB', 'rss'].map((metric) => ({ metric, groups })),
      notes,
    });
  }
  return out;
}

function h2Server(cfg) {
  const h2 = cfg.h2 || {};
  const streams = h2.maxStreams > 0 ? `MAX_CONCURRENT_STREAMS ${h2.maxStreams}` : 'no limit on concurrent streams (Node\'s default)';
  const reuse = h2.cycletlsReuse === false ? '; cycletls without connection reuse (a new connection per request)' : '';
  return ` The h2 server: ${streams}${reuse}.`;
}

// --- the page ----------------------------------------------------------------

function header(j, name, ctx) {
  const out = [];
  const h = j.host || {};
  const lib = j.library || {};
  const date = j.date ? j.date.replace('T', ' ').replace(/:\d\d(\.\d+)?Z$/, ' UTC') : 'unknown date';
  out.push(text(MARGIN, 38, `HTTP clients side by side: ${name}`, { size: 22, weight: 'bold' }));
  const lines = [
    `Machine: ${h.cpuModel || 'unknown CPU'}, ${h.cpus ?? '?'} cores${h.memGB ? `, ${h.memGB} GB` : ''}${h.platform ? `, ${h.platform}` : ''}${h.node ? `, Node ${h.node}` : ''}`,
    `Run: ${date}${j.durationSec ? `, ${j.durationSec} s` : ''}${j.parts ? `; parts ${j.parts.join(', ')}` : ''}${j.config && j.config.oursIdle ? `; ours-* transport: ${j.config.oursIdle === 'default' ? 'the library\'s defaults' : 'tuned idle pool (maxIdleConns = in flight)'}` : ''}`,
  ];
  if (j.loadavg) {
    const f = (a) => a.map((v) => v.toFixed(2)).join(' / ');
    // a load above the cores means other processes competed with the run:
    // wall times and req/s are then noisier than CPU per request
    const busy = h.cpus && Math.max(j.loadavg.start[0], j.loadavg.end[0]) > h.cpus;
    lines.push(`Load average (1 / 5 / 15 min): ${f(j.loadavg.start)} at the start, ${f(j.loadavg.end)} at the end${h.cpus ? `, on ${h.cpus} cores` : ''}${busy ? ': a busy machine, times and req/s are noisy' : ''}`);
  }
  lines.push(`git ${j.gitRev || 'unknown'}; library ${lib.exists === false ? 'not found (no ours-* clients)' : lib.sha256 ? `SHA-256 ${lib.sha256.slice(0, 16)}…` : 'unknown'}`);
  let y = 62;
  for (const l of lines) { out.push(text(MARGIN, y, l, { size: 13, fill: GREY })); y += 19; }
  // one legend for the page: a client keeps its colour in every chart
  y += 8;
  let x = MARGIN;
  for (const c of ctx.clients) {
    const w = 26 + textWidth(c, 12) + 22;
    if (x + w > WIDTH - MARGIN) { x = MARGIN; y += 22; }
    out.push(`<rect x="${x}" y="${y - 11}" width="16" height="13" fill="${ctx.colour(c)}"/>`);
    out.push(text(x + 22, y, c, { size: 12, weight: isOurs(c) ? 'bold' : undefined }));
    x += w;
  }
  const key = 'ours-*: this library; * hit its time bound';
  if (x + textWidth(key, 11) > WIDTH - MARGIN) y += 20;
  out.push(text(WIDTH - MARGIN, y, key, { size: 11, anchor: 'end', fill: GREY }));
  y += 16;
  out.push(`<line x1="${MARGIN}" y1="${y}" x2="${WIDTH - MARGIN}" y2="${y}" stroke="${GRID}"/>`);
  return { svg: out.join('\n'), height: y + 8 };
}

function renderSvg(j, name) {
  const clients = clientsOf(j.runs || []);
  const colours = new Map();
  let ours = 0; let spare = 0;
  for (const c of clients) {
    colours.set(c, isOurs(c) ? OURS_COLOURS[ours++ % OURS_COLOURS.length] : PEER_COLOURS[c] || SPARE_COLOURS[spare++ % SPARE_COLOURS.length]);
  }
  const shapes = new Map(clients.map((c, i) => [c, MARKERS[i % MARKERS.length]]));
  const ctx = { clients, colour: (c) => colours.get(c) || FAINT, shape: (c) => shapes.get(c) || 'circle' };

  const parts = [];
  const head = header(j, name, ctx);
  parts.push(head.svg);
  let y = head.height + 6;
  const panels = panelsOf(j);
  for (const p of panels) {
    const r = p.kind === 'line' ? lineChart(y, p, ctx) : panel(y, p, ctx);
    parts.push(`<g>\n${r.svg}\n</g>`);
    y += r.height + 6;
  }
  if (!panels.length) { parts.push(text(MARGIN, y + 20, 'no runs in this file', { size: 13, fill: GREY })); y += 40; }
  const height = Math.ceil(y + 10);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" font-family="${esc(FONT)}">\n`
    + `<rect width="100%" height="100%" fill="#fff"/>\n${parts.join('\n')}\n</svg>\n`;
}

// results JSON -> the SVG next to it; returns the SVG's path
function renderFile(file) {
  const j = JSON.parse(fs.readFileSync(file, 'utf8'));
  const out = file.replace(/\.json$/, '') + '.svg';
  fs.writeFileSync(out, renderSvg(j, path.basename(file)));
  return out;
}

module.exports = { renderFile, renderSvg };

if (require.main === module) {
  let files = process.argv.slice(2);
  if (!files.length) {
    const dir = path.join(__dirname, 'results');
    // Only run.js's results (soak.json, bench/soak.js's, has no runs to draw).
    files = fs.readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => path.join(dir, f))
      .filter((f) => Array.isArray(JSON.parse(fs.readFileSync(f, 'utf8')).runs));
  }
  for (const f of files) {
    const out = renderFile(f);
    console.log(path.relative(process.cwd(), out) || out);
  }
}
