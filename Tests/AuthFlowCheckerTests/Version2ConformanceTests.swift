import AuthFlow
@testable import AuthFlowChecker
import Testing

/// An app's own coordinator checked against `authflow/2` flows whose moves depend on their data:
/// the backend's answers (system events with a valued key) decide MFA, a counter of wrong
/// passwords locks, sign-out and start-over reset; the checker plays the backend.
@Suite struct Version2ConformanceTests {
    static let spec = """
    { "format": "authflow/2", "initial": "email", "success": ["signedIn"], "abort": ["locked"], "secrets": ["password"],
      "data": { "nextStep": { "values": ["done", "mfa"] }, "wrongPasswords": { "max": 3 } },
      "steps": {
        "email": { "back": false, "emits": { "submitEmail": ["email"] } },
        "lookup": { "requires": ["email"], "back": false, "emits": { "found": { "adds": ["accountId"], "by": "system" } } },
        "password": { "requires": ["email", "accountId"], "back": false, "emits": {
            "submitPassword": { "adds": ["password"], "when": { "below": { "wrongPasswords": 3 } } }, "startOver": [] } },
        "verifying": { "requires": ["password"], "back": false, "emits": {
            "accepted": { "adds": ["nextStep"], "by": "system" },
            "rejected": { "increment": ["wrongPasswords"], "clears": ["password"], "by": "system" } } },
        "mfa": { "requires": ["accountId"], "back": false, "emits": { "submitCode": ["code"] } },
        "signedIn": { "entry": { "adds": ["token"] }, "emits": { "signOut": [] } },
        "locked": {} },
      "transitions": [
        { "from": "email", "on": "submitEmail", "to": "lookup" },
        { "from": "lookup", "on": "found", "to": "password" },
        { "from": "password", "on": "submitPassword", "to": "verifying" },
        { "from": "password", "on": "startOver", "to": "email", "reset": true },
        { "from": "verifying", "on": "accepted", "to": "signedIn", "when": { "equals": { "nextStep": "done" } } },
        { "from": "verifying", "on": "accepted", "to": "mfa" },
        { "from": "verifying", "on": "rejected", "to": "locked", "when": { "atLeast": { "wrongPasswords": 3 } } },
        { "from": "verifying", "on": "rejected", "to": "password" },
        { "from": "mfa", "on": "submitCode", "to": "signedIn" },
        { "from": "signedIn", "on": "signOut", "to": "email", "reset": true } ] }
    """
    static let model = try! SpecLoader.load(json: spec)

    /// The bugs a team writes into such a coordinator.
    enum Mutant: CaseIterable {
        case keepsTokenAfterSignOut, draftSurvivesStartOver, coercesAccountId, answerOnWrongScreen, counterNotIncremented
    }

    /// A coordinator in the app's own types: screens, user actions and backend answers, typed fields.
    final class Coordinator: FlowUnderTest {
        enum Screen: String, FlowName { case email, lookup, password, verifying, mfa, signedIn, locked }
        enum Action: String, FlowName { case submitEmail, found, submitPassword, startOver, accepted, rejected, submitCode, signOut }
        enum Field: String, FlowName { case email, accountId, password, nextStep, wrongPasswords, code, token }

        let mutant: Mutant?
        var state = Screen.email
        var email: String?, accountId: String?, password: String?, nextStep: String?, code: String?, token: String?
        var wrongPasswords = 0
        init(_ mutant: Mutant? = nil) { self.mutant = mutant }

        var data: [Field: String] {
            var data: [Field: String] = [:]
            data[.email] = email
            data[.accountId] = accountId
            data[.password] = password
            data[.nextStep] = nextStep
            data[.code] = code
            data[.token] = token
            if wrongPasswords > 0 { data[.wrongPasswords] = String(wrongPasswords) }
            return data
        }

