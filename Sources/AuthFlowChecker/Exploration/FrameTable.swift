import AuthFlow

/// The moves of every configuration a ``Walk`` meets, computed once by the one semantics and
/// kept in flat arrays, so the model's side of a node costs a few array reads.
///
/// A flow has few configurations `(state, keys, values)` and very many stacks over them (a `/1`
/// flow's configurations are its states with the key sets that reach them). The first time the walk meets a configuration it gets a dense id; the
/// first time a node stands on it, ``expand(_:of:)`` asks ``FlowModel/successors(state:keys:values:into:)``
/// for its moves and stores each with the id of the configuration it pushes, whether an earlier
/// sibling pushes the same one, and the checks the walk makes there (per emission: enabled or not,
/// branches no row takes, resets). A child then needs no look-up at all: its node carries the id.
///
/// Nothing of the runtime is kept: the walk still drives and compares the runtime at every node.
///
/// The table holds at most ``capacity`` configurations and ``moveCapacity`` moves: when the next
/// expansion might not fit, the walk empties it (``removeAll()``) and interns its stack again, so
/// memory stays proportional to the depth whatever the number of configurations.
///
/// - Complexity: ``expand(_:of:)`` is O(m · b) for m emissions and b branches each; reading a move is O(1).
struct FrameTable {
    /// What the walk knows of a configuration without asking the model again.
    ///
    /// One bit set per configuration, computed in ``expand(_:of:)``. Per-configuration facts that a
    /// check reads at every node (say, one bit per user property the frame violates) belong here:
    /// add the bit, set it in ``FrameTable/facts(of:resets:)``, read it in ``Walk/checkNode()``.
    struct Facts: OptionSet {
        var rawValue: UInt64
        /// The spec lets the user go back from this state (above the root): it is not terminal and its step allows back.
        static let backAllowed = Facts(rawValue: 1 << 0)
        /// Some move of the configuration starts the flow again.
        static let resets = Facts(rawValue: 1 << 1)
        /// The walk has driven its resets, at the one stack ``ResetStacks`` fixes for it.
        static let resetsDriven = Facts(rawValue: 1 << 2)
        /// The spec's own rules this configuration breaks are known: ``Entry/ruleStart``..``Entry/ruleEnd`` in ``brokenRules``.
        static let rulesDecided = Facts(rawValue: 1 << 3)
        /// Some move updates the screen in place and leaves the configuration as it was (``Move/stays``).
        static let stays = Facts(rawValue: 1 << 4)
    }

    /// One configuration.
    struct Entry {
        var state: Int32
        /// Its moves are `moves[moveStart ..< moveEnd]` and its checks `checks[checkStart ..< checkEnd]`; `moveStart` is -1 until expanded.
        var moveStart: Int32 = -1
        var moveEnd: Int32 = -1
        var checkStart: Int32 = 0
        var checkEnd: Int32 = 0
        var keys: UInt64
        var values: UInt64
        /// The keys the runtime must hold as data: present keys but config, and counters above 0.
        let data: UInt64
        /// How many keys ``data`` holds, counted once here: the frame comparison after every push and every undo
        /// compares it with the runtime's count (counting the bits there cost about 20 instructions a comparison).
        let dataCount: Int32
        var facts: Facts = []
        /// Once ``Facts/rulesDecided``: the rules it breaks are `brokenRules[ruleStart ..< ruleEnd]`.
        var ruleStart: Int32 = 0
        var ruleEnd: Int32 = 0
        /// The stack height at which the walk probed it (``Walk/firstProbe(_:_:)``); 0 until then.
        var probedAt: Int32 = 0

        var configuration: Configuration { Configuration(state: state, keys: keys, values: values) }

        init(state: Int32, keys: UInt64, values: UInt64, data: UInt64) {
            self.state = state
            self.keys = keys
            self.values = values
            self.data = data
            self.dataCount = Int32(data.nonzeroBitCount)
        }
    }

