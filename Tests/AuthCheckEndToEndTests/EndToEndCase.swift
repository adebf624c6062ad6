import AuthCheckTestSupport

/// One run of the command whose stdout, stderr and exit status are kept in `Expected/`.
struct EndToEndCase: Sendable, CustomStringConvertible {
    /// The name of its expected files: `Expected/NAME.stdout`, `.stderr`, `.status`.
    var name: String
    /// The arguments after `authcheck`.
    var arguments: [String]
    /// Extra environment variables (`AUTHCHECK_TEST_FAULT` for a runtime fault).
    var environment: [String: String] = [:]
    /// What standard input holds (empty when nil).
    var stdin: String?

    init(_ name: String, _ arguments: [String], environment: [String: String] = [:], stdin: String? = nil) {
        self.name = name
        self.arguments = arguments
        self.environment = environment
        self.stdin = stdin
    }

    /// The commands whose reports print a duration.
    static let timedCommands: Set<String> = ["check", "explore", "coverage", "fuzz", "traces"]

    /// `authcheck-testing` when the output holds a duration (fixed at 0.000 there) or a fault is injected; else the shipped `authcheck`.
    var executable: AuthCheckBinary {
        environment["AUTHCHECK_TEST_FAULT"] != nil || Self.timedCommands.contains(arguments.first ?? "") ? .testing : .shipped
    }

    var description: String {
        let env = environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value) " }.joined()
        return "\(name): \(env)\(executable.name) \(arguments.map { $0.contains(" ") || $0.isEmpty ? "'\($0)'" : $0 }.joined(separator: " "))"
    }
}

extension EndToEndCase {
    /// Every case, by what it shows.
    static let all: [EndToEndCase] = holds + violations + invalid + json + ci + input + limits + coverage + fuzz + passcode + usage + help + paths
        + traces + firstHour + diff

    /// A log of tracker records written for the command's tests, in `Expected/traces/`.
    static func traceLog(_ name: String) -> String { "Tests/AuthCheckEndToEndTests/Expected/traces/\(name).jsonl" }

    /// The `authflow/2` fixture of the checker's tests: values, counters, config variants, guards, a reset row.
    static let version2Spec = "Tests/AuthFlowCheckerTests/Fixtures/version2/sign-in.json"

    /// The example of docs/traces.md: sessions recorded against session-restore, six of them broken, the last record cut off.
    static let exampleLog = "Examples/traces/session-restore.jsonl"

    /// Recorded sessions against their spec: each finding located, records that cannot be read, the funnel in every format.
    static let traces: [EndToEndCase] = [
        .init("traces-text", ["traces", Fixture.sessionRestore, exampleLog]),
        .init("traces-json", ["traces", "--format", "json", "--max-listed", "2", Fixture.sessionRestore, exampleLog]),
        .init("traces-dot", ["traces", "--format", "dot", Fixture.sessionRestore, exampleLog]),
        .init("traces-mermaid", ["traces", "--format", "mermaid", Fixture.sessionRestore, exampleLog]),
        .init("traces-clean", ["traces", Fixture.emailFirst, traceLog("clean")]),
        // Section 6: sessions that enter home (aal2) with one factor, by the keys their records name.
        .init("traces-assurance", ["traces", "Examples/assurance/recovery-link-fixed.json", "Examples/traces/recovery-link-fixed.jsonl"]),
        .init("traces-assurance-json", ["traces", "--format", "json", "Examples/assurance/recovery-link-fixed.json",
                                        "Examples/traces/recovery-link-fixed.jsonl"]),
        // Malformed, truncated, interleaved, duplicated, out-of-order, out-of-sequence and mid-flow records, each at its line.
        .init("traces-problems", ["traces", Fixture.emailFirst, traceLog("problems")]),
        .init("traces-problems-json", ["traces", "--format", "json", Fixture.emailFirst, traceLog("problems")]),
        // An older tracker's records: read, transitions checked, requirements skipped and said so.
        .init("traces-old-records", ["traces", Fixture.emailFirst, traceLog("old")]),
        .init("traces-unreadable", ["traces", Fixture.emailFirst, traceLog("unreadable")]),
        .init("traces-unreadable-strict", ["traces", "--strict", Fixture.emailFirst, traceLog("unreadable")]),
        .init("traces-stdin", ["traces", Fixture.emailFirst, "-"], stdin: contents(traceLog("old"))),
        // Sessions that continue from one file into the next (clean.jsonl cut in two).
        .init("traces-two-files", ["traces", Fixture.emailFirst, traceLog("day1"), traceLog("day2")]),
        // authflow/2: values pick the branch, guards and variants replayed; --variant narrows the candidates.
        .init("traces-version2", ["traces", version2Spec, traceLog("version2")]),
        .init("traces-version2-variant", ["traces", "--format", "json", "--max-listed", "3", "--variant", "recovery=link",
                                          version2Spec, traceLog("version2")]),
        .init("traces-missing-file", ["traces", Fixture.emailFirst, "no-such-log.jsonl"]),
        .init("traces-invalid-spec", ["traces", Fixture.spec("malformed"), traceLog("clean")]),
        .init("traces-invalid-spec-dot", ["traces", "--format", "dot", Fixture.spec("malformed"), traceLog("clean")]),
        .init("usage-traces-no-file", ["traces", Fixture.emailFirst]),
        .init("usage-traces-spec-on-stdin", ["traces", "-", traceLog("clean")]),
        .init("usage-traces-bad-timeout", ["traces", "--session-timeout", "soon", Fixture.emailFirst, traceLog("clean")]),
        .init("help-traces", ["traces", "--help"]),
    ]

