import AuthFlow
@testable import AuthFlowChecker
import Foundation
import Testing

/// Every example and rule of the `authflow/2` semantics, each pinned by a small flow whose answer is worked out by hand.
///
/// The flows are written inline, as short as the rule allows, so the expected moves, counts and
/// paths can be checked against the flow by reading it.
@Suite struct Version2SemanticsTests {
    static func load(_ json: String) throws -> FlowModel {
        try SpecLoader.load(json: json)
    }

    static func fixture(_ name: String) throws -> FlowModel {
        let url = try #require(Bundle.module.url(forResource: "Fixtures/version2/\(name)", withExtension: "json"))
        return try SpecLoader.load(file: url.path)
    }

    /// A flow from its parts, the rest of the file filled in.
    static func flow(initial: String = "start", success: [String] = ["done"], abort: [String] = [],
                     config: String = "{}", data: String = "{}", steps: String, transitions: String, anywhere: String = "[]") throws -> FlowModel {
        func list(_ names: [String]) -> String { "[" + names.map { "\"\($0)\"" }.joined(separator: ", ") + "]" }
        return try load("""
        { "format": "authflow/2", "initial": "\(initial)", "success": \(list(success)), "abort": \(list(abort)),
          "config": \(config), "data": \(data), "steps": \(steps), "transitions": \(transitions), "anywhere": \(anywhere) }
        """)
    }

    /// The data of a frame as a person reads it: present keys and counters in declaration order, values after `=`, config left out.
    static func text(_ model: FlowModel, keys: UInt64, values: UInt64) -> String {
        let entries = model.keys.indices.compactMap { k -> String? in
            let layout = model.layout
            guard !layout.isConfig[k], layout.isCounter(k) || keys & (1 << UInt64(k)) != 0 else { return nil }
            switch layout.kinds[k] {
            case .presence: return model.keys[k]
            case .valued: return "\(model.keys[k])=\(model.layout.domains[k][layout.field(k, in: values)])"
            case .counter: return "\(model.keys[k])=\(layout.field(k, in: values))"
            }
        }
        return "{" + entries.joined(separator: ", ") + "}"
    }

    /// Every move from the frame, as `event → target {data}`, `event → reset` or `event → illegal`, in the semantics' order.
    static func moves(_ model: FlowModel, _ frame: (state: Int, keys: UInt64, values: UInt64)) -> [String] {
        var successors: [FlowModel.Successor] = []
        model.successors(state: frame.state, keys: frame.keys, values: frame.values, into: &successors)
        return successors.map { successor in
            let event = model.events[successor.event.index]
            switch successor.outcome {
            case let .push(target, keys, values), let .replace(target, keys, values): return "\(event) → \(model.states[target.index]) \(text(model, keys: keys, values: values))"
            case .reset: return "\(event) → reset"
            case .illegal: return "\(event) → illegal"
            }
        }
    }

    /// The frame reached from root `root` by taking, at each step, the first move of that event.
    static func frame(_ model: FlowModel, root: Int = 0, after events: [String]) throws -> (state: Int, keys: UInt64, values: UInt64) {
        var frame = (state: model.initial.index, keys: model.roots[root].keys, values: model.roots[root].values)
        var successors: [FlowModel.Successor] = []
        for name in events {
            model.successors(state: frame.state, keys: frame.keys, values: frame.values, into: &successors)
            let move = try #require(successors.first { model.events[$0.event.index] == name }, "\(name) is not a move")
            guard case let .push(target, keys, values) = move.outcome else { throw CancellationError() }
            frame = (target.index, keys, values)
        }
        return frame
    }

    static func variantText(_ variant: [FlowSpec.KeyValue]?) -> String {
        (variant ?? []).map { "\($0.key)=\($0.value)" }.joined(separator: ",")
    }

    /// Each violation as `property@site variant length: events`.
    static func found(_ model: FlowModel) -> [String] {
        ModelChecker.verify(model).violations.map { violation in
            let events = violation.path.dropFirst().map { $0.event ?? "?" }.joined(separator: " ")
            return "\(violation.site) [\(variantText(violation.variant))] \(violation.length): \(events)"
        }
    }

