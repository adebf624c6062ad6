import AuthFlow

/// A property authcheck decides, by its stable id (used in output and `--property`).
public enum Property: String, CaseIterable, Hashable, Sendable, Comparable {
    case illegalTransition = "illegal-transition"
    case unmetRequirement = "unmet-requirement"
    case deadlock
    case noExit = "no-exit"
    case terminalExit = "terminal-exit"
    case undoMismatch = "undo-mismatch"
    case divergence
    case passcode

    /// The id as printed and as `--property` takes it.
    public var id: String { rawValue }

    /// The properties decided on the spec's configuration graph (complete, no depth bound).
    public static let specProperties: [Property] = [.illegalTransition, .unmetRequirement, .deadlock, .noExit, .terminalExit]

    public static func < (lhs: Property, rhs: Property) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }

    /// One line saying what the property demands.
    public var summary: String {
        switch self {
        case .illegalTransition: return "every event a reachable step emits has a transition"
        case .unmetRequirement: return "every reachable screen is entered with the data it requires"
        case .deadlock: return "every reachable non-terminal state has a legal forward move"
        case .noExit: return "a terminal state stays reachable from every reachable state"
        case .terminalExit: return "terminal states emit nothing and have no outgoing transitions"
        case .undoMismatch: return "back restores exactly the previous state and data, and a rejected event changes nothing"
        case .divergence: return "the runtime agrees with the spec's semantics"
        case .passcode: return "the passcode normaliser is idempotent and stays within the policy"
        }
    }
}

/// One step of a counterexample path: the event taken (none for the first) and the frame after it.
public struct PathStep: Hashable, Sendable {
    /// The event that led here; `nil` for the initial frame; `"back"` for an undo in a fuzz path.
    public var event: String?
    /// The state after the step.
    public var state: String
    /// The data keys after the step, sorted.
    public var data: [String]
    /// The data values after the step, for paths found by running the runtime; secrets are `<redacted>`.
    public var values: [String: String]?

    public init(event: String?, state: String, data: [String], values: [String: String]? = nil) {
        self.event = event
        self.state = state
        self.data = data
        self.values = values
    }
}

/// A violated site with its shortest counterexample.
public struct Violation: Hashable, Sendable {
    /// The property violated.
    public var property: Property
    /// The state of the site.
    public var state: String
    /// The event of the site (for `illegal-transition`; the offending event for runtime properties).
    public var event: String?
    /// Why it is a violation, in words.
    public var message: String
    /// The path from the initial frame; its length is `path.count - 1` events.
    public var path: [PathStep]

    public init(property: Property, state: String, event: String? = nil, message: String, path: [PathStep]) {
        self.property = property
        self.state = state
        self.event = event
        self.message = message
        self.path = path
    }

    /// The number of events in the counterexample.
    public var length: Int { max(0, path.count - 1) }

    /// The site: `property@state` or `property@state.event`.
    public var site: String { event.map { "\(property.id)@\(state).\($0)" } ?? "\(property.id)@\(state)" }
}

/// Findings that are reported but are not violations (unless `--strict`).
public struct Lint: Hashable, Sendable {
    /// Steps no configuration reaches.
    public var unreachable: [String] = []
    /// Declared transitions never fired from a reachable configuration, as `from.event`.
    public var deadTransitions: [String] = []
    /// Data keys some step produces but no step requires.
    public var unusedData: [String] = []

    public init(unreachable: [String] = [], deadTransitions: [String] = [], unusedData: [String] = []) {
        self.unreachable = unreachable
        self.deadTransitions = deadTransitions
        self.unusedData = unusedData
    }

    /// Whether there is nothing to report.
    public var isEmpty: Bool { unreachable.isEmpty && deadTransitions.isEmpty && unusedData.isEmpty }
}

/// The outcome of a check.
public enum Verdict: String, Hashable, Sendable {
    case holds, violated, incomplete, invalid

    /// The process exit code the contract gives this verdict.
    public var exitCode: Int32 {
        switch self {
        case .holds: return 0
        case .violated: return 1
        case .invalid: return 2
        case .incomplete: return 3
        }
    }
}

/// A limit that stopped a run before it was complete.
public enum StopReason: Hashable, Sendable, CustomStringConvertible {
    case maxConfigurations(Int)
    case timeout(seconds: Double)

    public var description: String {
        switch self {
        case let .maxConfigurations(limit): return "--max-configurations \(limit) reached"
        case let .timeout(seconds): return "--timeout \(Self.format(seconds)) s reached"
        }
    }

    static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}

/// The figures of a run: how much was explored and how fast.
public struct Stats: Hashable, Sendable {
    /// Reachable states.
    public var states: Int = 0
    /// Reachable `(state, data keys)` configurations.
    public var configurations: Int = 0
    /// The depth bound of the stack walk.
    public var depth: Int = 0
    /// Distinct undo stacks of height at most depth + 1 (each driven through the runtime).
    public var stacks: Int = 0
    /// Wall-clock seconds for the whole check.
    public var seconds: Double = 0

    public init(states: Int = 0, configurations: Int = 0, depth: Int = 0, stacks: Int = 0, seconds: Double = 0) {
        self.states = states
        self.configurations = configurations
        self.depth = depth
        self.stacks = stacks
        self.seconds = seconds
    }

    /// Configurations (stacks driven) per second.
    public var rate: Double { seconds > 0 ? Double(max(stacks, configurations)) / seconds : 0 }
}
