import AuthFlow
import Foundation

/// The behavioural difference between two versions of a flow: where a user of the new version sees something the old did not show.
///
/// The search runs breadth-first from the paired roots (variants paired by their config values)
/// over pairs of configurations that agree — the same screen and the same data, compared by name
/// since the two files number their states, events and keys independently. At each agreeing pair
/// every move (an event with the values the system chose for the keys it adds, or back) is
/// compared; a move both versions take to agreeing configurations leads on, anything else is a
/// difference and nothing is explored past it. Each site `(kind, state, move)` is reported once,
/// at its first pair in breadth-first order, so with a shortest path.
///
/// ```swift
/// let report = FlowDiff.compare(old, new)
/// for difference in report.differences { print(difference.kind, difference.state ?? "-", difference.length) }
/// ```
/// - Complexity: O(P · m · b) for P agreeing pairs, m emissions per step and b branches per emission.
public enum FlowDiff {
    /// Compares `old` with `new`: the behavioural differences and, when `properties`, the checker's verdicts on each.
    /// - Parameters:
    ///   - limits: `maxConfigurations` bounds the pairs stored (and each check); `timeout` is taken from `deadline`.
    ///   - depth: when given, moves further than `depth` from the root are not compared.
    ///   - properties: whether to run the checker on both versions and compare its violations and rules.
    public static func compare(_ old: FlowModel, _ new: FlowModel, limits: CheckLimits = CheckLimits(), depth: Int? = nil,
                               deadline: Deadline = Deadline(timeout: nil), properties: Bool = true) -> FlowDiffReport {
        var search = PairSearch(old: old, new: new, maxPairs: limits.maxConfigurations, depth: depth, deadline: deadline)
        // With server-side keys back reaches pairs no forward move reaches: the search runs over backs (PairSearch+Backs).
        if search.overBacks { search.runOverBacks() } else { search.run() }
        var report = FlowDiffReport(differences: search.differences, properties: FlowDiffReport.PropertyChanges(),
                                    stoppedBy: search.stoppedBy, depth: depth, pairs: search.pairCount)
        if properties && !deadline.hasPassed {
            let (changes, stop) = propertyChanges(old, new, limits: limits, deadline: deadline)
            report.properties = changes
            if report.stoppedBy == nil { report.stoppedBy = stop }
        }
        return report
    }

    /// The checker's violations and the spec's rules compared, and the states and rows only the new version reaches.
    static func propertyChanges(_ old: FlowModel, _ new: FlowModel, limits: CheckLimits,
                                deadline: Deadline) -> (FlowDiffReport.PropertyChanges, StopReason?) {
        // The spec's properties only: the runtime walk checks the runtime, which is the same for both versions.
        // Both checks share the run's deadline, so a stop reads as the run's own --timeout.
        var options = CheckOptions(limits: CheckLimits(depth: limits.depth, maxConfigurations: limits.maxConfigurations, timeout: deadline.timeout))
        // The passcode check tests the shipped normaliser against the policy: under the same policy both verdicts are one.
        if old.passcode == new.passcode {
            options.properties = Set(Property.all(of: old) + Property.all(of: new)).subtracting([.passcode])
        }
        // One search per version: the checks' own coverage says which states each reaches.
        let (before, oldCoverage) = FlowChecker.coverage(old, source: "old", options: options, start: deadline.start)
        let (after, newCoverage) = FlowChecker.coverage(new, source: "new", options: options, start: deadline.start)
        var changes = FlowDiffReport.PropertyChanges()
        changes.checkDepth = limits.depth
        let oldSites = Set(before.violations.map(\.site))
        let newSites = Set(after.violations.map(\.site))
        changes.new = after.violations.map(\.site).filter { !oldSites.contains($0) }
        changes.newViolations = after.violations.filter { !oldSites.contains($0.site) }
        changes.fixed = before.violations.map(\.site).filter { !newSites.contains($0) }
        let oldRules = old.properties.map(\.id), newRules = new.properties.map(\.id)
        changes.rulesAdded = newRules.filter { !oldRules.contains($0) }
        changes.rulesDropped = oldRules.filter { !newRules.contains($0) }
        let reachedBefore = Set(oldCoverage.states.filter(\.reachable).map(\.name))
        changes.newStates = newCoverage.states.filter { $0.reachable && !reachedBefore.contains($0.name) }.map(\.name)
        // A row is new to the user when the new version fires it and the old one never took that event from that screen to that screen.
        func row(_ t: FlowCoverage.TransitionCoverage) -> FlowDiffReport.Row { FlowDiffReport.Row(from: t.from, event: t.event, to: t.to) }
        let firedBefore = Set(oldCoverage.transitions.filter(\.fired).map(row))
        var listed = Set<FlowDiffReport.Row>()
        changes.newRows = newCoverage.transitions.filter(\.fired).map(row).filter { !firedBefore.contains($0) && listed.insert($0).inserted }
        let stop = before.stoppedBy ?? after.stoppedBy
        return (changes, stop)
    }
}

