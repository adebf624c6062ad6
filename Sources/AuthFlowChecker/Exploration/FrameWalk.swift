import AuthFlow
import Foundation

/// The lockstep walk over a flow whose moves depend on its data (`authflow/2`: guards, valued keys,
/// clears, counters, resets, config): every stack of at most `depth` forward events from every
/// variant's root, driven through the runtime and compared with the model's frame after every action.
///
/// The moves come from the one semantics, ``FlowModel/successors(state:keys:values:into:)``, one
/// buffer per height, reused. At every node: each successor that pushes a frame is sent (with the
/// branch's value for each valued key it adds, a unique token for each presence key), checked,
/// walked and undone; a successor no row takes, and an event the step does not offer now, must be
/// refused without change; a reset must land on the variant's root with nothing to undo (then the
/// path is replayed, since a reset cannot be undone); back is tried where the spec forbids it.
/// Siblings that push the same frame are one stack, as in ``Walk``, so the stacks counted equal
/// the configuration graph's count. Memory is proportional to the depth.
/// One node of a ``FrameWalk``'s stack (outside the generic walk, so its arrays need no type built at run time).
struct FrameNode {
    var state: Int32
    var keys: UInt64
    var values: UInt64
    /// The next successor to try, an index into this node's buffer.
    var next: Int
    /// The event that pushed this node (-1 at a root).
    var event: Int32
    /// Its index among the parent's successors (the breadth-first order).
    var via: Int32
    /// Where this node's expected-token changes start in the log.
    var logStart: Int
    /// The keys the runtime must hold as data here (``FrameWalk/dataBits(_:)``), or `~0` until computed.
    var data: UInt64 = ~0
}

struct FrameWalk<Driver: FlowDriver> {
    typealias Node = FrameNode

    let model: FlowModel
    let driver: Driver
    let depth: Int
    let deadline: Date?
    let timeout: Double?
    let readsInternals: Bool
    let subject: String
    /// Starts the runtime in a variant, at its root; false when it cannot.
    let start: (Int) -> Bool
    var nodes: [Node] = []
    /// Per height: the successors of the node at that height.
    var buffers: [[FlowModel.Successor]]
    /// The token the runtime must hold for each presence key (-1: none).
    var expected: [Int]
    var log: [ExpectedChange] = []
    /// Bits of the keys a frame does not hold as data: config keys (fixed per variant) and counters (compared by count).
    let configBits: UInt64
    let counters: [Int]
    /// Bits of the counters and of the valued keys: how ``matches(_:)`` compares each key.
    let counterBits: UInt64
    let valuedBits: UInt64
    /// Per state: the event of each emission, in declaration order.
    let emissionEvents: [[EventID]]
    var variant = 0
    var stacks = 0
    var stoppedBy: StopReason?
    var sites: [Site: FoundViolation] = [:]
    var progress: CheckProgress?
    /// What the walk sends for each key, shared by the closures it hands the driver (which must not copy the walk).
    let sender: ValueSender
    /// Configurations whose reset moves were driven: a reset cannot be undone, so each is driven once,
    /// at the shallowest stack that reaches its configuration, and the path replayed after it.
    var resetProbed: Set<Configuration> = []

    /// The values the walk sends: a valued key's value in a branch, a presence key's token.
    final class ValueSender {
        let layout: DataLayout
        let valued: UInt64
        init(layout: DataLayout, keys: Int) {
            self.layout = layout
            self.valued = (0..<keys).reduce(0) { layout.isValued($1) ? $0 | 1 << UInt64($1) : $0 }
        }

        /// The value of `key` sent with `event` at `height`, the branch's values packed in `values`.
        @inline(__always)
        func value(_ key: KeyID, event: EventID, values: UInt64, height: Int) -> FlowValue {
            let k = key.index
            if valued & (1 << UInt64(k)) != 0 { return .string(layout.domains[k][layout.field(k, in: values)]) }
            return .int(RuntimeExplorer.token(height: height, event: event, key: key))
        }
    }

