/// Bad input in a file the user wrote (a collection, a state file): where and what.
///
/// `description` has the compiler form `file:line:column: message`, so editors and terminals can jump
/// to the place. The CLI prints it after `error: ` and exits with code 2.
public struct InputError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file, as the user would name it (relative to the workspace when it is inside it).
    public var file: String
    /// Where in the file, when known.
    public var location: SourceLocation?
    /// The field's path inside the file, e.g. `groups[1].requests[0].url`, when the problem is a field.
    public var fieldPath: String?
    /// What is wrong, including any hint.
    public var reason: String

    public init(file: String, location: SourceLocation?, fieldPath: String? = nil, reason: String) {
        self.file = file
        self.location = location
        self.fieldPath = fieldPath
        self.reason = reason
    }

    public var description: String {
        var text = file
        if let location { text += ":\(location)" }
        text += ": "
        if let fieldPath, !fieldPath.isEmpty { text += "\(fieldPath): " }
        return text + reason
    }
}
