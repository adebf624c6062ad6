import AuthFlow
import Foundation

/// One node of a ``Walk``'s stack: a configuration of its ``FrameTable`` and where the walk is among its moves.
struct WalkNode {
    /// The configuration's id in the walk's table.
    var config: Int32
    /// The next move to try: an index into the table's moves.
    var next: Int32
    /// The event that pushed this node (-1 at a root).
    var event: Int32
    /// Its index among the parent's moves (the breadth-first order).
    var via: Int32
    /// Where this node's expected-token changes start in the log.
    var logStart: Int32
}

/// The lockstep walk, the one for every flow (`authflow/1` and `/2`) and every implementation (the
/// built-in runtime, an app's own coordinator): every stack of at most `depth` forward events from
/// every variant's root, driven through the implementation and compared with the model's frame after
/// every action.
///
/// The moves come from the one semantics, ``FlowModel/successors(state:keys:values:into:)``, asked
/// once per configuration and kept in a ``FrameTable``: a node carries its configuration's id, so the
/// model's side of a node costs a few array reads. At every node each move that pushes a frame is
/// sent (with the branch's value for each valued key it adds, a unique token for each presence key),
/// checked, walked and undone. Once per configuration, at the shallowest stack that reaches it
/// (``checkNode()``), the implementation is probed: a move no row takes, and an event the step does
/// not offer now, must be refused without change; back is tried where the spec forbids it; the
/// built-in runtime says which events it accepts event by event (``FlowDriver/canHandle(_:)``).
/// A reset must land on the variant's root with nothing to undo (then the path is replayed, since a
/// reset cannot be undone). An app (``DriverTraits/app``) is also sent every event its step does not emit. Siblings that push the same frame are one stack, so the
/// stacks counted equal the configuration graph's count; an in-place update that leaves its configuration as it was (section
/// 5: a screen that reloads itself) builds no history of its own, so it is driven, checked and undone where the
/// configuration is probed, with nothing walked above it (``FrameTable/Move/stays``). Memory is proportional to the depth (the table is bounded, see
/// ``FrameTable``).
struct Walk<Driver: FlowDriver> {
    typealias Node = WalkNode

    /// The flow (kept by reference: the walk is passed by value to its helpers, so it stays small).
    var model: FlowModel { sender.model }
    let driver: Driver
    let depth: Int
    let deadline: Date?
    let timeout: Double?
    let readsInternals: Bool
    let subject: String
    /// Starts the runtime in a variant, at its root; false when it cannot.
    let start: (Int) -> Bool
    /// The moves of every configuration met, from the one semantics.
    var table: FrameTable
    let memory: WalkMemory<WalkNode>
    var nodes: PointerStack<WalkNode>
    /// The token the runtime must hold for each presence key (-1: none).
    let expected: UnsafeMutablePointer<Int>
    var log: PointerStack<ExpectedChange>
    /// Bits of the keys a frame does not hold as data: config keys (fixed per variant).
    let configBits: UInt64
    /// Compares the runtime with a configuration's frame.
    let matcher: FrameMatcher<Driver>
    var variant = 0
    var stacks = 0
    var stoppedBy: StopReason?
    var sites: [Site: FoundViolation] = [:]
    var progress: CheckProgress?
    /// What the walk sends for each key, shared by the closures it hands the driver (which must not copy the walk).
    let sender: ValueSender
    /// The stack at which each configuration's reset moves are driven: a reset cannot be undone, so each
    /// is driven once, at the shortest stack that reaches its configuration (the first in move order),
    /// and the path replayed after it. (The table's ``FrameTable/Facts/resetsDriven`` records it was.)
    let resetStacks: ResetStacks
    /// The stack height below which this walk does not go: 0 for a whole walk, the subtree's root's parent for ``runSubtree(variant:path:)``.
    var floor = 0
    /// The node the runtime's history starts at: 0, or a reset's landing the walk walks on from (``walkOn(from:)``).
    var base = 0
    /// When set, called every 4096 stacks with the stacks counted since the last call instead of reporting
    /// progress and checking the deadline; returns whether to stop (walks that share an exploration share its limits).
    var monitor: ((Int) -> Bool)?
    var monitored = 0
    /// The spec's own `always`/`never` rules, checked on every frame the walk drives (``Walk+Rules``).
    let rules: RuleCheck
    /// Per rule: the path length of the occurrence kept so far.
    var ruleFound: [Int32]
    /// The stack height each configuration was probed at (see ``checkNode()``), kept when the table is emptied.
    var probedAt = ProbeDepths()
    /// Whether some step asks for an assurance level (section 6): then every frame the walk drives is checked against it.
    let checksAssurance: Bool
    /// The model's levels and factor masks, held here: reading them through ``model`` (a computed copy of the
    /// whole model) cost 2,600 instructions per node, 8 % of the walk of sign-in-next-step.
    let assurance: FlowAssurance

