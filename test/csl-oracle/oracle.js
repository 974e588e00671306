#!/usr/bin/env node
// Renders CSL-JSON items with citeproc-js and the official CSL styles
// (the bibliography entry of each item in each style, plain text), as
// ../shared/tools/csl-oracle.js does, without the BibTeX exporters.
// usage: node oracle.js <items.json> <csl-dir>   (prints JSON: {id: {style: text}})
'use strict';
const fs = require('fs');
const path = require('path');
const CSL = require('citeproc');

const [inFile, cslDir] = process.argv.slice(2);
if (!inFile || !cslDir) { console.error('usage: node oracle.js items.json csl-dir'); process.exit(2); }
const STYLES = {
  apa: 'apa.csl',
  mla: 'modern-language-association.csl',
  'chicago-notes-bibliography-17': 'chicago-notes-bibliography-17th-edition.csl',
  'chicago-notes-bibliography-18': 'chicago-notes-bibliography.csl',
  'chicago-author-date-17': 'chicago-author-date-17th-edition.csl',
  'chicago-author-date-18': 'chicago-author-date.csl',
  ieee: 'ieee.csl',
};
const locale = fs.readFileSync(path.join(cslDir, 'locales-en-US.xml'), 'utf8');
const items = JSON.parse(fs.readFileSync(inFile, 'utf8'));
const byId = Object.fromEntries(items.map(it => [String(it.id), it]));
const out = {};
for (const [name, file] of Object.entries(STYLES)) {
  const xml = fs.readFileSync(path.join(cslDir, file), 'utf8');
  const sys = { retrieveLocale: () => locale, retrieveItem: id => JSON.parse(JSON.stringify(byId[String(id)])) };
  const engine = new CSL.Engine(sys, xml, 'en-US', true);
  engine.setOutputFormat('text');
  for (const it of items) {
    engine.updateItems([String(it.id)]);
    const bib = engine.makeBibliography();
    (out[it.id] = out[it.id] || {})[name] = bib ? bib[1].join('').trim() : null;
  }
}
process.stdout.write(JSON.stringify(out, null, 1) + '\n');
