// armprof report --html: renders the report's data (the JSON document in
// #armprof-data, written by tools/armprof/report_html_data.c) as tables and
// SVG charts. Plain JavaScript and SVG, no library: the page must work
// offline, from one file, and stay small enough to read. Everything from
// the data goes into the page as text (textContent, attribute values),
// never as markup.
'use strict';

const D = JSON.parse(document.getElementById('armprof-data').textContent);
const SVG = 'http://www.w3.org/2000/svg';

// Element helpers: el('td', {class: 'text'}, 'text or node', ...).
function el(tag, attrs, ...kids) {
  const e = tag.startsWith('svg:') ? document.createElementNS(SVG, tag.slice(4)) : document.createElement(tag);
  for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
  for (const k of kids) if (k !== null && k !== undefined) e.append(k instanceof Node ? k : String(k));
  return e;
}
const pct = (x) => (100 * x).toFixed(2) + '%';
const fix = (d) => (x) => Number(x).toFixed(d);
const int = (x) => String(x);
const section = (id) => document.getElementById(id);

// A table sortable by any column. cols: {label, get(row), fmt?, text?}.
function table(host, cols, rows, sortCol, onClick) {
  const t = el('table'), head = el('tr'), body = el('tbody');
  let col = sortCol, desc = true;
  const render = () => {
    const get = cols[col].get, sign = desc ? -1 : 1;
    const sorted = rows.slice().sort((a, b) => {
      const x = get(a), y = get(b);
      return sign * (x < y ? -1 : x > y ? 1 : 0);
    });
    body.replaceChildren(...sorted.map((r) => {
      const tr = el('tr', onClick ? { class: 'clickable' } : {});
      for (const c of cols) {
        const v = c.get(r);
        tr.append(el('td', { class: c.code ? 'code' : c.text ? 'text' : 'num' }, c.fmt ? c.fmt(v) : v));
      }
      if (onClick) tr.addEventListener('click', () => onClick(r));
      return tr;
    }));
    cols.forEach((c, i) => { head.children[i].className = (c.text || c.code ? 'text ' : '') +
      (i === col ? (desc ? 'sorted-desc' : 'sorted-asc') : ''); });
  };
  cols.forEach((c, i) => head.append(el('th', {}, c.label)));
  [...head.children].forEach((th, i) => th.addEventListener('click', () => {
    desc = i === col ? !desc : !cols[i].text;
    col = i;
    render();
  }));
  t.append(el('thead', {}, head), body);
  host.replaceChildren(t);
  render();
  return t;
}

// The statistics columns every table has (report_json_stats' fields).
const SOURCES_SHOWN = 3;
function sourcesText(s) {
  const n = Object.values(s.data_source).reduce((a, b) => a + b, 0);
  if (!n) return '-';
  return Object.entries(s.data_source).sort((a, b) => b[1] - a[1]).slice(0, SOURCES_SHOWN)
    .map(([k, v]) => k + ' ' + (100 * v / n).toFixed(0) + '%').join(' ');
}
const STAT_COLS = [
  { label: 'samples', get: (r) => r.samples, fmt: int },
  { label: 'share', get: (r) => r.share, fmt: pct },
  { label: 'lat-share', get: (r) => r.latency_share, fmt: pct },
  { label: 'lat-mean', get: (r) => r.lat_mean, fmt: fix(1) },
  { label: 'p50', get: (r) => r.lat_p50, fmt: fix(0) },
  { label: 'p90', get: (r) => r.lat_p90, fmt: fix(0) },
  { label: 'p99', get: (r) => r.lat_p99, fmt: fix(0) },
  { label: 'l1d-miss', get: (r) => r.l1d_miss_rate, fmt: pct },
  { label: 'llc-miss', get: (r) => r.llc_miss_rate, fmt: pct },
  { label: 'tlb-walk', get: (r) => r.tlb_walk_rate, fmt: pct },
  { label: 'mispred', get: (r) => r.mispredict_rate, fmt: pct },
  { label: 'data sources', get: sourcesText, text: true },
];
const withBinary = (r) => r.function + (r.binary ? ' (' + r.binary + ')' : '');

