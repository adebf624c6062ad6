import AuthFlow
import Testing

/// `secrets` and `outputs` are settings about keys the steps use: a name no step uses is an
/// error, located, with a hint; a misspelled secret must never leave the real one printed.
@Suite struct KeySettingsTests {
    static let spec = """
    { "format": "authflow/1", "initial": "email", "success": ["done"], "abort": [],
      "steps": { "email": { "emits": { "submit": ["email", "mfaCode"] } },
                 "done": { "requires": ["email"] } },
      "transitions": [ { "from": "email", "on": "submit", "to": "done" } ],
      SETTINGS }
    """

    func load(_ settings: String) throws(InvalidSpecError) -> FlowModel {
        try SpecLoader.load(json: Self.spec.replacingOccurrences(of: "SETTINGS", with: settings))
    }

    func firstIssue(_ settings: String) -> SpecIssue? {
        do {
            _ = try load(settings)
            return nil
        } catch {
            return error.first
        }
    }

    @Test func aMisspelledSecretIsInvalidWithWhereAndAHint() {
        let issue = firstIssue(#""secrets": ["mfaCdoe"]"#)
        #expect(issue?.path == "$.secrets[0]")
        #expect(issue?.location == SourceLocation(line: 5, column: 15))
        #expect(issue?.message == "secrets names 'mfaCdoe', which no step requires or adds (did you mean 'mfaCode'?)")
    }

    @Test func aSecretNoStepUsesIsInvalidEvenWithoutAHint() {
        #expect(firstIssue(#""secrets": ["session"]"#)?.message == "secrets names 'session', which no step requires or adds")
    }

    @Test func secretsThatNameUsedKeysLoad() throws {
        let model = try load(#""secrets": ["mfaCode", "email"]"#)
        #expect(model.names(of: model.secrets).sorted() == ["email", "mfaCode"])
    }

    @Test func outputsMustBeKeysSomeEventAdds() {
        let unknown = firstIssue(#""outputs": ["sesion"]"#)
        #expect(unknown?.path == "$.outputs[0]")
        #expect(unknown?.message == "outputs names 'sesion', which no step requires or adds")
        let spec = Self.spec.replacingOccurrences(of: #""requires": ["email"]"#, with: #""requires": ["email", "token"]"#)
            .replacingOccurrences(of: "SETTINGS", with: #""outputs": ["token"]"#)
        do {
            _ = try SpecLoader.load(json: spec)
            Issue.record("an output no event adds loaded")
        } catch {
            #expect(error.first.message == "outputs names 'token', which no event adds")
        }
    }

    @Test func outputsLoadAsTheirKeys() throws {
        let model = try load(#""outputs": ["mfaCode"]"#)
        #expect(model.names(of: model.outputs) == ["mfaCode"])
    }
}
