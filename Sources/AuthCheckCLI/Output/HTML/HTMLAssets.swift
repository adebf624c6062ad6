/// The HTML report's inline stylesheet, arrowheads and script: nothing is loaded from anywhere.
///
/// Neither the CSS nor the script may hold `]]>` (they sit in CDATA sections so the file stays
/// well-formed XML), `</` (it would end the element in HTML) or `//` (the report holds no URL,
/// and a test looks for the two slashes anywhere).
enum HTMLAssets {
    /// The arrowheads every graph uses, defined once in an SVG of their own.
    static let markers = """
        <svg class="defs" width="0" height="0" aria-hidden="true" focusable="false"><defs>\
        <marker id="arrow" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"/></marker>\
        <marker id="arrow-dead" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="7" markerHeight="7" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"/></marker>\
        <marker id="arrow-on" viewBox="0 0 10 10" refX="9" refY="5" markerWidth="6" markerHeight="6" orient="auto-start-reverse"><path d="M0,0 L10,5 L0,10 z"/></marker>\
        </defs></svg>
        """

    static let style = """
        :root { color-scheme: light dark; --bg: #ffffff; --fg: #1f2328; --muted: #656d76; --node: #f6f8fa;
          --border: #57606a; --edge: #8c959f; --success: #1a7f37; --abort: #6e7781; --abort-fill: #eaeef2;
          --bad: #cf222e; --path: #bc4c00; --current: #0969da; --reset: #8250df; --dim: 0.42; }
        @media (prefers-color-scheme: dark) {
          :root { --bg: #0d1117; --fg: #e6edf3; --muted: #8d96a0; --node: #161b22; --border: #8d96a0;
            --edge: #6e7681; --success: #3fb950; --abort: #8d96a0; --abort-fill: #21262d; --bad: #f85149;
            --path: #f0883e; --current: #58a6ff; --reset: #bc8cff; --dim: 0.45; }
        }
        body { margin: 0 auto; max-width: 96rem; padding: 1rem 1.5rem; background: var(--bg); color: var(--fg);
          font: 15px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; }
        h1 { font-size: 1.4rem; margin: 0 0 0.25rem; }
        h2 { font-size: 1.2rem; margin: 1.5rem 0 0.25rem; }
        h3 { font-size: 1.05rem; }
        .help, .path, .summary, .legend { color: var(--muted); margin: 0.25rem 0; }
        .verdict { font-size: 0.85rem; padding: 0.1rem 0.5rem; border-radius: 1rem; border: 1px solid currentColor; }
        .verdict.holds { color: var(--success); }
        .verdict.violated, .verdict.invalid { color: var(--bad); }
        .verdict.incomplete { color: var(--path); }
        figure { margin: 0.5rem 0; }
        .scroll { overflow-x: auto; border: 1px solid var(--edge); border-radius: 6px; }
        svg.flow { display: block; font: 12px system-ui, -apple-system, "Segoe UI", sans-serif; }
        svg.defs { position: absolute; }
        #arrow path { fill: var(--edge); }
        #arrow-dead path { fill: var(--edge); opacity: var(--dim); }
        #arrow-on path { fill: var(--path); }
        .node .box { fill: var(--node); stroke: var(--border); stroke-width: 1.2; }
        .node .ring { fill: none; stroke: var(--success); stroke-width: 1.2; }
        .node.success .box { stroke: var(--success); stroke-width: 1.5; }
        .node.abort .box { fill: var(--abort-fill); stroke: var(--abort); }
        .node.initial .box { stroke-width: 2; }
        .node text { fill: var(--fg); text-anchor: middle; }
        .node .counts { fill: var(--muted); font-size: 10px; }
        .node.unreachable { opacity: var(--dim); }
        .node.unreachable .box { stroke-dasharray: 4 3; }
        .node.violated .box { stroke: var(--bad); stroke-width: 2; }
        .node.violated .name { fill: var(--bad); }
        .start circle { fill: var(--fg); }
        .start .line { stroke: var(--fg); stroke-width: 1.4; marker-end: url(#arrow); }
        .edge .line { fill: none; stroke: var(--edge); stroke-width: 1.3; marker-end: url(#arrow); }
        .edge .label { fill: var(--muted); font-size: 10.5px; text-anchor: middle; paint-order: stroke;
          stroke: var(--bg); stroke-width: 3px; stroke-linejoin: round; }
        .edge.dead { opacity: var(--dim); }
        .edge.dead .line { stroke-dasharray: 5 4; marker-end: url(#arrow-dead); }
        .edge.reset .line { stroke: var(--reset); stroke-dasharray: 9 3 2 3; }
        .edge.reset .label { fill: var(--reset); }
        .edge:hover .line, .node:hover .box { stroke-width: 2.5; }
        .edge.on-path .line { stroke: var(--path); stroke-width: 2.5; marker-end: url(#arrow-on); }
        .edge.on-path .label { fill: var(--path); font-weight: 600; }
        .node.on-path .box { stroke: var(--path); stroke-width: 2.5; }
        .edge.on-path, .node.on-path { opacity: 1; }
        .edge.current .line { stroke: var(--current); stroke-width: 3.5; }
        .node.current .box { stroke: var(--current); stroke-width: 3.5; }
        .legend .key { white-space: nowrap; margin-right: 0.5rem; }
        .legend .k-success { color: var(--success); } .legend .k-abort { color: var(--abort); }
        .legend .k-violated { color: var(--bad); } .legend .k-on-path { color: var(--path); }
        .legend .k-unreachable { opacity: var(--dim); } .legend .k-reset { color: var(--reset); }
        .violation-list { padding-left: 1.5rem; }
        button { font: inherit; color: inherit; background: var(--node); border: 1px solid var(--edge);
          border-radius: 6px; padding: 0.2rem 0.6rem; cursor: pointer; }
        button:focus-visible { outline: 3px solid var(--current); outline-offset: 2px; }
        button.violation { margin: 0.15rem 0; text-align: left; }
        button.violation[aria-pressed="true"], button.way[aria-pressed="true"] { border-color: var(--path); box-shadow: 0 0 0 1px var(--path); }
        tr.way.below td.level { color: var(--bad); font-weight: 600; } tr.way td.level { white-space: nowrap; }
        .property { color: var(--bad); font-weight: 600; }
        .steps { border-left: 3px solid var(--path); padding: 0.25rem 1rem; margin: 0.5rem 0; }
        .steps h4 { margin: 0.25rem 0; }
        .step-list { font-family: ui-monospace, SFMono-Regular, Menlo, monospace; font-size: 0.9rem; }
        .step.current { background: color-mix(in srgb, var(--current) 16%, transparent); }
        .step.breaking .mark { color: var(--bad); font-weight: 600; }
        .step .data { color: var(--muted); }
        .status { color: var(--muted); margin: 0 0.5rem; }
        .diff { font-size: 0.85rem; }
        table { border-collapse: collapse; margin: 0.5rem 0 1rem; }
        caption { text-align: left; color: var(--muted); }
        th, td { border-bottom: 1px solid var(--edge); padding: 0.15rem 0.6rem; text-align: left; }
        td.n { text-align: right; font-variant-numeric: tabular-nums; }
        @media print {
          :root { --bg: #ffffff; --fg: #000000; --muted: #444444; --node: #ffffff; --edge: #666666; }
          body { max-width: none; padding: 0; }
          .help, .nav, svg.defs { display: none; }
          .scroll { overflow: visible; border: none; }
          svg.flow { max-width: 100%; height: auto; }
          .steps[hidden] { display: block; }
          .steps, table, figure { break-inside: avoid; }
          button { border: none; padding: 0; }
        }
        """

