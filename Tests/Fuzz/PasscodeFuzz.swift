// libFuzzer entry for the passcode normaliser.
//
// Not part of the SwiftPM package: `Tests/Fuzz/run.sh` compiles it together with every file of
// `Sources/AuthFlow` as one module. The input is split in three: byte 0 picks `maxLength`
// (0…15), then everything up to the first 0xFF byte is the policy's alphabet (the default
// alphabet when empty), and the rest is the text typed or pasted. Both are decoded as UTF-8 with
// repair, the way a clipboard string arrives. Any trap, hang, or broken guarantee is a finding.

/// Guarantees checked on every input (section 5 of the spec format):
/// - `normalise(normalise(x))` equals `normalise(x)` scalar for scalar;
/// - the output is within the policy (`admits`) and is reported as normalised (`isNormalised`).
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
    return 0
}
