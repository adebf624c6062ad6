import AuthFlow
import Foundation

/// The text of one Promela model: declarations, the roots, one option per move, back or the terminal wait.
///
/// See ``PromelaExporter`` for what the model is; this type only writes it.
struct PromelaWriter {
    let model: FlowModel
    /// The stack bound, or `nil` for the configurations model.
    let depth: Int?
    let layout: PromelaExporter.Layout
    /// Per state: whether it is terminal and declares a way out that is not a reset (the checker's own rule).
    let terminalExit: [Bool]
    /// The keys that hold a field: valued keys and counters, in id order.
    let valueKeys: [Int]
    /// The property markers the assertions name, in the order they were first used.
    private(set) var markers: [String] = []
    /// The checks of each state on each frame, written once: every push into a state repeats them.
    private var checksWritten: [String: [String]] = [:]

    /// When writing gives up: a model of a hundred thousand states takes seconds.
    let deadline: Deadline

    init(model: FlowModel, space: PromelaExporter.Space, deadline: Deadline) {
        self.model = model
        self.deadline = deadline
        switch space {
        case .configurations: depth = nil
        case let .stacks(depth): self.depth = max(0, depth)
        }
        layout = PromelaExporter.Layout(model: model, depth: depth ?? 0)
        let rules = SiteRules(model: model)
        terminalExit = (0..<model.stateCount).map { model.isTerminal[$0] && rules.terminalExit($0) != nil }
        valueKeys = model.layout.kinds.indices.filter { model.layout.width[$0] > 0 }
    }

    /// Where a frame's variables are: one global frame, or slot `slot` of the stack arrays.
    struct Frame {
        var slot: String?
        var state: String { slot.map { "st[\($0)]" } ?? "st" }
        func word(_ w: Int) -> String { slot.map { "kd\(w)[\($0)]" } ?? "kd\(w)" }
        func field(_ k: Int) -> String { slot.map { "v\(k)[\($0)]" } ?? "v\(k)" }
    }

    /// The top frame, as a move's guard reads it.
    var top: Frame { Frame(slot: depth == nil ? nil : "sp") }

    // MARK: The text

    /// The model's text, or `nil` when the deadline passed first.
    mutating func text() -> String? {
        let roots = rootLines()
        guard let moves = moveLines() else { return nil }
        var out: [String] = []
        let name = PromelaExporter.comment(model.name ?? "a flow")
        if let depth {
            out.append("/* authcheck: the undo stacks of at most \(depth) forward events of \(name).")
            out.append("   One stored state per stack, plus SPIN's initial state: states stored = stacks + 1.")
            out.append("   Assertions name the property they check. Back and the depth bound always leave a way on,")
            out.append("   so a deadlock is asserted on each frame entered (deadlock), not left to pan's end states.")
            out.append(contentsOf: ruleLines())
            out.append("   Run: spin -a THIS.pml && cc -O2 -DSAFETY -o pan pan.c && ./pan -m\(depth + 10) */")
        } else {
            out.append("/* authcheck: every reachable configuration (state, data) of \(name).")
            out.append("   One stored state per configuration, plus SPIN's initial state: states stored = configurations + 1.")
            out.append("   pan reports an error of a property exactly when authcheck check reports a violation of it:")
            out.append("   illegal-transition, unmet-requirement, terminal-exit and the spec's own always and never")
            out.append("   rules as assertions named after them, deadlock as an invalid end state. no-exit and the")
            out.append("   spec's reachable rules say that some path exists, which a safety run cannot state:")
            out.append("   authcheck check decides them.")
            out.append(contentsOf: ruleLines())
            out.append("   Run: spin -a THIS.pml && cc -O2 -DSAFETY -o pan pan.c && ./pan -c0 -m1000000")
            out.append("   (raise -m if pan says the search depth is too small) */")
        }
        out.append("")
        out.append(contentsOf: declarations())
        out.append("")
        if let depth, model.emissions.contains(where: { $0.contains { $0.rows.contains(where: \.reset) } }) {
            out.append(contentsOf: restartInline(depth: depth))
            out.append("")
        }
        out.append("active proctype flow()")
        out.append("{")
        out.append(contentsOf: roots)
        if depth != nil { out.append("end:") }
        out.append("    do")
        let options = moves + (depth == nil ? terminalWait() + backJumpLines() : backLines())
        // Promela wants an option in every loop: a flow with no move at all stops at its root.
        out.append(contentsOf: options.isEmpty ? ["    :: false   /* no move and no back from any state */"] : Self.grouped(options))
        out.append("    od")
        out.append("}")
        return out.joined(separator: "\n") + "\n"
    }