    /// Reports for CI and editors: SARIF, JUnit XML, GitHub workflow annotations.
    static let ci: [EndToEndCase] = [
        .init("check-sarif", ["check", "--format", "sarif", Fixture.spec("illegal-transition"), Fixture.spec("legacy"), Fixture.spec("malformed")]),
        .init("explore-sarif", ["explore", "--format", "sarif", Fixture.spec("unmet-requirement")]),
        .init("check-junit", ["check", "--format", "junit", Fixture.sessionRestore, Fixture.spec("deadlock"), Fixture.spec("malformed")]),
        .init("check-github-annotations", ["check", Fixture.spec("illegal-transition"), Fixture.spec("legacy"), Fixture.spec("malformed")],
              environment: ["GITHUB_ACTIONS": "true"]),
        .init("check-github-annotations-sarif", ["check", "--format", "sarif", Fixture.spec("deadlock")], environment: ["GITHUB_ACTIONS": "true"]),
        // A rule per spec's own property with its description; each result at the property's entry.
        .init("check-user-property-sarif", ["check", "--format", "sarif", version2Broken("mfa-skip"), version2Broken("lockout-variant")]),
        .init("check-user-property-junit", ["check", "--format", "junit", version2Broken("mfa-skip"), version2Broken("lockout-variant")]),
        .init("check-user-property-annotations", ["check", version2Broken("password-kept")], environment: ["GITHUB_ACTIONS": "true"]),
    ]

    /// A spec on standard input, and `--quiet`.
    static let input: [EndToEndCase] = [
        .init("check-stdin", ["check", "-", Fixture.sessionRestore], stdin: contents(Fixture.spec("unmet-requirement"))),
        .init("check-stdin-invalid", ["check", "-"], stdin: "{ \"format\": \"authflow/1\",\n  \"steps\": 3 }\n"),
        .init("check-quiet", ["check", "--quiet"] + Fixture.realSpecs + [Fixture.spec("deadlock")]),
        .init("check-quiet-holds", ["check", "--quiet"] + Fixture.realSpecs),
    ]

    /// The text of a file in the package, for standard input.
    static func contents(_ path: String) -> String {
        (try? String(contentsOf: Fixture.url(path), encoding: .utf8)) ?? ""
    }

