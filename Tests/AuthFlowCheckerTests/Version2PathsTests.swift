import AuthCheckTestSupport
import AuthFlow
@testable import AuthFlowChecker
import Foundation
import Testing

/// Covering tours and trails of `authflow/2` flows: each step carries the values it chose and each path its variant,
/// every live row of every variant is taken, and the real runtime replays them in lockstep with the spec.
@Suite struct Version2PathsTests {
    /// Every spec whose moves depend on its data: the `/2` flows in `Specs/` and the `/2` fixtures.
    static var dataDependentSpecs: [String] {
        (Files.specs + Files.version2).filter { (try? SpecLoader.load(file: $0))?.isStatic == false }
    }

    /// The `(variant, row)` pairs that fire, by brute force: every frame reachable from each variant's root by the one
    /// successor function, with a set of frames of its own (no configuration graph, no tour).
    static func liveRows(_ model: FlowModel) -> Set<[Int]> { reach(model).rows }

    /// The `(variant, row)` pairs that fire and the `(variant, state)` pairs reached, by brute force.
    static func reach(_ model: FlowModel) -> (rows: Set<[Int]>, states: Set<[Int]>) {
        var live = Set<[Int]>()
        var states = Set<[Int]>()
        var successors: [FlowModel.Successor] = []
        for (variant, root) in model.roots.enumerated() {
            struct Frame: Hashable { var state: Int, keys: UInt64, values: UInt64 }
            let start = Frame(state: model.initial.index, keys: root.keys, values: root.values)
            var seen: Set<Frame> = [start]
            var stack = [start]
            while let frame = stack.popLast() {
                states.insert([variant, frame.state])
                model.successors(state: frame.state, keys: frame.keys, values: frame.values, into: &successors)
                for successor in successors {
                    let next: Frame
                    switch successor.outcome {
                    case let .push(to, keys, values), let .replace(to, keys, values): next = Frame(state: to.index, keys: keys, values: values)
                    case let .reset(keys, values): next = Frame(state: model.initial.index, keys: keys, values: values)   // what it keeps
                    case .illegal: continue
                    }
                    live.insert([variant, successor.row])
                    if seen.insert(next).inserted { stack.append(next) }
                }
            }
        }
        return (live, states)
    }

