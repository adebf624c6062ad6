import AuthFlow
import AuthFlowChecker

/// `authcheck paths SPEC`: a small set of event paths from the start that together take every reachable transition.
enum PathsCommand: Subcommand {
    static let name = "paths"
    static let abstract = "event paths from the start that take every reachable transition"
    static let argumentsSynopsis = "SPEC"
    static let argumentsHelp = [(name: "SPEC", help: "one spec file (JSON, authflow/1 or authflow/2), or - for standard input")]
    static let formats = ["text", "json", "swift"]
    static let format = CommonOptions.format(formats, help: "output format (default text)")
    static let cover = Option("--cover", value: CoverTarget.allCases.map(\.rawValue).joined(separator: "|"),
                              help: "what the paths must cover together (default transitions)",
                              default: CoverTarget.transitions) { text, name throws(UsageError) in
        CoverTarget(rawValue: try ValueParsers.choice(text, option: name, in: CoverTarget.allCases.map(\.rawValue)))!
    }
    static let options = [cover.spec, format.spec, CommonOptions.variant.spec]
    static let discussion = [
        (title: "OUTPUT", body: """
            Paths of forward events from the initial state, for UI or snapshot tests to drive
            step by step: together they take every reachable transition (--cover transitions),
            enter every reachable state (states) or every reachable (state, data keys)
            configuration (configurations). A greedy tour: each path extends along the
            shortest way to the nearest transition not yet taken, and ends where nothing new
            is reachable. The summary gives the total steps against a lower bound (each step
            takes at most one new transition).
            --format swift writes a Swift Testing suite, one test per path, that loads the
            spec (found from the test file's folder upwards), drives a FlowSession through
            the path and checks the state and the data keys after every step:
              authcheck paths --format swift Specs/sign-in.json > Tests/AppTests/SignInPaths.swift
            """),
        (title: "EXIT STATUS", body: HelpFormatter.exitStatus(writing: "the paths were")),
    ]

    struct Settings: CommandSettings {
        var cover: CoverTarget
        var format: String
        var spec: String
        var variants: [String: Set<String>] = [:]

        init(_ parsed: ParsedArguments) throws(UsageError) {
            cover = try parsed.value(of: PathsCommand.cover)
            format = try parsed.value(of: PathsCommand.format)
            variants = try parsed.value(of: CommonOptions.variant)
            spec = try parsed.single("SPEC", reason: "paths takes one SPEC")
        }
    }

    static func run(_ settings: Settings, context: CommandContext) throws(UsageError) -> Int32 {
        switch SpecRunner.load(settings.spec, options: CheckOptions(variants: settings.variants), input: context.console) {
        case let .invalid(report):
            // The report goes where the paths would (swift gets the text report, as a person reads it).
            SpecRunner.reportInvalid(report, json: settings.format == "json", context: context)
            return 2
        case let .model(model):
            if SpecRunner.refusesDataDependent(model, command: "paths", spec: settings.spec, console: context.console) { return 2 }
            let cover = CoveringPaths(model: model, target: settings.cover)
            switch settings.format {
            case "json": context.console.out(json(cover, spec: settings.spec))
            case "swift": context.console.out(swiftTests(cover, spec: settings.spec, name: model.name))
            default: context.console.out(text(cover, spec: settings.spec))
            }
            return 0
        }
    }

    /// One line per path, `1. startAuth → email, knownEmail → password …`, then the summary.
    static func text(_ cover: CoveringPaths, spec: String) -> String {
        var lines = ["\(SpecRunner.displayName(spec)): \(ReportRenderer.counted(cover.paths.count, "path")) covering every reachable \(noun(cover.target))"]
        for (i, path) in cover.paths.enumerated() {
            let steps = zip(path.events, path.states).map { "\($0) → \($1)" }.joined(separator: ", ")
            lines.append("\(i + 1). \(steps)")
        }
        lines.append("total: \(ReportRenderer.counted(cover.length, "step")) for \(cover.reachable) reachable \(noun(cover.target))s; "
                     + "lower bound \(cover.lowerBound)")
        return lines.joined(separator: "\n")
    }

    static func noun(_ target: CoverTarget) -> String {
        switch target {
        case .transitions: return "transition"
        case .states: return "state"
        case .configurations: return "configuration"
        }
    }

    static func json(_ cover: CoveringPaths, spec: String) -> String {
        JSON.object(JSONObject([
            ("spec", .string(SpecRunner.displayName(spec))), ("cover", .string(cover.target.rawValue)),
            ("reachable", .int(cover.reachable)), ("lowerBound", .int(cover.lowerBound)), ("length", .int(cover.length)),
            ("paths", .array(cover.paths.map { path in
                .array(zip(path.events, zip(path.states, path.data)).map { event, frame in
                    .object(JSONObject([("event", .string(event)), ("state", .string(frame.0)), ("data", .array(frame.1.map(JSON.string)))]))
                })
            })),
        ])).rendered(pretty: true)
    }

    /// A Swift Testing suite with one test per path, driving a `FlowSession` built from the spec step by step.
    static func swiftTests(_ cover: CoveringPaths, spec: String, name: String?) -> String {
        let file = spec.split(separator: "/").suffix(2).joined(separator: "/")
        let words = (name ?? "flow").split { !$0.isLetter && !$0.isNumber }.map { $0.prefix(1).uppercased() + $0.dropFirst() }
        let suite = (words.joined().first?.isLetter == true ? words.joined() : "Flow" + words.joined()) + "Paths"
        func literal(_ text: String) -> String { JSON.string(text).rendered(pretty: false) }
        var lines = [
            "// Generated by `authcheck paths --format swift \(file)`: regenerate it when the spec changes, do not edit it.",
            "import AuthFlow",
            "import Foundation",
            "import Testing",
            "",
            "/// Every reachable transition of \(literal(name ?? file)), taken by \(cover.paths.count) paths of \(cover.length) steps.",
            "@Suite struct \(suite) {",
            "    /// A session of the spec, found from this file's folder upwards.",
            "    static func session() throws -> FlowSession<String, String, String, FlowValue> {",
            "        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()",
            "        while folder.path != \"/\" {",
            "            let spec = folder.appendingPathComponent(\(literal(file)))",
            "            if FileManager.default.fileExists(atPath: spec.path) { return try SpecLoader.load(file: spec.path).makeNamedSession() }",
            "            folder.deleteLastPathComponent()",
            "        }",
            "        throw CocoaError(.fileNoSuchFile)",
            "    }",
            "",
            "    /// Sends `event` with a value for each key it adds, and checks where the session is.",
            "    static func step(_ session: FlowSession<String, String, String, FlowValue>, _ event: String, to state: String,",
            "                     data: [String]) throws {",
            "        _ = try session.send(event) { .string(\"\\(event).\\($0)\") }",
            "        #expect(session.state == state)",
            "        #expect(session.data.count == data.count && data.allSatisfy { session.data[$0] != nil })",
            "    }",
        ]
        for (i, path) in cover.paths.enumerated() {
            lines.append("")
            lines.append("    /// " + zip(path.events, path.states).map { "\($0) → \($1)" }.joined(separator: ", "))
            lines.append("    @Test func path\(i + 1)() throws {")
            lines.append("        let session = try Self.session()")
            for (event, (state, data)) in zip(path.events, zip(path.states, path.data)) {
                lines.append("        try Self.step(session, \(literal(event)), to: \(literal(state)), data: [\(data.map(literal).joined(separator: ", "))])")
            }
            lines.append("    }")
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }
}