    /// The flow and the values the walk sends: a valued key's value in a branch, a presence key's token.
    final class ValueSender {
        let model: FlowModel
        /// The keys' fields and domains.
        let table: FrameValueTable
        init(model: FlowModel) {
            self.model = model
            self.table = FrameValueTable(layout: model.layout, keyCount: model.keys.count)
        }

        /// The value of `key` sent with `event` at `height`, the branch's values packed in `values`.
        @inline(__always)
        func value(_ key: KeyID, event: EventID, values: UInt64, height: Int) -> FlowValue {
            let k = key.index
            if table.valuedBits & (1 << UInt64(k)) != 0, let position = table.position(k, in: values) { return table.textValues[position] }
            return .int(RuntimeExplorer.token(height: height, event: event, key: key))
        }
    }

    init(model: FlowModel, driver: Driver, traits: DriverTraits, depth: Int, deadline: Date?, timeout: Double?,
         tableCapacity: Int? = nil, resetStacks: ResetStacks? = nil, start: @escaping (Int) -> Bool) {
        self.driver = driver
        self.depth = max(0, depth)
        self.deadline = deadline
        self.timeout = timeout
        self.readsInternals = traits.readsInternals
        self.subject = traits.subject
        self.start = start
        self.table = FrameTable(model: model, depth: self.depth, capacity: tableCapacity, probesEveryEvent: traits.probesEveryEvent)
        let maximumAdds = model.emissions.joined().map(\.addKeys.nonzeroBitCount).max() ?? 0
        self.memory = WalkMemory(depth: self.depth, keys: model.keys.count, maximumAdds: maximumAdds)
        self.nodes = PointerStack(base: memory.nodes, capacity: memory.nodeCapacity)
        self.log = PointerStack(base: memory.log, capacity: memory.logCapacity)
        self.expected = memory.expected
        let layout = model.layout
        self.configBits = layout.configKeys
        self.sender = ValueSender(model: model)
        self.matcher = FrameMatcher(table: sender.table, driver: driver, readsInternals: traits.readsInternals, expected: memory.expected)
        self.rules = RuleCheck(model: model)
        self.resetStacks = resetStacks ?? ResetStacks(model: model, depth: self.depth)
        self.ruleFound = Array(repeating: .max, count: rules.rules.count)
        self.checksAssurance = model.assurance.protectsSomeStep
        self.assurance = model.assurance
    }

    func result() -> RuntimeExploration {
        RuntimeExploration(violations: Self.ordered(Array(sites.values)), stacks: stacks, depth: depth, stoppedBy: stoppedBy)
    }

    /// `found`'s violations in breadth-first order.
    static func ordered(_ found: [FoundViolation]) -> [Violation] {
        found.sorted { $0.precedes($1) }.map(\.violation)
    }

    /// Walks every variant in order, each from its root.
    mutating func runAll() {
        for index in model.roots.indices {
            guard begin(variant: index) else { continue }
            stacks += 1
            checkNode()
            walk()
            if stoppedBy != nil { return }
        }
    }

    /// Starts the runtime in `variant` and makes the variant's root the only node; false when the runtime cannot start there.
    mutating func begin(variant index: Int) -> Bool {
        variant = index
        floor = 0
        guard start(index) else { return false }
        for k in 0..<memory.keys { expected[k] = -1 }
        log.removeAll()
        nodes.removeAll()
        if table.isFull { table.removeAll() }
        let root = model.roots[index]
        let config = table.intern(Configuration(state: model.initial.rawValue, keys: root.keys, values: root.values))
        table.expand(config)
        nodes.append(Node(config: config, next: table.entries[Int(config)].moveStart, event: -1, via: -1, logStart: 0))
        return true
    }

    /// The entry of the node at `height`.
    @inline(__always) func entry(at height: Int) -> FrameTable.Entry { table.entries[Int(nodes[height].config)] }

    /// The depth-first loop over the current variant.
    mutating func walk() {
        while nodes.count > floor {
            let top = nodes.count - 1
            var index = Int(nodes[top].next)
            var chosen = -1
            if top < depth {
                let end = Int(table.entries[Int(nodes[top].config)].moveEnd)
                while index < end {
                    let m = index
                    index += 1
                    if table.moves[m].walked {
                        chosen = m
                        break
                    }
                }
            }
            nodes[top].next = Int32(index)
            if chosen >= 0 {
                push(chosen)
                if stacks & 0xFFF == 0, periodic() { return }
            } else {
                pop()
            }
        }
    }

