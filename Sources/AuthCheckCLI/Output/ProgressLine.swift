import AuthFlow
import AuthFlowChecker
import Foundation

/// A one-line progress display on stderr for runs longer than about a second, rewritten in place with `\r`.
///
/// A background thread polls a ``CheckProgress`` five times a second; nothing is drawn during the
/// first second (most checks finish sooner), and the line is erased when the run ends, so the
/// display never mixes with the report. Only shown when stderr is a terminal.
///
/// ```
/// Specs/big.json: searching configurations · 1,204,224 configurations · 402,133/s · depth 17 · 3.0 s
/// ```
final class ProgressLine: @unchecked Sendable {
    /// How long a run goes before the line appears.
    static let delay: TimeInterval = 1
    /// How often the line is redrawn.
    static let interval: TimeInterval = 0.2

    /// The line's text after so many seconds.
    private let render: @Sendable (TimeInterval) -> String
    private let console: Console
    private let start = Date()
    private var drawn = false
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    /// Starts polling `progress`; call ``stop()`` when the run is over.
    convenience init(label: String, depthBound: Int, progress: CheckProgress, console: Console) {
        self.init(console: console) { elapsed in
            Self.text(label: label, snapshot: progress.snapshot, depthBound: depthBound, elapsed: elapsed)
        }
    }

    /// Starts drawing what `render` says after so many seconds; call ``stop()`` when the run is over.
    init(console: Console, render: @escaping @Sendable (TimeInterval) -> String) {
        self.render = render
        self.console = console
        let thread = Thread { [self] in self.loop() }
        thread.name = "authcheck progress"
        thread.start()
    }

    /// Runs `body` with a progress line when stderr is a terminal, and without one otherwise.
    static func around<Result>(label: String, depthBound: Int, console: Console,
                               _ body: () -> Result) -> Result {
        guard console.stderrIsTerminal else { return body() }
        let progress = CheckProgress()
        let line = ProgressLine(label: label, depthBound: depthBound, progress: progress, console: console)
        defer { line.stop() }
        return CheckProgress.$current.withValue(progress) { body() }
    }

    /// Stops the display and erases the line if it was drawn.
    func stop() {
        wake.signal()
        finished.wait()
        if drawn { console.errRaw("\r\u{1B}[K") }
    }

    private func loop() {
        defer { finished.signal() }
        while wake.wait(timeout: .now() + Self.interval) == .timedOut {
            let elapsed = Date().timeIntervalSince(start)
            guard elapsed >= Self.delay else { continue }
            console.errRaw("\r\u{1B}[K" + render(elapsed))
            drawn = true
        }
    }

    /// The line's text: `label: searching configurations · 1,204,224 configurations · 402,133/s · depth 17 · 3.0 s`.
    ///
    /// It names the phase, and its depth never goes back within one: the walk's is the deepest stack so far.
    static func text(label: String, snapshot: CheckProgress.Snapshot, depthBound: Int, elapsed: TimeInterval) -> String {
        let rate = elapsed > 0 ? Int(Double(snapshot.count) / elapsed) : 0
        let depth: String
        switch snapshot.phase {
        case .configurations: depth = "depth \(snapshot.depth)"
        case .stacks: depth = "deepest \(snapshot.depth) of \(depthBound)"
        case .counting: depth = "depth \(snapshot.depth) of \(depthBound)"
        }
        let counted = snapshot.phase == .stacks ? "stacks" : "configurations"
        return "\(TerminalText.escaped(label)): \(snapshot.phase.activity) · \(grouped(snapshot.count)) \(counted) · \(grouped(rate))/s · "
            + "\(depth) · \(String(format: "%.1f", elapsed)) s"
    }

    /// A fuzz's line: `label: fuzzing · 41,000 of 100,000 runs · 1,464 runs/s · 28.0 s`, then `shrinking a failure`.
    static func fuzzText(label: String, snapshot: FuzzProgress.Snapshot, runs: Int, elapsed: TimeInterval) -> String {
        let rate = elapsed > 0 ? Int(Double(snapshot.runs) / elapsed) : 0
        let activity = snapshot.shrinking ? "shrinking the failure of run \(grouped(snapshot.runs))" : "fuzzing"
        return "\(TerminalText.escaped(label)): \(activity) · \(grouped(snapshot.runs)) of \(grouped(runs)) runs · "
            + "\(grouped(rate)) runs/s · \(String(format: "%.1f", elapsed)) s"
    }

    /// Runs `body` with a fuzz's progress line when stderr is a terminal, and without one otherwise.
    static func aroundFuzz<Result>(label: String, runs: Int, console: Console, _ body: () -> Result) -> Result {
        guard console.stderrIsTerminal else { return body() }
        let progress = FuzzProgress()
        let line = ProgressLine(console: console) { elapsed in
            Self.fuzzText(label: label, snapshot: progress.snapshot, runs: runs, elapsed: elapsed)
        }
        defer { line.stop() }
        return FuzzProgress.$current.withValue(progress) { body() }
    }

    /// `1204224` as `1,204,224`.
    static func grouped(_ value: Int) -> String {
        let digits = Array(String(value))
        var out = ""
        for (i, digit) in digits.enumerated() {
            if i > 0, (digits.count - i) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return out
    }
}
