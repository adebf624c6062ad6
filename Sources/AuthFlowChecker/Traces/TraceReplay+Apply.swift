import AuthFlow

/// Applying one record to its session: the one semantics, frame by frame.
extension TraceReplay {
    /// Applies ``record`` (interned) to the session with id `id`, read at `line` of the current input.
    mutating func apply(_ id: UnsafeBufferPointer<UInt8>, line: Int) {
        report.records += 1
        if record.timestamp > newest {
            newest = record.timestamp
            sweepIfDue()
        }
        let hash = TraceNameTable.hash(id)
        let slot = sessions.find(id, hash: hash) ?? open(id, hash: hash, line: line)

        // A record sent twice, or one older than its session's newest: said where, and skipped.
        let fingerprint = record.fingerprint
        if let first = duplicate(slot, fingerprint) {
            problem(.duplicate, line: line, session: name(slot), "the same record as line \(first) of session \(name(slot)); skipped")
            return
        }
        if record.timestamp < sessions.slots[slot].lastTimestamp {
            let before = sessions.slots[slot]
            problem(.outOfOrder, line: line, session: name(slot),
                    "\(Self.time(record.timestamp)) is earlier than the record before it in session \(name(slot)) "
                    + "(\(before.lastFile == fileIndex ? "line \(before.lastLine)" : "\(report.files[before.lastFile]):\(before.lastLine)"), "
                    + "\(Self.time(before.lastTimestamp))); skipped")
            return
        }
        let previousLine = sessions.slots[slot].lastLine
        remember(slot, fingerprint, line: line)

        // A record that does not start where its session is: the log lost records, or two runs share the id.
        let top = sessions.slots[slot].frames[sessions.slots[slot].frames.count - 1].state
        if record.from != top, !(record.from == -1 && (top == -1 || record.kind == .transition)) {
            let at = record.from >= 0 ? model.states[Int(record.from)] : "'\(record.fromName)', which is not a state of the spec"
            problem(.outOfSequence, line: line, session: name(slot),
                    "starts at \(at), but session \(name(slot)) is at \(stateName(top)) "
                    + "(line \(previousLine)): records are missing or out of order, or two runs share the id")
            resync(slot, at: record.from)
        }
        switch record.kind {
        case .transition: transition(slot, line: line)
        case .rejection:
            if top >= 0 { funnelStates[Int(top)].rejections += 1 }
        case .undo: undo(slot, line: line)
        case .reset: reset(slot, line: line)
        }
    }

    // MARK: Sessions

    /// Opens a session at the flow's root (or where its first record is, reporting that it begins mid-flow).
    mutating func open(_ id: UnsafeBufferPointer<UInt8>, hash: UInt64, line: Int) -> Int {
        report.sessions.total += 1
        let variantWords = variantCount > 1 ? (variantCount + 63) / 64 : 0
        let extraWords = stateCount > 64 ? (stateCount - 1) / 64 : 0
        let root = rootFrame(0)
        let timestamp = record.timestamp
        let slot = sessions.insert(id, hash: hash) { session in
            session.frames.append(root)
            session.rooted = true
            session.checked = true
            session.variants = [UInt64](repeating: 0, count: variantWords)
            for v in 0..<(variantWords > 0 ? variantCount : 0) { session.variants[v / 64] |= 1 << UInt64(v % 64) }
            session.lastTimestamp = timestamp
            session.lastFile = fileIndex
            session.lastLine = line
            session.recent = (0, 0, 0, 0)
            session.recentLines = (0, 0, 0, 0)
            session.recentNext = 0
            session.visited = 0
            session.visitedMore = extraWords > 0 ? [UInt64](repeating: 0, count: extraWords) : []
            session.broken = false
            session.lackedData = false
            session.assumedValues = false
            session.endedInTerminal = -1
        }
        report.sessions.peakOpen = max(report.sessions.peakOpen, sessions.count)
        if record.from == initial || (record.from == -1 && record.kind == .transition) {
            enter(slot, initial)
        } else {
            let at = record.from >= 0 ? model.states[Int(record.from)] : "'\(record.fromName)', which is not a state of the spec"
            problem(.midFlow, line: line, session: name(slot),
                    "session \(name(slot)) begins at \(at), not at the start (\(model.states[Int(initial)])): its earlier records are not in the input")
            resync(slot, at: record.from)
            if record.from >= 0 { enter(slot, record.from) }
        }
        return slot
    }

