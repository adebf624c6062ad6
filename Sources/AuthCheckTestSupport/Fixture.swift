import Foundation

/// The specs the command's tests run on, as paths relative to the package root, and that root.
///
/// Every end-to-end case runs in the package root, so spec paths print the same everywhere;
/// in-process tests turn them into full paths with ``url(_:)``.
public enum Fixture {
    /// The package's root directory, found from this file's path.
    public static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()   // AuthCheckTestSupport
        .deletingLastPathComponent()   // Sources
        .deletingLastPathComponent()

    public static let accountRecovery = "Specs/account-recovery.json"
    public static let emailFirst = "Specs/email-first.json"
    public static let emailFirstV2 = "Specs/email-first-v2.json"
    public static let sessionRestore = "Specs/session-restore.json"
    public static let signInNextStep = "Specs/sign-in-next-step.json"
    public static let signupDetailsLast = "Specs/signup-details-last.json"
    /// Every spec in `Specs/`, in order.
    public static let realSpecs = [accountRecovery, emailFirstV2, emailFirst, sessionRestore, signInNextStep, signupDetailsLast]

    /// A spec written for the command's tests, in `Tests/AuthCheckEndToEndTests/Expected/specs/`.
    public static func spec(_ name: String) -> String { "Tests/AuthCheckEndToEndTests/Expected/specs/\(name).json" }

    /// The full path of a fixture path relative to the package root.
    public static func url(_ path: String) -> URL { packageRoot.appendingPathComponent(path) }
}
