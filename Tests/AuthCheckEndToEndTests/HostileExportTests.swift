import AuthCheckTestSupport
import Foundation
import Testing

/// Hostile names through every export: each output must be valid in its own language, checked by
/// that language's own tool (Mermaid 11's parser, `swiftc -parse`, Graphviz, SPIN), and must say the
/// names back; text for the terminal must carry no escape sequence a name or a file name brought.
///
/// The tools are optional: a test whose tool is missing says so and passes (`.ci/run` installs
/// Graphviz and SPIN; `.ci/mermaid-parse` fetches Mermaid from PyPI and needs `node-jsdom`).
@Suite struct HostileExportTests {
    /// State names Mermaid, DOT, Promela or Swift could read as syntax, and names a terminal draws wide or narrow.
    static let hostileStates = [
        "start", "x[[fork]]", "%%{init: {\"theme\":\"dark\"}}%%", "a\"b\\c", "*/ /* end", "&amp; & #quot;",
        "e\u{301}\u{303} combining", "🧑🏽🇫🇷 emoji", "日本語", "note: here; yes", "direction TB", "<<choice>>", "", "done",
    ]

    /// The event from state `index` to the next one: the first swallows its edge in Mermaid unless escaped.
    static func event(_ index: Int) -> String {
        index == 0 ? "set direction TB" : "go\(index) `x` %% c; d: e"
    }

    /// An `authflow/1` spec walking ``hostileStates`` in order, each with a cancel, named `name`.
    static func hostileSpec(name: String) throws -> Data {
        var steps: [String: Any] = ["done": ["emits": [String: Any]()], "cancelled": ["emits": [String: Any]()]]
        var transitions: [[String: String]] = []
        for (i, state) in hostileStates.dropLast().enumerated() {
            steps[state] = ["emits": [event(i): [String](), "cancel": [String]()]]
            transitions.append(["from": state, "on": event(i), "to": hostileStates[i + 1]])
            transitions.append(["from": state, "on": "cancel", "to": "cancelled"])
        }
        let spec: [String: Any] = ["format": "authflow/1", "name": name, "initial": "start", "success": ["done"],
                                   "abort": ["cancelled"], "steps": steps, "transitions": transitions]
        return try JSONSerialization.data(withJSONObject: spec, options: [.sortedKeys])
    }

    /// A fresh directory for one test's files.
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hostile-export-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes the hostile spec as `file` in a fresh directory; its path.
    static func writeHostileSpec(_ file: String = "hostile.json", name: String = "hostile: set direction LR %%{init}%% \"q\" */ & <b>") throws -> String {
        let url = try directory().appendingPathComponent(file)
        try hostileSpec(name: name).write(to: url)
        return url.path
    }

