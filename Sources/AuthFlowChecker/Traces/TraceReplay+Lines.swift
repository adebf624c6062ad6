import AuthFlow

/// Reading lines into records: the fast scanner, the full reader for everything else, and what is wrong with a line.
extension TraceReplay {
    /// Reads one line: a record to apply, a blank line, or a problem.
    mutating func handle(_ line: InputSource.Line) {
        if let length = line.overlong {
            problem(.malformed, line: line.number, session: nil,
                    "a line of \(length) bytes, longer than the \(TraceInput.maxLineBytes) bytes a record may have; skipped")
            return
        }
        let bytes = line.bytes
        if scanner.scan(bytes) {
            let id = internScanned(bytes)
            apply(id, line: line.number)
            return
        }
        // Everything the fast path does not take: the format's own reader decides, and says why.
        let array = Array(bytes)
        do {
            guard let event = try FlowTracker.event(fromJSONLine: array, line: line.number) else { return }   // blank
            applyEvent(event, line: line.number)
        } catch {
            unreadable(array, line: line, error: error)
        }
    }

    /// A line the reader refused: truncated, several records run together, or malformed.
    mutating func unreadable(_ bytes: [UInt8], line: InputSource.Line, error: JSONLinesError) {
        // Records run together: split where one object ends and the next begins, and read each part.
        let parts = Self.parts(bytes)
        if parts.count > 1 {
            var events: [TrackedEvent] = []
            for part in parts {
                if let event = try? FlowTracker.event(fromJSONLine: part, line: line.number) { events.append(event) }
            }
            if events.count == parts.count {
                problem(.interleaved, line: line.number, session: events.first.map { Self.printable($0.sessionID) },
                        "\(parts.count) records on one line (a line break is missing); each was read")
            } else {
                problem(.interleaved, line: line.number, session: events.first.map { Self.printable($0.sessionID) },
                        "parts of several records on one line (two writers on one file?); "
                        + (events.isEmpty ? "none could be read" : "\(events.count) of \(parts.count) could be read"))
            }
            for event in events { applyEvent(event, line: line.number) }
            return
        }
        let at = error.column.map { "column \($0): " } ?? ""
        if error.message.hasSuffix("found end of input") || error.message.contains("the input ends") {
            problem(.truncated, line: line.number, session: nil,
                    line.unterminated ? "the input ends inside this record (\(at)\(error.message))"
                                      : "the record breaks off before its end (\(at)\(error.message))")
        } else {
            problem(.malformed, line: line.number, session: nil, "\(at)\(error.message)")
        }
    }

    /// The line cut where records begin and end: after an object closes (records run together), and
    /// before `{"kind"`, which no string can hold unescaped (one record written into another).
    static func parts(_ bytes: [UInt8]) -> [[UInt8]] {
        let marker = Array(#"{"kind""#.utf8)
        var parts: [[UInt8]] = []
        var start = 0
        var depth = 0
        var inString = false
        var escaped = false
        func cut(_ end: Int) {
            guard end > start, bytes[start..<end].contains(where: { $0 != 0x20 && $0 != 0x09 }) else { return }
            parts.append(Array(bytes[start..<end]))
            start = end
        }
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte == UInt8(ascii: "{"), bytes[i...].starts(with: marker) {
                cut(i)
                depth = 0
                inString = false
                escaped = false
            }
            if inString {
                if escaped { escaped = false } else if byte == UInt8(ascii: "\\") { escaped = true } else if byte == UInt8(ascii: "\"") { inString = false }
            } else if byte == UInt8(ascii: "\"") {
                inString = true
            } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                depth += 1
            } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                depth -= 1
                if depth == 0 { cut(i + 1) }
            }
            i += 1
        }
        if start < bytes.count, bytes[start...].contains(where: { $0 != 0x20 && $0 != 0x09 }) { parts.append(Array(bytes[start...])) }
        return parts
    }

    /// Interns what the scanner read from `line`; returns the session id's bytes.
    mutating func internScanned(_ line: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8> {
        @inline(__always) func slice(_ span: _TrackedLineScanner.Span) -> UnsafeBufferPointer<UInt8> {
            UnsafeBufferPointer(rebasing: line[span.start..<span.end])
        }
        record.kind = scanner.kind
        record.timestamp = scanner.timestamp
        let from = slice(scanner.from)
        record.from = states.id(from)
        if record.from < 0 { record.fromName = Self.printable(String(decoding: from, as: UTF8.self)) }
        if let span = scanner.event {
            record.event = events.id(slice(span))
            if record.event < 0 { record.eventName = Self.printable(String(decoding: slice(span), as: UTF8.self)) }
        } else {
            record.event = -2
        }
        if let span = scanner.to {
            record.to = states.id(slice(span))
            if record.to < 0 { record.toName = Self.printable(String(decoding: slice(span), as: UTF8.self)) }
        } else {
            record.to = -2
        }
        record.hasData = scanner.hasAdded || scanner.hasCleared
        record.added = 0
        record.cleared = 0
        for span in scanner.added {
            let k = keys.id(slice(span))
            if k >= 0 { record.added |= 1 << UInt64(k) }
        }
        for span in scanner.cleared {
            let k = keys.id(slice(span))
            if k >= 0 { record.cleared |= 1 << UInt64(k) }
        }
        record.valueKeys.removeAll(keepingCapacity: true)
        record.valueIndices.removeAll(keepingCapacity: true)
        if scanner.hasValues {
            for (keySpan, valueSpan) in zip(scanner.valueKeys, scanner.valueValues) {
                let k = keys.id(slice(keySpan))
                guard k >= 0, let domain = domains[Int(k)] else { continue }
                record.valueKeys.append(k)
                record.valueIndices.append(domain.id(slice(valueSpan)))
            }
        }
        return slice(scanner.sessionID)
    }

    /// Applies a record the full reader read.
    mutating func applyEvent(_ event: TrackedEvent, line: Int) {
        record.kind = event.kind
        record.timestamp = _Timestamp.milliseconds(event.timestamp)
        record.from = states.id(event.from)
        record.fromName = Self.printable(event.from)
        record.event = event.event.map { events.id($0) } ?? -2
        record.eventName = Self.printable(event.event ?? "")
        record.to = event.to.map { states.id($0) } ?? -2
        record.toName = Self.printable(event.to ?? "")
        record.hasData = event.carriesData
        record.added = 0
        record.cleared = 0
        for name in event.added ?? [] where keys.id(name) >= 0 { record.added |= 1 << UInt64(keys.id(name)) }
        for name in event.cleared ?? [] where keys.id(name) >= 0 { record.cleared |= 1 << UInt64(keys.id(name)) }
        record.valueKeys.removeAll(keepingCapacity: true)
        record.valueIndices.removeAll(keepingCapacity: true)
        for (name, value) in (event.values ?? [:]).sorted(by: { $0.key < $1.key }) {
            let k = keys.id(name)
            guard k >= 0, let domain = domains[Int(k)] else { continue }
            record.valueKeys.append(k)
            record.valueIndices.append(domain.id(value))
        }
        var id = event.sessionID
        id.withUTF8 { apply($0, line: line) }
    }

    /// Lists (up to the limit) and counts a problem with a record.
    mutating func problem(_ kind: TraceReport.ProblemKind, line: Int, session: String?, _ message: String) {
        report.problemCounts[kind, default: 0] += 1
        guard report.problems.count < options.maxListed else { return }
        report.problems.append(TraceReport.Problem(file: fileName, line: line, kind: kind, session: session, message: message))
    }
}
