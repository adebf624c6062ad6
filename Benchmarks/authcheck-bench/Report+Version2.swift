import Foundation

/// The `authflow/2` section: the lockstep walk on a flow with 3 valued keys and a counter against the same flow in `authflow/1`.
extension Report {
    /// One walk of a spec under `Benchmarks/specs/` (the best of `repeats` runs).
    func benchmarkWalk(_ file: String, depth: Int) throws -> Walk {
        var best: Walk?
        for _ in 0..<repeats {
            let fields = try child(["walk", "\(root)/Benchmarks/specs/\(file).json", String(depth), "1"])
            let run = Walk(stacks: Int(fields["stacks"] ?? "") ?? -1, seconds: Double(fields["seconds"] ?? "") ?? 0,
                           cpu: Double(fields["cpu"] ?? "") ?? 0, peakMB: (Double(fields["peakKB"] ?? "") ?? 0) / 1024)
            if best == nil || run.seconds < best!.seconds { best = run }
        }
        return best!
    }

    /// Emits the section; returns the ratio of the `/2` walk's rate to the `/1` walk's at the deepest pair measured.
    func version2Section(_ emit: (String) -> Void) throws -> (ratio: Double, peakV2: Double, peakV1: Double)? {
        emit("## The lockstep walk on authflow/2 against authflow/1 of the same size")
        emit("")
        emit("`Benchmarks/specs/sign-in-v2.json` (10 states; 3 valued keys `nextStep`, `mfaMethod`, `lockReason`, a counter `attempts`, "
             + "guarded rows, clears and a reset row) and `Benchmarks/specs/sign-in-v1.json` (the same 10 states with one event per "
             + "answer and presence keys only), each walked through `FlowSession` in lockstep with the model, one worker. "
             + "The /2 walk decides every move by `FlowModel.successors` on the frame's packed values; the /1 walk reads its "
             + "precomputed move table. Depths are chosen so that both walk about the same number of stacks.")
        emit("")
        emit("| /1 depth | /1 stacks | /1 s | /1 stacks/s | /1 MB | /2 depth | /2 stacks | /2 s | /2 stacks/s | /2 MB | /2 ÷ /1 rate |")
        emit("|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|")
        var last: (ratio: Double, peakV2: Double, peakV1: Double)?
        for (depthV1, depthV2) in quick ? [(25, 30)] : [(30, 34), (35, 40), (38, 44)] {
            let v1 = try benchmarkWalk("sign-in-v1", depth: depthV1)
            let v2 = try benchmarkWalk("sign-in-v2", depth: depthV2)
            let ratio = v1.rate > 0 ? v2.rate / v1.rate : 0
            last = (ratio, v2.peakMB, v1.peakMB)
            emit("| \(depthV1) | \(v1.stacks) | \(f(v1.seconds, 3)) | \(rate(v1.rate)) | \(f(v1.peakMB, 1)) "
                 + "| \(depthV2) | \(v2.stacks) | \(f(v2.seconds, 3)) | \(rate(v2.rate)) | \(f(v2.peakMB, 1)) | \(f(ratio, 2)) |")
        }
        emit("")
        return last
    }
}