    /// An executable on the PATH, if there is one.
    static func tool(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    // MARK: Mermaid

    /// What Mermaid read from one diagram (see .ci/mermaid-parse.js).
    struct Parsed: Decodable {
        struct State: Decodable { var label: String? }
        var file: String
        var ok: Bool
        var error: String?
        var states: [String: State]?
        var edges: [[String?]]?
        var notes: [[String]]?
    }

    /// Parses `files` with Mermaid 11's own parser; nil (after saying why) when it cannot run here.
    static func mermaidParse(_ files: [String]) throws -> [Parsed]? {
        let script = Fixture.url(".ci/mermaid-parse").path
        let run = AuthCheckBinary.run(executable: script, arguments: files, environment: ProcessInfo.processInfo.environment)
        if run.status == 77 {
            print("◇ skipped: \(run.stdout.trimmingCharacters(in: .whitespacesAndNewlines)); Mermaid output was not parsed")
            return nil
        }
        #expect(run.status == 0, "mermaid-parse failed: \(run.stdout)\(run.stderr)")
        return try run.stdout.split(separator: "\n").map { try JSONDecoder().decode(Parsed.self, from: Data($0.utf8)) }
    }

    /// Every spec in Specs/ and the hostile one, as `coverage --format mermaid` writes them, parse in
    /// Mermaid 11, and Mermaid reads back every state's name and every transition's event as labels.
    @Test func mermaidOutputParsesInMermaid11AndSaysTheNamesBack() throws {
        let folder = try Self.directory()
        let hostile = try Self.writeHostileSpec()
        var files: [String] = []
        for spec in Fixture.realSpecs + [hostile] {
            // Deep enough for the hostile flow's 13 steps, so every transition fires.
            let run = try AuthCheckBinary.shipped.run(["coverage", "--format", "mermaid", "--depth", "20", spec])
            #expect(run.status == 0, "\(spec): \(run.stderr)")
            let file = folder.appendingPathComponent("\(files.count).mmd")
            try Data(run.stdout.utf8).write(to: file)
            files.append(file.path)
        }
        // The goldens too: the traces funnel is drawn by the same writer.
        let expected = Fixture.url("Tests/AuthCheckEndToEndTests/Expected").path
        files += try FileManager.default.contentsOfDirectory(atPath: expected).filter { $0.contains("mermaid") && $0.hasSuffix(".stdout") }
            .sorted().map { "\(expected)/\($0)" }
        guard let parsed = try Self.mermaidParse(files) else { return }
        #expect(parsed.count == files.count)
        for diagram in parsed {
            #expect(diagram.ok, "Mermaid 11 could not parse \(diagram.file): \(diagram.error ?? "")")
            #expect(diagram.notes?.contains { $0.count == 2 && $0[1].hasPrefix("Legend. ") && $0[1].hasSuffix(".") } == true,
                    "\(diagram.file): the legend is not read whole")
        }
        guard let last = parsed.first(where: { $0.file.hasSuffix("/\(Fixture.realSpecs.count).mmd") }), last.ok else { return }
        let labels = Set((last.states ?? [:]).values.compactMap(\.label))
        for state in Self.hostileStates + ["cancelled"] {
            // An empty name is drawn as one space: Mermaid refuses an empty label.
            #expect(labels.contains(state.isEmpty ? " " : state), "Mermaid does not read the state \(state.debugDescription): it read \(labels.sorted())")
        }
        let edges = (last.edges ?? []).compactMap { $0.count == 3 ? $0[2] : nil }
        for i in 0..<(Self.hostileStates.count - 1) {
            #expect(edges.contains(Self.event(i) + " (1 stack)"), "Mermaid lost the edge \(Self.event(i).debugDescription): it read \(edges)")
        }
        // Each transition is one edge, plus [*] --> start and the two terminal states' --> [*].
        #expect(edges.count == 2 * (Self.hostileStates.count - 1) + 3)
    }

    // MARK: Swift

    /// `paths --format swift` of a spec whose file name holds a newline, quotes, a backslash, `*/` and
    /// an ESC sequence writes a file `swiftc -parse` accepts: the name stays inside its literal and comment.
    @Test func swiftTestsOfAHostileFileNameParse() throws {
        let spec = try Self.writeHostileSpec("evil\n}} \u{1B}]0;owned\u{07} \"q\\*\".json", name: "a \"flow\" */ \\(x)")
        let run = try AuthCheckBinary.shipped.run(["paths", "--format", "swift", spec])
        #expect(run.status == 0, "\(run.stderr)")
        #expect(!run.stdout.contains("\u{1B}"))
        #expect(!run.stdout.split(separator: "\n").contains { $0.hasPrefix("}} ") })
        guard let swiftc = Self.tool("swiftc") else {
            print("◇ skipped: no swiftc on the PATH, so the generated tests were not parsed")
            return
        }
        let file = try Self.directory().appendingPathComponent("HostilePaths.swift")
        try Data(run.stdout.utf8).write(to: file)
        let parsed = AuthCheckBinary.run(executable: swiftc, arguments: ["-parse", file.path], environment: ProcessInfo.processInfo.environment)
        #expect(parsed.status == 0, "swiftc -parse refused the generated tests:\n\(parsed.stderr.prefix(3_000))")
    }

