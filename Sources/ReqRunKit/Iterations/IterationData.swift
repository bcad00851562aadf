import Foundation

/// The rows of a data file (`--iteration-data FILE`, Newman's `-d`): one row per iteration, each a list of
/// name → value that becomes the iteration's `data` variable layer (`{{name}}`, `pm.iterationData`).
///
/// Two formats, as Newman reads them: a JSON array of objects (RFC 8259), or CSV (RFC 4180) whose first
/// record is the header naming the columns. The file is told by its name (`.json`, `.csv`), else by its
/// first character (`[` is JSON). JSON values that are not strings become their JSON text (`5`, `true`,
/// `{"a":1}`) for `{{name}}`; `null` becomes the empty string. Scripts see them with their JSON type, as
/// Newman gives them (`jsonValues`); CSV values are all text, as in Newman.
public struct IterationData: Sendable, Equatable {
    /// The rows in file order; each row's variables in column (or key) order.
    public var rows: [[Variable]]
    /// Per row, the JSON text of each value that is not a string (a number, `true`, `null`, an object…), by
    /// name: what `pm.iterationData.get` and `data` give scripts. Empty for CSV.
    public var jsonValues: [[String: String]]

    public init(rows: [[Variable]], jsonValues: [[String: String]] = []) {
        self.rows = rows
        self.jsonValues = jsonValues
    }

    /// Reads and decodes `path` (relative to `base`), within `FileSizeBound.iterationData`.
    /// - Throws: `InputError` (file as given, line and column) for a file that cannot be read, is too large
    ///   or is not a JSON array of objects or CSV with a header.
    public static func load(_ path: String, relativeTo base: URL) throws(InputError) -> IterationData {
        try decode(readFile(path, relativeTo: base, bound: .iterationData), file: path)
    }

    /// The bytes of a file the user named on the command line (`path` relative to `base`), within `bound`.
    /// - Throws: `InputError` (file as given) when it is missing, unreadable or too large.
    static func readFile(_ path: String, relativeTo base: URL, bound: FileSizeBound) throws(InputError) -> [UInt8] {
        let url = URL(fileURLWithPath: path, relativeTo: base).standardizedFileURL
        switch FileBytes.read(atPath: url.path, bound: bound) {
        case .failure(.tooLarge(let reason)):
            throw InputError(file: path, location: nil, reason: reason)
        case .failure(.unreadable), .failure(.notRegular):
            throw InputError(file: path, location: nil, reason: FileManager.default.fileExists(atPath: url.path) ? "cannot be read" : "no such file")
        case .success(let bytes):
            return bytes
        }
    }

    /// Decodes a data file's bytes: UTF-8 (a byte order mark is skipped), or UTF-16 with a byte order mark
    /// (`UTF16Text`; lines and columns in errors count in the converted text).
    /// - Throws: `InputError` at the problem; for UTF-16 without a byte order mark, one that says so.
    public static func decode(_ raw: [UInt8], file: String) throws(InputError) -> IterationData {
        let bytes: [UInt8]
        do { bytes = try UTF16Text.utf8(raw) } catch { throw InputError(file: file, location: error.location, reason: error.reason) }
        let lower = file.lowercased()
        let isJSON = lower.hasSuffix(".json") || (!lower.hasSuffix(".csv") && bytes.drop { [0xEF, 0xBB, 0xBF, 0x20, 0x09, 0x0A, 0x0D].contains($0) }.first == UInt8(ascii: "["))
        return isJSON ? try decodeJSON(bytes, file: file) : try CSVTable.decode(bytes, file: file)
    }

    private static func decodeJSON(_ bytes: [UInt8], file: String) throws(InputError) -> IterationData {
        let body = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
        let root: JSONNode
        do {
            root = try JSONParser.parse(body)
        } catch {
            throw InputError(file: file, location: error.location, reason: error.reason)
        }
        guard case .array(let items) = root.value else {
            throw InputError(file: file, location: root.location, reason: "expected an array of objects (one per iteration), found \(root.kindDescription)")
        }
        var rows: [[Variable]] = [], jsonValues: [[String: String]] = []
        for (index, item) in items.enumerated() {
            guard case .object(let members) = item.value else {
                throw InputError(file: file, location: item.location, fieldPath: "[\(index)]",
                                 reason: "expected an object of name → value, found \(item.kindDescription)")
            }
            rows.append(members.map { member in
                switch member.value.value {
                case .string(let text): Variable(name: member.key, value: text)
                case .null: Variable(name: member.key, value: "")
                default: Variable(name: member.key, value: member.value.compactText)
                }
            })
            var typed: [String: String] = [:]
            for member in members {
                if case .string = member.value.value { continue }
                typed[member.key] = member.value.compactText
            }
            jsonValues.append(typed)
        }
        return IterationData(rows: rows, jsonValues: jsonValues)
    }
}

extension FileSizeBound {
    /// `--iteration-data FILE`: 64 MiB.
    public static let iterationData = FileSizeBound(bytes: 64 << 20, kind: "a data file")
}
