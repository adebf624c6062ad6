import AuthFlow
@testable import AuthFlowChecker
import Testing

/// The session's non-throwing send, which the lockstep walk drives: it accepts and refuses exactly
/// what the throwing send does and leaves the same frame behind.
@Suite struct SessionTrySendTests {
    /// The values a step may send for `key`: each value of a valued key's domain and one outside it; a token otherwise.
    static func candidates(_ model: FlowModel, _ key: KeyID) -> [FlowValue] {
        let domain = model.layout.domains[key.index]
        return domain.isEmpty ? [.int(7)] : domain.map(FlowValue.string) + [.string("not-a-declared-value")]
    }

    /// Whether two sessions are at the same frame: state, history height and every key's value.
    static func same(_ a: FlowSession<StateID, EventID, KeyID, FlowValue>, _ b: FlowSession<StateID, EventID, KeyID, FlowValue>,
                     _ model: FlowModel) -> Bool {
        a.state == b.state && a.machine.historyCount == b.machine.historyCount
            && (0..<model.keys.count).allSatisfy { a.value(KeyID(Int32($0))) == b.value(KeyID(Int32($0))) }
    }

    /// Seeded walks over every variant of `authflow/2` fixtures with guards on their steps and rows: at
    /// every frame every event, with every candidate value for each key it adds, goes to one session by
    /// `trySend` and to another by the throwing `send`; they must agree on each answer and on the frame
    /// after it (undone when accepted).
    @Test(arguments: ["sign-in", "contract-example", "promela-lockout-deadlock", "promela-unanswered-answer", "promela-rules", "no-row"],
          [1, 2] as [UInt64])
    func trySendAnswersAsTheThrowingSendDoes(fixture: String, seed: UInt64) throws {
        let model = fixture == "no-row" ? try Self.noRowFlow() : try Version2SemanticsTests.fixture(fixture)
        var random = seed
        func next(_ bound: Int) -> Int {
            random = random &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((random >> 33) % UInt64(bound))
        }
        var refused = 0, accepted = 0
        for variant in model.roots.indices {
            let fast = model.makeSession(variant: variant), thrown = model.makeSession(variant: variant)
            for _ in 0..<12 {
                var moves: [(EventID, KeyID?, FlowValue?)] = []
                for e in model.events.indices {
                    let event = EventID(Int32(e))
                    let valued = (0..<model.keys.count).map { KeyID(Int32($0)) }.filter { !model.layout.domains[$0.index].isEmpty }
                    // Each candidate for one valued key at a time (the others at their first value), and tokens alone.
                    var trials: [(KeyID?, FlowValue?)] = [(nil, nil)]
                    for key in valued { trials += Self.candidates(model, key).map { (key, $0) } }
                    for (key, value) in trials {
                        let send: (KeyID) -> FlowValue = { k in
                            if k == key, let value { return value }
                            return Self.candidates(model, k)[0]
                        }
                        let a = fast.trySend(event, value: send)
                        let b = (try? thrown.send(event, value: send)) != nil
                        #expect(a == b, "variant \(variant) event \(model.events[e]) key \(key.map { model.keys[$0.index] } ?? "-")")
                        #expect(Self.same(fast, thrown, model))
                        if a && b {
                            accepted += 1
                            moves.append((event, key, value))
                            _ = try? fast.undo()
                            _ = try? thrown.undo()
                            #expect(Self.same(fast, thrown, model))
                        } else {
                            refused += 1
                        }
                    }
                }
                guard !moves.isEmpty else { break }
                let (event, key, value) = moves[next(moves.count)]
                let send: (KeyID) -> FlowValue = { k in k == key ? value ?? Self.candidates(model, k)[0] : Self.candidates(model, k)[0] }
                #expect(fast.trySend(event, value: send) == ((try? thrown.send(event, value: send)) != nil))
                #expect(Self.same(fast, thrown, model))
            }
        }
        #expect(refused > 0 && accepted > 0)
    }

    /// A flow where one branch of an offered event has no row: `pick` with `v = y` is refused.
    static func noRowFlow() throws -> FlowModel {
        try Version2SemanticsTests.flow(
            data: #"{ "v": { "values": ["x", "y"] } }"#,
            steps: #"{ "start": { "emits": { "pick": { "adds": ["v"] } } }, "done": {} }"#,
            transitions: #"[ { "from": "start", "on": "pick", "to": "done", "when": { "equals": { "v": "x" } } } ]"#)
    }

    /// A tracked session's refusals still reach its tracker: `trySend` takes the throwing path for it.
    @Test func aTrackedSessionsRefusalsAreRecorded() throws {
        let model = try Version2Tests.load(Version2Tests.fixture())
        let tracker = FlowTracker(sessionID: "s1")
        let session = model.makeSession(tracker: tracker)
        let refusedEvent = try #require(model.events.indices.map { EventID(Int32($0)) }.first { !session.canHandle($0) })
        #expect(!session.trySend(refusedEvent) { _ in .int(1) })
        #expect(tracker.events.contains { $0.kind == .rejection })
    }
}
