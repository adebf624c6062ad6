import AuthFlow
import AuthFlowChecker
import Foundation
import PropertyTesting

/// Generates tracker logs drawn from a spec: realistic sessions, and broken ones that say where they break.
///
/// Sessions walk the spec's own moves (``FlowModel/successors(state:keys:values:into:)``) from a
/// root, many open at once and their records interleaved, with what users do: retries (self-loops
/// such as a wrong password or a resent code), backs where the spec allows them, attempts the
/// runtime refuses (recorded as rejections), leaving part way, and logging out after success.
/// Records are written as ``FlowTracker`` writes them. A fraction of the sessions is broken on
/// purpose, each in one way (``Fault``), and ``Summary/broken`` lists each with the line of the
/// record that breaks it, so a test knows exactly which sessions must be flagged and where.
///
/// ```swift
/// var options = TraceCorpus.Options()
/// options.sessions = 500
/// options.brokenFraction = 0.1
/// let (log, summary) = TraceCorpus.text(model, options: options)
/// ```
package enum TraceCorpus {
    /// How a corpus is drawn.
    package struct Options: Sendable {
        /// Sessions to draw.
        package var sessions = 1_000
        /// When set, no session starts once the corpus holds this many records (for a corpus of a given size).
        package var records: Int?
        package var seed: UInt64 = 1
        /// The fraction of sessions broken on purpose (0...1).
        package var brokenFraction = 0.0
        /// Sessions open at once, their records interleaved.
        package var concurrency = 50
        /// The most moves a session makes before its user gives up.
        package var maxSteps = 40
        /// Per step: the chance of a back where the spec allows one.
        package var back = 0.12
        /// Per step: the chance the user leaves.
        package var abandon = 0.05
        /// Per step: the chance of an attempt the runtime refuses (an event the step does not take, or a forbidden back).
        package var refused = 0.04
        /// The chance a session that signed in logs out and starts again.
        package var logout = 0.15
        /// Whether transitions carry the keys they added and cleared (`false`: an older tracker's records).
        package var recordsData = true
        /// The first record's time, in milliseconds since 1970 (2024-05-01T12:00:00Z).
        package var startMilliseconds: Int64 = 1_714_564_800_000
        /// The mean time between two records of the corpus, in milliseconds (at least 1).
        package var gapMilliseconds = 40
        /// Session ids are this prefix and a number.
        package var idPrefix = "s"
        package init() {}
    }

    /// How a broken session breaks the spec.
    package enum Fault: String, Sendable, CaseIterable {
        /// A transition the spec does not take from where the session is.
        case illegalEvent = "illegal-event"
        /// A back from a screen the spec forbids back from (the start, a terminal state, `back: false`).
        case forbiddenBack = "forbidden-back"
        /// A screen entered with a key it requires left out of the transition's `added`.
        case missingKey = "missing-key"

        /// The finding the replay must make.
        package var property: TraceReport.Property {
            switch self {
            case .illegalEvent: .illegalTransition
            case .forbiddenBack: .forbiddenBack
            case .missingKey: .unmetRequirement
            }
        }
    }

    /// A session broken on purpose: its id, the line of the record that breaks it, and how.
    package struct Broken: Hashable, Sendable {
        package var session: String
        package var line: Int
        package var fault: Fault
    }

    /// What was drawn.
    package struct Summary: Sendable {
        package var records = 0
        package var sessions = 0
        /// Every broken session, in the order of their breaking lines.
        package var broken: [Broken] = []
        /// Sessions that ended in a success, an abort, or elsewhere.
        package var succeeded = 0
        package var aborted = 0
        package var abandoned = 0
    }

    /// A corpus as text, with its summary: for tests.
    package static func text(_ model: FlowModel, options: Options) -> (String, Summary) {
        var bytes: [UInt8] = []
        let summary = generate(model, options: options) { bytes.append(contentsOf: $0) }
        return (String(decoding: bytes, as: UTF8.self), summary)
    }

    /// Draws a corpus, handing its bytes to `write` a batch of records at a time.
    /// - Complexity: O(records); memory O(``Options/concurrency`` × stack height).
    package static func generate(_ model: FlowModel, options: Options, write: ([UInt8]) -> Void) -> Summary {
        var drawer = Drawer(model: model, options: options)
        return drawer.run(write: write)
    }

    /// One session being drawn.
    struct Walker {
        struct Frame {
            var state: Int; var keys: UInt64; var values: UInt64; var recorded: UInt64
            /// Section 5: it updated the frame below in place (the user's back takes both off).
            var replaces = false
        }
        var id: String
        var variant: Int
        var frames: [Frame]
        var steps = 0
        var fault: Fault?
        var faultAt = 0
        var injected = false
        var loggedOut = false
        /// The terminal state a logout left, while nothing has moved since (the session counts as ended there).
        var loggedOutFrom: Int?
        var done = false
    }

    struct Drawer {
        let model: FlowModel
        let options: Options
        var random: SeededGenerator
        var summary = Summary()
        var clock: Int64
        var out: [UInt8] = []
        var successors: [FlowModel.Successor] = []
        var line = 0
        let allEvents: [Int]

        init(model: FlowModel, options: Options) {
            self.model = model
            self.options = options
            random = SeededGenerator(seed: options.seed)
            clock = options.startMilliseconds
            allEvents = Array(model.events.indices)
        }

        mutating func run(write: ([UInt8]) -> Void) -> Summary {
            var started = 0
            var active: [Walker] = []
            func fresh(_ drawer: inout Drawer) -> Walker {
                started += 1
                return drawer.walker(number: started)
            }
            while started < options.sessions && active.count < max(1, options.concurrency) { active.append(fresh(&self)) }
            while !active.isEmpty {
                let pick = Int(random.draw(below: UInt64(active.count)))
                step(&active[pick])
                if active[pick].done {
                    finish(active[pick])
                    if started < options.sessions && summary.records < options.records ?? .max {
                        active[pick] = fresh(&self)
                    } else {
                        active.swapAt(pick, active.count - 1)
                        active.removeLast()
                    }
                }
                if out.count >= 1 << 16 {
                    write(out)
                    out.removeAll(keepingCapacity: true)
                }
            }
            if !out.isEmpty { write(out) }
            summary.sessions = started
            summary.broken.sort { $0.line < $1.line }
            return summary
        }

        mutating func walker(number: Int) -> Walker {
            let variant = model.roots.count > 1 ? Int(random.draw(below: UInt64(model.roots.count))) : 0
            let root = model.roots[variant]
            var walker = Walker(id: "\(options.idPrefix)\(number)", variant: variant,
                                frames: [Walker.Frame(state: model.initial.index, keys: root.keys, values: root.values, recorded: root.keys)])
            if options.brokenFraction > 0, random.double01() < options.brokenFraction {
                var faults = Fault.allCases
                if !options.recordsData { faults.removeAll { $0 == .missingKey } }
                walker.fault = faults[Int(random.draw(below: UInt64(faults.count)))]
                walker.faultAt = Int(random.draw(below: UInt64(max(1, options.maxSteps / 2))))
            }
            return walker
        }

        mutating func finish(_ walker: Walker) {
            let state = walker.loggedOutFrom ?? walker.frames[walker.frames.count - 1].state
            if model.isSuccess[state] { summary.succeeded += 1 } else if model.isAbort[state] { summary.aborted += 1 } else { summary.abandoned += 1 }
        }

        // MARK: One step

        mutating func step(_ w: inout Walker) {
            let top = w.frames[w.frames.count - 1]
            let terminal = model.isTerminal[top.state]
            let due = w.fault != nil && !w.injected && w.steps >= w.faultAt
            w.steps += 1
            if due, inject(&w) { return }
            if terminal {
                if model.isSuccess[top.state], !w.loggedOut, random.double01() < options.logout {
                    w.loggedOut = true
                    // A sign-out row of the spec's own, when the state has one; else the app's logout.
                    if forward(&w, due: false) { return }
                    // A logout: the reset is recorded in the session, which starts again.
                    w.loggedOutFrom = top.state
                    emit(w, .reset, from: top.state, to: model.initial.index)
                    // Server-side keys (section 5) stay as they are.
                    let root = model.roots[w.variant], layout = model.layout
                    let keys = root.keys & ~layout.serverKeys | top.keys & layout.serverKeys
                    w.frames = [Walker.Frame(state: model.initial.index, keys: keys,
                                             values: root.values & ~layout.serverValues | top.values & layout.serverValues,
                                             recorded: root.keys & ~layout.serverKeys | top.recorded & layout.serverKeys)]
                    return
                }
                end(&w)
                return
            }
            if w.steps > options.maxSteps || (w.steps > 1 && random.double01() < options.abandon) {
                end(&w)
                return
            }
            if random.double01() < options.refused, refuse(w) { return }
            if w.frames.count > 1, model.canGoBack[top.state], random.double01() < options.back {
                // Back takes off the top frame and every frame that updated it in place; server-side keys stay (section 5).
                let count = BackFrames.count(height: w.frames.count) { w.frames[$0].replaces }
                if count > 0 {
                    let layout = model.layout
                    w.frames.removeLast(count)
                    var below = w.frames[w.frames.count - 1]
                    below.keys = below.keys & ~layout.serverKeys | top.keys & layout.serverKeys
                    below.values = below.values & ~layout.serverValues | top.values & layout.serverValues
                    below.recorded = below.recorded & ~layout.serverKeys | top.recorded & layout.serverKeys
                    w.frames[w.frames.count - 1] = below
                    emit(w, .undo, from: top.state, to: below.state)
                    w.loggedOutFrom = nil
                    return
                }
            }
            if !forward(&w, due: due) { end(&w) }
        }

        /// Ends a session; a broken one not broken yet is broken now, if it can be.
        mutating func end(_ w: inout Walker) {
            if w.fault != nil && !w.injected {
                w.fault = .illegalEvent
                if inject(&w) { return }
            }
            w.done = true
        }

        /// A forward move the spec allows, the likelier the more it moves on; false when there is none.
        mutating func forward(_ w: inout Walker, due: Bool) -> Bool {
            let top = w.frames[w.frames.count - 1]
            model.successors(state: top.state, keys: top.keys, values: top.values, into: &successors)
            var moves = successors.filter {
                if case .illegal = $0.outcome { return false }
                return true
            }
            guard !moves.isEmpty else { return false }
            if due, w.fault == .missingKey {
                // A session due to lose a key takes a move that can lose one, when the step has one.
                let losing = moves.filter { move in
                    guard case let .push(target, _, _) = move.outcome else { return false }
                    let emission = model.emissions[top.state][move.emission]
                    return model.requires[target.index].bits & emission.addKeys & ~top.recorded != 0
                }
                if !losing.isEmpty { moves = losing }
            }
            w.loggedOutFrom = nil
            // Self-loops (retries) and moves that end the flow are less likely than moving on.
            let weights = moves.map { move -> Int in
                switch move.outcome {
                case let .push(target, _, _):
                    if target.index == top.state { return 2 }
                    return model.isTerminal[target.index] ? 2 : 6
                default: return 1
                }
            }
            var pick = Int(random.draw(below: UInt64(weights.reduce(0, +))))
            var chosen = moves[0]
            for (move, weight) in zip(moves, weights) {
                if pick < weight { chosen = move; break }
                pick -= weight
            }
            let emission = model.emissions[top.state][chosen.emission]
            var added = emission.addKeys
            for key in emission.addValued + emission.setKeys { added |= 1 << UInt64(key) }
            var cleared = emission.clearKeys
            for k in model.keys.indices where model.layout.isValued(k) && emission.clearValues & model.layout.mask(k) != 0 {
                cleared |= 1 << UInt64(k)
            }
            if chosen.row >= 0, let row = emission.rows.first(where: { $0.row == chosen.row }) {
                cleared |= row.clearKeys | row.effects.clearKeys | row.entry.clearKeys
                added |= row.effects.addKeys | row.entry.addKeys
                for key in row.effects.setKeys + row.entry.setKeys { added |= 1 << UInt64(key) }
            }
            switch chosen.outcome {
            case let .push(target, keys, values), let .replace(target, keys, values):
                var recordedAdds = added
                if due, w.fault == .missingKey {
                    // Leave out a key the target requires that nothing recorded holds yet.
                    let candidates = model.requires[target.index].bits & added & ~top.recorded
                    if candidates != 0 {
                        recordedAdds &= ~(1 << UInt64(candidates.trailingZeroBitCount))
                        w.injected = true
                        summary.broken.append(Broken(session: w.id, line: line + 1, fault: .missingKey))
                    }
                }
                let shown = valuesText(emission, keys: keys, values: values)
                emit(w, .transition, from: top.state, event: chosen.event.index, to: target.index,
                     added: recordedAdds, cleared: cleared, values: shown)
                var frame = Walker.Frame(state: target.index, keys: keys, values: values, recorded: (top.recorded & ~cleared) | recordedAdds)
                if case .replace = chosen.outcome { frame.replaces = true }
                w.frames.append(frame)
            case let .reset(keys, values):
                // A reset row: the runtime records it as a reset naming its event; the new run holds what the row keeps.
                emit(w, .reset, from: top.state, event: chosen.event.index, to: model.initial.index)
                if model.isTerminal[top.state] { w.loggedOutFrom = top.state }
                w.frames = [Walker.Frame(state: model.initial.index, keys: keys, values: values, recorded: keys)]
            case .illegal:
                return false
            }
            return true
        }

        /// The values of the non-secret valued keys an emission added or set, by name.
        func valuesText(_ emission: FlowModel.Emission, keys: UInt64, values: UInt64) -> [String: String] {
            var text: [String: String] = [:]
            for key in emission.addValued + emission.setKeys where model.secrets.bits & (1 << UInt64(key)) == 0 {
                guard keys & (1 << UInt64(key)) != 0 else { continue }
                text[model.keys[key]] = model.layout.domains[key][model.layout.field(key, in: values)]
            }
            return text
        }

        /// Records an attempt the runtime refuses, when the step has one: false when it has none.
        mutating func refuse(_ w: Walker) -> Bool {
            let top = w.frames[w.frames.count - 1]
            let backRefused = w.frames.count == 1 || !model.canGoBack[top.state]
            if backRefused, random.bool() {
                let reason = w.frames.count == 1 ? "atRoot" : "disabled"
                emit(w, .rejection, from: top.state, reason: "back refused: \(reason)")
                return true
            }
            let offered = Set(model.emissions[top.state].map(\.event.index))
            let other = allEvents.filter { !offered.contains($0) }
            guard !other.isEmpty else { return false }
            let event = other[Int(random.draw(below: UInt64(other.count)))]
            emit(w, .rejection, from: top.state, event: event, reason: "not in the output contract")
            return true
        }

        /// Breaks the session as its fault says, where it can be; false when it cannot be here.
        mutating func inject(_ w: inout Walker) -> Bool {
            let top = w.frames[w.frames.count - 1]
            switch w.fault {
            case .forbiddenBack?:
                let forbidden = w.frames.count == 1 || model.isTerminal[top.state] || !model.canGoBack[top.state]
                guard forbidden else { return false }
                summary.broken.append(Broken(session: w.id, line: line + 1, fault: .forbiddenBack))
                let to = w.frames.count > 1 ? w.frames[w.frames.count - 2].state : top.state
                emit(w, .undo, from: top.state, to: to)
                if w.frames.count > 1 { w.frames.removeLast() }
                w.injected = true
                w.loggedOutFrom = nil
                return true
            case .illegalEvent?:
                // An event the step does not take from here, to some state.
                model.successors(state: top.state, keys: top.keys, values: top.values, into: &successors)
                let taken = Set(successors.compactMap { successor -> Int? in
                    if case .illegal = successor.outcome { return nil }
                    return successor.event.index
                })
                let events = allEvents.filter { !taken.contains($0) }
                guard !events.isEmpty else { return false }
                let event = events[Int(random.draw(below: UInt64(events.count)))]
                let target = Int(random.draw(below: UInt64(model.stateCount)))
                summary.broken.append(Broken(session: w.id, line: line + 1, fault: .illegalEvent))
                emit(w, .transition, from: top.state, event: event, to: target, added: 0, cleared: 0, values: [:])
                w.frames.append(Walker.Frame(state: target, keys: top.keys, values: top.values, recorded: top.recorded))
                w.injected = true
                w.loggedOutFrom = nil
                return true
            case .missingKey?, nil:
                return false
            }
        }

        /// Writes one record of `w`'s session at the next time on the clock.
        mutating func emit(_ w: Walker, _ kind: TrackedKind, from: Int, event: Int? = nil, to: Int? = nil,
                           added: UInt64? = nil, cleared: UInt64? = nil, values: [String: String]? = nil, reason: String? = nil) {
            clock += Int64(1 + random.draw(below: UInt64(max(1, 2 * options.gapMilliseconds - 1))))
            line += 1
            summary.records += 1
            let data = options.recordsData && kind == .transition
            let event = TrackedEvent(
                kind: kind, sessionID: w.id, timestamp: Date(timeIntervalSince1970: Double(clock) / 1000),
                from: model.states[from], event: event.map { model.events[$0] }, to: to.map { model.states[$0] }, reason: reason,
                added: data ? model.names(of: KeySet(bits: added ?? 0)) : nil,
                cleared: data ? model.names(of: KeySet(bits: cleared ?? 0)) : nil,
                values: data && !(values ?? [:]).isEmpty ? values : nil)
            event.writeJSONLine(into: &out)
        }
    }
}