    init(model: FlowModel, driver: Driver, traits: DriverTraits, depth: Int, deadline: Date?, timeout: Double?, start: @escaping (Int) -> Bool) {
        self.model = model
        self.driver = driver
        self.depth = max(0, depth)
        self.deadline = deadline
        self.timeout = timeout
        self.readsInternals = traits.readsInternals
        self.subject = traits.subject
        self.start = start
        self.buffers = Array(repeating: [], count: self.depth + 2)
        self.expected = Array(repeating: -1, count: max(1, model.keys.count))
        let layout = model.layout
        self.configBits = (0..<model.keys.count).reduce(0) { layout.isConfig[$1] ? $0 | 1 << UInt64($1) : $0 }
        self.counters = (0..<model.keys.count).filter { layout.isCounter($0) }
        self.counterBits = counters.reduce(0) { $0 | 1 << UInt64($1) }
        self.valuedBits = (0..<model.keys.count).reduce(0) { layout.isValued($1) ? $0 | 1 << UInt64($1) : $0 }
        self.sender = ValueSender(layout: layout, keys: model.keys.count)
        self.emissionEvents = model.emissions.map { $0.map(\.event) }
    }

    func result() -> RuntimeExploration {
        RuntimeExploration(violations: Walk<Driver>.ordered(Array(sites.values)), stacks: stacks, depth: depth, stoppedBy: stoppedBy)
    }

    /// Walks every variant in order, each from its root.
    mutating func runAll() {
        for (index, root) in model.roots.enumerated() {
            variant = index
            guard start(index) else { continue }
            for k in expected.indices { expected[k] = -1 }
            log.removeAll(keepingCapacity: true)
            nodes.removeAll(keepingCapacity: true)
            nodes.append(Node(state: model.initial.rawValue, keys: root.keys, values: root.values, next: 0, event: -1, via: -1, logStart: 0))
            fill(0)
            stacks += 1
            checkNode()
            walk()
            if stoppedBy != nil { return }
        }
    }

    /// Computes the successors of the node at `height` into its buffer.
    mutating func fill(_ height: Int) {
        let node = nodes[height]
        model.successors(state: Int(node.state), keys: node.keys, values: node.values, into: &buffers[height])
    }

    /// The depth-first loop over the current variant.
    mutating func walk() {
        while !nodes.isEmpty {
            let top = nodes.count - 1
            var index = nodes[top].next
            var chosen = -1
            if top < depth {
                let count = buffers[top].count
                while index < count {
                    let i = index
                    index += 1
                    guard case let .push(target, keys, values) = buffers[top][i].outcome, !isDuplicate(i, at: top, target, keys, values) else { continue }
                    chosen = i
                    break
                }
            }
            nodes[top].next = index
            if chosen >= 0 {
                push(chosen)
                if stacks & 0xFFF == 0, periodic() { return }
            } else {
                pop()
            }
        }
    }

    /// Whether an earlier sibling pushes the same frame (then it is the same stack).
    func isDuplicate(_ i: Int, at height: Int, _ target: StateID, _ keys: UInt64, _ values: UInt64) -> Bool {
        for j in 0..<i {
            if case let .push(t, k, v) = buffers[height][j].outcome, t == target, k == keys, v == values { return true }
        }
        return false
    }

    mutating func periodic() -> Bool {
        if let progress { progress.update(.stacks, count: stacks, depth: nodes.count - 1) }
        if let deadline, Date() > deadline {
            stoppedBy = .timeout(seconds: timeout ?? 0)
            return true
        }
        return false
    }

    /// Sends `successor` of the node at `height - 1` through the runtime: the branch's value for
    /// each valued key it adds, a unique token for each presence key; `true` when accepted.
    func send(_ successor: FlowModel.Successor, height: Int) -> Bool {
        let sender = self.sender, event = successor.event, values = successor.effectValues
        return driver.send(event) { sender.value($0, event: event, values: values, height: height) }
    }

    /// Pushes the model's child for successor `i` of the top node (expected tokens included).
    mutating func pushModel(_ i: Int) {
        let top = nodes.count - 1
        let successor = buffers[top][i]
        guard case let .push(target, keys, values) = successor.outcome else { return }
        let height = nodes.count + 1
        let logStart = log.count
        var added = model.emissions[Int(nodes[top].state)][successor.emission].addKeys
        while added != 0 {
            let k = added.trailingZeroBitCount
            added &= added - 1
            log.append(ExpectedChange(key: Int32(k), previous: expected[k]))
            expected[k] = RuntimeExplorer.token(height: height, event: successor.event, key: KeyID(Int32(k)))
        }
        nodes.append(Node(state: target.rawValue, keys: keys, values: values, next: 0, event: successor.event.rawValue, via: Int32(i), logStart: logStart))
        nodes[nodes.count - 1].data = dataBits(nodes[nodes.count - 1])
        fill(nodes.count - 1)
    }