    /// The random-path tester: a flow that holds, a spec violation shrunk, a runtime fault with secrets, JSON.
    static let fuzz: [EndToEndCase] = [
        .init("fuzz-holds", ["fuzz", "--runs", "200", "--seed", "0x5EED", "--max-steps=20", Fixture.emailFirst]),
        .init("fuzz-unmet-requirement", ["fuzz", "--seed", "7", Fixture.spec("unmet-requirement")]),
        .init("fuzz-secrets-redacted", ["fuzz", "--seed", "3", Fixture.spec("secrets")],
              environment: ["AUTHCHECK_TEST_FAULT": "undo-refused:otp"]),
        .init("fuzz-json", ["fuzz", "--format", "json", "--seed", "3", Fixture.spec("secrets")],
              environment: ["AUTHCHECK_TEST_FAULT": "undo-refused:otp"]),
        .init("fuzz-invalid-spec", ["fuzz", Fixture.spec("malformed")]),
        // A reachable rule that check finds broken: no random path can show that no path exists, and the run says so.
        .init("fuzz-reachable-rule-undecided", ["fuzz", "--runs", "50", Fixture.spec("unreached-rule")]),
        .init("fuzz-reachable-rule-undecided-json", ["fuzz", "--format", "json", "--runs", "50", Fixture.spec("unreached-rule")]),
        // The spec's own rule by its id, shrunk to the checker's shortest; the replay line keeps the choice.
        .init("fuzz-user-property", ["fuzz", "--seed", "3", "--property", "mfa-before-session", version2Broken("mfa-skip")]),
        .init("export-promela", ["export", "--format", "promela", "--depth", "3", Fixture.sessionRestore]),
        // Without --depth, every configuration: a deadlock is an invalid end state, the terminal states wait.
        .init("export-promela-configurations", ["export", "--format", "promela", Fixture.spec("deadlock")]),
        .init("usage-export-bad-format", ["export", "--format", "tla", Fixture.sessionRestore]),
        // A report's format names the command that writes it.
        .init("usage-export-json", ["export", "--format", "json", Fixture.sessionRestore]),
    ]

    /// Each real spec holds (exit 0); several at once get a summary line.
    static let holds: [EndToEndCase] = [
        .init("check-email-first", ["check", Fixture.emailFirst]),
        .init("check-session-restore", ["check", Fixture.sessionRestore]),
        .init("check-signup-details-last", ["check", Fixture.signupDetailsLast]),
        .init("check-all-specs", ["check"] + Fixture.realSpecs),
        .init("explore-email-first", ["explore", Fixture.emailFirst]),
    ]

