// The crossmem extension's service worker.
//
// 1. The bridge: a WebSocket to crossmem serve (ws://127.0.0.1:PORT/ws, the
//    token as the subprotocol "token.<token>" beside "crossmem.v1"). Each
//    message {type: "command", id, action, params, agentId, tabId} runs one
//    of the named actions below and is answered {type: "result", id, ok,
//    result | error}. crossmem serve has already checked the action, its
//    parameters and that the tab is the agent's; the checks here repeat the
//    ones that guard the browser (URL schemes, a tab for tab actions). There
//    is no script or eval action: page functions are fixed, and selectors
//    and text reach them as arguments, never as code.
// 2. "Save to crossmem" (the toolbar button): the PDF of the tab (fetched
//    with the browser's logins), or the arXiv id or DOI of a landing page,
//    sent to POST /capture, which runs crossmem capture.
"use strict";

const DEFAULT_PORT = 7600;
const KEEPALIVE_MS = 20000; // a WebSocket message every 20 s keeps the worker alive (Chrome 116+)
let ws = null;
let backoff = 500;
let keepalive = null;
let connectedPort = 0;

async function settings() {
  const s = await chrome.storage.local.get(["token", "port"]);
  return { token: s.token || "", port: s.port || DEFAULT_PORT };
}

async function connect() {
  const { token, port } = await settings();
  if (!token) return;
  if (ws && (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING)) {
    if (connectedPort === port) return;
    ws.close();
  }
  let sock;
  try {
    sock = new WebSocket(`ws://127.0.0.1:${port}/ws`, ["crossmem.v1", "token." + token]);
  } catch (e) {
    return;
  }
  ws = sock;
  connectedPort = port;
  sock.onopen = () => {
    backoff = 500;
    sock.send(JSON.stringify({ type: "hello", result: { version: chrome.runtime.getManifest().version } }));
    clearInterval(keepalive);
    keepalive = setInterval(() => sock.readyState === WebSocket.OPEN && sock.send('{"type":"keepalive"}'), KEEPALIVE_MS);
  };
  sock.onmessage = (ev) => onMessage(sock, ev.data);
  sock.onclose = () => {
    clearInterval(keepalive);
    if (ws === sock) {
      ws = null;
      setTimeout(connect, backoff);
      backoff = Math.min(backoff * 2, 30000);
    }
  };
}

async function onMessage(sock, data) {
  let m;
  try {
    m = JSON.parse(data);
  } catch {
    return;
  }
  if (m.type !== "command") return;
  let reply;
  try {
    const result = await runAction(m.action, m.params || {}, m.tabId || 0);
    reply = { type: "result", id: m.id, ok: true, result };
  } catch (e) {
    reply = { type: "result", id: m.id, ok: false, error: String(e && e.message ? e.message : e) };
  }
  if (sock.readyState === WebSocket.OPEN) sock.send(JSON.stringify(reply));
}

function checkURL(url) {
  let u;
  try {
    u = new URL(url);
  } catch {
    throw new Error("not a URL");
  }
  if (u.protocol !== "http:" && u.protocol !== "https:") throw new Error("only http and https URLs");
  return u.href;
}

function needTab(tabId) {
  if (!Number.isInteger(tabId) || tabId <= 0) throw new Error("no tab given");
  return tabId;
}

// inPage runs one of the fixed page functions in the tab with args.
async function inPage(tabId, func, ...args) {
  const [res] = await chrome.scripting.executeScript({ target: { tabId: needTab(tabId) }, func, args });
  const out = res && res.result;
  if (out && out.error) throw new Error(out.error);
  return out;
}

function waitComplete(tabId, timeoutMs) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      chrome.tabs.onUpdated.removeListener(listener);
      reject(new Error("the page did not finish loading in time"));
    }, timeoutMs);
    function listener(id, info, tab) {
      if (id === tabId && info.status === "complete") {
        clearTimeout(timer);
        chrome.tabs.onUpdated.removeListener(listener);
        resolve(tab);
      }
    }
    chrome.tabs.onUpdated.addListener(listener);
  });
}

// The page functions: self-contained, run in the page's isolated world.
function pageClick(sel) {
  const el = document.querySelector(sel);
  if (!el) return { error: "no element matches the selector" };
  el.click();
  return { clicked: true, tag: el.tagName.toLowerCase() };
}

function pageType(sel, text) {
  const el = document.querySelector(sel);
  if (!el) return { error: "no element matches the selector" };
  el.focus();
  if ("value" in el) {
    el.value = text;
    el.dispatchEvent(new Event("input", { bubbles: true }));
    el.dispatchEvent(new Event("change", { bubbles: true }));
  } else if (el.isContentEditable) {
    el.textContent = text;
    el.dispatchEvent(new Event("input", { bubbles: true }));
  } else {
    return { error: "the element does not take text" };
  }
  return { typed: text.length };
}

