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
///   `maxLength` characters, short by exactly the characters missing).
@_cdecl("LLVMFuzzerTestOneInput")
public func passcodeFuzzTestOneInput(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    guard let first = bytes.first else { return 0 }
    let rest = bytes.dropFirst()
    let split = rest.firstIndex(of: 0xFF) ?? rest.startIndex
    let alphabetText = String(decoding: rest[rest.startIndex..<split], as: UTF8.self)
    let input = String(decoding: rest[(split < rest.endIndex && rest[split] == 0xFF ? split + 1 : split)...], as: UTF8.self)

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
    return 0
}
