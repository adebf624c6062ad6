import AuthFlow

/// Section 6's ways in, as the text report and the JSON report show them.
///
/// For each step that asks for an assurance level and each success state, in step order, every
/// combination of factor keys that reaches it, weakest first, with the level it meets, its variant
/// and a shortest path. A report of a spec that uses no section-6 key has none of it.
extension ReportRenderer {
    /// The widest line the ways-in text writes, in terminal columns (a path wraps onto further lines).
    static let waysInWidth = 120

    /// The ways in as text lines: a heading, then per protected screen its ways, each with its path
    /// (`✗` where the way is below the level the screen asks for).
    static func waysInLines(_ steps: [ProtectedStep], style: TextStyle) -> [String] {
        var lines = ["ways in (weakest first, each with a shortest path):"]
        for step in steps {
            let name = TerminalText.escaped(step.state)
            let asks = step.asks == .none ? (step.isSuccess ? "success, asks for no level" : "asks for no level")
                : "\(step.isSuccess ? "success, " : "")asks for \(step.asks.rawValue)"
            guard !step.ways.isEmpty else {
                lines.append("   \(name) (\(asks)): never reached")
                continue
            }
            let below = step.asks == .none ? 0 : step.ways.filter { $0.level < step.asks }.count
            let tally = below > 0 ? ", \(below) below its level" : ""
            lines.append("   \(name) (\(asks)): \(counted(step.ways.count, "way")) in\(tally)")
            for way in step.ways {
                let mark = step.asks == .none ? " " : way.level < step.asks ? style.bad("✗") : style.good("✓")
                let factors = way.factors.isEmpty ? "no factor" : way.factors.map(TerminalText.escaped).joined(separator: ", ")
                let variant = way.variant.map { " (\($0.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")))" } ?? ""
                lines += wrapped("\(mark) \(way.level.rawValue)  \(TerminalText.escaped(factors))\(variant)", indent: 6, hanging: 10)
                if way.path.isEmpty && way.length > 0 {
                    lines.append(String(repeating: " ", count: 10) + "\(counted(way.length, "step")) (path not shown: the report's paths are at their limit)")
                } else if !way.path.isEmpty {
                    var tokens = [TerminalText.escaped(way.path[0].state)]
                    for step in way.path.dropFirst() {
                        tokens.append("--\(TerminalText.escaped(step.event ?? "?"))--> \(TerminalText.escaped(step.state))")
                    }
                    let head = way.length == 0 ? "the start: " : "\(counted(way.length, "step")): "
                    lines += wrapped(head + tokens.joined(separator: " "), indent: 10, hanging: 12, breakingAt: " --")
                }
            }
        }
        return lines
    }

    /// `text` indented by `indent` columns and cut into lines of at most ``waysInWidth`` columns, at spaces
    /// (or before `breakingAt`), the lines after the first indented by `hanging`; a word wider than a line stays whole.
    static func wrapped(_ text: String, indent: Int, hanging: Int, breakingAt separator: String = " ") -> [String] {
        var pieces: [String] = []
        var rest = Substring(text)
        // A separator at the very start splits nothing off; an empty rest (a name ending in a space) has nothing left to split.
        while !rest.isEmpty, let range = rest.range(of: separator, range: rest.index(after: rest.startIndex)..<rest.endIndex) {
            pieces.append(String(rest[..<range.lowerBound]))
            rest = rest[range.lowerBound...].dropFirst()   // the space goes; the rest of the separator stays
        }
        pieces.append(String(rest))
        var lines: [String] = []
        var line = String(repeating: " ", count: indent)
        var empty = true
        for piece in pieces {
            let width = TerminalText.width(line) + 1 + TerminalText.width(piece)
            if !empty && width > waysInWidth {
                lines.append(line)
                line = String(repeating: " ", count: hanging) + piece
            } else {
                line += (empty ? "" : " ") + piece
            }
            empty = false
        }
        lines.append(line)
        return lines
    }

    /// The ways in as the JSON report's `waysIn`: step → list of `{factors, level, length, variant}`, weakest first.
    static func waysInJSON(_ steps: [ProtectedStep]) -> JSON {
        .object(JSONObject(steps.map { step in
            (step.state, JSON.array(step.ways.map { way in
                .object(JSONObject([
                    ("factors", .array(way.factors.map(JSON.string))),
                    ("level", .string(way.level.rawValue)),
                    ("length", .int(way.length)),
                    ("variant", way.variant.map { variant in .object(JSONObject(variant.map { ($0.key, JSON.string($0.value)) })) } ?? .null),
                ]))
            }))
        }))
    }
}