function pageWait(sel, ms) {
  return new Promise((resolve) => {
    const t0 = Date.now();
    const tick = () => {
      if (document.querySelector(sel)) return resolve({ found: true, waited_ms: Date.now() - t0 });
      if (Date.now() - t0 >= ms) return resolve({ error: `no element matched within ${ms} ms` });
      setTimeout(tick, 50);
    };
    tick();
  });
}

function pageExtract(sel, max) {
  const el = sel ? document.querySelector(sel) : document.body;
  if (!el) return { error: "no element matches the selector" };
  const text = el.innerText || el.textContent || "";
  return { text: text.slice(0, max), truncated: text.length > max, title: document.title, url: location.href };
}

function pageSummary() {
  const meta = (name) => {
    const m = document.querySelector(`meta[name="${name}"], meta[property="${name}"]`);
    return m ? m.content : "";
  };
  const headings = [...document.querySelectorAll("h1, h2, h3")].slice(0, 50).map((h) => ({ level: Number(h.tagName[1]), text: h.innerText.trim().slice(0, 300) }));
  return {
    title: document.title, url: location.href, description: meta("description") || meta("og:description"),
    headings, text: (document.body ? document.body.innerText : "").slice(0, 2000),
    citation: { title: meta("citation_title"), doi: meta("citation_doi") || meta("dc.identifier"), pdf_url: meta("citation_pdf_url"), arxiv_id: meta("citation_arxiv_id") },
  };
}

function pageCitationMeta() {
  const meta = (name) => {
    const m = document.querySelector(`meta[name="${name}" i]`);
    return m ? m.content.trim() : "";
  };
  let pdf = meta("citation_pdf_url");
  if (pdf) {
    try {
      pdf = new URL(pdf, location.href).href;
    } catch {
      pdf = "";
    }
  }
  return { pdf, doi: meta("citation_doi") || meta("dc.identifier").replace(/^doi:/i, ""), arxiv: meta("citation_arxiv_id") };
}