    /// Empties the table and interns the stack's configurations again, each expanded (its moves come
    /// back in the same order, so every node keeps its place among them).
    mutating func compact() {
        let old = (0..<nodes.count).map { table.entries[Int(nodes[$0].config)] }
        table.removeAll()
        for height in 0..<nodes.count {
            let config = table.intern(old[height].configuration)
            table.expand(config)
            var facts = old[height].facts
            facts.formIntersection(.resetsDriven)
            if !facts.isEmpty { table.markResetsDriven(config) }
            nodes[height].next = table.entries[Int(config)].moveStart + (nodes[height].next - old[height].moveStart)
            nodes[height].config = config
        }
    }

    mutating func periodic() -> Bool {
        if let monitor {
            let stop = monitor(stacks - monitored)
            monitored = stacks
            if stop { stoppedBy = .timeout(seconds: timeout ?? 0) }
            return stop
        }
        if let progress { progress.update(.stacks, count: stacks, depth: nodes.count - 1) }
        if let deadline, Date() > deadline {
            stoppedBy = .timeout(seconds: timeout ?? 0)
            return true
        }
        return false
    }

    /// Sends move `m` through the runtime: the branch's value for each valued key it adds, a unique
    /// token for each presence key, as pushed at stack height `height`; `true` when accepted.
    @inline(__always)
    func send(move m: Int, height: Int) -> Bool {
        announce(move: m)
        let move = table.moves[m]
        return send(EventID(move.event), values: move.values, height: height)
    }

    /// Tells an async app's driver what the walk expects of the action it takes next (``Speculation``); nothing for any other driver.
    @inline(__always)
    func announce(accepted: Bool, state: Int32 = -1) {
        if let app = driver as? ErasedAppDriver, let speculation = app.speculation { speculation.expect(accepted: accepted, state: state) }
    }

    /// ``announce(accepted:state:)`` for move `m` of the table: refused where no row takes it, else accepted, landing on its target.
    @inline(__always)
    func announce(move m: Int) {
        guard let app = driver as? ErasedAppDriver, let speculation = app.speculation else { return }
        let move = table.moves[m]
        switch move.target {
        case FrameTable.illegal: speculation.expect(accepted: false, state: -1)
        case FrameTable.reset:
            speculation.expect(accepted: true, state: move.landing >= 0 ? table.entries[Int(move.landing)].state : model.initial.rawValue)
        default: speculation.expect(accepted: true, state: table.entries[Int(move.target)].state)
        }
    }

    /// Sends `event` with `values` for its valued keys (a refused event has no move to take them from).
    @inline(__always)
    func send(_ event: EventID, values: UInt64, height: Int) -> Bool {
        let sender = self.sender
        return driver.send(event) { sender.value($0, event: event, values: values, height: height) }
    }

    /// Pushes the model's child for move `m` of the top node (expected tokens included).
    @inline(__always)
    mutating func pushModel(_ m: Int) {
        let top = nodes.count - 1
        let move = table.moves[m]
        let logStart = log.count
        expect(move, height: nodes.count + 1)
        let via = Int32(m) - table.entries[Int(nodes[top].config)].moveStart
        let target = expanded(move.target)
        nodes.append(Node(config: target, next: table.entries[Int(target)].moveStart, event: move.event, via: via, logStart: Int32(logStart)))
    }

    /// Configuration `target` with its moves in the table: expanded now if it was not (the only place the table grows:
    /// emptied first when the expansion might not fit, so the id returned may differ from `target`).
    @inline(__always)
    mutating func expanded(_ target: Int32) -> Int32 {
        guard table.entries[Int(target)].moveStart < 0 else { return target }
        var target = target
        if table.isFull {
            let configuration = table.entries[Int(target)].configuration
            compact()
            target = table.intern(configuration)
        }
        table.expand(target)
        return target
    }

    /// Sets (and logs) the tokens the runtime holds after `move`, sent at stack height `height`: a fresh one for each
    /// presence key its emission adds, ``FrameTable/addedByEffect`` for each its row's effects add.
    @inline(__always)
    mutating func expect(_ move: FrameTable.Move, height: Int) {
        var added = move.adds
        while added != 0 {
            let k = added.trailingZeroBitCount
            added &= added - 1
            log.append(ExpectedChange(key: Int32(k), previous: expected[k]))
            expected[k] = RuntimeExplorer.token(height: height, event: EventID(move.event), key: KeyID(Int32(k)))
        }
        var effectAdded = move.effectAdds
        while effectAdded != 0 {
            let k = effectAdded.trailingZeroBitCount
            effectAdded &= effectAdded - 1
            log.append(ExpectedChange(key: Int32(k), previous: expected[k]))
            expected[k] = FrameTable.addedByEffect
        }
    }

