// A multimodal agent looks at the figure it cites: `crossmem mcp serve`,
// spoken to by the official MCP TypeScript client
// (@modelcontextprotocol/sdk), recalls a figure by words of its caption
// with type "figure" and images: true, and must get the figure's crop as
// MCP image content (a PNG) next to the text, and the hit's image path in
// the structured result; then reads that chunk with crossmem_read and
// images: true, and must get the crop again as image content and the
// chunk's image path.
//
// Usage: node figure.mjs <crossmem-binary> <cite_key> <query>
//
// The server gets this process's environment (CROSSMEM_HOME and friends
// name the library under test, where <cite_key> is compiled). Prints one
// JSON object: {ok, failures, hit, images: [{mimeType, bytes, sha256}],
// read: {chunk, images: [...]}}.
// Exits 0 when everything was as expected, 1 when not, 2 on a usage error
// or a crash. Run by internal/mcpserver/figure_e2e_test.go.

import { createHash } from "node:crypto";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [binary, key, query] = process.argv.slice(2);
if (!binary || !key || !query) {
  console.error("usage: node figure.mjs <crossmem-binary> <cite_key> <query>");
  process.exit(2);
}
const watchdog = setTimeout(() => {
  console.error("figure.mjs: no result after 60 s");
  process.exit(2);
}, 60_000);

const failures = [];
const expect = (cond, what) => {
  if (!cond) failures.push(what);
  return cond;
};

const env = Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== undefined));
const transport = new StdioClientTransport({ command: binary, args: ["mcp", "serve"], env, stderr: "inherit" });
const client = new Client({ name: "crossmem-figure-e2e", version: "0.0.0" });
const out = { ok: false, failures, hit: null, images: [], read: { chunk: null, images: [] } };

// pngs collects a result's image content, checking each is a PNG.
const pngs = (r, into) => {
  for (const c of r.content ?? []) {
    if (c.type !== "image") continue;
    const data = Buffer.from(c.data, "base64");
    into.push({ mimeType: c.mimeType, bytes: data.length, sha256: createHash("sha256").update(data).digest("hex") });
    expect(c.mimeType === "image/png", `image content of type ${c.mimeType}`);
    expect(data.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])), "image content is not a PNG");
  }
};
try {
  await client.connect(transport);
  const r = await client.callTool({
    name: "crossmem_recall",
    arguments: { query, cite_key: key, type: "figure", images: true, limit: 3 },
  });
  expect(r.isError !== true, "recall answered an error");
  const hits = r.structuredContent?.results ?? [];
  expect(hits.length > 0, "no figure hit");
  out.hit = hits[0] ?? null;
  expect(hits.every((h) => h.type === "figure"), "a hit that is not a figure");
  expect(typeof out.hit?.image === "string" && out.hit.image.endsWith(".png"), "the hit names no image path");
  pngs(r, out.images);
  expect(out.images.length > 0, "no image content");
  expect((r.content ?? []).some((c) => c.type === "text"), "no text content");
  // Without images: true, text only.
  const plain = await client.callTool({ name: "crossmem_recall", arguments: { query, cite_key: key, type: "figure" } });
  expect(!(plain.content ?? []).some((c) => c.type === "image"), "image content without images: true");

  // crossmem_read of the figure chunk, with images: true.
  if (out.hit?.chunk_id) {
    const read = await client.callTool({ name: "crossmem_read", arguments: { cite_key: key, chunk_id: out.hit.chunk_id, images: true } });
    expect(read.isError !== true, "read answered an error");
    out.read.chunk = read.structuredContent?.chunks?.[0] ?? null;
    expect(out.read.chunk?.type === "figure", "the chunk read is not a figure");
    expect(typeof out.read.chunk?.image === "string" && out.read.chunk.image.endsWith(".png"), "the chunk read names no image path");
    pngs(read, out.read.images);
    expect(out.read.images.length === 1, `read gave ${out.read.images.length} images, want 1`);
    expect((read.content ?? []).some((c) => c.type === "text"), "read gave no text content");
    const readPlain = await client.callTool({ name: "crossmem_read", arguments: { cite_key: key, chunk_id: out.hit.chunk_id } });
    expect(!(readPlain.content ?? []).some((c) => c.type === "image"), "read gave image content without images: true");
  }
  out.ok = failures.length === 0;
} catch (err) {
  failures.push(String(err?.stack ?? err));
} finally {
  clearTimeout(watchdog);
  await client.close().catch(() => {});
}
console.log(JSON.stringify(out));
process.exit(out.ok ? 0 : 1);
