/// An `authflow/1` flow spec by name, as written in a JSON file or declared in Swift.
///
/// A spec is only a description; ``FlowModel/init(spec:)`` validates it and interns its names
/// into the dense model the runtime and the checker run on. Order is kept everywhere (steps,
/// events, transitions) because it fixes which shortest counterexample is reported.
public struct FlowSpec: Hashable, Sendable {
    /// One screen: its input contract, output contract and whether back is allowed.
    public struct Step: Hashable, Sendable {
        public var state: String
        public var requires: [String]
        public var emits: [Emission]
        public var back: Bool

        public init(_ state: String, requires: [String] = [], emits: [Emission] = [], back: Bool = true) {
            self.state = state
            self.requires = requires
            self.emits = emits
            self.back = back
        }
    }

    /// One event a step can send and the data keys it adds.
    public struct Emission: Hashable, Sendable {
        public var event: String
        public var adds: [String]

        public init(_ event: String, adds: [String] = []) {
            self.event = event
            self.adds = adds
        }
    }

    /// One row of the transition table.
    public struct TransitionRow: Hashable, Sendable {
        public var from: String
        public var on: String
        public var to: String

        public init(from: String, on: String, to: String) {
            self.from = from
            self.on = on
            self.to = to
        }
    }

    public var name: String?
    public var description: String?
    public var initial: String
    public var success: [String]
    public var abort: [String]
    public var steps: [Step]
    public var transitions: [TransitionRow]
    public var passcode: PasscodePolicy?
    public var secrets: [String]

    public init(
        name: String? = nil, description: String? = nil, initial: String,
        success: [String], abort: [String], steps: [Step], transitions: [TransitionRow],
        passcode: PasscodePolicy? = nil, secrets: [String] = []
    ) {
        self.name = name
        self.description = description
        self.initial = initial
        self.success = success
        self.abort = abort
        self.steps = steps
        self.transitions = transitions
        self.passcode = passcode
        self.secrets = secrets
    }
}

/// One problem found in a spec: where it is and why it is wrong.
public struct SpecIssue: Hashable, Sendable, CustomStringConvertible {
    /// The JSON path of the offending value, e.g. `$.transitions[3].to`.
    public var path: String
    /// Where the value starts in the file, when the spec came from a file.
    public var location: SourceLocation?
    /// What is wrong, in words a person can act on.
    public var message: String

    public init(path: String, location: SourceLocation? = nil, message: String) {
        self.path = path
        self.location = location
        self.message = message
    }

    /// Orders issues as they stand in the file: by line and column, those with no location last.
    public static func inDocumentOrder(_ lhs: SpecIssue, _ rhs: SpecIssue) -> Bool {
        switch (lhs.location, rhs.location) {
        case let (l?, r?): return (l.line, l.column) < (r.line, r.column)
        case (_?, nil): return true
        default: return false
        }
    }

    public var description: String {
        if let location { return "\(location): \(path): \(message)" }
        return "\(path): \(message)"
    }
}

/// A spec that cannot be checked, with every problem found in it (exit 2).
public struct InvalidSpecError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file the spec came from, when it came from one.
    public var file: String?
    /// Every problem found, in document order; never empty.
    public var issues: [SpecIssue]

    public init(file: String? = nil, issues: [SpecIssue]) {
        self.file = file
        self.issues = issues
    }

    /// The first problem (the one a one-line report shows).
    public var first: SpecIssue { issues[0] }

    public var description: String {
        issues.map { issue in
            guard let file else { return issue.description }
            return issue.location == nil ? "\(file): \(issue)" : "\(file):\(issue)"
        }.joined(separator: "\n")
    }
}
