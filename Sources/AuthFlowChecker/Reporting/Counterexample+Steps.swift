import AuthFlow

extension CounterexampleRenderer {
    /// How wide a report's lines may be: longer ones wrap under their column, no information is cut.
    public static let lineWidth = 120

    /// The one line a report prints above its first counterexample to say how steps show the data.
    public static let legend = "steps show what changed: +key added, -key cleared, key a→b changed; {…} is all the data"

    /// Whether a report of `violations` needs the ``legend``: some path has a step after the start.
    public static func needsLegend(_ violations: [Violation]) -> Bool {
        violations.contains { $0.path.count > 1 }
    }

    /// The number of steps a counterexample lists, numbered from 1: the events after the start, and an
    /// illegal transition's refused event (its own marked step).
    public static func stepCount(_ violation: Violation) -> Int {
        violation.length + (violation.property == .illegalTransition && violation.event != nil ? 1 : 0)
    }

    /// What changed from `previous` to `step`: `+email`, `+nextStep=mfa`, `-password`, `failedAttempts 0→1`.
    ///
    /// Keys come in declaration order (both lists are in it; a cleared key comes where it stood);
    /// secrets print as `<redacted>`, and a secret whose value changed as `<redacted>→<redacted>`.
    public static func changes(from previous: PathStep, to step: PathStep, secrets: Set<String>) -> [String] {
        func shown(_ key: String, in step: PathStep) -> String? {
            step.values?[key].map { secrets.contains(key) ? FlowReport.redacted : $0 }
        }
        let before = Set(previous.data), after = Set(step.data)
        var order: [String] = [], listed = Set<String>()
        var cursor = previous.data.startIndex
        func flushCleared(upTo key: String?) {
            while cursor < previous.data.endIndex, previous.data[cursor] != key {
                let old = previous.data[cursor]
                if !after.contains(old), listed.insert(old).inserted { order.append(old) }
                cursor += 1
            }
            if cursor < previous.data.endIndex { cursor += 1 }
        }
        for key in step.data {
            if before.contains(key), previous.data[cursor...].contains(key) { flushCleared(upTo: key) }
            if listed.insert(key).inserted { order.append(key) }
        }
        flushCleared(upTo: nil)
        return order.compactMap { key in
            guard before.contains(key) else { return "+" + key + (shown(key, in: step).map { "=\($0)" } ?? "") }
            guard after.contains(key) else { return "-" + key }
            guard previous.values?[key] != step.values?[key] else { return nil }
            return "\(key) \(shown(key, in: previous) ?? "?")→\(shown(key, in: step) ?? "?")"
        }
    }

    /// The items of a frame's data, as ``dataText(_:secrets:)`` prints them between braces.
    static func dataItems(_ step: PathStep, secrets: Set<String>) -> [String] {
        step.data.map { key in
            step.values?[key].map { "\(key)=\(secrets.contains(key) ? FlowReport.redacted : $0)" } ?? key
        }
    }

    /// The lines of a counterexample's steps: the start unnumbered and whole, each step after it numbered
    /// with what changed, the breaking step marked and followed by its whole frame.
    ///
    /// ```
    ///        (start)        → start             {failedPasswords=0, failedCodes=0, resends=0}
    ///     1. signInTapped   → enterCredentials
    ///     2. submit         → signingIn         +username, +password
    ///     3. wrongPassword  → enterCredentials  -password, failedPasswords 0→1
    ///  ✗  4. submit         → signingIn         +password   ← some-property
    ///                                           {username, password, failedPasswords=1, failedCodes=0, resends=0}
    /// ```
    /// - Parameters:
    ///   - path: the steps, the first the start.
    ///   - refused: an illegal transition's event, shown as a marked step of its own after the path, from `refusedFrom`.
    ///   - property: the property the marker names.
    /// - Parameter marked: whether the last step broke `property` (`✗` and `← property`); a replay that ended fixed is not.
    package static func stepLines(_ path: FlowPath, refused: String?, refusedFrom: String, property: String,
                                  secrets: Set<String>, style: TextStyle, marked: Bool = true) -> [String] {
        guard !path.isEmpty else { return [] }
        let start = "(start)"
        let eventWidth = max(5, (path.map { TerminalText.width($0.event ?? start) } + [refused.map(TerminalText.width) ?? 0]).max() ?? 0)
        let stateWidth = max(5, path.map { TerminalText.width($0.state) }.max() ?? 0)
        let last = !marked ? -1 : refused == nil ? path.count - 1 : path.count
        let marker = "   ← \(property)"
        // `  ✗  8. ` then the event and the state, each padded: the data starts at the same column on every line.
        func prefix(_ i: Int, event: String) -> String {
            let mark = i == last ? style.bad("✗") : " "
            let number = i == 0 ? "   " : String(i).leftPadded(2, with: " ") + "."
            return " \(mark) \(number) \(TerminalText.padded(event, toWidth: eventWidth))  "
        }
        let dataColumn = 1 + 1 + 1 + 3 + 1 + eventWidth + 2 + 2 + stateWidth + 2
        // Continuation lines align under the data, unless that leaves too little room.
        let indent = lineWidth - dataColumn >= 40 ? dataColumn : 10
        var lines: [String] = []
        for (i, step) in path.enumerated() {
            let head = prefix(i, event: step.event ?? start) + "→ " + TerminalText.padded(step.state, toWidth: stateWidth) + "  "
            let whole = dataItems(step, secrets: secrets)
            let tail = i == last ? style.bad(marker) : ""
            let tailWidth = i == last ? TerminalText.width(marker) : 0
            if i == 0 {
                lines += wrapped(whole, head: head, headWidth: dataColumn, open: "{", close: "}", indent: indent, tail: tail, tailWidth: tailWidth)
                continue
            }
            let changed = changes(from: path[i - 1], to: step, secrets: secrets)
            // The frame the property judged: the last of the path (an illegal transition's is the one its event is sent from).
            let judged = i == path.count - 1 && i > 0
            if changed.isEmpty && judged {
                lines += wrapped(whole, head: head, headWidth: dataColumn, open: "{", close: "}", indent: indent, tail: tail, tailWidth: tailWidth)
                continue
            }
            lines += wrapped(changed, head: head, headWidth: dataColumn, open: "", close: "", indent: indent, tail: tail, tailWidth: tailWidth)
            if judged {
                lines += wrapped(whole, head: String(repeating: " ", count: indent), headWidth: indent, open: "{", close: "}", indent: indent,
                                 tail: "", tailWidth: 0)
            }
        }
        if let refused {
            let head = prefix(last, event: refused) + "→ (no transition from \(refusedFrom))"
            lines.append((head + style.bad(marker)).trailingSpacesTrimmed)
        }
        return lines
    }

