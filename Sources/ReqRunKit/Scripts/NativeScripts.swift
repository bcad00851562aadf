import Foundation

/// Scripts in reqrun's native format: `"scripts": {"prerequest": TEXT, "test": TEXT}` on the collection, a
/// group or a request, where TEXT is a string, an array of lines (joined with line feeds, as Postman's
/// `exec`), or `{"file": "path"}`, a file inside the file roots (`FileScope.bodyFile`: the collection's
/// folder's workspace or a `--file-root`), read when the collection loads, at most 1 MiB. They run as the
/// Postman scripts do (README, "Postman scripts"): collection, groups outer to inner, request.
enum NativeScripts {
    /// The largest script file: 1 MiB (the biggest script of the corpus is about 30 KiB).
    static let fileBound = FileSizeBound(bytes: 1 << 20, kind: "a script file")

    /// The `scripts` field of `reader`'s object (prerequest before test, as Newman runs them).
    /// - Throws: `InputError` for a wrong type, an unknown event, or a script file outside the roots,
    ///   missing, unreadable, too large or not UTF-8.
    static func decode(_ reader: FieldReader, base: FileScope) throws(InputError) -> [Script] {
        guard let node = reader.optional("scripts") else { return [] }
        let path = reader.childPath("scripts")
        let scripts = try FieldReader(file: reader.file, node: node, path: path)
        try scripts.rejectUnknownKeys(["prerequest", "test"])
        var found: [Script] = []
        for (event, key) in [(Script.Event.prerequest, FieldKey("prerequest")), (.test, "test")] {
            guard let text = scripts.optional(key) else { continue }
            let textPath = scripts.childPath(event.rawValue)
            let source: String
            switch text.value {
            case .string(let line): source = line
            case .array(let items):
                source = try items.enumerated().map { (i, item) throws(InputError) in
                    guard case .string(let line) = item.value else {
                        throw reader.error(item, "\(textPath)[\(i)]", "expected a string (one line of the script), found \(item.kindDescription)")
                    }
                    return line
                }.joined(separator: "\n")
            case .object:
                let file = try FieldReader(file: reader.file, node: text, path: textPath)
                try file.rejectUnknownKeys(["file"])
                let written = try file.requiredString("file")
                source = try read(written, base: base, error: { reason in reader.error(text, file.childPath("file"), reason) })
            default:
                throw reader.error(text, textPath, "expected a string, an array of lines or {\"file\": \"path\"}, found \(text.kindDescription)")
            }
            guard !source.allSatisfy(\.isWhitespace) else { continue }
            found.append(Script(event: event, source: source, file: reader.file, fieldPath: textPath))
        }
        return found
    }

    private static func read(_ written: String, base: FileScope, error: (String) -> InputError) throws(InputError) -> String {
        let path: String
        // A script file sits beside its collection, whatever `--working-dir` says (that is for body files).
        var scope = base
        scope.workingDirectory = nil
        switch scope.bodyFile(written, mustExist: true) {
        case .success(let resolved): path = resolved
        case .failure(let refusal): throw error(refusal.reason)
        }
        // Checked as a regular file when resolved; opened so that one put there since cannot block either.
        switch FileBytes.read(atPath: path, bound: fileBound, regularOnly: true) {
        case .failure(.tooLarge(let reason)): throw error("\(written) \(reason)")
        case .failure(.notRegular(let kind)): throw error("\(written) is \(kind), not a regular file")
        case .failure(.unreadable): throw error("\(written) cannot be read")
        case .success(let bytes):
            guard let text = String(validating: bytes, as: UTF8.self) else { throw error("\(written) is not UTF-8 text") }
            return text
        }
    }

    /// The `scripts` value for `scripts` (each as an array of its lines), or nil when there are none.
    static func encode(_ scripts: [Script]) -> CollectionEncoder.Value? {
        // Two scripts of one event (a Postman item may have two `test` events) become one, in order.
        let members: [(String, CollectionEncoder.Value)] = [Script.Event.prerequest, .test].compactMap { event in
            let sources = scripts.filter { $0.event == event }.map(\.source)
            guard !sources.isEmpty else { return nil }
            return (event.rawValue, .array(sources.joined(separator: "\n").split(separator: "\n", omittingEmptySubsequences: false).map { .string(String($0)) }))
        }
        return members.isEmpty ? nil : .object(members)
    }
}
