@testable import AuthFlow
import Foundation
import Testing

extension SpecKeys {
    /// The end of the loader's message for an unknown key where `keys` are allowed, as the tests expect it.
    ///
    /// The message's wording is pinned by the `authflow/1` cases (`SpecLoaderTests`, the
    /// `check-unknown-key` golden); the `/2` cases take their lists from here, so a key added to a
    /// list of ``SpecKeys`` changes no test, and a list given to the wrong object still fails.
    static func allowed(_ keys: [String]) -> String {
        "\(keys.joined(separator: ", ")), or any key starting with 'x-'"
    }
}

/// Every key the loader allows, against the format references that describe it.
///
/// ``SpecKeys`` is the one place a key's name and the objects it may appear in are declared; the
/// JSON Schemas are checked against it by `SpecSchemaTests`, and the references here.
@Suite struct SpecKeysTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func document(_ name: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent("docs/\(name)"), encoding: .utf8)
    }

    /// Whether `text` names `key` as a reference writes a key: in code (`` `key` ``) or quoted (`"key"`).
    static func names(_ text: String, _ key: String) -> Bool {
        text.contains("`\(key)`") || text.contains("\"\(key)\"")
    }

    @Test func everyKeyIsNamedInTheFormatReference() throws {
        let reference1 = try Self.document("spec-format.md")
        let reference2 = try Self.document("spec-format-2.md")
        let objects1 = SpecKeys.objects(version: 1)
        var undocumented: [String] = []
        for (definition, keys) in SpecKeys.objects(version: 2) {
            // A key `/1` has in the same object may be left to the `/1` reference, which the `/2` one builds on.
            let keys1 = objects1.first { $0.definition == definition }?.keys ?? []
            for key in keys where !Self.names(reference2, key) && !(keys1.contains(key) && Self.names(reference1, key)) {
                undocumented.append("\(definition ?? "top level").\(key)")
            }
        }
        #expect(undocumented.isEmpty, "keys the loader allows that docs/spec-format-2.md never names (as `key` or \"key\"): \(undocumented)")
    }

    @Test func everyObjectListsEachKeyOnce() {
        for version in [1, 2] {
            for (definition, keys) in SpecKeys.objects(version: version) {
                #expect(Set(keys).count == keys.count, "\(definition ?? "top level") lists a key twice: \(keys)")
                #expect(!keys.contains { $0.hasPrefix("x-") }, "\(definition ?? "top level"): x- keys are extensions, never listed")
            }
        }
    }
}