    /// The most options one `do` or `if` holds: SPIN's parser keeps a list of options on its stack and
    /// runs out of it ("memory exhausted") a little under 20,000 options (19,900 compile, 20,000 do not).
    static let maxOptionsPerList = 10_000

    /// `options` as they are when there are at most ``maxOptionsPerList``, else in groups of about that
    /// many, each one option `:: if … fi` of the loop. Choosing among a nested `if`'s options is not a
    /// step of its own, so the model has the same transitions and states stored either way.
    static func grouped(_ options: [String], limit: Int = maxOptionsPerList) -> [String] {
        let total = options.count { $0.hasPrefix("    :: ") }
        guard total > limit else { return options }
        var groups: [[String]] = [[]]
        var inGroup = 0
        for line in options {
            // A group ends before the comment that opens the next option once it holds `limit` options.
            if line.hasPrefix("    /*"), inGroup >= limit {
                groups.append([])
                inGroup = 0
            }
            if line.hasPrefix("    :: ") { inGroup += 1 }
            groups[groups.count - 1].append(line)
        }
        var out: [String] = []
        var first = 1
        for group in groups {
            let count = group.count { $0.hasPrefix("    :: ") }
            out.append("    :: if   /* options \(first)-\(first + count - 1) of \(total): SPIN parses at most about 20,000 in one list */")
            out += group.map { "    " + $0 }
            out.append("       fi")
            first += count
        }
        return out
    }

    /// The header's table of the spec's own rules: the assertion each `always` or `never` rule is checked by,
    /// and the `reachable` rules the model leaves to authcheck.
    private func ruleLines() -> [String] {
        guard !model.properties.isEmpty else { return [] }
        var out = ["   The spec's own rules, as pan names them:"]
        for (index, rule) in model.properties.enumerated() {
            let id = PromelaExporter.comment(rule.id)
            if rule.kind == .reachable {
                out.append("     \(id): reachable, not in the model")
            } else {
                let marker = PromelaExporter.marker(Property(rule: rule, index: index))
                out.append("     \(marker) is \(id) (\(rule.kind.rawValue) \(PromelaExporter.comment(rule.text)))")
            }
        }
        return out
    }

    private func declarations() -> [String] {
        var out: [String] = []
        let array = depth == nil ? "" : "[DEPTH + 1]"
        if let depth {
            out.append("#define DEPTH \(depth)")
            out.append("")
            out.append("\(layout.stateType) st\(array);   /* the state of each frame; slots above sp are 0 */")
        } else {
            out.append("\(layout.stateType) st;   /* the state */")
        }
        for word in 0..<layout.words {
            let first = word * layout.bitsPerWord
            let last = min(model.keys.count, first + layout.bitsPerWord) - 1
            let range = last >= first ? "keys \(first)-\(last)" : "no keys"
            let whose = depth == nil ? "the data keys present" : "the data keys of each frame"
            out.append("\(layout.wordType) kd\(word)\(array);   /* \(whose) as a bit set (\(range)) */")
        }
        for k in valueKeys {
            let name = PromelaExporter.comment(model.keys[k])
            switch model.layout.kinds[k] {
            case .valued:
                let values = model.layout.domains[k].enumerated().map { "\($0.offset) \(PromelaExporter.comment($0.element))" }
                let config = model.layout.isConfig[k] ? "config " : ""
                out.append("byte v\(k)\(array);   /* \(config)\(name): the index of its value (\(values.joined(separator: ", "))), 0 when absent */")
            case let .counter(max):
                out.append("byte v\(k)\(array);   /* \(name): a counter, 0...\(max) */")
            case .presence:
                break
            }
        }
        if let depth { out.append("\(PromelaExporter.Layout.type(holding: depth)) sp;              /* the index of the top frame */") }
        if !markers.isEmpty {
            out.append("hidden byte \(markers.joined(separator: ", "));   /* always 0: a failed assertion names its property */")
        }
        out.append("")
        if !model.keys.isEmpty {
            out.append("/* data keys: \(model.keys.enumerated().map { "\($0.offset) \(PromelaExporter.comment($0.element))" }.joined(separator: ", ")) */")
        }
        out.append("/* states: \(model.states.enumerated().map { "\($0.offset) \(PromelaExporter.comment($0.element))" }.joined(separator: ", ")) */")
        return out
    }