/// The breadth-first search over agreeing pairs of configurations that ``FlowDiff`` runs.
struct PairSearch {
    /// One configuration of one version: `(state, keys, values)` by that version's ids.
    struct Frame: Hashable {
        var state: Int32
        var keys: UInt64
        var values: UInt64
    }

    /// What the search stores per pair: both frames and whether the history has a frame below (so back can be taken).
    struct Pair: Hashable {
        var old: Frame
        var new: Frame
        var canPop: Bool
    }

    /// A site's identity: its kind, the old version's state (-1 for none) and the move (-1 back, -2 none).
    struct SiteKey: Hashable {
        var kind: FlowDiffReport.Kind
        var state: Int32
        var move: Int32
    }

    /// How the two versions' keys correspond, each pair by name: `-1` where one version lacks the key.
    struct KeyMatch {
        var old: Int
        var new: Int
        /// Both valued: the new value index of each old value index (-1 where the new domain lacks it).
        var valueMap: [Int]?
        /// Both of the same kind, so their codes compare directly (through `valueMap` for valued keys).
        var sameKind: Bool
        /// How each version holds the key (``DataLayout/KeyCode``); `nil` where it lacks it.
        var oldField: DataLayout.KeyCode?
        var newField: DataLayout.KeyCode?
    }

    let old: FlowModel
    let new: FlowModel
    let maxPairs: Int
    let depth: Int?
    let deadline: Deadline

    /// Per old state: the new state of the same name, or -1.
    let stateMap: [Int32]
    let keyMatches: [KeyMatch]
    /// Config keys of each version, left out of the data a report shows.
    let oldConfig: UInt64
    let newConfig: UInt64

    /// Every move seen, by id: its event and the values the system chose.
    var moveInfo: [(event: String, chosen: [FlowSpec.KeyValue])] = []
    var moveIndex: [String: Int32] = [:]
    /// Per version, per state: per emission, the move id of each branch (filled on first visit).
    var oldMoves: [[[Int32]]?]
    var newMoves: [[[Int32]]?]

    var pairs: [Pair] = []
    var parent: [Int32] = []
    var via: [Int32] = []
    var variant: [Int32] = []
    var distance: [Int32] = []
    var index = PairIndex()

    var differences: [FlowDiffReport.Difference] = []
    /// Each site found, with its place in ``differences``.
    var sites: [SiteKey: Int] = [:]
    var stoppedBy: StopReason?

    /// Whether either version has server-side keys (section 5): then back may land on pairs no forward move reaches, and
    /// ``runOverBacks()`` searches the pairs of histories instead of ``run()``.
    let overBacks: Bool
    /// The search over backs' own tables (unused by ``run()``).
    var backs = PairBacks()
    /// Scratch space for ``expand(_:)``.
    var oldSuccessors: [FlowModel.Successor] = []
    var newSuccessors: [FlowModel.Successor] = []
    var newByMove: [Int32: Int] = [:]
    var oldSeen: Set<Int32> = []

