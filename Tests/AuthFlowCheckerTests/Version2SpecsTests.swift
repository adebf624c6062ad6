import AuthFlow
@testable import AuthFlowChecker
import Foundation
import Testing

/// The `authflow/2` flows in `Specs/`: each holds in every variant with no lint, and does what its description says.
@Suite struct Version2SpecsTests {
    static func spec(_ name: String) -> String { Files.root.appendingPathComponent("Specs/\(name).json").path }

    static func model(_ name: String) throws -> FlowModel { try Files.model(spec(name)) }

    /// `(spec, states, configurations, stacks at depth 8)`, as `authcheck check --depth 8` prints them.
    static let figures: [(String, Int, Int, Int)] = [
        ("account-recovery", 10, 84, 482),
        ("session-restore", 7, 9, 239),
        ("sign-in-next-step", 10, 714, 596),
    ]

    @Test(arguments: figures)
    func holdsInEveryVariantWithNoLintAndTheWalkAgrees(_ name: String, _ states: Int, _ configurations: Int, _ stacks: Int) throws {
        let model = try Self.model(name)
        #expect(model.format == 2 && !model.isStatic)
        // The complete checker, and the runtime walk through FlowSession over every stack of every variant.
        let report = FlowChecker.check(model, source: name, options: CheckOptions(limits: CheckLimits(depth: 8), passcodeCases: 10))
        #expect(report.verdict == .holds, "\(report.violations.map(\.message))")
        #expect(report.lint.isEmpty, "\(report.lint.lines)")
        #expect(report.warnings.isEmpty)
        #expect(!report.stats.stacksCounted)
        #expect(report.stats.states == states)
        #expect(report.stats.configurations == configurations)
        #expect(report.stats.stacks == stacks)
        #expect(FlowCoverage.compute(model, depth: 8).stacks == stacks)
    }

    // MARK: the teams' own rules