function summary() {
  const t = D.totals;
  document.title = 'armprof report: ' + D.input;
  section('title-input').textContent = D.input + ' (' + D.format + ')';
  const items = [
    ['records', D.records], ['samples', t.samples], ['binary', D.binary || '(none)'],
    ['loads', t.loads], ['stores', t.stores], ['atomics', t.atomics],
    ['branches', t.branches], ['other', t.other], ['mean total latency', t.lat_mean.toFixed(1) + ' cycles'],
    ['latency p50 / p90 / p99', [t.lat_p50, t.lat_p90, t.lat_p99].map((x) => x.toFixed(0)).join(' / ')],
    ['L1D miss rate', pct(t.l1d_miss_rate)], ['LLC miss rate', pct(t.llc_miss_rate)],
    ['TLB walk rate', pct(t.tlb_walk_rate)], ['mispredicted', pct(t.mispredict_rate)],
    ['decode errors', D.decode_errors], ['functions', D.functions.length],
  ];
  if (D.ended_by_signal) items.push(['ended by signal', D.ended_by_signal]);
  const dl = section('summary');
  for (const [k, v] of items) dl.append(el('dt', {}, k), el('dd', { 'data-key': k }, v));
}

function tables() {
  const fcols = [{ label: 'function', get: withBinary, text: true }, ...STAT_COLS];
  table(section('functions').querySelector('.table'), fcols, D.functions, 1, (r) => annotateShow(r.function));
  const tcols = [{ label: 'thread', get: (r) => (r.tid === null ? '[no context]' : r.tid), text: true }, ...STAT_COLS];
  table(section('threads').querySelector('.table'), tcols, D.threads, 1);
  const icols = [
    { label: 'pc', get: (r) => r.pc, code: true },
    { label: 'function+offset', get: (r) => withBinary(r) + '+0x' + r.offset.toString(16), text: true },
    { label: 'instruction', get: (r) => r.disasm || '', code: true },
    { label: 'line', get: (r) => r.line || '', text: true }, ...STAT_COLS];
  table(section('instructions').querySelector('.table'), icols, D.instructions, 4);
  section('instructions').querySelector('.note').textContent =
    'The ' + D.instructions.length + ' of ' + D.instructions_total + ' instructions with the most samples.';
  const lcols = [
    { label: 'line', get: (r) => (r.pid === null ? '' : r.pid + ':') + r.line, code: true },
    { label: 'peer loads', get: (r) => r.peer_loads, fmt: int },
    { label: 'threads', get: (r) => r.threads, fmt: int },
    { label: 'sharing', get: (r) => r.sharing, text: true },
    { label: 'words (threads)', get: (r) => r.words.map((w) => '+' + w.offset + ':' + (w.threads > 1 ? '2+' : '1')).join(' '), text: true },
    { label: 'functions (samples)', get: (r) => r.functions.map((f) => f.function + ' (' + f.samples + ')').join(', '), text: true },
    ...STAT_COLS];
  table(section('lines').querySelector('.table'), lcols, D.shared_lines, 1);
}

// Annotate: the chosen function instruction by instruction, its source
// line where it changes; shaded by the instruction's share of the samples.
function annotateShow(name) {
  const sel = section('annotate-select');
  const i = D.annotate.findIndex((a) => a.function === name);
  if (i < 0) return;
  sel.value = String(i);
  const a = D.annotate[i];
  section('annotate').querySelector('.note').textContent = a.function + (a.binary ? ' (' + a.binary + ')' : '') +
    ' at ' + a.start + ': ' + a.samples + ' samples (' + pct(a.samples / Math.max(1, D.totals.samples)) + ' of all)';
  const t = el('table'), body = el('tbody');
  t.append(el('thead', {}, el('tr', {}, ...['offset', 'samples', 'share', 'latency', 'l1d refills', 'llc misses',
    'instruction', 'source line'].map((h, i) => el('th', i > 5 ? { class: 'text' } : {}, h)))), body);
  let last = '';
  for (const [off, n, lat, l1d, llc, dis, line] of a.insns) {
    const share = n / Math.max(1, a.samples);
    const tr = el('tr', n ? { style: 'background: rgba(255, 90, 0, ' + (0.08 + 0.6 * share).toFixed(3) + ')' } : {},
      el('td', { class: 'code' }, '+0x' + off.toString(16)), el('td', {}, n || ''), el('td', {}, n ? pct(share) : ''),
      el('td', {}, n ? lat : ''), el('td', {}, n ? l1d : ''), el('td', {}, n ? llc : ''),
      el('td', { class: 'code' }, dis), el('td', { class: 'text' }, line !== last ? line : ''));
    last = line;
    body.append(tr);
  }
  section('annotate').querySelector('.table').replaceChildren(t);
}