    var pairCount: Int { pairs.count }

    init(old: FlowModel, new: FlowModel, maxPairs: Int, depth: Int?, deadline: Deadline) {
        self.old = old
        self.new = new
        self.maxPairs = maxPairs
        self.depth = depth
        self.deadline = deadline
        stateMap = old.states.map { name in new.state(named: name).map { Int32($0.index) } ?? -1 }
        var matches: [KeyMatch] = []
        for k in old.keys.indices {
            let n = new.key(named: old.keys[k])?.index ?? -1
            var match = KeyMatch(old: k, new: n, valueMap: nil, sameKind: false, oldField: old.layout.keyCode(k),
                                 newField: n >= 0 ? new.layout.keyCode(n) : nil)
            if n >= 0 {
                switch (old.layout.kinds[k], new.layout.kinds[n]) {
                case (.presence, .presence), (.counter, .counter):
                    match.sameKind = true
                case (.valued, .valued):
                    match.sameKind = true
                    match.valueMap = old.layout.domains[k].map { value in new.layout.domains[n].firstIndex(of: value) ?? -1 }
                default:
                    break
                }
            }
            matches.append(match)
        }
        for n in new.keys.indices where old.key(named: new.keys[n]) == nil {
            matches.append(KeyMatch(old: -1, new: n, valueMap: nil, sameKind: false, oldField: nil, newField: new.layout.keyCode(n)))
        }
        keyMatches = matches
        oldConfig = old.layout.configKeys
        newConfig = new.layout.configKeys
        oldMoves = Array(repeating: nil, count: old.stateCount)
        newMoves = Array(repeating: nil, count: new.stateCount)
        overBacks = old.layout.hasServerKeys || new.layout.hasServerKeys
    }

    /// Whether the two frames hold the same data, key by key by name and value by value text.
    func dataAgrees(_ o: Frame, _ n: Frame) -> Bool {
        for match in keyMatches {
            let a = match.oldField?.code(keys: o.keys, values: o.values) ?? 0
            let b = match.newField?.code(keys: n.keys, values: n.values) ?? 0
            if match.sameKind {
                if let map = match.valueMap {
                    let translated = a == 0 ? 0 : (a - 1 < map.count && map[a - 1] >= 0 ? map[a - 1] + 1 : -1)
                    if translated != b { return false }
                } else if a != b {
                    return false
                }
            } else if a != 0 || b != 0 {
                return false
            }
        }
        return true
    }

    /// Whether the frames agree: the same screen by name and the same data.
    func agrees(_ o: Frame, _ n: Frame) -> Bool {
        o.state >= 0 && Int(o.state) < stateMap.count && stateMap[Int(o.state)] == n.state && dataAgrees(o, n)
    }

    /// The move id of each branch of each emission of `state` in `model`.
    mutating func moveIDs(_ model: FlowModel, state: Int) -> [[Int32]] {
        model.emissions[state].map { emission in
            (0..<emission.branchCount(model.layout)).map { branch in
                // The branch's answers, by the semantics' own decoding (the first added key varying slowest).
                let chosen = zip(emission.addValued, emission.branchValues(branch)).map { key, value in
                    FlowSpec.KeyValue(model.keys[key], model.secrets.contains(KeyID(key)) ? FlowReport.redacted
                                      : (value < model.layout.domains[key].count ? model.layout.domains[key][value] : "?"))
                }
                let event = model.events[emission.event.index]
                let signature = ([event] + chosen.flatMap { [$0.key, $0.value] }).joined(separator: "\u{0}")
                if let known = moveIndex[signature] { return known }
                let id = Int32(moveInfo.count)
                moveIndex[signature] = id
                moveInfo.append((event, chosen))
                return id
            }
        }
    }

