import AuthFlow
import Testing

/// Settings the semantics never reads load, and each leaves a spec warning at the setting (#29: `"back": true`
/// on the terminal `home` step was ignored without a word).
@Suite struct IgnoredSettingsTests {
    static let spec = """
    { "format": "authflow/2", "initial": "start", "success": ["home"], "abort": ["cancelled"],
      "steps": {
        "start": { "back": false, "emits": { "signedIn": ["session"], "cancel": [] } },
        "home": { "requires": ["session"], "back": true, "emits": { "signOut": [] } },
        "expired": { "back": false, "emits": { "again": [] } },
        "cancelled": { "back": false } },
      "transitions": [
        { "from": "start", "on": "signedIn", "to": "home" }, { "from": "start", "on": "cancel", "to": "cancelled" },
        { "from": "expired", "on": "again", "to": "start" },
        { "from": "home", "on": "signOut", "to": "start", "reset": true, "clears": ["session"] } ],
      "anywhere": [ { "on": "timeout", "to": "expired", "by": "system", "except": ["expired", "home"] } ] }
    """

    @Test func eachIgnoredSettingIsAWarningAtItsPath() throws {
        let model = try SpecLoader.load(json: Self.spec)
        #expect(model.warnings.map(\.path) == ["$.steps.home.back", "$.steps.cancelled.back", "$.anywhere[0].except[1]",
                                               "$.transitions[3].clears"])
        #expect(model.warnings.allSatisfy { $0.location != nil && $0.message.contains("ignored") }, "\(model.warnings)")
        #expect(model.warnings.first?.location == SourceLocation(line: 4, column: 48))
    }

    @Test func theSameFlowWithoutThemHasNoWarning() throws {
        let clean = Self.spec
            .replacingOccurrences(of: #", "back": true"#, with: "")
            .replacingOccurrences(of: #""cancelled": { "back": false }"#, with: #""cancelled": {}"#)
            .replacingOccurrences(of: #", "clears": ["session"]"#, with: "")
            .replacingOccurrences(of: #", "home"]"#, with: "]")
        #expect(try SpecLoader.load(json: clean).warnings == [])
    }
}