    /// The `(variant, row)` pairs a path takes, replaying its events and chosen values on the spec's semantics from its variant's root.
    static func rowsTaken(_ path: CoveringPaths.Path, model: FlowModel) throws -> [[Int]] {
        let variant = try #require(FlowTrail.variantIndex(Dictionary(uniqueKeysWithValues: (path.variant ?? []).map { ($0.key, $0.value) }), model: model))
        let root = model.roots[variant]
        var frame = (state: model.initial.index, keys: root.keys, values: root.values)
        var rows: [[Int]] = []
        var successors: [FlowModel.Successor] = []
        for (i, name) in path.events.enumerated() {
            model.successors(state: frame.state, keys: frame.keys, values: frame.values, into: &successors)
            // The move of this event whose added values are the ones the step chose.
            let move = try #require(successors.first { successor in
                guard model.events[successor.event.index] == name, successor.outcome != .illegal else { return false }
                let added = model.emissions[frame.state][successor.emission].addValued.map { k in
                    FlowSpec.KeyValue(model.keys[k], model.layout.domains[k][model.layout.field(k, in: successor.effectValues)])
                }
                return added == path.chosen[i]
            }, "step \(i + 1), \(name) with \(path.chosen[i]), is not a move")
            switch move.outcome {
            case let .push(target, keys, values), let .replace(target, keys, values): frame = (target.index, keys, values)
            case let .reset(keys, values): frame = (model.initial.index, keys, values)   // the root, with what the row keeps
            case .illegal: break
            }
            #expect(model.states[frame.state] == path.states[i], "step \(i + 1)")
            rows.append([variant, move.row])
        }
        return rows
    }

    /// A reset (sign-out, start over) puts the user back at the start with nothing held: a tour that went on past one
    /// chained several tests into one (Specs/sign-in-next-step.json gave a 44-step path). A reset ends its path.
    @Test(arguments: dataDependentSpecs)
    func aResetEndsItsPath(_ spec: String) throws {
        let model = try SpecLoader.load(file: spec)
        // A reset that keeps data (section 5: counts the server keeps, `keeps`) lands where a fresh start does not, and a
        // path may go on through it (to a lock only counts kept across sign-outs reach): theTourTakesEveryLiveRowOfEveryVariant
        // replays each such path from its root.
        guard !model.stacksAreHistories else { return }
        // The events some row resets on: a path step on one of them that lands at the start is that reset.
        let resetEvents = Set(model.emissions.joined().filter { $0.rows.contains(where: \.reset) }.map { model.events[$0.event.index] })
        let cover = CoveringPaths(model: model, target: .transitions)
        for path in cover.paths {
            for (i, event) in path.events.enumerated().dropLast() where path.states[i] == model.states[model.initial.index] {
                #expect(!resetEvents.contains(event), "\(spec): step \(i + 1) of a path resets (\(event)) and the path goes on")
            }
        }
    }

    @Test(arguments: dataDependentSpecs)
    func theTourTakesEveryLiveRowOfEveryVariant(_ spec: String) throws {
        let model = try Files.model(spec)
        let cover = CoveringPaths(model: model, target: .transitions)
        #expect(cover.carriesValues)
        var taken = Set<[Int]>()
        for path in cover.paths { taken.formUnion(try Self.rowsTaken(path, model: model)) }
        let live = Self.liveRows(model)
        #expect(taken == live, "\(spec): missed \(live.subtracting(taken).sorted { $0.lexicographicallyPrecedes($1) })")
        #expect(cover.reachable == live.count && cover.lowerBound == live.count && cover.length >= cover.lowerBound)
        // A flow with config names the variant of every path; every variant has paths of its own.
        if model.roots.count > 1 {
            #expect(Set(cover.paths.map(\.variant)) == Set(model.variants))
        }
    }

    @Test(arguments: dataDependentSpecs)
    func theRealRuntimeReplaysEveryTourCleanly(_ spec: String) throws {
        let model = try Files.model(spec)
        for (i, path) in CoveringPaths(model: model, target: .transitions).paths.enumerated() {
            let entry = FlowTrail.entry(for: path, model: model)
            let replay = FlowTrail.replay(entry, model: model, driver: SessionDriver(model: model))
            #expect(replay.ending == .fixed, "\(spec) path \(i + 1): \(replay.ending) \(replay.violation?.message ?? "")")
            #expect(replay.steps.count == path.events.count + 1)
        }
    }

    @Test func aRuntimeThatIgnoresTheBackendsAnswerIsCaughtByTheTours() throws {
        let model = try Version2WalkTests.model()
        let endings = CoveringPaths(model: model, target: .transitions).paths.map { path in
            FlowTrail.replay(FlowTrail.entry(for: path, model: model), model: model, driver: Version2WalkTests.AlwaysDone(model: model)).ending
        }
        let diverged = endings.compactMap { ending -> Int? in if case let .diverged(step) = ending { return step } else { return nil } }
        #expect(!diverged.isEmpty, "no tour caught AlwaysDone: \(endings)")
        // The tours of the real runtime are clean, so it is the answer that is caught.
        #expect(CoveringPaths(model: model, target: .transitions).paths.allSatisfy { path in
            FlowTrail.replay(FlowTrail.entry(for: path, model: model), model: model, driver: SessionDriver(model: model)).ending == .fixed
        })
    }

    @Test func theStateAndConfigurationToursCoverEachVariant() throws {
        let model = try Files.model(Files.specs.first { $0.hasSuffix("account-recovery.json") }!)
        for target in [CoverTarget.states, .configurations] {
            let cover = CoveringPaths(model: model, target: target)
            #expect(cover.length >= cover.lowerBound && cover.lowerBound == cover.reachable - model.roots.count)
            for path in cover.paths { _ = try Self.rowsTaken(path, model: model) }
        }
        // Each variant enters every state it reaches.
        let states = CoveringPaths(model: model, target: .states)
        var entered = Set<[Int]>()
        for (variant, values) in model.variants.enumerated() {
            entered.insert([variant, model.initial.index])
            for path in states.paths where path.variant == values {
                for state in path.states { entered.insert([variant, model.states.firstIndex(of: state)!]) }
            }
        }
        #expect(entered == Self.reach(model).states)
    }

    // MARK: Trails

    /// A trail written and read back through the file's reader.
    static func roundTrip(_ entry: FuzzRegressions.Entry, model: FlowModel) throws -> FuzzRegressions.Entry {
        let entries = try FuzzRegressions.read(try FuzzRegressionsTests.write([FuzzRegressions.line(for: entry, model: model)]))
        return try #require(entries.first)
    }

    @Test(arguments: Files.version2.filter { $0.contains("/broken/") || $0.contains("promela-") })
    func everyViolationsTrailReplaysToItsSite(_ spec: String) throws {
        let model = try Files.model(spec)
        let report = FlowChecker.check(model, source: spec)
        for violation in report.violations where violation.unsatisfiedIn == nil {
            let entry = try Self.roundTrip(FlowTrail.entry(for: violation, model: model, driver: SessionDriver(model: model)), model: model)
            #expect(FlowTrail.refusal(entry, model: model) == nil, "\(spec): \(violation.site)")
            #expect(entry.variant == Dictionary(uniqueKeysWithValues: (violation.variant ?? []).map { ($0.key, $0.value) }))
            let replay = FlowTrail.replay(entry, model: model, driver: SessionDriver(model: model))
            #expect(replay.ending == .reproduced(step: violation.length), "\(spec): \(violation.site) ended \(replay.ending)")
            #expect(replay.violation?.site == violation.site)
        }
    }

    @Test func aTrailSendsTheAnswerItChoseAndLeavesTheTrailWithout() throws {
        // The backend answers "retry" and the flow polls for ever; its default answer, "ok", signs in.
        let model = try Files.model(Files.version2("promela-polling-no-exit"))
        let violation = try #require(FlowChecker.check(model, source: "polling").violations.first { $0.property == .noExit })
        let entry = try Self.roundTrip(FlowTrail.entry(for: violation, model: model, driver: SessionDriver(model: model)), model: model)
        #expect(entry.chosen == [["answer": "retry"]])
        #expect(FuzzRegressions.line(for: entry, model: model).contains(#"{"event":"ask","chosen":{"answer":"retry"}}"#))
        #expect(FlowTrail.replay(entry, model: model, driver: SessionDriver(model: model)).ending == .reproduced(step: 1))
        var unchosen = entry
        unchosen.chosen = nil
        #expect(FlowTrail.replay(unchosen, model: model, driver: SessionDriver(model: model)).ending
            == .leftTrail(step: 1, reason: "the trail recorded waiting {answer}, the flow is in signedIn {answer}"))
        var outside = entry
        outside.chosen = [["answer": "maybe"]]
        #expect(FlowTrail.replay(outside, model: model, driver: SessionDriver(model: model)).ending
            == .leftTrail(step: 1, reason: "the trail chooses answer=maybe, which is not one of its values (ok, retry)"))
        var notAdded = entry
        notAdded.chosen = [["nope": "ok"]]
        #expect(FlowTrail.replay(notAdded, model: model, driver: SessionDriver(model: model)).ending
            == .leftTrail(step: 1, reason: "the trail chooses nope for ask, which ask does not add in start"))
    }

    @Test func anUnhandledAnswersTrailIsReproducedThenFixed() throws {
        let path = Files.version2("broken/unhandled-answer")
        let broken = try Files.model(path)
        let violation = try #require(FlowChecker.check(broken, source: "unhandled").violations.first { $0.property == .illegalTransition })
        let entry = try Self.roundTrip(FlowTrail.entry(for: violation, model: broken, driver: SessionDriver(model: broken)), model: broken)
        #expect(FlowTrail.replay(entry, model: broken, driver: SessionDriver(model: broken)).ending == .reproduced(step: 1))
        // The fix: the backend no longer answers "locked" (the table, and so the trail's hash, is unchanged).
        let json = try String(contentsOfFile: path, encoding: .utf8)
            .replacingOccurrences(of: #"["ok", "mfa", "locked"]"#, with: #"["ok", "mfa"]"#)
        let fixed = try SpecLoader.load(json: json)
        #expect(FlowTrail.refusal(entry, model: fixed) == nil)
        #expect(FlowTrail.replay(entry, model: fixed, driver: SessionDriver(model: fixed)).ending == .fixed)
    }

    @Test func aTrailOfAnotherVariantOrAReachableRuleIsRefused() throws {
        let model = try Files.model(Files.version2("broken/passkey-variant"))
        let violation = try #require(FlowChecker.check(model, source: "passkey").violations.first)
        var entry = FlowTrail.entry(for: violation, model: model, driver: SessionDriver(model: model))
        #expect(entry.variant == ["passkeys": "on"])
        entry.variant = ["passkeys": "sometimes"]
        #expect(FlowTrail.refusal(entry, model: model)
            == "recorded in the variant {passkeys=sometimes}, which is not among the variants run (passkeys=off; passkeys=on)")
        let lockout = try Files.model(Files.version2("broken/lockout-variant"))
        let rule = try #require(FlowChecker.check(lockout, source: "lockout").violations.first { $0.unsatisfiedIn != nil })
        let ruleEntry = FuzzRegressions.Entry(line: 1, spec: lockout.name, table: lockout.tableHash, actions: [], site: rule.site.description)
        #expect(FlowTrail.refusal(ruleEntry, model: lockout)?.contains("a reachable rule, which no one path shows") == true)
    }
}
