@testable import AuthFlow
import Foundation
import Testing

/// The JSON Schemas in `docs/schema` against the loader they describe: the keys each object may
/// hold, the name rules and limits, a description on every key, and the loader's half of
/// `Tests/SchemaSync/verdicts.json` (the schema's half needs a validator from PyPI: `.ci/schema-sync`).
@Suite struct SpecSchemaTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let versions = [1, 2]

    /// The schema of format `version`, parsed by the loader's own JSON parser (which refuses duplicate keys).
    static func schema(_ version: Int) throws -> JSONNode {
        let url = root.appendingPathComponent("docs/schema/authflow-\(version).schema.json")
        return try JSONParser.parse([UInt8](try Data(contentsOf: url)))
    }

    /// The keys of the object at `node`, in document order.
    static func keys(_ node: JSONNode?) -> [String] {
        guard case let .object(members)? = node?.value else { return [] }
        return members.map(\.key)
    }

    static func string(_ node: JSONNode?) -> String? {
        if case let .string(text)? = node?.value { return text }
        return nil
    }

    static func int(_ node: JSONNode?) -> Int? {
        if case let .number(number)? = node?.value { return number.int }
        return nil
    }

    @Test(arguments: versions)
    func theSchemaIsDraft2020AndEveryRefResolves(_ version: Int) throws {
        let schema = try Self.schema(version)
        #expect(Self.string(schema["$schema"]) == "https://json-schema.org/draft/2020-12/schema")
        let definitions = Set(Self.keys(schema["$defs"]))
        var unresolved: [String] = []
        func visit(_ node: JSONNode, _ path: String) {
            switch node.value {
            case let .object(members):
                for member in members {
                    if member.key == "$ref", let target = Self.string(member.value),
                       !(target.hasPrefix("#/$defs/") && definitions.contains(String(target.dropFirst(8)))) {
                        unresolved.append("\(path): \(target)")
                    }
                    visit(member.value, path + "/" + member.key)
                }
            case let .array(elements):
                for (i, element) in elements.enumerated() { visit(element, path + "/\(i)") }
            default:
                break
            }
        }
        visit(schema, "")
        #expect(unresolved.isEmpty, "references to no definition: \(unresolved)")
    }

    @Test(arguments: versions)
    func everyKeyAndDefinitionHasAHoverDescription(_ version: Int) throws {
        // Given the schema, every key it names (properties, patternProperties) and every definition
        // must carry the description an editor shows on hover.
        var missing: [String] = []
        func visit(_ node: JSONNode, _ path: String) {
            switch node.value {
            case let .object(members):
                for member in members {
                    let memberPath = path + "/" + member.key
                    // A keyword's map names keys (a spec may itself have a key called "properties"): its entries are schemas.
                    if ["properties", "patternProperties", "$defs"].contains(member.key), case let .object(entries) = member.value.value {
                        for entry in entries {
                            if (Self.string(entry.value["description"]) ?? "").isEmpty { missing.append(memberPath + "/" + entry.key) }
                            visit(entry.value, memberPath + "/" + entry.key)
                        }
                    } else {
                        visit(member.value, memberPath)
                    }
                }
            case let .array(elements):
                for (i, element) in elements.enumerated() { visit(element, path + "/\(i)") }
            default:
                break
            }
        }
        let schema = try Self.schema(version)
        visit(schema, "")
        #expect(missing.isEmpty, "no description: \(missing)")
        #expect(!(Self.string(schema["description"]) ?? "").isEmpty)
    }

    @Test(arguments: versions)
    func theSchemaKnowsTheKeysTheLoaderKnows(_ version: Int) throws {
        let schema = try Self.schema(version)
        let definitions = schema["$defs"]
        func properties(_ definition: String) -> [String] { Self.keys(definitions?[definition]?["properties"]) }
        // Every object the loader reads by a key list, against the schema's object for it, in the same order.
        let objects = SpecKeys.objects(version: version)
        for (definition, keys) in objects {
            let written = definition.map(properties) ?? Self.keys(schema["properties"])
            #expect(written == keys, "the schema's \(definition.map { "$defs/\($0)" } ?? "top level") names \(written), the loader \(keys)")
        }
        // And every object the schema lists keys for is one the loader has a list for: none is left unchecked.
        let paired = Set(objects.compactMap(\.definition))
        let unpaired = Self.keys(definitions).filter { !Self.keys(definitions?[$0]?["properties"]).isEmpty && !paired.contains($0) }
        #expect(unpaired.isEmpty, "$defs with properties no SpecKeys list is paired with (SpecKeys.objects): \(unpaired)")
        if version >= 2 {
            // Section 6: the levels a step asks for and the kinds of factor, as the loader reads them.
            func strings(_ node: JSONNode?) -> [String] {
                guard case let .array(items)? = node?.value else { return [] }
                return items.compactMap { Self.string($0) }
            }
            #expect(strings(definitions?["step"]?["properties"]?["assurance"]?["enum"]) == AssuranceLevel.required.map(\.rawValue))
            #expect(strings(definitions?["factor"]?["properties"]?["kind"]?["enum"]) == FlowSpec.FactorKind.allCases.map(\.rawValue))
            // Exactly one operator per guard and one rule per property, as the loader reads them.
            func required(_ definition: String) -> [String] {
                guard case let .array(branches)? = definitions?[definition]?["oneOf"]?.value else { return [] }
                return branches.flatMap { branch -> [String] in
                    guard case let .array(keys)? = branch["required"]?.value else { return [] }
                    return keys.compactMap { Self.string($0) }
                }
            }
            #expect(required("guard") == SpecKeys.guardOperators)
            #expect(required("propertyGuard") == SpecKeys.guardOperators + ["at"])
            #expect(required("userProperty") == SpecKeys.propertyKinds)
            // A property's id: the built-in ids refused, at most 64 characters.
            let id = definitions?["userProperty"]?["properties"]?["id"]
            if case let .array(reserved)? = id?["not"]?["enum"]?.value {
                #expect(reserved.compactMap { Self.string($0) } == FlowSpec.UserProperty.reservedIDs)
            } else {
                Issue.record("no enum of reserved ids")
            }
            #expect(Self.int(id?["maxLength"]) == 64)
            guard case let .array(senders)? = definitions?["sender"]?["enum"]?.value else {
                Issue.record("no sender enum")
                return
            }
            #expect(senders.compactMap { Self.string($0) } == [FlowSpec.Sender.user, .system].map(\.rawValue))
        } else {
            for definition in ["declaration", "requirement", "emission", "anywhereRow", "guard", "propertyGuard", "userProperty"] {
                #expect(definitions?[definition] == nil, "authflow/1 has no \(definition)")
            }
        }
        // The format each schema is for, as the loader names it.
        #expect(Self.string(schema["properties"]?["format"]?["const"]) == SpecLoader.formats[version - 1])
    }

    @Test(arguments: versions)
    func theSchemaHoldsNamesAndListsToTheLoadersLimits(_ version: Int) throws {
        let definitions = try Self.schema(version)["$defs"]
        #expect(Self.int(definitions?["name"]?["maxLength"]) == SpecLimits.maxNameBytes)
        #expect(Self.int(definitions?["keys"]?["maxItems"]) == SpecLimits.maxKeysPerList)
        // A name may hold no control or invisible formatting character: the schema's class is
        // exactly the scalars the loader refuses, as this toolchain's Unicode tables have them.
        let pattern = Self.string(definitions?["invisibleCharacter"]?["pattern"])
        #expect(pattern == Self.invisibleCharacterClass, "paste the class the loader uses into docs/schema: \(Self.invisibleCharacterClass)")
    }

    /// The line that marks the next `json` block as an example that leaves parts out on purpose.
    static let cutDown = "<!-- cut down: not checked as a whole spec -->"

    /// Each whole spec a Markdown document shows (a `json` block that is an object with a `format`,
    /// not right after ``cutDown``), with its line.
    static func examples(in document: String) throws -> [(line: Int, json: String)] {
        let text = try String(contentsOf: root.appendingPathComponent(document), encoding: .utf8)
        var examples: [(line: Int, json: String)] = []
        var block: [Substring]?
        var start = 0
        var previous: Substring = ""
        for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            defer { if !line.isEmpty { previous = line } }
            if block == nil, line == "```json", previous != cutDown {
                block = []
                start = number + 2
            } else if let lines = block, line == "```" {
                let json = lines.joined(separator: "\n")
                if let node = try? JSONParser.parse(json), node["format"] != nil { examples.append((start, json)) }
                block = nil
            } else {
                block?.append(line)
            }
        }
        return examples
    }

    @Test(arguments: ["README.md", "docs/tutorial.md", "docs/spec-by-example.md", "docs/spec-format.md", "docs/spec-format-2.md"])
    func everyWholeSpecShownInTheDocsLoads(_ document: String) throws {
        let examples = try Self.examples(in: document)
        if document != "docs/spec-format.md" { #expect(!examples.isEmpty, "\(document) shows a whole spec") }
        for example in examples {
            do {
                _ = try SpecLoader.load(json: example.json, file: "\(document):\(example.line)")
            } catch {
                Issue.record("the spec shown at \(document):\(example.line) does not load: \(error)")
            }
        }
    }

    /// The regular-expression class of every scalar ``Unicode/Scalar/isControlOrInvisibleFormat``
    /// holds for: `\uXXXX` in the Basic Multilingual Plane, the character itself beyond it.
    static let invisibleCharacterClass: String = {
        var ranges: [ClosedRange<UInt32>] = []
        for value in UInt32(0)...0x10FFFF {
            guard let scalar = Unicode.Scalar(value), scalar.isControlOrInvisibleFormat else { continue }
            if let last = ranges.last, last.upperBound + 1 == value {
                ranges[ranges.count - 1] = last.lowerBound...value
            } else {
                ranges.append(value...value)
            }
        }
        func written(_ value: UInt32) -> String {
            value <= 0xFFFF ? "\\u" + TextScalars.hex(value, minimumDigits: 4) : String(Character(Unicode.Scalar(value)!))
        }
        return "[" + ranges.map { $0.count == 1 ? written($0.lowerBound) : written($0.lowerBound) + "-" + written($0.upperBound) }.joined() + "]"
    }()
}