function annotate() {
  const sel = section('annotate-select');
  D.annotate.forEach((a, i) => sel.append(el('option', { value: String(i) }, a.function)));
  sel.addEventListener('change', () => annotateShow(D.annotate[Number(sel.value)].function));
  if (D.annotate.length) annotateShow(D.annotate[0].function);
  else section('annotate').querySelector('.note').textContent = 'No function to annotate (no symbols: --binary).';
}

// Flame graph: the folded stacks as a tree, each node with every weight.
function flameTree() {
  const root = { name: 'all', w: new Array(D.keys.length).fill(0), kids: new Map(), parent: null };
  for (const [stack, ...w] of D.stacks) {
    let node = root;
    w.forEach((x, k) => { root.w[k] += x; });
    for (const name of stack.split(';')) {
      let kid = node.kids.get(name);
      if (!kid) node.kids.set(name, kid = { name, w: new Array(w.length).fill(0), kids: new Map(), parent: node });
      w.forEach((x, k) => { kid.w[k] += x; });
      node = kid;
    }
  }
  return root;
}

function hue(name) {
  let h = 0;
  for (const c of name) h = (h * 31 + c.charCodeAt(0)) >>> 0;
  return 'hsl(' + (10 + h % 45) + ', 85%, ' + (55 + (h >>> 8) % 15) + '%)';
}

function flame() {
  const root = flameTree(), sel = section('flame-weight'), host = section('flame-graph');
  D.keys.forEach((k) => sel.append(el('option', { value: k }, k)));
  sel.value = D.weight;
  let zoom = root;
  const H = 17, W = 1200;
  const depth = (n) => 1 + Math.max(0, ...[...n.kids.values()].map(depth));
  const draw = () => {
    const k = D.keys.indexOf(sel.value), rows = depth(root), total = root.w[k];
    const svg = el('svg:svg', { width: W, height: rows * H, viewBox: '0 0 ' + W + ' ' + rows * H, id: 'flame-svg' });
    const frame = (n, x, w, d) => {
      const y = (rows - 1 - d) * H;
      const g = el('svg:g', {}, el('svg:title', {}, n.name + ': ' + n.w[k] + ' ' + sel.value + ' (' + pct(n.w[k] / Math.max(1, total)) + ')'));
      g.append(el('svg:rect', { class: 'frame', x: x.toFixed(2), y, width: Math.max(w - 0.5, 0.5).toFixed(2), height: H - 1,
        fill: n === root ? '#ccc' : hue(n.name), 'data-name': n.name, 'data-weight': n.w[k] }));
      if (w > 30) g.append(el('svg:text', { x: (x + 3).toFixed(2), y: y + H - 5 }, n.name.slice(0, Math.floor((w - 6) / 6.6))));
      g.addEventListener('click', (e) => { e.stopPropagation(); zoom = n; draw(); });
      svg.append(g);
      let cx = x;
      for (const kid of [...n.kids.values()].sort((a, b) => (a.name < b.name ? -1 : 1))) {
        const kw = n.w[k] ? w * kid.w[k] / n.w[k] : 0;
        if (kw >= 0.3) frame(kid, cx, kw, d + 1);
        cx += kw;
      }
    };
    // The zoomed frame spans the width; its ancestors are drawn as wide.
    const path = [];
    for (let n = zoom; n; n = n.parent) path.unshift(n);
    path.slice(0, -1).forEach((n, d) => {
      const y = (rows - 1 - d) * H;
      svg.append(el('svg:g', {}, el('svg:rect', { class: 'frame', x: 0, y, width: W, height: H - 1, fill: '#ddd',
        'data-name': n.name, 'data-weight': n.w[k] }), el('svg:text', { x: 3, y: y + H - 5 }, n.name)));
    });
    frame(zoom, 0, W, path.length - 1);
    host.replaceChildren(svg);
    section('flame-info').textContent = D.stacks.length + ' of ' + D.stacks_total + ' distinct stacks; ' +
      'all: ' + total + ' ' + sel.value + (zoom !== root ? '; zoomed into ' + zoom.name + ': ' + zoom.w[k] : '');
  };
  sel.addEventListener('change', draw);
  section('flame-reset').addEventListener('click', () => { zoom = root; draw(); });
  draw();
}