    mutating func push(_ m: Int) {
        let parentState = table.entries[Int(nodes[nodes.count - 1].config)].state
        let accepted = send(move: m, height: nodes.count + 1)
        pushModel(m)   // (may empty the table: `m` is not read after it)
        stacks += 1
        if !accepted {
            let subject = self.subject, event = nodes[nodes.count - 1].event, target = entry(at: nodes.count - 1).state
            report(.divergence, state: parentState, event: event) { model in
                "\(subject) rejected \(model.events[Int(event)]) from \(model.states[Int(parentState)]), which the spec sends to \(model.states[Int(target)])"
            }
            dropTop()
            resync()
            return
        }
        checkNode()
    }

    /// Removes the top node from the model and restores the expected tokens below it.
    @inline(__always)
    mutating func dropTop() {
        let child = nodes.removeLast()
        while log.count > Int(child.logStart) {
            let change = log.removeLast()
            expected[Int(change.key)] = change.previous
        }
    }

    /// Undoes the top frame in the runtime and the model, and checks the runtime is exactly back.
    ///
    /// The built-in runtime is undone by its undo; an app by its own back where the spec allows back, else by its
    /// undo capability (``FlowUnderTest``), and the findings say which.
    mutating func pop() {
        let child = nodes[nodes.count - 1]
        let childEntry = entry(at: nodes.count - 1)
        let childState = childEntry.state
        dropTop()
        guard !nodes.isEmpty else { return }
        let parent = entry(at: nodes.count - 1)
        announce(accepted: true, state: parent.state)
        let accepted = driver.undo()
        if accepted && matcher.matches(parent, height: nodes.count - base) { return }
        nodes.append(child)
        let subject = self.subject, readsInternals = self.readsInternals
        let userBack = undoIsAppBack(childEntry)
        if !accepted {
            report(.undoMismatch, state: childState, event: child.event, trigger: .undo) { model in
                readsInternals ? "undo from \(model.states[Int(childState)]) was refused by the runtime"
                    : userBack ? "back from \(model.states[Int(childState)]) was refused by \(subject), which the spec allows"
                    : "undo from \(model.states[Int(childState)]) was refused by \(subject)'s undo"
            }
        } else {
            let found = mismatch(parent)
            let problem = found?.summary(subject: subject) ?? "\(subject) changed while it was compared"
            let appBack = !readsInternals && userBack
            report(.undoMismatch, state: childState, event: child.event, trigger: .undo, mismatch: found) { model in
                appBack ? "after back from \(model.states[Int(childState)]) (entered by \(model.events[Int(child.event)])), \(problem)"
                    : "after undoing \(model.events[Int(child.event)]) from \(model.states[Int(childState)]), \(problem)"
            }
            checkRulesOnRuntime(trigger: .undo, mismatch: found)
        }
        nodes.removeLast()
        resync()
    }

    /// The value the runtime must hold for `key` in the frame of `entry`.
    func expectedValue(_ key: KeyID, in entry: FrameTable.Entry) -> FlowValue {
        let k = key.index
        let layout = model.layout
        if layout.isCounter(k) { return .int(layout.field(k, in: entry.values)) }
        if layout.isValued(k) { return .string(layout.domains[k][layout.field(k, in: entry.values)]) }
        if expected[k] == FrameTable.addedByEffect { return .string(FrameTable.presentText) }
        return .int(expected[k])
    }

    func mismatch(_ entry: FrameTable.Entry) -> FrameMismatch? {
        FrameComparator(model: model).compare(driver, state: entry.state, height: readsInternals ? nodes.count - base : nil, keys: entry.data,
                                              expected: { expectedValue($0, in: entry) }, display: RuntimeExplorer.display)
    }

    /// Checks the node just entered: its frame, what the step offers and refuses, resets, the back policy.
    ///
    /// Every node's frame is compared, and its rules checked. The implementation is probed (what it says the step
    /// accepts, the events the step refuses, back where the spec forbids it) once per configuration, at the
    /// shallowest stack that reaches it (the first in move order), the same for the built-in runtime and an app:
    /// what it refuses there is what the spec refuses at every stack of the configuration, and probing each of a
    /// configuration's stacks again cost the runtime's walk 46 % of its instructions on Element X's flow. An app
    /// is replayed after its probes: a refused probe may change what the app keeps hidden, and every
    /// counterexample must replay from the path it prints. Every wrong answer of an app at a node is a site of its
    /// own, so its probes go on after one; the built-in runtime's stop at the first.
    mutating func checkNode() {
        var walksOn = false
        checkNode(walkingOn: &walksOn)
        if walksOn { walkOnLandings() }
    }

