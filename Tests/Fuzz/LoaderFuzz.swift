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
/// - a loaded model's tables are consistent: every move's target is the table's target.
@_cdecl("LLVMFuzzerTestOneInput")
public func loaderFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))

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