    // MARK: Graphviz and SPIN

    /// The hostile spec, and one whose flow is named with 20,000 bytes, render with `dot -Tsvg` without a warning.
    @Test(arguments: [false, true])
    func dotOutputRendersHostileAndLongNames(longName: Bool) throws {
        let spec = try Self.writeHostileSpec(name: longName ? String(repeating: "é", count: 10_000) : "a \"b\" \\ c & <d>")
        let graph = try AuthCheckBinary.shipped.run(["coverage", "--format", "dot", spec])
        #expect(graph.status == 0, "\(graph.stderr)")
        #expect(graph.stdout.utf8.count < 40_000, "the graph repeats the long name: \(graph.stdout.utf8.count) bytes")
        guard let dot = Self.tool("dot") else {
            print("◇ skipped: Graphviz 'dot' is not installed, so the hostile graph was not rendered (apt-get install graphviz)")
            return
        }
        let rendered = AuthCheckBinary.run(executable: dot, arguments: ["-Tsvg"], environment: [:], stdin: graph.stdout)
        #expect(rendered.status == 0, "dot failed: \(rendered.stderr.prefix(2_000))")
        #expect(rendered.stderr.isEmpty, "dot warned: \(rendered.stderr.prefix(2_000))")
    }

    /// `export` of the hostile spec is Promela `spin -a` compiles.
    @Test func promelaOfHostileNamesCompilesInSpin() throws {
        let spec = try Self.writeHostileSpec()
        let export = try AuthCheckBinary.shipped.run(["export", spec])
        #expect(export.status == 0, "\(export.stderr)")
        guard let spin = Self.tool("spin") else {
            print("◇ skipped: SPIN is not installed, so the hostile model was not compiled (apt-get install spin)")
            return
        }
        let folder = try Self.directory()
        let model = folder.appendingPathComponent("hostile.pml")
        try Data(export.stdout.utf8).write(to: model)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: spin)
        process.arguments = ["-a", "hostile.pml"]
        process.currentDirectoryURL = folder
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("pan.c").path))
    }

    /// `export` of a flow with 20,000 rows (200 states emitting 100 events each) is Promela `spin -a`
    /// compiles: SPIN's parser runs out of stack a little under 20,000 options in one list.
    @Test func promelaOfTwentyThousandRowsCompilesInSpin() throws {
        let states = (0..<200).map { "s\($0)" }
        var steps: [String: Any] = ["done": [String: Any]()]
        var transitions: [[String: String]] = []
        for (i, state) in states.enumerated() {
            steps[state] = ["emits": Dictionary(uniqueKeysWithValues: (0..<100).map { ("e\($0)", [String]()) })]
            for j in 0..<100 {
                transitions.append(["from": state, "on": "e\(j)", "to": j == 0 ? (i + 1 < states.count ? states[i + 1] : "done") : states[(i + j) % states.count]])
            }
        }
        let spec: [String: Any] = ["format": "authflow/1", "name": "big", "initial": "s0", "success": ["done"], "abort": [String](),
                                   "steps": steps, "transitions": transitions]
        let folder = try Self.directory()
        let url = folder.appendingPathComponent("big.json")
        try JSONSerialization.data(withJSONObject: spec).write(to: url)
        let export = try AuthCheckBinary.shipped.run(["export", url.path])
        #expect(export.status == 0, "\(export.stderr)")
        #expect(export.stdout.components(separatedBy: "\n    :: if   /* options ").count > 2, "the 20,000 moves are not in groups")
        guard let spin = Self.tool("spin") else {
            print("◇ skipped: SPIN is not installed, so the 20,000-row model was not compiled (apt-get install spin)")
            return
        }
        try Data(export.stdout.utf8).write(to: folder.appendingPathComponent("big.pml"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: spin)
        process.arguments = ["-a", "big.pml"]
        process.currentDirectoryURL = folder
        let errors = Pipe()
        process.standardOutput = errors
        process.standardError = errors
        try process.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "spin -a: \(said.prefix(2_000))")
    }

    // MARK: HTML, SARIF and JSON

    /// The HTML report escapes every hostile name (no `<b>` tag from the flow's name), and the SARIF and
    /// JSON reports are JSON that gives the names back as they are.
    @Test func htmlSarifAndJSONCarryHostileNamesSafely() throws {
        let spec = try Self.writeHostileSpec()
        let html = try AuthCheckBinary.shipped.run(["check", "--format", "html", spec])
        #expect(html.status == 0, "\(html.stderr)")
        #expect(!html.stdout.contains("<b>") && html.stdout.contains("&lt;b&gt;"))
        #expect(!html.stdout.contains("=\"a\"b") && html.stdout.contains("a&quot;b\\c"), "a quote in a name ends an attribute")
        for format in ["sarif", "json"] {
            let run = try AuthCheckBinary.shipped.run(["check", "--format", format, spec])
            let value = try JSONSerialization.jsonObject(with: Data(run.stdout.utf8))
            #expect(run.status == 0 && value is [String: Any], "\(format): \(run.stderr)")
        }
        let json = try AuthCheckBinary.shipped.run(["coverage", "--format", "json", spec])
        let coverage = try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any]
        let states = (coverage?["states"] as? [[String: Any]])?.compactMap { $0["state"] as? String } ?? []
        #expect(Set(states) == Set(Self.hostileStates + ["cancelled"]), "\(states)")
    }

    // MARK: The terminal

    /// A file name, a `--variant` value, a `--property` value and a trail's event that hold an ESC
    /// sequence come back as `\u{1B}` text, on stdout and on stderr.
    @Test func noEscapeSequenceReachesTheTerminal() throws {
        let escape = "\u{1B}]0;owned\u{07}\u{1B}[2J"
        let spec = try Self.writeHostileSpec()
        let folder = try Self.directory()
        let trail = folder.appendingPathComponent("trail.json")
        // A trail of the hostile flow whose second event is the escape, as JSON writes it; the table's
        // hash is the one the first replay names, so that the replay gets as far as the event.
        func writeTrail(table: String) throws {
            let trailText = #"{"spec":"hostile: set direction LR %%{init}%% \"q\" */ & <b>","table":"\#(table)","variant":{},"site":"no-exit@start","#
                + #""path":["set direction TB","\u001b]0;owned\u0007\u001b[2J"],"after":[{"state":"x[[fork]]","keys":[],"values":{}},"#
                + #"{"state":"done","keys":[],"values":{}}]}"#
            try Data(trailText.utf8).write(to: trail)
        }
        try writeTrail(table: "0")
        let first = try AuthCheckBinary.shipped.run(["replay", spec, trail.path])
        let table = first.stderr.range(of: #"now [0-9a-f]+"#, options: .regularExpression).map { String(first.stderr[$0].dropFirst(4)) }
        try writeTrail(table: table ?? "0")
        let runs = [
            ["check", folder.appendingPathComponent("missing \(escape).json").path],
            ["check", "--property", escape, spec],
            ["check", "--variant", "k=\(escape)", spec],
            ["replay", spec, trail.path],
        ]
        for arguments in runs {
            let run = try AuthCheckBinary.shipped.run(arguments)
            #expect(run.status == 2, "\(arguments): \(run.stdout)\(run.stderr)")
            #expect(!run.stdout.contains("\u{1B}") && !run.stderr.contains("\u{1B}") && !run.stderr.contains("\u{07}"),
                    "\(arguments) echoed an escape sequence: \(run.stdout.debugDescription) \(run.stderr.debugDescription)")
            #expect((run.stdout + run.stderr).contains("\\u{1B}]0;owned\\u{7}"), "\(arguments): \(run.stderr)")
        }
    }

    // MARK: Tables and row names

    /// Columns as a terminal draws them, for the names these tests use: CJK and emoji 2, combining marks 0.
    static func columns(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { sum, scalar in
            if scalar.properties.generalCategory == .nonspacingMark || (0x1F3FB...0x1F3FF).contains(scalar.value) { return sum }
            if (0x3000...0x9FFF).contains(scalar.value) || (0x1F300...0x1FAFF).contains(scalar.value) { return sum + 2 }
            return sum + 1
        }
    }

    /// A counterexample whose events and states are wide, narrow and combining lines its arrows up in one column.
    @Test func counterexampleColumnsLineUpByDisplayWidth() throws {
        let spec: [String: Any] = [
            "format": "authflow/1", "name": "wide names", "initial": "start", "success": ["done"], "abort": ["cancelled"],
            "steps": ["start": ["emits": ["日本語": []]], "🧑🏽 code": ["emits": ["e\u{301}\u{303}": [], "cancel": []]],
                      "e\u{301}\u{303}x": ["emits": ["go": [], "resend": []]], "done": [String: Any](), "cancelled": [String: Any]()],
            "transitions": [["from": "start", "on": "日本語", "to": "🧑🏽 code"], ["from": "🧑🏽 code", "on": "e\u{301}\u{303}", "to": "e\u{301}\u{303}x"],
                            ["from": "🧑🏽 code", "on": "cancel", "to": "cancelled"], ["from": "e\u{301}\u{303}x", "on": "go", "to": "done"]],
        ]
        let url = try Self.directory().appendingPathComponent("wide.json")
        try JSONSerialization.data(withJSONObject: spec).write(to: url)
        let run = try AuthCheckBinary.shipped.run(["check", url.path])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        let rows = run.stdout.split(separator: "\n").map(String.init).filter { $0.contains(" → ") && $0.contains(". ") }
        #expect(rows.count >= 3, "\(run.stdout)")
        let arrows = Set(rows.map { Self.columns(String($0[..<$0.range(of: " → ")!.lowerBound])) })
        #expect(arrows.count == 1, "the arrows stand in columns \(arrows.sorted()):\n\(rows.joined(separator: "\n"))")
        #expect(run.stdout.contains("e\u{301}\u{303}"), "a combining mark was cut")
    }

    /// Two dead rows whose names hold dots print apart (`"a.b".c`, `a."b.c"`) and SARIF gives each its own place.
    @Test func deadRowsWithDotsAreToldApart() throws {
        let spec = """
        {
          "format": "authflow/1", "name": "dots", "initial": "start", "success": ["done"], "abort": [],
          "steps": { "start": { "emits": { "go": [] } }, "a.b": { "emits": { "c": [] } }, "a": { "emits": { "b.c": [] } }, "done": {} },
          "transitions": [
            { "from": "start", "on": "go", "to": "done" },
            { "from": "a.b", "on": "c", "to": "done" },
            { "from": "a", "on": "b.c", "to": "done" }
          ]
        }
        """
        let url = try Self.directory().appendingPathComponent("dots.json")
        try Data(spec.utf8).write(to: url)
        let text = try AuthCheckBinary.shipped.run(["check", url.path])
        #expect(text.stdout.contains("\"a.b\".c") && text.stdout.contains("a.\"b.c\""), "\(text.stdout)")
        let sarif = try AuthCheckBinary.shipped.run(["check", "--format", "sarif", url.path])
        let log = try JSONSerialization.jsonObject(with: Data(sarif.stdout.utf8)) as? [String: Any]
        let results = ((log?["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]]) ?? []
        let dead = results.filter { $0["ruleId"] as? String == "dead-transition" }
        let places = dead.compactMap { result -> String? in
            let location = (result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]
            let region = location?["region"] as? [String: Any]
            return region.map { "\($0["startLine"] ?? "-"):\($0["startColumn"] ?? "-")" }
        }
        #expect(dead.count == 2 && Set(places).count == 2, "dead rows point at \(places): \(sarif.stdout.prefix(3_000))")
    }
}
