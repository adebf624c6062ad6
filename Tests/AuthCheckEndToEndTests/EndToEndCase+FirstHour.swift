import AuthCheckTestSupport

extension EndToEndCase {
    /// The first hour with a spec (#29): each mistake a newcomer makes says what it is and how to fix it.
    static let firstHour: [EndToEndCase] = [
        // A comma after the last member: said as such, at the comma, not as a key expected before '}'.
        .init("check-trailing-comma", ["check", Fixture.spec("trailing-comma")]),
        // "success": ["Home"] beside a step 'home': names the step, not only the list of steps.
        .init("check-success-case", ["check", Fixture.spec("success-case")]),
        // A counter given to equals: says it is a counter and writes the atLeast and below guards.
        .init("check-counter-equals", ["check", Fixture.spec("counter-equals")]),
        // A when beside list-form emissions: not an event called 'when'; the object form is shown.
        .init("check-when-beside-list", ["check", Fixture.spec("when-beside-list")]),
        // Settings the semantics never reads are spec warnings at the setting: back on a terminal step, a terminal
        // state in anywhere's except, clears on a reset row. The flow still holds (exit 0), and JSON lists them too.
        .init("check-terminal-back", ["check", Fixture.spec("terminal-back")]),
        .init("check-ignored-settings", ["check", Fixture.spec("ignored-settings-2")]),
        .init("check-ignored-settings-json", ["check", "--format", "json", Fixture.spec("terminal-back")]),
    ]
}
