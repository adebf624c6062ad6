import AuthFlow
import AuthFlowChecker

/// A Swift Testing suite that drives the app's adapter: the preamble every generated suite shares, sync or `async`.
///
/// The tours of `paths --format swift --adapter TYPE` and the trails of `replay --format swift
/// --adapter TYPE` are written through it: each test makes the app (`TYPE()`, or what a test sets in
/// the suite's task-local `make`) and asks the spec's conformance checks to drive it. With `--async`
/// the adapter is an `AsyncFlowUnderTest`, made on the main actor, and every test awaits it.
struct AdapterSuite {
    /// The adapter as given: `TYPE` or `MODULE.TYPE`.
    let adapter: String
    /// Whether the adapter is an `AsyncFlowUnderTest` (`--async`).
    let isAsync: Bool
    /// The spec's path as the tests find it: its last two components (`Specs/sign-in.json`).
    let file: String

    init(adapter: String, isAsync: Bool, spec: String) {
        self.adapter = adapter
        self.isAsync = isAsync
        self.file = spec.split(separator: "/").suffix(2).joined(separator: "/")
    }

    static let asyncFlag = Option(flag: "--async", help:
        "with --adapter: TYPE is an AsyncFlowUnderTest (a @MainActor model awaiting its backend); the tests are async and await it")

    /// `text` when it names a Swift type, `TYPE` or `MODULE.TYPE`.
    static func typeName(_ text: String, option name: String) throws(UsageError) -> String {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...2).contains(parts.count), parts.allSatisfy({ SwiftText.isIdentifier(String($0)) }) else {
            throw UsageError.invalidValue(option: name, value: text, reason: "a Swift type name, TYPE or MODULE.TYPE")
        }
        return text
    }

    /// The index of the variant `values` names among all the spec's variants, as a test that loads the whole spec numbers them.
    ///
    /// `--variant` leaves some variants out of `model`, renumbering the rest; the generated tests load the spec
    /// itself, whose variants are every combination of its config values, the first key varying slowest.
    static func specVariant(_ values: [String: String], model: FlowModel) -> Int? {
        var index = 0
        for config in model.spec.config {
            guard let value = values[config.key], let position = config.values.firstIndex(of: value) else { return nil }
            index = index * config.values.count + position
        }
        return index
    }

    /// ``specVariant(_:model:)`` of a path's variant, with its name in `model`.
    static func specVariant(_ pairs: [FlowSpec.KeyValue], model: FlowModel) -> (index: Int, name: String)? {
        let values = Dictionary(pairs.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        guard let index = specVariant(values, model: model), let local = FlowTrail.variantIndex(values, model: model) else { return nil }
        return (index, model.variantNames[local])
    }

    var type: String { adapter.split(separator: ".").last.map(String.init) ?? adapter }
    /// `FlowConformance<TYPE>` or `AsyncFlowConformance<TYPE>`.
    var conformance: String { (isAsync ? "AsyncFlowConformance" : "FlowConformance") + "<\(type)>" }
    /// The options as the command line gave them, for the header.
    var options: String { "--adapter \(SwiftText.comment(adapter))" + (isAsync ? " --async" : "") }

    /// The imports, the suite's doc comment `doc`, its `make` (the app each `noun` drives) and its `conformance()`, up to the first test.
    func preamble(suite: String, doc: [String], each noun: String) -> [String] {
        var lines = ["import AuthFlow", "import AuthFlowChecker", "import Foundation"]
        let parts = adapter.split(separator: ".")
        if parts.count == 2 { lines.append("import \(parts[0])") }
        lines += ["import Testing", ""] + doc.map { "///" + ($0.isEmpty ? "" : " " + $0) }
        lines += ["@Suite struct \(suite) {"]
        if isAsync {
            lines += [
                "    /// Makes the app each \(noun) drives: `\(type)()` on the main actor, unless a test sets another (`$make.withValue`).",
                "    @TaskLocal static var make: @Sendable () async -> \(type) = { await MainActor.run { \(type)() } }",
            ]
        } else {
            lines += [
                "    /// Makes the app each \(noun) drives: `\(type)()`, unless a test sets another (`$make.withValue`).",
                "    @TaskLocal static var make: @Sendable () -> \(type) = { \(type)() }",
            ]
        }
        lines += [
            "",
            "    /// The conformance checks of the spec, found from this file's folder upwards, on the apps `make` returns.",
            "    static func conformance() throws -> \(conformance) {",
            "        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()",
            "        while folder.path != \"/\" {",
            "            let spec = folder.appendingPathComponent(\(SwiftText.literal(file)))",
            "            if FileManager.default.fileExists(atPath: spec.path) { return \(isAsync ? "AsyncFlowConformance" : "FlowConformance")(model: try SpecLoader.load(file: spec.path), make: make) }",
            "            folder.deleteLastPathComponent()",
            "        }",
            "        throw CocoaError(.fileNoSuchFile)",
            "    }",
        ]
        return lines
    }

    /// `@Test func NAME() throws {`, or `async throws` for an async adapter; `display` names it in the test report.
    func testHead(_ name: String, display: String? = nil) -> String {
        "    @Test\(display.map { "(\(SwiftText.literal($0)))" } ?? "") func \(name)() \(isAsync ? "async " : "")throws {"
    }

    /// `try Self.conformance()`, awaited for an async adapter: the receiver of the test's `problem` call.
    var checks: String { isAsync ? "try await Self.conformance()" : "try Self.conformance()" }
}