    mutating func push(_ i: Int) {
        let top = nodes.count - 1
        let parentState = nodes[top].state
        let successor = buffers[top][i]
        let accepted = send(successor, height: nodes.count + 1)
        pushModel(i)
        stacks += 1
        if !accepted {
            let subject = self.subject, event = successor.event, target = nodes[nodes.count - 1].state
            report(.divergence, state: parentState, event: event.rawValue) { model in
                "\(subject) rejected \(model.events[event.index]) from \(model.states[Int(parentState)]), which the spec sends to \(model.states[Int(target)])"
            }
            dropTop()
            resync()
            return
        }
        checkNode()
    }

    /// Removes the top node from the model and restores the expected tokens below it.
    mutating func dropTop() {
        let child = nodes.removeLast()
        while log.count > child.logStart {
            let change = log.removeLast()
            expected[Int(change.key)] = change.previous
        }
    }

    /// Undoes the top frame in the runtime and the model, and checks the runtime is exactly back.
    mutating func pop() {
        let child = nodes[nodes.count - 1]
        dropTop()
        guard let parent = nodes.last else { return }
        let accepted = driver.undo()
        if !accepted || !matches(parent) {
            nodes.append(child)
            let found = accepted ? mismatch(parent) : nil
            let subject = self.subject
            let problem = found?.summary(subject: subject) ?? "\(subject) refused the undo"
            report(.undoMismatch, state: child.state, event: child.event, trigger: .undo, mismatch: found) { model in
                "after undoing \(model.events[Int(child.event)]) from \(model.states[Int(child.state)]), \(problem)"
            }
            nodes.removeLast()
            resync()
        }
    }

    /// The keys the runtime must hold as data in `node`: present keys but config, and counters above 0.
    func dataBits(_ node: Node) -> UInt64 {
        if node.data != ~0 { return node.data }
        var bits = node.keys & ~configBits
        var rest = counterBits
        while rest != 0 {
            let k = rest.trailingZeroBitCount
            rest &= rest - 1
            if node.values & sender.layout.mask(k) != 0 { bits |= 1 << UInt64(k) }
        }
        return bits
    }

    /// The value the runtime must hold for `key` in `node`.
    func expectedValue(_ key: KeyID, in node: Node) -> FlowValue {
        let k = key.index
        let layout = model.layout
        if layout.isCounter(k) { return .int(layout.field(k, in: node.values)) }
        if layout.isValued(k) { return .string(layout.domains[k][layout.field(k, in: node.values)]) }
        return .int(expected[k])
    }

    /// Whether the runtime is exactly at `node`'s frame.
    func matches(_ node: Node) -> Bool {
        let bits = dataBits(node)
        if driver.state.rawValue != node.state || (readsInternals && driver.height != nodes.count) || driver.dataCount != bits.nonzeroBitCount {
            return false
        }
        return matchesData(node, bits: bits)
    }

    func mismatch(_ node: Node) -> FrameMismatch? {
        FrameComparator(model: model).compare(driver, state: node.state, height: readsInternals ? nodes.count : nil, keys: dataBits(node),
                                              expected: { expectedValue($0, in: node) }, display: RuntimeExplorer.display)
    }