        /// The user's actions.
        func send(_ action: Action, data: [Field: String]) -> Bool {
            switch (state, action) {
            case (.email, .submitEmail):
                email = data[.email]
                state = .lookup
            case (.password, .submitPassword) where wrongPasswords < 3:
                password = data[.password]
                state = .verifying
            case (.password, .startOver):
                let draft = email
                signOut()
                if mutant == .draftSurvivesStartOver { email = draft }
            case (.mfa, .submitCode):
                code = data[.code]
                enterSignedIn()
            case (.signedIn, .signOut):
                let kept = token
                signOut()
                if mutant == .keepsTokenAfterSignOut { token = kept }
            default:
                return false
            }
            return true
        }

        /// The backend's answers.
        func receive(_ answer: Action, data: [Field: String]) -> Bool {
            switch (state, answer) {
            case (.lookup, .found):
                let id = data[.accountId] ?? ""
                accountId = mutant == .coercesAccountId ? String(Int(id) ?? 0) : id
                state = .password
            case (.verifying, .accepted), (.password, .accepted):
                guard state == .verifying || mutant == .answerOnWrongScreen else { return false }
                nextStep = data[.nextStep]
                if nextStep == "done" { enterSignedIn() } else { state = .mfa }
            case (.verifying, .rejected):
                if mutant != .counterNotIncremented { wrongPasswords += 1 }
                password = nil
                state = wrongPasswords >= 3 ? .locked : .password
            default:
                return false
            }
            return true
        }

        func back() -> Bool { false }

        func enterSignedIn() {
            token = "session-\(accountId ?? "")"
            state = .signedIn
        }

        func signOut() {
            (email, accountId, password, nextStep, code, token, wrongPasswords) = (nil, nil, nil, nil, nil, nil, 0)
            state = .email
        }
    }

    @Test func theSpecHolds() {
        #expect(FlowChecker.check(Self.model, source: "test").verdict == .holds)
    }

    @Test func aCorrectCoordinatorConformsToEveryConstruct() {
        let conformance = FlowConformance(model: Self.model) { Coordinator() }
        let walk = conformance.explore(depth: 12)
        #expect(walk.violations == [], "\(walk.violations.map(\.message))")
        #expect(walk.stacks == RuntimeExplorer(model: Self.model).countStacks(depth: 12))
        #expect(conformance.fuzz(FuzzOptions(runs: 300)).failure == nil)
    }

    /// Each mutant is caught by the walk at its shortest path (events after the root), and by the random tester.
    @Test(arguments: [
        (Mutant.keepsTokenAfterSignOut, "divergence@signedIn.signOut", 5),
        (.draftSurvivesStartOver, "divergence@password.startOver", 3),
        (.coercesAccountId, "divergence@password.found", 2),
        (.answerOnWrongScreen, "divergence@password.accepted", 3),
        (.counterNotIncremented, "divergence@password.rejected", 4),
    ])
    func eachMutantIsCaughtWithItsShortestCounterexample(mutant: Mutant, site: String, events: Int) throws {
        let conformance = FlowConformance(model: Self.model) { Coordinator(mutant) }
        let walk = conformance.explore(depth: 12)
        let found = try #require(walk.violations.first { $0.site.description == site }, "\(walk.violations.map(\.site.description))")
        #expect(found.path.count - 1 == events, "\(found.path.map { $0.event ?? "·" })")
        #expect(walk.violations.allSatisfy { $0.path.count - 1 >= events || $0.site.description != site })
        let failure = try #require(conformance.fuzz(FuzzOptions(runs: 1_000)).failure)
        let known = try #require(failure.shortestKnown)
        #expect(failure.shrunk.count <= known + 1, "\(failure.shrunk.map(\.name)) vs \(known)")
    }

    /// The id the checker types looks like an account id with a leading zero, so `Int(id) ?? 0` shows in the report.
    @Test func aCoercedIdIsShownAsTheAppHoldsIt() throws {
        let walk = FlowConformance(model: Self.model) { Coordinator(.coercesAccountId) }.explore(depth: 4)
        let first = try #require(walk.violations.first)
        #expect(first.message.hasPrefix("after found, accountId is 400") && first.message.hasSuffix(", expected #2"), "\(first.message)")
    }