    // MARK: Section 1: the example

    @Test func theReferenceExampleCompletedLoadsInFourVariantsAndHolds() throws {
        let model = try Self.fixture("contract-example")
        // config keys in declaration order, the first varying slowest.
        #expect(model.variants.map { $0.map { "\($0.key)=\($0.value)" }.joined(separator: ",") }
                == ["recovery=code,mfa=required", "recovery=code,mfa=optional", "recovery=link,mfa=required", "recovery=link,mfa=optional"])
        let verification = ModelChecker.verify(model)
        #expect(verification.violations.isEmpty, "\(verification.violations.map(\.message))")
        #expect(verification.lint.isEmpty, "\(verification.lint.lines)")
        #expect(verification.states == 11)
        // The example's signIn: the backend's answer (one branch per value), then first-match rows.
        let signIn = try Self.frame(model, after: ["begin", "emailEntered", "typedPassword"])
        #expect(Self.moves(model, signIn) == [
            "submitted → signedIn {email, nextStep=done, attempts=0, password}",
            "submitted → confirmTotp {email, nextStep=confirmTotp, attempts=0, password}",
            "submitted → resetPassword {email, nextStep=resetPassword, attempts=0, password}",
            "wrongPassword → enterCredential {email, attempts=1}",
            "forgot → recoverByCode {email, attempts=0, password}",
            "useAnotherAccount → enterEmail {attempts=0}",
            "sessionExpired → expired {email, attempts=0, password}",
        ])
        // forgot is offered below 3 attempts only; the config decides where it goes.
        let locked = try Self.frame(model, root: 2, after: ["begin", "emailEntered", "typedPassword", "wrongPassword", "typedPassword",
                                                            "wrongPassword", "typedPassword", "wrongPassword", "typedPassword"])
        #expect(!Self.moves(model, locked).contains { $0.hasPrefix("forgot") })
        let link = try Self.frame(model, root: 2, after: ["begin", "emailEntered", "usedPasskey", "forgot"])
        #expect(model.states[link.state] == "recoverByLink")
    }

    // MARK: Section 1: emissions, effects, rows

    @Test func effectsApplyInOrderThenTheRowsGuardReadsThemThenTheRowClears() throws {
        let model = try Self.flow(
            data: #"{ "a": {}, "b": {}, "v": { "values": ["x", "y"] }, "n": { "max": 2 } }"#,
            steps: #"""
            { "start": { "emits": { "go": ["a"] } },
              "s": { "emits": { "step": { "clears": ["a"], "adds": ["b"], "set": { "v": "y" }, "increment": ["n"] } } },
              "t": { "emits": { "finish": [] } }, "u": { "emits": { "finish": [] } }, "done": {} }
            """#,
            transitions: #"""
            [ { "from": "start", "on": "go", "to": "s" },
              { "from": "s", "on": "step", "to": "t", "clears": ["b"],
                "when": { "all": [{ "missing": "a" }, { "has": "b" }, { "equals": { "v": "y" } }, { "atLeast": { "n": 1 } }] } },
              { "from": "s", "on": "step", "to": "u" },
              { "from": "t", "on": "finish", "to": "done" }, { "from": "u", "on": "finish", "to": "done" } ]
            """#)
        let s = try Self.frame(model, after: ["go"])
        #expect(Self.text(model, keys: s.keys, values: s.values) == "{a, n=0}")
        // The row's guard saw a cleared, b added, v set and n incremented; then the row cleared b.
        #expect(Self.moves(model, s) == ["step → t {v=y, n=1}"])
        var successors: [FlowModel.Successor] = []
        model.successors(state: s.state, keys: s.keys, values: s.values, into: &successors)
        #expect(Self.text(model, keys: successors[0].effectKeys, values: successors[0].effectValues) == "{b, v=y, n=1}")
    }

    @Test func aListEmissionIsAnAddsObjectAndAnUndeclaredKeyIsAPresenceKey() throws {
        let written = { (emission: String) in
            try Self.flow(steps: #"{ "start": { "emits": { "go": \#(emission) } }, "done": { "requires": ["k"] } }"#,
                          transitions: #"[{ "from": "start", "on": "go", "to": "done" }]"#)
        }
        let list = try written(#"["k"]"#), object = try written(#"{ "adds": ["k"] }"#)
        #expect(list.emissions == object.emissions)
        #expect(list.layout.kinds == [.presence])
        #expect(Self.moves(list, try Self.frame(list, after: [])) == ["go → done {k}"])
    }

    @Test func aValuedKeyAddedBranchesOncePerValueTheFirstAddedKeyVaryingSlowest() throws {
        // k2 is declared first, but k1 is added first: k1 varies slowest.
        let model = try Self.flow(
            data: #"{ "k2": { "values": ["x", "y", "z"] }, "k1": { "values": ["a", "b"] } }"#,
            steps: #"{ "start": { "emits": { "ask": { "adds": ["k1", "k2"], "by": "system" } } }, "done": {} }"#,
            transitions: #"[{ "from": "start", "on": "ask", "to": "done" }]"#)
        #expect(Self.moves(model, try Self.frame(model, after: [])) == [
            "ask → done {k2=x, k1=a}", "ask → done {k2=y, k1=a}", "ask → done {k2=z, k1=a}",
            "ask → done {k2=x, k1=b}", "ask → done {k2=y, k1=b}", "ask → done {k2=z, k1=b}",
        ])
        #expect(model.emissions[model.initial.index][0].bySystem)
    }

    @Test func theFirstRowWhoseGuardHoldsFiresAndARowWithoutAGuardAlwaysHolds() throws {
        let model = try Self.flow(
            data: #"{ "k": { "values": ["a", "b", "c"] } }"#,
            steps: #"{ "start": { "emits": { "ask": { "adds": ["k"] } } }, "A": {}, "B": {}, "C": {}, "done": {} }"#,
            transitions: #"""
            [ { "from": "start", "on": "ask", "to": "A", "when": { "equals": { "k": "a" } } },
              { "from": "start", "on": "ask", "to": "B", "when": { "in": { "k": ["a", "b"] } } },
              { "from": "start", "on": "ask", "to": "C" },
              { "from": "start", "on": "ask", "to": "done", "when": { "has": "k" } } ]
            """#)
        // a: the first row (the second would hold too); b: the second; c: the unguarded third; the fourth never fires.
        #expect(Self.moves(model, try Self.frame(model, after: [])) == ["ask → A {k=a}", "ask → B {k=b}", "ask → C {k=c}"])
        #expect(ModelChecker.verify(model).lint.shadowedRows == ["start.ask→done"])
    }

    @Test func guardsReadPresenceValuesCountersAndConfigAnAbsentKeyEqualingNothing() throws {
        let model = try Self.flow(
            config: #"{ "v": ["p", "q"] }"#,
            data: #"{ "k": { "values": ["a", "b"] }, "n": { "max": 2 } }"#,
            steps: #"""
            { "start": { "emits": {
                "e1": { "when": { "equals": { "k": "a" } } }, "e2": { "when": { "not": { "equals": { "k": "a" } } } },
                "e3": { "when": { "all": [] } }, "e4": { "when": { "any": [] } }, "e5": { "when": { "missing": "k" } },
                "e6": { "when": { "in": { "k": ["a", "b"] } } }, "e7": { "when": { "below": { "n": 1 } } },
                "e8": { "when": { "atLeast": { "n": 0 } } }, "e9": { "when": { "equals": { "v": "q" } } },
                "e10": { "when": { "any": [{ "has": "k" }, { "equals": { "v": "p" } }] } } } },
              "done": {} }
            """#,
            transitions: "[" + (1...10).map { #"{ "from": "start", "on": "e\#($0)", "to": "done" }"# }.joined(separator: ", ") + "]")
        let offered = { (root: Int) in Self.moves(model, try Self.frame(model, root: root, after: [])).map { $0.prefix { $0 != " " } } }
        #expect(try offered(0) == ["e2", "e3", "e5", "e7", "e8", "e10"])
        #expect(try offered(1) == ["e2", "e3", "e5", "e7", "e8", "e9"])
    }

    @Test func countersStartAtZeroStayAtTheirMaxAndClearToZero() throws {
        let model = try Self.flow(
            data: #"{ "n": { "max": 2 } }"#,
            steps: #"{ "start": { "emits": { "inc": { "increment": ["n"] }, "zero": { "clears": ["n"] }, "go": [] } }, "done": {} }"#,
            transitions: #"""
            [ { "from": "start", "on": "inc", "to": "start" }, { "from": "start", "on": "zero", "to": "start" },
              { "from": "start", "on": "go", "to": "done" } ]
            """#)
        let three = try Self.frame(model, after: ["inc", "inc", "inc"])
        #expect(Self.moves(model, three) == ["inc → start {n=2}", "zero → start {n=0}", "go → done {n=2}"])
        // start with n = 0, 1, 2 and done with n = 0, 1, 2.
        #expect(ModelChecker.verify(model).configurations == 6)
    }

    @Test func anOptionalKeyCountsAsUsed() throws {
        let lint = { (optional: String) in
            ModelChecker.verify(try Self.flow(
                steps: #"{ "start": { "emits": { "go": ["hint"] } }, "done": { "optional": \#(optional) } }"#,
                transitions: #"[{ "from": "start", "on": "go", "to": "done" }]"#)).lint.unusedData
        }
        #expect(try lint(#"["hint"]"#) == [])
        #expect(try lint("[]") == ["hint"])
    }

    @Test func anyOfNeedsOneOfItsKeys() throws {
        let model = try Self.flow(
            steps: #"""
            { "start": { "emits": { "password": ["password"], "nothing": [] } },
              "done": { "requires": [{ "anyOf": ["password", "passkey"] }] } }
            """#,
            transitions: #"[{ "from": "start", "on": "password", "to": "done" }, { "from": "start", "on": "nothing", "to": "done" }]"#)
        let violation = try #require(ModelChecker.verify(model).violations.first)
        #expect(violation.site.description == "unmet-requirement@done")
        #expect(violation.message == "done requires one of {password, passkey}, but the data is {}")
        #expect(violation.path.map { $0.event ?? "(start)" } == ["(start)", "nothing"])
    }

    // MARK: Section 1: anywhere

    @Test func anywhereGivesEveryNonTerminalStateButTheExceptedOnesARowAfterItsOwnAndTheNearerHandlerWins() throws {
        let model = try Self.flow(
            success: ["done"], abort: ["gone"],
            data: #"{ "k": {}, "n": { "max": 1 } }"#,
            steps: #"""
            { "start": { "emits": { "go": ["k"] } },
              "a": { "emits": { "next": [] } },
              "b": { "emits": { "next": [], "timeout": [] } },
              "c": { "emits": { "next": [] } },
              "expired": { "emits": { "quit": [] } },
              "done": {}, "gone": {} }
            """#,
            transitions: #"""
            [ { "from": "start", "on": "go", "to": "a" }, { "from": "a", "on": "next", "to": "b" },
              { "from": "b", "on": "next", "to": "c" }, { "from": "b", "on": "timeout", "to": "c" },
              { "from": "c", "on": "next", "to": "done" }, { "from": "c", "on": "timeout", "to": "done" },
              { "from": "expired", "on": "quit", "to": "gone" } ]
            """#,
            anywhere: #"""
            [ { "on": "timeout", "to": "expired", "by": "system", "except": ["start"],
                "when": { "has": "k" }, "increment": ["n"], "clears": ["k"] } ]
            """#)
        // start is excepted, b emits its own timeout, c has its own row, done and gone are terminal: a and expired get the entry.
        let expanded = model.rows.dropFirst(7).map { "\(model.states[$0.from.index]).\(model.events[$0.event.index])→\(model.states[$0.to.index])" }
        #expect(expanded == ["a.timeout→expired", "expired.timeout→expired"])
        #expect(ModelChecker.verify(model).lint.overriddenAnywhere == ["b.timeout", "c.timeout"])
        // The expanded rows are transitions like the declared ones: a.timeout fires; expired.timeout never does (k is gone
        // there). c's own row wins over the entry, but c never emits timeout: that row is dead.
        #expect(ModelChecker.verify(model).lint.deadTransitions == ["expired.timeout", "c.timeout"])
        let coverage = FlowCoverage(graph: ConfigurationGraph(model: model), depth: 4)
        #expect(coverage.transitions.filter { !$0.fired }.map(\.id) == ["c.timeout", "expired.timeout"])
        #expect(coverage.transitions.first { $0.id == "a.timeout" }?.stacks == 1)
        // After the state's own emissions; with the entry's guard, effects, sender and clears.
        let a = try Self.frame(model, after: ["go"])
        #expect(Self.moves(model, a) == ["next → b {k, n=0}", "timeout → expired {n=1}"])
        #expect(model.emissions[a.state].last?.bySystem == true)
        let expired = try Self.frame(model, after: ["go", "timeout"])
        #expect(Self.moves(model, expired) == ["quit → gone {n=1}"])   // its guard no longer holds
    }

    // MARK: Section 2: roots, resets, terminal states

    @Test func theRootsComeInVariantOrderConfigKeysAsDeclaredTheFirstVaryingSlowest() throws {
        let model = try Self.flow(
            config: #"{ "b": ["2", "1"], "a": ["z", "y", "x"] }"#,
            steps: #"{ "start": { "emits": { "go": [] } }, "done": {} }"#,
            transitions: #"[{ "from": "start", "on": "go", "to": "done" }]"#)
        #expect(model.variants.map(Self.variantText) == ["b=2,a=z", "b=2,a=y", "b=2,a=x", "b=1,a=z", "b=1,a=y", "b=1,a=x"])
        // Each root holds its variant's values and nothing else.
        let b = try #require(model.key(named: "b")), a = try #require(model.key(named: "a"))
        #expect(model.roots.map { "\(model.layout.field(b.index, in: $0.values))\(model.layout.field(a.index, in: $0.values))" }
                == ["00", "01", "02", "10", "11", "12"])
        #expect(ModelChecker.verify(model).configurations == 12)
    }

    /// The flow of a reset in two variants: in `bad`, `finish` is never offered, so nothing reaches `done`.
    static func resetFlow() throws -> FlowModel {
        try flow(
            config: #"{ "v": ["good", "bad"] }"#,
            steps: #"""
            { "start": { "emits": { "go": [] } },
              "x": { "emits": { "finish": { "when": { "equals": { "v": "good" } } }, "restart": [] } },
              "done": { "emits": { "signOut": [] } } }
            """#,
            transitions: #"""
            [ { "from": "start", "on": "go", "to": "x" }, { "from": "x", "on": "finish", "to": "done" },
              { "from": "x", "on": "restart", "to": "start", "reset": true },
              { "from": "done", "on": "signOut", "to": "start", "reset": true } ]
            """#)
    }

    @Test func aResetStartsItsOwnVariantAgainAndNoExitIsDecidedPerConfiguration() throws {
        let model = try Self.resetFlow()
        let x = try Self.frame(model, root: 1, after: ["go"])
        #expect(Self.moves(model, x) == ["restart → reset"])
        // If restart led to the good root, x in bad could reach done. It cannot: both bad configurations are no-exit,
        // at the first configuration of each state (start of bad is configuration 1, after start of good).
        #expect(Self.found(model) == ["no-exit@start [v=bad] 0: ", "no-exit@x [v=bad] 1: go"])
        // A reset from a terminal state (sign-out) is not a terminal-exit.
        #expect(!ModelChecker.verify(model).violations.contains { $0.property == .terminalExit })
    }

    @Test func aResetLandsOnARootAlreadyCountedSoItAddsNoStack() throws {
        // Stacks of at most N events: good has [start], [start x], [start x done]; bad has [start], [start x].
        // restart and signOut lead back to a root, counted once as depth 0.
        let graph = ConfigurationGraph(model: try Self.resetFlow())
        let stacks = (0...4).map { FlowCoverage(graph: graph, depth: $0).stacks }
        #expect(stacks == [2, 4, 5, 5, 5])
        #expect(graph.count == 5)
    }

    @Test func countsAreDistinctFramesOverAllVariantsAndDistinctStacksFromEveryRoot() throws {
        // Per variant: start with n = 0, 1, 2 and done with n = 0, 1, 2: 6 configurations, 12 over both variants.
        // Stacks of at most N events per variant: inc^i (i = 0…N) and inc^i go (i = 0…N-1), 2N + 1, so 2(2N + 1) in all:
        // inc at n = 2 pushes start n = 2 again, a longer stack, so no two event sequences give one stack.
        let model = try Self.flow(
            config: #"{ "v": ["p", "q"] }"#,
            data: #"{ "n": { "max": 2 } }"#,
            steps: #"{ "start": { "emits": { "inc": { "increment": ["n"] }, "go": [] } }, "done": {} }"#,
            transitions: #"[{ "from": "start", "on": "inc", "to": "start" }, { "from": "start", "on": "go", "to": "done" }]"#)
        let graph = ConfigurationGraph(model: model)
        #expect(graph.count == 12)
        #expect((0...3).map { FlowCoverage(graph: graph, depth: $0).stacks } == [2, 6, 10, 14])
    }

    @Test func aTerminalStateMayHaveResetRowsButNoOtherWayOutWhateverItsGuards() throws {
        func terminalExit(_ done: String, _ rows: String) throws -> [String] {
            let model = try Self.flow(
                data: #"{ "k": {} }"#,
                steps: #"{ "start": { "emits": { "go": [] } }, "help": { "emits": { "close": [] } }, "done": \#(done) }"#,
                transitions: #"[{ "from": "start", "on": "go", "to": "done" }, { "from": "help", "on": "close", "to": "done" }, \#(rows)]"#)
            return ModelChecker.verify(model).violations.filter { $0.property == .terminalExit }.map(\.message)
        }
        let signOut = #"{ "from": "done", "on": "signOut", "to": "start", "reset": true }"#
        #expect(try terminalExit(#"{ "emits": { "signOut": [] } }"#, signOut) == [])
        #expect(try terminalExit(#"{ "emits": { "signOut": [], "help": [] } }"#, signOut + #", { "from": "done", "on": "help", "to": "help" }"#)
                == ["done is terminal but emits help and has outgoing transitions help → help"])
        // The guard never holds (k is never added): declaring the way out is the defect.
        #expect(try terminalExit(#"{ "emits": { "signOut": [], "help": [] } }"#,
                                 signOut + #", { "from": "done", "on": "help", "to": "help", "when": { "has": "k" } }"#)
                == ["done is terminal but emits help and has outgoing transitions help → help"])
        #expect(try terminalExit(#"{ "emits": { "signOut": [], "help": [] } }"#, signOut)
                == ["done is terminal but emits help"])
    }

    // MARK: Section 2: lint

    @Test func aStateWhoseOnlyMovesAreTheSystemsAndThatTheUserCannotLeaveWaitsOnTheSystem() throws {
        let model = try Self.flow(
            steps: #"""
            { "start": { "emits": { "probe": { "by": "system" } } },
              "spin": { "back": false, "emits": { "answer": { "by": "system" } } },
              "spinWithBack": { "emits": { "answer": { "by": "system" } } },
              "spinWithCancel": { "back": false, "emits": { "answer": { "by": "system" }, "cancel": [] } },
              "done": {} }
            """#,
            transitions: #"""
            [ { "from": "start", "on": "probe", "to": "spin" }, { "from": "spin", "on": "answer", "to": "spinWithBack" },
              { "from": "spinWithBack", "on": "answer", "to": "spinWithCancel" },
              { "from": "spinWithCancel", "on": "answer", "to": "done" }, { "from": "spinWithCancel", "on": "cancel", "to": "done" } ]
            """#)
        // start allows back but is the first screen: there is nothing to go back to.
        #expect(ModelChecker.verify(model).lint.waitsOnSystem == ["start", "spin"])
    }

    @Test func aRowAfterOneThatAlwaysHoldsIsShadowedAndARowThatNeverHoldsIsDead() throws {
        let model = try Self.flow(
            data: #"{ "k": {}, "v": { "values": ["a", "b"] } }"#,
            steps: #"""
            { "start": { "emits": { "go": ["k"] } },
              "s": { "emits": { "next": [], "ask": { "adds": ["v"] } } },
              "A": { "emits": { "end": [] } }, "B": { "emits": { "end": [] } }, "done": {} }
            """#,
            transitions: #"""
            [ { "from": "start", "on": "go", "to": "s" },
              { "from": "s", "on": "next", "to": "A", "when": { "has": "k" } },
              { "from": "s", "on": "next", "to": "B" },
              { "from": "s", "on": "ask", "to": "A", "when": { "equals": { "v": "a" } } },
              { "from": "s", "on": "ask", "to": "B", "when": { "equals": { "v": "b" } } },
              { "from": "s", "on": "ask", "to": "done" },
              { "from": "A", "on": "end", "to": "done" }, { "from": "B", "on": "end", "to": "done", "when": { "missing": "k" } },
              { "from": "B", "on": "end", "to": "done" } ]
            """#)
        let lint = ModelChecker.verify(model).lint
        // k is always present at s: next never reaches B; ask's two values both match before the fallback.
        #expect(lint.shadowedRows == ["s.next→B", "s.ask→done"])
        // B.end's first row never holds and no earlier row fires: it is dead, not shadowed.
        #expect(lint.deadTransitions == ["B.end→done"])
    }

    // MARK: Section 2: shortest counterexamples

    @Test func theShortestCounterexampleIsFoundBreadthFirstAcrossVariants() throws {
        // `hole` requires `token`, which no event adds. In variant slow it is two events away; in fast, one.
        // `deep` is two events away in both: the tie goes to the first variant.
        let model = try Self.flow(
            config: #"{ "speed": ["slow", "fast"] }"#,
            steps: #"""
            { "start": { "emits": { "shortcut": { "when": { "equals": { "speed": "fast" } } }, "walk": [], "end": [] } },
              "middle": { "emits": { "on": [], "down": [], "end": [] } },
              "hole": { "requires": ["token"], "emits": { "end": [] } },
              "deep": { "requires": ["token"], "emits": { "end": [] } },
              "done": {} }
            """#,
            transitions: #"""
            [ { "from": "start", "on": "shortcut", "to": "hole" }, { "from": "start", "on": "walk", "to": "middle" },
              { "from": "start", "on": "end", "to": "done" },
              { "from": "middle", "on": "on", "to": "hole" }, { "from": "middle", "on": "down", "to": "deep" },
              { "from": "middle", "on": "end", "to": "done" },
              { "from": "hole", "on": "end", "to": "done" }, { "from": "deep", "on": "end", "to": "done" } ]
            """#)
        #expect(Self.found(model) == ["unmet-requirement@hole [speed=fast] 1: shortcut", "unmet-requirement@deep [speed=slow] 2: walk down"])
    }

    @Test func theShortestCounterexampleTakesTheEarlierEventAndTheEarlierBranch() throws {
        // Two events reach `hole` in one step, the first declared one is shown; `ask` reaches `pit` by two of
        // its three values, the first in domain order is shown.
        let model = try Self.flow(
            data: #"{ "k": { "values": ["c", "b", "a"] } }"#,
            steps: #"""
            { "start": { "emits": { "left": [], "right": [], "ask": { "adds": ["k"] } } },
              "hole": { "requires": ["token"], "emits": { "end": [] } },
              "pit": { "requires": ["token"], "emits": { "end": [] } },
              "done": {} }
            """#,
            transitions: #"""
            [ { "from": "start", "on": "right", "to": "hole" }, { "from": "start", "on": "left", "to": "hole" },
              { "from": "start", "on": "ask", "to": "done", "when": { "equals": { "k": "c" } } },
              { "from": "start", "on": "ask", "to": "pit" },
              { "from": "hole", "on": "end", "to": "done" }, { "from": "pit", "on": "end", "to": "done" } ]
            """#)
        let violations = ModelChecker.verify(model).violations
        #expect(Self.found(model) == ["unmet-requirement@hole [] 1: left", "unmet-requirement@pit [] 1: ask"])
        #expect(violations.last?.path.last?.values == ["k": "b"])
    }

    // MARK: Section 2 and 3: what a report shows

    @Test func aViolationNamesItsVariantAndEachStepItsValuesAndSecretsStayRedacted() throws {
        let model = try Self.load("""
        { "format": "authflow/2", "initial": "start", "success": ["done"], "abort": [], "secrets": ["code"],
          "config": { "mfa": ["off", "on"] },
          "data": { "code": { "values": ["123456", "654321"] }, "tries": { "max": 2 } },
          "steps": { "start": { "emits": { "send": { "adds": ["code"], "by": "system" } } },
                     "verify": { "emits": { "wrong": { "increment": ["tries"] } } },
                     "done": { "requires": ["session"] } },
          "transitions": [ { "from": "start", "on": "send", "to": "verify", "when": { "equals": { "mfa": "on" } } },
                           { "from": "start", "on": "send", "to": "done" },
                           { "from": "verify", "on": "wrong", "to": "done" } ] }
        """)
        let violation = try #require(ModelChecker.verify(model).violations.first)
        #expect(violation.site.description == "unmet-requirement@done")
        #expect(violation.variant == [FlowSpec.KeyValue("mfa", "off")])
        #expect(violation.path.frames == [
            PathStep(event: nil, state: "start", data: ["tries"], values: ["tries": "0"]),
            PathStep(event: "send", state: "done", data: ["code", "tries"], values: ["code": "<redacted>", "tries": "0"]),
        ])
        let text = CounterexampleRenderer.render(violation, number: 1, replay: nil, secrets: ["code"])
        #expect(text == """
        1) unmet-requirement at done — 1 step
           done requires session, but the data is {code=<redacted>, tries=0, mfa=off}
           variant: mfa=off
               (start)  → start  {tries=0}
         ✗  1. send     → done   +code=<redacted>   ← unmet-requirement
                                 {code=<redacted>, tries=0}
        """)
        let json = ReportRenderer.violationJSON(violation, secrets: ["code"])
        #expect(json.rendered(pretty: false) == #"{"property":"unmet-requirement","state":"done","event":null,"#
                + #""message":"done requires session, but the data is {code=<redacted>, tries=0, mfa=off}","variant":{"mfa":"off"},"path":["#
                + #"{"event":null,"state":"start","data":["tries"],"values":{"tries":"0"}},"#
                + #"{"event":"send","state":"done","data":["code","tries"],"values":{"code":"<redacted>","tries":"0"}}]}"#)
    }

    @Test func aVersion1ViolationHasNoVariant() throws {
        let model = try Self.load("""
        { "format": "authflow/1", "initial": "start", "success": ["done"], "abort": [],
          "steps": { "start": { "emits": { "go": [] } }, "done": { "requires": ["session"] } },
          "transitions": [ { "from": "start", "on": "go", "to": "done" } ] }
        """)
        let violation = try #require(ModelChecker.verify(model).violations.first)
        #expect(violation.variant == nil)
        #expect(violation.path.allSatisfy { $0.values == nil })
    }
}