    /// The root frame of variant `v`: the initial state with the variant's config values.
    func rootFrame(_ v: Int) -> TraceFrame {
        let root = model.roots[v]
        return TraceFrame(state: initial, known: true, keys: root.keys, values: root.values, recorded: root.keys)
    }

    /// The lowest candidate variant of the session in `slot`.
    func representative(_ slot: Int) -> Int {
        for (w, word) in sessions.slots[slot].variants.enumerated() where word != 0 { return w * 64 + word.trailingZeroBitCount }
        return 0
    }

    /// Loses track of the session's history and data: it is at `state` now, nothing known below it.
    mutating func resync(_ slot: Int, at state: Int32) {
        sessions.slots[slot].frames.removeAll(keepingCapacity: true)
        sessions.slots[slot].frames.append(TraceFrame(state: state, known: false, keys: 0, values: 0, recorded: 0))
        sessions.slots[slot].rooted = false
        if !isStatic { sessions.slots[slot].checked = false }
        if state >= 0 { visit(slot, state) }
    }

    /// Counts an entry into `state` and the session's first visit there.
    @inline(__always)
    mutating func enter(_ slot: Int, _ state: Int32) {
        funnelStates[Int(state)].entries += 1
        visit(slot, state)
    }

    @inline(__always)
    mutating func visit(_ slot: Int, _ state: Int32) {
        let s = Int(state)
        if s < 64 {
            let bit: UInt64 = 1 << UInt64(s)
            if sessions.slots[slot].visited & bit == 0 {
                sessions.slots[slot].visited |= bit
                funnelStates[s].sessions += 1
            }
        } else {
            let bit: UInt64 = 1 << UInt64(s % 64)
            if sessions.slots[slot].visitedMore[s / 64 - 1] & bit == 0 {
                sessions.slots[slot].visitedMore[s / 64 - 1] |= bit
                funnelStates[s].sessions += 1
            }
        }
    }

    /// The line of an earlier record of the session with this fingerprint, if one of its last four has it.
    @inline(__always)
    func duplicate(_ slot: Int, _ fingerprint: UInt64) -> Int? {
        let recent = sessions.slots[slot].recent
        let lines = sessions.slots[slot].recentLines
        if recent.0 == fingerprint && lines.0 > 0 { return lines.0 }
        if recent.1 == fingerprint && lines.1 > 0 { return lines.1 }
        if recent.2 == fingerprint && lines.2 > 0 { return lines.2 }
        if recent.3 == fingerprint && lines.3 > 0 { return lines.3 }
        return nil
    }

    @inline(__always)
    mutating func remember(_ slot: Int, _ fingerprint: UInt64, line: Int) {
        switch sessions.slots[slot].recentNext {
        case 0: sessions.slots[slot].recent.0 = fingerprint; sessions.slots[slot].recentLines.0 = line
        case 1: sessions.slots[slot].recent.1 = fingerprint; sessions.slots[slot].recentLines.1 = line
        case 2: sessions.slots[slot].recent.2 = fingerprint; sessions.slots[slot].recentLines.2 = line
        default: sessions.slots[slot].recent.3 = fingerprint; sessions.slots[slot].recentLines.3 = line
        }
        sessions.slots[slot].recentNext = (sessions.slots[slot].recentNext + 1) & 3
        sessions.slots[slot].lastTimestamp = record.timestamp
        sessions.slots[slot].lastFile = fileIndex
        sessions.slots[slot].lastLine = line
    }

    /// Closes the sessions no record has come for in ``Options/sessionTimeout`` of the records' time.
    mutating func sweepIfDue() {
        guard let timeout = options.sessionTimeout else { return }
        let window = Int64(timeout * 1000)
        if lastSweep == .min { lastSweep = newest; return }
        guard newest - lastSweep >= max(1, window / 8) else { return }
        lastSweep = newest
        let cutoff = newest - window
        for slot in sessions.slots.indices where sessions.live[slot] && sessions.slots[slot].lastTimestamp < cutoff {
            close(slot)
        }
    }

