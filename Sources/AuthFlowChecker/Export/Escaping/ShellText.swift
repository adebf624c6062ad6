import AuthFlow

/// The one escaper for command lines a report prints for a person to copy and run in a shell.
package enum ShellText {
    /// `argument` as one shell word: as it is when it holds only characters no shell reads, else in
    /// single quotes (a `'` inside written `'\''`), or, when it holds a control or invisible
    /// character, in `$'…'` quotes with that character's UTF-8 bytes as `\xHH`, so that
    /// printing the command cannot drive the terminal (bash, zsh, ksh and POSIX.1-2024 sh read
    /// `$'…'`). An argument that starts with `-` and names a file gets `./` first, so the command
    /// does not read it as an option.
    ///
    /// ```swift
    /// ShellText.quoted("Specs/a.json")         // Specs/a.json
    /// ShellText.quoted("my flow.json")         // 'my flow.json'
    /// ShellText.quoted("-flow.json", file: true) // ./-flow.json
    /// ```
    package static func quoted(_ argument: String, file: Bool = false) -> String {
        var word = argument
        if file, word.hasPrefix("-") { word = "./" + word }
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || "@%+=:,./_-".unicodeScalars.contains(scalar))
        }
        if plain { return word }
        guard word.unicodeScalars.contains(where: \.isControlOrInvisibleFormat) else {
            return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
        }
        var out = "$'"
        for scalar in word.unicodeScalars {
            switch scalar {
            case "'": out += "\\'"
            case "\\": out += "\\\\"
            case _ where scalar.isControlOrInvisibleFormat:
                // Its UTF-8 bytes as `\xHH`, which every shell that reads `$'…'` reads whatever the locale.
                for byte in String(scalar).utf8 { out += "\\x" + TextScalars.hex(byte, minimumDigits: 2) }
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "'"
    }
}