    /// One move of a configuration, in the semantics' order (its index from the entry's `moveStart` is its ordinal).
    struct Move {
        // The words first, then the ids, then the flags: 40 bytes a move, not 48 (a walk's table holds about 260,000).
        /// The presence keys its emission adds (each is sent a fresh token).
        var adds: UInt64
        /// The data's values after the emission's effects: the branch's value of each valued key sent.
        var values: UInt64
        /// The presence keys the fired row's own effects or its target's entry add and the step did not send:
        /// the runtime holds ``FrameTable/presentText`` for each.
        var effectAdds: UInt64 = 0
        /// The event sent.
        var event: Int32
        /// The configuration it pushes (an id), or ``FrameTable/illegal`` or ``FrameTable/reset``.
        var target: Int32
        /// A reset: the configuration the new run starts at (the variant's root, or the one its row's keeps make); else -1.
        var landing: Int32 = -1
        /// Whether it pushes a frame no earlier sibling pushes: the walk takes exactly these (siblings that push the same frame are one stack).
        var walked: Bool
        /// Section 5: it updates the screen in place (`"history": "replace"`), so the user's back takes it off with the frame below.
        var replaces = false
        /// An in-place update that leaves the configuration as it was (a screen that reloads itself, say): the history is
        /// the one it starts from, so the walk does not take it; it drives it, checks it and undoes it where it probes the
        /// configuration (``Walk/driveStayingUpdates()``), and walks nothing above it (every stack above it is a stack
        /// above its source, walked there).
        var stays = false
    }

    /// What the walk checks for one emission of a configuration's step.
    struct Check {
        var event: Int32
        /// The emission's moves are `moves[first ..< end]` (none when the step does not offer it now).
        var first: Int32
        var end: Int32
        /// Some branch pushes a frame or resets: the runtime must say it can handle the event.
        var enabled: Bool
        /// Some branch has no row that holds: the runtime must refuse it without change.
        var refused: Bool
        /// Some branch resets.
        var resets: Bool
        /// Why a refused event is refused, as a finding words it.
        var refusal: Refusal
    }

    /// Why the spec refuses an event in a configuration.
    enum Refusal {
        /// The step emits the event with no row, or does not emit it at all (an app is sent every event).
        case noTransition
        /// The step emits it, but its `when` does not hold now.
        case notOffered
        /// Some branch (the values the system chose) has no row whose guard holds.
        case noRowTakes
    }

    static let illegal: Int32 = -1
    static let reset: Int32 = -2
    /// The expected token of a presence key an effect added (no step sent it): the runtime holds ``presentText``.
    static let addedByEffect = -2
    static let presentText = "present"

    private(set) var entries: [Entry] = []
    private(set) var moves: [Move] = []
    private(set) var checks: [Check] = []
    /// The indices (in ``RuleCheck``) of the rules each decided configuration breaks, one configuration after another.
    private(set) var brokenRules: [Int32] = []
    private var index = ConfigurationIndex()
    /// The buffer the semantics fills, reused.
    private var successors: [FlowModel.Successor] = []
    /// Per state: the event of each emission, in declaration order.
    private let emissionEvents: [[EventID]]
    /// Per state: whether each emission has rows at all (an emission with none is refused as having no transition).
    private let emissionHasRows: [[Bool]]
    /// Per state: the presence keys each emission adds.
    private let emissionAdds: [[UInt64]]
    /// Per row (by its index in the model's rows): the presence keys its own effects and its target's entry add (0 without effects).
    private let rowEffectAdds: [UInt64]
    /// The flow whose moves the table keeps: held here, so an expansion reads it in place (passing it in, read out of
    /// the walk's reference to it, copied the whole model, about 2,500 instructions, at every expansion).
    private let model: FlowModel
    /// Per state: the events its step does not emit, probed when the implementation is an app (``DriverTraits/probesEveryEvent``).
    private let unemitted: [[Int32]]
    /// Bits of config keys (not data); per counter, its bit and the mask of its field (data when above 0).
    private let configBits: UInt64
    private let counterMasks: [(bit: UInt64, mask: UInt64)]
    /// Per state: whether the spec lets the user go back from it (not terminal, its step allows back).
    private let backAllowed: [Bool]
    /// Whether the flow has section 5's history keys (server-side keys, screens updated in place): the user's back is then
    /// not the walk's undo, and an app's back is checked on its own (``Walk/checkAppBack(_:takes:)``).
    let section5History: Bool
    /// The most moves one configuration has.
    let maximumMoves: Int
    /// The most configurations and moves held before the walk empties the table.
    let capacity: Int
    let moveCapacity: Int
    /// How many times the table was emptied.
    private(set) var emptied = 0

