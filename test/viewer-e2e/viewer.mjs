// End-to-end test of the library viewer in a real browser: Debian's
// chromium, driven by playwright-core. internal/viewer/e2e_test.go starts
// `crossmem serve` on a compiled library and a page on a second loopback
// origin, then runs this script with VIEWER_E2E (JSON):
//
//   base        the viewer's URL (http://127.0.0.1:PORT)
//   chromium    the browser (/usr/bin/chromium)
//   artifacts   a folder for screenshots
//   search      {query, key, chunk}: a query whose hits include chunk of key
//   chunks      [{name, key, chunk, page, bbox, geometry: {width, height, rotation}}]:
//               chunks to open by their provenance link; geometry is the page's
//               CropBox size and /Rotate as poppler's pdfinfo reads them (an
//               independent reader), bbox the note's
//   attacker    the URL of a page on another origin that tries to read the viewer
//
// It prints one JSON line {"checks": N, "failures": [...]} and exits 1 when
// any check failed.
import { chromium } from "playwright-core";
import path from "node:path";

const cfg = JSON.parse(process.env.VIEWER_E2E);
const failures = [];
let checks = 0;
function check(ok, what) {
  checks++;
  if (!ok) failures.push(what);
}

const browser = await chromium.launch({
  executablePath: cfg.chromium,
  headless: true,
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--no-first-run", "--disable-sync", "--disable-dev-shm-usage"],
});

// The box where the bbox lands on the displayed page, in points from its
// top-left corner: the PDF's y axis flipped, then /Rotate applied
// clockwise. Written here from the PDF specification, not taken from
// crossmem.
function displayBox(bbox, g) {
  const [x0, y0, x1, y1] = bbox;
  const W = g.width, H = g.height;
  const at = (x, y) => {
    switch (g.rotation) {
      case 90: return [y, x];
      case 180: return [W - x, y];
      case 270: return [H - y, W - x];
      default: return [x, H - y];
    }
  };
  const [a, b] = [at(x0, y0), at(x1, y1)];
  const dispW = g.rotation % 180 ? H : W;
  return { x: Math.min(a[0], b[0]), y: Math.min(a[1], b[1]), w: Math.abs(a[0] - b[0]), h: Math.abs(a[1] - b[1]), dispW };
}

// checkHighlight asserts that the page view shows the PNG and the highlight
// at the bbox: its CSS-pixel box equals the bbox in points × the render
// scale (natural pixels per point) × the image's display scale.
async function checkHighlight(page, c) {
  await page.waitForFunction(() => {
    const i = document.getElementById("page-image");
    return i && i.complete && i.naturalWidth > 0 && document.body.dataset.scrolled === "highlight";
  }, null, { timeout: 120000 });
  const m = await page.evaluate(() => {
    const img = document.getElementById("page-image");
    const hl = document.getElementById("highlight");
    const r = img.getBoundingClientRect(), h = hl.getBoundingClientRect();
    return {
      img: { x: r.x, y: r.y, w: r.width, h: r.height }, hl: { x: h.x, y: h.y, w: h.width, h: h.height },
      natural: img.naturalWidth, naturalH: img.naturalHeight, src: img.currentSrc, vh: window.innerHeight,
      chunk: document.getElementById("chunk")?.dataset.chunk, sha: document.getElementById("chunk-sha")?.textContent,
    };
  });
  const d = displayBox(c.bbox, c.geometry);
  // The candidate the browser chose from srcset: its width in pixels (the
  // naturalWidth of a srcset image is divided by its density).
  m.pixels = Number(new URL(m.src).searchParams.get("w"));
  const renderScale = m.pixels / d.dispW; // image pixels per point
  const css = m.img.w / m.pixels; // CSS pixels per image pixel
  const want = { x: m.img.x + d.x * renderScale * css, y: m.img.y + d.y * renderScale * css, w: d.w * renderScale * css, h: d.h * renderScale * css };
  const tol = 1.5;
  const off = ["x", "y", "w", "h"].filter((k) => Math.abs(m.hl[k] - want[k]) > tol);
  check(off.length === 0, `${c.name}: highlight at ${JSON.stringify(m.hl)}, want ${JSON.stringify(want)} (render scale ${renderScale.toFixed(4)} px/pt, ${m.src})`);
  check(Math.abs(m.naturalH / m.natural - (c.geometry.rotation % 180 ? c.geometry.width / c.geometry.height : c.geometry.height / c.geometry.width)) < 0.01,
    `${c.name}: image ${m.natural}×${m.naturalH} does not have the page's shape`);
  // Scrolled into view: the highlight's centre is in the window.
  const cy = m.hl.y + m.hl.h / 2;
  check(cy >= 0 && cy <= m.vh, `${c.name}: highlight centre at y=${cy.toFixed(0)}, outside the window (height ${m.vh})`);
  check(m.chunk === c.chunk, `${c.name}: the side panel shows chunk ${m.chunk}, want ${c.chunk}`);
  check(typeof m.sha === "string" && /^[0-9a-f]{64}$/.test(m.sha), `${c.name}: no text_sha256 beside the page`);
  const shot = path.join(cfg.artifacts, `${c.name}.png`);
  await page.screenshot({ path: shot });
  return { ...m, want, renderScale, screenshot: shot };
}

