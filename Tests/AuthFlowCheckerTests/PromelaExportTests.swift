import FlowGenerators
import AuthFlow
@testable import AuthFlowChecker
import Foundation
import Testing

/// The Promela export: SPIN stores one state per configuration (or per stack, with a depth) plus its initial state.
@Suite struct PromelaExportTests {
    // MARK: The text

    static let version1Example = """
    { "format": "authflow/1", "initial": "start", "success": ["done"], "abort": ["quit"],
      "steps": { "start": { "back": false, "emits": { "go": ["email"], "stray": [] } },
                 "form": { "requires": ["email"], "emits": { "submit": ["token"], "quit": [] } },
                 "done": { "requires": ["token"] }, "quit": {} },
      "transitions": [ { "from": "start", "on": "go", "to": "form" }, { "from": "form", "on": "submit", "to": "done" },
                       { "from": "form", "on": "quit", "to": "quit" } ] }
    """

    @Test func everyLegalMoveIsOnePushAndBackIsOnePopWhereTheSpecAllowsIt() throws {
        let model = try SpecLoader.load(json: Self.version1Example)
        let text = PromelaExporter.export(model, depth: 5)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(lines.contains("#define DEPTH 5"))
        // stray has no row: start's illegal transition is asserted on the root frame, as on every frame entered in start.
        #expect(lines.contains("    d_step { st[0] = 0; assert(illegal_transition) }   /* the root frame: (start, {}) */"))
        // One push per legal move, asserting the target's requires.
        let pushes = lines.filter { $0.contains("sp++") }
        #expect(pushes == [
            "    :: d_step { st[sp] == 0 && sp < DEPTH -> sp++; st[sp] = 1; kd0[sp] = kd0[sp - 1] | 1; assert(unmet_requirement || (kd0[sp] & 1) == 1) }",
            "    :: d_step { st[sp] == 1 && sp < DEPTH -> sp++; st[sp] = 2; kd0[sp] = kd0[sp - 1] | 2; assert(unmet_requirement || (kd0[sp] & 2) == 2) }",
            "    :: d_step { st[sp] == 1 && sp < DEPTH -> sp++; st[sp] = 3; kd0[sp] = kd0[sp - 1] }",
        ])
        // Back only from `form`: start has back false, done and quit are terminal. The popped slot is zeroed.
        let pops = lines.filter { $0.contains("sp--") }
        #expect(pops == ["    :: d_step { sp > 0 && (st[sp] == 1) -> st[sp] = 0; kd0[sp] = 0; sp-- }"])
        // Every end state is valid: back and the bound stop the process anywhere.
        #expect(lines.contains("end:"))
        #expect(lines.contains("hidden byte illegal_transition, unmet_requirement;   /* always 0: a failed assertion names its property */"))
        #expect(text.contains("states stored = stacks + 1"))
    }

    @Test func theConfigurationsModelRewritesOneFrameAndOnlyTerminalStatesMayStop() throws {
        let model = try SpecLoader.load(json: Self.version1Example)
        let text = PromelaExporter.export(model, space: .configurations)
        let lines = text.split(separator: "\n").map(String.init)
        #expect(!text.contains("DEPTH") && !text.contains("[sp]") && !lines.contains("end:"))
        #expect(lines.contains("byte st;   /* the state */"))
        #expect(lines.contains("    d_step { st = 0; assert(illegal_transition) }   /* the root frame: (start, {}) */"))
        let moves = lines.filter { $0.hasPrefix("    :: ") }
        #expect(moves == [
            "    :: d_step { st == 0 -> st = 1; kd0 = kd0 | 1; assert(unmet_requirement || (kd0 & 1) == 1) }",
            "    :: d_step { st == 1 -> st = 2; kd0 = kd0 | 2; assert(unmet_requirement || (kd0 & 2) == 2) }",
            "    :: d_step { st == 1 -> st = 3 }",
            // No back; a terminal state waits, so only a non-terminal frame with no move is an invalid end state.
            "    :: st == 2 || st == 3",
        ])
        #expect(text.contains("states stored = configurations + 1"))
    }

    /// Variants, a valued answer, first-match rows, a counter, clears, a reset and an `anywhere` row.
    static let version2Example = """
    { "format": "authflow/2", "initial": "start", "success": ["done"], "abort": ["quit"],
      "config": { "region": ["eu", "us"] },
      "data": { "answer": { "values": ["yes", "no"] }, "tries": { "max": 2 } },
      "steps": { "start": { "back": false, "emits": { "ask": { "adds": ["answer"], "by": "system" } } },
                 "form": { "emits": { "retry": { "increment": ["tries"], "clears": ["answer"] } } },
                 "done": { "emits": { "signOut": [] } }, "quit": {} },
      "transitions": [
        { "from": "start", "on": "ask", "to": "done", "when": { "all": [{ "equals": { "answer": "yes" } }, { "equals": { "region": "eu" } }] } },
        { "from": "start", "on": "ask", "to": "form", "when": { "equals": { "answer": "no" } } },
        { "from": "form", "on": "retry", "to": "start", "when": { "below": { "tries": 2 } } },
        { "from": "done", "on": "signOut", "to": "start", "reset": true } ],
      "anywhere": [ { "on": "giveUp", "to": "quit", "except": ["start"] } ] }
    """

    @Test func aVersion2FlowIsWrittenFromItsCompiledEmissions() throws {
        let model = try SpecLoader.load(json: Self.version2Example)
        let lines = PromelaExporter.export(model, space: .configurations).split(separator: "\n").map(String.init)
        // Keys: answer 0 and tries 1 (data, in order), then region 2 (config). Each value or count is a byte.
        #expect(lines.contains("byte v0;   /* answer: the index of its value (0 yes, 1 no), 0 when absent */"))
        #expect(lines.contains("byte v1;   /* tries: a counter, 0...2 */"))
        #expect(lines.contains("byte v2;   /* config region: the index of its value (0 eu, 1 us), 0 when absent */"))
        // One root per variant, chosen once, in variant order; start's illegal ask (answer yes outside eu) checked on each.
        let start = try #require(lines.firstIndex(of: "    if   /* one root per variant, in variant order: the flow is checked in every one */"))
        #expect(Array(lines[start + 1...start + 3]) == [
            "    :: d_step { st = 0; kd0 = 4; assert(illegal_transition || ((kd0 & 4) != 0 && v2 == 0)); assert(v0 < 2 && v1 <= 2 && v2 < 2) }   /* (start, {region=eu}) */",
            "    :: d_step { st = 0; kd0 = 4; v2 = 1; assert(illegal_transition || ((kd0 & 4) != 0 && v2 == 0)); assert(v0 < 2 && v1 <= 2 && v2 < 2) }   /* (start, {region=us}) */",
            "    fi;",
        ])
        let moves = lines.drop { $0 != "    do" }.dropFirst().prefix { $0 != "    od" }
        #expect(Array(moves) == [
            // One option per value of the answer; the guard is the first row's, with the value it just took folded in.
            "    /* start --ask, answer=yes--> done */",
            "    :: d_step { st == 0 && (kd0 & 4) != 0 && v2 == 0 -> st = 2; kd0 = kd0 | 1; v0 = 0 }",
            "    /* start --ask, answer=no--> form */",
            "    :: d_step { st == 0 -> st = 1; kd0 = kd0 | 1; v0 = 1; assert(illegal_transition || v1 < 1) }",
            // Cleared, then counted: the row's guard is on the count after the increment, capped at max.
            "    /* form --retry--> start */",
            "    :: d_step { st == 1 && v1 < 1 -> st = 0; kd0 = kd0 & 6; v0 = 0; v1 = (v1 + 1 > 2 -> 2 : v1 + 1); assert(illegal_transition || ((kd0 & 4) != 0 && v2 == 0)) }",
            // The anywhere row, as the model expanded it for form alone (start excepted, done and quit terminal).
            "    /* form --giveUp--> quit */",
            "    :: d_step { st == 1 -> st = 3 }",
            // A reset keeps only the variant's config values.
            "    /* done --signOut--> start (reset) */",
            "    :: d_step { st == 2 -> st = 0; kd0 = kd0 & 4; v0 = 0; v1 = 0 }",
            "    /* a terminal state ends the flow: it waits here, so pan never calls it an invalid end state */",
            "    :: st == 2 || st == 3",
        ])
    }

    @Test func onTheStackAResetPopsEveryFrameAndAPushCopiesEveryField() throws {
        let model = try SpecLoader.load(json: Self.version2Example)
        let lines = PromelaExporter.export(model, space: .stacks(depth: 3)).split(separator: "\n").map(String.init)
        #expect(lines.contains("    :: d_step { st[sp] == 2 && sp < DEPTH -> restart() }"))
        let restart = try #require(lines.firstIndex { $0.hasPrefix("inline restart()") })
        #expect(Array(lines[restart + 1...restart + 5]) == [
            "    st[1] = 0; kd0[1] = 0; v0[1] = 0; v1[1] = 0; v2[1] = 0;",
            "    st[2] = 0; kd0[2] = 0; v0[2] = 0; v1[2] = 0; v2[2] = 0;",
            "    st[3] = 0; kd0[3] = 0; v0[3] = 0; v1[3] = 0; v2[3] = 0;",
            "    sp = 0",
            "}",
        ])
        #expect(lines.contains(
            "    :: d_step { st[sp] == 1 && sp < DEPTH -> sp++; st[sp] = 3; kd0[sp] = kd0[sp - 1]; v0[sp] = v0[sp - 1]; v1[sp] = v1[sp - 1]; v2[sp] = v2[sp - 1] }"))
        #expect(lines.contains("    :: d_step { sp > 0 && (st[sp] == 1) -> st[sp] = 0; kd0[sp] = 0; v0[sp] = 0; v1[sp] = 0; v2[sp] = 0; sp-- }"))
    }

    @Test func rowsAreTriedInDeclarationOrderAndTheFirstThatHoldsFires() throws {
        let model = try SpecLoader.load(json: """
        { "format": "authflow/2", "initial": "start", "success": ["a", "b", "c"], "abort": [],
          "data": { "n": { "max": 3 } },
          "steps": { "start": { "emits": { "count": { "increment": ["n"] }, "go": [] } }, "a": {}, "b": {}, "c": {} },
          "transitions": [ { "from": "start", "on": "count", "to": "start" },
                           { "from": "start", "on": "go", "to": "a", "when": { "atLeast": { "n": 2 } } },
                           { "from": "start", "on": "go", "to": "b", "when": { "atLeast": { "n": 1 } } },
                           { "from": "start", "on": "go", "to": "c" },
                           { "from": "start", "on": "go", "to": "a", "when": { "below": { "n": 1 } } } ] }
        """)
        let text = PromelaExporter.export(model, space: .configurations)
        // The last row after an unguarded one never fires, and is not written.
        #expect(text.contains("""
            /* start --go--> the first row that holds: a, b, c */
            :: d_step { st == 0 ->
                if
                :: v0 >= 2 -> st = 1
                :: else ->
                   if
                   :: v0 >= 1 -> st = 2
                   :: else -> st = 3
                   fi
                fi }
        """))
    }

    @Test func guardsFoldWhatTheEffectsWrote() {
        typealias E = PromelaExpression
        let a = E.test("a == 1", negated: "a != 1"), b = E.test("b == 1", negated: "b != 1")
        #expect(E.all(of: [a, .true, b]).text == "a == 1 && b == 1")
        #expect(E.all(of: [a, .false]) == .false)
        #expect(E.any(of: [a, .true]) == .true)
        #expect(E.any(of: [.false, .false]) == .false)
        #expect(E.any(of: [a, .all(of: [a, b]), a]).text == "a == 1 || (a == 1 && b == 1)")
        #expect(E.all(of: [a, .any(of: [b, a])]).negated.text == "a != 1 || (b != 1 && a != 1)")
    }

    /// A flow whose first step adds any one of `keys` keys, so every key's bit is set within two events.
    static func wide(keys: Int) throws -> FlowModel {
        try FlowModel(spec: FlowSpec(
            name: "wide", initial: "pick", success: ["done"], abort: [],
            steps: [
                FlowSpec.Step("pick", emits: (0..<keys).map { FlowSpec.Emission("pick\($0)", adds: ["k\($0)"]) }),
                FlowSpec.Step("review", emits: [FlowSpec.Emission("again", adds: ["k\(keys - 1)"]), FlowSpec.Emission("finish")]),
                FlowSpec.Step("done"),
            ],
            transitions: (0..<keys).map { FlowSpec.TransitionRow(from: "pick", on: "pick\($0)", to: "review") }
                + [FlowSpec.TransitionRow(from: "review", on: "again", to: "review"),
                   FlowSpec.TransitionRow(from: "review", on: "finish", to: "done")]))
    }

    @Test(arguments: [(1, "byte", 1), (8, "byte", 1), (9, "short", 1), (15, "short", 1), (16, "int", 1), (31, "int", 1),
                      (32, "int", 2), (63, "int", 3), (64, "int", 3)])
    func dataKeysTakeTheSmallestWordsThatHoldThem(_ keys: Int, _ type: String, _ words: Int) throws {
        let model = try Self.wide(keys: keys)
        let layout = PromelaExporter.Layout(model: model, depth: 3)
        #expect(layout.wordType == type)
        #expect(layout.words == words)
        let text = PromelaExporter.export(model, depth: 3)
        #expect(text.contains("\(type) kd\(words - 1)[DEPTH + 1];"))
        #expect(!text.contains("kd\(words)[DEPTH + 1]"))
        // Every bit of every key set lands in exactly one word, and no word is negative.
        for state in 0..<model.stateCount {
            for move in model.moves[state] {
                var rebuilt: UInt64 = 0
                for word in 0..<layout.words {
                    let bits = layout.word(word, of: move.adds)
                    #expect(bits < 1 << UInt64(layout.bitsPerWord))
                    rebuilt |= bits << UInt64(word * layout.bitsPerWord)
                }
                #expect(rebuilt == move.adds.bits)
            }
        }
    }

    @Test func namesCannotCloseAComment() {
        #expect(PromelaExporter.comment("a*/b/*c\nd") == "a* /b/ *c d")
    }

    // MARK: Back-only screens

    /// A help screen, reached from two screens, whose only way on is back: marked back-only or not.
    static func helpScreen(backOnly: Bool) throws -> FlowModel {
        try SpecLoader.load(json: """
        { "format": "authflow/2", "initial": "start", "success": ["home"], "abort": [],
          "steps": { "start": { "back": false, "emits": { "begin": [], "help": [] } }, "help": { \(backOnly ? "\"backOnly\": true" : "") },
                     "signIn": { "emits": { "accepted": [], "help": [] } }, "home": {} },
          "transitions": [ { "from": "start", "on": "begin", "to": "signIn" }, { "from": "start", "on": "help", "to": "help" },
                           { "from": "signIn", "on": "help", "to": "help" }, { "from": "signIn", "on": "accepted", "to": "home" } ] }
        """)
    }

    @Test func aBackOnlyScreenWaitsAmongTheConfigurationsAndIsPoppedOnTheStack() throws {
        let marked = try Self.helpScreen(backOnly: true), unmarked = try Self.helpScreen(backOnly: false)
        // States: 0 start, 1 help, 2 signIn, 3 home. Among the configurations a back-only screen waits like a
        // terminal state, so it is no invalid end state; unmarked, it is one: a deadlock.
        let waits = { (model: FlowModel) in
            PromelaExporter.export(model, space: .configurations).split(separator: "\n").filter { $0.hasPrefix("    :: st == ") }
        }
        #expect(waits(marked) == ["    :: st == 1 || st == 3"])
        #expect(waits(unmarked) == ["    :: st == 3"])
        // On the stack help allows back either way, so back pops it, as from any screen that allows it; unmarked, a
        // frame entered in help is asserted to have a move (the checker's deadlock), and that is all the mark changes.
        let stacks = PromelaExporter.export(marked, depth: 4)
        let unmarkedStacks = PromelaExporter.export(unmarked, depth: 4)
        #expect(unmarkedStacks.contains("; assert(deadlock)"))
        // The markers' declaration names the properties asserted: deadlock only where it is.
        let withoutMarkers = { (text: String) in text.split(separator: "\n").filter { !$0.hasPrefix("hidden byte") } }
        #expect(withoutMarkers(stacks) == withoutMarkers(unmarkedStacks.replacingOccurrences(of: "; assert(deadlock)", with: "")))
        #expect(stacks.contains("    :: d_step { sp > 0 && (st[sp] == 1 || st[sp] == 2) -> st[sp] = 0; kd0[sp] = 0; sp-- }\n"))
    }

    @Test(.enabled(if: Spin.isInstalled, Comment(rawValue: Spin.absent)), arguments: [true, false])
    func spinCallsOnlyAnUnmarkedHelpScreenADeadlock(_ backOnly: Bool) throws {
        let model = try Self.helpScreen(backOnly: backOnly)
        let graph = ConfigurationGraph(model: model, edges: false)
        let checked = Set(ModelChecker.verify(graph).violations.map(\.property))
        #expect(checked == (backOnly ? [] : [.deadlock]))
        let configurations = try Spin.run(PromelaExporter.export(model, space: .configurations), searchDepth: graph.count + 10,
                                          expectedStates: graph.count)
        #expect(configurations.violated == checked && configurations.stored == graph.count + 1, "\(configurations.output)")
        // The stacks at depth 4, help popped back to start or signIn: the runtime walk, the count and SPIN agree, and no error.
        let walked = RuntimeExplorer(model: model).explore(SessionDriver(model: model), depth: 4)
        #expect(walked.stacks == RuntimeExplorer(model: model).countStacks(depth: 4))
        try Self.expectSpinAgreesOnTheStacks(model, depth: 4, "help, backOnly \(backOnly)")
    }

    // MARK: SPIN agrees on the count

    static let cases: [(String, Int)] = Files.specs.flatMap { path in [0, 1, 4, 9].map { (path, $0) } }
        + ["mfa-bypass", "unmet-requirement", "illegal-transition", "terminal-exit", "deadlock"].map { (Files.broken($0), 6) }

    @Test(.enabled(if: Spin.isInstalled, Comment(rawValue: Spin.absent)), arguments: cases)
    func spinStoresOneStatePerStackPlusItsInitialState(_ path: String, _ depth: Int) throws {
        let model = try Files.model(path)
        let stacks = RuntimeExplorer(model: model).countStacks(depth: depth)
        let walk = RuntimeExplorer(model: model).explore(SessionDriver(model: model), depth: depth)
        #expect(walk.stacks == stacks)
        // Section 5's server-side keys and in-place updates: SPIN must agree on verdicts (Section5HistoryPromelaTests),
        // not on a count of stacks its own model of history does not share.
        guard !model.stacksAreHistories else { return }
        try Self.expectSpinAgreesOnTheStacks(model, depth: depth, path)
    }

    /// Every `/2` fixture at two depths, and the example above.
    static let version2Cases: [(String, Int)] = Files.version2.flatMap { path in [2, 7].map { (path, $0) } } + [("", 6)]

    @Test(.enabled(if: Spin.isInstalled, Comment(rawValue: Spin.absent)), arguments: version2Cases)
    func spinStoresOneStatePerStackOfAVersion2Flow(_ path: String, _ depth: Int) throws {
        let model = try path.isEmpty ? SpecLoader.load(json: Self.version2Example) : Files.model(path)
        // The lockstep walk drives the runtime through the same stacks.
        #expect(RuntimeExplorer(model: model).explore(SessionDriver(model: model), depth: depth).stacks
                == RuntimeExplorer(model: model).countStacks(depth: depth))
        try Self.expectSpinAgreesOnTheStacks(model, depth: depth, path)
    }

    @Test(.enabled(if: Spin.isInstalled, Comment(rawValue: Spin.absent)))
    func spinStoresOneStatePerConfigurationOfTheExample() throws {
        let model = try SpecLoader.load(json: Self.version2Example)
        let graph = ConfigurationGraph(model: model, edges: false)
        let run = try Spin.run(PromelaExporter.export(model, space: .configurations), searchDepth: graph.count + 10, expectedStates: graph.count)
        #expect(run.stored == graph.count + 1)
        #expect(run.violated == [.illegalTransition])
    }

    @Test(.enabled(if: Spin.isInstalled, Comment(rawValue: Spin.absent)))
    func aFlowWithNoMoveAtAllStillCompiles() throws {
        let model = try SpecLoader.load(json: """
        { "format": "authflow/1", "initial": "start", "success": ["done"], "abort": [],
          "steps": { "start": { "back": false }, "done": {} }, "transitions": [] }
        """)
        // On the stack the root is asserted to have a move, as the checker decides deadlock: back never hides it.
        let stacks = try Spin.run(PromelaExporter.export(model, depth: 3), searchDepth: 13, expectedStates: 1)
        #expect(stacks.stored == 2 && stacks.violated == [.deadlock])
        let configurations = try Spin.run(PromelaExporter.export(model, space: .configurations), searchDepth: 10, expectedStates: 1)
        #expect(configurations.stored == 2 && configurations.violated == [.deadlock])
    }

    /// SPIN stores one state per stack plus one; its assertions fail for exactly the properties whose shortest counterexample fits in `depth`.
    static func expectSpinAgreesOnTheStacks(_ model: FlowModel, depth: Int, _ path: String) throws {
        let stacks = RuntimeExplorer(model: model).countStacks(depth: depth)
        let stated = PromelaExporter.properties(of: model)
        let run = try Spin.run(PromelaExporter.export(model, depth: depth), stating: stated, searchDepth: depth + 10, expectedStates: stacks)
        #expect(run.stored == stacks + 1, "\(path) at depth \(depth)")
        // Back, or the bound, always leaves the process a way on, so a deadlock is an assertion on the frame entered,
        // like the other built-in properties and the spec's always and never rules.
        let asserted = Set(stated)
        let within = ModelChecker.verify(model).violations.filter { asserted.contains($0.property) && $0.path.count - 1 <= depth }
        #expect(run.violated == Set(within.map(\.property)), "\(path) at depth \(depth)\n\(run.output)")
    }

    @Test(.enabled(if: Spin.isInstalled, Comment(rawValue: Spin.absent)),
          arguments: [9, 40, 64])
    func spinAgreesWhenTheDataTakesSeveralWords(_ keys: Int) throws {
        let model = try Self.wide(keys: keys)
        let stacks = RuntimeExplorer(model: model).countStacks(depth: 4)
        #expect(try Spin.statesStored(PromelaExporter.export(model, depth: 4), depth: 4) == stacks + 1)
    }

    @Test(.enabled(if: Spin.isInstalled, Comment(rawValue: Spin.absent)))
    func spinAgreesOnAGeneratedFlowOfHundredsOfStates() throws {
        let model = try FlowModel(spec: SyntheticFlow.make(states: 300, keys: 16, seed: 4))
        let stacks = RuntimeExplorer(model: model).countStacks(depth: 6)
        #expect(try Spin.statesStored(PromelaExporter.export(model, depth: 6), depth: 6) == stacks + 1)
    }
}
