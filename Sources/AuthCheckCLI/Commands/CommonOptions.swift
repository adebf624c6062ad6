import AuthFlowChecker

/// The options `check`, `explore` and `coverage` share, as declared for help and as parsed for a run.
enum CommonOptions {
    static let depthRange = 0...64
    static let defaultDepth = 12
    static let defaultWorkers = 1
    /// Seconds after which a run stops as incomplete unless --timeout says otherwise: no input can hang a CI job.
    static let defaultTimeout = 600.0
    static let workersRange = 1...256

    static let depth = OptionSpec("--depth", value: "N", help:
        "drive the runtime through every undo stack of at most N forward events (0...64; default \(defaultDepth))")
    static func format(_ choices: [String]) -> OptionSpec {
        OptionSpec("--format", value: choices.joined(separator: "|"), help:
            "output format (default text)" + (choices.contains("json") ? "; json prints the contract's report object" : ""))
    }
    static let property = OptionSpec("--property", value: "ID", repeatable: true, help:
        "check only these properties; repeat it or separate ids with commas (default: all; see 'authcheck help')")
    static let strict = OptionSpec("--strict", help:
        "lint findings (unreachable states, dead transitions, unused data) make the verdict violated (exit 1)")
    static let maxConfigurations = OptionSpec("--max-configurations", value: "N", help:
        "stop as incomplete (exit 3) once the complete search has stored N configurations (default \(CheckLimits.defaultMaxConfigurations))")
    static let timeout = OptionSpec("--timeout", value: "SECONDS", help:
        "stop as incomplete (exit 3) after this many seconds (default \(Int(defaultTimeout)))")
    static let workers = OptionSpec("--workers", value: "N", help:
        "threads that share the runtime walk (1...256; default \(defaultWorkers))")

    /// The options of a spec-checking command with the given formats.
    static func checking(formats: [String]) -> [OptionSpec] {
        [depth, format(formats), property, strict, maxConfigurations, timeout, workers]
    }
}

/// The settings of a spec-checking command, validated.
struct CheckSettings: Sendable {
    var depth = CommonOptions.defaultDepth
    var format = "text"
    var properties: Set<Property>?
    var strict = false
    var maxConfigurations = CheckLimits.defaultMaxConfigurations
    var timeout: Double? = CommonOptions.defaultTimeout
    var workers = CommonOptions.defaultWorkers

    /// Reads and validates the common options.
    /// - Throws: ``UsageError/invalidValue(option:value:reason:)`` naming the first bad value.
    init(_ parsed: ParsedArguments, formats: [String]) throws(UsageError) {
        if let text = parsed.value("--depth") {
            depth = try ValueParsers.integer(text, option: "--depth", in: CommonOptions.depthRange)
        }
        if let text = parsed.value("--format") {
            if !formats.contains(text), ["dot", "mermaid"].contains(text) {
                throw .invalidValue(option: "--format", value: text,
                                    reason: "\(text) draws coverage: use 'authcheck coverage --format \(text)'; here expected one of \(formats.joined(separator: ", "))")
            }
            format = try ValueParsers.choice(text, option: "--format", in: formats)
        }
        properties = try ValueParsers.properties(parsed.all("--property"))
        strict = parsed.flag("--strict")
        if let text = parsed.value("--max-configurations") {
            maxConfigurations = try ValueParsers.integer(text, option: "--max-configurations", in: 1...Int.max)
        }
        if let text = parsed.value("--timeout") {
            timeout = try ValueParsers.seconds(text, option: "--timeout")
        }
        if let text = parsed.value("--workers") {
            workers = try ValueParsers.integer(text, option: "--workers", in: CommonOptions.workersRange)
        }
    }

    /// The checker's options.
    var checkOptions: CheckOptions {
        CheckOptions(limits: CheckLimits(depth: depth, maxConfigurations: maxConfigurations, timeout: timeout),
                     properties: properties, strict: strict, workers: workers)
    }
}
