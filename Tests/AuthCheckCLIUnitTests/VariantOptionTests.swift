@testable import AuthCheckCLI
import AuthCheckTestSupport
import AuthFlow
import AuthFlowChecker
import Foundation
import Testing

/// `--variant KEY=VALUE` on every command that reads a spec: it restricts an `authflow/2` run to the matching variants.
@Suite struct VariantOptionTests {
    static let spec = """
    {
      "format": "authflow/2",
      "initial": "signIn",
      "success": ["done"],
      "abort": ["cancelled"],
      "config": { "recovery": ["code", "link"], "mfa": ["off", "on"] },
      "steps": {
        "signIn": { "back": false, "emits": { "forgot": [], "ok": [] } },
        "code": { "emits": { "cancel": [] } },
        "link": {},
        "done": {},
        "cancelled": {}
      },
      "transitions": [
        { "from": "signIn", "on": "forgot", "to": "code", "when": { "equals": { "recovery": "code" } } },
        { "from": "signIn", "on": "forgot", "to": "link" },
        { "from": "signIn", "on": "ok", "to": "done" },
        { "from": "code", "on": "cancel", "to": "cancelled" }
      ]
    }
    """

    static func run(_ arguments: [String]) -> (stdout: String, status: Int32) {
        FirstContactTests.run(arguments, input: spec)
    }

    @Test func onlyTheChosenVariantsAreChecked() {
        // By hand: with recovery=code, signIn, code, done and cancelled (4 configurations per mfa value);
        // with recovery=link, signIn, link and done (3 per mfa value), and link deadlocks.
        let all = Self.run(["check", "-", "--format", "json"])
        #expect(all.status == 1)
        #expect(all.stdout.contains("\"configurations\": 14"), "\(all.stdout)")
        let code = Self.run(["check", "-", "--variant", "recovery=code"])
        #expect(code.status == 0, "\(code.stdout)")
        #expect(code.stdout.contains("8 configurations"), "\(code.stdout)")
        let link = Self.run(["check", "-", "--variant", "recovery=link", "--variant", "mfa=on"])
        #expect(link.status == 1)
        #expect(link.stdout.contains("deadlock at link"), "\(link.stdout)")
        #expect(link.stdout.contains("3 configurations"), "\(link.stdout)")
        // One key named twice allows either value: every variant again.
        let both = Self.run(["check", "-", "--variant", "recovery=code", "--variant", "recovery=link", "--format", "json"])
        #expect(both.stdout.contains("\"configurations\": 14"))
    }

    @Test func aChoiceThatDoesNotFitTheFlowIsAnInvalidSpecSayingWhy() {
        let value = Self.run(["check", "-", "--variant", "recovery=sms"])
        #expect(value.status == 2)
        #expect(value.stdout.contains("$.config: --variant recovery=sms: 'sms' is not a value of config key recovery; its values are code, link"), "\(value.stdout)")
        let key = Self.run(["explore", "-", "--variant", "recover=code"])
        #expect(key.status == 2)
        #expect(key.stdout.contains("'recover' is not a config key of the flow; its config keys are recovery, mfa"), "\(key.stdout)")
    }

    @Test func aChoiceThatIsNotKeyEqualsValueIsAUsageError() {
        for command in ["check", "explore", "coverage", "fuzz", "paths", "export"] {
            #expect(Self.run([command, "-", "--variant", "recovery"]).status == 2, "\(command)")
            #expect(Self.run([command, "-", "--variant", "=code"]).status == 2, "\(command)")
        }
    }

    @Test func everyCommandThatReadsASpecTakesIt() {
        for command in ["check", "explore", "coverage", "fuzz", "paths", "export", "replay"] {
            let help = FirstContactTests.run(["help", command]).stdout
            #expect(help.contains("--variant KEY=VALUE"), "\(command)")
        }
    }
}