    /// Checks the node just entered: its frame, what the step offers and refuses, resets, the back policy.
    mutating func checkNode() {
        let top = nodes.count - 1
        let node = nodes[top]
        let state = Int(node.state)
        let subject = self.subject
        if !matches(node) {
            let found = mismatch(node)
            let problem = found?.summary(subject: subject) ?? "\(subject) changed while it was compared"
            report(.divergence, state: node.state, event: node.event, mismatch: found) { model in
                node.event < 0 ? "at the start, \(problem)" : "after \(model.events[Int(node.event)]), \(problem)"
            }
            if nodes.count > 1 { dropTop() }
            resync()
            return
        }
        let successors = buffers[top]
        let count = successors.count
        let events = emissionEvents[state]
        var first = 0   // the first successor of the emission at hand: successors come in emission order
        for index in events.indices {
            let event = events[index]
            var last = first
            var enabled = false, refusedBranch = false, resets = false
            while last < count && successors[last].emission == index {
                switch successors[last].outcome {
                case .push: enabled = true
                case .reset: enabled = true; resets = true
                case .illegal: refusedBranch = true
                }
                last += 1
            }
            let range = first..<last
            first = last
            if readsInternals && driver.canHandle(event) != enabled {
                report(.divergence, state: node.state, event: event.rawValue) { model in
                    "the runtime says \(model.events[event.index]) is \(enabled ? "not " : "")enabled in \(model.states[state]); the spec says it is \(enabled ? "" : "not ")"
                }
                continue
            }
            // An event the step does not offer now (sent with each valued key's first value), and each
            // branch no row takes, must be refused without change.
            if range.isEmpty || refusedBranch {
                let height = nodes.count + 1
                for i in range.isEmpty ? 0..<1 : range where range.isEmpty || successors[i].outcome == .illegal {
                    let accepted = range.isEmpty ? send(event, values: 0, height: height) : send(successors[i], height: height)
                    if accepted {
                        let offered = !range.isEmpty
                        report(.divergence, state: node.state, event: event.rawValue, trigger: .event(event.rawValue)) { model in
                            offered ? "\(subject) accepted \(model.events[event.index]) in \(model.states[state]) with values no row takes"
                                : "\(subject) accepted \(model.events[event.index]) in \(model.states[state]), where the step does not offer it"
                        }
                        resync()
                        return
                    }
                    if !matches(node) {
                        let found = mismatch(node)
                        let problem = found?.summary(subject: subject) ?? "\(subject) changed while it was compared"
                        report(.undoMismatch, state: node.state, event: event.rawValue, trigger: .event(event.rawValue), mismatch: found) { model in
                            "rejecting \(model.events[event.index]) changed \(subject): \(problem)"
                        }
                        resync()
                        return
                    }
                }
            }
            // A reset must land on the variant's root with nothing to undo: driven once per configuration.
            guard resets, resetProbed.insert(Configuration(state: node.state, keys: node.keys, values: node.values)).inserted else { continue }
            for i in range where successors[i].outcome == .reset {
                guard send(successors[i], height: nodes.count + 1) else {
                    report(.divergence, state: node.state, event: event.rawValue, trigger: .event(event.rawValue)) { model in
                        "\(subject) rejected \(model.events[event.index]) from \(model.states[state]), which the spec resets to \(model.states[model.initial.index])"
                    }
                    resync()
                    return
                }
                let root = model.roots[variant]
                let rootNode = Node(state: model.initial.rawValue, keys: root.keys, values: root.values, next: 0, event: -1, via: -1, logStart: 0)
                let atRoot = driver.state == model.initial && (!readsInternals || driver.height == 1) && driver.dataCount == dataBits(rootNode).nonzeroBitCount
                    && matchesData(rootNode)
                if !atRoot {
                    let found = FrameComparator(model: model).compare(driver, state: rootNode.state, height: readsInternals ? 1 : nil, keys: dataBits(rootNode),
                                                                      expected: { expectedValue($0, in: rootNode) }, display: RuntimeExplorer.display)
                    let problem = found?.summary(subject: subject) ?? "\(subject) did not start again"
                    report(.divergence, state: node.state, event: event.rawValue, trigger: .event(event.rawValue), mismatch: found) { model in
                        "after \(model.events[event.index]), which starts the flow again, \(problem)"
                    }
                }
                resync()
            }
        }
        let backAllowed = nodes.count > 1 && model.canGoBack[state] && !model.isTerminal[state]
        if readsInternals && driver.canGoBack != backAllowed {
            report(.divergence, state: node.state, event: -1) { model in
                "the runtime says back is \(backAllowed ? "not " : "")possible in \(model.states[state]); the spec says it is \(backAllowed ? "" : "not")"
            }
        } else if !backAllowed && nodes.count > 1 {
            if driver.back() {
                report(.divergence, state: node.state, event: -1, trigger: .forbiddenBack) { model in
                    "\(subject) let the user go back from \(model.states[state]), which the spec forbids"
                }
                resync()
            } else if !matches(node) {
                let found = mismatch(node)
                let problem = found?.summary(subject: subject) ?? "\(subject) changed while it was compared"
                report(.undoMismatch, state: node.state, event: -1, trigger: .forbiddenBack, mismatch: found) { _ in
                    "a refused back changed \(subject): \(problem)"
                }
                resync()
            }
        }
    }

