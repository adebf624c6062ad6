import Foundation

/// Unicode normalisation form KC, built from pieces that are correct on every platform.
///
/// Foundation's `precomposedStringWithCompatibilityMapping` is not usable on Linux (swift-corelibs
/// Foundation with Swift 6.3): it is not idempotent (half-width `ｶﾞ` gives `カ` + `U+3099`, which a
/// second pass composes to `ガ`), it leaves a Hangul syllable and a following trailing jamo apart,
/// and its composition step truncates a supplementary-plane character followed by a combining
/// mark to 16 bits (`U+2006B U+0301` becomes `ḱ`). So NFKC is computed here as NFC of the
/// compatibility decomposition: each scalar's compatibility decomposition comes from a table
/// built once from Foundation's single-scalar decompositions (which are correct), and the
/// canonical reordering and composition come from the standard library's own NFC, the one `String`
/// comparison uses.
enum CompatibilityFolding {
    /// Every scalar whose compatibility decomposition differs from itself, mapped to that
    /// decomposition. Only scalars that change when NFKC-case-folded can have one, which keeps the
    /// build (once per process, on first use) to a few thousand Foundation calls.
    static let decompositions: [UInt32: [Unicode.Scalar]] = {
        var table: [UInt32: [Unicode.Scalar]] = [:]
        let planes: [ClosedRange<UInt32>] = [0x80...0x3_FFFF, 0xE_0000...0xE_0FFF]
        for value in planes.joined() {
            guard let scalar = Unicode.Scalar(value), scalar.properties.changesWhenNFKCCaseFolded else {
                continue
            }
            let decomposed = String(scalar).decomposedStringWithCompatibilityMapping.unicodeScalars
            if !decomposed.elementsEqual(CollectionOfOne(scalar)) {
                table[value] = Array(decomposed)
            }
        }
        return table
    }()

    /// The NFKC form of `text`.
    static func nfkc(_ text: String) -> String {
        var decomposed = String.UnicodeScalarView()
        var changed = false
        for scalar in text.unicodeScalars {
            if scalar.value >= 0x80, let mapping = decompositions[scalar.value] {
                decomposed.append(contentsOf: mapping)
                changed = true
            } else {
                decomposed.append(scalar)
            }
        }
        let source = changed ? String(decomposed) : text
        return String(decoding: source._nfcCodeUnits, as: UTF8.self)
    }
}
