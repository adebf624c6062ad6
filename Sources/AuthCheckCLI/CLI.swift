import AuthFlow
import AuthFlowChecker
import Foundation

/// Temporary entry point until the command-line issue lands.
public enum AuthCheckCommand {
    public static func main(arguments: [String]) -> Int32 {
        var worst: Int32 = 0
        let depth = arguments.firstIndex(of: "--depth").flatMap { Int(arguments[$0 + 1]) } ?? 12
        for file in arguments where file.hasSuffix(".json") {
            let report = FlowChecker.check(file: file, options: CheckOptions(limits: CheckLimits(depth: depth)))
            print(ReportRenderer.text(report))
            worst = max(worst, report.exitCode)
        }
        return worst
    }
}
