import AuthCheckTestSupport

extension EndToEndCase {
    /// `diff OLD NEW`: a skip button added and back disabled, the same flow written in another order, invalid input and usage.
    static let diff: [EndToEndCase] = [
        .init("diff-text", ["diff", Fixture.spec("diff-old"), Fixture.spec("diff-new")]),
        .init("diff-json", ["diff", "--format", "json", Fixture.spec("diff-old"), Fixture.spec("diff-new")]),
        .init("diff-cosmetic-identical", ["diff", Fixture.spec("diff-old"), Fixture.spec("diff-cosmetic")]),
        .init("diff-cosmetic-identical-json", ["diff", "--format", "json", Fixture.spec("diff-old"), Fixture.spec("diff-cosmetic")]),
        .init("diff-new-on-stdin", ["diff", Fixture.spec("diff-old"), "-"], stdin: contents(Fixture.spec("diff-new"))),
        // The v2 fixture against itself in one variant: the other variant is in the old version only.
        .init("diff-v2-variant-dropped", ["diff", version2Spec, "-"],
              stdin: contents(version2Spec).replacingOccurrences(of: #""recovery": ["code", "link"]"#, with: #""recovery": ["code"]"#)),
        // Property changes: the violations, the screen and the rows only the new version has.
        .init("diff-new-screen", ["diff", Fixture.spec("diff-old"), Fixture.spec("diff-help")]),
        .init("diff-new-screen-json", ["diff", "--format", "json", Fixture.spec("diff-old"), Fixture.spec("diff-help")]),
        // A pull-request comment: a help screen named with a pipe (escaped in its cell), a new violation, a variant column.
        .init("diff-markdown", ["diff", "--format", "markdown", Fixture.spec("diff-old"), Fixture.spec("diff-help")]),
        .init("diff-markdown-identical", ["diff", "--format", "markdown", Fixture.spec("diff-old"), Fixture.spec("diff-cosmetic")]),
        .init("diff-markdown-variant", ["diff", "--format", "markdown", version2Spec, "-"],
              stdin: contents(version2Spec).replacingOccurrences(of: #""recovery": ["code", "link"]"#, with: #""recovery": ["code"]"#)),
        .init("diff-markdown-invalid-new", ["diff", "--format", "markdown", Fixture.spec("diff-old"), Fixture.spec("malformed")]),
        // Code scanning: only the violation the help screen brings, at its line in the new file.
        .init("diff-sarif", ["diff", "--format", "sarif", Fixture.spec("diff-old"), Fixture.spec("diff-help")]),
        .init("diff-sarif-none-new", ["diff", "--format", "sarif", Fixture.spec("diff-old"), Fixture.spec("diff-new")]),
        .init("diff-depth-bound", ["diff", "--depth", "1", Fixture.spec("diff-old"), Fixture.spec("diff-new")]),
        .init("diff-invalid-new", ["diff", Fixture.spec("diff-old"), Fixture.spec("malformed")]),
        .init("usage-diff-one-spec", ["diff", Fixture.spec("diff-old")]),
        .init("usage-diff-both-stdin", ["diff", "-", "-"]),
        .init("help-diff", ["diff", "--help"]),
    ]
}