    /// Runs the search from the paired roots.
    mutating func run() {
        startRoots()
        var head = 0
        while head < pairs.count {
            if head & 1023 == 1023, deadline.hasPassed {
                stoppedBy = deadline.stopReason
                return
            }
            let at = head
            head += 1
            if let depth, distance[at] >= depth { continue }
            if !expand(at) { return }
        }
    }

    /// Compares every move from pair `at` (its forward moves, then back when the history has a frame below): records the
    /// sites and visits the agreeing results; false when a limit stops the search.
    mutating func expand(_ at: Int) -> Bool {
        let pair = pairs[at]
        let so = Int(pair.old.state), sn = Int(pair.new.state)
        if oldMoves[so] == nil { oldMoves[so] = moveIDs(old, state: so) }
        if newMoves[sn] == nil { newMoves[sn] = moveIDs(new, state: sn) }
        let oldIDs = oldMoves[so] ?? [], newIDs = newMoves[sn] ?? []
        old.successors(state: so, keys: pair.old.keys, values: pair.old.values, into: &oldSuccessors)
        new.successors(state: sn, keys: pair.new.keys, values: pair.new.values, into: &newSuccessors)
        let oldSuccessors = oldSuccessors, newSuccessors = newSuccessors
        newByMove.removeAll(keepingCapacity: true)
        oldSeen.removeAll(keepingCapacity: true)
        for (i, successor) in newSuccessors.enumerated() where successor.outcome != .illegal {
            let id = newIDs[successor.emission][successor.branch]
            if newByMove[id] == nil { newByMove[id] = i }
        }
        for successor in oldSuccessors where successor.outcome != .illegal {
            let id = oldIDs[successor.emission][successor.branch]
            guard oldSeen.insert(id).inserted else { continue }
            guard let j = newByMove[id] else {
                record(.removedMove, at: at, move: id, old: result(old: true, successor.outcome), new: .notOffered)
                continue
            }
            if !compare(successor.outcome, newSuccessors[j].outcome, at: at, move: id) { return false }
        }
        for successor in newSuccessors where successor.outcome != .illegal {
            let id = newIDs[successor.emission][successor.branch]
            guard !oldSeen.contains(id), newByMove[id] != nil else { continue }
            newByMove[id] = nil
            record(.addedMove, at: at, move: id, old: .notOffered, new: result(old: false, successor.outcome))
        }
        if pair.canPop {
            let oldBack = old.canGoBack[so] && !old.isTerminal[so]
            let newBack = new.canGoBack[sn] && !new.isTerminal[sn]
            if oldBack != newBack {
                record(newBack ? .addedBack : .removedBack, at: at, move: -1,
                       old: oldBack ? .back : .noBack, new: newBack ? .back : .noBack)
            }
        }
        return true
    }