    // MARK: Roots

    /// The root frame, or one nondeterministic choice of root per variant, each checked as it is entered.
    private mutating func rootLines() -> [String] {
        let frame = Frame(slot: depth == nil ? nil : "0")
        var options: [(body: String, comment: String)] = []
        for (root, variant) in zip(model.roots, model.variants) {
            var body = ["\(frame.state) = \(model.initial.index)"]
            for word in 0..<layout.words {
                let bits = layout.word(word, of: KeySet(bits: root.keys))
                if bits != 0 { body.append("\(frame.word(word)) = \(bits)") }
            }
            for k in valueKeys {
                let value = model.layout.field(k, in: root.values)
                if value != 0 { body.append("\(frame.field(k)) = \(value)") }
            }
            body += checks(entering: model.initial.index, frame: frame)
            if depth == nil, !valueKeys.isEmpty { body.append(fieldsRead()) }
            let data = variant.map { "\($0.key)=\($0.value)" }.joined(separator: ", ")
            options.append((body.joined(separator: "; "), PromelaExporter.comment(data)))
        }
        let initial = PromelaExporter.comment(model.name(of: model.initial))
        var out: [String] = []
        if depth == nil, !valueKeys.isEmpty {
            out.append("    /* the root reads every field once: SPIN leaves a variable nothing reads out of the state vector,")
            out.append("       and a value no guard reads still tells two configurations apart */")
        }
        if options.count == 1 {
            return out + ["    d_step { \(options[0].body) }   /* the root frame: (\(initial), {\(options[0].comment)}) */"]
        }
        out.append("    if   /* one root per variant, in variant order: the flow is checked in every one */")
        for option in options { out.append("    :: d_step { \(option.body) }   /* (\(initial), {\(option.comment)}) */") }
        out.append("    fi;")
        return out
    }

    /// An assertion that reads every field: each holds a value of its domain (it cannot fail; SPIN keeps what is read).
    private func fieldsRead() -> String {
        let bounds = valueKeys.map { k -> String in
            if case let .valued(count) = model.layout.kinds[k] { return "v\(k) < \(count)" }
            return "v\(k) <= \(Self.counterMax(model.layout.kinds[k]))"
        }
        return "assert(\(bounds.joined(separator: " && ")))"
    }

    // MARK: Moves