    /// The gate checks the same coordinator, and the removed refusal is no longer said.
    @Test func theGateChecksADataDependentFlow() throws {
        let report = try FlowGate.assertConforms(spec: "Specs/sign-in-next-step.json", depth: 3, runs: 10) { NextStepApp() }
        #expect(report.verdict == .holds)
    }

    /// Everything `Specs/sign-in-next-step.json` names, held as the runtime holds it: a puppet of the built-in session.
    final class NextStepApp: FlowUnderTest {
        static let model = try! SpecLoader.load(file: Files.root.appendingPathComponent("Specs/sign-in-next-step.json").path)
        let session = NextStepApp.model.makeSession()
        var state: String { Self.model.states[session.state.index] }
        var data: [String: FlowValue] {
            var data: [String: FlowValue] = [:]
            for (key, value) in session.data.current { data[Self.model.keys[key.index]] = value }
            return data
        }
        func send(_ event: String, data: [String: FlowValue]) -> Bool {
            guard let id = Self.model.event(named: event) else { return false }
            return session.trySend(id) { data[Self.model.keys[$0.index]] ?? .string("") }
        }
        func back() -> Bool { (try? session.back()) != nil }
    }
}

/// The rest of `authflow/2` on an app: config variants handed to the factory, `anywhere` rows
/// answered by the system, `anyOf` and `optional` inputs, `set` and `clears` on the user's events,
/// first-match rows whose guards read config and values.
@Suite struct Version2ConfigConformanceTests {
    static let spec = """
    { "format": "authflow/2", "initial": "start", "success": ["done"], "abort": ["expired"],
      "config": { "mfa": ["required", "optional"] },
      "data": { "method": { "values": ["password", "passkey"] } },
      "steps": {
        "start": { "back": false, "emits": { "usePassword": { "adds": ["password"], "set": { "method": "password" } },
                                             "usePasskey": { "adds": ["passkey"], "set": { "method": "passkey" } } } },
        "confirm": { "requires": [{ "anyOf": ["password", "passkey"] }], "optional": ["rememberMe"], "emits": {
            "remember": { "adds": ["rememberMe"], "when": { "missing": "rememberMe" } },
            "forget": { "clears": ["rememberMe"], "when": { "has": "rememberMe" } },
            "finish": [] } },
        "mfa": { "emits": { "submitCode": ["otp"] } },
        "done": {}, "expired": {} },
      "transitions": [
        { "from": "start", "on": "usePassword", "to": "confirm" }, { "from": "start", "on": "usePasskey", "to": "confirm" },
        { "from": "confirm", "on": "remember", "to": "confirm" }, { "from": "confirm", "on": "forget", "to": "confirm" },
        { "from": "confirm", "on": "finish", "to": "mfa", "when": { "all": [{ "equals": { "mfa": "required" } }, { "equals": { "method": "password" } }] } },
        { "from": "confirm", "on": "finish", "to": "done" },
        { "from": "mfa", "on": "submitCode", "to": "done" } ],
      "anywhere": [{ "on": "timeout", "to": "expired", "by": "system", "except": ["done", "expired"] }] }
    """
    static let model = try! SpecLoader.load(json: spec)

    enum Mutant { case ignoresConfig, forgetKeepsRememberMe, timeoutIgnored }

    /// A coordinator with a stack of screens, each carrying what it shows (routes with associated values).
    final class Coordinator: FlowUnderTest {
        enum Route: Hashable { case start, confirm(method: String), mfa, done, expired }
        let mfaRequired: Bool
        let mutant: Mutant?
        var routes: [Route] = [.start]
        var fields: [String: String] = [:]
        var history: [[String: String]] = []
        init(mfaRequired: Bool, mutant: Mutant? = nil) { (self.mfaRequired, self.mutant) = (mfaRequired, mutant) }

        var state: String {
            switch routes.last ?? .start {
            case .start: "start"
            case .confirm: "confirm"
            case .mfa: "mfa"
            case .done: "done"
            case .expired: "expired"
            }
        }
        var data: [String: String] {
            var data = fields
            if case let .confirm(method)? = routes.last ?? nil { data["method"] = method } else if routes.count > 1, case let .confirm(method) = routes[1] { data["method"] = method }
            return data
        }

