/// CSV as RFC 4180 defines it, for data files: records end in CRLF or LF, fields are separated by commas, a
/// field in double quotes may hold commas, line breaks and doubled quotes (`""` is one `"`). The first record
/// is the header: it names the columns, and every later record must have as many fields. A UTF-8 byte order
/// mark is skipped; empty lines are skipped (a last line break included).
///
/// Stricter than some readers on purpose, as a wrong row silently sends wrong data: a quote inside an
/// unquoted field, text after a closing quote, a quote left open and a record of another length are errors
/// with the line and column (UTF-8 bytes, 1-based) where they are.
enum CSVTable {
    static func decode(_ bytes: [UInt8], file: String) throws(InputError) -> IterationData {
        var records = try records(bytes, file: file)
        guard !records.isEmpty else { return IterationData(rows: []) }
        let header = records.removeFirst()
        var seen = Set<String>()
        for (index, name) in header.fields.enumerated() where !seen.insert(name).inserted {
            throw InputError(file: file, location: header.starts[index], reason: "the column '\(name)' is named twice in the header")
        }
        return IterationData(rows: try records.map { record throws(InputError) in
            guard record.fields.count == header.fields.count else {
                throw InputError(file: file, location: record.starts[0],
                                 reason: "this row has \(record.fields.count) field\(record.fields.count == 1 ? "" : "s"), the header \(header.fields.count)")
            }
            return zip(header.fields, record.fields).map { Variable(name: $0, value: $1) }
        })
    }

    struct Record {
        var fields: [String] = []
        /// Where each field starts.
        var starts: [SourceLocation] = []
    }

    static func records(_ bytes: [UInt8], file: String) throws(InputError) -> [Record] {
        let quote = UInt8(ascii: "\""), comma = UInt8(ascii: ","), cr = UInt8(ascii: "\r"), lf = UInt8(ascii: "\n")
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        // Columns count after a byte order mark, as in JSON files.
        var line = 1, lineStart = i
        func location(_ at: Int) -> SourceLocation { SourceLocation(line: line, column: at - lineStart + 1) }
        var records: [Record] = []
        var record = Record()
        var atRecordStart = true
        while i < bytes.count {
            // An empty line between records is skipped.
            if atRecordStart, bytes[i] == lf || (bytes[i] == cr && i + 1 < bytes.count && bytes[i + 1] == lf) {
                i += bytes[i] == cr ? 2 : 1
                line += 1
                lineStart = i
                continue
            }
            atRecordStart = false
            record.starts.append(location(i))
            var field: [UInt8] = []
            if bytes[i] == quote {
                let opening = location(i)
                i += 1
                while true {
                    guard i < bytes.count else {
                        throw InputError(file: file, location: opening, reason: "this quoted field is not closed (a \" is missing)")
                    }
                    if bytes[i] == quote {
                        if i + 1 < bytes.count, bytes[i + 1] == quote {
                            field.append(quote)
                            i += 2
                            continue
                        }
                        i += 1
                        break
                    }
                    if bytes[i] == lf {
                        line += 1
                        lineStart = i + 1
                    }
                    field.append(bytes[i])
                    i += 1
                }
                if i < bytes.count, bytes[i] != comma, bytes[i] != lf, !(bytes[i] == cr && i + 1 < bytes.count && bytes[i + 1] == lf) {
                    throw InputError(file: file, location: location(i), reason: "text after a closing quote (a field that holds \" must be quoted whole, with \"\" for each \")")
                }
            } else {
                while i < bytes.count, bytes[i] != comma, bytes[i] != lf, !(bytes[i] == cr && i + 1 < bytes.count && bytes[i + 1] == lf) {
                    if bytes[i] == quote {
                        throw InputError(file: file, location: location(i), reason: "a \" inside an unquoted field (quote the whole field and write \"\" for each \")")
                    }
                    field.append(bytes[i])
                    i += 1
                }
            }
            record.fields.append(String(decoding: field, as: UTF8.self))
            if i < bytes.count, bytes[i] == comma {
                i += 1
                // A comma at the very end of the input or of a line: one more, empty field.
                if i == bytes.count || bytes[i] == lf || (bytes[i] == cr && i + 1 < bytes.count && bytes[i + 1] == lf) {
                    record.starts.append(location(i))
                    record.fields.append("")
                }
            }
            if i == bytes.count || bytes[i] == lf || bytes[i] == cr {
                if i < bytes.count { i += bytes[i] == cr ? 2 : 1 }
                line += 1
                lineStart = i
                records.append(record)
                record = Record()
                atRecordStart = true
            }
        }
        return records
    }
}