    /// One option per emission and branch of its effects that some row can take, in the semantics' order.
    private mutating func moveLines() -> [String]? {
        var out: [String] = []
        let mlayout = model.layout
        for state in 0..<model.stateCount {
            if state & 255 == 255, deadline.hasPassed { return nil }
            for emission in model.emissions[state] {
                let offered = condition(emission.when, state: state, data: PromelaData(), frame: top)
                if offered == .false { continue }
                for branch in 0..<emission.branchCount(mlayout) {
                    let data = PromelaData().applying(emission, branch: branch, layout: mlayout)
                    // The rows that can fire, in order, up to the first that always holds.
                    var firing: [(guard: PromelaExpression, row: FlowModel.GuardedRow)] = []
                    for row in emission.rows {
                        let holds = condition(row.when, state: state, data: data, frame: top)
                        if holds == .false { continue }
                        firing.append((holds, row))
                        if holds == .true { break }
                    }
                    guard !firing.isEmpty else { continue }   // illegal, or never taken: the entry check reports it
                    var guards: [PromelaExpression] = [stateIs(state, frame: top), offered, .any(of: firing.map(\.guard))]
                    if depth != nil { guards.append(.test("sp < DEPTH", negated: "sp >= DEPTH")) }
                    let body = rowChain(firing[...], data: data, indent: "        ")
                    out.append("    /* \(moveComment(state: state, emission: emission, branch: branch, data: data, firing: firing.map(\.row))) */")
                    let guardText = PromelaExpression.all(of: guards).text
                    if body.count == 1 {
                        out.append("    :: d_step { \(guardText) -> \(body[0].trimmingCharacters(in: .whitespaces)) }")
                    } else {
                        out.append("    :: d_step { \(guardText) ->")
                        out.append(contentsOf: body.dropLast())
                        out.append(body.last! + " }")
                    }
                }
            }
        }
        return out
    }

    /// The first row that holds fires: `if :: g1 -> row1 :: else -> if … fi fi`; the last needs no test (the option's guard holds).
    private mutating func rowChain(_ rows: ArraySlice<(guard: PromelaExpression, row: FlowModel.GuardedRow)>, data: PromelaData,
                                   indent: String) -> [String] {
        let first = rows.first!
        if rows.count == 1 { return [indent + rowBody(first.row, data: data).joined(separator: "; ")] }
        var out = [indent + "if"]
        out.append(indent + ":: \(first.guard.text) -> " + rowBody(first.row, data: data).joined(separator: "; "))
        let rest = rowChain(rows.dropFirst(), data: data, indent: indent + "   ")
        if rest.count == 1 {
            out.append(indent + ":: else -> " + rest[0].trimmingCharacters(in: .whitespaces))
        } else {
            out.append(indent + ":: else ->")
            out.append(contentsOf: rest)
        }
        out.append(indent + "fi")
        return out
    }

    /// What firing `row` does: push its frame (or rewrite the one frame) and check it, or go back to the variant's root.
    private mutating func rowBody(_ row: FlowModel.GuardedRow, data: PromelaData) -> [String] {
        if row.reset { return keptKeys(row) == 0 ? resetStatements() : resetStatements(keeping: row, data: data) }
        var after = data
        after.clear(keys: row.clearKeys, values: row.clearValues, layout: model.layout)
        if row.hasEffects {
            after = after.applying(row.effects, layout: model.layout).applying(row.entry, layout: model.layout)
        }
        let target = row.to.index
        if depth != nil && row.replace {
            // Section 5's `"history": "replace"`: the top frame is updated in place; back then pops to the frame below.
            let destination = Frame(slot: "sp")
            return writes(target, data: after, from: destination, to: destination) + checks(entering: target, frame: destination)
        }
        if depth != nil {
            let destination = Frame(slot: "sp")
            return ["sp++"] + writes(target, data: after, from: Frame(slot: "sp - 1"), to: destination)
                + checks(entering: target, frame: destination)
        }
        return writes(target, data: after, from: top, to: top) + checks(entering: target, frame: top)
    }

    /// The assignments that make `to` the frame `(target, data)` read from `from`.
    private func writes(_ target: Int, data: PromelaData, from: Frame, to: Frame) -> [String] {
        let copying = from.slot != to.slot
        var out = ["\(to.state) = \(target)"]
        for word in 0..<layout.words {
            var present: UInt64 = 0, absent: UInt64 = 0, used: UInt64 = 0
            for k in word * layout.bitsPerWord..<min(model.keys.count, (word + 1) * layout.bitsPerWord) {
                let bit = layout.bit(of: k).bit
                used |= bit
                if let known = data.presence[k] { if known { present |= bit } else { absent |= bit } }
            }
            guard copying || present | absent != 0 else { continue }
            let source = from.word(word)
            let kept = used & ~absent
            let value: String
            if absent == 0 {
                value = present == 0 ? source : "\(source) | \(present)"
            } else if kept == 0 {
                value = "\(present)"
            } else {
                value = present == 0 ? "\(source) & \(kept)" : "(\(source) & \(kept)) | \(present)"
            }
            out.append("\(to.word(word)) = \(value)")
        }
        for k in valueKeys {
            switch data.field(k) {
            case let .constant(value):
                out.append("\(to.field(k)) = \(value)")
            case .frame(plus: 0):
                if copying { out.append("\(to.field(k)) = \(from.field(k))") }
            case let .frame(plus):
                let max = Self.counterMax(model.layout.kinds[k])
                out.append("\(to.field(k)) = (\(from.field(k)) + \(plus) > \(max) -> \(max) : \(from.field(k)) + \(plus))")
            }
        }
        return out
    }