    /// Each rule a `/2` flow in `Specs/` states, and an edit of the file that breaks it (every occurrence of `old` replaced).
    static let rules: [(spec: String, rule: String, old: String, new: String)] = [
        ("sign-in-next-step", "mfa-before-session", #""to": "signedIn", "clears": ["nextStep", "#, #""to": "signedIn", "clears": ["#),
        ("sign-in-next-step", "lockout-reachable", #""on": "accountLocked", "to": "locked""#, #""on": "accountLocked", "to": "enterCredentials""#),
        ("sign-in-next-step", "locked-forgets-password", #""accountLocked": { "clears": ["password"], "#, #""accountLocked": { "#),
        ("sign-in-next-step", "no-sign-in-while-locked", #""signedIn": { "adds": ["session"], "by": "system", "when": { "below": { "failedPasswords": 3 } } }"#,
         #""signedIn": { "adds": ["session"], "by": "system" }"#),
        ("sign-in-next-step", "no-password-after-sign-out", #""on": "startOver", "to": "start", "reset": true"#, #""on": "startOver", "to": "start""#),
        ("account-recovery", "recovery-session-dropped", #""to": "home", "clears": ["privilegedSession", "recoveryAddress"]"#,
         #""to": "home", "clears": ["recoveryAddress"]"#),
        ("account-recovery", "rejected-password-forgotten", #""rejected": { "clears": ["password"], "by": "system" }"#, #""rejected": { "by": "system" }"#),
        ("account-recovery", "recovery-reachable", #""forgotPassword": [],"#, #""forgotPassword": { "when": { "equals": { "recovery": "code" } } },"#),
        ("account-recovery", "passkey-prompt-when-enabled", #""usePasskey": { "when": { "equals": { "passkeys": "on" } } }"#,
         #""usePasskey": { "when": { "equals": { "passkeys": "off" } } }"#),
        ("account-recovery", "no-password-after-sign-out", #""to": "start", "reset": true"#, #""to": "start""#),
        ("session-restore", "another-account-forgets-token", #""useAnotherAccount": { "clears": ["cachedToken", "email", "account"] } }"#,
         #""useAnotherAccount": { "clears": ["email", "account"] } }"#),
        ("session-restore", "home-reachable", #""to": "home" }"#, #""to": "signedOut" }"#),
        ("session-restore", "nothing-kept-after-sign-out", #""to": "launch", "reset": true"#, #""to": "launch""#),
    ]

    @Test func eachFlowStatesItsTeamsRulesAndTheyHold() throws {
        for name in ["sign-in-next-step", "account-recovery", "session-restore"] {
            let model = try Self.model(name)
            let stated = Self.rules.filter { $0.spec == name }.map(\.rule)
            #expect(model.properties.map(\.id) == stated, "\(name)")
            #expect(model.properties.allSatisfy { !($0.description ?? "").isEmpty }, "\(name): every rule says what it is for")
            let report = FlowChecker.check(model, source: name, options: CheckOptions(properties: Set(Property.userProperties(of: model))))
            #expect(report.verdict == .holds, "\(name): \(report.violations.map(\.message))")
        }
    }

    @Test(arguments: 0..<rules.count)
    func eachRuleCatchesTheMistakeItIsAbout(_ index: Int) throws {
        let (name, rule, old, new) = Self.rules[index]
        let text = try String(contentsOfFile: Self.spec(name), encoding: .utf8)
        try #require(text.contains(old), "\(name): the edit for \(rule) must match")
        let broken = try SpecLoader.load(json: text.replacingOccurrences(of: old, with: new), file: "\(name) (broken for \(rule))")
        let report = FlowChecker.check(broken, source: name, options: CheckOptions(properties: [Property(id: rule)]))
        #expect(report.violations.map(\.property.id) == [rule], "\(name): \(rule)")
    }

    // MARK: the examples of docs/spec-format-2.md

    @Test func eachWholeExampleOfTheReferenceHoldsWithTheFiguresItStates() throws {
        // A whole spec shown in a json block, then the sentence that says what `authcheck check` finds.
        let text = try String(contentsOf: Files.root.appendingPathComponent("docs/spec-format-2.md"), encoding: .utf8)
        let pattern = try Regex(#"```json\n(\{\n  "format"[^`]*)```\n\n`authcheck check` says it holds: (\d+) states, (\d+) configurations"#)
        let examples = text.matches(of: pattern)
        #expect(examples.count == 2, "the one-time-code flow of section 1 and the rules of section 12")
        for example in examples {
            let json = try #require(example.output[1].substring.map(String.init))
            let model = try SpecLoader.load(json: json, file: "docs/spec-format-2.md")
            let report = FlowChecker.check(model, source: "docs/spec-format-2.md")
            #expect(report.verdict == .holds, "\(report.violations.map(\.message))")
            #expect("\(report.stats.states) \(report.stats.configurations)" == "\(example.output[2].substring ?? "") \(example.output[3].substring ?? "")")
        }
    }

    // MARK: session-restore

    /// The data keys present in some reachable configuration of `state`.
    static func keys(at state: String, _ model: FlowModel) throws -> Set<String> {
        let graph = ConfigurationGraph(model: model)
        let index = try #require(model.state(named: state)).rawValue
        return Set(graph.configurations.filter { $0.state == index }.flatMap { model.names(of: KeySet(bits: $0.keys)) })
    }

    @Test func useAnotherAccountForgetsTheCachedTokenAndTheRememberedAccount() throws {
        // Every way to the email screen (no cached session, or "use another account" from the greeting or the
        // password screen) arrives with none of the remembered account's data.
        #expect(try Self.keys(at: "email", try Self.model("session-restore")).isEmpty)
        // The authflow/1 form could not say it: its "use another account" kept the token and the email, and a failed
        // refresh reached the email screen still holding the cached token and the session.
        let version1 = try Files.model(Files.root.appendingPathComponent("Tests/AuthCheckEndToEndTests/Expected/specs/session-restore-v1.json").path)
        #expect(try Self.keys(at: "email", version1) == ["cachedToken", "session", "email", "account"])
    }

    @Test func theRememberedAccountIsRefreshedOrAskedOnlyForItsPassword() throws {
        let model = try Self.model("session-restore")
        let found = try Version2SemanticsTests.frame(model, after: ["cachedSessionFound", "continue"])
        #expect(Version2SemanticsTests.moves(model, found) == [
            "refreshed → home {cachedToken, email, account, session}",
            "refreshFailed → password {email, account}",
        ])
        #expect(model.emissions[found.state].allSatisfy { $0.bySystem })
    }

    // MARK: sign-in-next-step

    @Test func theBackendsAnswerDecidesTheScreen() throws {
        let model = try Self.model("sign-in-next-step")
        let signingIn = try Version2SemanticsTests.frame(model, after: ["signInTapped", "submit"])
        #expect(Version2SemanticsTests.moves(model, signingIn) == [
            "signedIn → signedIn {username, password, session, failedPasswords=0, failedCodes=0, resends=0}",
            "challenged → confirmCode {username, password, nextStep=confirmTotp, failedPasswords=0, failedCodes=0, resends=0}",
            "challenged → confirmCode {username, password, nextStep=confirmSms, failedPasswords=0, failedCodes=0, resends=0}",
            "challenged → newPassword {username, password, nextStep=newPasswordRequired, failedPasswords=0, failedCodes=0, resends=0}",
            "wrongPassword → enterCredentials {username, failedPasswords=1, failedCodes=0, resends=0}",
            "sessionExpired → expired {username, password, failedPasswords=0, failedCodes=0, resends=0}",
        ])
        // Only an SMS code can be sent again, twice at most.
        var successors: [FlowModel.Successor] = []
        model.successors(state: signingIn.state, keys: signingIn.keys, values: signingIn.values, into: &successors)
        let offered = { (frame: (state: Int, keys: UInt64, values: UInt64)) in
            Version2SemanticsTests.moves(model, frame).map { String($0.prefix { $0 != " " }) }
        }
        let totpCode = try Self.frame(successors, at: 1), smsCode = try Self.frame(successors, at: 2)
        #expect(offered(totpCode) == ["codeAccepted", "wrongCode", "cancel", "sessionExpired"])
        #expect(offered(smsCode) == ["codeAccepted", "wrongCode", "resendCode", "cancel", "sessionExpired"])
    }

    /// The frame the successor at `index` pushes.
    static func frame(_ successors: [FlowModel.Successor], at index: Int) throws -> (state: Int, keys: UInt64, values: UInt64) {
        guard case let .push(target, keys, values) = successors[index].outcome else { throw CancellationError() }
        return (target.index, keys, values)
    }

    @Test func threeRefusedPasswordsLockTheAccountUntilItsPasswordIsReset() throws {
        let model = try Self.model("sign-in-next-step")
        let refused = ["signInTapped"] + Array(repeating: ["submit", "wrongPassword"], count: 3).flatMap { $0 } + ["submit"]
        let locked = try Version2SemanticsTests.frame(model, after: refused)
        #expect(Version2SemanticsTests.moves(model, locked) == [
            "accountLocked → locked {username, failedPasswords=3, failedCodes=0, resends=0}",
            "sessionExpired → expired {username, password, failedPasswords=3, failedCodes=0, resends=0}",
        ])
        let reset = try Version2SemanticsTests.frame(model, after: refused + ["accountLocked", "resetPassword", "passwordReset"])
        #expect(Version2SemanticsTests.text(model, keys: reset.keys, values: reset.values) == "{username, failedPasswords=0, failedCodes=0, resends=0}")
    }

    @Test func theChallengeExpiresOnEveryScreenAndSignOutStartsAgain() throws {
        let model = try Self.model("sign-in-next-step")
        let expiring = model.states.indices.filter { state in model.emissions[state].contains { model.events[$0.event.index] == "sessionExpired" } }
        #expect(expiring.map { model.states[$0] } == ["enterCredentials", "signingIn", "confirmCode", "newPassword", "resetPassword", "locked"])
        let signedIn = try Version2SemanticsTests.frame(model, after: ["signInTapped", "submit", "signedIn"])
        #expect(Version2SemanticsTests.moves(model, signedIn) == ["signOut → reset"])
    }

    // MARK: account-recovery

    @Test func theServersConfigurationDecidesTheRecoveryMethodAndThePasskeyButton() throws {
        let model = try Self.model("account-recovery")
        #expect(model.variants.map(Version2SemanticsTests.variantText)
                == ["recovery=code,passkeys=off", "recovery=code,passkeys=on", "recovery=link,passkeys=off", "recovery=link,passkeys=on"])
        for (root, screen) in [(0, "enterRecoveryCode"), (1, "enterRecoveryCode"), (2, "checkInbox"), (3, "checkInbox")] {
            let sent = try Version2SemanticsTests.frame(model, root: root, after: ["signInTapped", "forgotPassword", "sendRecovery"])
            #expect(model.states[sent.state] == screen, "variant \(root)")
        }
        for root in 0..<4 {
            let signIn = try Version2SemanticsTests.frame(model, root: root, after: ["signInTapped"])
            let passkey = Version2SemanticsTests.moves(model, signIn).contains { $0.hasPrefix("usePasskey") }
            #expect(passkey == (root % 2 == 1), "variant \(root)")
        }
    }

    @Test func fiveWrongRecoveryCodesAskForANewOne() throws {
        let model = try Self.model("account-recovery")
        let asked = ["signInTapped", "forgotPassword", "sendRecovery"]
        let four = try Version2SemanticsTests.frame(model, after: asked + Array(repeating: "codeInvalid", count: 4))
        #expect(Version2SemanticsTests.moves(model, four).last == "codeInvalid → recoveryEmail {codeAttempts=0}")
    }
}
