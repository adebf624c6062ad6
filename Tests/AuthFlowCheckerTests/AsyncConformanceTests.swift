import AuthFlow
@testable import AuthFlowChecker
import Foundation
import Testing
import XCTest

/// A `@MainActor` view model that awaits an injected async backend, checked against the email-first
/// `authflow/2` flow of ``Version2ConformanceTests``: the checker plays the backend through a
/// ``PlayedBackend`` the fake backend asks, exhaustively and randomly, with no sleeps.
enum AsyncLogin {
    enum Screen: String, FlowName { case email, lookup, password, verifying, mfa, signedIn, locked }
    enum Action: String, FlowName { case submitEmail, found, submitPassword, startOver, accepted, rejected, submitCode, signOut }
    enum Field: String, FlowName { case email, accountId, password, nextStep, wrongPasswords, code, token }
    enum Mutant: Sendable, CaseIterable { case keepsTokenAfterSignOut, coercesAccountId, counterNotIncremented, signOutKeepsCounter }

    /// What the app asks its backend.
    protocol Backend: Sendable {
        func lookUp(email: String) async -> String?
        func signIn(accountId: String, password: String) async -> SignInAnswer?
    }
    enum SignInAnswer: Sendable { case accepted(nextStep: String), rejected }

    /// The backend answer as the checks deliver it: the spec's event and data.
    struct Answer: Sendable {
        var event: Action
        var data: [Field: String]
    }

    /// The fake backend the app is built with in tests: every answer is the checker's.
    struct FakeBackend: Backend {
        let played = PlayedBackend<Answer>()
        func lookUp(email: String) async -> String? {
            await played.answer { $0.event == .found }?.data[.accountId]
        }
        func signIn(accountId: String, password: String) async -> SignInAnswer? {
            guard let answer = await played.answer(accepting: { $0.event == .accepted || $0.event == .rejected }) else { return nil }
            return answer.event == .accepted ? .accepted(nextStep: answer.data[.nextStep] ?? "") : .rejected
        }
    }

    /// The view model as an app team writes it: published screen and fields, one async method per user action.
    @MainActor final class LoginModel {
        private(set) var screen = Screen.email
        private(set) var email: String?, accountId: String?, password: String?, nextStep: String?, code: String?, token: String?
        private(set) var wrongPasswords = 0
        let backend: any Backend
        let mutant: Mutant?
        init(backend: any Backend, mutant: Mutant? = nil) { (self.backend, self.mutant) = (backend, mutant) }

        func submitEmail(_ email: String) async {
            self.email = email
            screen = .lookup
            guard let id = await backend.lookUp(email: email) else { return }
            accountId = mutant == .coercesAccountId ? String(Int(id) ?? 0) : id
            screen = .password
        }

        func submitPassword(_ password: String) async {
            self.password = password
            screen = .verifying
            switch await backend.signIn(accountId: accountId ?? "", password: password) {
            case let .accepted(next)?:
                nextStep = next
                if next == "done" { signedIn() } else { screen = .mfa }
            case .rejected?:
                if mutant != .counterNotIncremented { wrongPasswords += 1 }
                self.password = nil
                screen = wrongPasswords >= 3 ? .locked : .password
            case nil:
                return
            }
        }

        func submitCode(_ code: String) {
            self.code = code
            signedIn()
        }

        func startOver() { reset() }

        func signOut() {
            let (kept, count) = (token, wrongPasswords)
            reset()
            if mutant == .keepsTokenAfterSignOut { token = kept }
            if mutant == .signOutKeepsCounter { wrongPasswords = count }
        }

        private func signedIn() {
            token = "session-\(accountId ?? "")"
            screen = .signedIn
        }

        private func reset() {
            (email, accountId, password, nextStep, code, token, wrongPasswords) = (nil, nil, nil, nil, nil, nil, 0)
            screen = .email
        }
    }
}

// The whole adapter: what the checks read, and each spec event as the app's own call.
extension AsyncLogin.LoginModel: AsyncFlowUnderTest {
    typealias Field = AsyncLogin.Field
    var state: AsyncLogin.Screen { screen }
    var data: [Field: String] {
        [.email: email, .accountId: accountId, .password: password, .nextStep: nextStep, .code: code, .token: token,
         .wrongPasswords: wrongPasswords > 0 ? String(wrongPasswords) : nil].compactMapValues { $0 }
    }
    var played: PlayedBackend<AsyncLogin.Answer>? { (backend as? AsyncLogin.FakeBackend)?.played }

    func send(_ action: AsyncLogin.Action, data: [Field: String]) async -> Bool {
        switch (screen, action) {
        case (.email, .submitEmail): await played?.run { await self.submitEmail(data[.email] ?? "") }
        case (.password, .submitPassword) where wrongPasswords < 3: await played?.run { await self.submitPassword(data[.password] ?? "") }
        case (.password, .startOver): startOver()
        case (.mfa, .submitCode): submitCode(data[.code] ?? "")
        case (.signedIn, .signOut): signOut()
        default: return false
        }
        return true
    }
    func receive(_ answer: AsyncLogin.Action, data: [Field: String]) async -> Bool {
        await played?.deliver(AsyncLogin.Answer(event: answer, data: data)) ?? false
    }
    func back() async -> Bool { false }
    func discard() async { played?.cancel() }
}

@Suite struct AsyncConformanceTests {
    static var model: FlowModel { Version2ConformanceTests.model }

