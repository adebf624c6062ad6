// `swift package authcheck`: checks a package's sign-in flow specs with `authcheck check`.
import Foundation
import PackagePlugin

/// Runs `authcheck check` on the package's `Specs/*.json`, or on the specs given as arguments,
/// in the package's directory, and exits with `check`'s status (0 holds, 1 violated, 2 invalid
/// or usage, 3 incomplete).
///
/// Every argument goes to `check` as it is, so options work as on the command line
/// (`swift package authcheck --format sarif`); the package's specs are added only when no
/// argument names one (ends in `.json`, or is `-` for standard input). It reads the specs and
/// writes only to stdout and stderr, so it needs no permission.
@main
struct AuthCheckPlugin: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let directory = context.package.directoryURL
        var specs: [String] = []
        if !arguments.contains(where: { $0.hasSuffix(".json") || $0 == "-" }) {
            specs = Self.packageSpecs(in: directory)
            if specs.isEmpty {
                Diagnostics.error("no specs: \(directory.path)/Specs has no .json file; name the specs to check as arguments")
                exit(2)
            }
        }
        let process = Process()
        process.executableURL = try context.tool(named: "authcheck").url
        process.arguments = ["check"] + arguments + specs
        process.currentDirectoryURL = directory
        try process.run()
        process.waitUntilExit()
        // `swift package` fails when the plugin exits with a status other than 0; check's own
        // status is the plugin's, so a script can still tell a violation from an invalid spec.
        exit(process.terminationStatus)
    }

    /// The `.json` files in `Specs/` below `directory`, as paths relative to it, in name order.
    static func packageSpecs(in directory: URL) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.appendingPathComponent("Specs").path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted().map { "Specs/\($0)" }
    }
}
