// `swift package authcheck`: checks a package's sign-in flow specs with `authcheck check`.
import Foundation
import PackagePlugin

/// Runs an `authcheck` subcommand in the package's directory (`check` on the package's `Specs/*.json`
/// when none is named) and exits with its status (0 holds, 1 violated, 2 invalid or usage, 3 incomplete).
///
/// A first argument that names a subcommand runs that one, so every command of the tool works
/// through the plugin (`swift package authcheck explore Specs/sign-in.json --depth 30`), with
/// relative paths read from the package root. Otherwise every argument goes to `check` as it is
/// (`swift package authcheck --format sarif`), and the package's specs are added when no argument
/// names one (ends in `.json`, or is `-` for standard input). The commands the tool prints for
/// replaying a finding start with `swift package authcheck`, the way it was run. It reads the
/// specs and writes only to stdout and stderr, so it needs no permission.
@main
struct AuthCheckPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let directory = context.package.directoryURL
        if let first = arguments.first, Self.subcommands.contains(first) || first.hasPrefix("--help") || first == "-h" || first == "--version" {
            exit(try Self.run(arguments, tool: context.tool(named: "authcheck").url, in: directory))
        }
        var specs: [String] = []
        if !arguments.contains(where: { $0.hasSuffix(".json") || $0 == "-" }) {
            specs = Self.packageSpecs(in: directory)
            if specs.isEmpty {
                Diagnostics.error("no specs: \(directory.path)/Specs has no .json file; name the specs to check as arguments")
                exit(2)
            }
        }
        // `swift package` fails when the plugin exits with a status other than 0; check's own
        // status is the plugin's, so a script can still tell a violation from an invalid spec.
        exit(try Self.run(["check"] + arguments + specs, tool: context.tool(named: "authcheck").url, in: directory))
    }

    /// The tool's subcommands, which a first argument may name.
    static let subcommands: Set<String> = ["check", "explore", "coverage", "traces", "fuzz", "passcode", "export", "replay", "paths", "help"]

    /// Runs the tool with `arguments` in `directory`, telling it how it was invoked; returns its exit status.
    static func run(_ arguments: [String], tool: URL, in directory: URL) throws -> Int32 {
        let process = Process()
        process.executableURL = tool
        process.arguments = arguments
        process.currentDirectoryURL = directory
        var environment = ProcessInfo.processInfo.environment
        environment["AUTHCHECK_INVOKED_AS"] = "swift package authcheck"
        process.environment = environment
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }

    /// The `.json` files in `Specs/` below `directory`, as paths relative to it, in name order.
    static func packageSpecs(in directory: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("Specs").path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { "Specs/\($0)" }
    }
}
