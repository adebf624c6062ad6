// Parses Mermaid diagrams with Mermaid 11's own parser (its mermaid.min.js, in a jsdom window) and
// prints, per file, one JSON line: {"file", "ok": true, "type", "states": {id: label}, "edges":
// [[from, to, label]], "notes": [[id, text]]} with Mermaid's entity codes decoded as it renders
// them, or {"file", "ok": false, "error"}. Run by .ci/mermaid-parse, which finds mermaid.min.js.
// Usage: node mermaid-parse.js MERMAID_MIN_JS FILE...
const fs = require('fs');
const vm = require('vm');
const { JSDOM } = require('jsdom');

const dom = new JSDOM('<!DOCTYPE html><body></body>', { pretendToBeVisual: true });
const w = dom.window;
globalThis.window = w;
for (const k of ['document', 'Element', 'HTMLElement', 'Node', 'DocumentFragment', 'NodeFilter', 'NamedNodeMap',
  'HTMLFormElement', 'DOMParser', 'Text', 'Comment', 'navigator', 'MutationObserver', 'getComputedStyle', 'SVGElement']) {
  try { globalThis[k] = w[k]; } catch (e) { /* read-only globals stay as they are */ }
}
globalThis.addEventListener = () => {};
vm.runInThisContext(fs.readFileSync(process.argv[2], 'utf8'));
const bundle = globalThis.__esbuild_esm_mermaid_nm.mermaid;
const mermaid = bundle.default || bundle;

// Mermaid turns `#quot;` and `#35;` into placeholders when it parses and into HTML entities when it renders.
function decode(text) {
  if (typeof text !== 'string') return text;
  const html = text.replace(/ﬂ°°(\d+)¶ß/g, '&#$1;').replace(/ﬂ°(\w+)¶ß/g, '&$1;');
  const area = w.document.createElement('textarea');
  area.innerHTML = html;
  return area.value;
}

(async () => {
  await mermaid.parse('flowchart LR\n a --> b');   // registers the diagram types
  for (const file of process.argv.slice(3)) {
    const text = fs.readFileSync(file, 'utf8');
    try {
      await mermaid.parse(text);
      const diagram = await mermaid.mermaidAPI.getDiagramFromText(text);
      const db = diagram.db;
      const out = { file, ok: true, type: diagram.type, states: {}, edges: [], notes: [] };
      if (db.getStates) {
        for (const [id, state] of db.getStates()) {
          out.states[id] = { label: decode((state.descriptions || [])[0] ?? null), type: state.type, classes: state.classes || [] };
          if (state.note) out.notes.push([id, decode(state.note.text)]);
        }
        for (const r of db.getRelations()) out.edges.push([r.id1, r.id2, decode(r.relationTitle ?? null)]);
      } else if (db.getVertices) {
        for (const [id, v] of db.getVertices()) out.states[id] = { label: decode(v.text), type: v.type ?? null, classes: v.classes || [] };
        for (const e of db.getEdges()) out.edges.push([e.start, e.end, decode(e.text)]);
      }
      out.title = decode(db.getDiagramTitle ? db.getDiagramTitle() : null);
      console.log(JSON.stringify(out));
    } catch (e) {
      console.log(JSON.stringify({ file, ok: false, error: String(e && e.message || e) }));
    }
  }
})();