    /// Choosing a violation, or a way in (section 6), highlights its path and shows its steps; ← and → walk
    /// them. A page opened as `report.html#select=N` chooses violation N on load (`#select=wN`: way in N), and
    /// `#select=N&step=K` shows its step K too (the hook `.ci/html-browser` asserts through, and a link to one step).
    static let script = """
        (function () {
          "use strict";
          var buttons = Array.prototype.slice.call(document.querySelectorAll("button.violation, button.way"));
          var chosen = null;
          var step = 0;
          function all(selector) { return Array.prototype.slice.call(document.querySelectorAll(selector)); }
          function byIds(text) {
            return (text || "").split(" ").map(function (id) { return document.getElementById(id); })
              .filter(function (element) { return element !== null; });
          }
          function key(button) { return button.getAttribute("data-violation") || "w" + button.getAttribute("data-way"); }
          function panel(button) { return document.getElementById(button.getAttribute("aria-controls")); }
          function items() { return chosen ? Array.prototype.slice.call(panel(chosen).querySelectorAll("li.step")) : []; }
          function show(k) {
            var list = items();
            if (list.length === 0) { return; }
            step = Math.max(0, Math.min(list.length - 1, k));
            all(".current").forEach(function (element) { element.classList.remove("current"); });
            var item = list[step];
            item.classList.add("current");
            byIds(item.getAttribute("data-node")).concat(byIds(item.getAttribute("data-edge")))
              .forEach(function (element) { element.classList.add("current"); });
            panel(chosen).querySelector(".status").textContent = "step " + step + " of " + (list.length - 1) + ": " + item.textContent;
            document.body.setAttribute("data-step", String(step));
          }
          function choose(button) {
            all(".on-path").forEach(function (element) { element.classList.remove("on-path"); });
            all(".steps").forEach(function (element) { element.hidden = true; });
            buttons.forEach(function (other) { other.setAttribute("aria-pressed", "false"); });
            chosen = button;
            button.setAttribute("aria-pressed", "true");
            byIds(button.getAttribute("data-nodes")).concat(byIds(button.getAttribute("data-edges")))
              .forEach(function (element) { element.classList.add("on-path"); });
            panel(button).hidden = false;
            document.body.setAttribute("data-selected", key(button));
            show(0);
          }
          buttons.forEach(function (button) {
            button.addEventListener("click", function () { choose(button); });
            var box = panel(button);
            box.querySelector(".previous").addEventListener("click", function () { show(step - 1); });
            box.querySelector(".next").addEventListener("click", function () { show(step + 1); });
          });
          document.addEventListener("keydown", function (event) {
            if (!chosen || event.altKey || event.ctrlKey || event.metaKey) { return; }
            if (event.key === "ArrowRight" || event.key === "ArrowLeft") {
              show(step + (event.key === "ArrowRight" ? 1 : -1));
              event.preventDefault();
            } else if (event.key === "Home") {
              show(0);
              event.preventDefault();
            } else if (event.key === "End") {
              show(items().length - 1);
              event.preventDefault();
            }
          });
          var wanted = /select=(w?[0-9]+)/.exec(window.location.hash);
          if (wanted) {
            var target = buttons.filter(function (button) { return key(button) === wanted[1]; })[0];
            var at = /step=([0-9]+)/.exec(window.location.hash);
            if (target) {
              choose(target);
              if (at) { show(Number(at[1])); }
            }
          }
        })();
        """
}
