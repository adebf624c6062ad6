@testable import AuthFlowChecker
import Foundation
import Testing

/// The gate finds a spec the way a test means it, whatever directory the test runner works in.
@Suite struct FlowGatePathTests {
    @Test func aRelativePathIsFoundFromTheTestFileWhenTheWorkingDirectoryIsElsewhere() throws {
        // As Xcode runs tests: the working directory is not the package root.
        let resolution = FlowGate.resolve("Specs/email-first.json", callerFile: #filePath, workingDirectory: "/tmp")
        #expect(resolution == .found(Files.root.appendingPathComponent("Specs/email-first.json").path))
    }

    @Test func theWorkingDirectoryComesFirst() throws {
        let resolution = FlowGate.resolve("Specs/email-first.json", callerFile: "/nowhere/Tests/X.swift",
                                          workingDirectory: Files.root.path)
        #expect(resolution == .found(Files.root.appendingPathComponent("Specs/email-first.json").path))
    }

    @Test func aMissingSpecNamesEveryAbsolutePathTried() throws {
        let resolution = FlowGate.resolve("Specs/missing.json", callerFile: "/nowhere/app/Tests/AppTests/FlowTests.swift",
                                          workingDirectory: "/tmp/run")
        #expect(resolution == .missing(tried: [
            "/tmp/run/Specs/missing.json",
            "/nowhere/app/Tests/AppTests/Specs/missing.json",
            "/nowhere/app/Tests/Specs/missing.json",
            "/nowhere/app/Specs/missing.json",
            "/nowhere/Specs/missing.json",
        ]))
    }

    @Test func theGateReportsTheAbsolutePathsItTried() {
        do {
            try FlowGate.assertHolds(file: "Specs/no-such-flow.json")
            Issue.record("a missing spec passed the gate")
        } catch {
            let text = String(describing: error)
            #expect(text.contains("no such file; tried \(FileManager.default.currentDirectoryPath)/Specs/no-such-flow.json"), "\(text)")
            #expect(text.contains(URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Specs/no-such-flow.json").path))
        }
    }

    @Test func anAbsolutePathIsTakenAsIs() throws {
        let path = Files.root.appendingPathComponent("Specs/email-first.json").path
        #expect(try FlowGate.assertHolds(file: path).verdict == .holds)
        #expect(FlowGate.resolve("/nope/x.json", callerFile: #filePath) == .missing(tried: ["/nope/x.json"]))
    }
}