    /// Ends the session in `slot`: where it ended goes into the funnel, and it is forgotten.
    mutating func close(_ slot: Int) {
        let top = sessions.slots[slot].frames.last?.state ?? -1
        let ended = sessions.slots[slot].endedInTerminal
        let outcome = ended >= 0 ? ended : top
        if outcome >= 0 {
            let s = Int(outcome)
            if model.isSuccess[s] {
                report.sessions.succeeded += 1
                funnelStates[s].completed += 1
            } else if model.isAbort[s] {
                report.sessions.aborted += 1
                funnelStates[s].completed += 1
            } else {
                report.sessions.abandoned += 1
                funnelStates[s].dropped += 1
            }
        } else {
            report.sessions.abandoned += 1
            sessionsEndedOffSpec += 1
        }
        if sessions.slots[slot].lackedData { sessionsLackingData += 1 }
        if sessions.slots[slot].assumedValues { sessionsAssumingValues += 1 }
        sessions.remove(slot)
    }

    // MARK: Moves

    /// A transition record: one of the semantics' moves from the top frame, or a finding.
    mutating func transition(_ slot: Int, line: Int) {
        guard record.event != -2, record.to != -2 else {
            problem(.malformed, line: line, session: name(slot), "a transition record needs an \"event\" and a \"to\"; skipped")
            return
        }
        let top = sessions.slots[slot].frames[sessions.slots[slot].frames.count - 1]
        if top.state >= 0 { funnelStates[Int(top.state)].exits += 1 }
        sessions.slots[slot].endedInTerminal = -1
        if !record.hasData { sessions.slots[slot].lackedData = true }
        let recorded = (top.recorded & ~record.cleared) | record.added
        let known = top.known && record.hasData

        if record.from == -1 || record.event == -1 || record.to == -1 {
            let what = record.from == -1 ? "'\(record.fromName)' is not a state of the spec"
                : record.event == -1 ? "'\(record.eventName)' is not an event of the spec"
                : "'\(record.toName)' is not a state of the spec"
            illegal(slot, line: line, state: top.state, what)
            follow(slot, top: top, recorded: recorded, known: known, line: line)
            return
        }
        guard sessions.slots[slot].checked, top.state >= 0 else {
            follow(slot, top: top, recorded: recorded, known: known, line: line, flagged: false)
            return
        }
        if isStatic {
            let cell = Int(top.state) * eventCount + Int(record.event)
            let target = staticTarget[cell]
            guard target == record.to else {
                illegal(slot, line: line, state: top.state, listing ? staticReason(top.state, target) : nil)
                follow(slot, top: top, recorded: recorded, known: known, line: line)
                return
            }
            let row = staticRow[cell]
            if row >= 0 { taken[Int(row)] += 1 }
            push(slot, TraceFrame(state: target, known: known, keys: top.keys | staticAdds[cell], values: 0, recorded: recorded), line: line)
            return
        }
        switch dynamicMove(slot, top) {
        case let .push(frame, row):
            countTaken(row, from: top.state)
            push(slot, TraceFrame(state: frame.state, known: known, keys: frame.keys, values: frame.values, recorded: recorded,
                                  replaces: frame.replaces), line: line)
        case let .reset(row, keys, values):
            countTaken(row, from: top.state)
            restart(slot, keeping: (keys, values))
        case let .refused(reason):
            illegal(slot, line: line, state: top.state, reason)
            follow(slot, top: top, recorded: recorded, known: known, line: line)
        }
    }

    /// Counts a row taken from `state` (a declared row, or one `anywhere` gave the state).
    mutating func countTaken(_ row: Int, from state: Int32) {
        if row >= 0 && row < model.rows.count {
            taken[row] += 1
        } else if row >= 0, let index = anywhere[row * stateCount + Int(state)] {
            taken[index] += 1
        }
    }

    /// Why a static flow does not take the record's transition from `state`, whose table cell says `target`.
    func staticReason(_ state: Int32, _ target: Int32) -> String {
        let from = model.states[Int(state)], event = model.events[Int(record.event)], to = model.states[Int(record.to)]
        switch target {
        case -2:
            return isTerminal[Int(state)] ? "\(from) is a terminal state: the flow had ended, and it does not emit \(event)"
                : "\(from) does not emit \(event)"
        case -1: return "the table has no row for \(event) from \(from)"
        default: return "\(event) from \(from) goes to \(model.states[Int(target)]), not \(to)"
        }
    }

    /// Pushes the frame a transition reached, counts the entry, and checks the screen's input contract.
    /// - Parameter check: whether to check the input contract (not on a transition already flagged).
    mutating func push(_ slot: Int, _ frame: TraceFrame, line: Int, check: Bool = true) {
        if sessions.slots[slot].frames.count >= options.maxStackHeight {
            // Keep the newest half: a back below it can no longer be checked.
            if sessions.slots[slot].rooted { stackTrimmed += 1 }
            sessions.slots[slot].frames.removeFirst(options.maxStackHeight / 2)
            sessions.slots[slot].rooted = false
        }
        sessions.slots[slot].frames.append(frame)
        guard frame.state >= 0 else { return }
        enter(slot, frame.state)
        guard check, frame.known else { return }
        checkRequirement(slot, frame, line: line)
        if checksAssurance { checkAssurance(slot, frame, line: line) }
    }