    /// `items` joined by `, ` after `head` (and `open`), as many lines as it takes to stay within ``lineWidth``;
    /// continuation lines start at column `indent` (one further inside a brace), and `tail` ends the first line.
    /// Widths are given, not measured: `head` and `tail` may carry colour.
    ///
    /// An item is never split: one wider than the room left gets a line of its own, however long.
    static func wrapped(_ items: [String], head: String, headWidth: Int, open: String, close: String, indent: Int,
                        tail: String, tailWidth: Int) -> [String] {
        let inner = String(repeating: " ", count: indent + open.count)
        var lines: [String] = []
        var line = head + open
        var width = headWidth + open.count
        var budget = lineWidth - tailWidth
        var first = true
        var empty = true
        func finish() {
            lines.append((line + (first ? tail : "")).trailingSpacesTrimmed)
            first = false
            budget = lineWidth
        }
        for (n, item) in items.enumerated() {
            let piece = item + (n == items.count - 1 ? close : ",")
            let pieceWidth = TerminalText.width(piece)
            if !empty && width + 1 + pieceWidth > budget {
                finish()
                line = inner
                width = indent + open.count
                empty = true
            }
            if !empty { line += " "; width += 1 }
            line += piece
            width += pieceWidth
            empty = false
        }
        if items.isEmpty { line += close }
        finish()
        return lines
    }

    /// The `replay:` line; a command too long for one line goes on before its options, each line but the last
    /// ending in ` \` so the lines still paste into a shell as one command.
    static func wrappedReplay(_ replay: String) -> [String] {
        let first = "   replay: "
        guard TerminalText.width(first + replay) > lineWidth else { return [first + replay] }
        guard replay.hasPrefix(ReportRenderer.program + " ") else { return wrappedText(replay, first: first, rest: "     ") }
        // Options start a piece: `authcheck explore SPEC`, `--property ID`, `--depth 12`.
        var pieces: [String] = []
        for word in replay.split(separator: " ", omittingEmptySubsequences: false).map(String.init) {
            if word.hasPrefix("--") || pieces.isEmpty { pieces.append(word) } else { pieces[pieces.count - 1] += " " + word }
        }
        let rest = "     "
        var lines: [String] = []
        var line = first
        for piece in pieces {
            let candidate = line == first || line == rest ? line + piece : line + " " + piece
            if line != first, line != rest, TerminalText.width(candidate) + 2 > lineWidth {
                lines.append(line + " \\")
                line = rest + piece
            } else {
                line = candidate
            }
        }
        lines.append(line)
        return lines
    }

    /// `text` broken at spaces into lines of at most ``lineWidth`` columns, the first after `first`, the rest after `rest`.
    ///
    /// A word wider than a line (a long path) keeps a line of its own rather than being cut.
    package static func wrappedText(_ text: String, first: String, rest: String) -> [String] {
        let words = text.split(separator: " ", omittingEmptySubsequences: false).map(String.init)
        var lines: [String] = []
        var line = first
        var width = TerminalText.width(first)
        var empty = true
        for word in words {
            let wordWidth = TerminalText.width(word)
            if !empty && width + 1 + wordWidth > lineWidth {
                lines.append(line)
                line = rest
                width = TerminalText.width(rest)
                empty = true
            }
            if !empty { line += " "; width += 1 }
            line += word
            width += wordWidth
            empty = false
        }
        lines.append(line)
        return lines
    }
}
