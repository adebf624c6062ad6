import AuthFlow
import AuthFlowChecker
import Foundation

/// What a run of the command takes from outside its arguments: colour settings, the clock, and the runtime it drives.
///
/// The shipped `authcheck` runs with ``process()``: this process's variables (only `NO_COLOR` and
/// `TERM` are read, see no-color.org, `GITHUB_ACTIONS` and `AUTHCHECK_INVOKED_AS`), the wall clock and the real runtime. Tests pass their own
/// through ``AuthCheckCommand/main(arguments:environment:console:)``: a fixed clock so every
/// printed duration is `0.000`, or a deliberately broken runtime so a runtime counterexample prints.
///
/// ```swift
/// let environment = RunEnvironment(variables: [:], clock: .fixed())
/// AuthCheckCommand.main(arguments: ["check", "Specs/email-first.json"], environment: environment)
/// ```
public struct RunEnvironment: Sendable {
    /// Environment variables; `NO_COLOR` and `TERM` decide colour, `GITHUB_ACTIONS` annotations.
    public var variables: [String: String]
    /// Where reports read the time.
    public var clock: CheckClock
    /// The runtime `check`, `explore` and `fuzz` drive for a model; `nil` from it drives the real ``FlowSession``.
    public var makeDriver: @Sendable (FlowModel) -> (any FlowDriver)?
    /// The passcode normaliser the `passcode` property checks for a model; `nil` from it checks ``PasscodeNormaliser``.
    public var makeNormaliser: @Sendable (FlowModel) -> (@Sendable (String) -> String)?

    public init(variables: [String: String], clock: CheckClock = .system,
                makeDriver: @escaping @Sendable (FlowModel) -> (any FlowDriver)? = { _ in nil },
                makeNormaliser: @escaping @Sendable (FlowModel) -> (@Sendable (String) -> String)? = { _ in nil }) {
        self.variables = variables
        self.clock = clock
        self.makeDriver = makeDriver
        self.makeNormaliser = makeNormaliser
    }

    /// This process's variables, the wall clock and the real runtime: how the shipped command runs.
    public static func process() -> RunEnvironment {
        RunEnvironment(variables: ProcessInfo.processInfo.environment)
    }

    /// Whether the user asked for no colour.
    var noColour: Bool {
        !(variables["NO_COLOR"] ?? "").isEmpty || variables["TERM"] == "dumb"
    }

    /// How the printed command lines that replay a finding start: `authcheck`, or `AUTHCHECK_INVOKED_AS`
    /// when it is set to a line of printable text (the command plugin sets `swift package authcheck`).
    var invokedAs: String {
        guard let name = variables["AUTHCHECK_INVOKED_AS"], !name.isEmpty, name.utf8.count <= 256,
              !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return "authcheck" }
        return name
    }

    /// Whether the run is a GitHub Actions step (`GITHUB_ACTIONS=true`), so `check` also prints
    /// workflow commands that annotate the spec's lines.
    var annotatesForGitHub: Bool {
        variables["GITHUB_ACTIONS"] == "true"
    }

    /// The text style for stdout: ANSI colour only on a terminal and only when colour is not turned off.
    func style(for console: Console) -> TextStyle {
        console.stdoutIsTerminal && !noColour ? .ansi : .plain
    }

    /// The runtime factory for `fuzz`, which builds a fresh runtime per run: `nil` for the real session.
    func driverFactory(for model: FlowModel) -> (() -> any FlowDriver)? {
        guard makeDriver(model) != nil else { return nil }
        let make = makeDriver
        return { make(model) ?? SessionDriver(model: model) }
    }
}
