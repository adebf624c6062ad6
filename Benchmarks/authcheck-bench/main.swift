// authcheck-bench: authcheck's runtime walk and complete verification against SPIN on the same exploration.
//
//   authcheck-bench [--quick] [--repeat N] [--no-spin] [--root DIR]   the whole report, as Markdown on stdout
//   authcheck-bench --real-v2-only [--repeat N] [--root DIR]          only the section on real authflow/2 flows
//   authcheck-bench --conformance-only [--quick] [--repeat N] [--root DIR]  only the conformance walk against the app's calls
//   authcheck-bench walk SPEC DEPTH WORKERS                            one walk, in this process (a child)
//   authcheck-bench conformance SPEC DEPTH MODE [APP]                  one conformance walk of an app, or its floor (a child)
//   authcheck-bench replay SPEC COUNT                                  FlowConformance.replay, reused and made afresh (a child)
//   authcheck-bench verify STATES KEYS SEED                            one complete verification (a child)
//   authcheck-bench export SPEC DEPTH                                  the Promela model SPIN is run on
//   authcheck-bench passcode COUNT SEED                                normalise COUNT generated inputs (a child)
//   authcheck-bench corpus SPEC RECORDS SEED BROKEN FILE [N]             write a generated corpus of tracker records
//   authcheck-bench traces SPEC FILE                                   replay a corpus in this process (a child)
//
// Every authcheck figure is measured in a child process of its own, so its peak memory (VmHWM)
// is that run's alone. Build in release: `swift build -c release`, or run Benchmarks/run.sh.
import Foundation

let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "walk":
        try Measure.walk(arguments.dropFirst())
    case "conformance":
        try Measure.conformance(arguments.dropFirst())
    case "replay":
        try Measure.replay(arguments.dropFirst())
    case "verify":
        try Measure.verify(arguments.dropFirst())
    case "export":
        try Measure.export(arguments.dropFirst())
    case "passcode":
        try Measure.passcode(arguments.dropFirst())
    case "corpus":
        try TracesBenchmark.corpus(arguments.dropFirst())
    case "traces":
        try TracesBenchmark.replay(arguments.dropFirst())
    case "-h", "--help":
        print("usage: authcheck-bench [--quick] [--repeat N] [--no-spin] [--root DIR]\n"
              + "       authcheck-bench --real-v2-only [--repeat N] [--root DIR]\n"
              + "       authcheck-bench --conformance-only [--quick] [--repeat N] [--root DIR]\n"
              + "       authcheck-bench walk SPEC DEPTH WORKERS\n"
              + "       authcheck-bench conformance SPEC DEPTH undo|replay|floor [sign-in|next-step]\n"
              + "       authcheck-bench conformance SPEC DEPTH walk|floor|floor-hops async-sign-in|async-next-step\n"
              + "       authcheck-bench replay SPEC COUNT\n"
              + "       authcheck-bench verify STATES KEYS SEED\n"
              + "       authcheck-bench export SPEC DEPTH\n"
              + "       authcheck-bench passcode COUNT SEED\n"
              + "       authcheck-bench corpus SPEC RECORDS SEED BROKEN FILE [CONCURRENCY]\n"
              + "       authcheck-bench traces SPEC FILE")
    default:
        try Report(arguments: arguments).run()
    }
} catch {
    FileHandle.standardError.write(Data("authcheck-bench: \(error)\n".utf8))
    exit(2)
}
