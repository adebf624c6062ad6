// swift-tools-version: 6.0
// An app's own async sign-in view model, checked against Specs/email-first-v2.json by authcheck.
import PackageDescription

let package = Package(
    name: "AsyncSignIn",
    products: [
        .library(name: "AsyncSignIn", targets: ["AsyncSignIn"]),
    ],
    dependencies: [
        // This repository's own package: the checker, as an app adds it for its tests. The name, not the
        // folder the checkout happens to be in, is what the products below refer to.
        .package(name: "authcheck", path: "../.."),
    ],
    targets: [
        // The app's code: a @MainActor view model and its backend protocol; it knows nothing of authcheck.
        .target(name: "AsyncSignIn"),
        // The fake backend the checker plays, the adapter (SignInModel+AsyncFlowUnderTest.swift) and the gate.
        .testTarget(
            name: "AsyncSignInTests",
            dependencies: [
                "AsyncSignIn",
                .product(name: "AuthFlow", package: "authcheck"),
                .product(name: "AuthFlowChecker", package: "authcheck"),
            ]
        ),
    ]
)