    /// The configurations a table holds by default before it is emptied, and the moves per configuration.
    ///
    /// Real sign-in flows have hundreds to a hundred thousand configurations (Element X's has 5,211, Home
    /// Assistant's 204, Amplify's authenticator 121,824), each with a handful of moves, and a walk meets those
    /// of one region of the flow at a time. About 300 bytes a configuration (its entry, its moves, its
    /// checks, its index), so under 3 MB for 8,192 configurations with 8 moves each; only what a flow meets
    /// is allocated. Measured on Amplify at depths 9 and 10 (release, one worker): 8,192 walks as fast as
    /// 32,768 (1.48 s against 1.47 s, 6.46 s against 6.79 s) and peaks 13 MB lower per worker, though
    /// the table is emptied and refilled there.
    static let defaultCapacity = 1 << 13
    static let movesPerConfiguration = 8

    /// A table for `model` walked to `depth`, holding at most about `capacity` configurations (by
    /// default ``defaultCapacity``, raised to what one stack of that depth needs, so that emptying
    /// the table always makes room). A smaller explicit capacity is taken as it is: the walk then
    /// empties the table at almost every step, which is slow but changes nothing it finds.
    init(model: FlowModel, depth: Int, capacity: Int? = nil, probesEveryEvent: Bool = false) {
        let layout = model.layout
        emissionEvents = model.emissions.map { $0.map(\.event) }
        emissionHasRows = model.emissions.map { $0.map { !$0.rows.isEmpty } }
        emissionAdds = model.emissions.map { $0.map(\.addKeys) }
        let rows = model.emissions.joined().flatMap(\.rows)
        var rowEffectAdds = [UInt64](repeating: 0, count: (rows.map(\.row).max() ?? -1) + 1)
        for row in rows where row.hasEffects { rowEffectAdds[row.row] = row.effects.addKeys | row.entry.addKeys }
        self.rowEffectAdds = rowEffectAdds
        self.model = model
        unemitted = model.emissions.map { emissions in
            guard probesEveryEvent else { return [] }
            let emitted = Set(emissions.map(\.event.rawValue))
            return (0..<Int32(model.events.count)).filter { !emitted.contains($0) }
        }
        configBits = layout.configKeys
        counterMasks = (0..<model.keys.count).filter { layout.isCounter($0) }.map { (1 << UInt64($0), layout.mask($0)) }
        backAllowed = (0..<model.stateCount).map { model.canGoBack[$0] && !model.isTerminal[$0] }
        section5History = model.usesSection5History
        maximumMoves = model.emissions.map { $0.reduce(0) { $0 + $1.branchCount(layout) } }.max() ?? 0
        // A stack of `depth` nodes, expanded, and one more expansion must fit after emptying.
        let floor = 2 * (depth + 3) * (maximumMoves + 1)
        let configurations = capacity ?? max(Self.defaultCapacity, floor)
        self.capacity = configurations
        self.moveCapacity = capacity ?? max(Self.movesPerConfiguration * configurations, floor)
    }

    /// Whether the next expansion might not fit: then the walk empties the table first.
    @inline(__always) var isFull: Bool {
        entries.count + maximumMoves >= capacity || moves.count + maximumMoves >= moveCapacity
    }

    /// Forgets every configuration (ids are given again from 0).
    mutating func removeAll() {
        emptied += 1
        entries.removeAll(keepingCapacity: true)
        moves.removeAll(keepingCapacity: true)
        checks.removeAll(keepingCapacity: true)
        brokenRules.removeAll(keepingCapacity: true)
        index.removeAll()
    }

    /// The id of `configuration`, given now if it has none.
    mutating func intern(_ configuration: Configuration) -> Int32 {
        if let id = index[configuration] { return id }
        let id = index.append(configuration)
        entries.append(Entry(state: configuration.state, keys: configuration.keys, values: configuration.values,
                             data: dataBits(keys: configuration.keys, values: configuration.values)))
        return id
    }

    /// The keys the runtime must hold as data in the frame `(keys, values)`: present keys but config, and counters above 0.
    func dataBits(keys: UInt64, values: UInt64) -> UInt64 {
        var bits = keys & ~configBits
        for counter in counterMasks where values & counter.mask != 0 { bits |= counter.bit }
        return bits
    }

