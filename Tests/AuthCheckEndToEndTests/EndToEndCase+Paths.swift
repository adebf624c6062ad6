import AuthCheckTestSupport

extension EndToEndCase {
    /// A committed trail in `Expected/trails/`.
    static func trail(_ name: String) -> String { "Tests/AuthCheckEndToEndTests/Expected/trails/\(name).json" }

    /// An `authflow/2` fixture of the checker's tests.
    static func version2(_ name: String) -> String { "Tests/AuthFlowCheckerTests/Fixtures/version2/\(name).json" }

    /// Trails (`explore --trail`, `replay`) and covering paths (`paths`).
    static let paths: [EndToEndCase] = [
        .init("explore-trail", ["explore", "--trail", ".build/authcheck-e2e/trails", Fixture.spec("no-exit")]),
        .init("replay-reproduced", ["replay", Fixture.spec("no-exit"), trail("no-exit-help"), trail("no-exit-faq")]),
        // A runtime fault's trail: reproduced while the fault is there, fixed once it is gone.
        .init("replay-runtime-fault", ["replay", Fixture.spec("secrets"), trail("secrets-undo-mismatch")],
              environment: ["AUTHCHECK_TEST_FAULT": "undo-refused:otp"]),
        .init("replay-fixed", ["replay", Fixture.spec("secrets"), trail("secrets-undo-mismatch")]),
        .init("replay-another-spec", ["replay", Fixture.spec("secrets"), trail("no-exit-help")]),
        // Recorded against an older table: replayed with a note (as fuzz --regressions does), not refused.
        .init("replay-older-table", ["replay", Fixture.spec("no-exit"), trail("no-exit-help-older-table")]),
        .init("replay-unknown-event", ["replay", Fixture.spec("no-exit"), trail("tampered-unknown-event")]),
        .init("replay-reordered", ["replay", Fixture.spec("no-exit"), trail("tampered-reordered")]),
        .init("usage-replay-no-trail", ["replay", Fixture.spec("no-exit")]),
        // authflow/2 trails: each step sends the answer it chose, in the variant the trail names (refused where --variant leaves it out).
        .init("replay-v2-chosen-answer", ["replay", version2("promela-polling-no-exit"), trail("polling-no-exit-waiting")]),
        .init("replay-v2-variant-counter", ["replay", version2("promela-rules"), trail("rules-three-wrong-lock")]),
        .init("replay-v2-variant-left-out", ["replay", "--variant", "region=us", version2("promela-rules"), trail("rules-three-wrong-lock")]),
        // A trail written when runtime paths sorted their keys and kept config values still replays: keys are compared as a set.
        .init("replay-v2-trail-with-sorted-keys", ["replay", version2("promela-rules"), trail("rules-three-wrong-lock-sorted-keys")]),
        // authflow/2 tours: per variant, each step with the values it chose (text, JSON with the values after each step, Swift).
        .init("paths-v2-variants", ["paths", version2("promela-rules")]),
        .init("paths-v2-variants-json", ["paths", "--format", "json", version2("promela-rules")]),
        .init("paths-v2-variants-swift", ["paths", "--format", "swift", version2("promela-rules")]),
        .init("paths-v2-next-step", ["paths", Fixture.signInNextStep]),
        // The authflow/1 session restore.
        .init("paths-transitions", ["paths", Fixture.spec("session-restore-v1")]),
        .init("paths-states-json", ["paths", "--cover", "states", "--format", "json", Fixture.spec("session-restore-v1")]),
        .init("paths-invalid-spec", ["paths", Fixture.spec("bad-reference")]),
        // An invalid spec's problem prints once, in the text report, whatever --format asks for.
        .init("paths-invalid-spec-swift", ["paths", "--format", "swift", Fixture.spec("bad-reference")]),
        .init("usage-paths-bad-cover", ["paths", "--cover", "screens", Fixture.sessionRestore]),
        // Trails as Swift tests on the app's adapter: typed steps, the back steps of section 5 (server-side counters) among
        // them, a refused event marked, a reset as .reset; async, with a variant and a chosen answer.
        .init("replay-swift-next-step-back", ["replay", "--format", "swift", "--adapter", "MyApp.SignInFlow", Fixture.signInNextStep,
                                              trail("next-step-back-to-code")]),
        .init("replay-swift-async-variant", ["replay", "--format", "swift", "--adapter", "LoginModel", "--async", version2("promela-rules"),
                                             trail("rules-three-wrong-lock")]),
        .init("paths-swift-async", ["paths", "--format", "swift", "--adapter", "LoginModel", "--async", Fixture.signInNextStep]),
        .init("usage-replay-swift-no-adapter", ["replay", "--format", "swift", Fixture.signInNextStep, trail("next-step-back-to-code")]),
    ]
}
