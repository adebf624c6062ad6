// swift-tools-version: 6.0
// A package as a team that uses authcheck has it: its own code, its flows in Specs/, and
// authcheck as a dependency, for `swift package authcheck`. CI runs it (.ci/plugin-sample).
import PackageDescription

let package = Package(
    name: "PluginSample",
    products: [
        .library(name: "PluginSample", targets: ["PluginSample"]),
    ],
    dependencies: [
        // This repository; a team writes `.package(url: …, from: "0.1.0")`.
        .package(path: "../.."),
    ],
    targets: [
        .target(name: "PluginSample"),
    ]
)
