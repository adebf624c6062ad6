import AuthFlowChecker
import Foundation

/// The options several commands share, each declared once with its parser and default.
enum CommonOptions {
    static let depthRange = 0...64
    static let defaultDepth = 12
    /// One walking thread per core, at most ``maximumDefaultWorkers``: the walk's results do not depend on how many share it.
    static let defaultWorkers = min(maximumDefaultWorkers, max(1, ProcessInfo.processInfo.activeProcessorCount))
    static let maximumDefaultWorkers = 8
    /// Seconds after which a run stops as incomplete unless --timeout says otherwise: no input can hang a CI job.
    static let defaultTimeout = 600.0
    static let workersRange = 1...256

    /// `--depth N`, with the help a command gives it.
    static func depth(help: String) -> Option<Int> {
        Option("--depth", value: "N", help: help, default: defaultDepth) { text, name throws(UsageError) in
            try ValueParsers.integer(text, option: name, in: depthRange)
        }
    }

    static let depth = depth(help:
        "drive the runtime through every undo stack of at most N forward events (0...64; default \(defaultDepth))")

    /// `--format` among the cases of `Format` (the first is the default), with the help a command gives it.
    /// - Parameter drawsElsewhere: whether `dot` and `mermaid` get a pointer to `coverage`.
    static func format<Format: OutputFormat>(_: Format.Type, help: String? = nil, drawsElsewhere: Bool = false) -> Option<Format> {
        let choices = Format.names
        let help = help ?? "output format (default \(choices[0]))" + (choices.contains("json") ? "; json prints the contract's report object" : "")
        return Option("--format", value: choices.joined(separator: "|"), help: help, default: Format.allCases[0]) { text, name throws(UsageError) in
            if drawsElsewhere, !choices.contains(text), ["dot", "mermaid"].contains(text) {
                throw .invalidValue(option: name, value: text,
                                    reason: "\(text) draws coverage: use 'authcheck coverage --format \(text)'; here expected one of \(choices.joined(separator: ", "))")
            }
            return try ValueParsers.choice(text, option: name, in: Format.self)
        }
    }

    static let property = Option<Set<Property>?>(repeating: "--property", value: "ID", help:
        "check only these properties; repeat it or separate ids with commas (default: all; see 'authcheck help')") { texts, name throws(UsageError) in
        try ValueParsers.properties(texts, option: name)
    }

    static let strict = Option(flag: "--strict", help:
        "lint findings (unreachable states, dead transitions, unused data) make the verdict violated (exit 1)")

    static let maxConfigurations = Option("--max-configurations", value: "N", help:
        "stop as incomplete (exit 3) once the complete search has stored N configurations (default \(CheckLimits.defaultMaxConfigurations))",
        default: CheckLimits.defaultMaxConfigurations) { text, name throws(UsageError) in
        try ValueParsers.integer(text, option: name, in: 1...Int.max)
    }

    static let timeout = Option<Double?>("--timeout", value: "SECONDS", help:
        "stop as incomplete (exit 3) after this many seconds (default \(Int(defaultTimeout)))",
        default: defaultTimeout) { text, name throws(UsageError) in
        try ValueParsers.seconds(text, option: name)
    }

    static let variant = Option<[String: Set<String>]>(repeating: "--variant", value: "KEY=VALUE", help:
        "authflow/2: check only the variants whose config KEY is VALUE; repeat it (one KEY given twice allows either value)") { texts, name throws(UsageError) in
        var selection: [String: Set<String>] = [:]
        for text in texts {
            guard let equals = text.firstIndex(of: "="), equals != text.startIndex, text.index(after: equals) != text.endIndex else {
                throw .invalidValue(option: name, value: text, reason: "expected KEY=VALUE, a config key and one of its values")
            }
            selection[String(text[..<equals]), default: []].insert(String(text[text.index(after: equals)...]))
        }
        return selection
    }

    static let workers = Option("--workers", value: "N", help:
        "threads that share the runtime walk (1...256; default one per core, at most \(maximumDefaultWorkers))", default: defaultWorkers) { text, name throws(UsageError) in
        try ValueParsers.integer(text, option: name, in: workersRange)
    }
}

/// The options of a spec-checking command (`check`, `explore`, `coverage`), as that command declares them.
struct CheckingOptions<Format: OutputFormat>: Sendable {
    var depth = CommonOptions.depth
    var format: Option<Format>
    var property = CommonOptions.property
    var strict = CommonOptions.strict
    var maxConfigurations = CommonOptions.maxConfigurations
    var timeout = CommonOptions.timeout
    /// `--workers`, for the commands that drive the runtime.
    var workers: Option<Int>? = CommonOptions.workers
    var variant = CommonOptions.variant

    /// The options in the order help lists them.
    var specs: [OptionSpec] {
        [depth.spec, format.spec, property.spec, strict.spec, maxConfigurations.spec, timeout.spec] + (workers.map { [$0.spec] } ?? [])
            + [variant.spec]
    }
}

/// The settings of a spec-checking command, validated.
struct CheckSettings<Format: OutputFormat>: Sendable {
    var depth: Int
    var format: Format
    var properties: Set<Property>?
    var strict: Bool
    var maxConfigurations: Int
    var timeout: Double?
    var workers: Int
    var variants: [String: Set<String>]

    /// Reads and validates the checking options, in the order help lists them.
    /// - Throws: ``UsageError/invalidValue(option:value:reason:)`` naming the first bad value.
    init(_ parsed: ParsedArguments, options: CheckingOptions<Format>) throws(UsageError) {
        depth = try parsed.value(of: options.depth)
        format = try parsed.value(of: options.format)
        properties = try parsed.value(of: options.property)
        strict = try parsed.value(of: options.strict)
        maxConfigurations = try parsed.value(of: options.maxConfigurations)
        timeout = try parsed.value(of: options.timeout)
        workers = try options.workers.map { option throws(UsageError) in try parsed.value(of: option) } ?? CommonOptions.defaultWorkers
        variants = try parsed.value(of: options.variant)
    }

    /// The checker's options.
    var checkOptions: CheckOptions {
        CheckOptions(limits: CheckLimits(depth: depth, maxConfigurations: maxConfigurations, timeout: timeout),
                     properties: properties, strict: strict, workers: workers, variants: variants)
    }
}