    /// ``checkNode()`` but for the walks on from reset landings, which it leaves for later (`walksOn`): a walk on may
    /// empty the table, and this loop reads its entries.
    @inline(__always)
    mutating func checkNode(walkingOn walksOn: inout Bool) {
        let top = nodes.count - 1
        let node = nodes[top]
        let entry = table.entries[Int(node.config)]
        let state = Int(entry.state)
        // What findings call the implementation is read only on the way to a finding (copying it per node would retain it).
        if !matcher.matches(entry, height: nodes.count - base) {
            let subject = self.subject, found = mismatch(entry)
            let problem = found?.summary(subject: subject) ?? "\(subject) changed while it was compared"
            report(.divergence, state: entry.state, event: node.event, mismatch: found) { model in
                node.event < 0 ? "at the start, \(problem)" : "after \(model.events[Int(node.event)]), \(problem)"
            }
            checkRulesOnRuntime(trigger: nil, mismatch: found)
            if nodes.count > 1 { dropTop() }
            resync()
            return
        }
        checkRules(node.config)
        if checksAssurance { checkAssurance(entry) }
        // Section 5: the app's back is not the walk's undo, so it is pressed at every node where the spec allows it.
        // The frames the user's back takes off here (section 5), once asked (-1 until then).
        var takes = -1
        if !readsInternals && table.section5History && entry.facts.contains(.backAllowed) {
            takes = backFrames()
            if takes > 0 { checkAppBack(entry, takes: takes) }
        }
        // A reset cannot be undone: the resets of a configuration are driven once, at the shortest stack that reaches it (``ResetStacks``).
        var driveResets = false
        if entry.facts.contains(.resets) && !entry.facts.contains(.resetsDriven)
            && resetStacks.drivesResets(entry.configuration, variant: variant, path: nodes.dropFirst().lazy.map(\.via)) {
            table.markResetsDriven(node.config)
            driveResets = true
        }
        let probes = firstProbe(node.config, entry)
        guard probes || driveResets else { return }
        defer { if !readsInternals && probes { resync() } }
        // The built-in runtime says event by event what it accepts (an app is sent the events instead, below).
        let asksEach = readsInternals
        for c in Int(entry.checkStart)..<Int(entry.checkEnd) {
            let check = table.checks[c]
            let event = EventID(check.event)
            if asksEach && driver.canHandle(event) != check.enabled {
                let enabled = check.enabled
                report(.divergence, state: entry.state, event: event.rawValue) { model in
                    "the runtime says \(model.events[event.index]) is \(enabled ? "not " : "")enabled in \(model.states[state]); the spec says it is \(enabled ? "" : "not ")"
                }
                continue
            }
            // An event the step does not offer now (sent with each valued key's first value), and each
            // branch no row takes, must be refused without change.
            let offered = check.first < check.end
            if probes && (!offered || check.refused) {
                let height = nodes.count + 1
                for m in offered ? Int(check.first)..<Int(check.end) : 0..<1 where !offered || table.moves[m].target == FrameTable.illegal {
                    if !offered { announce(accepted: false) }
                    let accepted = offered ? send(move: m, height: height) : send(event, values: 0, height: height)
                    if accepted {
                        let subject = self.subject, refusal = check.refusal
                        report(.divergence, state: entry.state, event: event.rawValue, trigger: .event(event.rawValue)) { model in
                            switch refusal {
                            case .noTransition: "\(subject) accepted \(model.events[event.index]) in \(model.states[state]), which has no transition"
                            case .notOffered: "\(subject) accepted \(model.events[event.index]) in \(model.states[state]), where the step does not offer it"
                            case .noRowTakes: "\(subject) accepted \(model.events[event.index]) in \(model.states[state]) with values no row takes"
                            }
                        }
                        checkRulesOnRuntime(trigger: .event(event.rawValue))
                        resync()
                        if readsInternals { return } else { continue }
                    }
                    if !matcher.matches(state: entry.state, values: entry.values, data: entry.data, height: nodes.count - base) {
                        let subject = self.subject, found = mismatch(entry)
                        let problem = found?.summary(subject: subject) ?? "\(subject) changed while it was compared"
                        report(.undoMismatch, state: entry.state, event: event.rawValue, trigger: .event(event.rawValue), mismatch: found) { model in
                            "rejecting \(model.events[event.index]) changed \(subject): \(problem)"
                        }
                        checkRulesOnRuntime(trigger: .event(event.rawValue), mismatch: found)
                        resync()
                        if readsInternals { return }
                    }
                }
            }
            // A reset must land on the variant's root (with the keys its row keeps) with nothing to undo.
            guard driveResets && check.resets else { continue }
            for m in Int(check.first)..<Int(check.end) where table.moves[m].target == FrameTable.reset {
                guard send(move: m, height: nodes.count + 1) else {
                    let subject = self.subject
                    report(.divergence, state: entry.state, event: event.rawValue, trigger: .event(event.rawValue)) { model in
                        "\(subject) rejected \(model.events[event.index]) from \(model.states[state]), which the spec resets to \(model.states[model.initial.index])"
                    }
                    resync()
                    return
                }
                // The keys the reset's emission adds hold its tokens (a row may keep them).
                let logStart = log.count
                expect(table.moves[m], height: nodes.count + 1)
                defer {
                    while log.count > logStart {
                        let change = log.removeLast()
                        expected[Int(change.key)] = change.previous
                    }
                }
                let landing = table.moves[m].landing
                let root = table.entries[Int(landing >= 0 ? landing : nodes[0].config)]
                let atRoot = driver.state == model.initial && (!readsInternals || driver.height == 1) && driver.dataCount == root.data.nonzeroBitCount
                    && matcher.matchesData(values: root.values, bits: root.data)
                if !atRoot {
                    let found = FrameComparator(model: model).compare(driver, state: root.state, height: readsInternals ? 1 : nil, keys: root.data,
                                                                      expected: { expectedValue($0, in: root) }, display: RuntimeExplorer.display)
                    let subject = self.subject
                    let problem = found?.summary(subject: subject) ?? "\(subject) did not start again"
                    report(.divergence, state: entry.state, event: event.rawValue, trigger: .event(event.rawValue), mismatch: found) { model in
                        "after \(model.events[event.index]), which starts the flow again, \(problem)"
                    }
                    checkRulesOnRuntime(trigger: .event(event.rawValue), mismatch: found)
                } else if landing >= 0 && top < depth && resetStacks.walksOn(from: entry.configuration, ordinal: Int32(m) - entry.moveStart,
                                                              landing: root.configuration, variant: variant) {
                    walksOn = true
                }
                resync()
            }
        }
        guard probes else { return }
        let backAllowed = nodes.count - base > 1 && entry.facts.contains(.backAllowed)
            && (!table.section5History || (takes >= 0 ? takes : backFrames()) > 0)
        // An app cannot say whether back is possible: it is only tried, at the root too.
        if readsInternals && driver.canGoBack != backAllowed {
            report(.divergence, state: entry.state, event: -1) { model in
                "the runtime says back is \(backAllowed ? "not " : "")possible in \(model.states[state]); the spec says it is \(backAllowed ? "" : "not")"
            }
        } else if !backAllowed && (nodes.count - base > 1 || !readsInternals) {
            announce(accepted: false)
            if driver.back() {
                let subject = self.subject
                report(.divergence, state: entry.state, event: -1, trigger: .forbiddenBack) { model in
                    "\(subject) let the user go back from \(model.states[state]), which the spec forbids"
                }
                checkRulesOnRuntime(trigger: .forbiddenBack)
                resync()
            } else if !matcher.matches(state: entry.state, values: entry.values, data: entry.data, height: nodes.count - base) {
                let subject = self.subject, found = mismatch(entry)
                let problem = found?.summary(subject: subject) ?? "\(subject) changed while it was compared"
                report(.undoMismatch, state: entry.state, event: -1, trigger: .forbiddenBack, mismatch: found) { _ in
                    "a refused back changed \(subject): \(problem)"
                }
                checkRulesOnRuntime(trigger: .forbiddenBack, mismatch: found)
                resync()
            }
        }
        if entry.facts.contains(.stays) && top < depth && nodes.count == top + 1 { driveStayingUpdates() }
    }