    /// Each property violated, with its counterexample (exit 1).
    static let violations: [EndToEndCase] = [
        .init("check-illegal-transition", ["check", Fixture.spec("illegal-transition")]),
        .init("check-unmet-requirement", ["check", Fixture.spec("unmet-requirement")]),
        .init("check-deadlock", ["check", Fixture.spec("deadlock")]),
        .init("check-no-exit", ["check", Fixture.spec("no-exit")]),
        .init("check-terminal-exit", ["check", Fixture.spec("terminal-exit")]),
        .init("explore-unmet-requirement", ["explore", Fixture.spec("unmet-requirement")]),
        .init("explore-property-filter", ["explore", "--property", "deadlock,no-exit", Fixture.spec("no-exit")]),
        .init("explore-property-filter-holds", ["explore", "--property=terminal-exit", "--property", "deadlock", Fixture.spec("no-exit")]),
        // The spec's own rule by its id: the checker's counterexample, and what the runtime walk found on every frame it drove.
        .init("explore-user-rule", ["explore", "--property", "mfa-before-session", version2Broken("mfa-skip")]),
        .init("explore-user-rule-json", ["explore", "--format", "json", "--property", "no-password-after-sign-in", version2Broken("password-kept")]),
        // A runtime counterexample carries values; a secret key prints as <redacted>.
        .init("check-secrets-redacted", ["check", Fixture.spec("secrets")],
              environment: ["AUTHCHECK_TEST_FAULT": "undo-refused:otp"]),
        .init("explore-secrets-redacted-json", ["explore", "--format", "json", Fixture.spec("secrets")],
              environment: ["AUTHCHECK_TEST_FAULT": "undo-refused:otp"]),
        .init("check-divergence", ["check", Fixture.emailFirst], environment: ["AUTHCHECK_TEST_FAULT": "rejects:resend"]),
        .init("check-passcode-naive", ["check", "--property", "passcode", Fixture.emailFirst],
              environment: ["AUTHCHECK_TEST_FAULT": "naive-passcode"]),
        .init("check-strict-lint", ["check", "--strict", Fixture.signupDetailsLast]),
        // A row whose event its step never emits: a spec warning at the row's 'on', with the nearest emitted event.
        .init("check-misspelled-event", ["check", Fixture.spec("misspelled-event")]),
        .init("check-misspelled-event-sarif", ["check", "--format", "sarif", Fixture.spec("misspelled-event")]),
        // authflow/2: the variant a path ran in, and the values after each step (counters included, config left out).
        .init("check-v2-variant", ["check", version2Broken("expiry-trap"), version2Broken("passkey-variant")]),
        .init("check-v2-values-json", ["check", "--format", "json", version2Broken("lockout"), version2Broken("passkey-variant")]),
        // The team's own rules: a never broken by a skip button (its shortest path and the rule in the team's words),
        // a reachable no configuration satisfies in one variant (no state, no path), an always; a back-only screen.
        .init("check-user-property", ["check", version2Broken("mfa-skip")]),
        .init("check-user-property-json", ["check", "--format", "json", version2Broken("mfa-skip"), version2Broken("lockout-variant")]),
        .init("check-user-properties", ["check", version2Broken("lockout-variant"), version2Broken("password-kept"), version2Broken("help-screens")]),
        .init("explore-user-property", ["explore", version2Broken("lockout-variant")]),
        // Section 6: a recovery link and a social sign-in that meet only aal1 where home asks for aal2; every way in, weakest first.
        .init("check-assurance", ["check", assurance("recovery-bypass"), assurance("unmeetable")]),
        .init("check-assurance-json", ["check", "--format", "json", assurance("recovery-bypass")]),
        .init("check-assurance-sarif", ["check", "--format", "sarif", assurance("passkey-aal3")]),
        // `--property assurance` on a spec no step of which asks for a level: refused, rather than said to hold.
        .init("check-assurance-not-declared", ["check", "--property", "assurance", version2Broken("mfa-skip")]),
        .init("explore-user-property-selected", ["explore", "--format", "json", "--property", "mfa-before-session", version2Broken("mfa-skip")]),
        .init("coverage-user-property", ["coverage", version2Broken("mfa-skip")]),
    ]

    /// A broken `authflow/2` fixture of the checker's tests.
    static func version2Broken(_ name: String) -> String { "Tests/AuthFlowCheckerTests/Fixtures/version2/broken/\(name).json" }
    static func assurance(_ name: String) -> String { "Tests/AuthFlowCheckerTests/Fixtures/assurance/\(name).json" }

    /// Invalid specs: located problems in the report on stdout, nothing on stderr; with a document on stdout, one `error:` line (exit 2).
    static let invalid: [EndToEndCase] = [
        .init("check-malformed-json", ["check", Fixture.spec("malformed")]),
        .init("check-unknown-key", ["check", Fixture.spec("unknown-key")]),
        .init("check-bad-reference", ["check", Fixture.spec("bad-reference")]),
        .init("check-missing-file", ["check", "Specs/no-such-spec.json"]),
        .init("check-invalid-json-format", ["check", "--format", "json", Fixture.spec("malformed")]),
        .init("explore-invalid-spec", ["explore", Fixture.spec("bad-reference")]),
        .init("coverage-invalid-text", ["coverage", Fixture.spec("bad-reference")]),
        .init("export-invalid-spec", ["export", "--format", "promela", Fixture.spec("malformed")]),
    ]