/// The loader's half of `Tests/SchemaSync/verdicts.json`: every spec file it lists as refused is
/// refused, and every other spec file in the repository loads. `.ci/schema-sync` adds the schema's half.
@Suite struct SchemaSyncTests {
    struct Listed: Sendable, CustomStringConvertible {
        var file: String
        var kind: String
        var description: String { file }
    }

    static let manifest: JSONNode? = {
        let url = SpecSchemaTests.root.appendingPathComponent("Tests/SchemaSync/verdicts.json")
        guard let data = try? Data(contentsOf: url) else { return nil }
        return try? JSONParser.parse([UInt8](data))
    }()

    static let refused: [Listed] = {
        guard case let .array(entries)? = manifest?["refused"]?.value else { return [] }
        return entries.map { Listed(file: SpecSchemaTests.string($0["file"]) ?? "", kind: SpecSchemaTests.string($0["kind"]) ?? "") }
    }()

    /// Every `.json` file in the repository, from its root, but hidden folders and `.build`.
    static let jsonFiles: [String] = {
        let root = SpecSchemaTests.root
        guard let walker = FileManager.default.enumerator(at: root, includingPropertiesForKeys: nil, options: [.skipsHiddenFiles]) else { return [] }
        var files: [String] = []
        for case let url as URL in walker where url.pathExtension == "json" {
            let path = url.standardizedFileURL.path
            files.append(String(path.dropFirst(root.standardizedFileURL.path.count + 1)))
        }
        return files.sorted()
    }()

