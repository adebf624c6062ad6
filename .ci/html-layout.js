// The HTML report's layout as the browser draws it, run inside the page by .ci/html-browser.
// For every graph (svg.flow) it measures with getBBox():
//   - no edge label overlaps another label or a state's box;
//   - every state box, label and line lies inside the SVG's viewBox (nothing clipped: the
//     figure scrolls sideways to show all of its viewBox);
//   - a self-loop's label lies outside its loop;
//   - every reset row listed in window.expectedResets ("sN from event" strings, from the specs) is
//     drawn as a reset (class "reset", a label that is not a dead-looking "· 0") and the legend
//     explains it.
// It writes one line per problem into <pre id="layout-report" data-problems="N"> for --dump-dom.
(function () {
  "use strict";
  var problems = [];
  var measured = { graphs: 0, labels: 0, states: 0, loops: 0, resets: 0 };
  var slack = 0.5;
  function box(element) {
    var b = element.getBBox();
    return { x: b.x, y: b.y, right: b.x + b.width, bottom: b.y + b.height };
  }
  function overlap(a, b) {
    return a.x < b.right - slack && b.x < a.right - slack && a.y < b.bottom - slack && b.y < a.bottom - slack;
  }
  function text(b) {
    return "[" + [b.x, b.y, b.right, b.bottom].map(function (v) { return v.toFixed(1); }).join(",") + "]";
  }
  function name(element) {
    var group = element.closest("g.edge, g.node");
    if (!group) { return "?"; }
    if (group.classList.contains("node")) { return "state " + group.getAttribute("data-state"); }
    var row = "(" + group.getAttribute("data-from") + " " + group.getAttribute("data-event") + ")";
    return element.tagName === "text" ? "label '" + element.textContent + "' " + row : "the line of " + row;
  }
  Array.prototype.forEach.call(document.querySelectorAll("svg.flow"), function (svg) {
    measured.graphs += 1;
    var graph = svg.id;
    var vb = svg.viewBox.baseVal;
    var view = { x: vb.x, y: vb.y, right: vb.x + vb.width, bottom: vb.y + vb.height };
    var labels = Array.prototype.slice.call(svg.querySelectorAll("g.edge text.label"));
    var states = Array.prototype.slice.call(svg.querySelectorAll("g.node rect.box"));
    var lines = Array.prototype.slice.call(svg.querySelectorAll("g.edge path.line"));
    measured.labels += labels.length;
    measured.states += states.length;
    var labelBoxes = labels.map(box);
    var stateBoxes = states.map(box);
    labels.forEach(function (label, i) {
      for (var j = i + 1; j < labels.length; j += 1) {
        if (overlap(labelBoxes[i], labelBoxes[j])) {
          problems.push(graph + ": " + name(label) + " " + text(labelBoxes[i]) + " overlaps " + name(labels[j]) + " " + text(labelBoxes[j]));
        }
      }
      states.forEach(function (state, k) {
        if (overlap(labelBoxes[i], stateBoxes[k])) {
          problems.push(graph + ": " + name(label) + " " + text(labelBoxes[i]) + " overlaps " + name(state) + " " + text(stateBoxes[k]));
        }
      });
    });
    function inside(element, b) {
      if (b.x < view.x - slack || b.y < view.y - slack || b.right > view.right + slack || b.bottom > view.bottom + slack) {
        problems.push(graph + ": " + name(element) + " " + text(b) + " is outside the viewBox " + text(view));
      }
    }
    states.forEach(function (state, k) { inside(state, stateBoxes[k]); });
    labels.forEach(function (label, i) { inside(label, labelBoxes[i]); });
    lines.forEach(function (line) { inside(line, box(line)); });
    // The viewBox is drawn at its own size, so the scrolling figure shows all of it.
    var shown = svg.getBoundingClientRect();
    if (Math.abs(shown.width - vb.width) > 1 || Math.abs(shown.height - vb.height) > 1) {
      problems.push(graph + ": drawn " + shown.width.toFixed(1) + "×" + shown.height.toFixed(1) + ", its viewBox is " + vb.width + "×" + vb.height);
    }
    Array.prototype.forEach.call(svg.querySelectorAll("g.edge.loop"), function (loop) {
      measured.loops += 1;
      var label = loop.querySelector("text.label");
      var curve = loop.querySelector("path.line");
      if (label && curve && overlap(box(label), box(curve))) {
        problems.push(graph + ": " + name(label) + " " + text(box(label)) + " is inside its loop " + text(box(curve)));
      }
    });
  });
  (window.expectedResets || []).forEach(function (wanted) {
    measured.resets += 1;
    var parts = wanted.split(" ");
    var graph = document.getElementById(parts[0] + "-graph");
    var edge = graph && Array.prototype.filter.call(graph.querySelectorAll("g.edge"), function (g) {
      return g.getAttribute("data-from") === parts[1] && g.getAttribute("data-event") === parts[2];
    })[0];
    if (!edge) {
      problems.push(parts[0] + ": reset row " + parts[1] + " " + parts[2] + " is not drawn");
      return;
    }
    var label = edge.querySelector("text.label");
    if (!edge.classList.contains("reset")) {
      problems.push(parts[0] + ": reset row " + parts[1] + " " + parts[2] + " is not drawn as a reset (class " + edge.getAttribute("class") + ")");
    }
    if (label && /·\s*0$/.test(label.textContent)) {
      problems.push(parts[0] + ": reset row " + parts[1] + " " + parts[2] + " reads '" + label.textContent + "', as a row that never counts");
    }
    var legend = graph.closest("figure").querySelector(".legend .k-reset");
    if (!legend) { problems.push(parts[0] + ": a reset row is drawn but the legend does not say what a reset looks like"); }
  });
  var report = document.createElement("pre");
  report.id = "layout-report";
  report.setAttribute("data-problems", String(problems.length));
  report.setAttribute("data-measured", measured.graphs + " graphs, " + measured.states + " states, " + measured.labels
    + " labels, " + measured.loops + " self-loops, " + measured.resets + " reset rows");
  report.textContent = problems.join("\n");
  document.body.appendChild(report);
})();
