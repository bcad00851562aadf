import Testing
import ReqRunKit

/// Byte searches on a string's UTF-8 (`StringBytes.swift`).
@Suite struct StringBytesTests {
    @Test func containsUTF8FindsExactBytesAnywhere() {
        #expect("pm.cookies.get('a')".containsUTF8("cookies"))
        #expect("cookies".containsUTF8("cookies"))
        #expect("x = 1; // cookies".containsUTF8("cookies"))
        #expect(!"pm.cookie.get('a')".containsUTF8("cookies"))
        #expect(!"cook".containsUTF8("cookies"))
        #expect("".containsUTF8(""))
        #expect("é😀x".containsUTF8("😀"))
        // Bytes, not Unicode equivalence: e + combining acute is not é.
        #expect(!"e\u{301}".containsUTF8("é"))
    }
}