    /// Flags a frame entered without data its step requires, by the keys the records name.
    mutating func checkRequirement(_ slot: Int, _ frame: TraceFrame, line: Int) {
        let s = Int(frame.state)
        let missing = requires[s] & ~frame.recorded
        let unmetAnyOf = anyOf[s].first { $0 & frame.recorded == 0 }
        guard missing != 0 || unmetAnyOf != nil else { return }
        var message: String?
        if listing {
            var lacks: [String] = []
            if missing != 0 { lacks.append(model.names(of: KeySet(bits: missing)).joined(separator: ", ")) }
            if let unmetAnyOf { lacks.append("one of " + model.names(of: KeySet(bits: unmetAnyOf)).joined(separator: ", ")) }
            message = "entered \(model.states[s]) without \(lacks.joined(separator: " and ")), which it requires; "
                + "the data was {\(model.names(of: KeySet(bits: frame.recorded)).joined(separator: ", "))}"
        }
        finding(slot, .unmetRequirement, line: line, state: frame.state, message)
    }

    /// Follows a transition to the state the record names, trusting the log: one the spec does not
    /// explain (already flagged, so its entry is not checked again), or one that is not checked.
    mutating func follow(_ slot: Int, top: TraceFrame, recorded: UInt64, known: Bool, line: Int, flagged: Bool = true) {
        if !isStatic && flagged { sessions.slots[slot].checked = false }
        push(slot, TraceFrame(state: record.to, known: known, keys: top.keys | record.added, values: top.values, recorded: recorded),
             line: line, check: !flagged)
    }

    /// A back: refused where the spec forbids it, and it must land on the frame before.
    mutating func undo(_ slot: Int, line: Int) {
        sessions.slots[slot].endedInTerminal = -1
        let height = sessions.slots[slot].frames.count
        let top = sessions.slots[slot].frames[height - 1]
        if top.state >= 0 { funnelStates[Int(top.state)].backs += 1 }
        var forbidden: String?
        if height == 1 {
            if sessions.slots[slot].rooted { forbidden = "back at \(stateName(top.state)), the start of the flow: there is nothing to go back to" }
        } else if top.state >= 0 && isTerminal[Int(top.state)] {
            forbidden = "back from \(stateName(top.state)), a terminal state: the flow had ended"
        } else if top.state >= 0 && !canGoBack[Int(top.state)] {
            forbidden = "back from \(stateName(top.state)), whose step says back: false"
        }
        if let forbidden {
            finding(slot, .forbiddenBack, line: line, state: top.state, forbidden)
        }
        guard height > 1 else {
            // Nothing below the top: the session is wherever the record says.
            if record.to != -2 && record.to != top.state { resync(slot, at: record.to) }
            return
        }
        // Back takes off the top frame and every frame that updated it in place (section 5); server-side data stays.
        // (A history trimmed to its newest frames may start with an in-place update: one frame always stays.)
        let taken = BackFrames.count(height: height) { sessions.slots[slot].frames[$0].replaces }
        let count = taken == 0 ? height - 1 : taken
        sessions.slots[slot].frames.removeLast(count)
        let below = height - count - 1
        if model.layout.hasServerKeys, top.known, sessions.slots[slot].frames[below].known {
            let frame = sessions.slots[slot].frames[below]
            (sessions.slots[slot].frames[below].keys, sessions.slots[slot].frames[below].values) =
                model.layout.back(to: frame.keys, frame.values, server: top.keys, top.values)
        }
        let landed = sessions.slots[slot].frames[below].state
        guard record.to != -2, record.to != landed else { return }
        if forbidden == nil && landed >= 0 {
            let to = record.to >= 0 ? model.states[Int(record.to)] : "'\(record.toName)'"
            finding(slot, .undoMismatch, line: line, state: top.state,
                    "back from \(stateName(top.state)) landed on \(to), but the screen before was \(stateName(landed))")
        }
        // The record is trusted: the session is where it says, what it holds unknown.
        let last = sessions.slots[slot].frames.count - 1
        sessions.slots[slot].frames[last] = TraceFrame(state: record.to, known: false, keys: 0, values: 0, recorded: 0)
        if !isStatic { sessions.slots[slot].checked = false }
    }

