import AuthFlow
@testable import AuthFlowChecker
import Foundation
import Testing

/// An app's own coordinator checked against a spec with section 5's history keys: back keeps the server-side data and
/// takes off the screens updated in place, and the walk expects exactly that of the app's back.
@Suite struct Section5ConformanceTests {
    /// How an app may get section 5 wrong.
    enum Mutant: CaseIterable {
        /// The attempt counter lives with each screen on the device: back gives an attempt back.
        case counterRestoredByBack
        /// Back takes off the top frame only, not the in-place updates below it (two wrong passwords: back stays on the password screen).
        case backIgnoresInPlaceUpdates
        /// Back leaves the password screen's request in flight: its answer (`ok`) is taken on the start screen.
        case answerTakenAfterBack
    }

    /// The lockout flow of ``Section5HistoryTests`` as a hand-written coordinator: a frame per screen, each marked when it
    /// updated the one below in place; the server's count and lock kept apart from the frames.
    final class LockoutApp: FlowUnderTest {
        struct Frame {
            var state: String
            var email: String?
            var attempts: Int
            var replaced: Bool
        }

        var frames = [Frame(state: "start", email: nil, attempts: 0, replaced: false)]
        var attempts = 0
        var locked = false
        var awaitingAnswer = false
        let mutant: Mutant?

        init(mutant: Mutant? = nil) { self.mutant = mutant }

        var state: String { frames[frames.count - 1].state }
        var data: [String: String] {
            ["email": frames[frames.count - 1].email, "attempts": attempts > 0 ? "\(attempts)" : nil, "locked": locked ? "yes" : nil]
                .compactMapValues { $0 }
        }

        func push(_ state: String, replaced: Bool = false) {
            frames.append(Frame(state: state, email: frames[frames.count - 1].email, attempts: attempts, replaced: replaced))
        }

        func send(_ event: String, data: [String: String]) -> Bool {
            switch (state, event) {
            case ("start", "go"):
                awaitingAnswer = true
                push("password")
                frames[frames.count - 1].email = data["email"]
            case ("password", "wrong"):
                attempts = min(attempts + 1, 3)
                if attempts >= 3 {
                    locked = true
                    push("locked")
                } else {
                    push("password", replaced: true)
                }
            case ("password", "ok"): push("home")
            case ("start", "ok") where awaitingAnswer: push("home")
            default: return false
            }
            return true
        }

        func back() -> Bool {
            guard state != "home" else { return false }
            var takes = 1
            while mutant != .backIgnoresInPlaceUpdates && takes < frames.count && frames[frames.count - takes].replaced { takes += 1 }
            guard takes < frames.count else { return false }
            frames.removeLast(takes)
            if mutant != .answerTakenAfterBack { awaitingAnswer = state == "password" }
            if mutant == .counterRestoredByBack { attempts = frames[frames.count - 1].attempts }
            return true
        }
    }

    /// The lockout flow without its rule (which the spec itself breaks: the walk would report it on the app's frames too).
    static let model = try! SpecLoader.load(json: Section5HistoryTests.lockout.replacingOccurrences(
        of: #""properties": [{"id": "locked-stays-locked", "never": {"all": [{"at": ["home"]}, {"has": "locked"}]}}]"#, with: #""properties": []"#))

    @Test func aCorrectAppWithServerSideDataAndInPlaceUpdatesConforms() {
        let conformance = FlowConformance(model: Self.model) { LockoutApp() }
        let walk = conformance.explore(depth: 8)
        #expect(walk.violations.isEmpty, "\(walk.violations.map(\.message))")
        #expect(conformance.fuzz(FuzzOptions(runs: 300)).failure == nil)
    }

    /// The walk presses the app's back where the spec allows it and expects the spec's back frame: the server's count kept.
    @Test func aCounterThatBackResetsIsCaught() throws {
        let conformance = FlowConformance(model: Self.model) { LockoutApp(mutant: .counterRestoredByBack) }
        let violation = try #require(conformance.explore(depth: 8).violations.first)
        #expect(violation.site.description == "undo-mismatch@password.wrong", "\(violation.message)")
        #expect(violation.message.contains("after back from password (entered by wrong)"), "\(violation.message)")
        #expect(violation.message.contains("attempts"), "\(violation.message)")
        // Two wrong passwords shown in place: back takes off both, to the start, keeping the server's count of 2.
        #expect(violation.path.compactMap(\.event) == ["go", "wrong", "back"])
        #expect(violation.path.last?.state == "start")
        #expect(violation.path.last?.values?["attempts"] == "1", "\(violation.path.last?.values ?? [:])")
        #expect(conformance.fuzz().failure != nil)
    }

    @Test func aBackThatIgnoresInPlaceUpdatesIsCaught() throws {
        let conformance = FlowConformance(model: Self.model) { LockoutApp(mutant: .backIgnoresInPlaceUpdates) }
        let violation = try #require(conformance.explore(depth: 8).violations.first)
        #expect(violation.path.compactMap(\.event) == ["go", "wrong", "back"], "\(violation.message)")
        #expect(violation.message.contains("expected start"), "\(violation.message)")
        #expect(conformance.fuzz().failure != nil)
    }

    /// Only after the app's back does the late answer show: the walk sends the landing screen every event its step does not emit.
    @Test func anAnswerTakenOnTheScreenBackWentToIsCaught() throws {
        let conformance = FlowConformance(model: Self.model) { LockoutApp(mutant: .answerTakenAfterBack) }
        let violation = try #require(conformance.explore(depth: 8).violations.first)
        #expect(violation.site.description == "divergence@start.ok", "\(violation.message)")
        #expect(violation.path.compactMap(\.event) == ["go", "back", "ok"], "\(violation.message)")
        #expect(violation.message == "after back, the implementation accepted ok in start, where the step does not offer it")
    }

    /// The gate takes such a spec now, from a file, with the construct's rule left out.
    @Test func theGateChecksTheSpec() throws {
        let json = Section5HistoryTests.lockout.replacingOccurrences(
            of: #""properties": [{"id": "locked-stays-locked", "never": {"all": [{"at": ["home"]}, {"has": "locked"}]}}]"#, with: #""properties": []"#)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("section5-\(UUID().uuidString).json")
        try json.write(to: url, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(try FlowGate.assertConforms(spec: url.path, depth: 8, runs: 200) { LockoutApp() }.verdict == .holds)
        let failure = #expect(throws: ConformanceFailure.self) {
            try FlowGate.assertConforms(spec: url.path, depth: 8, runs: 200) { LockoutApp(mutant: .counterRestoredByBack) }
        }
        #expect(failure?.report.verdict == .violated)
    }
}