    /// Compares one move both versions take from pair `at`; false when a limit stops the search.
    mutating func compare(_ a: FlowModel.Outcome, _ b: FlowModel.Outcome, at: Int, move: Int32) -> Bool {
        switch (a, b) {
        case let (.reset(keys, values), .reset(keysNew, valuesNew)):
            // Both start again: at the paired root, already compared, unless a row keeps keys.
            let o = Frame(state: old.initial.rawValue, keys: keys, values: values)
            let n = Frame(state: new.initial.rawValue, keys: keysNew, values: valuesNew)
            // Without server-side keys a reset that keeps nothing lands on the paired root; with them the server's data stays.
            if !overBacks && keys & ~oldConfig == 0 && keysNew & ~newConfig == 0 { return true }
            if !dataAgrees(o, n) {
                record(.differentData, at: at, move: move, old: result(old: true, a), new: result(old: false, b))
            } else {
                return visit(Pair(old: o, new: n, canPop: false), from: at, move: move, kind: 2, variant: variant[at])
            }
        case (.push, .push), (.replace, .replace):
            // Both push, or both update the screen in place (the history keeps its height: back goes where it went before).
            guard let l = a.landing(initial: old.initial), let r = b.landing(initial: new.initial) else { return true }
            let o = Frame(state: l.state.rawValue, keys: l.keys, values: l.values)
            let n = Frame(state: r.state.rawValue, keys: r.keys, values: r.values)
            if stateMap[l.state.index] != r.state.rawValue {
                record(.differentState, at: at, move: move, old: result(old: true, a), new: result(old: false, b))
            } else if !dataAgrees(o, n) {
                record(.differentData, at: at, move: move, old: result(old: true, a), new: result(old: false, b))
            } else {
                let replaces = if case .replace = a { true } else { false }
                return visit(Pair(old: o, new: n, canPop: replaces ? pairs[at].canPop : true), from: at, move: move,
                             kind: replaces ? 1 : 0, variant: variant[at])
            }
        case (.push, .replace), (.replace, .push), (.replace, .reset), (.reset, .replace), (.push, .reset), (.reset, .push):
            // Different kinds of move: the same screen is still a different history (a new screen against one updated in
            // place, or a run started again).
            guard let l = a.landing(initial: old.initial), let r = b.landing(initial: new.initial) else { return true }
            let kind: FlowDiffReport.Kind = stateMap[l.state.index] == r.state.rawValue ? .differentData : .differentState
            record(kind, at: at, move: move, old: result(old: true, a), new: result(old: false, b))
        default:
            break
        }
        return true
    }

    /// Stores `pair` reached from `from` by `move` (`kind` 0 a push, 1 a replace, 2 a reset) unless known; false when the
    /// pair limit stops the search.
    mutating func visit(_ pair: Pair, from: Int, move: Int32, kind: UInt8, variant: Int32) -> Bool {
        if overBacks { return visitOverBacks(pair, from: from, move: move, kind: kind, variant: variant) }
        if index.find(pair) != nil { return true }
        if pairs.count >= maxPairs {
            stoppedBy = .maxConfigurations(maxPairs)
            return false
        }
        index.insert(pair)
        pairs.append(pair)
        parent.append(Int32(from))
        via.append(move)
        self.variant.append(variant)
        distance.append(from < 0 ? 0 : distance[from] + 1)
        return true
    }

    /// Pairs the variants by their config values and stores each agreeing pair of roots; reports the rest.
    mutating func startRoots() {
        let initialOld = old.states[old.initial.index], initialNew = new.states[new.initial.index]
        var pairedNew = Set<Int>()
        for (i, values) in old.variants.enumerated() where i < old.roots.count {
            guard let j = new.variants.indices.first(where: { !pairedNew.contains($0) && Set(new.variants[$0]) == Set(values) }),
                  j < new.roots.count else {
                recordRoot(.removedMove, values: values, old: .starts(state: initialOld), new: .noVariant)
                continue
            }
            pairedNew.insert(j)
            let o = Frame(state: old.initial.rawValue, keys: old.roots[i].keys, values: old.roots[i].values)
            let n = Frame(state: new.initial.rawValue, keys: new.roots[j].keys, values: new.roots[j].values)
            if initialOld != initialNew {
                recordRoot(.differentState, values: [], variant: values, old: .starts(state: initialOld), new: .starts(state: initialNew))
            } else if !dataAgrees(o, n) {
                recordRoot(.differentData, values: [], variant: values, old: .starts(state: initialOld), new: .starts(state: initialNew))
            } else if !visit(Pair(old: o, new: n, canPop: false), from: -1, move: -2, kind: 2, variant: Int32(i)) {
                return
            }
        }
        for (j, values) in new.variants.enumerated() where !pairedNew.contains(j) {
            recordRoot(.addedMove, values: values, old: .noVariant, new: .starts(state: initialNew))
        }
    }