    /// `--format json`: an object for one spec, an array for several; the worst status wins.
    static let json: [EndToEndCase] = [
        .init("check-json-one", ["check", "--format", "json", Fixture.sessionRestore]),
        .init("check-json-violated", ["check", "--format=json", Fixture.spec("unmet-requirement")]),
        .init("check-json-several", ["check", "--format", "json", Fixture.signupDetailsLast, Fixture.spec("deadlock"), Fixture.spec("bad-reference")]),
        .init("check-several-invalid-outranks", ["check", Fixture.spec("deadlock"), Fixture.spec("malformed"), Fixture.emailFirst]),
    ]

    /// Limits: a stopped run is incomplete (exit 3), but a violation outranks it (exit 1).
    static let limits: [EndToEndCase] = [
        .init("check-incomplete", ["check", "--max-configurations", "30", Fixture.emailFirst]),
        .init("check-violated-outranks-incomplete", ["check", "--max-configurations", "30", Fixture.spec("deadlock"), Fixture.emailFirst]),
        .init("check-depth-zero", ["check", "--depth", "0", Fixture.sessionRestore]),
        // A stopped search prints no lint: the unused data of a complete check is not claimed.
        .init("check-incomplete-no-lint", ["check", "--max-configurations", "5", Fixture.signupDetailsLast]),
    ]

    /// Coverage in every format.
    static let coverage: [EndToEndCase] = [
        .init("coverage-text", ["coverage", Fixture.emailFirst]),
        .init("coverage-text-lint", ["coverage", Fixture.spec("legacy")]),
        // Sibling events that push the same frame give one stack, counted for the earlier event.
        .init("coverage-text-siblings", ["coverage", "--depth", "3", Fixture.spec("siblings")]),
        .init("coverage-text-depth-2", ["coverage", "--depth", "2", Fixture.signupDetailsLast]),
        .init("coverage-json", ["coverage", "--format", "json", Fixture.sessionRestore]),
        .init("coverage-json-lint", ["coverage", "--format", "json", Fixture.spec("legacy")]),
        .init("coverage-dot", ["coverage", "--format", "dot", Fixture.spec("legacy")]),
        .init("coverage-dot-odd-names", ["coverage", "--format", "dot", Fixture.spec("odd-names")]),
        .init("coverage-mermaid", ["coverage", "--format", "mermaid", Fixture.spec("legacy")]),
        .init("coverage-mermaid-odd-names", ["coverage", "--format", "mermaid", Fixture.spec("odd-names")]),
        // The edge that breaks a property is red (✗ in Mermaid): here the counterexample's last step.
        .init("coverage-dot-violated-edge", ["coverage", "--format", "dot", Fixture.spec("unmet-requirement")]),
        .init("coverage-mermaid-violated-edge", ["coverage", "--format", "mermaid", Fixture.spec("unmet-requirement")]),
        // One page, no URL: the graph, its counts on hover, a violation's path walked on it.
        .init("coverage-html", ["coverage", "--format", "html", Fixture.spec("legacy")]),
        .init("check-html-violated", ["check", "--format", "html", Fixture.spec("unmet-requirement")]),
        .init("coverage-strict", ["coverage", "--strict", Fixture.spec("odd-names")]),
        .init("coverage-incomplete", ["coverage", "--max-configurations", "4", Fixture.signupDetailsLast]),
        .init("coverage-invalid-dot", ["coverage", "--format", "dot", Fixture.spec("bad-reference")]),
    ]

