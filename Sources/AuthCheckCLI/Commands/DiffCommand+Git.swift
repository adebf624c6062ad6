import AuthFlow
import Foundation

/// `REV:PATH` as a diff input: a spec as a git revision holds it, read with `git cat-file blob`.
///
/// So a reviewer compares the committed version with the working copy without a scratch file:
/// `authcheck diff HEAD:Specs/sign-in.json Specs/sign-in.json`. An argument is read from git only
/// when no file of that name exists, its revision is not empty and does not start with `-` (git
/// would read it as an option). PATH is as git reads it: from the repository's top, or `./…`
/// from the working directory.
enum GitObject {
    /// The revision and path of `argument`, or `nil` when it is a file or no `REV:PATH`.
    static func parse(_ argument: String, fileExists: (String) -> Bool = { FileManager.default.fileExists(atPath: $0) }) -> (revision: String, path: String)? {
        guard argument != SpecRunner.standardInput, !fileExists(argument), let colon = argument.firstIndex(of: ":") else { return nil }
        let revision = String(argument[..<colon]), path = String(argument[argument.index(after: colon)...])
        guard !revision.isEmpty, !path.isEmpty, !revision.hasPrefix("-") else { return nil }
        return (revision, path)
    }

    /// The bytes of `revision:path`, at most `limit` of them.
    /// - Parameters:
    ///   - git: the program run (found on `PATH`); a test passes one that does not exist.
    ///   - directory: where git runs; the working directory when `nil`.
    /// - Throws: the reason, in words, when git is missing, the revision or path is unknown, or the blob is too large.
    static func read(revision: String, path: String, limit: Int, git: String = "git", directory: URL? = nil) throws(GitReadError) -> [UInt8] {
        let process = Process()
        if let directory { process.currentDirectoryURL = directory }
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [git, "cat-file", "blob", "\(revision):\(path)"]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw GitReadError(reason: "cannot run \(git) to read \(revision):\(path): \(error.localizedDescription)")
        }
        var bytes: [UInt8] = []
        var tooLarge = false
        while true {
            let chunk = output.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            bytes += chunk
            if bytes.count > limit {
                tooLarge = true
                process.terminate()
                break
            }
        }
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile().prefix(4096), as: UTF8.self)
        process.waitUntilExit()
        if tooLarge { throw GitReadError(reason: "\(revision):\(path) is larger than \(limit) bytes") }
        switch process.terminationStatus {
        case 0:
            return bytes
        case 127:
            // env's own status when it finds no such program.
            throw GitReadError(reason: "\(git) is not installed or not on PATH; it is needed to read \(revision):\(path)")
        default:
            let said = message.split(whereSeparator: \.isNewline).first.map { String($0) } ?? "exit status \(process.terminationStatus)"
            throw GitReadError(reason: "git cannot read \(revision):\(path): \(said)")
        }
    }
}

/// Why a `REV:PATH` input could not be read.
struct GitReadError: Error {
    var reason: String
}
