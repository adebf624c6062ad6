/// A funnel summary of a tracked log: how often each state was entered, where sessions stopped, how many finished.
///
/// Computed by ``FlowTracker/funnel(of:success:abort:)``; see there for how events are read.
public struct Funnel: Equatable, Sendable {
    /// The number of distinct session ids in the log.
    public var sessions: Int
    /// How many times each state was entered by a forward transition, plus one for each
    /// session's first state. Undos and resets do not count as entries.
    public var entries: [String: Int]
    /// For each non-terminal state, the number of sessions whose current state was that state
    /// when their events ended: where users dropped off.
    public var dropOff: [String: Int]
    /// Sessions that ended in a success state.
    public var completedToSuccess: Int
    /// Sessions that ended in an abort state.
    public var completedToAbort: Int
    /// ``completedToSuccess`` / ``sessions``, or 0 when there are no sessions.
    public var successRate: Double
    /// ``completedToAbort`` / ``sessions``, or 0 when there are no sessions.
    public var abortRate: Double

    /// Creates a funnel from its counts; the rates are computed from them.
    public init(sessions: Int, entries: [String: Int], dropOff: [String: Int], completedToSuccess: Int, completedToAbort: Int) {
        self.sessions = sessions
        self.entries = entries
        self.dropOff = dropOff
        self.completedToSuccess = completedToSuccess
        self.completedToAbort = completedToAbort
        self.successRate = sessions == 0 ? 0 : Double(completedToSuccess) / Double(sessions)
        self.abortRate = sessions == 0 ? 0 : Double(completedToAbort) / Double(sessions)
    }

    /// The funnel as a JSON object for reports, with the keys of ``entries`` and ``dropOff`` sorted.
    package var json: JSON {
        func sorted(_ counts: [String: Int]) -> JSON {
            .object(JSONObject(counts.sorted { $0.key < $1.key }.map { ($0.key, JSON.int($0.value)) }))
        }
        return [
            "sessions": .int(sessions),
            "entries": sorted(entries),
            "dropOff": sorted(dropOff),
            "completedToSuccess": .int(completedToSuccess),
            "completedToAbort": .int(completedToAbort),
            "successRate": .double(successRate),
            "abortRate": .double(abortRate),
        ]
    }
}

extension FlowTracker {
    /// Summarises a log, from one tracker or many merged, as a funnel over its sessions.
    ///
    /// Events are grouped by ``TrackedEvent/sessionID``; within a session they are taken in
    /// timestamp order, ties in log order. Each session is replayed to know its current state:
    ///
    /// - Its first state is the first event's `from`; it counts once in ``Funnel/entries``.
    /// - A transition enters its `to` (an entry) and pushes it on the session's history; one
    ///   without a `to` is ignored.
    /// - A rejection changes nothing.
    /// - An undo pops the history and lands on its `to` when it has one (the log is trusted
    ///   over the replay).
    /// - A reset lands on its `to`, or on the session's first state, and clears the history.
    ///
    /// The session's outcome is its current state after its last event: a success state counts
    /// in ``Funnel/completedToSuccess``, an abort state in ``Funnel/completedToAbort`` (a state in
    /// both sets counts as success), any other state is a drop-off there. One exception, so that
    /// a logout is not a drop-off: when a session's last moves are resets out of a terminal state
    /// with no transition after them, the session ended in that terminal state.
    /// (``FlowSession/logout(newSessionID:)`` records its reset in the old session, then
    /// switches id.)
    ///
    /// - Parameters:
    ///   - events: the log, in any order of sessions.
    ///   - success: the success states, e.g. the spec's `success`.
    ///   - abort: the abort states, e.g. the spec's `abort`.
    /// - Returns: the funnel; all zero for an empty log.
    /// - Complexity: O(*n* log *n*) in the number of events.
    public static func funnel(of events: [TrackedEvent], success: Set<String>, abort: Set<String>) -> Funnel {
        var order: [String] = []
        var bySession: [String: [Int]] = [:]
        for (index, event) in events.enumerated() {
            if bySession[event.sessionID] == nil { order.append(event.sessionID) }
            bySession[event.sessionID, default: []].append(index)
        }

        var entries: [String: Int] = [:]
        var dropOff: [String: Int] = [:]
        var toSuccess = 0
        var toAbort = 0
        func isTerminal(_ state: String) -> Bool { success.contains(state) || abort.contains(state) }

        for id in order {
            let indices = bySession[id]!.sorted {
                (events[$0].timestamp, $0) < (events[$1].timestamp, $1)
            }
            let first = events[indices[0]].from
            entries[first, default: 0] += 1
            var history = [first]
            var endedInTerminal: String? = nil
            for index in indices {
                let event = events[index]
                switch event.kind {
                case .transition:
                    guard let to = event.to else { continue }
                    history.append(to)
                    entries[to, default: 0] += 1
                    endedInTerminal = nil
                case .rejection:
                    break
                case .undo:
                    if history.count > 1 { history.removeLast() }
                    if let to = event.to { history[history.count - 1] = to }
                    endedInTerminal = nil
                case .reset:
                    let left = history[history.count - 1]
                    if isTerminal(left) { endedInTerminal = left }
                    history = [event.to ?? first]
                }
            }
            let outcome = endedInTerminal ?? history[history.count - 1]
            if success.contains(outcome) {
                toSuccess += 1
            } else if abort.contains(outcome) {
                toAbort += 1
            } else {
                dropOff[outcome, default: 0] += 1
            }
        }
        return Funnel(
            sessions: order.count, entries: entries, dropOff: dropOff,
            completedToSuccess: toSuccess, completedToAbort: toAbort)
    }
}
