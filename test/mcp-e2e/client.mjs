// End-to-end check of `crossmem mcp serve` with the official MCP TypeScript
// client (@modelcontextprotocol/sdk): spawn the server over stdio, list its
// tools and call them the way an agent would.
//
// Usage: node client.mjs <crossmem-binary> [cite_key] [query]
//
// The server gets this process's environment (set CROSSMEM_HOME,
// CROSSMEM_CONFIG, CROSSMEM_CACHE to the library under test). cite_key
// (default chang2023citesee) must be a compiled note of that library and
// query (default a phrase of that paper) must find it.
//
// Prints one JSON object with what was observed on stdout. Exits 0 when
// everything was as expected, 1 when something was not (the object's
// "failures" says what), 2 on a usage error or a crash.
//
// Run by internal/mcpserver/e2e_test.go; needs `npm ci` in this folder.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [binary, citeKey = "chang2023citesee", query = "connects the current paper to familiar contexts by surfacing known citations"] =
  process.argv.slice(2);
if (!binary) {
  console.error("usage: node client.mjs <crossmem-binary> [cite_key] [query]");
  process.exit(2);
}

const TIMEOUT_MS = 30_000;
const watchdog = setTimeout(() => {
  console.error(`client.mjs: no result after ${TIMEOUT_MS} ms`);
  process.exit(2);
}, TIMEOUT_MS);

const failures = [];
function expect(cond, what) {
  if (!cond) failures.push(what);
  return cond;
}

// textOf returns the concatenated text content of a tool result.
function textOf(result) {
  return (result.content ?? [])
    .filter((c) => c.type === "text")
    .map((c) => c.text)
    .join("\n");
}

function summary(result) {
  return {
    isError: result.isError === true,
    text: textOf(result),
    structuredContent: result.structuredContent ?? null,
  };
}

// An unknown key that the fuzzy matcher should relate to citeKey: its
// author-and-year prefix (e.g. "chang2023" for "chang2023citesee").
const unknownKey = (citeKey.match(/^[a-z]+\d{4}/) ?? [citeKey.slice(0, -2)])[0];
const noResultsQuery = "zzqqxx";

const env = Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== undefined));
const transport = new StdioClientTransport({ command: binary, args: ["mcp", "serve"], env, stderr: "inherit" });
const client = new Client({ name: "crossmem-mcp-e2e", version: "0.0.0" });

