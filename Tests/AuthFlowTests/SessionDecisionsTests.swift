@testable import AuthFlow
import Testing

/// A session decides each frame's moves once and keeps where those decisions are in the frame itself (and in the
/// branch that pushed it); past its capacity it forgets every decision and starts a new set. A session that forgets
/// after every few frames must answer exactly as one that never forgets, whatever it is sent and undone.
@Suite struct SessionDecisionsTests {
    /// A small deterministic generator (SplitMix64), so a failure replays.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test(arguments: [3, 7])
    func aSessionThatForgetsItsDecisionsAnswersAsOneThatKeepsThem(capacity: Int) throws {
        var checkedFlows = 0, forgetfulFlows = 0
        for path in SpecLoaderTests.specs {
            let model = try SpecLoader.load(file: path)
            guard !model.isStatic else { continue }
            checkedFlows += 1
            let keeping = model.makeSession(), forgetting = model.makeSession()
            let rules = try #require(forgetting._rules)
            rules.moves.decisionCapacity = capacity
            var generator = Generator(state: UInt64(checkedFlows * 1_000 + capacity))
            for step in 0..<5_000 {
                if generator.next() % 4 == 0 {
                    let kept = (try? keeping.undo()) != nil, forgot = (try? forgetting.undo()) != nil
                    #expect(kept == forgot, "\(path) step \(step): undo")
                } else {
                    // Mostly an event the step emits (offered or not), sometimes any event.
                    let emitted = model.emissions[keeping.state.index].map(\.event)
                    let event = emitted.isEmpty || generator.next() % 5 == 0
                        ? EventID(Int32(generator.next() % UInt64(model.events.count)))
                        : emitted[Int(generator.next() % UInt64(emitted.count))]
                    // The same value for both sessions: a valued key's domain value, a token otherwise.
                    let pick = generator.next()
                    let value: (KeyID) -> FlowValue = { key in
                        let domain = model.layout.domains[key.index]
                        return domain.isEmpty ? .string("x") : .string(domain[Int(pick % UInt64(domain.count))])
                    }
                    let kept = keeping.trySend(event, value: value), forgot = forgetting.trySend(event, value: value)
                    #expect(kept == forgot, "\(path) step \(step): \(model.events[event.index])")
                }
                #expect(keeping.state == forgetting.state && keeping.data.current == forgetting.data.current, "\(path) step \(step)")
                // Asked now and then only: asking decides the top frame, which would hide a frame's stale place.
                if step % 7 == 0 { #expect(keeping.enabledEvents == forgetting.enabledEvents, "\(path) step \(step)") }
                if keeping.state != forgetting.state { break }
            }
            // It did forget, many times over (a flow with fewer frames than the capacity never does).
            if rules.moves.decided.generation > 50 { forgetfulFlows += 1 }
        }
        #expect(checkedFlows >= 2 && forgetfulFlows >= 3)
    }
}
