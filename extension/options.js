// The options page: pairs the extension with crossmem serve. It sends the
// one-time code crossmem serve printed to POST /pair (from this page's
// chrome-extension:// origin, which crossmem serve then accepts on its
// WebSocket) and stores the token it answers in chrome.storage.local.
"use strict";

const statusEl = document.getElementById("status");
const portEl = document.getElementById("port");
const codeEl = document.getElementById("code");

function show(text, state) {
  statusEl.textContent = text;
  statusEl.dataset.state = state;
}

async function refresh() {
  const { token, port } = await chrome.storage.local.get(["token", "port"]);
  if (port) portEl.value = port;
  if (!token) {
    show("Not paired.", "unpaired");
    return;
  }
  const st = await chrome.runtime.sendMessage({ type: "status" }).catch(() => null);
  show(st && st.connected ? `Paired and connected to crossmem serve on port ${st.port}.` : "Paired; crossmem serve is not reachable (is it running?).",
    st && st.connected ? "connected" : "paired");
}

document.getElementById("pair").addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const port = Number(portEl.value) || 7600;
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    show("The port must be a number from 1 to 65535.", "error");
    return;
  }
  show("Pairing…", "pairing");
  let res, body;
  try {
    res = await fetch(`http://127.0.0.1:${port}/pair`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ code: codeEl.value.trim() }),
    });
    body = await res.text();
  } catch (e) {
    show(`crossmem serve does not answer on port ${port}: start it (crossmem serve) and try again.`, "error");
    return;
  }
  if (!res.ok) {
    show(`Pairing refused: ${body.trim()}`, "error");
    return;
  }
  const { token } = JSON.parse(body);
  if (!/^[0-9a-f]{64}$/.test(token || "")) {
    show("crossmem serve answered without a token.", "error");
    return;
  }
  await chrome.storage.local.set({ token, port });
  codeEl.value = "";
  await chrome.runtime.sendMessage({ type: "connect" }).catch(() => null);
  for (let i = 0; i < 50; i++) {
    const st = await chrome.runtime.sendMessage({ type: "status" }).catch(() => null);
    if (st && st.connected) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  await refresh();
});

refresh();
