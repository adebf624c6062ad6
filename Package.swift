// swift-tools-version: 6.0
// authcheck: prove an app's authentication flow correct before it ships.
// No package dependencies: only what the Swift toolchain ships.
import PackageDescription

let package = Package(
    name: "authcheck",
    products: [
        // The runtime apps run their flows on; specs load into it at run time.
        .library(name: "AuthFlow", targets: ["AuthFlow"]),
        // The bounded model checker, the runtime explorer and the random-path tester.
        .library(name: "AuthFlowChecker", targets: ["AuthFlowChecker"]),
        // Seeded generators, forAll and integrated shrinking, usable on their own.
        .library(name: "PropertyTesting", targets: ["PropertyTesting"]),
        .executable(name: "authcheck", targets: ["authcheck"]),
        // Login kit: providers (email+password, SSO), validators and session storage, on the runtime.
        .library(name: "AuthLogin", targets: ["AuthLogin"]),
        // `swift package authcheck` in a package that depends on this one: checks its Specs/*.json.
        .plugin(name: "AuthCheckPlugin", targets: ["AuthCheckPlugin"]),
    ],
    targets: [
        .target(name: "AuthFlow"),
        // The login kit, on the runtime, and its tests.
        .target(name: "AuthLogin", dependencies: ["AuthFlow"]),
        .testTarget(name: "AuthLoginTests", dependencies: ["AuthLogin", "AuthFlow"]),
        .target(name: "PropertyTesting"),
        .target(name: "AuthFlowChecker", dependencies: ["AuthFlow", "PropertyTesting"]),
        .target(name: "AuthCheckCLI", dependencies: ["AuthFlow", "AuthFlowChecker"]),
        // Generators of large flows and tracker logs for tests and benchmarks: in no product, so they never ship.
        .target(name: "FlowGenerators", dependencies: ["AuthFlow", "AuthFlowChecker", "PropertyTesting"]),
        .executableTarget(name: "authcheck", dependencies: ["AuthCheckCLI"]),
        .plugin(
            name: "AuthCheckPlugin",
            capability: .command(intent: .custom(
                verb: "authcheck",
                description: "check the package's Specs/*.json (or the specs given) with 'authcheck check'"
            )),
            dependencies: ["authcheck"]
        ),
        // What only tests use, kept out of the shipped binary: runtime faults, captured output, fixtures.
        .target(name: "AuthCheckTestSupport", dependencies: ["AuthCheckCLI", "AuthFlow", "AuthFlowChecker"]),
        // The command as the end-to-end tests run it: durations fixed, a runtime fault when asked for.
        .executableTarget(name: "authcheck-testing", dependencies: ["AuthCheckCLI", "AuthCheckTestSupport"]),
        .executableTarget(
            name: "authcheck-bench",
            dependencies: ["AuthFlow", "AuthFlowChecker", "PropertyTesting", "FlowGenerators", "SignInCoordinatorExample"],
            path: "Benchmarks/authcheck-bench"
        ),
        .testTarget(name: "AuthFlowTests", dependencies: ["AuthFlow", "PropertyTesting"]),
        .testTarget(name: "PropertyTestingTests", dependencies: ["PropertyTesting"]),
        .testTarget(
            name: "AuthFlowCheckerTests",
            dependencies: ["AuthFlowChecker", "AuthFlow", "PropertyTesting", "AuthCheckTestSupport", "FlowGenerators"],
            resources: [.copy("Fixtures")]
        ),
        // The command in process: parsing, formatting, the checker's figures as the command prints them.
        .testTarget(
            name: "AuthCheckCLIUnitTests",
            dependencies: ["AuthCheckCLI", "AuthCheckTestSupport", "AuthFlow", "AuthFlowChecker"]
        ),
        // The example app's coordinator (Examples/SignInCoordinator, its own package too) and its
        // tests, built here as well so that `swift test` checks it and the benchmark can walk it.
        .target(name: "SignInCoordinatorExample", path: "Examples/SignInCoordinator/Sources/SignInCoordinator"),
        .testTarget(
            name: "SignInCoordinatorExampleTests",
            dependencies: ["SignInCoordinatorExample", "AuthFlow", "AuthFlowChecker"],
            path: "Examples/SignInCoordinator/Tests/SignInCoordinatorTests"
        ),
        // The async example app (Examples/AsyncSignIn, its own package too): a @MainActor view model awaiting its
        // backend, checked against Specs/email-first-v2.json with the checker playing the backend.
        .target(name: "AsyncSignInExample", path: "Examples/AsyncSignIn/Sources/AsyncSignIn"),
        .testTarget(
            name: "AsyncSignInExampleTests",
            dependencies: ["AsyncSignInExample", "AuthFlow", "AuthFlowChecker"],
            path: "Examples/AsyncSignIn/Tests/AsyncSignInTests"
        ),
        // The built executables against the golden files in Expected/.
        .testTarget(
            name: "AuthCheckEndToEndTests",
            dependencies: ["AuthCheckTestSupport"],
            resources: [.copy("Expected")]
        ),
    ]
)
