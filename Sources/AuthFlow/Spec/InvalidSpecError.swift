/// One problem found in a spec: where it is and why it is wrong.
public struct SpecIssue: Hashable, Sendable, CustomStringConvertible {
    /// The JSON path of the offending value, e.g. `$.transitions[3].to`; ``wholeFile`` (empty) when
    /// the problem is the file itself, not a value in it.
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

    /// The path of a problem with the file itself (no such file, a directory, too large): it has no
    /// JSON path, so reports say `spec.json: no such file`, not `spec.json: $: no such file`.
    public static let wholeFile = ""

    /// Whether the problem is the file itself rather than a value in it.
    public var isWholeFile: Bool { path.isEmpty }

    /// Orders issues as they stand in the file: by line and column, those with no location last.
    public static func inDocumentOrder(_ lhs: SpecIssue, _ rhs: SpecIssue) -> Bool {
        switch (lhs.location, rhs.location) {
        case let (l?, r?): return (l.line, l.column) < (r.line, r.column)
        case (_?, nil): return true
        default: return false
        }
    }

    public var description: String {
        if isWholeFile { return message }
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
    /// The seconds of `--timeout` when the deadline stopped loading before the spec was read whole: the spec
    /// was not found invalid, the run is incomplete (exit 3) and ``issues`` holds the one issue that says so.
    public var timedOut: Double?

    public init(file: String? = nil, issues: [SpecIssue], timedOut: Double? = nil) {
        self.file = file
        self.issues = issues
        self.timedOut = timedOut
    }

    /// Loading stopped by `deadline` while doing `phase` (`parsing`): not a problem of the spec.
    static func timedOut(file: String?, deadline: Deadline, while phase: String) -> InvalidSpecError {
        InvalidSpecError(file: file, issues: [SpecIssue(path: "$", message: "\(deadline.stopReasonText) while \(phase), before the spec was loaded")],
                         timedOut: deadline.timeout ?? 0)
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