const report = {};
const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 1 });
const page = await context.newPage();
// What the page did, printed on stderr when the script fails (a step that
// times out says nothing else): the steps, navigations and requests, each
// with the milliseconds since the start.
const t0 = Date.now();
const trail = [];
const note = (what) => { trail.push(`${Date.now() - t0} ms ${what}`); if (trail.length > 400) trail.shift(); };
page.on("framenavigated", (f) => { if (f === page.mainFrame()) note(`navigated ${f.url()}`); });
page.on("request", (r) => note(`request ${r.method()} ${r.url()}`));
page.on("requestfinished", (r) => note(`finished ${r.url()}`));
page.on("requestfailed", (r) => note(`failed ${r.url()}: ${r.failure()?.errorText}`));
process.on("exit", (code) => { if (code !== 0) process.stderr.write("trail:\n" + trail.join("\n") + "\n"); });
context.setDefaultTimeout(120000); // generous: CI runs this under the race detector beside the other packages on 2 cores

// 1. The library.
await page.goto(cfg.base + "/");
const keys = await page.$$eval("tr.paper", (rows) => rows.map((r) => r.dataset.key));
for (const c of cfg.chunks) check(keys.includes(c.key), `library: ${c.key} not listed (${keys})`);

// 2. Search from the box on every page.
await page.fill('input[name="q"]', cfg.search.query);
await Promise.all([page.waitForURL(/\/search\?/), page.press('input[name="q"]', "Enter")]);
const hits = await page.$$eval("li.hit", (ls) => ls.map((l) => `${l.dataset.key} ${l.dataset.chunk}`));
check(hits.includes(`${cfg.search.key} ${cfg.search.chunk}`), `search "${cfg.search.query}": ${cfg.search.key} ${cfg.search.chunk} not among ${hits}`);
report.hits = hits.length;