    /// A reset row: the stack (or the one frame) becomes the variant's root; the config keys keep their values.
    private func resetStatements() -> [String] {
        if depth != nil { return ["restart()"] }
        var out = ["st = \(model.initial.index)"]
        let config = model.layout.isConfig.enumerated().filter(\.element).map { KeyID($0.offset) }
        for word in 0..<layout.words {
            let kept = layout.word(word, of: KeySet(config))
            out.append(kept == 0 ? "kd\(word) = 0" : "kd\(word) = kd\(word) & \(kept)")
        }
        for k in valueKeys where !model.layout.isConfig[k] { out.append("v\(k) = 0") }
        return out
    }

    /// The keys beside the config that reset `row` carries into the new run (its `keeps`, less its clears).
    private func keptKeys(_ row: FlowModel.GuardedRow) -> UInt64 {
        var config: UInt64 = 0
        for (k, isConfig) in model.layout.isConfig.enumerated() where isConfig { config |= 1 << UInt64(k) }
        return row.keepKeys & ~config
    }

    /// A reset row that keeps keys: the new run's root holds the config and the kept keys as the emission's effects
    /// left them (`data`), everything else dropped; it is checked as any frame entered.
    private mutating func resetStatements(keeping row: FlowModel.GuardedRow, data: PromelaData) -> [String] {
        var after = data
        let all: UInt64 = model.keys.count >= 64 ? ~0 : (1 << UInt64(model.keys.count)) - 1
        after.clear(keys: all & ~row.keepKeys, values: ~row.keepValues, layout: model.layout)
        let initial = model.initial.index
        if depth != nil {
            let root = Frame(slot: "0")
            return writes(initial, data: after, from: Frame(slot: "sp"), to: root) + ["restart()"] + checks(entering: initial, frame: root)
        }
        return writes(initial, data: after, from: top, to: top) + checks(entering: initial, frame: top)
    }

    /// `restart()`: every slot above the root zeroed, one by one (SPIN cannot compile a loop that breaks inside a `d_step` here).
    private func restartInline(depth: Int) -> [String] {
        var out = ["inline restart() {   /* a reset row: the stack becomes its root frame, the variant's */"]
        for slot in stride(from: 1, through: depth, by: 1) {
            var line = ["st[\(slot)] = 0"]
            for word in 0..<layout.words { line.append("kd\(word)[\(slot)] = 0") }
            for k in valueKeys { line.append("v\(k)[\(slot)] = 0") }
            out.append("    " + line.joined(separator: "; ") + ";")
        }
        out.append("    sp = 0")
        out.append("}")
        return out
    }

    /// Zeroes the top frame and drops it; section 5's server-side keys go down to the frame below first, as back leaves them.
    private func popStatements() -> [String] {
        var out: [String] = []
        let data = model.layout
        if data.hasServerKeys {
            for word in 0..<layout.words {
                var server: UInt64 = 0, used: UInt64 = 0
                for k in word * layout.bitsPerWord..<min(model.keys.count, (word + 1) * layout.bitsPerWord) {
                    used |= layout.bit(of: k).bit
                    if data.isServer[k] { server |= layout.bit(of: k).bit }
                }
                guard server != 0 else { continue }
                out.append("kd\(word)[sp - 1] = (kd\(word)[sp - 1] & \(used & ~server)) | (kd\(word)[sp] & \(server))")
            }
            for k in valueKeys where data.isServer[k] { out.append("v\(k)[sp - 1] = v\(k)[sp]") }
        }
        out.append("st[sp] = 0")
        for word in 0..<layout.words { out.append("kd\(word)[sp] = 0") }
        for k in valueKeys { out.append("v\(k)[sp] = 0") }
        out.append("sp--")
        return out
    }

