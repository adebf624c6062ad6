// libFuzzer entry for the spec loader: JSON parser, spec reader and model validation.
//
// Not part of the SwiftPM package: `Tests/Fuzz/run.sh` compiles it together with every file of
// `Sources/AuthFlow` as one module, so it can see the loader's internals. Any input that traps,
// hangs, or breaks one of the invariants below is a finding; each becomes a regression test in
// `Tests/AuthFlowTests/HostileSpecTests.swift`.

/// Invariants checked on every input:
/// - the loader returns a model or throws an ``InvalidSpecError`` with at least one issue, each with a
///   message and, when located, a 1-based line and column;
/// - a document the parser accepts renders and parses back to the same value;
/// - a loaded model's moves agree with its one semantics (``checkMovesAgainstSemantics(_:)``);
/// - ``InputSource`` reads the bytes back whole within a limit and refuses them past it, and its
///   lines, read in chunks of any size and in every mode (skipping or stopping at overlong lines, skipping
///   empty ones), are the bytes split at LF with a CR before it removed.
@_cdecl("LLVMFuzzerTestOneInput")
public func loaderFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    checkInputSource(bytes)

    // The parser alone, and the writer's round trip.
    if let root = try? JSONParser.parse(bytes) {
        let value = JSON(root)
        let text = value.rendered(pretty: false)
        guard let again = try? JSONParser.parse(text) else {
            fatalError("rendered JSON does not parse again: \(text.prefix(200))")
        }
        guard JSON(again) == value else {
            fatalError("JSON round trip changed the value: \(text.prefix(200))")
        }
    }

    // The whole loader.
    do {
        let model = try SpecLoader.load(bytes: bytes, file: "fuzz.json")
        checkMovesAgainstSemantics(model)
        _ = model.warnings.map(\.description)
    } catch {
        guard !error.issues.isEmpty else { fatalError("InvalidSpecError without issues") }
        for issue in error.issues {
            guard !issue.message.isEmpty, issue.path.hasPrefix("$") else {
                fatalError("issue without message or path: \(issue)")
            }
            if let location = issue.location, location.line < 1 || location.column < 1 {
                fatalError("issue with location \(location): \(issue)")
            }
        }
        _ = error.description
    }
    return 0
}

/// The reader every file and stream goes through, on the same bytes: whole, limited, and as lines.
func checkInputSource(_ bytes: [UInt8]) {
    let limit = bytes.isEmpty ? 0 : Int(bytes[0]) % (bytes.count + 1)
    do {
        let read = try InputSource.bytes(bytes, name: "fuzz").readAll(limit: limit)
        guard bytes.count <= limit, read == bytes else { fatalError("readAll(limit: \(limit)) returned \(read.count) of \(bytes.count) bytes") }
    } catch {
        guard error.kind == .tooLarge, bytes.count > limit else { fatalError("readAll(limit: \(limit)) of \(bytes.count) bytes threw \(error)") }
    }
    // Lines in chunks of 1...16 bytes with a line limit of 1...64 bytes, against a plain split.
    let chunk = 1 + (bytes.last.map { Int($0) } ?? 0) % 16
    let maxLine = 1 + (bytes.count > 1 ? Int(bytes[1]) : 0) % 64
    var raw = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
    if bytes.last == 0x0A || bytes.isEmpty { raw.removeLast() }
    let expected: [[UInt8]] = raw.map { line in line.last == 0x0D ? Array(line.dropLast()) : Array(line) }
    // Every mode a reader uses: records skip overlong lines and go on; `passcode` and regressions
    // files stop at the first (handed over as soon as it passes the limit); regressions skip empty lines.
    for skipsOverlongLines in [true, false] {
        for skipsEmptyLines in [false, true] {
            checkLines(bytes, raw: raw, expected: expected, maxLine: maxLine, chunk: chunk,
                       skipsOverlongLines: skipsOverlongLines, skipsEmptyLines: skipsEmptyLines)
        }
    }
}