const PALETTE = ['#4e79a7', '#f28e2b', '#e15759', '#76b7b2', '#59a14f', '#edc948', '#b07aa1', '#ff9da7',
  '#9c755f', '#bab0ac', '#1f77b4', '#aec7e8', '#ff7f0e', '#2ca02c', '#98df8a', '#d62728', '#9467bd', '#8c564b'];

// Latency: bins of 1 cycle to 8, then 4 per octave up to 4096.
function latencyBins() {
  const edges = [0, 1, 2, 3, 4, 5, 6, 7, 8];
  for (let lo = 8; lo < 4096; lo *= 2) for (let q = 1; q <= 4; q++) edges.push(lo + q * lo / 4);
  return edges; // bin i: [edges[i], edges[i + 1])
}

function latency() {
  const edges = latencyBins(), nb = edges.length - 1, none = D.sources.indexOf('none');
  const box = section('latency-none');
  const draw = () => {
    const rowsIn = D.latency.filter(([s]) => box.checked || s !== none);
    const used = [...new Set(rowsIn.map(([s]) => s))].sort((a, b) => a - b);
    const counts = used.map(() => new Array(nb).fill(0)), perSource = used.map(() => ({ n: 0, sum: 0 }));
    for (const [s, lat, n] of rowsIn) {
      const i = used.indexOf(s);
      let b = 0;
      while (b + 1 < nb && edges[b + 1] <= lat) b++;
      counts[i][b] += n;
      perSource[i].n += n;
      perSource[i].sum += n * lat;
    }
    const stackMax = Math.max(1, ...edges.slice(0, -1).map((_, b) => counts.reduce((a, c) => a + c[b], 0)));
    const W = 1000, H = 260, L = 50, B = 30, bw = (W - L) / nb;
    const svg = el('svg:svg', { width: W, height: H + B, id: 'latency-svg' });
    for (let b = 0; b < nb; b++) {
      let y = H;
      used.forEach((s, i) => {
        const h = (H - 10) * counts[i][b] / stackMax;
        if (!h) return;
        y -= h;
        svg.append(el('svg:rect', { x: (L + b * bw).toFixed(2), y: y.toFixed(2), width: Math.max(bw - 1, 1).toFixed(2),
          height: h.toFixed(2), fill: PALETTE[s % PALETTE.length], 'data-source': D.sources[s], 'data-count': counts[i][b] },
        el('svg:title', {}, D.sources[s] + ', ' + edges[b] + '-' + (edges[b + 1] - 1) + ' cycles: ' + counts[i][b] + ' samples')));
      });
    }
    for (let b = 0; b < nb; b += 4)
      svg.append(el('svg:text', { x: (L + b * bw).toFixed(1), y: H + 15 }, edges[b]));
    svg.append(el('svg:text', { x: L, y: H + 28 }, 'total latency (cycles)'),
      el('svg:text', { x: 0, y: 12 }, stackMax), el('svg:text', { x: 0, y: H }, '0'),
      el('svg:line', { x1: L, y1: H, x2: W, y2: H, stroke: '#888' }));
    const legend = el('p', { class: 'legend' }, ...used.map((s) => el('span', {},
      el('i', { style: 'background:' + PALETTE[s % PALETTE.length] }), D.sources[s])));
    section('latency-chart').replaceChildren(svg, legend);
    const rows = used.map((s, i) => ({ source: D.sources[s], n: perSource[i].n, mean: perSource[i].sum / perSource[i].n }));
    table(section('latency').querySelector('.table'), [
      { label: 'data source', get: (r) => r.source, text: true },
      { label: 'samples with a latency', get: (r) => r.n, fmt: int },
      { label: 'mean total latency', get: (r) => r.mean, fmt: fix(1) }], rows, 1);
  };
  box.addEventListener('change', draw);
  draw();
}

