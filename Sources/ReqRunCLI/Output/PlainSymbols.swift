import Foundation

extension Terminal {
    /// The same terminal writing `Pass` for `✓` and `Fail` for `✗`, for Newman's `--disable-unicode`
    /// (Newman's cli reporter then prints its `plainText` symbols: `ok` `Pass`, `error` `Fail`). Every
    /// `✓` and `✗` written to stdout and stderr is replaced, a script's `console.log` text included; reports
    /// and the run record keep theirs.
    func withPlainSymbols() -> Terminal {
        let out = self.out, err = self.err
        let plain: @Sendable (String) -> String = { text in
            guard text.contains("✓") || text.contains("✗") else { return text }
            return text.replacingOccurrences(of: "✓", with: "Pass").replacingOccurrences(of: "✗", with: "Fail")
        }
        var terminal = self
        terminal.out = { out(plain($0)) }
        terminal.outBytes = { out(plain(String(decoding: $0, as: UTF8.self))) }
        terminal.err = { err(plain($0)) }
        return terminal
    }
}
