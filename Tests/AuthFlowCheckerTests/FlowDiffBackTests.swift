import AuthFlow
@testable import AuthFlowChecker
import Testing

/// `FlowDiff` on pairs whose first difference only a back reaches (AUTHFLOW-2 section 5's server-side keys and in-place
/// updates), worked out by hand: each pins the sites, their shortest lengths counting backs, and the paths with `back`.
@Suite struct FlowDiffBackTests {
    /// A password screen whose wrong answer opens an error screen the user can only leave by back; the server counts the
    /// wrong answers and locks at four. Forward moves alone reach one wrong answer; only `wrong, back, wrong, back…` counts on.
    static let lockout = """
    { "format": "authflow/2", "initial": "start", "success": ["home"], "abort": ["locked"],
      "data": { "attempts": { "max": 4, "server": true } },
      "steps": {
        "start": { "emits": { "go": [] } },
        "password": { "emits": { "wrong": { "increment": ["attempts"], "by": "system" }, "ok": { "by": "system" } } },
        "error": { "emits": {} },
        "locked": {}, "home": {}
      },
      "transitions": [
        { "from": "start", "on": "go", "to": "password" },
        { "from": "password", "on": "wrong", "to": "locked", "when": { "atLeast": { "attempts": 4 } } },
        { "from": "password", "on": "wrong", "to": "error" },
        { "from": "password", "on": "ok", "to": "home" }
      ] }
    """

    /// Section 5's own lockout: wrong answers shown in place, the third locks; the lock and the count live on the server.
    static let inPlace = Section5HistoryTests.lockout

    static func report(_ old: String, _ new: String, depth: Int? = nil) throws -> FlowDiffReport {
        FlowDiff.compare(try SpecLoader.load(json: old), try SpecLoader.load(json: new), depth: depth, properties: false)
    }

    static func sites(_ old: String, _ new: String, depth: Int? = nil) throws -> [String] {
        try report(old, new, depth: depth).differences.map(FlowDiffTests.line)
    }

    @Test func aGuardChangedAtACountOnlyBacksReachIsFoundAfterTwoBacks() throws {
        // Locking one wrong answer earlier: at the third wrong answer the new version locks. The user reaches the password
        // screen with two on the server's count only as go, wrong, back, wrong, back: 5 moves, backs counted.
        let new = Self.lockout.replacingOccurrences(of: #""atLeast": { "attempts": 4 }"#, with: #""atLeast": { "attempts": 3 }"#)
        let report = try Self.report(Self.lockout, new)
        #expect(report.differences.map(FlowDiffTests.line) == ["different-state password.wrong 5"])
        let site = try #require(report.differences.first)
        #expect(site.path.map(\.event) == ["go", "wrong", "back", "wrong", "back"])
        #expect(site.path.map(\.state) == ["password", "error", "password", "error", "password"])
        #expect(site.old == .moves(state: "error", data: [.init(key: "attempts", value: "3")]))
        #expect(site.new == .moves(state: "locked", data: [.init(key: "attempts", value: "3")]))
        // The other way round, and within a depth bound that stops one move short of it: nothing.
        #expect(try Self.sites(new, Self.lockout) == ["different-state password.wrong 5"])
        #expect(try Self.report(Self.lockout, new, depth: 5).identical)
        #expect(try Self.sites(Self.lockout, new, depth: 6) == ["different-state password.wrong 5"])
    }

    @Test func aKeyServerSideInOneVersionOnlyMakesBackLandOnDifferentData() throws {
        // Made server-side, the count survives back: back from the error screen lands on the password screen with 1 in the
        // new version, 0 in the old. One site, at the error screen's back, after go and wrong.
        let client = Self.lockout.replacingOccurrences(of: #""max": 4, "server": true"#, with: #""max": 4"#)
        let report = try Self.report(client, Self.lockout)
        #expect(report.differences.map(FlowDiffTests.line) == ["different-data error.back 2"])
        let site = try #require(report.differences.first)
        #expect(site.path.map(\.event) == ["go", "wrong"])
        #expect(site.old == .returns(state: "password", data: [.init(key: "attempts", value: "0")]))
        #expect(site.new == .returns(state: "password", data: [.init(key: "attempts", value: "1")]))
        #expect(try Self.sites(Self.lockout, client) == ["different-data error.back 2"])
    }

    @Test func aFixedSignInRowIsARemovedMoveAfterThreeInPlaceUpdatesAndABack() throws {
        // The new version asks whether the account is locked before signing in. The locked account reaches the password
        // screen only by back from the locked screen, after two wrong answers shown in place and the third: 5 moves.
        let new = Self.inPlace.replacingOccurrences(of: #"{"from": "password", "on": "ok", "to": "home"}"#,
                                                    with: #"{"from": "password", "on": "ok", "to": "home", "when": {"missing": "locked"}}"#)
        #expect(new != Self.inPlace)
        let report = try Self.report(Self.inPlace, new)
        #expect(report.differences.map(FlowDiffTests.line) == ["removed-move password.ok 5"])
        #expect(report.differences.first?.path.map(\.event) == ["go", "wrong", "wrong", "wrong", "back"])
        #expect(report.differences.first?.path.map(\.state) == ["password", "password", "password", "locked", "password"])
        #expect(try Self.report(Self.inPlace, Self.inPlace).identical)
    }

    @Test func aPushAgainstAnInPlaceUpdateIsDifferentDataAtTheMove() throws {
        // The same screen and data, but the old version's wrong answer updates the screen in place and the new one opens
        // a new screen: back would go elsewhere, so the move itself is the difference (the issue's convention).
        let new = Self.inPlace.replacingOccurrences(of: #", "history": "replace"}"#, with: "}")
        #expect(new != Self.inPlace)
        let report = try Self.report(Self.inPlace, new)
        #expect(report.differences.map(FlowDiffTests.line) == ["different-data password.wrong 1"])
        #expect(report.differences.first?.old == .updates(state: "password", data: [.init(key: "email", value: nil), .init(key: "attempts", value: "1")]))
        #expect(report.differences.first?.new == .moves(state: "password", data: [.init(key: "email", value: nil), .init(key: "attempts", value: "1")]))
    }
}