    /// Drives each in-place update of the top node that leaves its configuration as it was (``FrameTable/Move/stays``):
    /// sent, checked and undone like any move, with nothing walked above it, once per configuration where it is probed.
    /// Such an update builds no history of its own, so the walk does not take it: what the runtime does with it is probed
    /// as what it refuses is, at the shallowest stack of the configuration.
    @inline(never)
    mutating func driveStayingUpdates() {
        let height = nodes.count
        var m = Int(entry(at: height - 1).moveStart)
        while m < Int(entry(at: height - 1).moveEnd) && stoppedBy == nil {
            if table.moves[m].stays {
                push(m)   // its target is the top's configuration, expanded already: the table is not emptied
                if nodes.count > height { pop() }
            }
            m += 1
        }
    }

    /// Walks on, after the top node's checks, from each landing of its resets that ``ResetStacks`` gives it, one by one.
    @inline(never)
    mutating func walkOnLandings() {
        let top = nodes.count - 1
        var landings: [Int32] = []
        let entry = entry(at: top)
        for m in Int(entry.moveStart)..<Int(entry.moveEnd) where table.moves[m].target == FrameTable.reset {
            let landing = table.entries[Int(table.moves[m].landing)].configuration
            if resetStacks.walksOn(from: entry.configuration, ordinal: Int32(m) - entry.moveStart, landing: landing, variant: variant) {
                landings.append(Int32(m) - entry.moveStart)
            }
        }
        for ordinal in landings where stoppedBy == nil {
            let m = Int(self.entry(at: top).moveStart + ordinal)
            guard send(move: m, height: nodes.count + 1) else { continue }   // refused: reported where it was driven
            walkOn(from: m)
            resync()
        }
    }