    /// The passcode normaliser: folding, spaces, invisible characters, policies from options or a spec.
    static let passcode: [EndToEndCase] = [
        .init("passcode-default", ["passcode", "１２３ ４５６", " 123 456 ", "ab\u{200B}c-12", "", "Your code is 123 456."]),
        .init("passcode-max-length", ["passcode", "--max-length", "4", "123456", "1 2 3"]),
        .init("passcode-alphabet", ["passcode", "--alphabet", "0123456789", "A1B2C3", "１２ ３４"]),
        .init("passcode-spec", ["passcode", "--spec", Fixture.emailFirst, "Your code is 123 456.", "ABC1234567"]),
        .init("passcode-spec-override", ["passcode", "--spec", Fixture.emailFirst, "--max-length=3", "123456"]),
        .init("passcode-stdin", ["passcode"], stdin: "１２３４５６\n  98 76 54\nabc\n"),
        .init("passcode-dash-input", ["passcode", "--", "-12-34-"]),
        .init("passcode-invalid-spec", ["passcode", "--spec", Fixture.spec("malformed"), "123"]),
        .init("passcode-bad-max-length", ["passcode", "--max-length", "-1", "123"]),
        .init("passcode-arabic-indic-digits", ["passcode", "--max-length", "6", "--alphabet", "0123456789", "١٢٣٤٥٦"]),
        .init("passcode-other-scripts", ["passcode", "١٢٣٤٥٦", "۱۲۳ ۴۵۶", "१२३-४५६", "１２３４５６", "12–34−56", "১২৩৪৫৬"]),
        .init("passcode-json", ["passcode", "--format", "json", "--alphabet", "0123456789",
                                "١٢٣٤٥٦", "1234567", "123", "", "Your code is 123 456.", "say \"hi\"\u{1}"]),
        .init("passcode-json-stdin", ["passcode", "--format=json"], stdin: "۱۲۳۴۵۶\n12 34 56 78\n"),
        .init("passcode-report-length", ["passcode", "--report-length", "123456", "1234567", "12 3", ""]),
        .init("passcode-bad-format", ["passcode", "--format", "yaml", "123"]),
        .init("passcode-lowercase-alphabet", ["passcode", "--alphabet", "abc", "abc"]),
        .init("passcode-space-alphabet", ["passcode", "--alphabet", " ", "12 34"]),
    ]

    /// Wrong usage: what was wrong, the nearest option or command, then the usage (exit 2).
    static let usage: [EndToEndCase] = [
        .init("usage-unknown-option", ["check", "--dept", "3", Fixture.emailFirst]),
        .init("usage-single-dash-option", ["check", "-depth", "3", Fixture.emailFirst]),
        .init("usage-missing-value", ["check", Fixture.emailFirst, "--depth"]),
        .init("usage-missing-value-before-option", ["check", "--depth", "--strict", Fixture.emailFirst]),
        .init("usage-not-a-number", ["check", "--depth", "twelve", Fixture.emailFirst]),
        .init("usage-out-of-range", ["check", "--depth=65", Fixture.emailFirst]),
        .init("usage-negative-max-configurations", ["check", "--max-configurations", "-1", Fixture.emailFirst]),
        .init("usage-zero-timeout", ["check", "--timeout", "0", Fixture.emailFirst]),
        .init("usage-unknown-property", ["check", "--property", "illegal-transition,deadlok", Fixture.emailFirst]),
        .init("usage-bad-format", ["check", "--format", "dot", Fixture.emailFirst]),
        .init("usage-flag-with-value", ["check", "--strict=yes", Fixture.emailFirst]),
        .init("usage-missing-spec", ["check"]),
        .init("usage-explore-two-specs", ["explore", Fixture.emailFirst, Fixture.sessionRestore]),
        .init("usage-unknown-command", ["chek", Fixture.emailFirst]),
        .init("usage-missing-command", []),
        .init("usage-spec-without-command", [Fixture.emailFirst]),
        .init("usage-unknown-top-level-option", ["--verison"]),
        .init("usage-fuzz-bad-seed", ["fuzz", "--seed", "lucky", Fixture.emailFirst]),
    ]

    /// Help and version (exit 0), help for a command that does not exist (exit 2).
    static let help: [EndToEndCase] = [
        .init("help", ["help"]),
        .init("help-flag", ["--help"]),
        .init("help-check", ["help", "check"]),
        .init("help-explore", ["explore", "--help"]),
        .init("help-coverage", ["coverage", "-h"]),
        .init("help-fuzz", ["help", "fuzz"]),
        .init("help-export", ["export", "--help"]),
        .init("help-passcode", ["passcode", "--help"]),
        .init("help-help", ["help", "help"]),
        .init("help-wins-over-errors", ["check", "--dept", "3", "--help"]),
        .init("help-unknown-command", ["help", "coverge"]),
        .init("version", ["--version"]),
    ]
}
