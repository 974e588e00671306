// End-to-end test of the browser bridge and the crossmem extension in a real
// browser: Debian's chromium (new headless mode, which loads unpacked
// extensions) driven by playwright-core. internal/bridge/e2e_test.go starts
// `crossmem serve`, a site and an attacker's page on two other loopback
// origins, then runs this script with BRIDGE_E2E (JSON):
//
//   mode        "e2e" (the checks below) or "hold" (pair, print
//               {"paired": true}, keep the browser until stdin closes: the
//               load benchmark, bench/bridge)
//   base        crossmem serve's URL (http://127.0.0.1:PORT)
//   token       the bridge token (the config folder's bridge-token)
//   code        the pairing code crossmem serve printed
//   chromium    the browser (/usr/bin/chromium)
//   extension   the unpacked extension's folder (extension/)
//   profile     an empty folder for the browser profile
//   page        {url, selector, text}: a page whose selector holds text
//   pdf         the URL of a PDF (Save to crossmem on its tab)
//   landing     the URL of a landing page naming that PDF (citation_pdf_url)
//   viaBrowser  {url, binary, env}: a PDF for `crossmem capture --via-browser`
//   attacker    the URL of a page on another origin that attacks the bridge
//
// It prints one JSON line {"checks": N, "failures": [...], "report": {...}}
// and exits 1 when any check failed.
import { chromium } from "playwright-core";
import { execFile } from "node:child_process";
import { promisify } from "node:util";

const cfg = JSON.parse(process.env.BRIDGE_E2E);
const failures = [];
let checks = 0;
function check(ok, what) {
  checks++;
  if (!ok) failures.push(what);
}

