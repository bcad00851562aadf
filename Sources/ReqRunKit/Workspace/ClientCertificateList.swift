import Foundation

/// Reads Newman's `--ssl-client-cert-list` file: a JSON array of certificates, each for the request URLs its
/// `matches` patterns match (`URLMatchPattern`):
///
///     [{"name": "api", "matches": ["https://api.example.com/*"], "cert": {"src": "api.pem"},
///       "key": {"src": "api.key"}, "passphrase": "…"},
///      {"name": "partner", "matches": ["https://*.partner.example:8443/*"], "pfx": {"src": "partner.p12"}, "passphrase": "…"}]
///
/// Fields (Newman's README and postman-collection's `Certificate`): `name` (text, for messages), `matches` (an
/// array of patterns, required, each one valid), `cert`, `key` and `pfx` (each `{"src": PATH}` or PATH),
/// `passphrase` (a secret). An entry has `pfx`, or `cert` (with `key`, unless the certificate file holds the
/// key too); `key` alone or `pfx` with either of the others is refused. Other fields (a typo) are refused.
///
/// A `src` path is relative to the list file's folder, or absolute (Newman resolves it against its working
/// directory; for a list in the current folder the two agree). It must lie inside `roots` (the workspace and
/// `--file-root` folders) or the list file's own folder, after resolving links (`FileRoots`), and be a file.
public enum ClientCertificateList {
    /// - Parameters:
    ///   - path: the list file, absolute; `display`: the name errors give it (as the user typed it).
    /// - Throws: `InputError` (`file:line:column: field: reason`) for a file that cannot be read or is not such a list.
    public static func load(_ path: String, display: String, roots: FileRoots) throws(InputError) -> [ClientCertificate] {
        let bytes: [UInt8]
        switch FileBytes.read(atPath: path, bound: .clientCertificateList) {
        case .success(let read): bytes = read
        case .failure(.tooLarge(let reason)): throw InputError(file: display, location: nil, reason: reason)
        case .failure: throw InputError(file: display, location: nil, reason: FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file")
        }
        let folder = (FileRoots.realPath(path) as NSString).deletingLastPathComponent
        return try decode(bytes, file: display, base: folder, roots: roots.contains(folder) ? roots : FileRoots(roots.folders + [folder]))
    }

    /// The entries of a list already read; `base`: where relative `src` paths start.
    public static func decode(_ bytes: [UInt8], file: String, base: String, roots: FileRoots) throws(InputError) -> [ClientCertificate] {
        let root: JSONNode
        do { root = try JSONParser.parse(bytes) } catch { throw InputError(file: file, location: error.location, reason: error.reason) }
        guard case .array(let items) = root.value else {
            throw InputError(file: file, location: root.location, reason: "expected an array of client certificates, found \(root.kindDescription)")
        }
        var entries: [ClientCertificate] = []
        for (index, item) in items.enumerated() {
            let reader = try FieldReader(file: file, node: item, path: "[\(index)]")
            try reader.rejectUnknownKeys(["name", "matches", "cert", "key", "pfx", "passphrase"])
            var entry = ClientCertificate(name: try reader.optionalString("name"), passphrase: try reader.optionalString("passphrase"))
            let matches = try reader.optionalArray("matches")
            guard !matches.isEmpty else {
                throw reader.error(reader.optional("matches") ?? item, reader.childPath("matches"),
                                   "expected an array of URL match patterns such as \"https://api.example.com/*\"")
            }
            for (node, path) in matches {
                guard case .string(let text) = node.value else { throw reader.error(node, path, "expected a string, found \(node.kindDescription)") }
                guard let pattern = URLMatchPattern(text) else { throw reader.error(node, path, URLMatchPattern.refusal(text) ?? "") }
                entry.matches.append(pattern)
            }
            entry.certificate = try source(reader, "cert", base: base, roots: roots)
            entry.key = try source(reader, "key", base: base, roots: roots)
            entry.pkcs12 = try source(reader, "pfx", base: base, roots: roots)
            if entry.pkcs12 != nil, let other = reader.present(["cert", "key"]).first {
                throw reader.error(reader.optional(FieldName(other))!, reader.childPath(other), "'pfx' holds the certificate and its key: give either 'pfx' or 'cert' and 'key'")
            }
            if entry.pkcs12 == nil, entry.certificate == nil {
                throw reader.error(reader.optional("key") ?? item, reader.childPath(entry.key == nil ? "cert" : "key"),
                                   entry.key == nil ? "expected 'cert' (with 'key') or 'pfx'" : "a 'key' needs its 'cert'")
            }
            entries.append(entry)
        }
        return entries
    }

    /// The file of `cert`, `key` or `pfx` (`{"src": PATH}` or PATH), resolved and checked; nil when absent.
    private static func source(_ reader: FieldReader, _ key: FieldKey, base: String, roots: FileRoots) throws(InputError) -> String? {
        guard let node = reader.optional(key) else { return nil }
        var path = reader.childPath(key)
        let written: String
        let at: JSONNode
        switch node.value {
        case .string(let text): (written, at) = (text, node)
        case .object:
            let inner = try FieldReader(file: reader.file, node: node, path: path)
            try inner.rejectUnknownKeys(["src"])
            written = try inner.requiredString("src")
            at = inner.optional("src")!
            path = inner.childPath("src")
        default: throw reader.error(node, path, "expected {\"src\": PATH} or a path, found \(node.kindDescription)")
        }
        guard !written.isEmpty else { throw reader.error(at, path, "expected a path, found an empty string") }
        switch roots.resolve(written, from: base) {
        case .failure(let refusal): throw reader.error(at, path, refusal.reason)
        case .success(let resolved):
            var info = stat()
            guard stat(resolved, &info) == 0 else { throw reader.error(at, path, "no such file: \(resolved)") }
            guard info.st_mode & S_IFMT == S_IFREG else { throw reader.error(at, path, "\(resolved) is not a regular file") }
            return resolved
        }
    }
}

extension ClientCertificateList {
    /// `--ssl-client-passphrase-file FILE`: the passphrase on the file's first line, without its line end (LF
    /// or CR LF); a pipe (`<(pass show key)`) is read too. What follows the first line is ignored.
    /// - Throws: `InputError` for a file that cannot be read, is larger than 64 KiB, or has an empty first line.
    public static func passphrase(fromFile path: String, display: String) throws(InputError) -> String {
        let bytes: [UInt8]
        switch FileBytes.read(atPath: path, bound: .passphrase) {
        case .success(let read): bytes = read
        case .failure(.tooLarge(let reason)): throw InputError(file: display, location: nil, reason: reason)
        case .failure: throw InputError(file: display, location: nil, reason: FileManager.default.fileExists(atPath: path) ? "cannot be read" : "no such file")
        }
        var line = bytes.prefix { $0 != UInt8(ascii: "\n") }
        if line.last == UInt8(ascii: "\r") { line = line.dropLast() }
        guard !line.isEmpty else { throw InputError(file: display, location: nil, reason: "the first line, which holds the passphrase, is empty") }
        return String(decoding: line, as: UTF8.self)
    }
}

extension FileSizeBound {
    /// `--ssl-client-passphrase-file FILE`: 64 KiB.
    static let passphrase = FileSizeBound(bytes: 64 << 10, kind: "a passphrase file")

    /// `--ssl-client-cert-list FILE`: 16 MiB.
    public static let clientCertificateList = FileSizeBound(bytes: 16 << 20, kind: "a client certificate list")
}