    /// Whether the runtime's data values equal `node`'s (the count is compared by the caller), without building the values.
    func matchesData(_ node: Node, bits: UInt64? = nil) -> Bool {
        let layout = sender.layout
        var rest = bits ?? dataBits(node)
        while rest != 0 {
            let k = rest.trailingZeroBitCount
            rest &= rest - 1
            let bit: UInt64 = 1 << UInt64(k)
            switch driver.value(of: KeyID(Int32(k))) {
            case let .int(number)?:
                if counterBits & bit != 0 {
                    if number != layout.field(k, in: node.values) { return false }
                } else if valuedBits & bit != 0 || number != expected[k] {
                    return false
                }
            case let .string(text)?:
                guard valuedBits & bit != 0, text == layout.domains[k][layout.field(k, in: node.values)] else { return false }
            default:
                return false
            }
        }
        return true
    }

    /// Sends `event` with `values` for its valued keys (a refused event has no successor to take them from).
    func send(_ event: EventID, values: UInt64, height: Int) -> Bool {
        let sender = self.sender
        return driver.send(event) { sender.value($0, event: event, values: values, height: height) }
    }

    /// Puts the runtime back in step with the model: start the variant again and replay the path.
    mutating func resync() {
        _ = start(variant)
        for i in nodes.indices.dropFirst() {
            _ = send(buffers[i - 1][Int(nodes[i].via)], height: i + 1)
        }
    }

    /// Records a violation at a site, keeping the shortest (then first in variant and move order) occurrence.
    mutating func report(_ property: Property, state: Int32, event: Int32, trigger: WalkTrigger? = nil,
                         mismatch: FrameMismatch? = nil, _ message: (FlowModel) -> String) {
        let site = Site(property: property, state: model.states[Int(state)], event: event < 0 ? nil : model.events[Int(event)])
        var order = [Int32(nodes.count - 1 + (trigger == nil ? 0 : 1)), Int32(variant)]
        for node in nodes.dropFirst() { order.append(node.via) }
        if let existing = sites[site], !order.lexicographicallyPrecedes(existing.order) { return }
        func step(_ event: String?, at i: Int) -> PathStep {
            let node = nodes[i]
            // Counters are always defined: the data shows them with the present keys (config is the variant's).
            let values = shownValues(at: i)
            return PathStep(event: event, state: model.states[Int(node.state)],
                            data: model.keys.indices.filter { values[model.keys[$0]] != nil && configBits & (1 << UInt64($0)) == 0 }.map { model.keys[$0] }.sorted(),
                            values: values)
        }
        var path = nodes.indices.map { i in step(nodes[i].event < 0 ? nil : model.events[Int(nodes[i].event)], at: i) }
        switch trigger {
        case .undo?:
            let userBack = model.canGoBack[Int(nodes[nodes.count - 1].state)] && !model.isTerminal[Int(nodes[nodes.count - 1].state)]
            path.append(step(userBack ? "back" : "undo", at: nodes.count - 2))
        case .forbiddenBack?: path.append(step("back", at: nodes.count - 1))
        case let .event(sent)?: path.append(step(model.events[Int(sent)], at: nodes.count - 1))
        case nil: break
        }
        var text = message(model)
        if model.roots.count > 1 { text += " (variant \(model.variantNames[variant]))" }
        sites[site] = FoundViolation(order: order, violation: Violation(
            property: property, state: model.states[Int(state)], event: event < 0 ? nil : model.events[Int(event)],
            message: text, path: path, mismatch: mismatch, variant: model.format >= 2 ? model.variants[variant] : nil))
    }

    /// The values the model expects in `node`, as a report shows them: tokens `#N`, domain values, counts, config; secrets redacted.
    func shownValues(at i: Int) -> [String: String] {
        let node = nodes[i]
        var result: [String: String] = [:]
        for k in 0..<model.keys.count {
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
            let successor = buffers[j - 1][Int(nodes[j].via)]
            if model.emissions[Int(nodes[j - 1].state)][successor.emission].addKeys & (1 << UInt64(k)) != 0 {
                return RuntimeExplorer.token(height: j + 1, event: successor.event, key: KeyID(Int32(k)))
            }
        }
        return nil
    }
}