    /// Puts the landing of reset move `m` of the top node on the stack, once the runtime has taken the reset: the keys its
    /// emission adds hold its tokens, and the node's `via` is the reset's ordinal, so ``resync()`` replays the reset. The
    /// caller makes it the base of the runtime's history; dropping the node takes its tokens back.
    mutating func pushLanding(_ m: Int) {
        let via = Int32(m) - entry(at: nodes.count - 1).moveStart
        let move = table.moves[m]
        let logStart = log.count
        expect(move, height: nodes.count + 1)
        let landing = expanded(move.landing)
        nodes.append(Node(config: landing, next: table.entries[Int(landing)].moveStart, event: move.event, via: via, logStart: Int32(logStart)))
    }

    /// Walks on from the landing of reset move `m` of the top node, where the runtime now is: a one-frame history that is
    /// not the variant's root (its row keeps keys, or server-side keys stay), with stacks above it no push reaches.
    ///
    /// The landing becomes a node above the reset's source (its `via` the reset's ordinal, so ``resync()`` replays the
    /// reset) and the base of the runtime's history; the walk goes up from it as from a root, within the same depth
    /// (the reset is a forward move), and never undoes it: a reset cannot be undone. The caller resyncs afterwards.
    mutating func walkOn(from m: Int) {
        guard nodes.count - 1 < depth else { return }
        let saved = (floor: floor, base: base)
        defer { (floor, base) = saved }
        pushLanding(m)
        let height = nodes.count
        base = height - 1
        floor = height
        // A landing the runtime missed was reported where its reset was driven: nothing above it is walked.
        let landed = entry(at: height - 1)
        guard matcher.matches(state: landed.state, values: landed.values, data: landed.data, height: 1) else {
            dropTop()
            return
        }
        stacks += 1
        checkNode()
        guard nodes.count == height else { return }
        while stoppedBy == nil {
            var chosen = -1
            if height - 1 < depth {
                let end = Int(table.entries[Int(nodes[height - 1].config)].moveEnd)
                var index = Int(nodes[height - 1].next)
                while index < end {
                    let next = index
                    index += 1
                    if table.moves[next].walked {
                        chosen = next
                        break
                    }
                }
                nodes[height - 1].next = Int32(index)
            }
            guard chosen >= 0 else { break }
            push(chosen)
            if stacks & 0xFFF == 0, periodic() { break }
            walk()
        }
        while nodes.count >= height { dropTop() }
    }

    /// Whether configuration `entry` (id `id`) is reached here by a shorter stack than any it was probed at; records it if so.
    ///
    /// Asked at every node, so the answer is a field of the entry; ``probedAt`` keeps it when the table is emptied.
    @inline(__always)
    mutating func firstProbe(_ id: Int32, _ entry: FrameTable.Entry) -> Bool {
        if entry.probedAt > 0 && Int(entry.probedAt) <= nodes.count { return false }
        return probeHere(id, entry)
    }

    /// ``firstProbe(_:_:)`` once the entry does not know: the heights kept across emptied tables decide, and the entry learns.
    @inline(never)
    mutating func probeHere(_ id: Int32, _ entry: FrameTable.Entry) -> Bool {
        let configuration = entry.configuration
        if let height = probedAt[configuration], height <= nodes.count {
            table.markProbed(id, height: height)
            return false
        }
        probedAt[configuration] = nodes.count
        table.markProbed(id, height: nodes.count)
        return true
    }

    /// Puts the runtime back in step with the model: start the variant again and replay the path.
    mutating func resync() {
        _ = start(variant)
        for i in 1..<max(1, nodes.count) {
            let parent = table.entries[Int(nodes[i - 1].config)]
            _ = send(move: Int(parent.moveStart + nodes[i].via), height: i + 1)
        }
    }