// Heat map: time across, data address up; the addresses' 4 KiB pages in
// order with the gaps between them left out (a program's stack, heap and
// data are far apart), grouped into at most 64 rows.
function heat() {
  const pts = D.heat.points, host = section('heat-map');
  section('heat').querySelector('.note').textContent = 'A uniform sample of ' + pts.length + ' of the ' +
    D.heat.accesses + ' sampled accesses with a data address; time by ' + D.heat.time +
    '. Rows: the touched 4 KiB pages in address order (the gaps between them left out).';
  if (!pts.length) { host.replaceChildren(el('p', {}, 'No sampled access has a data address.')); return; }
  const pageOf = pts.map(([, a]) => BigInt('0x' + a) >> 12n);
  const pages = [...new Set(pageOf)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const rank = new Map(pages.map((p, i) => [p, i]));
  const R = Math.min(64, pages.length), C = 80;
  const t0 = Math.min(...pts.map((p) => p[0])), t1 = Math.max(...pts.map((p) => p[0]));
  const grid = Array.from({ length: R }, () => new Array(C).fill(0));
  pts.forEach((p, i) => {
    const r = Math.floor(rank.get(pageOf[i]) * R / pages.length);
    const c = t1 > t0 ? Math.min(C - 1, Math.floor((p[0] - t0) * C / (t1 - t0))) : 0;
    grid[r][c]++;
  });
  const max = Math.max(...grid.flat()), W = 1000, H = 400, L = 150, cw = (W - L) / C, rh = H / R;
  const svg = el('svg:svg', { width: W, height: H + 20, id: 'heat-svg' });
  const pageHex = (p) => '0x' + (p << 12n).toString(16);
  grid.forEach((row, r) => {
    const lo = pages[Math.floor(r * pages.length / R)], hi = pages[Math.floor((r + 1) * pages.length / R) - 1];
    const y = H - (r + 1) * rh;
    if (r % Math.ceil(R / 16) === 0) svg.append(el('svg:text', { x: 0, y: (y + rh - 2).toFixed(1) }, pageHex(lo)));
    row.forEach((n, c) => {
      if (!n) return;
      const a = 0.15 + 0.85 * Math.log1p(n) / Math.log1p(max);
      svg.append(el('svg:rect', { x: (L + c * cw).toFixed(2), y: y.toFixed(2), width: cw.toFixed(2), height: rh.toFixed(2),
        fill: 'rgba(200, 40, 0, ' + a.toFixed(3) + ')', 'data-count': n },
      el('svg:title', {}, pageHex(lo) + '-' + pageHex(hi + 1n) + ', ' + D.heat.time + ' ' +
        Math.round(t0 + c * (t1 - t0) / C) + ': ' + n + ' accesses')));
    });
  });
  svg.append(el('svg:text', { x: L, y: H + 15 }, D.heat.time + ' ' + t0 + ' .. ' + t1));
  host.replaceChildren(svg);
  section('heat-info').textContent = pages.length + ' distinct pages in ' + R + ' rows; darkest cell: ' + max + ' accesses.';
}

summary();
tables();
annotate();
flame();
latency();
heat();
document.body.setAttribute('data-rendered', 'yes');