extension PathsCommand {
    /// A Swift Testing suite with one test per tour, each driving the app's adapter `suite.adapter` step by step.
    ///
    /// Each test makes the app (`TYPE()`, or what a test sets in the suite's task-local `make`) and
    /// asks ``FlowConformance/problem(tour:chosen:variant:)`` (awaited on ``AsyncFlowConformance`` for an
    /// async adapter) to drive it through the tour: after every step its state and data must equal the
    /// spec's frame. `MODULE.TYPE` imports `MODULE`.
    static func appTests(_ cover: CoveringPaths, spec: String, name: String?, model: FlowModel, suite adapter: AdapterSuite) -> String {
        let file = adapter.file
        let suite = SwiftText.typeName(name ?? "flow", fallback: "Flow") + "Tours"
        func literal(_ text: String) -> String { SwiftText.literal(text) }
        var lines = cover.stoppedBy.map { ["// \(incompleteText(cover, $0)): these tests do not take every reachable \(noun(cover.target))."] } ?? []
        lines.append("// Generated by `authcheck paths --format swift \(adapter.options) \(SwiftText.comment(file))`: "
                     + "regenerate it when the spec changes, do not edit it.")
        lines += adapter.preamble(suite: suite, doc: [
            "Every reachable transition of \(literal(name ?? file)), taken by \(cover.paths.count) tours of \(cover.length) steps, each driven on the app's `\(adapter.type)`.",
            "",
            "After every step the app's state and data must equal the spec's frame (`\(adapter.isAsync ? "AsyncFlowConformance" : "FlowConformance").problem(tour:)`).",
        ], each: "tour")
        for (i, path) in cover.paths.enumerated() {
            var arguments = "[" + path.events.map(literal).joined(separator: ", ") + "]"
            // The system's answers the tour chose, by step; a secret's value is not printed, so the checker picks one.
            let chosen = path.chosen.enumerated().compactMap { step, values -> String? in
                let shown = values.filter { $0.value != "<redacted>" }
                guard !shown.isEmpty else { return nil }
                return "\(step): [" + shown.map { "\(literal($0.key)): \(literal($0.value))" }.joined(separator: ", ") + "]"
            }
            if !chosen.isEmpty { arguments += ", chosen: [" + chosen.joined(separator: ", ") + "]" }
            if !(path.variant ?? []).isEmpty, let variant = AdapterSuite.specVariant(path.variant ?? [], model: model) {
                arguments += ", variant: \(variant.index)"
            }
            lines += [
                "",
                "    /// " + SwiftText.comment(PathsCommand.variantPrefix(path) + PathsCommand.stepsText(path)),
                adapter.testHead("tour\(i + 1)"),
                "        #expect(\(adapter.checks).problem(tour: \(arguments)) == nil)",
                "    }",
            ]
        }
        lines.append("}")
        return lines.joined(separator: "\n")
    }
}
