import AuthFlow
import Testing

/// An emission's equality is what it means: every key of the file but how the emission was spelled.
@Suite struct EmissionEqualityTests {
    static func base() -> FlowSpec.Emission {
        var emission = FlowSpec.Emission("submit", adds: ["email"])
        emission.writtenAsList = true
        return emission
    }

    @Test func twoSpellingsOfOneEmissionAreEqualAndHashAlike() {
        var object = Self.base()
        object.writtenAsList = false
        #expect(object == Self.base())
        #expect(Set([object, Self.base()]).count == 1)
        #expect(object.writtenAsList == false && Self.base().writtenAsList)
    }

    /// A key an emission gains takes part in equality with no further change (the conformance is synthesized).
    @Test(arguments: ["event", "adds", "clears", "set", "increment", "when", "by", "answers"])
    func everyKeyThatMeansSomethingTellsEmissionsApart(_ key: String) {
        var changed = Self.base()
        switch key {
        case "event": changed.event = "cancel"
        case "adds": changed.adds = []
        case "clears": changed.clears = ["code"]
        case "set": changed.set = [FlowSpec.KeyValue("mode", "sms")]
        case "increment": changed.increment = ["tries"]
        case "when": changed.when = .has("email")
        case "by": changed.by = .system
        default: changed.answers = [FlowSpec.KeyValues("mode", ["sms"])]
        }
        #expect(changed != Self.base())
        #expect(Set([changed, Self.base()]).count == 2)
    }
}