    /// Records a violation at a site, keeping the shortest (then first in variant and move order) occurrence.
    mutating func report(_ property: Property, state: Int32, event: Int32, trigger: WalkTrigger? = nil,
                         mismatch: FrameMismatch? = nil, _ message: (FlowModel) -> String) {
        let site = Site(property: property, state: model.states[Int(state)], event: event < 0 ? nil : model.events[Int(event)])
        record(site, state: site.state ?? "", trigger: trigger, mismatch: mismatch, message)
    }

    /// Records a violation of `site` in `state` (named), found at the current path (then `trigger`), keeping
    /// the shortest (then first in variant and move order) occurrence.
    mutating func record(_ site: Site, state: String, trigger: WalkTrigger?, mismatch: FrameMismatch?,
                         _ message: (FlowModel) -> String) {
        var order = [Int32(nodes.count - 1) + (trigger?.steps ?? 0), Int32(variant)]
        for node in nodes.dropFirst() { order.append(node.via) }
        if let existing = sites[site], !order.lexicographicallyPrecedes(existing.order) { return }
        func step(_ step: FlowPath.Step?, at i: Int) -> PathStep {
            // Counters are always defined: the data shows them with the present keys (config is the variant's).
            let values = shownValues(at: i)
            return PathStep(step: step, state: model.states[Int(entry(at: i).state)],
                            data: model.keys.filter { values[$0] != nil }, values: values)
        }
        var path = nodes.indices.map { i in step(nodes[i].event < 0 ? nil : .event(model.events[Int(nodes[i].event)]), at: i) }
        switch trigger {
        case .undo?:
            let userBack = readsInternals ? entry(at: nodes.count - 1).facts.contains(.backAllowed) : undoIsAppBack(entry(at: nodes.count - 1))
            path.append(step(userBack ? .back : .undo, at: nodes.count - 2))
        case let .back(landing)?: path.append(backStep(landing: Int(landing)))
        case let .backThen(landing, event)?:
            path.append(backStep(landing: Int(landing)))
            path.append(backStep(landing: Int(landing), step: .event(model.events[Int(event)])))
        case .forbiddenBack?: path.append(step(.back, at: nodes.count - 1))
        case let .event(sent)?: path.append(step(.event(model.events[Int(sent)]), at: nodes.count - 1))
        case nil: break
        }
        // The variant is the violation's own field, not part of its message: the checker's words for the same frame.
        sites[site] = FoundViolation(order: order, violation: Violation(
            property: site.property, state: state, event: site.event, message: message(model), path: FlowPath(path), mismatch: mismatch,
            variant: model.format >= 2 ? model.variants[variant] : nil))
    }

    /// The values the model expects in `node`, as a report shows them: tokens `#N`, domain values, counts; secrets redacted.
    ///
    /// Config keys are left out, as the complete checker's paths leave them out: the violation names its variant.
    func shownValues(at i: Int) -> [String: String] {
        let node = entry(at: i)
        var result: [String: String] = [:]
        for k in 0..<model.keys.count where configBits & (1 << UInt64(k)) == 0 {
            let key = KeyID(Int32(k))
            guard let shown = model.layout.shown(k, keys: node.keys, values: node.values) else { continue }
            if model.secrets.contains(key) {
                result[model.keys[k]] = FlowReport.redacted
            } else if shown == "present" {
                result[model.keys[k]] = token(of: k, at: i).map { RuntimeExplorer.display(.int($0)) } ?? "?"
            } else {
                result[model.keys[k]] = shown
            }
        }
        return result
    }

    /// The token of presence key `k` at node `i`: the one the last move at or below it that added `k` sent.
    func token(of k: Int, at i: Int) -> Int? {
        for j in stride(from: i, through: 1, by: -1) {
            let move = table.moves[Int(entry(at: j - 1).moveStart + nodes[j].via)]
            if move.adds & (1 << UInt64(k)) != 0 {
                return RuntimeExplorer.token(height: j + 1, event: EventID(move.event), key: KeyID(Int32(k)))
            }
        }
        return nil
    }
}

/// The action that broke a site when it pushed no frame: the counterexample shows it as a step of its own.
enum WalkTrigger: Equatable {
    /// Undoing the top frame (the next frame is the parent).
    case undo
    /// A back where the spec forbids it (nothing changes).
    case forbiddenBack
    /// An app's back in a flow with section 5's history keys, landing on the node at this index (``Walk/checkAppBack(_:takes:)``).
    case back(landing: Int32)
    /// That back, then an event sent on the screen it landed on (raw ids).
    case backThen(landing: Int32, event: Int32)
    /// An event sent at the node that the table has no row for (its raw id).
    case event(Int32)
}
