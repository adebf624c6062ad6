import AuthCheckTestSupport
import Foundation

/// Finds a built executable of the command and runs it like a user or a CI script would.
///
/// Two are built: ``shipped``, the `authcheck` users get, and ``testing``, `authcheck-testing`,
/// the same command with every duration printed as `0.000` and the runtime fault
/// `AUTHCHECK_TEST_FAULT` names, for the cases whose output must be byte-stable.
///
/// `swift test` builds every executable of the package before it runs the tests, so both sit
/// in the products directory next to this target's resource bundle (`.build/debug/authcheck`,
/// or under whatever `--scratch-path` says). `AUTHCHECK_BINARY` overrides the shipped one's
/// path. When an executable is missing, it is built with `swift build`.
struct AuthCheckBinary: Sendable {
    /// The executable's name in the products directory.
    var name: String
    /// The variable that may name another executable to run instead, if any.
    var override: String?

    /// The `authcheck` users get.
    static let shipped = AuthCheckBinary(name: "authcheck", override: "AUTHCHECK_BINARY")
    /// `authcheck-testing`: fixed durations and injected runtime faults, for golden output.
    static let testing = AuthCheckBinary(name: "authcheck-testing", override: nil)

    /// The products directory of the build that built these tests.
    static var productsDirectory: URL {
        Bundle.module.bundleURL.deletingLastPathComponent()
    }

    /// The executable's path, located once per executable.
    var path: Result<String, BinaryError> {
        name == Self.shipped.name ? Self.shippedPath : Self.testingPath
    }

    private static let shippedPath = shipped.locate()
    private static let testingPath = testing.locate()

    struct BinaryError: Error, CustomStringConvertible {
        var description: String
    }

    func locate() -> Result<String, BinaryError> {
        let environment = ProcessInfo.processInfo.environment
        if let override, let path = environment[override], !path.isEmpty {
            return FileManager.default.isExecutableFile(atPath: path)
                ? .success(path) : .failure(BinaryError(description: "\(override)=\(path) is not an executable"))
        }
        let candidate = Self.productsDirectory.appendingPathComponent(name).path
        if FileManager.default.isExecutableFile(atPath: candidate) { return .success(candidate) }
        // Not built (a filtered build, or an IDE that builds test bundles only): build it now.
        let scratch = Self.productsDirectory.resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
        let build = Self.run(executable: "/usr/bin/env",
                             arguments: ["swift", "build", "--product", name, "--scratch-path", scratch.path],
                             environment: environment)
        guard build.status == 0, FileManager.default.isExecutableFile(atPath: candidate) else {
            return .failure(BinaryError(description: "no \(name) executable at \(candidate), and building it failed:\n\(build.stderr)"))
        }
        return .success(candidate)
    }

    /// What one run printed and how it ended.
    struct Output: Equatable, Sendable {
        var stdout: String
        var stderr: String
        var status: Int32
    }

    /// Runs this executable with `arguments` in the package root, with a clean environment plus
    /// `environment`, and `stdin` (or nothing) on standard input.
    func run(_ arguments: [String], environment: [String: String] = [:], stdin: String? = nil) throws -> Output {
        let path = try self.path.get()
        var variables = ["PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        variables.merge(environment) { $1 }
        return Self.run(executable: path, arguments: arguments, environment: variables, stdin: stdin)
    }

    /// Runs a process to completion; output goes through temporary files, so no pipe can fill up and block it.
    static func run(executable: String, arguments: [String], environment: [String: String], stdin: String? = nil) -> Output {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("authcheck-e2e-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outURL = directory.appendingPathComponent("stdout")
        let errURL = directory.appendingPathComponent("stderr")
        let inURL = directory.appendingPathComponent("stdin")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: inURL.path, contents: Data((stdin ?? "").utf8))

        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = environment
        process.currentDirectoryURL = Fixture.packageRoot
        do {
            let out = try FileHandle(forWritingTo: outURL)
            let err = try FileHandle(forWritingTo: errURL)
            let input = try FileHandle(forReadingFrom: inURL)
            defer { try? out.close(); try? err.close(); try? input.close() }
            process.standardOutput = out
            process.standardError = err
            process.standardInput = input
            try process.run()
            process.waitUntilExit()
        } catch {
            return Output(stdout: "", stderr: "could not run \(executable): \(error)", status: -1)
        }
        let stdout = (try? String(contentsOf: outURL, encoding: .utf8)) ?? ""
        let stderr = (try? String(contentsOf: errURL, encoding: .utf8)) ?? ""
        return Output(stdout: stdout, stderr: stderr, status: process.terminationStatus)
    }
}