    /// Whether `path` matches `pattern`, whose `*` matches any run of characters, `/` included (as Python's fnmatch).
    static func matches(_ path: String, _ pattern: String) -> Bool {
        let parts = pattern.split(separator: "*", omittingEmptySubsequences: false).map(String.init)
        guard parts.count > 1 else { return path == pattern }
        guard path.hasPrefix(parts[0]) else { return false }
        var rest = Substring(path.dropFirst(parts[0].count))
        for part in parts.dropFirst().dropLast() {
            guard let range = rest.range(of: part) else { return false }
            rest = rest[range.upperBound...]
        }
        return rest.hasSuffix(parts.last!)
    }

    static let specFiles: [String] = {
        guard case let .array(patterns)? = manifest?["notSpecs"]?.value else { return jsonFiles }
        let notSpecs = patterns.compactMap { SpecSchemaTests.string($0) }
        return jsonFiles.filter { file in !notSpecs.contains { matches(file, $0) } }
    }()

    @Test func theManifestListsFilesThatExistWithAKind() {
        #expect(Self.refused.count > 200, "the manifest was read")
        for entry in Self.refused {
            #expect(["schema-expressible", "semantic"].contains(entry.kind), "\(entry.file): \(entry.kind)")
            #expect(Self.specFiles.contains(entry.file), "\(entry.file) is not a spec file in the repository")
        }
        #expect(Self.matches("Tests/A/Expected/trails/x.json", "Tests/A/Expected/trails/*"))
        #expect(!Self.matches("Tests/A/Expected/specs/x.json", "Tests/A/Expected/trails/*"))
    }

    @Test(arguments: refused)
    func aListedSpecIsRefused(_ entry: Listed) {
        #expect(throws: InvalidSpecError.self, "\(entry.file) is listed as refused (\(entry.kind))") {
            _ = try SpecLoader.load(file: SpecSchemaTests.root.appendingPathComponent(entry.file).path)
        }
    }

    @Test func everyOtherSpecLoads() {
        let listed = Set(Self.refused.map(\.file))
        let accepted = Self.specFiles.filter { !listed.contains($0) }
        #expect(accepted.count >= 30, "\(accepted)")
        for file in accepted {
            do {
                _ = try SpecLoader.load(file: SpecSchemaTests.root.appendingPathComponent(file).path)
            } catch {
                Issue.record("\(file) is not listed as refused in Tests/SchemaSync/verdicts.json, but: \(error)")
            }
        }
    }
}