    /// What the walk knows of configuration `entry` with its checks computed (the mutable bits left as they are).
    func facts(of entry: Entry, resets: Bool) -> Facts {
        var facts = entry.facts
        if backAllowed[Int(entry.state)] { facts.insert(.backAllowed) }
        if resets { facts.insert(.resets) }
        return facts
    }

    /// Computes the moves and checks of configuration `id`, once (a no-op when it has them).
    mutating func expand(_ id: Int32) {
        let c = Int(id)
        guard entries[c].moveStart < 0 else { return }
        let state = Int(entries[c].state)
        model.successors(state: state, keys: entries[c].keys, values: entries[c].values, into: &successors)
        let moveStart = moves.count
        let checkStart = checks.count
        let events = emissionEvents[state]
        let adding = emissionAdds[state]
        var first = 0   // successors come in emission order
        var anyReset = false, anyStays = false
        for emission in events.indices {
            var last = first
            var check = Check(event: events[emission].rawValue, first: Int32(moveStart + first), end: 0, enabled: false, refused: false,
                              resets: false, refusal: !emissionHasRows[state][emission] ? .noTransition : .noRowTakes)
            while last < successors.count && successors[last].emission == emission {
                let successor = successors[last]
                let adds = adding[emission]
                var move = Move(adds: adds, values: successor.effectValues, event: successor.event.rawValue, target: Self.illegal, walked: false)
                switch successor.outcome {
                case let .push(target, keys, values), let .replace(target, keys, values):
                    // A replace is a frame of its own for the walk (the runtime's undo takes it off alone), as for the runtime.
                    check.enabled = true
                    move.target = intern(Configuration(state: target.rawValue, keys: keys, values: values))
                    if successor.row >= 0 { move.effectAdds = rowEffectAdds[successor.row] & ~adds & keys }
                    if case .replace = successor.outcome {
                        move.replaces = true
                        move.stays = move.target == id
                        anyStays = anyStays || move.stays
                    }
                    // A push and an in-place update to the same configuration build different histories (section 5).
                    let earlier = moves[moveStart...].contains { $0.target == move.target && $0.replaces == move.replaces }
                    move.walked = !earlier && !move.stays
                case let .reset(keys, values):
                    check.enabled = true
                    check.resets = true
                    move.target = Self.reset
                    move.landing = intern(Configuration(state: model.initial.rawValue, keys: keys, values: values))
                case .illegal:
                    check.refused = true
                }
                moves.append(move)
                last += 1
            }
            check.end = Int32(moveStart + last)
            if check.first == check.end && check.refusal == .noRowTakes { check.refusal = .notOffered }
            anyReset = anyReset || check.resets
            checks.append(check)
            first = last
        }
        for event in unemitted[state] {
            checks.append(Check(event: event, first: Int32(moves.count), end: Int32(moves.count), enabled: false, refused: false,
                                resets: false, refusal: .noTransition))
        }
        entries[c].moveStart = Int32(moveStart)
        entries[c].moveEnd = Int32(moves.count)
        entries[c].checkStart = Int32(checkStart)
        entries[c].checkEnd = Int32(checks.count)
        entries[c].facts = facts(of: entries[c], resets: anyReset)
        if anyStays { entries[c].facts.insert(.stays) }
    }

    /// Records the rules configuration `id` breaks: its frame is the spec's, so every stack that reaches it breaks the same ones.
    mutating func decideRules(_ id: Int32, broken: some Sequence<Int32>) {
        let c = Int(id)
        entries[c].ruleStart = Int32(brokenRules.count)
        brokenRules.append(contentsOf: broken)
        entries[c].ruleEnd = Int32(brokenRules.count)
        entries[c].facts.insert(.rulesDecided)
    }

    /// The events the step of `state` does not emit, when the table probes every event (an app's); else none.
    func unemittedEvents(_ state: Int) -> [Int32] { unemitted[state] }

    /// Records that configuration `id` was probed at stack height `height`.
    mutating func markProbed(_ id: Int32, height: Int) {
        entries[Int(id)].probedAt = Int32(height)
    }

    /// Records that configuration `id`'s resets were driven.
    mutating func markResetsDriven(_ id: Int32) {
        entries[Int(id)].facts.insert(.resetsDriven)
    }
}
