@testable import AuthFlowChecker
import Testing

/// The path shrinker alone, against replays whose failures are known by construction.
@Suite struct PathShrinkerTests {
    /// A failure at `unmet-requirement@done` whenever `verify` follows `sendCode`; the replay stops at the second.
    static func replay(_ path: [FuzzAction]) -> FuzzOutcome? {
        guard let send = path.firstIndex(where: { $0.name == "sendCode" }),
              let verify = path[send...].firstIndex(where: { $0.name == "verify" }) else { return nil }
        let site = Site(property: .unmetRequirement, state: "done")
        let walked = Array(path[...verify])
        return FuzzOutcome(violation: Violation(property: site.property, state: site.state, message: "", path: []),
                           site: site, actions: walked)
    }

    static func outcome(_ names: [String]) throws -> FuzzOutcome {
        try #require(replay(names.map { $0 == "back" ? .back : .event($0, values: ["typed"]) }))
    }

    @Test func keepsOnlyTheStepsThatMatter() throws {
        let original = try Self.outcome(["start", "typo", "back", "sendCode", "wait", "resend", "back", "wait", "verify"])
        let result = PathShrinker(maxReplays: 1_000).shrink(original, replay: Self.replay)
        #expect(result.outcome.actions == [.event("sendCode", values: nil), .event("verify", values: nil)])
        #expect(result.replays > 0)
    }

    @Test func aReplayThatFailsElsewhereIsNotAShrink() throws {
        let original = try Self.outcome(["sendCode", "verify"])
        let result = PathShrinker(maxReplays: 1_000).shrink(original) { candidate in
            guard var found = Self.replay(candidate) else { return nil }
            found.site = Site(property: .deadlock, state: "elsewhere")   // every candidate fails, but not at the same site
            return found
        }
        #expect(result.outcome.actions == original.actions)
    }

    @Test func respectsTheReplayBudget() throws {
        let original = try Self.outcome(Array(repeating: "wait", count: 40) + ["sendCode", "verify"])
        var calls = 0
        let result = PathShrinker(maxReplays: 7).shrink(original) { candidate in
            calls += 1
            return Self.replay(candidate)
        }
        #expect(calls == 7 && result.replays == 7)
    }
}