    /// `state --event, key=value--> targets`, for the comment above an option.
    private func moveComment(state: Int, emission: FlowModel.Emission, branch: Int, data: PromelaData,
                             firing: [FlowModel.GuardedRow]) -> String {
        var label = model.name(of: emission.event)
        let values = emission.addValued.compactMap { k -> String? in
            guard case let .constant(index) = data.field(k), index < model.layout.domains[k].count else { return nil }
            return "\(model.keys[k])=\(model.layout.domains[k][index])"
        }
        if !values.isEmpty { label += ", " + values.joined(separator: ", ") }
        let targets = firing.map { $0.reset ? "\(model.name(of: model.initial)) (reset)" : model.name(of: $0.to) }
        let to = targets.count == 1 ? targets[0] : "the first row that holds: " + targets.joined(separator: ", ")
        return PromelaExporter.comment("\(model.states[state]) --\(label)--> \(to)")
    }

    // MARK: Back, and the terminal wait

    /// Back pops the top frame where the spec allows it (not at the root, not from a terminal state or a `back: false` step).
    private func backLines() -> [String] {
        let backStates = (0..<model.stateCount).filter { !model.isTerminal[$0] && model.canGoBack[$0] }
        guard !backStates.isEmpty else { return [] }
        let noBack = (0..<model.stateCount).filter { model.isTerminal[$0] || !model.canGoBack[$0] }
        let guardText = backStates.count <= noBack.count || noBack.isEmpty
            ? (noBack.isEmpty ? "" : " && (" + backStates.map { "st[sp] == \($0)" }.joined(separator: " || ") + ")")
            : " && " + noBack.map { "st[sp] != \($0)" }.joined(separator: " && ")
        return ["    /* back: pop the top frame where the spec allows it */",
                "    :: d_step { sp > 0\(guardText) -> \(popStatements().joined(separator: "; ")) }"]
    }

    /// Section 5, the configurations model of a flow with server-side keys: back is no move of a configuration (it needs
    /// the frame below), but with server-side keys it reaches configurations no forward move does. Each such landing is
    /// an option from the configuration the back's excursion starts from (``BackReach/backJumps()``), so SPIN stores
    /// every configuration the checker decides. A deadlocked configuration gets none: it stays an end state, as the
    /// checker's `deadlock` says (about forward moves).
    private mutating func backJumpLines() -> [String] {
        guard model.layout.hasServerKeys else { return [] }
        let reach = BackReach(model: model, limits: CheckLimits(), start: Date())
        var out: [String] = []
        var written = Set<[Int32]>()
        var successors: [FlowModel.Successor] = []
        for (from, to) in reach.backJumps() where written.insert([from, to]).inserted {
            let source = reach.configurations[Int(from)], target = reach.configurations[Int(to)]
            let state = Int(source.state)
            model.successors(state: state, keys: source.keys, values: source.values, into: &successors)
            if !successors.contains(where: { $0.outcome != .illegal }) && !model.isTerminal[state] && !model.isBackOnly[state] { continue }
            var test = ["st == \(state)"]
            for word in 0..<layout.words { test.append("kd\(word) == \(layout.word(word, of: KeySet(bits: source.keys)))") }
            for k in valueKeys { test.append("v\(k) == \(model.layout.field(k, in: source.values))") }
            var body = ["st = \(target.state)"]
            for word in 0..<layout.words { body.append("kd\(word) = \(layout.word(word, of: KeySet(bits: target.keys)))") }
            for k in valueKeys { body.append("v\(k) = \(model.layout.field(k, in: target.values))") }
            body += checks(entering: Int(target.state), frame: top)
            out.append("    /* " + PromelaExporter.comment("a push from \(model.states[state]), then back with the server's data of then") + " */")
            out.append("    :: d_step { " + test.joined(separator: " && ") + " -> " + body.joined(separator: "; ") + " }")
        }
        return out
    }

