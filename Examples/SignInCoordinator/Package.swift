// swift-tools-version: 6.0
// An app's own sign-in coordinator, checked against Specs/email-first.json by authcheck.
import PackageDescription

let package = Package(
    name: "SignInCoordinator",
    products: [
        .library(name: "SignInCoordinator", targets: ["SignInCoordinator"]),
    ],
    dependencies: [
        // This repository's own package: the checker, as an app adds it for its tests.
        .package(name: "authcheck", path: "../.."),
    ],
    targets: [
        // The app's code: it knows nothing of authcheck.
        .target(name: "SignInCoordinator"),
        // The adapter (SignInCoordinator+FlowUnderTest.swift) and the gate.
        .testTarget(
            name: "SignInCoordinatorTests",
            dependencies: [
                "SignInCoordinator",
                .product(name: "AuthFlow", package: "authcheck"),
                .product(name: "AuthFlowChecker", package: "authcheck"),
            ]
        ),
    ]
)