    /// Records a site at the roots (a changed `initial`, a one-sided variant): no state, no event, length 0.
    mutating func recordRoot(_ kind: FlowDiffReport.Kind, values: [FlowSpec.KeyValue], variant: [FlowSpec.KeyValue]? = nil,
                             old: FlowDiffReport.Result, new: FlowDiffReport.Result) {
        // A changed initial is one site, whatever the variants; each one-sided variant is its own.
        let key = SiteKey(kind: kind, state: -1, move: kind == .differentState || kind == .differentData ? -2 : -3 - Int32(differences.count))
        guard sites[key] == nil else { return }
        sites[key] = differences.count
        differences.append(FlowDiffReport.Difference(kind: kind, state: nil, event: nil, values: values, variant: variant ?? values,
                                                     path: [], old: old, new: new))
    }

    /// Records the site `(kind, state of pair at, move)` unless it was found before (then at a pair no further from the root).
    ///
    /// The search over backs keeps it with the pair until the pair's shortest path is known (``PairBacks/pending``).
    mutating func record(_ kind: FlowDiffReport.Kind, at: Int, move: Int32, old oldResult: FlowDiffReport.Result, new newResult: FlowDiffReport.Result) {
        if overBacks {
            backs.pending[Int32(at), default: []].append(PairBacks.Pending(kind: kind, move: move, old: oldResult, new: newResult))
            return
        }
        let state = pairs[at].old.state
        let key = SiteKey(kind: kind, state: state, move: move)
        guard sites[key] == nil else { return }
        sites[key] = differences.count
        differences.append(difference(kind, at: at, move: move, path: path(to: at), old: oldResult, new: newResult))
    }

    /// The site `(kind, state of pair at, move)` with `path` and both versions' results.
    func difference(_ kind: FlowDiffReport.Kind, at: Int, move: Int32, path: [FlowDiffReport.Step],
                    old oldResult: FlowDiffReport.Result, new newResult: FlowDiffReport.Result) -> FlowDiffReport.Difference {
        let info = move >= 0 ? moveInfo[Int(move)] : (event: "back", chosen: [])
        let variantIndex = Int(variant[at])
        return FlowDiffReport.Difference(
            kind: kind, state: old.states[Int(pairs[at].old.state)], event: info.event, values: info.chosen,
            variant: old.variants.indices.contains(variantIndex) ? old.variants[variantIndex] : [],
            path: path, old: oldResult, new: newResult)
    }

    /// The moves from the root to pair `at`, each with the screen after it.
    func path(to at: Int) -> [FlowDiffReport.Step] {
        if overBacks { return pathOverBacks(to: Int32(at)) }
        var steps: [FlowDiffReport.Step] = []
        var cursor = at
        while cursor >= 0, parent[cursor] >= 0 {
            let info = moveInfo[Int(via[cursor])]
            steps.append(FlowDiffReport.Step(event: info.event, chosen: info.chosen, state: old.states[Int(pairs[cursor].old.state)]))
            cursor = Int(parent[cursor])
        }
        return steps.reversed()
    }

    /// What the old version (`isOld`) or the new one does with a move whose outcome is `outcome`.
    func result(old isOld: Bool, _ outcome: FlowModel.Outcome) -> FlowDiffReport.Result {
        let model = isOld ? old : new
        let config = isOld ? oldConfig : newConfig
        switch outcome {
        case let .push(to, keys, values):
            return .moves(state: model.states[to.index], data: Self.data(model, keys: keys & ~config, values: values))
        case let .replace(to, keys, values):
            return .updates(state: model.states[to.index], data: Self.data(model, keys: keys & ~config, values: values))
        case let .reset(keys, values):
            // The root holds the config values, which a report leaves out (the variant names them), and the keys the row keeps.
            return .resets(state: model.states[model.initial.index], data: Self.data(model, keys: keys & ~config, values: values))
        case .illegal:
            return .notOffered
        }
    }

    /// The data `(keys, values)` as a report lists it.
    static func data(_ model: FlowModel, keys: UInt64, values: UInt64) -> [FlowDiffReport.Datum] {
        model.dataEntries(keys: keys, values: values).map { FlowDiffReport.Datum(key: $0.key, value: $0.value) }
    }
}
