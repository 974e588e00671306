// End-to-end agent scenario for `crossmem mcp serve` with the official MCP
// TypeScript client (@modelcontextprotocol/sdk): spawn the server over
// stdio and work the way an agent writing a paper would.
//
//  1. list the tools (annotations, schemas) and the papers;
//  2. recall a passage, read its chunk in full (verbatim text, provenance,
//     printed page, neighbours), quote a sentence of it in a LaTeX and a
//     markdown draft with a page locator and a provenance comment;
//  3. check both drafts (ok), verify the quotation with and without a key,
//     cite the paper, and write the bibliography with `crossmem bib`;
//  4. edit the note by hand as the issue describes ("not without their
//     limi-" becomes "entirely without limi-"), and ask again: the edited
//     text is never verified, repaired or returned as a source, and every
//     answer says why.
//
// Usage: node client.mjs <crossmem-binary> <workdir>
//
// The server gets this process's environment (set CROSSMEM_HOME,
// CROSSMEM_CONFIG, CROSSMEM_CACHE to the library under test); the library
// must hold lo2020s2orc (pm_2020.acl-main.447.pdf) and chang2023citesee
// (pm_2302.07302v1.pdf), both compiled. Drafts and the bibliography are
// written to <workdir>.
//
// Prints one JSON object with what was observed on stdout. Exits 0 when
// everything was as expected, 1 when something was not (the object's
// "failures" says what), 2 on a usage error or a crash.
//
// Run by internal/mcpserver/e2e_test.go; needs `npm ci` in this folder.

import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";

const [binary, workdir] = process.argv.slice(2);
if (!binary || !workdir) {
  console.error("usage: node client.mjs <crossmem-binary> <workdir>");
  process.exit(2);
}

const KEY = "lo2020s2orc";
const OTHER = "chang2023citesee";
const SENTENCE = "Yet, existing corpora are not without their limitations.";
const EDITED_SENTENCE = "Yet, existing corpora are entirely without limitations.";

const TIMEOUT_MS = 90_000;
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

const env = Object.fromEntries(Object.entries(process.env).filter(([, v]) => v !== undefined));
const transport = new StdioClientTransport({ command: binary, args: ["mcp", "serve"], env, stderr: "inherit" });
const client = new Client({ name: "crossmem-mcp-e2e", version: "0.0.0" });

// call calls a tool and returns {isError, text, structuredContent}. The
// client validates structuredContent against the tool's outputSchema: a
// mismatch makes callTool throw.
async function call(name, args) {
  const r = await client.callTool({ name, arguments: args });
  return { isError: r.isError === true, text: textOf(r), structuredContent: r.structuredContent ?? null };
}

const observed = { ok: false, failures, steps: {} };
const step = (name, value) => {
  observed.steps[name] = value;
  return value;
};

