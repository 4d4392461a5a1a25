// tests/report/report_speedscope.sh: open armprof's pprof profile in
// speedscope's own app (the npm package's dist/release, its pprof importer
// as on www.speedscope.app) in Debian's chromium, driven by playwright-core
// (tests/report/html), the way speedscope's command line hands it a file
// (#localProfilePath= a script calling speedscope.loadFileFromBase64), and
// print what a reader sees in its Sandwich view: "NAME TOTAL SELF" a line,
// after "importer: " and the importer speedscope says it used. Console
// errors and page errors are printed as "problem: ..." lines.
//   node check_speedscope.js SPEEDSCOPE_RELEASE_DIR PROFILE.pb.gz WORK_DIR
'use strict';
const fs = require('fs');
const path = require('path');
const { chromium } = require(process.env.PLAYWRIGHT_CORE || 'playwright-core');

const [app, profile, work] = process.argv.slice(2);

(async () => {
  const loader = path.resolve(work, 'load.js');
  fs.writeFileSync(loader, 'speedscope.loadFileFromBase64(' + JSON.stringify(path.basename(profile)) + ', ' +
    JSON.stringify(fs.readFileSync(profile).toString('base64')) + ')');
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    args: ['--no-sandbox'] });
  const page = await browser.newPage({ viewport: { width: 1300, height: 900 } });
  let importer = 'none';
  page.on('console', (m) => {
    const t = m.text();
    if (/^Importing as /.test(t)) importer = t.replace(/^Importing as /, '');
    if (m.type() === 'error') console.log('problem: console error: ' + t);
  });
  page.on('pageerror', (e) => console.log('problem: page error: ' + e.message));
  await page.goto('file://' + path.resolve(app, 'index.html') + '#localProfilePath=' + loader, { waitUntil: 'load' });
  await page.waitForSelector('text=Sandwich', { timeout: 30000 });
  await page.click('text=Sandwich');
  await page.waitForSelector('text=Symbol Name', { timeout: 30000 });
  // The table's rows: Total, Self, Symbol Name (numbers as "22,250 (59%)").
  const rows = await page.evaluate(() => {
    const cells = [...document.querySelectorAll('td')].map((td) => td.textContent.trim());
    const out = [];
    for (let i = 0; i + 2 < cells.length; i += 3) out.push([cells[i + 2], cells[i], cells[i + 1]]);
    return out;
  });
  console.log('importer: ' + importer);
  const num = (s) => s.replace(/ \(.*$/, '').replace(/,/g, '');
  for (const [name, total, self] of rows) console.log(name + ' ' + num(total) + ' ' + num(self));
  await browser.close();
})().catch((e) => { console.log('problem: ' + e.message); process.exit(1); });