    @Test func aMainActorViewModelConformsExhaustivelyAndRandomly() async {
        let conformance = AsyncFlowConformance(model: Self.model) { await AsyncLogin.LoginModel(backend: AsyncLogin.FakeBackend()) }
        let walk = await conformance.explore(depth: 8)
        #expect(walk.violations == [], "\(walk.violations.map(\.message))")
        #expect(walk.stacks == RuntimeExplorer(model: Self.model).countStacks(depth: 8))
        #expect(await conformance.fuzz(FuzzOptions(runs: 100)).failure == nil)
    }

    /// The same walk twice finds the same: nothing depends on timing.
    @Test(arguments: AsyncLogin.Mutant.allCases)
    func eachMutantIsCaughtTheSameWayEveryTime(mutant: AsyncLogin.Mutant) async throws {
        let conformance = AsyncFlowConformance(model: Self.model) { await AsyncLogin.LoginModel(backend: AsyncLogin.FakeBackend(), mutant: mutant) }
        let first = await conformance.explore(depth: 10).violations
        let again = await conformance.explore(depth: 10).violations
        #expect(!first.isEmpty)
        #expect(first.map(\.site) == again.map(\.site) && first.map(\.message) == again.map(\.message))
        let failure = try #require(await conformance.fuzz(FuzzOptions(runs: 300)).failure)
        let known = try #require(failure.shortestKnown)
        #expect(failure.shrunk.count <= known + 1, "\(failure.shrunk.map(\.name)) vs \(known)")
    }

    /// The walk runs ahead of an app that conforms, each call queued and awaited later in one hop with the rest: every
    /// answer is the one the walk was given, so its result is the walk's with every call awaited.
    @Test func theWalkRunsAheadOfAConformingApp() async {
        let (ahead, settled, awaited) = await Self.walks(depth: 8) { _ in await AsyncLogin.LoginModel(backend: AsyncLogin.FakeBackend()) }
        #expect(settled)
        #expect(ahead.violations == awaited.violations && ahead.stacks == awaited.stacks)
        #expect(ahead.stacks == RuntimeExplorer(model: Self.model).countStacks(depth: 8))
    }

    /// A mutant is found as the walk awaiting every call finds it. A run ahead that settled stands (every answer it took
    /// was the app's: what the walk cannot expect, the state after a sign-out, it reads from the app); one that did not
    /// (the account id coerced: a frame compared later fails) is walked again, call by call.
    @Test(arguments: AsyncLogin.Mutant.allCases)
    func aMutantIsFoundAsByTheWalkAwaitingEveryCall(mutant: AsyncLogin.Mutant) async {
        let make: @Sendable (FlowVariant) async -> AsyncLogin.LoginModel = { _ in await AsyncLogin.LoginModel(backend: AsyncLogin.FakeBackend(), mutant: mutant) }
        let (ahead, settled, awaited) = await Self.walks(depth: 10, make)
        #expect(!awaited.violations.isEmpty)
        if settled { #expect(ahead.violations == awaited.violations && ahead.stacks == awaited.stacks) }
        if mutant == .coercesAccountId || mutant == .counterNotIncremented { #expect(!settled) }
        let reported = await AsyncFlowConformance(model: Self.model, variants: make).explore(depth: 10)
        #expect(reported.violations == awaited.violations && reported.stacks == awaited.stacks)
    }

    /// The walk run ahead of the apps `make` returns, whether they answered as it assumed, and the walk awaiting every call.
    static func walks(depth: Int, _ make: @escaping @Sendable (FlowVariant) async -> AsyncLogin.LoginModel) async
        -> (ahead: ConformanceWalk, settled: Bool, awaited: ConformanceWalk) {
        let checks = AppConformance(model: model, drivers: AsyncFlowConformance.drivers(make))
        let ahead = AsyncFlowConformance.ahead(make)
        return await AsyncBridge.run {
            let (drivers, settle) = ahead(checks.tables)
            let walk = checks.explore(drivers.make(checks.tables, true), depth: depth, timeout: nil)
            return (walk, settle(), checks.explore(checks.driver(), depth: depth, timeout: nil))
        }
    }

    @Test func theAsyncGateFromSwiftTesting() async throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("async-gate-\(UUID().uuidString).json").path
        try Data(Version2ConformanceTests.spec.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let report = try await FlowGate.assertConforms(spec: path, depth: 6, runs: 50) { await AsyncLogin.LoginModel(backend: AsyncLogin.FakeBackend()) }
        #expect(report.verdict == .holds)
        let failure = await #expect(throws: ConformanceFailure.self) {
            try await FlowGate.assertConforms(spec: path, depth: 6, runs: 50) {
                await AsyncLogin.LoginModel(backend: AsyncLogin.FakeBackend(), mutant: .coercesAccountId)
            }
        }
        #expect(failure?.report.verdict == .violated)
        let missing = await #expect(throws: ConformanceFailure.self) {
            try await FlowGate.assertConforms(spec: "Specs/no-such-spec.json") { await AsyncLogin.LoginModel(backend: AsyncLogin.FakeBackend()) }
        }
        #expect(missing?.report.verdict == .invalid)
    }
}

/// The async gate from XCTest.
final class AsyncConformanceXCTests: XCTestCase {
    func testAMainActorViewModelThroughTheAsyncGate() async throws {
        let checks = AsyncFlowConformance(model: Version2ConformanceTests.model) {
            await AsyncLogin.LoginModel(backend: AsyncLogin.FakeBackend(), mutant: .keepsTokenAfterSignOut)
        }
        let walk = await checks.explore(depth: 6)
        XCTAssertEqual(walk.violations.first?.site.description, "divergence@signedIn.signOut")
    }
}