try {
  await client.connect(transport); // initialize + notifications/initialized

  const server = client.getServerVersion();
  expect(server?.name === "crossmem", `server name: got ${JSON.stringify(server?.name)}, want "crossmem"`);
  const instructions = client.getInstructions() ?? "";
  step("instructions", instructions);
  expect(instructions.includes(`library at ${process.env.CROSSMEM_HOME}: 2 paper(s), 2 compiled`),
    `instructions do not state the library and its papers: ${instructions}`);

  // 1. The tools and their annotations.
  const { tools } = await client.listTools();
  step("tools", tools.map((t) => ({ name: t.name, annotations: t.annotations, required: t.inputSchema?.required ?? [] })));
  const names = tools.map((t) => t.name).sort();
  const want = ["crossmem_check_draft", "crossmem_cite", "crossmem_list", "crossmem_read", "crossmem_recall", "crossmem_verify_quote"];
  expect(JSON.stringify(names) === JSON.stringify(want), `tools/list: got ${JSON.stringify(names)}, want ${JSON.stringify(want)}`);
  for (const t of tools) {
    const a = t.annotations ?? {};
    expect(a.readOnlyHint === true && a.idempotentHint === true && a.openWorldHint === false && a.destructiveHint === false && a.title,
      `${t.name}: annotations ${JSON.stringify(a)}, want title, readOnlyHint, idempotentHint, destructiveHint false, openWorldHint false`);
    expect(Boolean(t.outputSchema), `${t.name}: no outputSchema`);
  }

  const list = step("list", await call("crossmem_list", {}));
  const keys = (list.structuredContent?.papers ?? []).map((p) => p.cite_key);
  expect(!list.isError && keys.includes(KEY) && keys.includes(OTHER), `crossmem_list: ${list.text}`);

  // 2. Recall, read the whole chunk, quote it.
  const rec = step("recall", await call("crossmem_recall", { query: "limitations of existing corpora", cite_key: KEY, limit: 5 }));
  const hits = rec.structuredContent?.results ?? [];
  const hit = hits.find((h) => h.excerpt.includes("without their limi"));
  expect(!rec.isError && hit, `crossmem_recall: no hit with the sentence: ${rec.text.slice(0, 400)}`);
  const chunkId = hit?.chunk_id;

  const read = step("read", await call("crossmem_read", { cite_key: KEY, chunk_id: chunkId }));
  const ch = read.structuredContent?.chunks?.[0];
  expect(!read.isError && read.structuredContent?.cite_key === KEY && read.structuredContent?.chunks?.length === 1,
    `crossmem_read ${chunkId}: ${read.text.slice(0, 300)}`);
  expect(ch?.text?.includes("not without their limi-\ntations"), `crossmem_read: the verbatim text keeps the PDF's lines: ${JSON.stringify(ch?.text)}`);
  expect(ch?.reading?.startsWith(SENTENCE), `crossmem_read: reading does not start with the sentence: ${JSON.stringify(ch?.reading)}`);
  expect(/^[0-9a-f]{64}$/.test(ch?.text_sha256 ?? "") && ch?.page === 2 && ch?.printed_page === "4970" && ch?.bbox?.length === 4 && ch?.type === "paragraph",
    `crossmem_read: provenance ${JSON.stringify({ ...ch, text: undefined, reading: undefined })}`);
  expect(read.structuredContent?.previous?.chunk_id && read.structuredContent?.next?.chunk_id, "crossmem_read: no previous or next chunk");
  expect(!("viewer_url" in (ch ?? {})) || typeof ch.viewer_url === "string", "crossmem_read: viewer_url not a string");

  // The printed page (a footer's number here: the PDF declares no page
  // labels) reads the same page.
  const byLabel = step("read_page_label", await call("crossmem_read", { cite_key: KEY, page_label: ch?.printed_page ?? "4970" }));
  expect(!byLabel.isError && (byLabel.structuredContent?.chunks ?? []).some((c) => c.chunk_id === chunkId && c.page === 2),
    `crossmem_read page_label ${ch?.printed_page}: ${byLabel.text.slice(0, 300)}`);

  // The agent quotes the first sentence of the reading, with the printed
  // page and the chunk's provenance.
  const quote = ch?.reading?.slice(0, SENTENCE.length) ?? SENTENCE;
  const page = ch?.printed_page ?? "4970";
  const sha = (ch?.text_sha256 ?? "").slice(0, 12);
  const latex = `\\section{Related work}\nCorpora have limits: \`\`${quote}'' \\citep[p.~${page}]{${KEY}}\n% crossmem: ${KEY} ${chunkId} sha256=${sha}\n`;
  const markdown = `# Related work\n\nCorpora have limits: "${quote}" [@${KEY}, p. ${page}]\n<!-- crossmem: ${KEY} ${chunkId} sha256=${sha} -->\n`;
  writeFileSync(join(workdir, "draft.tex"), latex);
  writeFileSync(join(workdir, "draft.md"), markdown);

  // 3. Check, verify, cite, bib.
  for (const [format, draft] of [["latex", latex], ["markdown", markdown]]) {
    const cd = step(`check_${format}`, await call("crossmem_check_draft", { draft, format }));
    const q = cd.structuredContent?.quotations ?? [];
    expect(!cd.isError && cd.structuredContent?.ok === true, `crossmem_check_draft ${format}: not ok: ${cd.text}`);
    expect(q.length === 1 && q[0].status === "verified" && q[0].page?.ok === true && q[0].source?.chunks?.[0]?.chunk_id === chunkId && !(q[0].notes ?? []).length,
      `crossmem_check_draft ${format}: quotations ${JSON.stringify(q)}`);
    // The offline capture's metadata warning is reported, not failing.
    expect(cd.structuredContent?.citations?.[0]?.status === "metadata-warning", `crossmem_check_draft ${format}: citation ${JSON.stringify(cd.structuredContent?.citations)}`);
    const strict = await call("crossmem_check_draft", { draft, format, strict: true });
    expect(strict.structuredContent?.ok === false && strict.structuredContent?.strict === true, `crossmem_check_draft ${format} strict: ${strict.text}`);
  }
  const wrong = step("check_wrong_page", await call("crossmem_check_draft", { draft: latex.replace(`p.~${page}`, "p.~11"), format: "latex" }));
  expect(wrong.structuredContent?.ok === false && wrong.structuredContent?.quotations?.[0]?.status === "wrong-page" &&
    wrong.text.includes("the citation says p.~11, but the quotation is on p. 4970"), `wrong page locator: ${wrong.text}`);

  const vq = step("verify_quote", await call("crossmem_verify_quote", { quote, cite_key: KEY, page }));
  expect(vq.structuredContent?.status === "verified" && vq.structuredContent?.source?.chunks?.[0]?.text_sha256 === ch?.text_sha256,
    `crossmem_verify_quote: ${vq.text}`);
  const broken = step("verify_broken_word", await call("crossmem_verify_quote", { quote: quote.replace("limitations", "limi- tations"), cite_key: KEY }));
  expect(broken.structuredContent?.status === "repaired" && broken.structuredContent?.source?.text === SENTENCE,
    `crossmem_verify_quote "limi- tations": want repaired with the pasteable ${JSON.stringify(SENTENCE)}: ${broken.text}`);
  const where = step("verify_where", await call("crossmem_verify_quote", { quote }));
  expect(where.structuredContent?.status === "verified" && where.structuredContent?.source?.cite_key === KEY, `crossmem_verify_quote without a key: ${where.text}`);

  const cite = step("cite", await call("crossmem_cite", { cite_key: KEY }));
  expect(!cite.isError && cite.text.startsWith("@") && cite.text.includes(`{${KEY},`), `crossmem_cite: ${cite.text}`);
  const bibOut = join(workdir, "refs.bib");
  execFileSync(binary, ["bib", join(workdir, "draft.tex"), "-o", bibOut], { env, stdio: ["ignore", "pipe", "pipe"] });
  const bib = step("bib", readFileSync(bibOut, "utf8"));
  expect(bib.trim() === cite.text.trim(), `crossmem bib wrote ${JSON.stringify(bib)}, want the crossmem_cite entry`);

  // 4. Edit the note by hand.
  const wiki = join(process.env.CROSSMEM_HOME, "wiki");
  const noteFile = join(wiki, readdirSync(wiki).find((f) => f.endsWith(`_${KEY}.md`)));
  const note = readFileSync(noteFile, "utf8");
  expect(note.split("not without their limi-").length === 2, "the note does not hold the line to edit once");
  writeFileSync(noteFile, note.replace("not without their limi-", "entirely without limi-"));
  // The server looks for notes changed by hand at most every 2 s.
  await new Promise((r) => setTimeout(r, 2200));

  const notSource = (r, what) => {
    const s = r.structuredContent;
    expect(s?.status !== "verified" && s?.status !== "repaired" && !s?.source, `${what}: the edited text was a source: ${r.text}`);
  };
  const ve = step("after_edit_verify_edited", await call("crossmem_verify_quote", { quote: EDITED_SENTENCE, cite_key: KEY }));
  notSource(ve, "verify_quote of the edited sentence");
  expect(ve.structuredContent?.status === "unverified" && ve.structuredContent?.edited?.[0]?.chunk_id === chunkId &&
    ve.text.includes("only as edited by hand in the note") && ve.text.includes(`crossmem verify ${KEY}`),
    `verify_quote of the edited sentence does not say why: ${ve.text}`);
  const vw = step("after_edit_verify_edited_anywhere", await call("crossmem_verify_quote", { quote: EDITED_SENTENCE }));
  notSource(vw, "verify_quote of the edited sentence without a key");
  const vo = step("after_edit_verify_original", await call("crossmem_verify_quote", { quote, cite_key: KEY }));
  notSource(vo, "verify_quote of the original sentence");
  expect(vo.text.includes(`the note of ${KEY} was edited by hand`), `verify_quote of the original sentence does not say why: ${vo.text}`);

  const re = step("after_edit_recall", await call("crossmem_recall", { query: "existing corpora are entirely without limitations", limit: 20 }));
  expect(!(re.structuredContent?.results ?? []).some((h) => h.cite_key === KEY && h.chunk_id === chunkId), `recall served the edited chunk: ${re.text.slice(0, 400)}`);
  expect((re.structuredContent?.withheld ?? []).some((w) => w.chunk_id === chunkId) && re.text.includes("Withheld"), `recall does not say the chunk is withheld: ${re.text.slice(-600)}`);

  const rd = step("after_edit_read", await call("crossmem_read", { cite_key: KEY, chunk_id: chunkId }));
  expect(rd.isError && rd.text.includes("was edited by hand") && !rd.text.includes("entirely without"), `crossmem_read of the edited chunk: ${rd.text}`);
  const rp = step("after_edit_read_page", await call("crossmem_read", { cite_key: KEY, page: 2 }));
  expect(!rp.isError && !rp.text.includes("entirely without") && (rp.structuredContent?.withheld ?? []).some((w) => w.chunk_id === chunkId),
    `crossmem_read page 2 after the edit: ${rp.text.slice(0, 300)}`);

  for (const [format, draft] of [["latex", latex], ["markdown", markdown.replace(quote, EDITED_SENTENCE)]]) {
    const cd = step(`after_edit_check_${format}`, await call("crossmem_check_draft", { draft, format }));
    const q = cd.structuredContent?.quotations?.[0];
    expect(cd.structuredContent?.ok === false && q?.status === "unverified" && !q?.source, `check_draft ${format} after the edit: ${cd.text}`);
    expect((cd.structuredContent?.citations?.[0]?.edited_chunks ?? []).includes(chunkId) && cd.text.includes(`the note of ${KEY} was edited by hand`),
      `check_draft ${format} after the edit does not say the note was edited: ${cd.text}`);
  }

  // Errors are errors, with no success-shaped payload.
  for (const [name, args] of [
    ["crossmem_cite", { cite_key: "lo2020" }],
    ["crossmem_recall", { query: "corpus", cite_key: "lo2020" }],
    ["crossmem_recall", { query: "corpus", year_from: 2021, year_to: 2019 }],
    ["crossmem_read", { cite_key: KEY, page: 99 }],
  ]) {
    const r = await call(name, args);
    expect(r.isError && r.text.startsWith("Error: ") && r.structuredContent === null, `${name} ${JSON.stringify(args)}: ${JSON.stringify(r)}`);
  }
  const unknown = step("unknown_key", await call("crossmem_cite", { cite_key: "lo2020" }));
  expect(unknown.text.includes(`Did you mean:\n- ${KEY} — `), `unknown key: ${unknown.text}`);
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