const context = await chromium.launchPersistentContext(cfg.profile, {
  executablePath: cfg.chromium,
  headless: true,
  ignoreDefaultArgs: ["--disable-extensions"],
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
    "--no-first-run", "--disable-sync", "--disable-dev-shm-usage",
    `--disable-extensions-except=${cfg.extension}`, `--load-extension=${cfg.extension}`],
});
const report = {};
try {
  // 1. The extension loads: its service worker runs.
  let sw = context.serviceWorkers()[0];
  if (!sw) sw = await context.waitForEvent("serviceworker", { timeout: 30000 });
  const extensionId = new URL(sw.url()).host;
  report.extensionId = extensionId;
  check(/^[a-p]{32}$/.test(extensionId), `extension id ${extensionId}`);

  // 2. Pairing: the options page takes the code crossmem serve printed.
  const options = await context.newPage();
  await options.goto(`chrome-extension://${extensionId}/options.html`);
  await options.fill("#port", new URL(cfg.base).port);
  await options.fill("#code", cfg.code);
  await options.click("#pair-button");
  await options.waitForFunction(() => ["connected", "error", "paired"].includes(document.getElementById("status").dataset.state), null, { timeout: 30000 });
  const pairState = await options.evaluate(() => [document.getElementById("status").dataset.state, document.getElementById("status").textContent]);
  check(pairState[0] === "connected", `pairing: ${pairState.join(": ")}`);

  const api = async (method, path, body, headers = {}) => {
    const res = await fetch(cfg.base + path, {
      method, headers: { Authorization: "Bearer " + cfg.token, "Content-Type": "application/json", ...headers },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    let json = null;
    const text = await res.text();
    try { json = JSON.parse(text); } catch { json = { text }; }
    return { status: res.status, json };
  };
  const status = async () => (await api("GET", "/status")).json;
  const st = await status();
  check(st.extensions === 1 && st.extension_origin === `chrome-extension://${extensionId}`, `status after pairing: ${JSON.stringify(st)}`);

  if (cfg.mode === "hold") {
    console.log(JSON.stringify({ paired: true, extensionId }));
    await new Promise((resolve) => { process.stdin.on("end", resolve); process.stdin.on("close", resolve); process.stdin.resume(); });
  } else {
    // 3. ping through the real extension.
    const ping = await api("POST", "/command", { action: "ping" });
    check(ping.status === 200 && ping.json.ok && ping.json.result.pong === true, `ping: ${JSON.stringify(ping)}`);

    // 4. navigate + extract on a page served on loopback.
    const nav = await api("POST", "/command", { action: "navigate", params: { url: cfg.page.url }, agentId: "e2e" });
    check(nav.status === 200 && nav.json.ok && nav.json.result.tabId > 0, `navigate: ${JSON.stringify(nav)}`);
    const tabId = nav.json.result?.tabId;
    const ex = await api("POST", "/command", { action: "extract", params: { selector: cfg.page.selector }, agentId: "e2e" });
    check(ex.status === 200 && ex.json.ok && ex.json.result.text === cfg.page.text, `extract: ${JSON.stringify(ex)}`);
    report.extract = ex.json.result?.text;
    const sum = await api("POST", "/command", { action: "summarize", agentId: "e2e" });
    check(sum.status === 200 && sum.json.ok && sum.json.result.title === cfg.page.title, `summarize: ${JSON.stringify(sum).slice(0, 300)}`);
    // type + click run the page's own handler: the text typed comes back.
    const typed = await api("POST", "/command", { action: "type", params: { selector: "#q", text: "verbatim" }, agentId: "e2e" });
    const clicked = await api("POST", "/command", { action: "click", params: { selector: "#go" }, agentId: "e2e" });
    const echoed = await api("POST", "/command", { action: "extract", params: { selector: "#echo" }, agentId: "e2e" });
    check(typed.json.ok && clicked.json.ok && echoed.json.result?.text === "verbatim", `type/click: ${JSON.stringify([typed.json, clicked.json, echoed.json])}`);
    const shot = await api("POST", "/command", { action: "screenshot", params: { format: "jpeg", quality: 50 }, agentId: "e2e" });
    check(shot.status === 200 && shot.json.ok && /^data:image\/jpeg;base64,/.test(shot.json.result.data_url), `screenshot: ${JSON.stringify(shot).slice(0, 300)}`);
    report.screenshotBytes = shot.json.result?.data_url?.length;
    // Another agent may not touch e2e's tab.
    const other = await api("POST", "/command", { action: "extract", params: {}, agentId: "intruder", tabId });
    check(other.status === 403, `another agent's extract on tab ${tabId}: ${JSON.stringify(other)}`);

    // 5. Save to crossmem on a PDF tab (the toolbar button's function).
    const pdfTab = await sw.evaluate(async (url) => (await chrome.tabs.create({ url, active: true })).id, cfg.pdf);
    await new Promise((r) => setTimeout(r, 500));
    const saved = await sw.evaluate((id) => self.crossmemSaveTab(id).then((r) => r, (e) => ({ error: e.message })), pdfTab);
    check(typeof saved.cite_key === "string" && saved.cite_key.length > 0 && saved.existing === false, `Save to crossmem on the PDF tab: ${JSON.stringify(saved)}`);
    report.saved = saved;
    console.error(`bridge e2e: Save to crossmem: cite_key ${saved.cite_key}`);
    // ... and on a landing page that names the same PDF: the same paper.
    const landing = await context.newPage();
    await landing.goto(cfg.landing);
    const landingTab = await sw.evaluate(async (url) => (await chrome.tabs.query({ url })).map((t) => t.id)[0], cfg.landing);
    const again = await sw.evaluate((id) => self.crossmemSaveTab(id).then((r) => r, (e) => ({ error: e.message })), landingTab);
    check(again.cite_key === saved.cite_key && again.existing === true, `Save to crossmem on the landing page: ${JSON.stringify(again)}`);
    report.landing = again;

    // 6. crossmem capture --via-browser: the extension fetches the PDF.
    if (cfg.viaBrowser) {
      try {
        const { stdout } = await promisify(execFile)(cfg.viaBrowser.binary, ["capture", "--via-browser", cfg.viaBrowser.url, "--json"], { env: cfg.viaBrowser.env, timeout: 120000 });
        const out = JSON.parse(stdout);
        check(out.cite_key && out.existing === false, `capture --via-browser: ${stdout.slice(0, 300)}`);
        report.viaBrowser = { cite_key: out.cite_key, source: out.source };
      } catch (e) {
        check(false, `capture --via-browser failed: ${e.message} ${e.stderr || ""}`);
      }
    }

    // 7. A page on another loopback origin tries to drive the bridge.
    const before = await status();
    const attacker = await context.newPage();
    await attacker.goto(cfg.attacker);
    await attacker.waitForFunction(() => window.done === true, null, { timeout: 30000 });
    const res = await attacker.evaluate(() => window.results);
    report.attacker = res;
    const after = await status();
    check(after.executed === before.executed, `the attacker's page got ${after.executed - before.executed} commands executed`);
    check(after.refused > before.refused, `the attacker's requests were not refused (${before.refused} → ${after.refused})`);
    for (const [k, v] of Object.entries(res)) check(!String(v).startsWith("read:"), `attacker ${k}: ${v}`);
    check(res.websocket !== "open", `attacker WebSocket: ${res.websocket}`);
    const tabs = await sw.evaluate(async () => (await chrome.tabs.query({})).map((t) => t.url));
    check(!tabs.some((u) => u.includes("attacker-was-here")), `the attacker opened a tab: ${tabs}`);
  }
} catch (e) {
  failures.push(`exception: ${e.stack || e}`);
} finally {
  await context.close();
}
console.log(JSON.stringify({ checks, failures, report }));
process.exit(failures.length ? 1 : 0);