function base64(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

// fetchPDF fetches url with the browser's cookies; only a PDF (%PDF-) of
// at most max bytes is returned.
async function fetchPDF(url, max) {
  const res = await fetch(checkURL(url), { credentials: "include", redirect: "follow", cache: "no-store" });
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  const len = Number(res.headers.get("content-length") || 0);
  if (len > max) throw new Error(`the PDF is ${len} bytes; at most ${max}`);
  const bytes = new Uint8Array(await res.arrayBuffer());
  if (bytes.length > max) throw new Error(`the PDF is ${bytes.length} bytes; at most ${max}`);
  const magic = String.fromCharCode(...bytes.subarray(0, 5));
  if (magic !== "%PDF-") throw new Error(`${url} is not a PDF (${res.headers.get("content-type") || "no type"})`);
  return { url: res.url, contentType: res.headers.get("content-type") || "", bytes };
}

async function runAction(action, p, tabId) {
  switch (action) {
    case "ping":
      return { pong: true, time: Date.now() };
    case "navigate": {
      const url = checkURL(p.url);
      let tab;
      if (tabId) {
        tab = await chrome.tabs.update(tabId, { url });
      } else {
        tab = await chrome.tabs.create({ url, active: false });
      }
      const done = await waitComplete(tab.id, 30000).catch((e) => ({ error: e.message }));
      const t = await chrome.tabs.get(tab.id);
      return { tabId: t.id, url: t.url, title: t.title, loaded: !done.error };
    }
    case "click":
      return inPage(tabId, pageClick, String(p.selector));
    case "type":
      return inPage(tabId, pageType, String(p.selector), String(p.text || ""));
    case "wait":
      if (p.selector) return inPage(tabId, pageWait, String(p.selector), Math.min(Number(p.ms) || 10000, 30000));
      await new Promise((r) => setTimeout(r, Math.min(Number(p.ms) || 0, 30000)));
      return { waited_ms: Number(p.ms) || 0 };
    case "extract":
      return inPage(tabId, pageExtract, p.selector ? String(p.selector) : "", Math.min(Number(p.max_chars) || 100000, 1000000));
    case "summarize":
      return inPage(tabId, pageSummary);
    case "screenshot": {
      const tab = await chrome.tabs.update(needTab(tabId), { active: true });
      const format = p.format === "jpeg" ? "jpeg" : "png";
      const opts = format === "jpeg" ? { format, quality: Math.max(1, Math.min(100, Number(p.quality) || 80)) } : { format };
      const dataUrl = await chrome.tabs.captureVisibleTab(tab.windowId, opts);
      return { format, data_url: dataUrl };
    }
    case "tab_info": {
      const t = await chrome.tabs.get(needTab(tabId));
      return { tabId: t.id, url: t.url, title: t.title, status: t.status, active: t.active };
    }
    case "fetch_pdf": {
      const got = await fetchPDF(p.url, Math.min(Number(p.max_bytes) || 100 << 20, 100 << 20));
      return { url: got.url, content_type: got.contentType, bytes: got.bytes.length, data_base64: base64(got.bytes) };
    }
    case "dialog_response":
      throw new Error("no dialog is open on this tab (this extension does not intercept page dialogs)");
    default:
      throw new Error(`unknown action ${JSON.stringify(action)}`);
  }
}

// saveTab is "Save to crossmem" for one tab: an arXiv page by its address;
// otherwise the PDF the page names (citation_pdf_url) or the tab's own
// address when that is a PDF, fetched with the browser's logins and sent
// as bytes; otherwise the page's DOI. It resolves to /capture's answer
// ({cite_key, existing, pdf, sidecar, …}).
async function saveTab(tabId) {
  const { token, port } = await settings();
  if (!token) throw new Error("not paired with crossmem serve: open the extension's options and type the pairing code");
  const tab = await chrome.tabs.get(tabId);
  const url = tab.url || tab.pendingUrl || "";
  const endpoint = `http://127.0.0.1:${port}/capture`;
  const auth = { Authorization: "Bearer " + token };
  let meta = {};
  try {
    meta = (await inPage(tabId, pageCitationMeta)) || {};
  } catch {
    // A PDF tab, or a page scripts may not run in: no meta tags.
  }
  let req = null;
  if (/^https?:\/\/(www\.)?arxiv\.org\/(abs|pdf)\//i.test(url)) {
    req = { headers: { ...auth, "Content-Type": "application/json" }, body: JSON.stringify({ identifier: url }) };
  } else {
    for (const candidate of [meta.pdf, url]) {
      if (!candidate || !/^https?:/i.test(candidate)) continue;
      try {
        const got = await fetchPDF(candidate, 100 << 20);
        const headers = { ...auth, "Content-Type": "application/pdf", "X-Crossmem-Source-URL": got.url };
        if (meta.doi) headers["X-Crossmem-DOI"] = meta.doi;
        req = { headers, body: got.bytes };
        break;
      } catch {
        // not a PDF, or not reachable: the next candidate
      }
    }
    if (!req && (meta.doi || meta.arxiv)) {
      req = { headers: { ...auth, "Content-Type": "application/json" }, body: JSON.stringify({ identifier: meta.arxiv || meta.doi }) };
    }
  }
  if (!req) throw new Error("this page is not a PDF and names no PDF, DOI or arXiv id");
  const res = await fetch(endpoint, { method: "POST", headers: req.headers, body: req.body });
  const text = await res.text();
  let out;
  try {
    out = JSON.parse(text);
  } catch {
    out = { error: text.trim() };
  }
  if (!res.ok) throw new Error(out.error || `crossmem serve answered ${res.status}`);
  await chrome.storage.local.set({ lastCapture: { ...out, url, at: Date.now() } });
  return out;
}

async function saveFromButton(tab) {
  try {
    const out = await saveTab(tab.id);
    await chrome.action.setBadgeText({ tabId: tab.id, text: "✓" });
    await chrome.action.setTitle({ tabId: tab.id, title: `Saved to crossmem as ${out.cite_key}${out.existing ? " (already captured)" : ""}` });
  } catch (e) {
    await chrome.action.setBadgeText({ tabId: tab.id, text: "!" });
    await chrome.action.setTitle({ tabId: tab.id, title: `Save to crossmem failed: ${e.message}` });
    await chrome.storage.local.set({ lastCapture: { error: e.message, at: Date.now() } });
  }
}

chrome.action.onClicked.addListener(saveFromButton);
chrome.storage.onChanged.addListener((changes, area) => {
  if (area === "local" && (changes.token || changes.port)) connect();
});
chrome.runtime.onMessage.addListener((msg, sender, sendResponse) => {
  if (sender.id !== chrome.runtime.id) return false;
  if (msg && msg.type === "connect") {
    connect().then(() => sendResponse({ ok: true }));
    return true;
  }
  if (msg && msg.type === "status") {
    sendResponse({ connected: !!ws && ws.readyState === WebSocket.OPEN, port: connectedPort });
    return false;
  }
  return false;
});
chrome.runtime.onStartup.addListener(connect);
chrome.runtime.onInstalled.addListener(connect);
connect();

// For the end-to-end test and the console: the same function as the button.
self.crossmemSaveTab = saveTab;