        func push(_ route: Route, _ change: (inout [String: String]) -> Void = { _ in }) -> Bool {
            history.append(fields)
            change(&fields)
            routes.append(route)
            return true
        }

        func send(_ event: String, data: [String: String]) -> Bool {
            switch (routes.last ?? .start, event) {
            case (.start, "usePassword"): return push(.confirm(method: "password")) { $0["password"] = data["password"] }
            case (.start, "usePasskey"): return push(.confirm(method: "passkey")) { $0["passkey"] = data["passkey"] }
            case (.confirm(let method), "remember") where fields["rememberMe"] == nil:
                return push(.confirm(method: method)) { $0["rememberMe"] = data["rememberMe"] }
            case (.confirm(let method), "forget") where fields["rememberMe"] != nil:
                return push(.confirm(method: method)) { if self.mutant != .forgetKeepsRememberMe { $0["rememberMe"] = nil } }
            case (.confirm(let method), "finish"):
                let needsCode = (mfaRequired || mutant == .ignoresConfig) && method == "password"
                return push(needsCode ? .mfa : .done)
            case (.mfa, "submitCode"): return push(.done) { $0["otp"] = data["otp"] }
            default: return false
            }
        }

        func receive(_ answer: String, data: [String: String]) -> Bool {
            guard answer == "timeout", mutant != .timeoutIgnored else { return false }
            switch routes.last ?? .start {
            case .done, .expired: return false
            default: return push(.expired)
            }
        }

        func back() -> Bool {
            switch routes.last ?? .start {
            case .start, .done, .expired: return false
            default:
                routes.removeLast()
                fields = history.removeLast()
                return true
            }
        }
    }

    @Test func aCorrectCoordinatorConformsInEveryVariant() {
        let conformance = FlowConformance(model: Self.model) { (variant: FlowVariant) in Coordinator(mfaRequired: variant["mfa"] == "required") }
        let walk = conformance.explore(depth: 6)
        #expect(walk.violations == [], "\(walk.violations.map(\.message))")
        #expect(walk.stacks == RuntimeExplorer(model: Self.model).countStacks(depth: 6))
        #expect(conformance.fuzz(FuzzOptions(runs: 300)).failure == nil)
    }

    @Test(arguments: [
        (Mutant.ignoresConfig, "divergence@done.finish", "mfa=optional"),
        (.forgetKeepsRememberMe, "divergence@confirm.forget", "mfa=required"),
        (.timeoutIgnored, "divergence@start.timeout", "mfa=required"),
    ])
    func eachMutantIsCaughtInItsVariant(mutant: Mutant, site: String, variant: String) throws {
        let conformance = FlowConformance(model: Self.model) { (v: FlowVariant) in Coordinator(mfaRequired: v["mfa"] == "required", mutant: mutant) }
        let walk = conformance.explore(depth: 6)
        let found = try #require(walk.violations.first, "\(walk.violations.map(\.site.description))")
        #expect(found.site.description == site, "\(walk.violations.map(\.site.description))")
        #expect(found.variant.map { $0.map { "\($0.key)=\($0.value)" }.joined(separator: ", ") } == variant)
        let failure = try #require(conformance.fuzz(FuzzOptions(runs: 1_000)).failure)
        let known = try #require(failure.shortestKnown)
        #expect(failure.shrunk.count <= known + 1, "\(failure.shrunk.map(\.name)) vs \(known)")
    }

    /// The plain factory makes the same app for every variant: an app that cannot be told its config must conform in each.
    @Test func thePlainFactoryIsUsedForEveryVariant() {
        let walk = FlowConformance(model: Self.model) { Coordinator(mfaRequired: true) }.explore(depth: 4)
        #expect(walk.violations.contains { $0.variant?.first?.value == "optional" })
        #expect(!walk.violations.contains { $0.variant?.first?.value == "required" })
    }
}
