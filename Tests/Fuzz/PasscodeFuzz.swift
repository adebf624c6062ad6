// libFuzzer entry for the passcode normaliser.
//
// Not part of the SwiftPM package: `Tests/Fuzz/run.sh` compiles it together with every file of
// `Sources/AuthFlow` as one module. The input is split in three: byte 0 picks `maxLength`
// (0…15), then everything up to the first 0xFF byte is the policy's alphabet (the default
// alphabet when empty), and the rest is the text typed or pasted. Both are decoded as UTF-8 with
// repair, the way a clipboard string arrives. Any trap, hang, or broken guarantee is a finding.

/// Guarantees checked on every input (section 5 of the spec format):
/// - `normalise(normalise(x))` equals `normalise(x)` scalar for scalar;
/// - the output is within the policy (`admits`) and is reported as normalised (`isNormalised`);
/// - `read` gives the same code, and a length that agrees with it (complete or overlong only at
///   `maxLength` characters, short by exactly the characters missing);
/// - the text read as `passcode` reads stdin, a line at a time by ``InputSource``, gives the codes of
///   its lines (``checkStdinLines(_:normaliser:chunk:)``).
@_cdecl("LLVMFuzzerTestOneInput")
public func passcodeFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let first = bytes.first else { return 0 }
    let rest = bytes.dropFirst()
    let split = rest.firstIndex(of: 0xFF) ?? rest.startIndex
    let alphabetText = String(decoding: rest[rest.startIndex..<split], as: UTF8.self)
    let typed = Array(rest[(split < rest.endIndex && rest[split] == 0xFF ? split + 1 : split)...])
    let input = String(decoding: typed, as: UTF8.self)

    let policy = PasscodePolicy(
        maxLength: Int(first & 0x0F),
        alphabet: alphabetText.isEmpty ? PasscodePolicy.defaultAlphabet : alphabetText)
    let normaliser = PasscodeNormaliser(policy: policy)
    let once = normaliser.normalise(input)
    let twice = normaliser.normalise(once)
    guard once.unicodeScalars.elementsEqual(twice.unicodeScalars) else {
        fatalError("not idempotent: \(Array(input.unicodeScalars)) -> \(Array(once.unicodeScalars)) -> \(Array(twice.unicodeScalars))")
    }
    guard policy.admits(once) else {
        fatalError("output outside the policy: \(Array(once.unicodeScalars)) for \(Array(input.unicodeScalars))")
    }
    guard normaliser.isNormalised(once) else {
        fatalError("isNormalised is false for an output: \(Array(once.unicodeScalars))")
    }
    let read = normaliser.read(input)
    guard read.code.unicodeScalars.elementsEqual(once.unicodeScalars) else {
        fatalError("read and normalise disagree: \(Array(read.code.unicodeScalars)) and \(Array(once.unicodeScalars))")
    }
    let count = once.unicodeScalars.count
    let consistent: Bool
    switch read.length {
    case .complete: consistent = count == policy.maxLength
    case .short(let missing): consistent = missing > 0 && count + missing == policy.maxLength
    case .overlong(let extra): consistent = extra > 0 && count == policy.maxLength
    }
    guard consistent else {
        fatalError("length \(read.length) disagrees with a code of \(count) for maxLength \(policy.maxLength)")
    }
    checkStdinLines(typed, normaliser: normaliser, chunk: 1 + Int(first >> 4))
    return 0
}

/// The text as `authcheck passcode` reads it from stdin: ``InputSource`` lines (LF or CRLF), each normalised.
///
/// The codes must be those of the text's lines split at LF scalar by scalar, a CR before the LF
/// dropped (decoding, with repair, and splitting commute: LF is never inside a UTF-8 sequence),
/// up to the first line over the limit, where the reading stops. Lines are read in chunks of 1…16 bytes
/// with a limit of 1…64 bytes picked from the text's length.
func checkStdinLines(_ typed: [UInt8], normaliser: PasscodeNormaliser, chunk: Int) {
    let maxLine = 1 + typed.count % 64
    var scalars = String(decoding: typed, as: UTF8.self).unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false)
    if typed.last == 0x0A || typed.isEmpty { scalars.removeLast() }
    var codes: [String] = []
    var stoppedAt: Int?
    do {
        try InputSource.bytes(typed, name: "stdin").forEachLine(maxLineBytes: maxLine, chunkBytes: chunk, skipsOverlongLines: false) { line in
            if line.overlong != nil {
                stoppedAt = line.number
                return false
            }
            codes.append(normaliser.normalise(String(decoding: line.bytes, as: UTF8.self)))
            return true
        }
    } catch {
        fatalError("reading bytes in memory threw \(error)")
    }
    let lines = scalars.map { line in
        var text = String.UnicodeScalarView(line)
        if text.last == "\r" { text.removeLast() }
        return String(text)
    }
    // Lengths in bytes, before repair (a repaired byte takes three).
    var raw = typed.split(separator: 0x0A, omittingEmptySubsequences: false)
    if typed.last == 0x0A || typed.isEmpty { raw.removeLast() }
    let firstOverlong = raw.firstIndex { $0.count - ($0.last == 0x0D ? 1 : 0) > maxLine }.map { $0 - raw.startIndex }
    guard stoppedAt.map({ $0 - 1 }) == firstOverlong else {
        fatalError("stopped at line \(String(describing: stoppedAt)), the first over \(maxLine) bytes is \(String(describing: firstOverlong.map { $0 + 1 }))")
    }
    let wanted = lines.prefix(firstOverlong ?? lines.count).map { normaliser.normalise($0) }
    guard codes.count == wanted.count, zip(codes, wanted).allSatisfy({ $0.unicodeScalars.elementsEqual($1.unicodeScalars) }) else {
        fatalError("stdin lines gave \(codes.count) codes, the text's lines \(wanted.count), or other codes")
    }
}