/// ``InputSource/forEachLine(maxLineBytes:chunkBytes:skipsOverlongLines:skipsEmptyLines:_:)`` in one mode against a plain split.
func checkLines(_ bytes: [UInt8], raw: [ArraySlice<UInt8>], expected: [[UInt8]], maxLine: Int, chunk: Int,
                skipsOverlongLines: Bool, skipsEmptyLines: Bool) {
    let mode = "skipping empty: \(skipsEmptyLines), skipping overlong: \(skipsOverlongLines)"
    var seen: [(number: Int, bytes: [UInt8]?, overlong: Int?, unterminated: Bool)] = []
    do {
        try InputSource.bytes(bytes, name: "fuzz").forEachLine(maxLineBytes: maxLine, chunkBytes: chunk, skipsOverlongLines: skipsOverlongLines,
                                                               skipsEmptyLines: skipsEmptyLines) { line in
            seen.append((line.number, line.overlong == nil ? Array(line.bytes) : nil, line.overlong, line.unterminated))
            // Stop at an overlong line the way `passcode` does, or go on.
            return skipsOverlongLines || line.overlong == nil
        }
    } catch {
        fatalError("reading bytes in memory threw \(error) (\(mode))")
    }
    // Skipped are the lines with nothing on them, not even a CR; without skipping overlong lines the reading ends at the first.
    var wanted = expected.enumerated().filter { !skipsEmptyLines || !raw[$0.offset].isEmpty }
    if !skipsOverlongLines, let first = wanted.firstIndex(where: { $0.element.count > maxLine }) { wanted.removeSubrange((first + 1)...) }
    guard seen.count == wanted.count else { fatalError("\(seen.count) lines, expected \(wanted.count) (\(mode))") }
    let lastTerminated = bytes.last == 0x0A
    for (got, want) in zip(seen, wanted) {
        guard got.number == want.offset + 1 else { fatalError("line numbered \(got.number), expected \(want.offset + 1) (\(mode))") }
        if want.element.count > maxLine {
            // Read to its end it is its length; handed over early, at least the limit and its CR.
            let length = got.overlong ?? -1
            guard skipsOverlongLines ? length == want.element.count : length > maxLine && length <= raw[want.offset].count else {
                fatalError("line \(got.number) of \(want.element.count) bytes reported overlong by \(String(describing: got.overlong)) (\(mode))")
            }
        } else {
            guard got.bytes == want.element, got.overlong == nil else { fatalError("line \(got.number) read wrong (\(mode))") }
        }
        let isLast = want.offset == expected.count - 1
        guard got.unterminated == (isLast && !lastTerminated) || (!skipsOverlongLines && got.overlong != nil) else {
            fatalError("line \(got.number) said unterminated: \(got.unterminated) (\(mode))")
        }
    }
}

/// The frames visited per model, over all its variants: enough to reach every step of a seed spec.
let maxFramesChecked = 512

/// A model's moves, its table and its one semantics agree, in every configuration within a bound.
///
/// In `authflow/2` a step's moves depend on the data and the variant: a row may be guarded, and
/// `(state, event)` may have several rows, the first that holds firing. So "the table" is not one
/// target per `(state, event)`, and ``FlowModel/moves`` is a static summary (the first declared row)
/// that only a static model promises is exact. Checked, from each variant's root through at most
/// ``maxFramesChecked`` frames: every successor's event is its emission's; the row that fired is a row
/// of the table from this state on this event, and goes where the outcome goes (a reset row to the
/// initial state); no row fired only when no row holds (an illegal move). For a static model, the
/// successors are exactly ``FlowModel/moves``: same events in order, same targets, the keys they add.
func checkMovesAgainstSemantics(_ model: FlowModel) {
    for state in 0..<model.stateCount
    where model.moves[state].count > model.emissions[state].count || (model.isStatic && model.moves[state].count != model.emissions[state].count) {
        fatalError("state \(model.states[state]) has \(model.moves[state].count) moves but \(model.emissions[state].count) emissions")
    }
    var seen = Set<[UInt64]>()
    var queue: [(state: Int, keys: UInt64, values: UInt64)] = []
    for root in model.roots where seen.insert([UInt64(model.initial.index), root.keys, root.values]).inserted {
        queue.append((model.initial.index, root.keys, root.values))
    }
    var successors: [FlowModel.Successor] = []
    var next = 0
    while next < queue.count {
        let (state, keys, values) = queue[next]
        next += 1
        model.successors(state: state, keys: keys, values: values, into: &successors)
        let name = model.states[state]
        for successor in successors {
            let emissions = model.emissions[state]
            guard successor.emission < emissions.count, emissions[successor.emission].event == successor.event else {
                fatalError("a successor in state \(name) is not its emission's event")
            }
            if successor.emission < model.moves[state].count, model.moves[state][successor.emission].event != successor.event {
                fatalError("move and emission disagree on the event in state \(name)")
            }
            let target: Int
            switch successor.outcome {
            case .illegal:
                guard successor.row == -1 else { fatalError("an illegal move in state \(name) names row \(successor.row)") }
                if model.isStatic, successor.emission < model.moves[state].count, model.moves[state][successor.emission].target != nil {
                    fatalError("move and semantics disagree in state \(name): the move has a target, the semantics none")
                }
                continue
            case .reset:
                target = model.initial.index
            case let .push(to, keys: k, values: v):
                target = to.index
                if seen.count < maxFramesChecked, seen.insert([UInt64(to.index), k, v]).inserted { queue.append((to.index, k, v)) }
                if model.isStatic, k != keys | model.moves[state][successor.emission].adds.bits {
                    fatalError("move and semantics disagree in state \(name) on the keys added")
                }
            }
            guard successor.row >= 0, successor.row < model.rows.count else {
                fatalError("a move in state \(name) fired row \(successor.row) of \(model.rows.count)")
            }
            let row = model.rows[successor.row]
            guard row.from.index == state, row.event == successor.event, row.to.index == target else {
                fatalError("move and table disagree in state \(name): row \(successor.row) is not this state's on this event to this target")
            }
            if model.isStatic, model.moves[state][successor.emission].target?.index != target {
                fatalError("move and semantics disagree in state \(name): a static move's target is not where the semantics goes")
            }
        }
        if model.isStatic, successors.count != model.moves[state].count {
            fatalError("state \(name) has \(model.moves[state].count) moves but \(successors.count) successors")
        }
    }
}
