/// The output formats of one command, in the order `--format` lists them: the first is the default.
///
/// Each command declares its own enum, so its `--format` parser, its usage (`text|json|…`), the
/// command reference and the dispatch in its `run` all come from one list, and a switch over it is
/// exhaustive: a new case does not compile until the command says which renderer writes it.
/// The renderers live one folder per format under `Sources/AuthCheckCLI/Output/` (and
/// `Sources/AuthFlowChecker/Rendering/` for the reports the library writes too).
protocol OutputFormat: RawRepresentable, CaseIterable, Sendable, Hashable where RawValue == String, AllCases == [Self] {}

extension OutputFormat {
    /// The `--format` names, in order.
    static var names: [String] { allCases.map(\.rawValue) }
}

/// `check --format`.
enum CheckFormat: String, OutputFormat { case text, json, sarif, junit, html }

/// `explore --format`.
enum ExploreFormat: String, OutputFormat { case text, json, sarif, html }

/// `coverage --format`.
enum CoverageFormat: String, OutputFormat { case text, json, dot, mermaid, html }

/// `paths --format`.
enum PathsFormat: String, OutputFormat { case text, json, swift }

/// `traces --format`.
enum TracesFormat: String, OutputFormat { case text, json, dot, mermaid }

/// `fuzz --format`.
enum FuzzFormat: String, OutputFormat { case text, json }

/// `diff --format`.
enum DiffFormat: String, OutputFormat { case text, json, markdown, sarif }

/// `replay --format`.
enum ReplayFormat: String, OutputFormat { case text, swift }

/// `export --format`.
enum ExportFormat: String, OutputFormat { case promela }

/// `passcode --format`.
enum PasscodeFormat: String, OutputFormat { case text, json }
