/// What recorded sessions did against their spec: `authcheck traces` prints it.
///
/// Built by ``TraceReplay``. Counts are exact whatever the input's size; the lists of findings and
/// problems keep the first ``TraceReplay/Options/maxListed`` of each, in input order, and count the rest.
package struct TraceReport: Sendable {
    /// Which rule of the spec a recorded session broke.
    package enum Property: String, Sendable, CaseIterable {
        /// A transition the spec does not allow from where the session was: an event the step does
        /// not emit or offer, one the table has no row for, or a row that goes elsewhere.
        case illegalTransition = "illegal-transition"
        /// A back where the spec forbids it: at the start of the flow, from a terminal state, or from a
        /// step that says `back: false`.
        case forbiddenBack = "forbidden-back"
        /// A back that did not land on the screen before.
        case undoMismatch = "undo-mismatch"
        /// A screen entered without data its step requires (key names only).
        case unmetRequirement = "unmet-requirement"
        /// A screen that asks for an assurance level entered with factor keys that do not meet it
        /// (section 6; by the key names the session's records added and cleared).
        case assurance
    }

    /// One place where a session broke the spec.
    package struct Finding: Hashable, Sendable {
        package var session: String
        /// The input it was read from, and its line there.
        package var file: String
        package var line: Int
        package var property: Property
        /// The state the session was in (or entered, for `unmet-requirement`).
        package var state: String
        package var event: String?
        package var message: String
    }

    /// What is wrong with a record itself, as opposed to the flow it records.
    package enum ProblemKind: String, Sendable, CaseIterable {
        /// Not a record: bad JSON, a missing or mistyped key, a line too long.
        case malformed
        /// The input ends, or a line breaks off, inside a record.
        case truncated
        /// Parts of more than one record on one line (two writers on one file).
        case interleaved
        /// The same record again in its session.
        case duplicate
        /// A record older than the one before it in its session.
        case outOfOrder = "out-of-order"
        /// A record that does not start where its session is (records missing, or two runs under one id).
        case outOfSequence = "out-of-sequence"
        /// A session whose first record is not at the start of the flow (its beginning is not in the input).
        case midFlow = "mid-flow"
    }

    /// One record that could not be read or does not fit its session.
    package struct Problem: Hashable, Sendable {
        package var file: String
        package var line: Int
        package var kind: ProblemKind
        /// The session, when the record could be read far enough to name it.
        package var session: String?
        package var message: String
    }

    /// How the sessions ended.
    package struct Sessions: Hashable, Sendable {
        /// Distinct runs: a session id seen again after it was closed for being idle counts again.
        package var total = 0
        /// Ended in a success state (a logout right after counts as the success).
        package var succeeded = 0
        /// Ended in an abort state.
        package var aborted = 0
        /// Ended anywhere else: the user left.
        package var abandoned = 0
        /// Broke the spec at least once.
        package var broken = 0
        /// The most sessions open at once.
        package var peakOpen = 0
    }

    /// One state's funnel.
    package struct StateFunnel: Hashable, Sendable {
        package var name: String
        package var isInitial: Bool
        package var isSuccess: Bool
        package var isAbort: Bool
        /// Whether the model reaches it.
        package var reachable: Bool
        /// Sessions that entered it at least once.
        package var sessions = 0
        /// Times it was entered: forward transitions into it, and each session's start at the initial state.
        package var entries = 0
        /// Forward transitions out of it.
        package var exits = 0
        /// Backs out of it.
        package var backs = 0
        /// Events and backs the runtime refused there (retries).
        package var rejections = 0
        /// Sessions that ended there without reaching a terminal state.
        package var dropped = 0
        /// Sessions that ended there, it being terminal.
        package var completed = 0

        /// `dropped` over `sessions`, or 0.
        package var dropRate: Double { sessions == 0 ? 0 : Double(dropped) / Double(sessions) }
    }

    /// One declared transition's funnel.
    package struct TransitionFunnel: Hashable, Sendable {
        package var from: String
        package var event: String
        package var to: String
        /// Whether it fires from a configuration the model reaches (not dead).
        package var fired: Bool
        /// Times a session took it.
        package var taken = 0
        /// `from.event`, as lint names transitions.
        package var id: String { "\(from).\(event)" }
    }

    /// A move production made that the table does not have, with how often.
    package struct OffSpecMove: Hashable, Sendable {
        package var from: String
        package var event: String
        package var to: String
        package var count: Int
    }

    /// The spec's path as given, and its flow's name.
    package var spec: String
    package var name: String?
    /// The inputs, in the order read.
    package var files: [String]
    /// Lines read (blank ones included), and records read from them.
    package var lines = 0
    package var records = 0
    package var bytes = 0
    package var sessions = Sessions()
    /// The findings listed, in input order, and how many there were of each property.
    package var findings: [Finding] = []
    package var findingCounts: [Property: Int] = [:]
    /// The problems listed, in input order, and how many there were of each kind.
    package var problems: [Problem] = []
    package var problemCounts: [ProblemKind: Int] = [:]
    /// Checks that could not be made on some sessions, each a sentence saying which and why.
    package var skipped: [String] = []
    /// Per state and per declared transition, in declaration order.
    package var states: [StateFunnel] = []
    package var transitions: [TransitionFunnel] = []
    /// Moves the table does not have, most frequent first (at most ``TraceReplay/Options/maxListed``).
    package var offSpec: [OffSpecMove] = []
    /// Seconds the replay took.
    package var seconds = 0.0

    /// Every finding, listed or not.
    package var findingTotal: Int { findingCounts.values.reduce(0, +) }
    /// Every problem, listed or not.
    package var problemTotal: Int { problemCounts.values.reduce(0, +) }
    /// Whether some session broke the spec.
    package var violated: Bool { sessions.broken > 0 }
    /// The declared transitions the model fires that no session took.
    package var neverTaken: [TransitionFunnel] { transitions.filter { $0.fired && $0.taken == 0 } }
}
