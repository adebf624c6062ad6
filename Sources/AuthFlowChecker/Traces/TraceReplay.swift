import AuthFlow
import Foundation

/// Replays recorded sessions against their spec: every transition, back and reset, one record at a time.
///
/// Each session is a stack of frames `(state, keys, values)`, as the checker's own configurations
/// are, started at the flow's root. A transition record must be one of the moves the semantics
/// gives from the top frame (``FlowModel/successors(state:keys:values:into:)``, or the model's
/// `moves` table for a flow whose moves depend on the state alone): the same event and target,
/// and for a flow with valued keys the branch the record's values name. An undo pops, and is
/// flagged where the spec forbids back (the start, a terminal state, `back: false`) or when it
/// does not land on the screen before; a reset returns to the root. The keys each transition
/// added and cleared (by name) give the data the app held, and each screen entered is checked
/// against its `requires`. A flow with variants keeps, per session, the set of variants that
/// explain its records so far.
///
/// Records stream through: the replay holds the open sessions and nothing per record, so its
/// memory follows the sessions open at once, not the input's length. A session closes at the
/// end of the input, or once no record of it has come for ``Options/sessionTimeout`` seconds of
/// the records' own time.
///
/// ```swift
/// var replay = TraceReplay(model: model, spec: "Specs/email-first.json")
/// try replay.read(.file("sessions.jsonl"))
/// let report = replay.finish()
/// ```
/// - Complexity: O(*n*) in the input's bytes; per record O(the successors of the top frame) for a
///   flow with guards or values, O(1) otherwise. Memory O(open sessions × their stack height).
package struct TraceReplay {
    /// How a replay runs.
    package struct Options: Sendable {
        /// How many findings and problems the report lists (it counts them all).
        package var maxListed = 100
        /// Seconds of the records' time without a record after which a session is closed
        /// (abandoned, unless it ended), so that memory stays bounded; `nil` keeps every session
        /// open to the end of the input.
        package var sessionTimeout: Double? = 1800
        /// The most frames kept per session; older ones are dropped (a back below them is not checked).
        package var maxStackHeight = 4096
        package init() {}
    }

    let model: FlowModel
    let options: Options
    let progress: TraceProgress?
    let states: TraceNameTable
    let events: TraceNameTable
    let keys: TraceNameTable
    /// Per key, its values for a valued key (nil for the others).
    let domains: [TraceNameTable?]
    let stateCount: Int
    let eventCount: Int
    let initial: Int32
    let isStatic: Bool
    /// For a static flow, per `state * eventCount + event`: the target, -1 when the step emits the
    /// event but the table has no row, -2 when the step does not emit it; the keys added; the row.
    var staticTarget: [Int32] = []
    var staticAdds: [UInt64] = []
    var staticRow: [Int32] = []
    let requires: [UInt64]
    let anyOf: [[UInt64]]
    let canGoBack: [Bool]
    let isTerminal: [Bool]
    let secrets: UInt64
    /// Whether some step asks for an assurance level (section 6): then each screen a session enters is judged by it.
    let checksAssurance: Bool
    /// The bits of the config keys (presence) and of their value fields.
    let configKeys: UInt64
    let configValues: UInt64
    let variantCount: Int

    var sessions = TraceSessionTable()
    var report: TraceReport
    var fileIndex = 0
    var fileName = ""
    /// The newest timestamp seen, and when idle sessions were last looked for.
    var newest: Int64 = .min
    var lastSweep: Int64 = .min
    var funnelStates: [TraceReport.StateFunnel]
    /// Times each row of ``TraceReport/transitions`` was taken.
    var taken: [Int]
    /// The funnel row of an `anywhere` row taken from a state, by `row * stateCount + state`.
    var anywhere: [Int: Int] = [:]
    var offSpec: [String: Int] = [:]
    var offSpecOther = 0
    var sessionsLackingData = 0
    var sessionsAssumingValues = 0
    var sessionsEndedOffSpec = 0
    var stackTrimmed = 0
    /// The limit that cut the search of what the model reaches, if one did.
    var searchCutBy: StopReason?
    var scanner = _TrackedLineScanner()
    var successors: [FlowModel.Successor] = []
    var record = Record()
    let start = Date()

    /// A record with its names interned.
    struct Record {
        var kind: TrackedKind = .transition
        var timestamp: Int64 = 0
        /// Ids, -1 for a name the spec does not have, -2 when absent.
        var from: Int32 = -2
        var event: Int32 = -2
        var to: Int32 = -2
        /// The names the spec does not have, kept for messages.
        var fromName = ""
        var eventName = ""
        var toName = ""
        var hasData = false
        var added: UInt64 = 0
        var cleared: UInt64 = 0
        /// Recorded values: key id and value index (-1 for a value outside the key's domain), valued keys only.
        var valueKeys: [Int32] = []
        var valueIndices: [Int32] = []
        /// The recorded values as text, for messages (non-secret keys only).
        var valueText: [(String, String)] = []

        /// A hash of what the record says, to recognise the same record sent twice.
        var fingerprint: UInt64 {
            var h = UInt64(bitPattern: timestamp) &* 0x9E37_79B9_7F4A_7C15
            h ^= UInt64(kind.hashCode) &+ UInt64(UInt32(bitPattern: from)) << 8
            h = (h ^ (h >> 31)) &* 0xBF58_476D_1CE4_E5B9
            h ^= UInt64(UInt32(bitPattern: event)) | UInt64(UInt32(bitPattern: to)) << 32
            h = (h ^ (h >> 27)) &* 0x94D0_49BB_1331_11EB
            h ^= added &+ cleared &* 31
            return h ^ (h >> 31)
        }
    }

    /// A replay of sessions recorded for `model`, reported under the spec's path `spec`.
    /// - Parameter deadline: when the search of what the model reaches (the funnel's reachable states and fired rows) stops;
    ///   a cut search is said in ``TraceReport/skipped``.
    package init(model: FlowModel, spec: String, options: Options = Options(), progress: TraceProgress? = nil, deadline: Deadline = .none) {
        self.model = model
        self.options = options
        self.progress = progress
        states = TraceNameTable(model.states)
        events = TraceNameTable(model.events)
        keys = TraceNameTable(model.keys)
        domains = model.layout.domains.enumerated().map { k, domain in
            model.layout.isValued(k) ? TraceNameTable(domain) : nil
        }
        stateCount = model.stateCount
        eventCount = model.events.count
        initial = model.initial.rawValue
        isStatic = model.isStatic
        requires = model.requires.map(\.bits)
        anyOf = model.anyOf.map { $0.map(\.bits) }
        canGoBack = model.canGoBack
        isTerminal = model.isTerminal
        secrets = model.secrets.bits
        checksAssurance = model.assurance.protectsSomeStep
        configKeys = model.layout.configKeys
        configValues = model.layout.configValues
        variantCount = model.roots.count
        report = TraceReport(spec: spec, name: model.name, files: [])
        // What the model reaches, to set what production walked against it.
        let graph = FlowAnalysis(model: model, limits: .supporting).graph(within: deadline)
        searchCutBy = graph.stoppedBy
        funnelStates = model.states.indices.map { s in
            TraceReport.StateFunnel(name: model.states[s], isInitial: s == model.initial.index, isSuccess: model.isSuccess[s],
                                    isAbort: model.isAbort[s], reachable: graph.isReachable(s))
        }
        let fired = graph.firedRows()
        report.transitions = model.rows.enumerated().map { i, row in
            TraceReport.TransitionFunnel(from: model.states[row.from.index], event: model.events[row.event.index],
                                         to: model.states[row.to.index], fired: fired[i])
        }
        // Rows `anywhere` gives each state have indices past the declared table: one funnel row per state.
        for (state, emissions) in model.emissions.enumerated() {
            for emission in emissions {
                for row in emission.rows where row.row >= model.rows.count {
                    anywhere[row.row * model.stateCount + state] = report.transitions.count
                    report.transitions.append(TraceReport.TransitionFunnel(
                        from: model.states[state], event: model.events[emission.event.index], to: model.states[row.to.index],
                        fired: graph.isReachable(state)))
                }
            }
        }
        taken = [Int](repeating: 0, count: report.transitions.count)
        if isStatic {
            let cells = stateCount * eventCount
            staticTarget = [Int32](repeating: -2, count: cells)
            staticAdds = [UInt64](repeating: 0, count: cells)
            staticRow = [Int32](repeating: -1, count: cells)
            var rowOf: [Int: Int32] = [:]
            for (i, row) in model.rows.enumerated() {
                let cell = row.from.index * eventCount + row.event.index
                if rowOf[cell] == nil { rowOf[cell] = Int32(i) }
            }
            for s in 0..<stateCount {
                for move in model.moves[s] {
                    let cell = s * eventCount + move.event.index
                    staticTarget[cell] = move.target?.rawValue ?? -1
                    staticAdds[cell] = move.adds.bits
                    staticRow[cell] = move.target == nil ? -1 : rowOf[cell] ?? -1
                }
            }
        }
        record.valueKeys.reserveCapacity(8)
        record.valueIndices.reserveCapacity(8)
    }

    /// Reads every record of `input`, in order, continuing the sessions earlier inputs opened.
    /// - Throws: ``TraceInput/Failure`` when the input cannot be read part way; what was read counts.
    package mutating func read(_ input: TraceInput) throws {
        fileIndex = report.files.count
        fileName = input.name
        report.files.append(input.name)
        var counted = 0
        let bytes = try input.lines { line in
            report.lines += 1
            handle(line)
            counted += 1
            if counted & 0xFFFF == 0, let progress {
                progress.update(records: report.records, lines: report.lines, open: sessions.count)
            }
        }
        report.bytes += bytes
        progress?.update(records: report.records, lines: report.lines, open: sessions.count)
    }

    /// Closes every open session and returns the report.
    package mutating func finish() -> TraceReport {
        for slot in sessions.slots.indices where sessions.live[slot] { close(slot) }
        var report = self.report
        report.states = funnelStates
        for i in report.transitions.indices { report.transitions[i].taken = taken[i] }
        report.offSpec = offSpec.map { key, count in
            let parts = key.split(separator: "\u{0}", omittingEmptySubsequences: false).map(String.init)
            return TraceReport.OffSpecMove(from: parts[0], event: parts[1], to: parts[2], count: count)
        }.sorted { ($0.count, $1.from, $1.event, $1.to) > ($1.count, $0.from, $0.event, $0.to) }
        if report.offSpec.count > options.maxListed { report.offSpec.removeLast(report.offSpec.count - options.maxListed) }
        report.skipped = skippedChecks()
        report.seconds = Date().timeIntervalSince(start)
        return report
    }

    /// Sentences for the checks some sessions could not have.
    func skippedChecks() -> [String] {
        var notes: [String] = []
        func sessions(_ n: Int) -> String { n == 1 ? "1 session" : "\(n) sessions" }
        if sessionsLackingData > 0 {
            notes.append("requirements not checked where \(sessions(sessionsLackingData)) had records without the keys added "
                         + "and cleared (written by a tracker before they were recorded)")
        }
        if sessionsAssumingValues > 0 {
            notes.append("\(sessions(sessionsAssumingValues)) took a branch whose values were not recorded "
                         + "(secret or older records): the first branch that fits was assumed")
        }
        if sessionsEndedOffSpec > 0 {
            notes.append("\(sessions(sessionsEndedOffSpec)) ended at a state the spec does not have; not counted as a drop at any state")
        }
        if let searchCutBy {
            notes.append("the model's configurations were searched in part (\(searchCutBy.supportingDescription)): states and transitions it did not reach "
                         + "are listed as unreachable and dead, and never-taken lists only the transitions it saw fire")
        }
        if stackTrimmed > 0 {
            notes.append("\(sessions(stackTrimmed)) grew past \(options.maxStackHeight) frames; backs below the frames kept were not checked")
        }
        return notes
    }
}

extension TrackedKind {
    /// A small number per kind, for fingerprints.
    var hashCode: Int {
        switch self {
        case .transition: 1
        case .rejection: 2
        case .undo: 3
        case .reset: 4
        }
    }
}

/// Live counters of a running replay, read by a progress display on another thread.
package final class TraceProgress: @unchecked Sendable {
    /// The counters at one moment.
    package struct Snapshot: Hashable, Sendable {
        package var records = 0
        package var lines = 0
        package var open = 0
    }

    private let lock = NSLock()
    private var current = Snapshot()

    package init() {}

    /// Records where the replay is.
    package func update(records: Int, lines: Int, open: Int) {
        lock.withLock { current = Snapshot(records: records, lines: lines, open: open) }
    }

    /// The latest counters.
    package var snapshot: Snapshot { lock.withLock { current } }
}