    /// A terminal state waits in a self-loop (no new state), so pan's invalid end states are exactly the deadlocks.
    /// A back-only screen waits too: the user leaves it with back, which this model of the configurations leaves out.
    private func terminalWait() -> [String] {
        let waiting = (0..<model.stateCount).filter { model.isTerminal[$0] || model.isBackOnly[$0] }
        guard !waiting.isEmpty else { return [] }
        let comment = waiting.contains { model.isBackOnly[$0] }
            ? ["    /* a terminal state ends the flow and a back-only screen is left with back: each waits here,",
               "       so pan never calls it an invalid end state */"]
            : ["    /* a terminal state ends the flow: it waits here, so pan never calls it an invalid end state */"]
        return comment + ["    :: " + waiting.map { "st == \($0)" }.joined(separator: " || ")]
    }

    // MARK: Checks

    /// The assertions on a frame just entered in `state`: its requirements, its illegal events, a terminal state's way out,
    /// the spec's `always` and `never` rules.
    private mutating func checks(entering state: Int, frame: Frame) -> [String] {
        let key = "\(state) \(frame.slot ?? "")"
        if let written = checksWritten[key] { return written }
        let out = writeChecks(entering: state, frame: frame)
        checksWritten[key] = out
        return out
    }

    private mutating func writeChecks(entering state: Int, frame: Frame) -> [String] {
        var out: [String] = []
        for word in 0..<layout.words {
            let required = layout.word(word, of: model.requires[state])
            if required != 0 {
                out.append(assertion(.unmetRequirement, holds: .test("(\(frame.word(word)) & \(required)) == \(required)",
                                                                        negated: "(\(frame.word(word)) & \(required)) != \(required)")))
            }
        }
        for set in model.anyOf[state] {
            let some = (0..<layout.words).compactMap { word -> PromelaExpression? in
                let bits = layout.word(word, of: set)
                return bits == 0 ? nil : .test("(\(frame.word(word)) & \(bits)) != 0", negated: "(\(frame.word(word)) & \(bits)) == 0")
            }
            out.append(assertion(.unmetRequirement, holds: .any(of: some)))
        }
        // Per emission: offered, and per branch whether some row takes it; an illegal transition and a way on
        // (the deadlock check below) both read these, so each condition is written once.
        var ways: [PromelaExpression] = []
        for emission in model.emissions[state] {
            let offered = condition(emission.when, state: state, data: PromelaData(), frame: frame)
            var taken: [PromelaExpression] = []
            for branch in 0..<emission.branchCount(model.layout) where offered != .false {
                let data = PromelaData().applying(emission, branch: branch, layout: model.layout)
                taken.append(.any(of: emission.rows.map { condition($0.when, state: state, data: data, frame: frame) }))
            }
            let illegal = PromelaExpression.all(of: [offered, .any(of: taken.map(\.negated))])
            if illegal != .false { out.append(assertion(.illegalTransition, holds: illegal.negated)) }
            ways.append(.all(of: [offered, .any(of: taken)]))
        }
        if terminalExit[state] { out.append(assertion(.terminalExit, holds: .false)) }
        // In the stack model back and the bound always leave a way on, so no end state is invalid: a deadlock is
        // asserted on the frame as entered instead, as the checker decides it (some emission offered and some row
        // taking one of its branches; a terminal or back-only screen never deadlocks).
        if depth != nil, !model.isTerminal[state], !model.isBackOnly[state] {
            let moves = PromelaExpression.any(of: ways)
            if moves != .true { out.append(assertion(.deadlock, holds: moves)) }
        }
        // The spec's own rules, on the frame as entered: `at` is known here, so it folds away.
        for (index, rule) in model.properties.enumerated() where rule.kind != .reachable {
            let satisfied = condition(rule.condition, state: state, data: PromelaData(), frame: frame)
            let holds = rule.kind == .always ? satisfied : satisfied.negated
            if holds != .true { out.append(assertion(Property(rule: rule, index: index), holds: holds)) }
        }
        return out
    }