const observed = { ok: false, cite_key: citeKey, query, failures };
try {
  await client.connect(transport); // initialize + notifications/initialized

  const server = client.getServerVersion();
  observed.server = server ?? null;
  observed.protocol_capabilities = client.getServerCapabilities() ?? null;
  expect(server?.name === "crossmem", `server name: got ${JSON.stringify(server?.name)}, want "crossmem"`);
  expect(Boolean(observed.protocol_capabilities?.tools), "server does not advertise the tools capability");

  const { tools } = await client.listTools();
  observed.tools = tools.map((t) => ({
    name: t.name,
    required: t.inputSchema?.required ?? [],
    properties: t.inputSchema?.properties ?? {},
    has_output_schema: Boolean(t.outputSchema),
  }));
  const names = tools.map((t) => t.name).sort();
  expect(
    JSON.stringify(names) === JSON.stringify(["crossmem_check_draft", "crossmem_cite", "crossmem_recall", "crossmem_verify_quote"]),
    `tools/list: got ${JSON.stringify(names)}, want crossmem_check_draft, crossmem_cite, crossmem_recall, crossmem_verify_quote`,
  );
  const cite = tools.find((t) => t.name === "crossmem_cite");
  const recall = tools.find((t) => t.name === "crossmem_recall");
  expect(JSON.stringify(cite?.inputSchema?.required) === '["cite_key"]', "crossmem_cite: cite_key should be the only required argument");
  expect(cite?.inputSchema?.properties?.format?.default === "bibtex", "crossmem_cite: format should default to bibtex");
  expect(JSON.stringify(recall?.inputSchema?.required) === '["query"]', "crossmem_recall: query should be the only required argument");
  expect(recall?.inputSchema?.properties?.limit?.default === 5, "crossmem_recall: limit should default to 5");

  // The client validates structuredContent against each tool's outputSchema
  // (listed above): a mismatch makes callTool throw.
  observed.cite = {};
  for (const format of ["apa", "bibtex"]) {
    const res = summary(await client.callTool({ name: "crossmem_cite", arguments: { cite_key: citeKey, format } }));
    observed.cite[format] = res;
    expect(!res.isError, `crossmem_cite ${format}: isError: ${res.text}`);
    expect(res.text.trim() !== "" && !res.text.startsWith("Error:"), `crossmem_cite ${format}: empty or error text: ${res.text}`);
    expect(res.structuredContent?.citation === res.text, `crossmem_cite ${format}: structuredContent.citation differs from the text`);
  }
  expect(observed.cite.bibtex.text.startsWith("@"), `crossmem_cite bibtex: does not start with "@": ${observed.cite.bibtex.text}`);
  expect(observed.cite.bibtex.text.includes(`{${citeKey},`), `crossmem_cite bibtex: entry key is not ${citeKey}`);
  const byDefault = summary(await client.callTool({ name: "crossmem_cite", arguments: { cite_key: citeKey } }));
  observed.cite.default = byDefault;
  expect(byDefault.text === observed.cite.bibtex.text, "crossmem_cite without format: not the BibTeX citation");

  const rec = summary(await client.callTool({ name: "crossmem_recall", arguments: { query, limit: 3 } }));
  observed.recall = rec;
  expect(!rec.isError, `crossmem_recall: isError: ${rec.text}`);
  expect(rec.text.startsWith(`1. [${citeKey}] `), `crossmem_recall: first result is not [${citeKey}]: ${rec.text.slice(0, 200)}`);
  expect(/^ {3}link: file:\/\/\//m.test(rec.text), "crossmem_recall: no file:/// link line");
  const results = rec.structuredContent?.results ?? [];
  expect(results.length >= 1 && results.length <= 3, `crossmem_recall limit 3: got ${results.length} structured results`);

  // The query is verbatim text of citeKey's paper: verified there.
  const vq = summary(await client.callTool({ name: "crossmem_verify_quote", arguments: { quote: query, cite_key: citeKey } }));
  observed.verify_quote = vq;
  expect(!vq.isError, `crossmem_verify_quote: isError: ${vq.text}`);
  expect(vq.structuredContent?.status === "verified", `crossmem_verify_quote: status ${vq.structuredContent?.status}, want verified: ${vq.text}`);
  expect(vq.structuredContent?.source?.cite_key === citeKey, `crossmem_verify_quote: source is not ${citeKey}`);
  const chunk = vq.structuredContent?.source?.chunks?.[0];
  expect(/^[0-9a-f]{64}$/.test(chunk?.text_sha256 ?? "") && chunk?.page >= 1 && chunk?.bbox?.length === 4,
    `crossmem_verify_quote: source chunk without provenance: ${JSON.stringify(chunk)}`);

  const draftText = `As \\citet{${citeKey}} write, \`\`${query}''.\n` +
    `It is \`\`${query.split(" ").reverse().join(" ")}'' \\citep{${unknownKey}}.\n`;
  const cd = summary(await client.callTool({ name: "crossmem_check_draft", arguments: { draft: draftText, format: "latex" } }));
  observed.check_draft = cd;
  expect(!cd.isError, `crossmem_check_draft: isError: ${cd.text}`);
  const statuses = (cd.structuredContent?.quotations ?? []).map((q) => q.status);
  expect(JSON.stringify(statuses) === '["verified","unverified"]', `crossmem_check_draft: quotation statuses ${JSON.stringify(statuses)}, want verified, unverified`);
  // citeKey is ok, or metadata-warning when captured offline (its record
  // then says the metadata sources could not be reached).
  const keyStatuses = (cd.structuredContent?.citations ?? []).map((c) => `${c.key}:${c.status}`);
  expect(
    keyStatuses.length === 2 && [`${citeKey}:ok`, `${citeKey}:metadata-warning`].includes(keyStatuses[0]) && keyStatuses[1] === `${unknownKey}:unknown`,
    `crossmem_check_draft: cite keys ${JSON.stringify(keyStatuses)}, want ${citeKey} ok or metadata-warning, ${unknownKey} unknown`,
  );
  expect(cd.structuredContent?.ok === false, "crossmem_check_draft: ok should be false");

  const unknown = summary(await client.callTool({ name: "crossmem_cite", arguments: { cite_key: unknownKey } }));
  observed.unknown_key = { cite_key: unknownKey, ...unknown };
  expect(unknown.isError, `crossmem_cite '${unknownKey}': isError not set`);
  expect(
    unknown.text.startsWith(`Error: cite_key '${unknownKey}' not found. Did you mean:`),
    `crossmem_cite '${unknownKey}': unexpected text: ${unknown.text}`,
  );
  expect(unknown.text.includes(`\n- ${citeKey} — `), `crossmem_cite '${unknownKey}': ${citeKey} not suggested`);

  const none = summary(await client.callTool({ name: "crossmem_recall", arguments: { query: noResultsQuery } }));
  observed.no_results = { query: noResultsQuery, ...none };
  expect(!none.isError, "crossmem_recall with no results: isError set");
  expect(none.text === `No results for query: '${noResultsQuery}'`, `crossmem_recall with no results: unexpected text: ${none.text}`);
  expect(JSON.stringify(none.structuredContent?.results) === "[]", "crossmem_recall with no results: structured results not []");
} catch (err) {
  failures.push(`exception: ${err?.stack ?? err}`);
} finally {
  // Closing the client ends stdin after every reply arrived (go-sdk#1061:
  // a reply to a request sent just before stdin closes can be lost).
  await client.close().catch((err) => failures.push(`close: ${err}`));
}

clearTimeout(watchdog);
observed.ok = failures.length === 0;
process.stdout.write(JSON.stringify(observed, null, 2) + "\n");
process.exitCode = observed.ok ? 0 : 1;
