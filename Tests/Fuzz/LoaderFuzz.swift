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
/// - a loaded model's tables are consistent: every move's target is the table's target;
/// - ``InputSource`` reads the bytes back whole within a limit and refuses them past it, and its
///   lines, read in chunks of any size, are the bytes split at LF with a CR before it removed.
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
        var table: [Int64: StateID] = [:]
        for row in model.rows { table[Int64(row.from.rawValue) << 32 | Int64(row.event.rawValue)] = row.to }
        for state in 0..<model.stateCount {
            for move in model.moves[state] {
                guard table[Int64(state) << 32 | Int64(move.event.rawValue)] == move.target else {
                    fatalError("move and table disagree in state \(model.states[state])")
                }
            }
        }
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
    for skipsEmptyLines in [false, true] {
        var seen: [(Int, [UInt8]?)] = []
        do {
            try InputSource.bytes(bytes, name: "fuzz").forEachLine(maxLineBytes: maxLine, chunkBytes: chunk, skipsEmptyLines: skipsEmptyLines) { line in
                seen.append((line.number, line.overlong == nil ? Array(line.bytes) : nil))
                return true
            }
        } catch {
            fatalError("reading bytes in memory threw \(error)")
        }
        // Skipped are the lines with nothing on them, not even a CR.
        let wanted = expected.enumerated().filter { !skipsEmptyLines || !raw[$0.offset].isEmpty }
        guard seen.count == wanted.count else { fatalError("\(seen.count) lines, expected \(wanted.count) (skipping empty: \(skipsEmptyLines))") }
        for (got, want) in zip(seen, wanted) {
            guard got.0 == want.offset + 1 else { fatalError("line numbered \(got.0), expected \(want.offset + 1)") }
            guard got.1 == (want.element.count > maxLine ? nil : want.element) else { fatalError("line \(got.0) read wrong") }
        }
    }
}