// 3. Open the paper from the results, then each chunk's provenance.
for (const c of cfg.chunks) {
  await page.goto(cfg.base + "/search?q=" + encodeURIComponent(cfg.search.query));
  const paperLink = page.locator(`li.hit[data-key="${c.key}"] a.key`).first();
  if (await paperLink.count()) {
    await Promise.all([page.waitForURL(/\/paper\//), paperLink.click()]);
  } else {
    await page.goto(cfg.base + "/paper/" + c.key);
  }
  check(await page.locator(`li.chunk#${c.chunk}`).count() === 1, `${c.name}: paper page lacks chunk ${c.chunk}`);
  const copies = await page.locator("button.copy").count();
  check(copies >= 1 || c.key !== cfg.search.key, `${c.name}: no copy buttons on the paper page`);
  // Click the chunk's provenance: the page view at its bbox.
  note(`step 3 ${c.name}: click the provenance of ${c.chunk}`);
  // The paper page's figure images load lazily as the chunk scrolls into
  // view and push the lines below them down when they arrive: wait for the
  // images in view to load before clicking, or the click lands where the
  // link was (CI lost this click twice, the trail showing only the images).
  const prov = page.locator(`li.chunk#${c.chunk} a.provenance`);
  await prov.scrollIntoViewIfNeeded();
  await page.waitForFunction(() => [...document.images].every((i) => {
    const r = i.getBoundingClientRect();
    return i.complete || r.bottom < 0 || r.top > window.innerHeight;
  }));
  await Promise.all([page.waitForURL(/\/pdf\//), page.locator(`li.chunk#${c.chunk} a.provenance`).click()]);
  report[c.name] = await checkHighlight(page, c);
}

// 4. The figure chunk's picture on the paper page is a real image.
const fig = cfg.chunks.find((c) => c.name === "figure");
if (fig) {
  await page.goto(cfg.base + "/paper/" + fig.key + "#" + fig.chunk);
  const img = page.locator(`li.chunk#${fig.chunk} a.figure img`);
  await img.scrollIntoViewIfNeeded();
  await page.waitForFunction((id) => { const i = document.querySelector(`li.chunk#${id} a.figure img`); return i && i.complete && i.naturalWidth > 0; }, fig.chunk);
  const w = await img.evaluate((i) => i.naturalWidth);
  check(w === 480, `figure: the caption's page image is ${w} px wide, want 480`);
}

// 5. Copy a citation: the clipboard gets the citation's text.
await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: cfg.base });
await page.goto(cfg.base + "/paper/" + cfg.chunks[0].key);
const citeText = await page.locator("#cite-0").innerText();
await page.locator('button.copy[data-copy="cite-0"]').click();
await page.waitForFunction(() => document.querySelector('button.copy[data-copy="cite-0"]').textContent !== "Copy");
const clip = await page.evaluate(() => navigator.clipboard.readText());
check(clip === citeText, `copy button: clipboard ${JSON.stringify(clip)}, want ${JSON.stringify(citeText)}`);

// 6. The image width follows the screen: 2× pixels on a 2× display.
const hidpi = await browser.newContext({ viewport: { width: 1280, height: 900 }, deviceScaleFactor: 2 });
hidpi.setDefaultTimeout(120000);
const p2 = await hidpi.newPage();
const c0 = cfg.chunks[0];
await p2.goto(`${cfg.base}/pdf/${c0.key}?chunk=${c0.chunk}`);
await p2.waitForFunction(() => { const i = document.getElementById("page-image"); return i.complete && i.naturalWidth > 0; });
const w1 = report[c0.name].pixels;
const w2 = Number(new URL(await p2.evaluate(() => document.getElementById("page-image").currentSrc)).searchParams.get("w"));
check(w1 >= 800 && w2 >= 2 * w1 - 10, `hidpi: a ${w2} px image at 2× vs ${w1} px at 1× (the sheet is ~794 CSS px wide)`);
report.widths = { "1x": w1, "2x": w2 };
await hidpi.close();

// 7. A page on a second local origin cannot read the library.
const attacker = await context.newPage();
await attacker.goto(cfg.attacker);
await attacker.waitForFunction(() => window.done === true, null, { timeout: 120000 });
const res = await attacker.evaluate(() => window.results);
// What the frame shows, read with the browser's own privileges (a page
// could not even do that): a blocked frame holds chromium's error page.
let framedText = "";
for (const f of attacker.frames()) {
  if (f !== attacker.mainFrame()) framedText += await f.evaluate(() => document.body ? document.body.innerText : "").catch(() => "");
}
res.framedText = framedText.slice(0, 200);
report.attacker = res;
check(res.corsFetch.startsWith("blocked"), `attacker: fetch read the library: ${res.corsFetch}`);
// no-cors: an opaque, empty response at best (CORP makes it a network error).
check((res.noCors === "opaque 0" || res.noCors.startsWith("blocked")) && res.noCorsBody === 0, `attacker: no-cors fetch got ${res.noCors}, ${res.noCorsBody} bytes`);
check(res.img === "blocked", `attacker: <img> of a page image: ${res.img}`);
check(!res.iframe.startsWith("readable"), `attacker: <iframe> of the paper page: ${res.iframe}`);
check(!res.framedText.includes(cfg.chunks[0].key), `attacker: the framed page showed the library`);

await browser.close();
console.log(JSON.stringify({ checks, failures, report }));
process.exit(failures.length ? 1 : 0);
