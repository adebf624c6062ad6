import AuthFlow

/// Transitions of flows whose moves depend on the data (`authflow/2` guards, values, clears, resets, variants).
extension TraceReplay {
    /// Where a recorded transition leads by the semantics, or why the semantics does not take it.
    enum DynamicMove {
        case push(TraceFrame, row: Int)
        /// A reset row; `keys` and `values` are what the new run starts with beside the config (the keys it keeps).
        case reset(row: Int, keys: UInt64, values: UInt64)
        case refused(String)
    }

    /// The move the record names from `top`, by ``FlowModel/successors(state:keys:values:into:)``,
    /// in every candidate variant of the session; narrows the candidates to the variants that explain it.
    /// - Parameter resetOnly: match only reset rows (a reset record that names its event).
    mutating func dynamicMove(_ slot: Int, _ top: TraceFrame, resetOnly: Bool = false) -> DynamicMove {
        guard variantCount > 1 else {
            let (move, assumed) = moveOne(top.state, top.keys, top.values, resetOnly: resetOnly)
            if assumed { sessions.slots[slot].assumedValues = true }
            return move
        }
        let candidates = sessions.slots[slot].variants
        var survivors = [UInt64](repeating: 0, count: candidates.count)
        var chosen: DynamicMove?
        var chosenLanding: (state: Int32, keys: UInt64, values: UInt64)?
        var firstRefusal: String?
        var assumedAny = false
        for (w, word) in candidates.enumerated() {
            var rest = word
            while rest != 0 {
                let v = w * 64 + rest.trailingZeroBitCount
                rest &= rest - 1
                let root = model.roots[v]
                let keys = (top.keys & ~configKeys) | root.keys
                let values = (top.values & ~configValues) | root.values
                let (move, assumed) = moveOne(top.state, keys, values, resetOnly: resetOnly)
                let landing: (state: Int32, keys: UInt64, values: UInt64)
                switch move {
                case let .refused(reason):
                    if firstRefusal == nil { firstRefusal = reason }
                    continue
                case let .push(frame, _):
                    landing = (frame.state, frame.keys & ~configKeys, frame.values & ~configValues)
                case let .reset(_, keys, values):
                    landing = (-2, keys, values)
                }
                if let known = chosenLanding {
                    // A variant that lands elsewhere is dropped: the first that explains the record leads.
                    guard known == landing else { continue }
                } else {
                    chosen = move
                    chosenLanding = landing
                }
                assumedAny = assumedAny || assumed
                survivors[w] |= 1 << UInt64(v % 64)
            }
        }
        guard let chosen else { return .refused(firstRefusal ?? "no variant of the flow takes this transition") }
        if assumedAny { sessions.slots[slot].assumedValues = true }
        sessions.slots[slot].variants = survivors
        return chosen
    }

    /// The move the record names from one frame; whether several branches fit and the first was assumed.
    mutating func moveOne(_ state: Int32, _ keys: UInt64, _ values: UInt64, resetOnly: Bool) -> (DynamicMove, assumed: Bool) {
        model.successors(state: Int(state), keys: keys, values: values, into: &successors)
        var sawEvent = false
        var sawTarget = false
        var chosen = -1
        var assumed = false
        var landing: (Int32, UInt64, UInt64) = (0, 0, 0)
        for i in successors.indices where successors[i].event.rawValue == record.event {
            sawEvent = true
            let successor = successors[i]
            let lands: (Int32, UInt64, UInt64)
            switch successor.outcome {
            case let .push(target, k, v), let .replace(target, k, v):
                guard !resetOnly, target.rawValue == record.to else { continue }
                lands = (target.rawValue, k, v)
            case .reset:
                guard record.to == initial || record.to == -2 else { continue }
                lands = (-2, successor.effectKeys, successor.effectValues)
            case .illegal:
                continue
            }
            sawTarget = true
            guard valuesMatch(lands.1, lands.2) else { continue }
            if chosen < 0 {
                chosen = i
                landing = lands
            } else if landing != lands {
                assumed = true
            }
        }
        if chosen >= 0 {
            let successor = successors[chosen]
            if case let .push(target, k, v) = successor.outcome {
                return (.push(TraceFrame(state: target.rawValue, known: true, keys: k, values: v, recorded: 0), row: successor.row), assumed)
            }
            if case let .replace(target, k, v) = successor.outcome {
                return (.push(TraceFrame(state: target.rawValue, known: true, keys: k, values: v, recorded: 0, replaces: true),
                              row: successor.row), assumed)
            }
            if case let .reset(k, v) = successor.outcome {
                return (.reset(row: successor.row, keys: k & ~configKeys, values: v & ~configValues), assumed)
            }
            return (.reset(row: successor.row, keys: 0, values: 0), assumed)
        }
        return (.refused(refusal(state, sawEvent: sawEvent, sawTarget: sawTarget)), false)
    }

    /// Whether the landing data holds every value the record names.
    func valuesMatch(_ keys: UInt64, _ values: UInt64) -> Bool {
        for (k, index) in zip(record.valueKeys, record.valueIndices) {
            guard index >= 0, keys & (1 << UInt64(k)) != 0, model.layout.field(Int(k), in: values) == Int(index) else { return false }
        }
        return true
    }

    /// Why the semantics does not take the record's transition from `state`.
    func refusal(_ state: Int32, sawEvent: Bool, sawTarget: Bool) -> String {
        let from = model.states[Int(state)], event = model.events[Int(record.event)]
        let to = record.to >= 0 ? model.states[Int(record.to)] : "(no state)"
        if !sawEvent {
            if model.emissions[Int(state)].contains(where: { $0.event.rawValue == record.event }) {
                return "\(from) does not offer \(event) here: its condition does not hold on the session's data"
            }
            return isTerminal[Int(state)] ? "\(from) is a terminal state: the flow had ended, and it does not emit \(event)"
                : "\(from) does not emit \(event)"
        }
        if !sawTarget {
            var targets: [String] = []
            for successor in successors where successor.event.rawValue == record.event {
                let name: String
                switch successor.outcome {
                case let .push(target, _, _), let .replace(target, _, _): name = model.states[target.index]
                case .reset: name = "a reset to \(model.states[Int(initial)])"
                case .illegal: continue
                }
                if !targets.contains(name) { targets.append(name) }
            }
            if targets.isEmpty { return "the table has no row for \(event) from \(from) that holds on the session's data" }
            return "\(event) from \(from) goes to \(targets.joined(separator: " or ")) here, not \(to)"
        }
        let named = zip(record.valueKeys, record.valueIndices).map { k, index -> String in
            let key = model.keys[Int(k)]
            if secrets & (1 << UInt64(k)) != 0 { return "\(key)=\(FlowReport.redacted)" }
            return index >= 0 ? "\(key)=\(model.layout.domains[Int(k)][Int(index)])" : "\(key) outside its values"
        }
        return "\(event) from \(from) to \(to): no branch of the spec gives \(named.joined(separator: ", "))"
    }
}