    /// `assert(marker || holds)`: the marker is always 0, so pan's message names the property.
    private mutating func assertion(_ property: Property, holds: PromelaExpression) -> String {
        let marker = PromelaExporter.marker(property)
        if !markers.contains(marker) { markers.append(marker) }
        return "assert(\(PromelaExpression.any(of: [.test(marker, negated: "!\(marker)"), holds]).text))"
    }

    // MARK: Guards

    private func stateIs(_ state: Int, frame: Frame) -> PromelaExpression {
        .test("\(frame.state) == \(state)", negated: "\(frame.state) != \(state)")
    }

    /// `condition` in `state`, on the frame `frame` after the effects `data` records; `nil` always holds.
    func condition(_ condition: Condition?, state: Int, data: PromelaData, frame: Frame) -> PromelaExpression {
        guard let condition else { return .true }
        let mlayout = model.layout
        switch condition {
        case let .present(k):
            return presence(k, data: data, frame: frame)
        case let .absent(k):
            return presence(k, data: data, frame: frame).negated
        case let .valueIn(k, mask):
            var count = 64
            if case let .valued(values) = mlayout.kinds[k] { count = values }
            let value: PromelaExpression
            switch data.field(k) {
            case let .constant(index):
                value = .constant(index < 64 && mask & (1 << UInt64(index)) != 0)
            case .frame(plus: 0):
                let indices = (0..<min(count, 64)).filter { mask & (1 << UInt64($0)) != 0 }
                value = indices.count == count ? .true : .any(of: indices.map {
                    .test("\(frame.field(k)) == \($0)", negated: "\(frame.field(k)) != \($0)")
                })
            case .frame:
                value = .false   // only counters are incremented, and a counter has no values
            }
            return .all(of: [presence(k, data: data, frame: frame), value])
        case let .atLeast(k, n):
            return bound(k, atLeast: n, data: data, frame: frame)
        case let .below(k, n):
            return bound(k, atLeast: n, data: data, frame: frame).negated
        case let .all(conditions):
            return .all(of: conditions.map { self.condition($0, state: state, data: data, frame: frame) })
        case let .any(conditions):
            return .any(of: conditions.map { self.condition($0, state: state, data: data, frame: frame) })
        case let .not(inner):
            return self.condition(inner, state: state, data: data, frame: frame).negated
        case let .at(states):
            return .constant(states.contains(Int32(state)))
        }
    }

    /// Whether key `k` is present: known after an effect, or the frame's bit.
    private func presence(_ k: Int, data: PromelaData, frame: Frame) -> PromelaExpression {
        if let known = data.presence[k] { return .constant(known) }
        let (word, bit) = layout.bit(of: k)
        return .test("(\(frame.word(word)) & \(bit)) != 0", negated: "(\(frame.word(word)) & \(bit)) == 0")
    }

    /// Whether counter `k` is at least `n`: `min(max, field + plus) >= n` is `field >= n - plus` when `n <= max`.
    private func bound(_ k: Int, atLeast n: Int, data: PromelaData, frame: Frame) -> PromelaExpression {
        let max = Self.counterMax(model.layout.kinds[k])
        switch data.field(k) {
        case let .constant(value):
            return .constant(value >= n)
        case let .frame(plus):
            if n > max { return .false }
            let threshold = n - plus
            if threshold <= 0 { return .true }
            return .test("\(frame.field(k)) >= \(threshold)", negated: "\(frame.field(k)) < \(threshold)")
        }
    }

    /// A counter's max (a valued key's largest index, so a malformed guard still writes something SPIN reads).
    static func counterMax(_ kind: DataLayout.Kind) -> Int {
        switch kind {
        case let .counter(max): return max
        case let .valued(count): return count - 1
        case .presence: return 1
        }
    }
}
