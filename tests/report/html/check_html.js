// tests/report/report_html.sh: open armprof's HTML report in Debian's
// chromium (driven by playwright-core, which downloads no browser) and check
// what a reader sees against the text report's numbers.
//   node check_html.js PAGE.html EXPECT.json
// EXPECT: {records, samples, functions, threads, instructions, lines, top_function,
// top_samples (the text report's), stacks_samples, stacks_latency (the sums
// of --flame's lines), lat_samples (samples with a latency and a Data
// Source: the histogram's default; or null), lat_all (with those without a
// Data Source; or null), accesses, text_present: [...]}. Prints "ok" or the problems, exit 1.
'use strict';
const fs = require('fs');
const path = require('path');
const { chromium } = require(process.env.PLAYWRIGHT_CORE || 'playwright-core');

const [page_file, expect_file] = process.argv.slice(2);
const want = JSON.parse(fs.readFileSync(expect_file, 'utf8'));
const problems = [];
const check = (ok, what) => { if (!ok) problems.push(what); };

(async () => {
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
  const url = 'file://' + path.resolve(page_file);
  page.on('console', (m) => problems.push('console ' + m.type() + ': ' + m.text()));
  page.on('pageerror', (e) => problems.push('page error: ' + e.message));
  page.on('request', (r) => { if (r.url() !== url) problems.push('request: ' + r.url()); });
  await page.goto(url, { waitUntil: 'load' });
  const dom = await page.evaluate(() => {
    const q = (s) => document.querySelector(s);
    const rows = (id) => [...document.querySelectorAll('#' + id + ' tbody tr')];
    const cells = (tr) => [...tr.children].map((td) => td.textContent);
    const sum = (sel, attr) => [...document.querySelectorAll(sel)].reduce((a, e) => a + Number(e.getAttribute(attr)), 0);
    return {
      rendered: document.body.getAttribute('data-rendered'),
      records: q('#summary dd[data-key="records"]').textContent,
      samples: q('#summary dd[data-key="samples"]').textContent,
      functions: rows('functions').map(cells),
      threads: rows('threads').length,
      instructions: rows('instructions').length,
      lines: rows('lines').length,
      flame_frames: document.querySelectorAll('#flame-svg rect.frame').length,
      flame_rows: new Set([...document.querySelectorAll('#flame-svg rect.frame')].map((r) => r.getAttribute('y'))).size,
      flame_all: q('#flame-svg rect[data-name="all"]').getAttribute('data-weight'),
      latency_counts: sum('#latency-svg rect', 'data-count'),
      heat_counts: sum('#heat-svg rect', 'data-count'),
      imgs: document.querySelectorAll('img').length,
      text: document.body.textContent,
    };
  });
  check(dom.rendered === 'yes', 'the script did not finish (data-rendered ' + dom.rendered + ')');
  check(dom.records === String(want.records), 'records ' + dom.records + ', text report ' + want.records);
  check(dom.samples === String(want.samples), 'samples ' + dom.samples + ', text report ' + want.samples);
  check(dom.functions.length === want.functions, 'function rows ' + dom.functions.length + ', want ' + want.functions);
  check(dom.functions.length && dom.functions[0][0] === want.top_function && dom.functions[0][1] === String(want.top_samples),
    'top function ' + JSON.stringify(dom.functions[0]) + ', text report ' + want.top_function + ' ' + want.top_samples);
  check(dom.threads === want.threads, 'thread rows ' + dom.threads + ', want ' + want.threads);
  check(dom.instructions === Math.min(1000, want.instructions), 'instruction rows ' + dom.instructions);
  check(dom.lines === want.lines, 'shared line rows ' + dom.lines + ', want ' + want.lines);
  check(dom.flame_frames >= 2, 'flame graph: ' + dom.flame_frames + ' frames');
  // The frames of a deep stack, and the root: a row each (WANT_DEPTH: from --flame).
  if (process.env.WANT_DEPTH)
    check(dom.flame_rows >= Number(process.env.WANT_DEPTH) + 1, 'flame graph rows ' + dom.flame_rows + ', want ' + process.env.WANT_DEPTH + ' + 1');
  check(dom.flame_all === String(want.stacks_samples), 'flame graph root ' + dom.flame_all + ' samples, --flame ' + want.stacks_samples);
  if (want.lat_samples !== null)
    check(dom.latency_counts === want.lat_samples, 'latency histogram ' + dom.latency_counts + ', want ' + want.lat_samples);
  check(dom.heat_counts === Math.min(20000, want.accesses), 'heat map ' + dom.heat_counts + ' accesses, want ' + want.accesses);
  check(dom.imgs === 0, 'an img element: input became markup');
  for (const t of want.text_present || []) check(dom.text.includes(t), 'text not shown as text: ' + t);

  // Interaction: the histogram's operations without a Data Source, the flame
  // graph's weight, sorting a column, a function's annotation.
  if (want.lat_all !== null) {
    await page.check('#latency-none');
    const all = await page.$$eval('#latency-svg rect', (r) => r.reduce((a, e) => a + Number(e.getAttribute('data-count')), 0));
    check(all === want.lat_all, 'latency histogram with "none": ' + all + ', want ' + want.lat_all);
  }
  await page.selectOption('#flame-weight', 'latency');
  const lat = await page.getAttribute('#flame-svg rect[data-name="all"]', 'data-weight');
  check(lat === String(want.stacks_latency), 'flame graph by latency: root ' + lat + ', --flame ' + want.stacks_latency);
  await page.click('#functions th:nth-child(2)'); // samples, now ascending
  const first = await page.textContent('#functions tbody tr:first-child td:nth-child(2)');
  const least = Math.min(...dom.functions.map((c) => Number(c[1])));
  check(Number(first) === least, 'sorted ascending: first row ' + first + ', least ' + least);
  const named = dom.functions.find((c) => !c[0].startsWith('[unknown]'));
  if (named) {
    await page.evaluate((name) => [...document.querySelectorAll('#functions tbody tr')]
      .find((tr) => tr.children[0].textContent === name).click(), named[0]);
    const chosen = await page.$eval('#annotate-select', (s) => s.options[s.selectedIndex] && s.options[s.selectedIndex].text);
    check(named[0].startsWith(chosen), 'clicking ' + named[0] + ' annotates ' + chosen);
    check(await page.$$eval('#annotate tbody tr', (r) => r.length) > 0, 'annotation empty');
  }
  if (process.env.SCREENSHOT) await page.screenshot({ path: process.env.SCREENSHOT, fullPage: true });
  await browser.close();
  if (problems.length) {
    console.log(problems.join('\n'));
    process.exit(1);
  }
  console.log('ok');
})().catch((e) => { console.log('error: ' + e.stack); process.exit(1); });