    /// A reset: the session starts again at its root (a reset row of the table must be one the semantics gives).
    mutating func reset(_ slot: Int, line: Int) {
        let top = sessions.slots[slot].frames[sessions.slots[slot].frames.count - 1]
        if top.state >= 0 && isTerminal[Int(top.state)] { sessions.slots[slot].endedInTerminal = top.state }
        if record.event >= 0, sessions.slots[slot].checked, top.state >= 0, !isStatic {
            switch dynamicMove(slot, top, resetOnly: true) {
            case let .refused(reason): illegal(slot, line: line, state: top.state, reason)
            case let .reset(row, keys, values):
                countTaken(row, from: top.state)
                restart(slot, keeping: (keys, values))
                return
            case .push: break
            }
        } else if record.to >= 0 && record.to != initial {
            illegal(slot, line: line, state: top.state,
                    "a reset lands on \(model.states[Int(record.to)]), but the flow starts at \(model.states[Int(initial)])")
        }
        restart(slot)
    }

    /// Returns the session to its root, in its lowest candidate variant, holding the data a reset row keeps.
    mutating func restart(_ slot: Int, keeping kept: (keys: UInt64, values: UInt64) = (0, 0)) {
        var root = rootFrame(representative(slot))
        root.keys |= kept.keys
        root.values |= kept.values
        sessions.slots[slot].frames.removeAll(keepingCapacity: true)
        sessions.slots[slot].frames.append(root)
        sessions.slots[slot].rooted = true
        sessions.slots[slot].checked = true
    }

    // MARK: Findings

    mutating func illegal(_ slot: Int, line: Int, state: Int32, _ message: String?) {
        finding(slot, .illegalTransition, line: line, state: state, message)
    }

    /// Whether findings are still listed (their messages are only built then).
    var listing: Bool { report.findings.count < options.maxListed }

    /// Counts a finding, marks its session broken, and lists it (with `message`) while the list has room.
    mutating func finding(_ slot: Int, _ property: TraceReport.Property, line: Int, state: Int32, _ message: String?) {
        report.findingCounts[property, default: 0] += 1
        if !sessions.slots[slot].broken {
            sessions.slots[slot].broken = true
            report.sessions.broken += 1
        }
        if property == .illegalTransition, record.kind == .transition { countOffSpec(state) }
        guard let message, report.findings.count < options.maxListed else { return }
        let event: String? = record.event >= 0 ? model.events[Int(record.event)] : record.event == -1 ? record.eventName : nil
        let entered = property == .unmetRequirement || property == .assurance
        let stateName = entered ? model.states[Int(state)]
            : state >= 0 ? model.states[Int(state)] : record.fromName
        report.findings.append(TraceReport.Finding(
            session: name(slot), file: fileName, line: line, property: property, state: stateName,
            event: entered || record.kind != .transition ? nil : event, message: message))
    }

    /// Counts a move the table does not have, by names.
    mutating func countOffSpec(_ state: Int32) {
        let from = state >= 0 ? model.states[Int(state)] : record.fromName
        let event = record.event >= 0 ? model.events[Int(record.event)] : record.eventName
        let to = record.to >= 0 ? model.states[Int(record.to)] : record.toName
        let key = "\(from)\u{0}\(event)\u{0}\(to)"
        if offSpec[key] != nil || offSpec.count < options.maxListed * 10 {
            offSpec[key, default: 0] += 1
        } else {
            offSpecOther += 1
        }
    }

    /// The session id of `slot`, as reports print it.
    func name(_ slot: Int) -> String { Self.printable(String(decoding: sessions.slots[slot].id, as: UTF8.self)) }

    /// Text from the input as reports print it: control and invisible characters as `\u{…}`, at most 200 characters.
    static func printable(_ text: String) -> String {
        TerminalText.escaped(text, limit: 200, counted: false)
    }

    /// A state's name, or `a state the spec does not have`.
    func stateName(_ state: Int32) -> String { state >= 0 ? model.states[Int(state)] : "a state the spec does not have" }

    /// A timestamp as the tracker writes it.
    static func time(_ ms: Int64) -> String {
        var out: [UInt8] = []
        _Timestamp.write(ms, into: &out)
        return String(decoding: out, as: UTF8.self)
    }
}
