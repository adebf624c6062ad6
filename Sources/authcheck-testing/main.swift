// The authcheck command as the end-to-end tests run it, never shipped: the same entry point as
// `authcheck`, given a fixed clock (every duration prints as 0.000) and, when
// AUTHCHECK_TEST_FAULT names one, a deliberately broken runtime or passcode normaliser.
import AuthCheckCLI
import AuthCheckTestSupport
import Foundation

let variables = ProcessInfo.processInfo.environment
var fault: TestFault?
if let text = variables["AUTHCHECK_TEST_FAULT"], !text.isEmpty {
    guard let parsed = TestFault(text) else {
        FileHandle.standardError.write(Data("authcheck-testing: unknown AUTHCHECK_TEST_FAULT '\(text)'\n".utf8))
        exit(64)
    }
    fault = parsed
}
exit(AuthCheckCommand.main(arguments: Array(CommandLine.arguments.dropFirst()),
                           environment: .testing(variables: variables, fault: fault)))
