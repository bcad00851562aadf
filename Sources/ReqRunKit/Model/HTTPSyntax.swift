/// Character classes from HTTP's grammar.
public enum HTTPSyntax {
    /// `tchar` (RFC 9110 §5.6.2): the characters of a token, which methods and field names are made of.
    public static func isTokenCharacter(_ c: Unicode.Scalar) -> Bool {
        switch c {
        case "a"..."z", "A"..."Z", "0"..."9": return true
        case "!", "#", "$", "%", "&", "'", "*", "+", "-", ".", "^", "_", "`", "|", "~": return true
        default: return false
        }
    }
}
