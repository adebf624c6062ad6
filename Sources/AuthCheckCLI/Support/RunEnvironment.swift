import AuthFlowChecker

/// What the environment says about a run: colour, and the hooks the end-to-end tests use.
///
/// - `NO_COLOR` (set and not empty, see no-color.org) or `TERM=dumb`: no colour even on a terminal.
/// - `AUTHCHECK_FIXED_TIME=1` (for tests): every printed duration is `0.000`, so output is byte-stable.
/// - `AUTHCHECK_TEST_FAULT=undo-refused:STATE` (for tests, undocumented in `--help`): the runtime
///   driven by `check` and `explore` refuses to undo out of `STATE`, so the end-to-end tests can show
///   how runtime violations print, values and `<redacted>` secrets included.
struct RunEnvironment: Sendable {
    var variables: [String: String]

    init(_ variables: [String: String]) {
        self.variables = variables
    }

    /// Whether the user asked for no colour.
    var noColour: Bool {
        !(variables["NO_COLOR"] ?? "").isEmpty || variables["TERM"] == "dumb"
    }

    /// Where reports read the time: a fixed clock (for tests) makes every duration zero.
    var clock: CheckClock { variables["AUTHCHECK_FIXED_TIME"] == "1" ? .fixed() : .system }

    /// The runtime fault to inject (for tests), if any.
    var testFault: TestFault? {
        guard let text = variables["AUTHCHECK_TEST_FAULT"], !text.isEmpty else { return nil }
        return TestFault(text)
    }

    /// The text style for stdout: ANSI colour only on a terminal and only when colour is not turned off.
    func style(for console: Console) -> TextStyle {
        console.stdoutIsTerminal && !noColour ? .ansi : .plain
    }
}
